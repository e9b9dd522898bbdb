import { createHash } from 'node:crypto';
import Bowser from 'bowser';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isbot } from 'isbot';
import { z } from 'zod';
import { classifySource, directSource } from '../../shared/attribution/classifySource';
import { deviceTypeOf } from '../../shared/attribution/deviceTypeOf';
import { hostOf } from '../../shared/attribution/parseUri';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { HitParams } from '../../shared/stats/statsPayload';
import type { ExclusionReason, StatsRecord } from '../../shared/stats/statsTypes';
import type { Repositories } from '../db/repositories';
import { parseInput } from '../http/parseInput';
import { parseReportOptions } from '../reports/reportRange';
import { createGroupCommit } from './createGroupCommit';
import { createOnlinePresence } from './createOnlinePresence';
import { type EventInput, eventSchema, type HitInput, hitSchema, readTimestamp } from './hitSchemas';
import { pageIdentityOf, signHitParams, verifyHitSignature } from './hitSignature';

/*
 * Visitor statistics on the server (issue 7, CONTRACT.md "Tracker hit"): the hit and online endpoints under
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

/** CONTRACT.md: a hit's timestamp is accepted within ±2 hours of the server clock. */
const TIMESTAMP_WINDOW_S = 2 * 60 * 60;
const DAY_MS = 86_400_000;

