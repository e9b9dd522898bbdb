import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { visitProtectedPage } from '../../../test-support/visitProtectedPage';

/*
 * Wrong page passwords are throttled per address and page (10 tries / 15 min) and per page from all addresses
 * (100 tries / hour). The clock is fixed inside a window, so each test knows the Retry-After it must see.
 */

const HOST = 'shop.test';
const PAGE = '/trade-prices/';
const RIGHT = 'wholesale';

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => shop?.close());
afterEach(() => {
  vi.useRealTimers();
});

/**
 * Fixes the clock at `minutes` past the hour `hour` (a different hour per test keeps their counts apart), on a day
 * long past so tries made on the real clock never share a window.
 */
function clockAt(hour: number, minutes: number) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(Date.UTC(2001, 0, 15, hour, minutes)));
}

describe('page password tries', () => {
  it('refuses an address after 10 tries at a page for the rest of the 15 minutes, right password included', async () => {
    clockAt(9, 5); // 10 minutes left in the 09:00–09:15 window
    const guesser = await visitProtectedPage(shop.app, PAGE, HOST, '198.51.100.7');
    for (let i = 0; i < 10; i++) expect((await guesser.submit(`guess-${i}`)).statusCode).toBe(403);
    for (const password of ['guess-10', RIGHT]) {
      const refused = await guesser.submit(password);
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('600');
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.body).toContain('Too many passwords have been tried for this page');
      expect(refused.body).toContain('wait 10 minutes');
      expect(refused.cookies.find((cookie) => cookie.name.startsWith('shop_postpass_'))).toBeUndefined();
    }
    // Another address is not held back by this one.
    const other = await visitProtectedPage(shop.app, PAGE, HOST, '198.51.100.8');
    expect((await other.submit(RIGHT)).statusCode).toBe(303);
    // The next window lets the first address try again.
    clockAt(9, 15);
    expect((await guesser.submit(RIGHT)).statusCode).toBe(303);
  });

  it('forgets an address’s wrong tries once it gives the right password', async () => {
    clockAt(10, 0);
    const visitor = await visitProtectedPage(shop.app, PAGE, HOST, '198.51.100.20');
    for (let i = 0; i < 9; i++) expect((await visitor.submit(`typo-${i}`)).statusCode).toBe(403);
    expect((await visitor.submit(RIGHT)).statusCode).toBe(303);
    for (let i = 0; i < 10; i++) expect((await visitor.submit(`typo-again-${i}`)).statusCode).toBe(403);
    expect((await visitor.submit('one-too-many')).statusCode).toBe(429);
  });

  it('refuses everyone at a page after 100 tries from all addresses in the hour', async () => {
    clockAt(11, 5); // 55 minutes left in the hour
    for (let address = 1; address <= 10; address++) {
      const guesser = await visitProtectedPage(shop.app, PAGE, HOST, `192.0.2.${address}`);
      for (let i = 0; i < 10; i++) expect((await guesser.submit(`spray-${i}`)).statusCode).toBe(403);
    }
    const newcomer = await visitProtectedPage(shop.app, PAGE, HOST, '192.0.2.200');
    const refused = await newcomer.submit(RIGHT);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe(String(55 * 60));
    expect(refused.body).toContain('wait 55 minutes');
  });

  it('counts concurrent tries from one address exactly: 10 are checked, the rest refused', async () => {
    clockAt(12, 0);
    const guesser = await visitProtectedPage(shop.app, PAGE, HOST, '198.51.100.99');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => guesser.submit(`burst-${i}`)));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.filter((status) => status === 403)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});
