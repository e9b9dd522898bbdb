import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';

/*
 * Carts created by requests that never keep their cookie (a script adding to the cart in a loop) are limited per
 * client address, so they cannot fill the sessions table; a shopper who keeps the cookie is not affected.
 */

const LIMIT = 5;
let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { server: { newSessionsPerHour: LIMIT } } });
});
afterAll(async () => {
  await shop.close();
});

function addWithoutCookie(address: string, cookie?: string) {
  return shop.app.inject({
    method: 'POST',
    url: '/?wc-ajax=add_to_cart',
    remoteAddress: address,
    headers: {
      host: 'shop.test',
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    payload: 'product_id=1021&quantity=1',
  });
}

const sessionRows = async () =>
  Number((await shop.query<{ n: number }>('SELECT COUNT(*) AS n FROM sessions'))[0]?.n);

describe('new carts per client address', () => {
  it('stores at most the limit of new sessions from one address, then answers 429 and writes nothing', async () => {
    const before = await sessionRows();
    const answers = [];
    for (let i = 0; i < LIMIT + 3; i++) answers.push(await addWithoutCookie('198.51.100.7'));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const refused = answers[LIMIT];
    expect(refused?.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused?.json()).toMatchObject({ code: 'rate_limited' });
    expect(refused?.json().message).toContain('Too many new carts');
    expect(await sessionRows()).toBe(before + LIMIT);
  });

  it('keeps serving a shopper whose cart exists, and other addresses', async () => {
    const first = await addWithoutCookie('198.51.100.8');
    const cookie = first.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
    for (let i = 0; i < LIMIT + 2; i++)
      expect((await addWithoutCookie('198.51.100.8', cookie)).statusCode).toBe(200);
    expect((await addWithoutCookie('198.51.100.9')).statusCode).toBe(200);
  });
});
