// Statistics hit ingestion under load: sustained hits per second that the built shop acknowledges (each
// answered only after its group-commit batch is in SQLite), from many distinct simulated visitors, against a plain
// static file of the same server (the ceiling). Then zero lost hits: the database holds every acknowledged hit,
// also after the server is SIGKILLed in the middle of a run. Loopback only, bounded in count and time.
import { readdirSync } from 'node:fs';
import autocannon from 'autocannon';
import { startBuiltShop } from '../scripts/lib/startBuiltShop.mjs';
import { countStoredHits, hitParams, hitRequest } from './support/statsHits.mjs';

const HITS_PER_ROUND = 6000;
const ROUNDS = 3;
const CONNECTIONS = 32;
const VISITORS = 5000;
const ROUND_TIMEOUT_MS = 60_000;

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
  return (onAck) => ({ url, ...extra, requests: [hitRequest(params, { visitors: VISITORS, onAck })] });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
// Every simulated visitor posts from 127.0.0.1, one client for the per-address rate limit: lift it for the load.
const shop = await startBuiltShop({
  settings: { server: { secret: 'h'.repeat(40), stats: { rateLimitPerMinute: 100_000_000 } } },
});
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
  const stored = countStoredHits(dataDir);
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
  const before = countStoredHits(dataDir);
  const killed = await load(hitLoad(url, params, { duration: 3 }), { killAfterMs: 1500, child });
  const afterKill = countStoredHits(dataDir) - before;
  const lost = Math.max(0, killed.acked() - afterKill);
  console.log(
    `SIGKILL after 1.5 s of load: acknowledged ${killed.acked()}, stored ${afterKill} ` +
      `(${afterKill - killed.acked()} committed but unanswered), lost ${lost}`,
  );
  if (acknowledged !== stored || lost > 0) process.exitCode = 1;
} finally {
  await shop.stop();
}
