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
});
