// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { enhanceHashLinks } from './enhanceHashLinks';

/*
 * In-page links as a visitor meets them: the page scrolls smoothly to the target, short of the sticky header, the
 * address gets the hash, and keyboard focus continues from the target. Other clicks are the browser's.
 */

function setPageUrl(url: string) {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

/** Places an element `top` px below the viewport's top edge, `height` px tall. */
function placeAt(element: Element, top: number, height = 40) {
  vi.spyOn(element, 'getBoundingClientRect').mockReturnValue({
    top,
    height,
    bottom: top + height,
    left: 0,
    right: 0,
    width: 0,
    x: 0,
    y: top,
    toJSON: () => ({}),
  });
}

let stop: () => void = () => {};
let scrollTo: ReturnType<typeof vi.spyOn>;
let pushState: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  setPageUrl('https://shop.test/product/mug/?ref=home');
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  pushState = vi.spyOn(window.history, 'pushState');
  Object.defineProperty(window, 'scrollY', { configurable: true, value: 1000 });
});

afterEach(() => {
  stop();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

/** A click as the browser dispatches it; returns whether the page handled it (default prevented). */
function click(target: Element, init: MouseEventInit = {}) {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  target.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('enhanceHashLinks', () => {
  it('scrolls smoothly to the target, adds the hash to the address and moves focus there', () => {
    document.body.innerHTML =
      '<a id="link" href="#reviews"><span>Reviews</span></a><section id="reviews"><h2>Reviews</h2></section>';
    placeAt(document.getElementById('reviews') as Element, 600);
    stop = enhanceHashLinks(document);
    expect(click(document.getElementById('link') as Element)).toBe(true);
    expect(scrollTo).toHaveBeenCalledWith({ top: 1600, behavior: 'smooth' });
    expect(pushState).toHaveBeenCalledWith(null, '', '#reviews');
    const target = document.getElementById('reviews') as HTMLElement;
    expect(document.activeElement).toBe(target);
    // Focusable by script only: the section does not join the Tab order.
    expect(target.getAttribute('tabindex')).toBe('-1');
  });

  it('stops short of a sticky header, and never scrolls above the top of the page', () => {
    document.body.innerHTML =
      '<header class="site-header" style="position: sticky; top: 0"></header>' +
      '<a id="down" href="#faq">FAQ</a><a id="up" href="#top-note">Note</a>' +
      '<div id="faq"></div><div id="top-note"></div>';
    placeAt(document.querySelector('.site-header') as Element, 0, 72.5);
    placeAt(document.getElementById('faq') as Element, 300);
    placeAt(document.getElementById('top-note') as Element, -1200);
    stop = enhanceHashLinks(document);
    click(document.getElementById('down') as Element);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 1000 + 300 - 72.5, behavior: 'smooth' });
    click(document.getElementById('up') as Element);
    expect(scrollTo).toHaveBeenLastCalledWith({ top: 0, behavior: 'smooth' });
  });

  it('ignores a header that does not stick', () => {
    document.body.innerHTML =
      '<header class="site-header" style="position: relative"></header><a id="l" href="#t">T</a><div id="t"></div>';
    placeAt(document.querySelector('.site-header') as Element, 0, 80);
    placeAt(document.getElementById('t') as Element, 200);
    stop = enhanceHashLinks(document);
    click(document.getElementById('l') as Element);
    expect(scrollTo).toHaveBeenCalledWith({ top: 1200, behavior: 'smooth' });
  });

  it('jumps without animation for a visitor who prefers reduced motion', () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }) as MediaQueryList,
    );
    document.body.innerHTML = '<a id="l" href="#t">T</a><div id="t"></div>';
    placeAt(document.getElementById('t') as Element, 200);
    stop = enhanceHashLinks(document);
    click(document.getElementById('l') as Element);
    expect(scrollTo).toHaveBeenCalledWith({ top: 1200, behavior: 'auto' });
  });

  it('keeps a focusable target’s own tab order, finds an encoded id, and adds no second history entry for the same hash', () => {
    document.body.innerHTML =
      '<a id="to-button" href="#buy">Buy</a><button id="buy">Add to cart</button>' +
      '<a id="to-cafe" href="#caf%C3%A9">Café</a><div id="café"></div>';
    stop = enhanceHashLinks(document);
    click(document.getElementById('to-button') as Element);
    const button = document.getElementById('buy') as HTMLElement;
    expect(document.activeElement).toBe(button);
    expect(button.hasAttribute('tabindex')).toBe(false);
    expect(pushState).toHaveBeenCalledTimes(1);
    setPageUrl('https://shop.test/product/mug/?ref=home#buy');
    click(document.getElementById('to-button') as Element);
    expect(pushState).toHaveBeenCalledTimes(1);
    expect(click(document.getElementById('to-cafe') as Element)).toBe(true);
    expect(document.activeElement?.id).toBe('café');
  });

  it('leaves to the browser: links to another page, another query or origin, unknown targets, and modified or other-button clicks', () => {
    document.body.innerHTML =
      '<div id="t"></div>' +
      '<a id="other-page" href="/shop/?ref=home#t">x</a>' +
      '<a id="other-query" href="?ref=mail#t">x</a>' +
      '<a id="other-origin" href="https://elsewhere.test/product/mug/?ref=home#t">x</a>' +
      '<a id="unknown" href="#nowhere">x</a>' +
      '<a id="no-hash" href="/product/mug/?ref=home">x</a>' +
      '<a id="ok" href="#t">x</a>';
    stop = enhanceHashLinks(document);
    for (const id of ['other-page', 'other-query', 'other-origin', 'unknown', 'no-hash']) {
      expect(click(document.getElementById(id) as Element), id).toBe(false);
      // happy-dom follows the link it was left; the visitor's next click is on the product page again.
      setPageUrl('https://shop.test/product/mug/?ref=home');
    }
    const ok = document.getElementById('ok') as Element;
    for (const init of [{ button: 1 }, { ctrlKey: true }, { metaKey: true }, { shiftKey: true }]) {
      expect(click(ok, init), JSON.stringify(init)).toBe(false);
    }
    // A click another handler already took.
    const takeIt = (event: Event) => event.preventDefault();
    ok.addEventListener('click', takeIt);
    click(ok);
    ok.removeEventListener('click', takeIt);
    expect(scrollTo).not.toHaveBeenCalled();
    expect(pushState).not.toHaveBeenCalled();
    // A click outside any link.
    expect(click(document.getElementById('t') as Element)).toBe(false);
    // A click on what the link holds is the link's.
    ok.innerHTML = '<span>x</span>';
    expect(click(ok.firstElementChild as Element)).toBe(true);
    expect(scrollTo).toHaveBeenCalledTimes(1);
  });

  it('stops handling clicks once stopped', () => {
    document.body.innerHTML = '<a id="l" href="#t">T</a><div id="t"></div>';
    stop = enhanceHashLinks(document);
    stop();
    expect(click(document.getElementById('l') as Element)).toBe(false);
    expect(scrollTo).not.toHaveBeenCalled();
  });
});
