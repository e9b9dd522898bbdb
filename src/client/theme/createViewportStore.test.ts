import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createViewportStore, type ViewportEnv } from './createViewportStore';

/** A window with a settable size and scroll position whose events the test fires. */
function fakeWindow(width: number) {
  const listeners = { resize: new Set<() => void>(), scroll: new Set<() => void>() };
  const env = {
    innerWidth: width,
    scrollY: 0,
    setTimeout: (callback: () => void, ms: number) => setTimeout(callback, ms),
    clearTimeout: (handle: unknown) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    addEventListener: (type: 'resize' | 'scroll', listener: () => void) => listeners[type].add(listener),
    removeEventListener: (type: 'resize' | 'scroll', listener: () => void) =>
      listeners[type].delete(listener),
  } satisfies ViewportEnv;
  return {
    env,
    listeners,
    resizeTo(next: number) {
      env.innerWidth = next;
      for (const listener of listeners.resize) listener();
    },
    scrollTo(y: number) {
      env.scrollY = y;
      for (const listener of listeners.scroll) listener();
    },
  };
}

describe('createViewportStore', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts in the mode the current width implies', () => {
    expect(createViewportStore(fakeWindow(500).env, 992).getState().mode).toBe('breakpoint');
    expect(createViewportStore(fakeWindow(1200).env, 992).getState().mode).toBe('desktop');
  });

  it('re-evaluates the mode 50 ms after the last resize event, once per burst', () => {
    const win = fakeWindow(1200);
    const store = createViewportStore(win.env, 992);
    const listener = vi.fn();
    store.subscribe(listener);
    win.resizeTo(1000);
    vi.advanceTimersByTime(20);
    win.resizeTo(800);
    vi.advanceTimersByTime(20);
    win.resizeTo(700);
    vi.advanceTimersByTime(49);
    expect(store.getState().mode).toBe('desktop');
    expect(listener).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(store.getState()).toEqual({ width: 700, scrollY: 0, mode: 'breakpoint' });
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('switches exactly at the configured break point', () => {
    const win = fakeWindow(600);
    const store = createViewportStore(win.env, 768);
    store.subscribe(() => {});
    win.resizeTo(767);
    vi.advanceTimersByTime(50);
    expect(store.getState().mode).toBe('breakpoint');
    win.resizeTo(768);
    vi.advanceTimersByTime(50);
    expect(store.getState().mode).toBe('desktop');
  });

  it('follows scrolling at once, keeps the snapshot when nothing changed, and stops listening when unsubscribed', () => {
    const win = fakeWindow(1200);
    const store = createViewportStore(win.env, 992);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    const before = store.getState();
    win.scrollTo(0);
    expect(store.getState()).toBe(before);
    win.scrollTo(450);
    expect(store.getState().scrollY).toBe(450);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    expect(win.listeners.resize.size + win.listeners.scroll.size).toBe(0);
    win.resizeTo(300);
    vi.advanceTimersByTime(100);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('catches up on what changed while nobody listened, and listens once however many subscribe', () => {
    const win = fakeWindow(1200);
    const store = createViewportStore(win.env, 992);
    win.env.innerWidth = 600;
    win.env.scrollY = 80;
    const first = vi.fn();
    const unsubscribeFirst = store.subscribe(first);
    expect(store.getState()).toEqual({ width: 600, scrollY: 80, mode: 'breakpoint' });
    const second = vi.fn();
    const unsubscribeSecond = store.subscribe(second);
    expect([win.listeners.resize.size, win.listeners.scroll.size]).toEqual([1, 1]);
    // One subscriber leaving keeps the other informed.
    unsubscribeFirst();
    win.scrollTo(300);
    expect(second).toHaveBeenCalledTimes(1);
    expect(first).not.toHaveBeenCalled();
    // The last one leaving drops a resize still waiting for its 50 ms.
    win.resizeTo(1300);
    unsubscribeSecond();
    vi.advanceTimersByTime(100);
    expect(store.getState().width).toBe(600);
  });

  it('tells subscribers when only the mode or only the width changes', () => {
    const win = fakeWindow(1000);
    const store = createViewportStore(win.env, 992);
    const listener = vi.fn();
    store.subscribe(listener);
    win.resizeTo(1100);
    vi.advanceTimersByTime(50);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState()).toEqual({ width: 1100, scrollY: 0, mode: 'desktop' });
  });
});
