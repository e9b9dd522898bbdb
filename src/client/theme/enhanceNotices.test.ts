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
    expect(notice.tabIndex).toBe(-1);
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
