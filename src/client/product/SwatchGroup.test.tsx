// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ProductAttribute } from '../../shared/catalog/types';
import { SwatchGroup, type SwatchValueView } from './SwatchGroup';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const size: ProductAttribute = {
  id: 1,
  slug: 'size',
  name: 'Size',
  swatchType: 'label',
  visible: true,
  forVariations: true,
  options: ['s', 'm', 'l'].map((slug) => ({
    slug,
    name: slug.toUpperCase(),
    color: null,
    image: null,
    swatchType: null,
  })),
};
const open: SwatchValueView = { noStock: false, unavailable: false, inert: false, description: null };
const views: Record<string, SwatchValueView> = {
  s: open,
  m: { noStock: false, unavailable: true, inert: true, description: 'Not available with Color: Red' },
  l: open,
};

let container: HTMLDivElement;
let root: Root;
beforeEach(() => {
  container = document.createElement('div');
  document.body.append(container);
  root = createRoot(container);
});
afterEach(() => {
  act(() => root.unmount());
  container.remove();
});

function render(selected: string, onActivate = vi.fn()) {
  act(() =>
    root.render(
      <>
        <span id="size-label">Size</span>
        <SwatchGroup
          attribute={size}
          labelId="size-label"
          idPrefix="size"
          selected={selected}
          views={views}
          onActivate={onActivate}
        />
      </>,
    ),
  );
  const radios = [...container.querySelectorAll<HTMLElement>('[role="radio"]')];
  return { onActivate, radios };
}

const press = (element: HTMLElement, key: string) =>
  act(() => {
    element.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });

describe('SwatchGroup', () => {
  it('is a radio group with one tab stop, on the checked swatch', () => {
    const { radios } = render('l');
    expect(container.querySelector('[role="radiogroup"]')?.getAttribute('aria-labelledby')).toBe(
      'size-label',
    );
    expect(radios.map((radio) => radio.getAttribute('aria-checked'))).toEqual(['false', 'false', 'true']);
    expect(radios.map((radio) => radio.tabIndex)).toEqual([-1, -1, 0]);
  });

  it('marks an inert value aria-disabled, describes why, and ignores its activation', () => {
    const { radios, onActivate } = render('');
    const medium = radios[1] as HTMLElement;
    expect(medium.getAttribute('aria-disabled')).toBe('true');
    const description = document.getElementById(medium.getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe('Not available with Color: Red');
    act(() => medium.click());
    press(medium, 'Enter');
    expect(onActivate).not.toHaveBeenCalled();
  });

  it('moves with the arrow keys past inert values, wrapping, and activates with Space and Enter', () => {
    const { radios, onActivate } = render('s');
    press(radios[0] as HTMLElement, 'ArrowRight');
    expect(onActivate).toHaveBeenLastCalledWith('l');
    expect(document.activeElement).toBe(radios[2]);
    press(radios[0] as HTMLElement, 'ArrowLeft');
    expect(onActivate).toHaveBeenLastCalledWith('l');
    press(radios[2] as HTMLElement, 'ArrowRight');
    // Wrapping from L lands on S, the selected value: focus moves, nothing is re-activated.
    expect(document.activeElement).toBe(radios[0]);
    expect(onActivate).toHaveBeenCalledTimes(2);
    press(radios[0] as HTMLElement, ' ');
    press(radios[2] as HTMLElement, 'Enter');
    expect(onActivate.mock.calls.slice(2)).toEqual([['s'], ['l']]);
  });
});
