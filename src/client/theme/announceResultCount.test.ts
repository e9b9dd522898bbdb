// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { announceResultCount } from './announceResultCount';

describe('announceResultCount', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    document.body.innerHTML = '<p class="woocommerce-result-count" role="status">Showing all 9 results</p>';
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes the result count again after 2000 ms, so the live region announces it', () => {
    const region = document.querySelector('.woocommerce-result-count') as HTMLElement;
    announceResultCount(document);
    vi.advanceTimersByTime(1999);
    expect(region.dataset.announced).toBeUndefined();
    vi.advanceTimersByTime(1);
    expect(region.textContent).toBe('');
    vi.advanceTimersByTime(50);
    expect(region.textContent).toBe('Showing all 9 results');
    expect(region.dataset.announced).toBe('true');
  });

  it('does nothing on pages without a result count', () => {
    document.body.innerHTML = '<main></main>';
    const stop = announceResultCount(document);
    vi.advanceTimersByTime(5000);
    expect(document.body.innerHTML).toBe('<main></main>');
    stop();
  });

  it('keeps the line’s box while it is empty, so nothing moves, and lets it go once refilled', () => {
    const region = document.querySelector('.woocommerce-result-count') as HTMLElement;
    Object.defineProperty(region, 'offsetWidth', { configurable: true, value: 212 });
    Object.defineProperty(region, 'offsetHeight', { configurable: true, value: 24 });
    announceResultCount(document);
    vi.advanceTimersByTime(2000);
    expect(region.textContent).toBe('');
    expect([region.style.minWidth, region.style.minHeight]).toEqual(['212px', '24px']);
    vi.advanceTimersByTime(50);
    expect([region.style.minWidth, region.style.minHeight]).toEqual(['', '']);
  });

  it('once stopped, before or while it rewrites, announces nothing more', () => {
    const region = document.querySelector('.woocommerce-result-count') as HTMLElement;
    announceResultCount(document)();
    vi.advanceTimersByTime(5000);
    expect(region.textContent).toBe('Showing all 9 results');
    expect(region.dataset.announced).toBeUndefined();
    const stop = announceResultCount(document);
    vi.advanceTimersByTime(2000);
    stop();
    vi.advanceTimersByTime(100);
    expect(region.dataset.announced).toBeUndefined();
  });
});
