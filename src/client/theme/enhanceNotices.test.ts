// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { enhanceNotices } from './enhanceNotices';

describe('enhanceNotices', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('moves keyboard focus to the page notice after 500 ms', () => {
    document.body.innerHTML =
      '<button id="other">x</button><div class="notice notice--error" role="alert">Wrong password</div>';
    const stop = enhanceNotices(document);
    const notice = document.querySelector('.notice') as HTMLElement;
    vi.advanceTimersByTime(499);
    expect(document.activeElement).not.toBe(notice);
    vi.advanceTimersByTime(1);
    expect(document.activeElement).toBe(notice);
    // A plain element takes focus only with a tabindex; -1 keeps it out of the Tab order.
    expect(notice.getAttribute('tabindex')).toBe('-1');
    stop();
  });

  it('focuses a notice that appears later, 500 ms on, even when focus was on an invalid field', async () => {
    document.body.innerHTML = '<form><input id="email" aria-invalid="true"></form><div id="slot"></div>';
    const stop = enhanceNotices(document);
    (document.getElementById('email') as HTMLElement).focus();
    (document.getElementById('slot') as HTMLElement).innerHTML =
      '<div class="notice notice--error">Bad</div>';
    await vi.advanceTimersByTimeAsync(499);
    expect(document.activeElement?.id).toBe('email');
    await vi.advanceTimersByTimeAsync(1);
    expect(document.activeElement?.className).toBe('notice notice--error');
    expect(document.getElementById('email')?.getAttribute('aria-invalid')).toBe('true');

    (document.getElementById('slot') as HTMLElement).innerHTML =
      '<div class="woocommerce-message">Added</div>';
    await vi.advanceTimersByTimeAsync(600);
    expect(document.activeElement?.className).toBe('woocommerce-message');
    stop();
  });

  it('leaves an info notice alone: no scroll and no focus taken from the swatch the shopper is on', async () => {
    document.body.innerHTML =
      '<div role="radiogroup"><span role="radio" tabindex="0" id="size-44">44</span></div><div id="status"></div>';
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const stop = enhanceNotices(document);
    const swatch = document.getElementById('size-44') as HTMLElement;
    swatch.focus();
    // What the variation form shows after a sold-out combination is picked.
    (document.getElementById('status') as HTMLElement).innerHTML =
      '<p class="woocommerce-variation-availability notice notice--info">Out of stock</p>';
    await vi.advanceTimersByTimeAsync(2000);
    expect(document.activeElement).toBe(swatch);
    expect(scrollTo).not.toHaveBeenCalled();
    stop();
    scrollTo.mockRestore();
  });

  it('does not focus an info notice on load either, but does focus an error notice after it', () => {
    document.body.innerHTML =
      '<div class="notice notice--info">Free shipping over $50</div><div class="notice notice--error">Bad</div>';
    const stop = enhanceNotices(document);
    vi.advanceTimersByTime(500);
    expect(document.activeElement?.className).toBe('notice notice--error');
    stop();
  });
});

describe('enhanceNotices: scrolling a notice into view', () => {
  /** Places an element `top` px below the viewport's top edge. */
  function placeAt(element: Element, top: number, height = 40) {
    vi.spyOn(element, 'getBoundingClientRect').mockReturnValue({
      top,
      bottom: top + height,
      height,
    } as DOMRect);
  }
  let scrolls: number[];

  beforeEach(() => {
    vi.useFakeTimers();
    scrolls = [];
    Object.defineProperty(window, 'scrollY', { configurable: true, value: 200 });
    vi.spyOn(window, 'scrollTo').mockImplementation(((_x: number, y: number) => {
      scrolls.push(y);
    }) as typeof window.scrollTo);
    vi.spyOn(window, 'matchMedia').mockImplementation(() => ({ matches: false }) as MediaQueryList);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    document.body.innerHTML = '';
  });

  it('on load leaves a notice in sight where it is, and focuses it after 500 ms', () => {
    document.body.innerHTML = '<div class="woocommerce-error">Bad</div>';
    const notice = document.querySelector('.woocommerce-error') as HTMLElement;
    // Exactly at the edges of the view: 100 px from the top, its bottom on the viewport's (768 px) bottom.
    placeAt(notice, 100, 668);
    const stop = enhanceNotices(document);
    vi.advanceTimersByTime(1500);
    expect(scrolls).toEqual([]);
    expect(document.activeElement).toBe(notice);
    stop();
  });

  it('on load scrolls a notice out of sight to 100 px below the top over 1000 ms, eased', () => {
    for (const [top, target] of [
      [900, 1000], // below the fold (the viewport is 768 px tall)
      [50, 150], // hidden under the top 100 px
    ] as const) {
      scrolls = [];
      document.body.innerHTML = '<div class="notice notice--error">Bad</div>';
      placeAt(document.querySelector('.notice') as Element, top);
      const stop = enhanceNotices(document);
      vi.advanceTimersByTime(500);
      const halfway = scrolls.at(-1) ?? 0;
      // Half the time, half the way (swing is symmetric), give or take a frame.
      expect(Math.abs(halfway - (200 + target) / 2)).toBeLessThan(Math.abs(target - 200) * 0.05);
      vi.advanceTimersByTime(600);
      expect(scrolls.at(-1)).toBe(target);
      stop();
    }
  });

  it('always scrolls to a notice that appears after an action, even one in sight', async () => {
    document.body.innerHTML = '<div id="slot"></div>';
    const stop = enhanceNotices(document);
    const slot = document.getElementById('slot') as HTMLElement;
    const notice = document.createElement('div');
    notice.innerHTML = '<p class="woocommerce-message">Added to cart</p>';
    placeAt(notice.firstElementChild as Element, 300);
    slot.append(notice);
    await vi.advanceTimersByTimeAsync(1100);
    expect(scrolls.at(-1)).toBe(400);
    expect(document.activeElement?.className).toBe('woocommerce-message');
    stop();
  });

  it('focuses no notice that left the page before its 500 ms, and none once stopped', async () => {
    document.body.innerHTML = '<div class="woocommerce-error" tabindex="0">Bad</div><div id="slot"></div>';
    const stop = enhanceNotices(document);
    document.querySelector('.woocommerce-error')?.remove();
    await vi.advanceTimersByTimeAsync(600);
    expect(document.activeElement).toBe(document.body);
    (document.getElementById('slot') as HTMLElement).innerHTML =
      '<div class="woocommerce-message">Later</div>';
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(600);
    expect(document.activeElement).toBe(document.body);
    // A notice added after stopping is not watched.
    (document.getElementById('slot') as HTMLElement).innerHTML = '<div class="woocommerce-error">Again</div>';
    await vi.advanceTimersByTimeAsync(600);
    expect(document.activeElement).toBe(document.body);
  });

  it('keeps a tabindex the notice has, and ignores text and non-notice elements that are added', async () => {
    document.body.innerHTML = '<div id="slot"></div>';
    const stop = enhanceNotices(document);
    const slot = document.getElementById('slot') as HTMLElement;
    slot.append('plain text', document.createElement('span'));
    await vi.advanceTimersByTimeAsync(600);
    expect(scrolls).toEqual([]);
    slot.insertAdjacentHTML('beforeend', '<div class="notice notice--success" tabindex="0">Saved</div>');
    await vi.advanceTimersByTimeAsync(600);
    const notice = document.querySelector('.notice--success') as HTMLElement;
    expect(document.activeElement).toBe(notice);
    expect(notice.tabIndex).toBe(0);
    stop();
  });
});
