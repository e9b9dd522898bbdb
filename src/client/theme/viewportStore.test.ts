import { describe, expect, it } from 'vitest';
import { getViewportStore } from './viewportStore';

describe('getViewportStore on the server', () => {
  it('stands in with a desktop viewport at the top of the page that never changes', () => {
    // What the server renders with: islands hydrate from the same snapshot.
    const store = getViewportStore(992);
    expect(store.getState()).toEqual({ width: 0, scrollY: 0, mode: 'desktop' });
    const unsubscribe = store.subscribe(() => {
      throw new Error('the server store never changes');
    });
    unsubscribe();
    expect(getViewportStore(600)).toBe(store);
  });
});