export const statsPlugin = fp(
  async function statsPlugin(
    app: FastifyInstance,
    { repositories, config, secret, now = Date.now }: StatsPluginOptions,
  ) {
    const settings = config.server.stats;
    // The owner's insights pages (issue 13) are never visitor traffic.
    const excluded = [...settings.excludedUrls, '/insights/*'].map(
      (pattern) =>
        new RegExp(
          `^${pattern
            .split('*')
            .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
            .join('.*')}$`,
        ),
    );
    const onlineWindowMs = Math.max(2 * config.stats.jsCheckTime, 120_000);

    const commit = createGroupCommit<StatsRecord>((records) => repositories.stats.writeBatch(records), {
      maxDelayMs: settings.batchDelayMs,
      maxBatch: settings.batchSize,
    });
    const presence = createOnlinePresence((entries) => repositories.stats.writeOnline(entries), {
      flushMs: settings.onlineFlushMs,
      forgetAfterMs: onlineWindowMs,
    });

    // The day's salt is first-writer-wins in the database, so caching it here gives every process the same one.
    const salts = new Map<string, Promise<string>>();
    function daySalt(day: string) {
      let salt = salts.get(day);
      if (!salt) {
        salt = repositories.stats.daySalt(day);
        salts.clear();
        salts.set(day, salt);
        // A failed read (database briefly unreachable) must not stick for the rest of the day.
        salt.catch(() => salts.get(day) === salt && salts.delete(day));
      }
      return salt;
    }

    // A generous per-visitor limit per minute, counted in the database (an atomic upsert) so that several
    // processes share one limit rather than allowing each its own.
    async function checkRate(key: string, at: number) {
      const count = await repositories.stats.countRequest(key, Math.floor(at / 60_000));
      if (count > settings.rateLimitPerMinute)
        throw new ShopError(
          'rate_limited',
          'Too many statistics requests from this visitor; try again in a minute.',
        );
    }

    // The owner's session (src/server/owner): its visits are not counted.
    const isOwner = (request: FastifyRequest) => app.owner.isOwner(request);

    app.decorate('statsPageSettings', (request: FastifyRequest, status: number) => ({
      hitParams: signHitParams(secret, pageIdentityOf(request.url, status)),
      isPreview: (request.query as Record<string, unknown>)?.preview === '1' && isOwner(request),
    }));

    /** Signature and timestamp checks shared by hits, pings and events. */
    function verify(
      request: FastifyRequest,
      input: { source_type: string; source_id: number; search_query: string; signature: string },
      checkTime: boolean,
    ) {
      if (checkTime) {
        const seconds = readTimestamp(request.headers['x-wps-ts']);
        if (seconds === null)
          throw new ShopError('invalid_timestamp', 'X-WPS-TS must be base64 of Unix seconds.');
        if (Math.abs(seconds - now() / 1000) > TIMESTAMP_WINDOW_S)
          throw new ShopError('invalid_timestamp', 'The hit is too old or from the future.');
      }
      const page = {
        sourceType: input.source_type,
        sourceId: input.source_id,
        searchQuery: input.search_query,
      };
      if (!verifyHitSignature(secret, page, input.signature))
        throw new ShopError('invalid_signature', 'The hit parameters are not signed by this shop.');
    }

    async function visitorHash(request: FastifyRequest, day: string) {
      const salt = await daySalt(day);
      return createHash('sha256')
        .update(`${salt}|${request.ip}|${request.headers['user-agent'] ?? ''}`)
        .digest('hex')
        .slice(0, 32);
    }

    function exclusionOf(request: FastifyRequest, page: string): ExclusionReason | null {
      if (isbot(request.headers['user-agent'] ?? '')) return 'bot';
      if (isOwner(request)) return 'owner';
      const path = page.split('?')[0] ?? page;
      if (excluded.some((pattern) => pattern.test(path) || pattern.test(page))) return 'excluded_url';
      return null;
    }

    async function recordHit(input: HitInput, request: FastifyRequest) {
      verify(request, input, true);
      const at = now();
      const day = new Date(at).toISOString().slice(0, 10);
      const userAgent = (request.headers['user-agent'] ?? '').slice(0, 512);
      const reason = exclusionOf(request, input.page_uri);
      if (reason) {
        await commit.submit({
          kind: 'exclusion',
          createdAt: at,
          day,
          reason,
          page: input.page_uri,
          userAgent,
        });
        return { status: true, excluded: reason };
      }
      const hash = await visitorHash(request, day);
      await checkRate(hash, at);
      const parsed = Bowser.parse(userAgent);
      const query = input.page_uri.includes('?') ? input.page_uri.slice(input.page_uri.indexOf('?') + 1) : '';
      const source =
        classifySource({
          query,
          referrer: input.referred,
          siteHost: hostOf(request.host),
          hasSession: false,
        }) ?? directSource();
      await commit.submit({
        kind: 'hit',
        createdAt: at,
        day,
        visitorHash: input.anonymous === '1' ? null : hash,
        page: input.page_uri,
        pageType: input.source_type,
        pageId: input.source_id,
        searchQuery: input.search_query,
        referrer: input.referred,
        referrerHost: input.referred ? hostOf(input.referred) : '',
        sourceType: source.type,
        source: source.source,
        browser: parsed.browser.name ?? 'Unknown',
        os: parsed.os.name ?? 'Unknown',
        deviceType: deviceTypeOf(userAgent),
      });
      return { status: true };
    }

    async function recordOnline(input: HitInput, request: FastifyRequest) {
      verify(request, input, true);
      const reason = exclusionOf(request, input.page_uri);
      if (reason) return { status: true, excluded: reason };
      const at = now();
      const hash = await visitorHash(request, new Date(at).toISOString().slice(0, 10));
      // A visitor new to this process is stored at once (so every process counts them); later pings only
      // refresh memory, flushed to the database in batches.
      if (input.anonymous !== '1') await presence.ping(hash, input.page_uri, at);
      return { status: true };
    }

    async function recordEvent(input: EventInput, request: FastifyRequest) {
      verify(request, input, false);
      const at = now();
      // Events are sent with keepalive and carry their own time (`et`, ms): the same window as hits.
      if (Math.abs(input.et - at) > TIMESTAMP_WINDOW_S * 1000)
        throw new ShopError('invalid_timestamp', 'The event is too old or from the future.');
      const day = new Date(at).toISOString().slice(0, 10);
      const reason = exclusionOf(request, new URL(input.tu).pathname);
      if (reason === 'bot' || reason === 'owner') return { status: true, excluded: reason };
      const hash = await visitorHash(request, day);
      await checkRate(hash, at);
      await commit.submit({
        kind: 'event',
        createdAt: at,
        day,
        visitorHash: input.anonymous === '1' ? null : hash,
        name: input.en,
        targetUrl: input.tu,
        linkDomain: input.df,
        linkPath: input.dk,
        fileName: input.fn,
        fileExt: input.fx,
        elementId: input.eid,
        elementClasses: input.ec,
        elementText: input.ev,
        mouseButton: input.mb,
        pageId: input.source_id,
        shopDownload: input.wcdl === '1',
        eventTime: input.et,
      });
      return { status: true };
    }

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
      const { from, to } = parseInput(reportQuery, request.query);
      const options = parseReportOptions([...(from ? ['--from', from] : []), ...(to ? ['--to', to] : [])]);
      // "Online now" comes from the database alone, so every process answers the same.
      const report = await repositories.stats.report(options.range, { onlineSince: now() - onlineWindowMs });
      return noStore(reply).send(report);
    });

    // Retention: hourly, and once at start.
    const retention = async () => {
      const cutoff = new Date(now() - settings.retentionDays * DAY_MS).toISOString().slice(0, 10);
      const yesterday = new Date(now() - DAY_MS).toISOString().slice(0, 10);
      // Salts go after one day: a hash can never be recomputed later (the salt of today and yesterday stay for
      // visits that span midnight).
      await repositories.stats.deleteBefore(cutoff, {
        saltsBefore: yesterday,
        onlineBefore: now() - onlineWindowMs,
      });
    };
    void retention().catch(() => undefined);
    const retentionTimer = setInterval(() => void retention().catch(() => undefined), 60 * 60 * 1000);
    retentionTimer.unref();

    app.addHook('onClose', async function flushStats() {
      clearInterval(retentionTimer);
      await commit.flush();
      await presence.close();
    });
  },
  { name: 'shop-stats', fastify: '5.x', dependencies: ['shop-session', 'shop-ajax', 'shop-owner'] },
);
