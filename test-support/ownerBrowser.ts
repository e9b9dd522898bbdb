import type { FastifyInstance } from 'fastify';
import { OWNER_COOKIE } from '../src/server/owner/ownerPlugin';
import { SESSION_COOKIE } from '../src/server/session/VisitorSession';
import { Shopper } from './shopper';
import { TEST_OWNER_PASSWORD } from './testOwner';

/** The nonce of the page's own form: the first `_wpnonce` field outside the back office's log-out forms. */
export function formNonce(html: string): string {
  const withoutLogout = html.replace(/<form[^>]*action="\/admin\/logout"[\s\S]*?<\/form>/g, '');
  return /name="_wpnonce" value="([^"]+)"/.exec(withoutLogout)?.[1] ?? '';
}

/** The nonce of the page's form that posts to `action`. */
export function nonceOf(body: string, action: string): string {
  const form = new RegExp(`action="${action}"[\\s\\S]*?name="_wpnonce" value="([^"]+)"`).exec(body);
  if (!form?.[1]) throw new Error(`No form posting to ${action}`);
  return form[1];
}

/** The owner as a Shopper (cookies kept between requests), logged in through /admin/login. */
export async function ownerShopper(
  app: FastifyInstance,
  password = TEST_OWNER_PASSWORD,
  next = '/admin/orders/',
) {
  const owner = new Shopper();
  const form = await owner.send(app, 'GET', `/admin/login?next=${encodeURIComponent(next)}`);
  const response = await owner.send(app, 'POST', '/admin/login', {
    password,
    next,
    _wpnonce: formNonce(form.body),
  });
  return { owner, response };
}

/**
 * The owner's browser through app.inject: logged in through /admin/login, carrying the owner's session
 * and visitor cookies on every request. `postForm` reads the nonce from the page the form is on, as a browser would.
 */
export async function ownerBrowser(app: FastifyInstance) {
  const loginPage = await app.inject({ method: 'GET', url: '/admin/login' });
  const visitor = loginPage.cookies.find((each) => each.name === SESSION_COOKIE)?.value;
  const visitorCookie = `${SESSION_COOKIE}=${visitor}`;
  const login = await app.inject({
    method: 'POST',
    url: '/admin/login',
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
