// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { blockElement } from './blockOverlay';

/*
 * The overlay over a part of the page while a request about it is in flight, with the values the numbers are
 * written out as (not imported): above the page at z-index 1000, fading in over 200 ms to 0.6 opacity and out
 * over 400 ms, then gone.
 */
describe('blockElement', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'Date'] });
    document.body.innerHTML = '<div id="mini-cart">items</div>';
  });
  afterEach(() => vi.useRealTimers());

  it('fades a 0.6 white overlay in over 200 ms, and out over 400 ms before removing it', () => {
    const area = document.getElementById('mini-cart') as HTMLElement;
    const unblock = blockElement(area);
    const overlay = area.querySelector<HTMLElement>('.blockOverlay') as HTMLElement;
    expect(area.getAttribute('aria-busy')).toBe('true');
    expect(overlay.style.zIndex).toBe('1000');
    expect(overlay.style.opacity).toBe('0');
    expect(overlay.style.transition).toBe('opacity 200ms');
    vi.advanceTimersToNextFrame();
    expect(overlay.style.opacity).toBe('0.6');

    unblock();
    expect(area.hasAttribute('aria-busy')).toBe(false);
    expect(overlay.style.transition).toBe('opacity 400ms');
    expect(overlay.style.opacity).toBe('0');
    vi.advanceTimersByTime(399);
    expect(overlay.isConnected).toBe(true);
    vi.advanceTimersByTime(1);
    expect(overlay.isConnected).toBe(false);
  });
});
