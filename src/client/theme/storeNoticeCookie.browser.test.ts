// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { isStoreNoticeDismissed, storeNoticeDismissalCookie } from './storeNoticeCookie';

/*
 * The dismissal as the browser keeps it: the cookie the banner writes is sent back on every page of the site for a
 * year, and a notice id with characters cookie names cannot hold is still read back as dismissed.
 */

/** The cookies a request would carry now, names as sent. */
function cookieJar(): Record<string, string> {
  return Object.fromEntries(
    document.cookie
      .split('; ')
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
}

function setPageUrl(url: string) {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

afterEach(() => {
  for (const name of Object.keys(cookieJar())) {
    // biome-ignore lint/suspicious/noDocumentCookie: clearing the test page's cookies between tests
    document.cookie = `${name}=; path=/; max-age=0`;
  }
});

describe('the store notice dismissal cookie in the browser', () => {
  it('is sent back on every page of the site, for the same notice only', () => {
    setPageUrl('https://shop.test/product/mug/');
    // biome-ignore lint/suspicious/noDocumentCookie: the banner writes the dismissal the same way
    document.cookie = storeNoticeDismissalCookie('winter sale');
    setPageUrl('https://shop.test/cart/');
    expect(isStoreNoticeDismissed(cookieJar(), 'winter sale')).toBe(true);
    expect(isStoreNoticeDismissed(cookieJar(), 'winter')).toBe(false);
    expect(isStoreNoticeDismissed(cookieJar(), null)).toBe(false);
  });

  it('lasts a year and is sent with top-level navigations from other sites (SameSite=Lax)', () => {
    const attributes = storeNoticeDismissalCookie(null)
      .split('; ')
      .slice(1)
      .map((each) => each.toLowerCase());
    expect(attributes).toContain(`max-age=${365 * 24 * 60 * 60}`);
    expect(attributes).toContain('samesite=lax');
    expect(attributes).toContain('path=/');
  });
});
