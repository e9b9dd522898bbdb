import { describe, expect, it } from 'vitest';
import { animateScroll, type ScrollEnv } from './animateScroll';

/** A window whose animation frames the test runs at chosen times. */
function fakeWindow(reducedMotion = false) {
  const frames: ((time: number) => void)[] = [];
  const env = {
    scrollY: 0,
    scrollTo(_x: number, y: number) {
      env.scrollY = y;
    },
    requestAnimationFrame(callback: (time: number) => void) {
      frames.push(callback);
      return frames.length;
    },
    matchMedia: () => ({ matches: reducedMotion }),
  } satisfies ScrollEnv;
  return {
    env,
    frameAt(time: number) {
      const frame = frames.shift();
      if (!frame) throw new Error('no frame requested');
      frame(time);
    },
  };
}

describe('animateScroll', () => {
  it('eases to the target over the duration and resolves when there', async () => {
    const win = fakeWindow();
    const done = animateScroll(win.env, 1000, 1000);
    win.frameAt(5000);
    expect(win.env.scrollY).toBe(0);
    win.frameAt(5500);
    expect(win.env.scrollY).toBeCloseTo(500);
    win.frameAt(6200);
    expect(win.env.scrollY).toBe(1000);
    await expect(done).resolves.toBeUndefined();
  });

  it('jumps at once for visitors who prefer reduced motion, and never above the top', async () => {
    const win = fakeWindow(true);
    await animateScroll(win.env, 800, 1000);
    expect(win.env.scrollY).toBe(800);
    await animateScroll(win.env, -50, 1000);
    expect(win.env.scrollY).toBe(0);
  });
});

describe('animateScroll: the easing and the cases without frames', () => {
  it('eases in and out as jQuery’s swing: slow at the start, fast in the middle, slow at the end', () => {
    const win = fakeWindow();
    void animateScroll(win.env, 1000, 1000);
    win.frameAt(0);
    win.frameAt(250);
    // 0.5 − cos(π/4)/2 of the way: about 146 px, not the 250 px of a linear scroll.
    expect(win.env.scrollY).toBeCloseTo(146.45, 1);
    win.frameAt(750);
    expect(win.env.scrollY).toBeCloseTo(853.55, 1);
  });

  it('scrolls up from where the page is, to whole pixels', async () => {
    const win = fakeWindow();
    win.env.scrollY = 900;
    const done = animateScroll(win.env, 100.4, 1000);
    win.frameAt(0);
    expect(win.env.scrollY).toBe(900);
    win.frameAt(500);
    expect(win.env.scrollY).toBeCloseTo(500);
    win.frameAt(1000);
    expect(win.env.scrollY).toBe(100);
    await expect(done).resolves.toBeUndefined();
  });

  it('jumps without a frame for a zero duration, and does not move when already there', async () => {
    const zero = fakeWindow();
    await animateScroll(zero.env, 640, 0);
    expect(zero.env.scrollY).toBe(640);
    expect(() => zero.frameAt(0)).toThrow('no frame requested');

    const there = fakeWindow();
    there.env.scrollY = 300;
    const scrolls: number[] = [];
    const scrollTo = there.env.scrollTo;
    there.env.scrollTo = (x, y) => {
      scrolls.push(y);
      scrollTo(x, y);
    };
    await animateScroll(there.env, 300, 1000);
    expect(() => there.frameAt(0)).toThrow('no frame requested');
    expect(scrolls).toEqual([300]);
  });
});
