import { debounce, type Timers } from './debounce';
import { type HeaderMode, headerMode } from './headerMode';

/** resize handling is debounced at 50 ms. */
const RESIZE_DEBOUNCE_MS = 50;

export interface ViewportState {
  width: number;
  scrollY: number;
  mode: HeaderMode;
}

/** The window members the store uses; `window` in the browser, a fake in tests. */
export interface ViewportEnv extends Timers {
  readonly innerWidth: number;
  readonly scrollY: number;
  addEventListener(type: 'resize' | 'scroll', listener: () => void, options?: { passive: boolean }): void;
  removeEventListener(type: 'resize' | 'scroll', listener: () => void): void;
}

export interface ViewportStore {
  getState(): ViewportState;
  subscribe(listener: () => void): () => void;
}

/**
 * Viewport width, scroll position and the header mode they imply, as an external store for
 * `useSyncExternalStore`. Listens to the window only while someone is subscribed; the state object is replaced
 * only when a field changes, so snapshots stay stable.
 */
export function createViewportStore(env: ViewportEnv, breakpoint: number): ViewportStore {
  const listeners = new Set<() => void>();
  const read = (): ViewportState => ({
    width: env.innerWidth,
    scrollY: env.scrollY,
    mode: headerMode(env.innerWidth, breakpoint),
  });
  let state = read();

  const publish = (next: ViewportState) => {
    if (next.width === state.width && next.scrollY === state.scrollY && next.mode === state.mode) return;
    state = next;
    for (const listener of listeners) listener();
  };
  const update = () => publish(read());
  // Scrolling moves only the scroll position: the width and mode wait for the debounced resize.
  const onScroll = () => publish({ ...state, scrollY: env.scrollY });
  const onResize = debounce(update, RESIZE_DEBOUNCE_MS, env);

  return {
    getState: () => state,
    subscribe(listener) {
      if (listeners.size === 0) {
        env.addEventListener('resize', onResize, { passive: true });
        env.addEventListener('scroll', onScroll, { passive: true });
        // Whatever changed while nobody listened.
        update();
      }
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          env.removeEventListener('resize', onResize);
          env.removeEventListener('scroll', onScroll);
          onResize.cancel();
        }
      };
    },
  };
}
