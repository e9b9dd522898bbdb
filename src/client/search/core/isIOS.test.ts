import { describe, expect, it } from 'vitest';
import { isIOS } from './isIOS';

const IPAD_DESKTOP_MODE =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';

describe('isIOS', () => {
  it('sees iPadOS, which reports a Mac with a touch screen, as iOS', () => {
    expect(isIOS({ userAgent: IPAD_DESKTOP_MODE, maxTouchPoints: 5 })).toBe(true);
  });

  it('does not take a real Mac (no touch points) for iOS', () => {
    expect(isIOS({ userAgent: IPAD_DESKTOP_MODE, maxTouchPoints: 0 })).toBe(false);
  });

  it('sees iPhones and older iPads by their own names', () => {
    expect(
      isIOS({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)', maxTouchPoints: 5 }),
    ).toBe(true);
    expect(isIOS({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)', maxTouchPoints: 5 })).toBe(false);
  });

  it('needs more than one touch point, as iPads report, and reads a missing count as none', () => {
    expect(isIOS({ userAgent: IPAD_DESKTOP_MODE, maxTouchPoints: 1 })).toBe(false);
    expect(isIOS({ userAgent: IPAD_DESKTOP_MODE, maxTouchPoints: 2 })).toBe(true);
    expect(isIOS({ userAgent: IPAD_DESKTOP_MODE })).toBe(false);
    expect(isIOS({ userAgent: 'Mozilla/5.0 (iPod touch; CPU iPhone OS 15_0 like Mac OS X)' })).toBe(true);
    expect(isIOS({ userAgent: 'Mozilla/5.0 (iPad; CPU OS 12_0 like Mac OS X)' })).toBe(true);
  });
});
