import { describe, expect, it } from 'vitest';
import {
  isStoreNoticeDismissed,
  storeNoticeCookieName,
  storeNoticeDismissalCookie,
} from './storeNoticeCookie';

describe('storeNoticeCookie', () => {
  it('names the cookie store_notice plus the optional notice id, value hidden, path /', () => {
    expect(storeNoticeCookieName(null)).toBe('store_notice');
    expect(storeNoticeCookieName('summer')).toBe('store_notice' + 'summer');
    expect(storeNoticeDismissalCookie('summer')).toMatch(/^store_noticesummer=hidden; path=\/;/);
  });

  it('reads a dismissal only for the same notice id', () => {
    expect(isStoreNoticeDismissed({ store_notice: 'hidden' }, null)).toBe(true);
    expect(isStoreNoticeDismissed({ store_notice: 'hidden' }, 'summer')).toBe(false);
    expect(isStoreNoticeDismissed({ store_noticesummer: 'hidden' }, 'summer')).toBe(true);
    expect(isStoreNoticeDismissed({ store_notice: 'shown' }, null)).toBe(false);
  });
});
