import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { debounce } from './debounce';

describe('debounce', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  // Wrappers, so the calls reach the fake timers installed in beforeEach.
  const timers = {
    setTimeout: (f: () => void, ms: number) => setTimeout(f, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  };

  it('calls once, 50 ms after the last of a burst of calls, with the last arguments', () => {
    const callback = vi.fn();
    const debounced = debounce(callback, 50, timers);
    debounced(1);
    vi.advanceTimersByTime(30);
    debounced(2);
    vi.advanceTimersByTime(30);
    debounced(3);
    vi.advanceTimersByTime(49);
    expect(callback).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(callback).toHaveBeenCalledTimes(1);
    expect(callback).toHaveBeenCalledWith(3);
  });

  it('calls again for a call that comes after the wait', () => {
    const callback = vi.fn();
    const debounced = debounce(callback, 50, timers);
    debounced();
    vi.advanceTimersByTime(50);
    debounced();
    vi.advanceTimersByTime(50);
    expect(callback).toHaveBeenCalledTimes(2);
  });

  it('cancel drops the pending call', () => {
    const callback = vi.fn();
    const debounced = debounce(callback, 50, timers);
    debounced();
    debounced.cancel();
    vi.advanceTimersByTime(100);
    expect(callback).not.toHaveBeenCalled();
  });
});
