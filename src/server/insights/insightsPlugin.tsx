import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { InsightsPage } from '../../client/insights/InsightsPage';
import { ShopError } from '../../shared/errors/ShopError';
import { SOURCE_SORT_KEYS } from '../../shared/insights/insightsTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { parseInput } from '../http/parseInput';
import { EXPORT_TABLES, exportFileName, exportTable } from './insightsExport';
import { createInsightsPanels, sortSourceRows } from './insightsPanels';
import { rangeQuery, rangeSearch, resolveRange } from './insightsRange';
import { scheduleDailySummaries } from './insightsSummaries';
import { addSynonym } from './insightsSynonyms';

/*
 * Owner insights over HTTP: `/insights/` behind the owner's login, its JSON endpoints under `/insights/api/` and
 * CSV exports under `/insights/export/`. They show visitors' and customers' data, so nothing here may be cached by
 * a shared cache or indexed (the onSend hook below).
 */

interface InsightsPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  secret: string;
  now?: () => number;
}

const LOGOUT_NONCE = 'insights_logout';
const SYNONYM_NONCE = 'insights_synonym';

const logoutBody = z.object({
  _wpnonce: z.string().max(100).optional(),
  everywhere: z.enum(['1']).optional(),
});
const panelParam = z.object({ panel: z.enum(['visitors', 'sources', 'searches']) });
const synonymBody = rangeQuery.extend({
  query: z.string().trim().min(1).max(100),
  synonym: z.string().trim().min(1, 'Give a word that finds products.').max(100),
  _wpnonce: z.string().max(100).optional(),
});
/** `/insights/export/pages.csv` and `/insights/export/pages` name the same table. */
const exportParam = z.object({
  table: z
    .string()
    .optional()
    .transform((table) => table?.replace(/\.csv$/, ''))
    .pipe(z.enum(EXPORT_TABLES)),
});
const pageQuery = rangeQuery.extend({
  sort: z.enum(SOURCE_SORT_KEYS).default('revenue'),
  dir: z.enum(['asc', 'desc']).default('desc'),
});

export async function insightsPlugin(
  app: FastifyInstance,
  { repositories, config, now = Date.now }: InsightsPluginOptions,
) {
  const owner = app.owner;
  const panels = createInsightsPanels({ insights: repositories.insights, config, now });

  async function requireSession(request: FastifyRequest, reply: FastifyReply) {
    if (!(await owner.authenticate(request, reply)))
      throw new ShopError('unauthorized', 'Log in at /admin/login first.');
  }

  function requireNonce(nonce: string | undefined, action: string, request: FastifyRequest) {
    if (!app.nonces.verify(nonce, action, request.visitor))
      throw new ShopError('invalid_nonce', 'Your session has expired. Please reload the page and try again.');
  }

  app.addHook('onSend', async function privateInsights(_request, reply) {
    reply.header('cache-control', 'no-store');
    reply.header('x-robots-tag', 'noindex, nofollow');
  });

  const summaries = scheduleDailySummaries(repositories.insights, now);
  app.addHook('onReady', async function summarizeAtStart() {
    summaries.runNow();
  });
  app.addHook('onClose', async function stopSummaries() {
    summaries.stop();
  });

  app.get('/insights/', async function insightsPage(request, reply) {
    // One login for the owner: the back office's, which comes back here.
    if (!(await owner.authenticate(request, reply)))
      return reply.redirect(`/admin/login?next=${encodeURIComponent(request.url)}`, 303);
    const query = parseInput(pageQuery, request.query);
    const range = resolveRange(query, now());
    const [visitors, sources, searches] = await Promise.all([
      panels.visitors(range),
      panels.sources(range),
      panels.searches(range),
    ]);
    return reply.sendPage({
      title: 'Insights',
      noindex: true,
      body: (
        <InsightsPage
          range={range}
          search={rangeSearch(range)}
          visitors={visitors}
          sources={{ ...sources, rows: sortSourceRows(sources.rows, query.sort, query.dir) }}
          sort={{ key: query.sort, dir: query.dir }}
          currency={config.shop.currency}
          searches={searches}
          synonymNonce={app.nonces.create(SYNONYM_NONCE, request.visitor)}
          logoutNonce={app.nonces.create(LOGOUT_NONCE, request.visitor)}
        />
      ),
    });
  });

  app.post('/insights/logout', async function insightsLogout(request, reply) {
    const body = parseInput(logoutBody, request.body ?? {});
    requireNonce(body._wpnonce, LOGOUT_NONCE, request);
    await owner.logOut(request, reply, { everywhere: body.everywhere === '1' });
    return reply.redirect('/admin/login', 303);
  });

  app.post('/insights/synonym', async function insightsSynonym(request, reply) {
    await requireSession(request, reply);
    const body = parseInput(synonymBody, request.body ?? {});
    requireNonce(body._wpnonce, SYNONYM_NONCE, request);
    await addSynonym(repositories.search, config.search.relevance, body.query, body.synonym);
    return reply.redirect(`/insights/?${rangeSearch(resolveRange(body, now()))}#searches`, 303);
  });

  app.get('/insights/api/:panel', async function insightsApi(request, reply) {
    await requireSession(request, reply);
    const { panel } = parseInput(panelParam, request.params);
    const range = resolveRange(parseInput(rangeQuery, request.query), now());
    return { range: { from: range.from, to: range.to }, [panel]: await panels[panel](range) };
  });

  app.get('/insights/export/:table', async function insightsExport(request, reply) {
    await requireSession(request, reply);
    const { table } = parseInput(exportParam, request.params);
    const range = resolveRange(parseInput(rangeQuery, request.query), now());
    const csv = await exportTable(panels, table, range, config.shop.currency.decimals);
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${exportFileName(table, range)}"`)
      .send(csv);
  });
}
