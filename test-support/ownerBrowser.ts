import type { FastifyInstance } from 'fastify';
import { OWNER_COOKIE } from '../src/server/owner/ownerPlugin';
import { SESSION_COOKIE } from '../src/server/session/VisitorSession';
import { TEST_OWNER_PASSWORD } from './testOwner';

/** The nonce of the form on a page (the first `_wpnonce` field). */
export function formNonce(html: string): string {
  return /name="_wpnonce" value="([^"]+)"/.exec(html)?.[1] ?? '';
}

/**
 * The owner's browser through app.inject: logged in through the owner's login form, carrying the owner's session
 * and visitor cookies on every request. `postForm` reads the nonce from the page the form is on, as a browser would.
 */
export async function ownerBrowser(app: FastifyInstance) {
  const loginPage = await app.inject({ method: 'GET', url: '/insights/' });
  const visitor = loginPage.cookies.find((each) => each.name === SESSION_COOKIE)?.value;
  const visitorCookie = `${SESSION_COOKIE}=${visitor}`;
  const login = await app.inject({
    method: 'POST',
    url: '/insights/login',
    headers: { cookie: visitorCookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      password: TEST_OWNER_PASSWORD,
      _wpnonce: formNonce(loginPage.body),
    }).toString(),
  });
  const owner = login.cookies.find((each) => each.name === OWNER_COOKIE)?.value;
  if (!owner) throw new Error(`The owner's login failed (${login.statusCode})`);
  const cookie = `${OWNER_COOKIE}=${owner}; ${visitorCookie}`;
  return {
    cookie,
    get: (url: string) => app.inject({ method: 'GET', url, headers: { cookie } }),
    /** Posts the form of `pageUrl` to `action` with these fields over the page's own nonce. */
    async postForm(pageUrl: string, action: string, fields: Record<string, string | string[]>) {
      const page = await app.inject({ method: 'GET', url: pageUrl, headers: { cookie } });
      const body = new URLSearchParams();
      body.set('_wpnonce', formNonce(page.body));
      for (const [name, value] of Object.entries(fields))
        for (const each of Array.isArray(value) ? value : [value]) body.append(name, each);
      return app.inject({
        method: 'POST',
        url: action,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      });
    },
  };
}
