// Signed statistics hits as the browser sends them, for the benchmarks that load
// the hit endpoint: the parameters are read from a page's settings, and each request comes from a distinct
// visitor (the server hashes IP and user agent; the IP is always 127.0.0.1 on loopback, so a bench lifts the
// per-address rate limit).
import Database from 'better-sqlite3';

/** The signed hit parameters, read from a page as the browser reads them. */
export async function hitParams(url) {
  const html = await (await fetch(`${url}/product/cafe-au-lait-mug/`)).text();
  const json = /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(html)[1];
  return JSON.parse(json).stats.hitParams;
}

const b64 = (text) => Buffer.from(text).toString('base64');

/**
 * An autocannon request that posts one hit per call from `visitors` rotating visitors; `onAck` is called for each
 * hit the server acknowledged as stored (`{status: true}`, not excluded).
 */
export function hitRequest(params, { visitors, onAck }) {
  let visitor = 0;
  return {
    method: 'POST',
    path: '/wp-json/stats/v1/hit',
    setupRequest(request) {
      visitor = (visitor + 1) % visitors;
      return {
        ...request,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.${visitor}.0 Safari/537.36`,
          'x-wps-ts': b64(String(Math.floor(Date.now() / 1000))),
        },
        body: new URLSearchParams({
          ...params,
          referred: b64(visitor % 3 === 0 ? 'https://www.google.com/' : ''),
          page_uri: b64(`/product/cafe-au-lait-mug/?v=${visitor % 50}`),
        }).toString(),
      };
    },
    onResponse(status, body) {
      if (status === 200 && body.includes('"status":true') && !body.includes('excluded')) onAck();
    },
  };
}

/** The hits stored in a shop's SQLite database (opened read-write: after a SIGKILL this replays the WAL). */
export function countStoredHits(dataDir) {
  const db = new Database(`${dataDir}/shop.sqlite`);
  try {
    return db.prepare('SELECT COUNT(*) FROM stats_hits').pluck().get();
  } finally {
    db.close();
  }
}
