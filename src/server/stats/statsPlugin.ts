import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { HitParams } from '../../shared/stats/statsPayload';
import type { Repositories } from '../db/ports';
import { parseInput } from '../http/parseInput';
import { reportRange } from '../reports/reportRange';
import { createHitRecorder } from './createHitRecorder';
import { eventSchema, hitSchema } from './hitSchemas';
import { pageIdentityOf, signHitParams } from './hitSignature';
import { onlineWindowMs } from './onlineWindow';
import { startStatsRetention } from './statsRetention';

/*
 * Visitor statistics on the server (docs/contract.md "Tracker hit"): the hit and online endpoints under
 * /wp-json/stats/v1/ and the /ajax actions stats_hit, stats_online, stats_event; the signed hit parameters every page
 * carries; the owner's report. Registered with fastify-plugin only so pages can read `statsPageSettings`.
 */

export interface StatsPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  secret: string;
  now?: () => number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-page stats settings (signed hit parameters, preview flag) pages render. */
    statsPageSettings?: (
      request: FastifyRequest,
      status: number,
    ) => { hitParams: HitParams; isPreview: boolean };
  }
}

export const statsPlugin = fp(
  async function statsPlugin(
    app: FastifyInstance,
    { repositories, config, secret, now = Date.now }: StatsPluginOptions,
  ) {
    const settings = config.server.stats;
    const onlineWindow = onlineWindowMs(config.stats.jsCheckTime);

    // The owner's session (src/server/owner): its visits are not counted.
    const isOwner = (request: FastifyRequest) => app.owner.isOwner(request);

    app.decorate('statsPageSettings', (request: FastifyRequest, status: number) => ({
      hitParams: signHitParams(secret, pageIdentityOf(request.url, status)),
      isPreview: (request.query as Record<string, unknown>)?.preview === '1' && isOwner(request),
    }));

    const recorder = createHitRecorder({
      repositories,
      config,
      secret,
      now,
      onlineWindowMs: onlineWindow,
      isOwner,
    });
    const { recordHit, recordOnline, recordEvent } = recorder;

    const noStore = (reply: FastifyReply) => reply.header('cache-control', 'no-store');
    app.post('/wp-json/stats/v1/hit', async function statsHit(request, reply) {
      return noStore(reply).send(await recordHit(parseInput(hitSchema, request.body ?? {}), request));
    });
    app.post('/wp-json/stats/v1/online', async function statsOnline(request, reply) {
      return noStore(reply).send(await recordOnline(parseInput(hitSchema, request.body ?? {}), request));
    });
    app.ajax.siteAjax('stats_hit', { schema: hitSchema, methods: ['POST'], handle: recordHit });
    app.ajax.siteAjax('stats_online', { schema: hitSchema, methods: ['POST'], handle: recordOnline });
    app.ajax.siteAjax('stats_event', { schema: eventSchema, methods: ['POST'], handle: recordEvent });

    const requireOwner = app.owner.requireOwner;

    // The owner's browser: its visits are excluded and `?preview=1` is a preview (CONTRACT.md stats.isPreview).
    app.post('/wp-json/stats/v1/owner', async function ownerLogin(request, reply) {
      await requireOwner(request, reply);
      await app.owner.startSession(request, reply);
      return reply.status(204).send();
    });

    const reportQuery = z.object({ from: z.string().max(10).optional(), to: z.string().max(10).optional() });
    app.get('/wp-json/stats/v1/report', async function statsReportRoute(request, reply) {
      await requireOwner(request, reply);
      const { range } = reportRange(parseInput(reportQuery, request.query), new Date(now()));
      // "Online now" comes from the database alone, so every process answers the same.
      const report = await repositories.stats.report(range, { onlineSince: now() - onlineWindow });
      return noStore(reply).send(report);
    });

    const retention = startStatsRetention({
      repositories,
      retentionDays: settings.retentionDays,
      onlineWindowMs: onlineWindow,
      now,
    });

    app.addHook('onClose', async function flushStats() {
      retention.stop();
      await recorder.close();
    });
  },
  { name: 'shop-stats', fastify: '5.x', dependencies: ['shop-session', 'shop-ajax', 'shop-owner'] },
);
