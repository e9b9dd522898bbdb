import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../server/testing/createTestApp';
import { storeNoticeDismissalCookie } from './storeNoticeCookie';

/*
 * The dismissal cookie as the browser writes it (the Set-Cookie string document.cookie receives) read back by the
 * real server: the page after a dismissal must not render the notice, whatever characters its id holds.
 */
const NOTICE_TEXT = 'Winter sale: free shipping on throws';
// The banner itself (the text is also in the page's settings script).
const NOTICE_REGION = 'aria-label="Store notice"';

/** What a browser sends back after `document.cookie = storeNoticeDismissalCookie(id)`. */
const cookieHeaderAfterDismissal = (id: string | null) =>
  storeNoticeDismissalCookie(id).split(';')[0] as string;

describe.each([
  ['an id with a space', 'winter sale'],
  ['an id with characters cookie names encode', 'sale;2026=é,"x"'],
  ['a plain id', 'winter'],
  ['no id', null],
])('a dismissed store notice with %s', (_name, id) => {
  let test: TestApp;
  beforeAll(async () => {
    test = await createTestApp({
      settings: { theme: { storeNotice: { enabled: true, id, text: NOTICE_TEXT } } },
    });
  });
  afterAll(() => test.close());

  it('is shown before, and stays away after the dismissal', async () => {
    const before = await test.app.inject({ method: 'GET', url: '/' });
    expect(before.body).toContain(NOTICE_REGION);
    const after = await test.app.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: cookieHeaderAfterDismissal(id) },
    });
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain(NOTICE_REGION);
  });
});
