import { describe, expect, it } from 'vitest';
import { isScrollToTopVisible } from './isScrollToTopVisible';

const desktop = { viewportWidth: 1280, breakpoint: 992 };
const mobile = { viewportWidth: 400, breakpoint: 992 };

describe('isScrollToTopVisible', () => {
  it('shows only once the page is scrolled more than 300 px', () => {
    expect(isScrollToTopVisible({ ...desktop, device: 'both', scrollY: 0 })).toBe(false);
    expect(isScrollToTopVisible({ ...desktop, device: 'both', scrollY: 300 })).toBe(false);
    expect(isScrollToTopVisible({ ...desktop, device: 'both', scrollY: 301 })).toBe(true);
  });

  it('respects the device setting, with mobile meaning narrower than the break point', () => {
    const far = { scrollY: 1000 };
    expect(isScrollToTopVisible({ ...desktop, ...far, device: 'desktop' })).toBe(true);
    expect(isScrollToTopVisible({ ...mobile, ...far, device: 'desktop' })).toBe(false);
    expect(isScrollToTopVisible({ ...desktop, ...far, device: 'mobile' })).toBe(false);
    expect(isScrollToTopVisible({ ...mobile, ...far, device: 'mobile' })).toBe(true);
    expect(isScrollToTopVisible({ ...mobile, ...far, device: 'both' })).toBe(true);
    expect(isScrollToTopVisible({ ...desktop, ...far, device: 'off' })).toBe(false);
    expect(isScrollToTopVisible({ viewportWidth: 992, breakpoint: 992, ...far, device: 'desktop' })).toBe(
      true,
    );
  });
});
