import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { InsightsLoginPage } from '../../client/insights/InsightsLoginPage';
import { InsightsPage } from '../../client/insights/InsightsPage';
import { ShopError } from '../../shared/errors/ShopError';
import { SOURCE_SORT_KEYS, type SourceRow } from '../../shared/insights/insightsTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/repositories';
import { parseInput } from '../http/parseInput';
import { isOwnerCredential, OWNER_COOKIE, safeEqual, statsOwnerCookieValue } from '../owner/ownerCredentials';
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

export const INSIGHTS_COOKIE = 'shop_insights';
const SESSION_MS = 12 * 60 * 60 * 1000;
const LOGIN_NONCE = 'insights_login';
const LOGOUT_NONCE = 'insights_logout';
/** Wrong attempts per client in a window before the login answers 429 without checking. */
const MAX_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60 * 1000;

const loginBody = z.object({ password: z.string().max(500), _wpnonce: z.string().max(100).optional() });
const logoutBody = z.object({ _wpnonce: z.string().max(100).optional() });
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
  { repositories, config, secret, search, now = Date.now }: InsightsPluginOptions,
) {
  const { ownerPasswordHash, ownerToken } = config.server;
  const configured = ownerPasswordHash !== null || ownerToken !== null;
  // Sessions die when the credentials change: the signature covers a fingerprint of them.
  const fingerprint = createHash('sha256').update(`${ownerPasswordHash}|${ownerToken}`).digest('hex');
  const sign = (expires: number) =>
    createHmac('sha256', secret).update(`insights|${expires}|${fingerprint}`).digest('base64url');
  const statsCookie = statsOwnerCookieValue(secret, ownerToken);

  function hasSession(request: FastifyRequest) {
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (bearer !== undefined && ownerToken !== null && safeEqual(bearer, ownerToken)) return true;
    const [expires, signature] = (request.cookies[INSIGHTS_COOKIE] ?? '').split('.');
    if (!configured || !expires || !signature || Number(expires) < now()) return false;
    return safeEqual(signature, sign(Number(expires)));
  }
  function requireSession(request: FastifyRequest) {
    if (!hasSession(request)) throw new ShopError('unauthorized', 'Log in at /insights/ first.');
  }

  // Failed logins per client (a hash of the address, kept in memory only).
  const failures = new Map<string, { since: number; count: number }>();
  const clientKey = (request: FastifyRequest) => createHash('sha256').update(request.ip).digest('hex');
  function blockedFor(key: string): number {
    const entry = failures.get(key);
    if (!entry || now() - entry.since > FAILURE_WINDOW_MS) return 0;
    return entry.count >= MAX_FAILURES ? entry.since + FAILURE_WINDOW_MS - now() : 0;
  }
  function recordFailure(key: string) {
    const entry = failures.get(key);
    if (!entry || now() - entry.since > FAILURE_WINDOW_MS) {
      if (failures.size > 10_000) failures.clear();
      failures.set(key, { since: now(), count: 1 });
    } else entry.count += 1;
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
            nonce={app.nonces.create(LOGIN_NONCE, request.visitor.id)}
            error={error}
            configured={configured}
          />
        ),
      },
      { status },
    );
  }

  app.get('/insights/', async function insightsPage(request, reply) {
    if (!hasSession(request)) return sendLogin(request, reply, null, 200);
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
          synonymNonce={app.nonces.create(SYNONYM_NONCE, request.visitor.id)}
          logoutNonce={app.nonces.create(LOGOUT_NONCE, request.visitor.id)}
        />
      ),
    });
  });

  app.post('/insights/login', async function insightsLogin(request, reply) {
    const body = parseInput(loginBody, request.body ?? {});
    if (!app.nonces.verify(body._wpnonce, LOGIN_NONCE, request.visitor.id))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    const key = clientKey(request);
    const wait = blockedFor(key);
    if (wait > 0) {
      const minutes = Math.ceil(wait / 60_000);
      return sendLogin(
        request,
        reply,
        `Too many wrong attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        429,
      );
    }
    if (!isOwnerCredential(config.server, body.password)) {
      recordFailure(key);
      return sendLogin(request, reply, 'That password or token is not right.', 401);
    }
    failures.delete(key);
    const expires = now() + SESSION_MS;
    const secure = request.protocol === 'https';
    reply.setCookie(INSIGHTS_COOKIE, `${expires}.${sign(expires)}`, {
      path: '/insights',
      httpOnly: true,
      sameSite: 'strict',
      secure,
      maxAge: SESSION_MS / 1000,
    });
    // The owner's own visits stop counting in the visitor statistics (the statistics' owner cookie).
    if (statsCookie)
      reply.setCookie(OWNER_COOKIE, statsCookie, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure,
        maxAge: 365 * 24 * 60 * 60,
      });
    return reply.redirect('/insights/', 303);
  });

  app.post('/insights/logout', async function insightsLogout(request, reply) {
    const body = parseInput(logoutBody, request.body ?? {});
    if (!app.nonces.verify(body._wpnonce, LOGOUT_NONCE, request.visitor.id))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
    reply.clearCookie(INSIGHTS_COOKIE, { path: '/insights' });
    return reply.redirect('/insights/', 303);
  });

  // From the zero-result inbox: the query becomes a synonym of a word that finds products. The rules live in the
  // database (migration 0003); saving them moves their revision, so every process's index applies them next search.
  app.post('/insights/synonym', async function insightsSynonym(request, reply) {
    requireSession(request);
    const body = parseInput(synonymBody, request.body ?? {});
    if (!app.nonces.verify(body._wpnonce, SYNONYM_NONCE, request.visitor.id))
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

  app.get('/insights/api/:panel', async function insightsApi(request) {
    requireSession(request);
    const { panel } = parseInput(panelParam, request.params);
    const range = resolveRange(parseInput(rangeQuery, request.query), now());
    return { range: { from: range.from, to: range.to }, [panel]: await panels[panel](range) };
  });

  app.get('/insights/export/:table', async function insightsExport(request, reply) {
    requireSession(request);
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
