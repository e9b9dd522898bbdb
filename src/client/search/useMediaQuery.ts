import { useSyncExternalStore } from 'react';

/** Whether a media query matches, live; false while the server renders (no viewport there). */
export function useMediaQuery(query: string | null): boolean {
  return useSyncExternalStore(
    (onChange) => {
      if (!query) return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => (query ? window.matchMedia(query).matches : false),
    () => false,
  );
}
