import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { InsightsLoginPage } from '../../client/insights/InsightsLoginPage';
import { InsightsPage } from '../../client/insights/InsightsPage';
import { ShopError } from '../../shared/errors/ShopError';
import { SOURCE_SORT_KEYS, type SourceRow } from '../../shared/insights/insightsTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { parseInput } from '../http/parseInput';
import { rulesFromSettings, type SearchService } from '../search/SearchService';
import { onlineWindowMs } from '../stats/onlineWindow';
import { rangeQuery, rangeSearch, resolveRange } from './insightsRange';
import { toCsv } from './toCsv';

/*
 * Owner insights (issue 13): `/insights/` behind the owner's login, its JSON endpoints under `/insights/api/` and
 * CSV exports under `/insights/export/`. Nothing here is publicly cacheable or indexable (onSend hook below).
 */

export interface InsightsPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  secret: string;
  /** The search engine: its session hash joins searches to orders. */
  search: SearchService;
  now?: () => number;
}

const LOGIN_NONCE = 'insights_login';
const LOGOUT_NONCE = 'insights_logout';

const loginBody = z.object({ password: z.string().max(500), _wpnonce: z.string().max(100).optional() });
const logoutBody = z.object({
  _wpnonce: z.string().max(100).optional(),
  everywhere: z.enum(['1']).optional(),
});
const panelParam = z.object({ panel: z.enum(['visitors', 'sources', 'searches']) });
const SYNONYM_NONCE = 'insights_synonym';
const synonymBody = rangeQuery.extend({
  query: z.string().trim().min(1).max(100),
  synonym: z.string().trim().min(1, 'Give a word that finds products.').max(100),
  _wpnonce: z.string().max(100).optional(),
});
const exportParam = z.object({
  table: z.enum([
    'daily',
    'pages',
    'referrers',
    'downloads',
    'outbound',
    'devices',
    'sources',
    'revenue-daily',
    'searches',
    'zero-results',
    'purchased-searches',
  ]),
});
const pageQuery = rangeQuery.extend({
  sort: z.enum(SOURCE_SORT_KEYS).default('revenue'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});

export async function insightsPlugin(
  app: FastifyInstance,
  { repositories, config, search, now = Date.now }: InsightsPluginOptions,
) {
  const owner = app.owner;
  async function requireSession(request: FastifyRequest, reply: FastifyReply) {
    if (!(await owner.authenticate(request, reply)))
      throw new ShopError('unauthorized', 'Log in at /insights/ first.');
  }

  app.addHook('onSend', async function privateInsights(_request, reply) {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex, nofollow');
  });

  const today = () => new Date(now()).toISOString().slice(0, 10);
  const onlineSince = () => now() - onlineWindowMs(config.stats.jsCheckTime);
  const panels = {
    visitors: (range: { from: string; to: string }) =>
      repositories.insights.visitors(range, { today: today(), onlineSince: onlineSince() }),
    sources: (range: { from: string; to: string }) =>
      repositories.insights.sources(range, { today: today() }),
    searches: (range: { from: string; to: string }) =>
      repositories.insights.searches(range, { sessionHash: (id) => search.sessionHash(id) }),
  };

  // Closed days are summarized in the background once an hour (and at start), so a report rarely pays for it.
  const summarize = () => void repositories.insights.summarizeBefore(today()).catch(() => undefined);
  const summaryTimer = setInterval(summarize, 60 * 60 * 1000);
  summaryTimer.unref();
  app.addHook('onReady', async function summarizeAtStart() {
    summarize();
  });
  app.addHook('onClose', async function stopSummaries() {
    clearInterval(summaryTimer);
  });

  function sendLogin(request: FastifyRequest, reply: FastifyReply, error: string | null, status: number) {
    return reply.sendPage(
      {
        title: 'Owner login',
        noindex: true,
        body: (
          <InsightsLoginPage
            nonce={app.nonces.create(LOGIN_NONCE, request.visitor)}
            error={error}
            configured={owner.configured}
          />
        ),
      },
      { status },
    );
  }

  app.get('/insights/', async function insightsPage(request, reply) {
    if (!(await owner.authenticate(request, reply))) return sendLogin(request, reply, null, 200);
    const query = parseInput(pageQuery, request.query);
    const range = resolveRange(query, now());
    const [visitors, sources, searches] = await Promise.all([
      panels.visitors(range),
      panels.sources(range),
      panels.searches(range),
    ]);
    sources.rows = sortRows(sources.rows, query.sort, query.dir);
    return reply.sendPage({
      title: 'Insights',
      noindex: true,
      body: (
        <InsightsPage
          range={range}
          search={rangeSearch(range)}
          visitors={visitors}
          sources={sources}
          sort={{ key: query.sort, dir: query.dir }}
          currency={config.shop.currency}
          searches={searches}
          synonymNonce={app.nonces.create(SYNONYM_NONCE, request.visitor)}
          logoutNonce={app.nonces.create(LOGOUT_NONCE, request.visitor)}
        />
      ),
    });
  });

  app.post('/insights/login', async function insightsLogin(request, reply) {
    const body = parseInput(loginBody, request.body ?? {});
    if (!app.nonces.verify(body._wpnonce, LOGIN_NONCE, request.visitor))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    const check = await owner.logIn(request, reply, body.password);
    if (!check.ok && check.retryAfterSeconds !== null) {
      reply.header('Retry-After', String(check.retryAfterSeconds));
      return sendLogin(
        request,
        reply,
        `Too many wrong attempts. Try again in ${waitText(check.retryAfterSeconds)}.`,
        429,
      );
    }
    if (!check.ok) return sendLogin(request, reply, 'That password or token is not right.', 401);
    return reply.redirect('/insights/', 303);
  });

  app.post('/insights/logout', async function insightsLogout(request, reply) {
    const body = parseInput(logoutBody, request.body ?? {});
    if (!app.nonces.verify(body._wpnonce, LOGOUT_NONCE, request.visitor))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    await owner.logOut(request, reply, { everywhere: body.everywhere === '1' });
    return reply.redirect('/insights/', 303);
  });

  // From the zero-result inbox: the query becomes a synonym of a word that finds products. The rules live in the
  // database (migration 0003); saving them moves their revision, so every process's index applies them next search.
  app.post('/insights/synonym', async function insightsSynonym(request, reply) {
    await requireSession(request, reply);
    const body = parseInput(synonymBody, request.body ?? {});
    if (!app.nonces.verify(body._wpnonce, SYNONYM_NONCE, request.visitor))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    const rules = (await repositories.search.getRules()) ?? rulesFromSettings(config.search.relevance);
    const words = [body.query, body.synonym];
    const group = rules.synonyms.find((each) => each.some((word) => words.includes(word)));
    if (group) for (const word of words) if (!group.includes(word)) group.push(word);
    if (!group) rules.synonyms.push(words);
    await repositories.search.saveRules(rules);
    const range = resolveRange(body, now());
    return reply.redirect(`/insights/?${rangeSearch(range)}#searches`, 303);
  });

  app.get('/insights/api/:panel', async function insightsApi(request, reply) {
    await requireSession(request, reply);
    const { panel } = parseInput(panelParam, request.params);
    const range = resolveRange(parseInput(rangeQuery, request.query), now());
    return { range: { from: range.from, to: range.to }, [panel]: await panels[panel](range) };
  });

  app.get('/insights/export/:table', async function insightsExport(request, reply) {
    await requireSession(request, reply);
    const table = parseInput(exportParam, {
      table: (request.params as { table?: string }).table?.replace(/\.csv$/, ''),
    }).table;
    const range = resolveRange(parseInput(rangeQuery, request.query), now());
    const csv = await exportTable(table, range);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="insights-${table}-${range.from}-${range.to}.csv"`)
      .send(csv);
  });

  async function exportTable(
    table: z.infer<typeof exportParam>['table'],
    range: { from: string; to: string },
  ) {
    const counts = (label: string, rows: { label: string; count: number }[]) =>
      toCsv(
        [label, 'count'],
        rows.map((row) => [row.label, row.count]),
      );
    if (table === 'searches' || table === 'zero-results' || table === 'purchased-searches') {
      const searches = await panels.searches(range);
      if (table === 'purchased-searches')
        return toCsv(
          ['query', 'orders'],
          searches.purchased.map((row) => [row.query, row.orders]),
        );
      return toCsv(
        ['query', 'searches', 'results', 'last_seen'],
        (table === 'searches' ? searches.top : searches.zeroResults).map((row) => [
          row.query,
          row.count,
          row.results,
          new Date(row.lastSeen).toISOString(),
        ]),
      );
    }
    if (table === 'sources' || table === 'revenue-daily') {
      const sources = await panels.sources(range);
      if (table === 'revenue-daily')
        return toCsv(
          ['day', 'source_type', 'revenue'],
          sources.daily.map((row) => [
            row.day,
            row.sourceType,
            row.revenue / 10 ** config.shop.currency.decimals,
          ]),
        );
      return toCsv(
        ['source_type', 'source', 'medium', 'campaign', 'orders', 'revenue', 'visitors', 'conversion_rate'],
        sources.rows.map((row) => [
          row.sourceType,
          row.source,
          row.medium,
          row.campaign,
          row.orders,
          row.revenue / 10 ** config.shop.currency.decimals,
          row.visitors,
          row.conversionRate,
        ]),
      );
    }
    const visitors = await panels.visitors(range);
    if (table === 'daily')
      return toCsv(
        ['day', 'visitors', 'views'],
        visitors.daily.map((row) => [row.day, row.visitors, row.views]),
      );
    if (table === 'pages') return counts('page', visitors.topPages);
    if (table === 'referrers') return counts('referrer', visitors.topReferrers);
    if (table === 'downloads') return counts('file', visitors.downloads);
    if (table === 'outbound') return counts('url', visitors.outboundLinks);
    return counts('device', visitors.devices);
  }
}

function waitText(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

function sortRows(rows: SourceRow[], key: (typeof SOURCE_SORT_KEYS)[number], dir: 'asc' | 'desc') {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const left = a[key] ?? -1;
    const right = b[key] ?? -1;
    return (
      (typeof left === 'number' && typeof right === 'number'
        ? left - right
        : String(left).localeCompare(String(right))) * sign
    );
  });
}
