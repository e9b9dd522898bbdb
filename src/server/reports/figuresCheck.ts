import type { DayRange } from '../../shared/dates/dayRange';
import { pageTotals } from '../../shared/insights/pageTotals';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { nextDay, TOP, UNCOUNTED_ORDER_STATUSES } from '../db/insightsRows';
import type { Repositories } from '../db/ports';
import { createInsightsPanels } from '../insights/insightsPanels';

/*
 * The figures check: every figure the insights page shows, recomputed from the raw tables (stats_visitors,
 * stats_hits, orders, order_visits, order_attribution, search_queries, search_cart_adds) with plain SQL written
 * apart from the page's queries (no daily summary, no shared SQL), and compared. The raw statistics must still hold
 * the range: retention deletes raw rows the daily summaries outlive.
 */

export interface FigureDifference {
  figure: string;
  page: string;
  raw: string;
}

export interface FiguresCheck {
  range: DayRange;
  compared: number;
  differences: FigureDifference[];
}

const COUNTED = `o.status NOT IN (${UNCOUNTED_ORDER_STATUSES.map((status) => `'${status}'`).join(', ')})`;

export async function checkFigures(
  repositories: Repositories,
  config: ShopConfig,
  range: DayRange,
  now = Date.now,
): Promise<FiguresCheck> {
  const panels = createInsightsPanels({ insights: repositories.insights, config, now });
  const [visitors, sources, searches] = await Promise.all([
    panels.visitors(range),
    panels.sources(range),
    panels.searches(range),
  ]);
  const totals = pageTotals(visitors, sources);
  const params = {
    from: range.from,
    to: range.to,
    start: `${range.from}T00:00:00.000Z`,
    end: `${nextDay(range.to)}T00:00:00.000Z`,
    startMs: Date.parse(`${range.from}T00:00:00Z`),
    endMs: Date.parse(`${nextDay(range.to)}T00:00:00Z`),
  };
  const sql = (text: string) => repositories.insights.plainRows(text, params);
  const differences: FigureDifference[] = [];
  let compared = 0;
  const same = (figure: string, page: unknown, raw: unknown) => {
    compared += 1;
    const shown = (value: unknown) => (value === undefined || value === null ? '(none)' : String(value));
    if (shown(page) !== shown(raw)) differences.push({ figure, page: shown(page), raw: shown(raw) });
  };
  /** Raw rows as a map of their key columns to a number. */
  const byKey = (rows: Record<string, unknown>[], keys: string[], value: string) =>
    new Map(rows.map((row) => [keys.map((key) => String(row[key])).join(' | '), Number(row[value])]));
  /** A whole table: every key of either side has the same value. */
  const table = (figure: string, page: Map<string, number>, raw: Map<string, number>) => {
    for (const key of new Set([...page.keys(), ...raw.keys()]))
      same(`${figure} [${key}]`, page.get(key) ?? 0, raw.get(key) ?? 0);
  };
  /** A top list: each row shown has its raw count, and the list is as long as it can be. */
  const top = (figure: string, shown: { label: string; count: number }[], raw: Map<string, number>) => {
    for (const row of shown) same(`${figure} [${row.label}]`, row.count, raw.get(row.label) ?? 0);
    same(`${figure} (rows)`, shown.length, Math.min(TOP, raw.size));
    const smallest = Math.min(...shown.map((row) => row.count));
    const labels = new Set(shown.map((row) => row.label));
    for (const [label, count] of raw)
      if (!labels.has(label) && count > smallest) same(`${figure} [${label}] left out`, 'left out', count);
  };

  // Visitors and page views, per day and in total.
  const rawVisitors = byKey(
    await sql('SELECT day, COUNT(*) AS n FROM stats_visitors WHERE day BETWEEN @from AND @to GROUP BY day'),
    ['day'],
    'n',
  );
  const rawViews = byKey(
    await sql('SELECT day, COUNT(*) AS n FROM stats_hits WHERE day BETWEEN @from AND @to GROUP BY day'),
    ['day'],
    'n',
  );
  table('visitors per day', new Map(visitors.daily.map((row) => [row.day, row.visitors])), rawVisitors);
  table('page views per day', new Map(visitors.daily.map((row) => [row.day, row.views])), rawViews);
  const sum = (values: Iterable<number>) => [...values].reduce((total, each) => total + each, 0);
  same('Visitors', totals.visitors, sum(rawVisitors.values()));
  same('Page views', totals.views, sum(rawViews.values()));
  top(
    'Top pages',
    visitors.topPages,
    byKey(
      await sql('SELECT page, COUNT(*) AS n FROM stats_hits WHERE day BETWEEN @from AND @to GROUP BY page'),
      ['page'],
      'n',
    ),
  );
  top(
    'Top referrers',
    visitors.topReferrers,
    byKey(
      await sql(
        `SELECT referrer_host, COUNT(*) AS n FROM stats_hits
         WHERE day BETWEEN @from AND @to AND referrer_host <> '' GROUP BY referrer_host`,
      ),
      ['referrer_host'],
      'n',
    ),
  );
  top(
    'Devices',
    visitors.devices,
    byKey(
      await sql(
        'SELECT device_type, COUNT(*) AS n FROM stats_visitors WHERE day BETWEEN @from AND @to GROUP BY device_type',
      ),
      ['device_type'],
      'n',
    ),
  );

  // Sources: visitors of each source; buyers are those visitor rows with a counted order of theirs that day.
  const sourceKey = ['source_type', 'source'];
  const pageSource = (value: 'visitors' | 'buyers' | 'orders' | 'revenue') =>
    new Map(sources.rows.map((row) => [`${row.sourceType} | ${row.source}`, row[value]]));
  table(
    'Source visitors',
    pageSource('visitors'),
    byKey(
      await sql(
        `SELECT source_type, source, COUNT(*) AS n FROM stats_visitors WHERE day BETWEEN @from AND @to
         GROUP BY source_type, source`,
      ),
      sourceKey,
      'n',
    ),
  );
  table(
    'Source buyers',
    pageSource('buyers'),
    byKey(
      await sql(
        `SELECT sv.source_type, sv.source, COUNT(*) AS n FROM stats_visitors sv
         WHERE sv.day BETWEEN @from AND @to AND EXISTS (
           SELECT 1 FROM order_visits ov JOIN orders o ON o.id = ov.order_id
           WHERE ov.day = sv.day AND ov.visitor_hash = sv.visitor_hash AND ${COUNTED})
         GROUP BY sv.source_type, sv.source`,
      ),
      sourceKey,
      'n',
    ),
  );
  const visitOrders = await sql(
    `SELECT ov.source_type, ov.source, COUNT(*) AS n, SUM(o.total) AS revenue
     FROM orders o JOIN order_visits ov ON ov.order_id = o.id
     WHERE o.created_at >= @start AND o.created_at < @end AND ${COUNTED}
     GROUP BY ov.source_type, ov.source`,
  );
  table('Source orders', pageSource('orders'), byKey(visitOrders, sourceKey, 'n'));
  table('Source revenue', pageSource('revenue'), byKey(visitOrders, sourceKey, 'revenue'));
  for (const row of sources.rows)
    if (row.conversionRate !== null && row.conversionRate > 1)
      same(`Conversion [${row.sourceType} | ${row.source}] at most 100%`, row.conversionRate, '≤ 1');
  const [unattributed] = await sql(
    `SELECT COUNT(*) AS n, COALESCE(SUM(o.total), 0) AS revenue FROM orders o
     WHERE o.created_at >= @start AND o.created_at < @end AND ${COUNTED}
       AND NOT EXISTS (SELECT 1 FROM order_visits ov WHERE ov.order_id = o.id)`,
  );
  same('Unattributed orders', sources.unattributed.orders, Number(unattributed?.n ?? 0));
  same('Unattributed revenue', sources.unattributed.revenue, Number(unattributed?.revenue ?? 0));
  const [all] = await sql(
    `SELECT COUNT(*) AS n, COALESCE(SUM(o.total), 0) AS revenue FROM orders o
     WHERE o.created_at >= @start AND o.created_at < @end AND ${COUNTED}`,
  );
  same('Orders', totals.orders, Number(all?.n ?? 0));
  same('Revenue', totals.revenue, Number(all?.revenue ?? 0));
  same('Source visitors = visitors', totals.sourceVisitors, totals.visitors);
  if (totals.conversionRate !== null && totals.conversionRate > 1)
    same('Conversion at most 100%', totals.conversionRate, '≤ 1');
  table(
    'Revenue per day',
    new Map(sources.daily.map((row) => [`${row.day} | ${row.sourceType}`, row.revenue])),
    byKey(
      (
        await sql(
          `SELECT o.created_at AS created_at, COALESCE(ov.source_type, 'unattributed') AS source_type, o.total AS total
           FROM orders o LEFT JOIN order_visits ov ON ov.order_id = o.id
           WHERE o.created_at >= @start AND o.created_at < @end AND ${COUNTED}`,
        )
      ).reduce<Record<string, unknown>[]>((rows, order) => {
        const key = { day: String(order.created_at).slice(0, 10), type: String(order.source_type) };
        const found = rows.find((row) => row.day === key.day && row.type === key.type);
        if (found) found.revenue = Number(found.revenue) + Number(order.total);
        else rows.push({ ...key, revenue: Number(order.total) });
        return rows;
      }, []),
      ['day', 'type'],
      'revenue',
    ),
  );
  const campaignKey = (row: { sourceType: string; source: string; medium: string; campaign: string }) =>
    `${row.sourceType} | ${row.source} | ${row.medium} | ${row.campaign}`;
  const campaigns = await sql(
    `SELECT CASE WHEN a.order_id IS NULL THEN 'unknown' ELSE a.source_type END AS t,
       CASE WHEN a.utm_source IS NULL OR a.utm_source = '' THEN '(none)' ELSE a.utm_source END AS s,
       CASE WHEN a.utm_medium IS NULL OR a.utm_medium = '' THEN '(none)' ELSE a.utm_medium END AS m,
       CASE WHEN a.utm_campaign IS NULL OR a.utm_campaign = '' THEN '(none)' ELSE a.utm_campaign END AS c,
       COUNT(*) AS n, SUM(o.total) AS revenue
     FROM orders o LEFT JOIN order_attribution a ON a.order_id = o.id
     WHERE o.created_at >= @start AND o.created_at < @end AND ${COUNTED}
     GROUP BY 1, 2, 3, 4`,
  );
  table(
    'Campaign orders',
    new Map(sources.campaigns.map((row) => [campaignKey(row), row.orders])),
    byKey(campaigns, ['t', 's', 'm', 'c'], 'n'),
  );
  table(
    'Campaign revenue',
    new Map(sources.campaigns.map((row) => [campaignKey(row), row.revenue])),
    byKey(campaigns, ['t', 's', 'm', 'c'], 'revenue'),
  );

  // Searches: counts per query, the inbox (latest search found nothing), and purchases.
  const searchCounts = byKey(
    await sql(
      `SELECT query, COUNT(*) AS n FROM search_queries WHERE updated_at >= @startMs AND updated_at < @endMs
       GROUP BY query`,
    ),
    ['query'],
    'n',
  );
  top(
    'Top searches',
    searches.top.map((row) => ({ label: row.query, count: row.count })),
    searchCounts,
  );
  const zero = await sql(
    `SELECT DISTINCT q.query FROM search_queries q
     WHERE q.updated_at >= @startMs AND q.updated_at < @endMs AND q.results = 0
       AND q.updated_at = (SELECT MAX(r.updated_at) FROM search_queries r
         WHERE r.query = q.query AND r.updated_at >= @startMs AND r.updated_at < @endMs)`,
  );
  const zeroQueries = new Set(zero.map((row) => String(row.query)));
  for (const row of searches.zeroResults)
    same(
      `Zero-result search [${row.query}]`,
      'inbox',
      zeroQueries.has(row.query) ? 'inbox' : 'found products',
    );
  same('Zero-result searches (rows)', searches.zeroResults.length, Math.min(TOP, zeroQueries.size));
  const purchased = byKey(
    await sql(
      `SELECT q.query, COUNT(DISTINCT o.id) AS n FROM orders o, search_cart_adds c, search_queries q
       WHERE c.order_id = o.id AND q.id = c.query_id AND q.results > 0 AND c.created_at >= q.created_at
         AND o.created_at >= @start AND o.created_at < @end AND ${COUNTED}
       GROUP BY q.query`,
    ),
    ['query'],
    'n',
  );
  top(
    'Searches that led to a purchase',
    searches.purchased.map((row) => ({ label: row.query, count: row.orders })),
    purchased,
  );
  return { range, compared, differences };
}
