// Owner insights: with 1,000,000 stored hits over 90 days, each panel's query (visitors, sources and
// revenue) for the last 7, 30 and 90 days, median of several runs, against the naive peer: the same figures read
// straight from the raw hits table (no daily summaries). Target: each panel ≤ 250 ms median.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase, SqliteInsightsRepository } from '../dist/server/bench.js';

const HITS = Number(process.env.INSIGHTS_BENCH_HITS ?? 1_000_000);
const DAYS = 90;
const RUNS = 7;
const DAY_MS = 86_400_000;

const dir = mkdtempSync(join(tmpdir(), 'insights-bench-'));
const db = openDatabase(dir);
const now = Date.now();
const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);
const today = dayOf(now);

// A small deterministic generator, so runs are comparable.
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const pages = Array.from({ length: 400 }, (_, i) => `/product/item-${i}/`);
const hosts = ['', '', '', 'www.google.com', 'blog.example.org', 't.co', 'news.example.net', 'bing.com'];
const devices = ['Desktop', 'Desktop', 'Mobile', 'Mobile', 'Tablet'];
const sourceOf = (host) =>
  host === ''
    ? ['typein', '(direct)']
    : host.includes('google') || host === 'bing.com'
      ? ['organic', host]
      : ['referral', host];

console.log(`generating ${HITS.toLocaleString('en')} hits over ${DAYS} days…`);
let started = performance.now();
const hit = db.prepare(
  `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
     referrer_host, source_type, source, browser, os, device_type)
   VALUES (?, ?, ?, ?, 'product', 0, '', '', ?, ?, ?, 'Chrome', 'Linux', ?)`,
);
const visitor = db.prepare(
  `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type, source_type,
     source, entry_page) VALUES (?, ?, ?, ?, 1, 'Chrome', 'Linux', ?, ?, ?, ?)
   ON CONFLICT (day, visitor_hash) DO UPDATE SET hits = hits + 1, last_seen = excluded.last_seen`,
);
const event = db.prepare(
  `INSERT INTO stats_events (created_at, day, visitor_hash, name, target_url, link_domain, link_path, file_name,
     file_ext, element_id, element_classes, element_text, mouse_button, page_id, shop_download, event_time)
   VALUES (?, ?, NULL, ?, ?, '', '', ?, 'pdf', '', '', '', 0, 0, 0, ?)`,
);
const order = db.prepare(
  `INSERT INTO orders (order_key, status, currency, subtotal, total, payment_method, billing, created_at, session_id)
   VALUES (?, 'processing', 'USD', ?, ?, 'cod', '{}', ?, ?)`,
);
const attribution = db.prepare(
  `INSERT INTO order_attribution (order_id, source_type, utm_source, utm_medium, utm_campaign, device_type)
   VALUES (?, ?, ?, ?, ?, 'Desktop')`,
);
const searchQuery = db.prepare(
  `INSERT INTO search_queries (query, results, source, session_hash, created_at, updated_at)
   VALUES (?, ?, 'suggestions', ?, ?, ?)`,
);
const words = Array.from({ length: 3000 }, (_, i) => `query ${i}`);
const perDay = Math.ceil(HITS / DAYS);
db.transaction(() => {
  let written = 0;
  for (let d = DAYS - 1; d >= 0 && written < HITS; d--) {
    const day = dayOf(now - d * DAY_MS);
    const at = Date.parse(`${day}T12:00:00Z`);
    for (let i = 0; i < perDay && written < HITS; i++, written++) {
      const hash = `v${Math.floor(random() * 4000)}`;
      const host = pick(hosts);
      const [type, source] = sourceOf(host);
      const device = pick(devices);
      const page = pick(pages);
      hit.run(at, day, hash, page, host, type, source, device);
      visitor.run(day, hash, at, at, device, type, source, page);
    }
    for (let i = 0; i < 200; i++)
      event.run(
        at,
        day,
        i % 2 ? 'file_download' : 'outbound_link',
        `https://x.example/${i % 30}`,
        `f${i % 20}.pdf`,
        at,
      );
    // 1,500 searches a day (135,000 in all), a tenth of them finding nothing.
    for (let i = 0; i < 1500; i++) {
      const query = pick(words);
      searchQuery.run(query, query.endsWith('7') ? 0 : 5, `s${i % 400}`, at, at);
    }
    for (let i = 0; i < 25; i++) {
      const total = 1000 + Math.floor(random() * 9000);
      const id = order.run(
        `bench_${day}_${i}`,
        total,
        total,
        `${day}T13:00:00.000Z`,
        `s${i}`,
      ).lastInsertRowid;
      const [type, source] = sourceOf(pick(hosts));
      attribution.run(id, type, source, type === 'organic' ? 'organic' : '(none)', i % 3 ? '' : 'spring');
    }
  }
})();
console.log(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(
  `rows: hits ${db.prepare('SELECT COUNT(*) FROM stats_hits').pluck().get()}, visitors ${db
    .prepare('SELECT COUNT(*) FROM stats_visitors')
    .pluck()
    .get()}, orders ${db.prepare('SELECT COUNT(*) FROM orders').pluck().get()}`,
);

const insights = new SqliteInsightsRepository(db);
started = performance.now();
const summarized = await insights.summarizeBefore(today);
console.log(
  `daily summaries: ${summarized} closed days built once in ${(performance.now() - started).toFixed(0)} ms`,
);

/** The naive peer: the visitors panel's figures straight from the raw tables (no summaries). */
function naiveVisitors(range) {
  const all = (sql) => db.prepare(sql).all(range);
  return {
    daily: all(`SELECT day, COUNT(*) AS views FROM stats_hits WHERE day BETWEEN @from AND @to GROUP BY day`),
    visitors: all(
      `SELECT day, COUNT(*) AS visitors FROM stats_visitors WHERE day BETWEEN @from AND @to GROUP BY day`,
    ),
    pages: all(
      `SELECT page, COUNT(*) AS n FROM stats_hits WHERE day BETWEEN @from AND @to GROUP BY page ORDER BY n DESC LIMIT 20`,
    ),
    referrers: all(
      `SELECT referrer_host, COUNT(*) AS n FROM stats_hits WHERE day BETWEEN @from AND @to AND referrer_host <> '' GROUP BY 1 ORDER BY n DESC LIMIT 20`,
    ),
    devices: all(
      `SELECT device_type, COUNT(*) AS n FROM stats_visitors WHERE day BETWEEN @from AND @to GROUP BY 1`,
    ),
  };
}
/** The naive peer of the searches panel: the same figures without the time index (a full scan of the table). */
function naiveSearches(range) {
  const window = {
    start: Date.parse(`${range.from}T00:00:00Z`),
    end: Date.parse(`${range.to}T00:00:00Z`) + DAY_MS,
  };
  return db
    .prepare(
      `SELECT query, COUNT(*), MAX(updated_at), MIN(results) FROM search_queries NOT INDEXED
       WHERE updated_at >= @start AND updated_at < @end GROUP BY query ORDER BY 2 DESC LIMIT 20`,
    )
    .all(window);
}
/** The naive peer of the sources panel: visitors per source counted from the raw visitors table, orders joined. */
function naiveSources(range) {
  const period = {
    start: `${range.from}T00:00:00.000Z`,
    end: `${dayOf(Date.parse(range.to) + DAY_MS)}T00:00:00.000Z`,
  };
  return {
    visitors: db
      .prepare(
        `SELECT source_type, source, COUNT(*) FROM stats_visitors WHERE day BETWEEN @from AND @to GROUP BY 1, 2`,
      )
      .all(range),
    orders: db
      .prepare(
        `SELECT a.source_type, a.utm_source, COUNT(*), SUM(o.total) FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
         WHERE o.created_at >= @start AND o.created_at < @end GROUP BY 1, 2`,
      )
      .all(period),
  };
}

async function median(run) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const onlineSince = now - 120_000;
const rows = [];
for (const days of [7, 30, 90]) {
  const range = { from: dayOf(now - (days - 1) * DAY_MS), to: today };
  const visitors = await median(() => insights.visitors(range, { today, onlineSince }));
  const naiveV = await median(() => naiveVisitors(range));
  const sources = await median(() => insights.sources(range, { today }));
  const naiveS = await median(() => naiveSources(range));
  rows.push({ panel: 'visitors', days, insights: visitors, naive: naiveV });
  rows.push({ panel: 'sources and revenue', days, insights: sources, naive: naiveS });
  const searches = await median(() => insights.searches(range));
  const naiveQ = await median(() => naiveSearches(range));
  rows.push({ panel: 'searches', days, insights: searches, naive: naiveQ });
}
console.log('\npanel                 days   insights ms   naive raw ms   naive/insights   ≤250 ms');
for (const row of rows)
  console.log(
    `${row.panel.padEnd(20)} ${String(row.days).padStart(5)} ${row.insights.toFixed(1).padStart(13)} ${row.naive
      .toFixed(1)
      .padStart(
        14,
      )} ${(row.naive / row.insights).toFixed(1).padStart(15)}×   ${row.insights <= 250 ? 'yes' : 'NO'}`,
  );
console.log(
  `(median of ${RUNS} runs each; the searches peer is one unindexed scan that computes less than the panel's three tables)`,
);
db.close();
rmSync(dir, { recursive: true, force: true });
