import { BROWSER_USER_AGENT } from './scriptedClient';

/*
 * Statistics hits sent as the browser sends them (signed parameters from the page's settings), for the specs that
 * check no acknowledged hit is lost. Each hit names its own page so the database can be checked hit by hit.
 */

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** The signed hit parameters a page hands to the browser. */
export async function readHitParams(base: string): Promise<Record<string, string>> {
  const html = await (await fetch(`${base}/product/cafe-au-lait-mug/`)).text();
  const settings = /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return JSON.parse(settings ?? '{}').stats.hitParams as Record<string, string>;
}

/**
 * `senders` visitors sending hits at once, each one after another, until `done()` or a request fails (the server
 * went away). Every hit names its own page (`/shop/?hit=N`), and the page of every hit the server acknowledged as
 * stored (`{status: true}`, not excluded) is pushed to `acknowledged`, so the database can be checked hit by hit.
 */
export function sendHitsUntil(
  done: () => boolean,
  base: string,
  params: Record<string, string>,
  senders: number,
  acknowledged: string[],
): Promise<void> {
  let serial = 0;
  const nextPage = () => `/shop/?hit=${serial++}`;
  const all = Array.from({ length: senders }, () => sendHits(done, base, params, nextPage, acknowledged));
  return Promise.all(all).then(() => undefined);
}

async function sendHits(
  done: () => boolean,
  base: string,
  params: Record<string, string>,
  nextPage: () => string,
  acknowledged: string[],
): Promise<void> {
  try {
    while (!done()) {
      const page = nextPage();
      const response = await fetch(`${base}/wp-json/stats/v1/hit`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          // A browser's: Node's own user agent is counted as a bot (recorded as an exclusion, not a hit).
          'user-agent': BROWSER_USER_AGENT,
          'x-wps-ts': b64(String(Math.floor(Date.now() / 1000))),
        },
        body: new URLSearchParams({ ...params, referred: b64(''), page_uri: b64(page) }),
      });
      const body = await response.text();
      if (response.status === 200 && body.includes('"status":true') && !body.includes('excluded'))
        acknowledged.push(page);
    }
  } catch {
    // The server was killed: the hit in flight was never acknowledged.
  }
}
