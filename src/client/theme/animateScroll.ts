/** The window members a scroll animation uses. */
export interface ScrollEnv {
  readonly scrollY: number;
  scrollTo(x: number, y: number): void;
  requestAnimationFrame(callback: (time: number) => void): number;
  matchMedia(query: string): { matches: boolean };
}

/** jQuery's default "swing" easing, which the theme's notice scrolling used. */
const swing = (progress: number) => 0.5 - Math.cos(progress * Math.PI) / 2;

/**
 * Scrolls the window to `top` over `duration` ms, at once when the
 * visitor prefers reduced motion. `behavior: 'smooth'` cannot be given a duration, hence the frames.
 */
export function animateScroll(env: ScrollEnv, top: number, duration: number): Promise<void> {
  const target = Math.max(0, Math.round(top));
  const start = env.scrollY;
  if (duration <= 0 || start === target || env.matchMedia('(prefers-reduced-motion: reduce)').matches) {
    env.scrollTo(0, target);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    let startTime: number | null = null;
    const step = (time: number) => {
      startTime ??= time;
      const progress = Math.min(1, (time - startTime) / duration);
      env.scrollTo(0, start + (target - start) * swing(progress));
      if (progress < 1) env.requestAnimationFrame(step);
      else resolve();
    };
    env.requestAnimationFrame(step);
  });
}
