/*
 * A shopper scripted without a browser: fetch with its own cookie jar, a browser's user agent (Node's own is
 * counted as a bot), and redirects left to the caller, who reads the 303 that acknowledges an order.
 */

export const BROWSER_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

export type ScriptedClient = (path: string, init?: RequestInit) => Promise<Response>;

export function scriptedClient(base: string): ScriptedClient {
  const cookies = new Map<string, string>();
  return async (path, init = {}) => {
    const response = await fetch(`${base}${path}`, {
      ...init,
      redirect: 'manual',
      headers: {
        'user-agent': BROWSER_USER_AGENT,
        ...(init.headers as Record<string, string>),
        cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  };
}
