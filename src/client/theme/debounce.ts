/** The timer functions a debounced call needs; tests pass fake ones, the browser passes `window`'s. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

interface Debounced<Args extends unknown[]> {
  (...args: Args): void;
  /** Drops a pending call. */
  cancel(): void;
}

/**
 * Calls `callback` once `wait` ms have passed without another call, with the last call's arguments
 * (the header's resize handling is debounced at 50 ms).
 */
export function debounce<Args extends unknown[]>(
  callback: (...args: Args) => void,
  wait: number,
  timers: Timers,
): Debounced<Args> {
  let handle: unknown = null;
  const debounced = (...args: Args) => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = timers.setTimeout(() => {
      handle = null;
      callback(...args);
    }, wait);
  };
  debounced.cancel = () => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
  };
  return debounced;
}
