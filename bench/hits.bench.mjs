// Statistics hit ingestion under load (issue 7): sustained hits per second that the built shop acknowledges (each
// answered only after its group-commit batch is in SQLite), from many distinct simulated visitors, against a plain
// static file of the same server (the ceiling). Then zero lost hits: the database holds every acknowledged hit,
// also after the server is SIGKILLed in the middle of a run. Loopback only, bounded in count and time.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';

const HITS_PER_ROUND = 6000;
const ROUNDS = 3;
const CONNECTIONS = 32;
const VISITORS = 5000;
const ROUND_TIMEOUT_MS = 60_000;

/** The signed hit parameters, read from a page as the browser reads them. */
async function hitParams(url) {
  const html = await (await fetch(`${url}/product/cafe-au-lait-mug/`)).text();
  const json = /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(html)[1];
  return JSON.parse(json).stats.hitParams;
}

const b64 = (text) => Buffer.from(text).toString('base64');

/** Runs one bounded load; `acked` counts hits answered `{status: true}` (not excluded). */
function load(options, { killAfterMs, child } = {}) {
  let acked = 0;
  const instance = autocannon({ connections: CONNECTIONS, timeout: 10, ...options(() => (acked += 1)) });
  const guard = setTimeout(() => instance.stop(), ROUND_TIMEOUT_MS);
  if (killAfterMs) setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve, reject) => {
    instance.on('done', (result) => {
      clearTimeout(guard);
      resolve({ result, acked: () => acked });
    });
    instance.on('error', reject);
  });
}

function hitLoad(url, params, extra = {}) {
  let visitor = 0;
  return (onAck) => ({
    url: `${url}/wp-json/stats/v1/hit`,
    ...extra,
    requests: [
      {
        method: 'POST',
        setupRequest(request) {
          visitor = (visitor + 1) % VISITORS;
          const page = `/product/cafe-au-lait-mug/?v=${visitor % 50}`;
          return {
            ...request,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              // A distinct visitor: the server hashes IP and user agent (the IP is always 127.0.0.1 here).
              'user-agent': `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.${visitor}.0 Safari/537.36`,
              'x-wps-ts': b64(String(Math.floor(Date.now() / 1000))),
            },
            body: new URLSearchParams({
              ...params,
              referred: b64(visitor % 3 === 0 ? 'https://www.google.com/' : ''),
              page_uri: b64(page),
            }).toString(),
          };
        },
        onResponse(status, body) {
          if (status === 200 && body.includes('"status":true') && !body.includes('excluded')) onAck();
        },
      },
    ],
  });
}

const countHits = (dataDir) => {
  // Read-write open: after a SIGKILL this replays the WAL, as the next start of the shop would.
  const db = new Database(join(dataDir, 'shop.sqlite'));
  try {
    return db.prepare('SELECT COUNT(*) FROM stats_hits').pluck().get();
  } finally {
    db.close();
  }
};

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const shop = await startBuiltShop({ settings: { server: { secret: 'h'.repeat(40) } } });
const { child, url, dataDir } = shop;
try {
  const params = await hitParams(url);
  const css = readdirSync('dist/client/assets').find((file) => file.endsWith('.css'));
  const staticUrl = `${url}/static/assets/${css}`;

  const hitRates = [];
  const staticRates = [];
  const hitLatency = [];
  const staticLatency = [];
  let acknowledged = 0;
  let refused = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const hits = await load(hitLoad(url, params, { amount: HITS_PER_ROUND }));
    acknowledged += hits.acked();
    refused += hits.result.non2xx + hits.result.errors;
    hitRates.push(hits.acked() / hits.result.duration);
    hitLatency.push(hits.result.latency.p50);
    const peer = await load(() => ({ url: staticUrl, amount: HITS_PER_ROUND }));
    if (peer.result['2xx'] !== HITS_PER_ROUND)
      throw new Error(`the static peer answered ${peer.result['2xx']} of ${HITS_PER_ROUND}`);
    staticRates.push(peer.result['2xx'] / peer.result.duration);
    staticLatency.push(peer.result.latency.p50);
  }
  const stored = countHits(dataDir);
  const [hitRate, staticRate] = [median(hitRates), median(staticRates)];
  console.log(
    `${ROUNDS} rounds × ${HITS_PER_ROUND} requests, ${CONNECTIONS} connections, ${VISITORS} distinct visitors, medians`,
  );
  console.log('target                                 req/s   p50 (ms)');
  console.log(
    `POST /wp-json/stats/v1/hit      ${hitRate.toFixed(0).padStart(12)}${String(median(hitLatency)).padStart(11)}`,
  );
  console.log(
    `GET static ${`/static/assets/${css}`.padEnd(22)}${staticRate.toFixed(0).padStart(12)}${String(median(staticLatency)).padStart(11)}`,
  );
  console.log(`ratio hit / static ceiling: ${(hitRate / staticRate).toFixed(2)}`);
  console.log(
    `acknowledged hits ${acknowledged}, stored ${stored}, refused or failed ${refused}: ` +
      `${acknowledged === stored ? 'zero lost' : `MISMATCH (${acknowledged - stored} lost)`}`,
  );

  // SIGKILL in the middle of a run: every hit acknowledged before the kill must be in the database.
  const before = countHits(dataDir);
  const killed = await load(hitLoad(url, params, { duration: 3 }), { killAfterMs: 1500, child });
  const afterKill = countHits(dataDir) - before;
  const lost = Math.max(0, killed.acked() - afterKill);
  console.log(
    `SIGKILL after 1.5 s of load: acknowledged ${killed.acked()}, stored ${afterKill} ` +
      `(${afterKill - killed.acked()} committed but unanswered), lost ${lost}`,
  );
  if (acknowledged !== stored || lost > 0) process.exitCode = 1;
} finally {
  await shop.stop();
}
