import { createViewportStore, type ViewportStore } from './createViewportStore';

let store: ViewportStore | null = null;

/** On the server there is no window: a store that never changes stands in, and React uses the server snapshot. */
const SERVER_STORE: ViewportStore = {
  getState: () => ({ width: 0, scrollY: 0, mode: 'desktop' }),
  subscribe: () => () => {},
};

/** The page's one viewport store, shared by every theme island (they all read the same breakpoint setting). */
export function getViewportStore(breakpoint: number): ViewportStore {
  if (typeof window === 'undefined') return SERVER_STORE;
  store ??= createViewportStore(window, breakpoint);
  return store;
}
