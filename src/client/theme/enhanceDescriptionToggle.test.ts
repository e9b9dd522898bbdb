// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enhanceDescriptionToggle } from './enhanceDescriptionToggle';

/*
 * The description's hide/show toggle (WAI-ARIA disclosure): the heading's text becomes a button that folds the
 * description away and back with a 250 ms height animation, at once for a visitor who prefers reduced motion.
 * happy-dom runs no animations, so each `animate` call is recorded and finished by the test, as the browser
 * finishes it.
 */

const SECTION = `
  <section class="product__description" aria-labelledby="description-heading" data-description-toggle="">
    <h2 id="description-heading">Description</h2>
    <div id="product-description-content" class="product__description-content"><p>Stoneware mug.</p></div>
  </section>`;

interface Played {
  frames: Keyframe[];
  options: KeyframeAnimationOptions;
  finish(): void;
  cancel: ReturnType<typeof vi.fn>;
}

function recordAnimations(content: HTMLElement, scrollHeight = 180) {
  const played: Played[] = [];
  Object.defineProperty(content, 'scrollHeight', { configurable: true, value: scrollHeight });
  vi.spyOn(content, 'animate').mockImplementation((frames, options) => {
    const animation = { onfinish: null as null | (() => void), cancel: vi.fn() };
    played.push({
      frames: frames as Keyframe[],
      options: options as KeyframeAnimationOptions,
      finish: () => animation.onfinish?.(),
      cancel: animation.cancel,
    });
    return animation as unknown as Animation;
  });
  vi.spyOn(content, 'getAnimations').mockImplementation(
    () => played.map((each) => ({ cancel: each.cancel })) as unknown as Animation[],
  );
  return played;
}

afterEach(() => {
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

const parts = () => ({
  heading: document.querySelector('h2') as HTMLElement,
  button: document.querySelector('h2 button') as HTMLButtonElement,
  content: document.getElementById('product-description-content') as HTMLElement,
});

describe('enhanceDescriptionToggle', () => {
  it('turns the heading’s text into an expanded disclosure button for the description', () => {
    document.body.innerHTML = SECTION;
    enhanceDescriptionToggle(document);
    const { heading, button } = parts();
    expect(button.type).toBe('button');
    expect(button.className).toBe('description-toggle');
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(button.getAttribute('aria-controls')).toBe('product-description-content');
    // The heading keeps its level and name: the button holds its text.
    expect(heading.textContent).toBe('Description');
    expect(heading.children).toHaveLength(1);
    expect(button.textContent).toBe('Description');
  });

  it('folds the description away over 250 ms, hiding it once the animation ends, and unfolds it again', () => {
    document.body.innerHTML = SECTION;
    const played = recordAnimations(parts().content);
    enhanceDescriptionToggle(document);
    const { button, content } = parts();

    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(played[0]?.frames).toEqual([
      { height: '180px', opacity: 1 },
      { height: '0px', opacity: 0 },
    ]);
    expect(played[0]?.options).toEqual({ duration: 250, easing: 'ease-in-out' });
    // Clipped while it shrinks, still there until the animation ends.
    expect(content.style.overflow).toBe('hidden');
    expect(content.hidden).toBe(false);
    played[0]?.finish();
    expect(content.hidden).toBe(true);
    expect(content.style.overflow).toBe('');

    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    // Shown at once so it can grow from nothing.
    expect(content.hidden).toBe(false);
    expect(played[1]?.frames).toEqual([
      { height: '0px', opacity: 0 },
      { height: '180px', opacity: 1 },
    ]);
    expect(played[0]?.cancel).toHaveBeenCalled();
    played[1]?.finish();
    expect(content.hidden).toBe(false);
    expect(content.style.overflow).toBe('');
  });

  it('a second click mid-animation cancels the running one and reverses', () => {
    document.body.innerHTML = SECTION;
    const played = recordAnimations(parts().content);
    enhanceDescriptionToggle(document);
    const { button, content } = parts();
    button.click();
    button.click();
    expect(played[0]?.cancel).toHaveBeenCalledOnce();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    played[1]?.finish();
    expect(content.hidden).toBe(false);
  });

  it('animates in no time for a visitor who prefers reduced motion', () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }) as MediaQueryList,
    );
    document.body.innerHTML = SECTION;
    const played = recordAnimations(parts().content);
    enhanceDescriptionToggle(document);
    parts().button.click();
    expect(played[0]?.options.duration).toBe(0);
  });

  it('enhances each section once, and leaves a section without a heading or a content id as it is', () => {
    document.body.innerHTML =
      SECTION +
      '<section data-description-toggle=""><h2>No id</h2><div class="product__description-content"></div></section>' +
      '<section data-description-toggle=""><div id="x" class="product__description-content"></div></section>';
    enhanceDescriptionToggle(document);
    enhanceDescriptionToggle(document);
    expect(document.querySelectorAll('button')).toHaveLength(1);
    expect(document.querySelectorAll('h2')[1]?.innerHTML).toBe('No id');
  });
});
