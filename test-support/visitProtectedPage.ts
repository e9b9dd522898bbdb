import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * One visitor at one address in front of a password-protected page, as a browser is: it opens the page, keeps its
 * cookies, and submits the page's password form with the nonce the form carries.
 */
export async function visitProtectedPage(
  app: FastifyInstance,
  path: string,
  host: string,
  remoteAddress = '203.0.113.10',
) {
  const cookies = new Map<string, string>();
  const keep = (response: LightMyRequestResponse) => {
    for (const cookie of response.cookies) cookies.set(cookie.name, cookie.value);
    return response;
  };
  const headers = () => ({
    host,
    cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
  });
  const get = async () => keep(await app.inject({ url: path, headers: headers(), remoteAddress }));
  const first = await get();
  const nonce = /name="_wpnonce" value="([^"]+)"/.exec(first.body)?.[1];
  if (!nonce) throw new Error(`No password form at ${path} (status ${first.statusCode})`);
  return {
    get,
    async submit(password: string) {
      return keep(
        await app.inject({
          method: 'POST',
          url: path,
          headers: { ...headers(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ post_password: password, _wpnonce: nonce }).toString(),
          remoteAddress,
        }),
      );
    },
  };
}
