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
