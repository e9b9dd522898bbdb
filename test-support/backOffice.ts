import type { FastifyInstance } from 'fastify';
import { Shopper } from './shopper';
import { TEST_OWNER_PASSWORD } from './testOwner';

/** The owner's browser: logs in through /admin/login, then keeps the session and the visitor cookie. */
export async function ownerBrowser(
  app: FastifyInstance,
  password = TEST_OWNER_PASSWORD,
  next = '/admin/orders/',
) {
  const owner = new Shopper();
  const form = await owner.send(app, 'GET', `/admin/login?next=${encodeURIComponent(next)}`);
  const nonce = /name="_wpnonce" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
  const response = await owner.send(app, 'POST', '/admin/login', { password, next, _wpnonce: nonce });
  return { owner, response };
}

/** The nonce of the page's form that posts to `action`. */
export function nonceOf(body: string, action: string): string {
  const form = new RegExp(`action="${action}"[\\s\\S]*?name="_wpnonce" value="([^"]+)"`).exec(body);
  if (!form?.[1]) throw new Error(`No form posting to ${action}`);
  return form[1];
}
