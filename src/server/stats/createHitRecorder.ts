import { createHmac } from 'node:crypto';
import Bowser from 'bowser';
import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';
import { classifySource, directSource } from '../../shared/attribution/classifySource';
import { deviceTypeOf } from '../../shared/attribution/deviceTypeOf';
import { hostOf } from '../../shared/attribution/parseUri';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { recordedPage, recordedUrl } from '../../shared/stats/pageIdentity';
import type { ExclusionReason, StatsRecord } from '../../shared/stats/statsTypes';
import type { Repositories } from '../db/ports';
import { botFamilyOf } from './botFamily';
import { clientNetworkOf } from './clientAddress';
import { createGroupCommit } from './createGroupCommit';
import { createOnlinePresence } from './createOnlinePresence';
import { createDaySalts } from './daySalts';
import { type EventInput, type HitInput, readTimestamp } from './hitSchemas';
import { verifyHitSignature } from './hitSignature';
import { visitorHashOf } from './visitorHash';

/*
 * Recording what the tracker sends (docs/contract.md "Tracker hit"): hits, online pings and events, each verified
 * (signature, timestamp), limited per client address, classified (bot, owner, excluded URL), then written through
 * the group commit or the online presence. The plugin only translates HTTP to these calls.
 *
 * Every request is public and a client chooses its user agent, so the limits key on the client's address (its /64
 * for IPv6), as a keyed hash with the day's salt: the raw address is never stored, and without the shop's secret
 * a leaked database cannot be matched against the address space.
 */

/** docs/contract.md: a hit's timestamp is accepted within ±2 hours of the server clock. */
const TIMESTAMP_WINDOW_S = 2 * 60 * 60;

interface HitRecorderOptions {
  repositories: Repositories;
  config: ShopConfig;
  secret: string;
  now: () => number;
  onlineWindowMs: number;
  /** Whether the request comes from the owner's browser (their visits are excluded). */
  isOwner(request: FastifyRequest): boolean;
}

/** The tracker's answer: stored, or not counted and why. */
interface HitAnswer {
  status: boolean;
  excluded?: ExclusionReason;
}

interface HitRecorder {
  recordHit(input: HitInput, request: FastifyRequest): Promise<HitAnswer>;
  recordOnline(input: HitInput, request: FastifyRequest): Promise<HitAnswer>;
  recordEvent(input: EventInput, request: FastifyRequest): Promise<HitAnswer>;
  /** Writes what is pending (on shutdown). */
  close(): Promise<void>;
}

export function createHitRecorder({
  repositories,
  config,
  secret,
  now,
  onlineWindowMs,
  isOwner,
}: HitRecorderOptions): HitRecorder {
  const settings = config.server.stats;
  // The owner's insights and back office (its login included) are never visitor traffic.
  const excluded = [...settings.excludedUrls, '/insights/*', '/admin/*'].map(
    (pattern) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
  );

  const commit = createGroupCommit<StatsRecord>((records) => repositories.stats.writeBatch(records), {
    maxDelayMs: settings.batchDelayMs,
    maxBatch: settings.batchSize,
  });
  const presence = createOnlinePresence(
    {
      admit: (entry) =>
        repositories.stats.admitOnline(entry, {
          since: now() - onlineWindowMs,
          perAddress: settings.onlinePerAddress,
        }),
      write: (entries) => repositories.stats.writeOnline(entries),
    },
    { flushMs: settings.onlineFlushMs, forgetAfterMs: onlineWindowMs },
  );

  const daySalt = createDaySalts(repositories.stats);

  // A generous per-address limit per minute, counted in the database (an atomic upsert) so that several
  // processes share one limit rather than allowing each its own.
  async function checkRate(addressHash: string, at: number) {
    const count = await repositories.stats.countRequest(addressHash, Math.floor(at / 60_000));
    if (count > settings.rateLimitPerMinute)
      throw new ShopError(
        'rate_limited',
        'Too many statistics requests from this address; try again in a minute.',
      );
  }

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
    return visitorHashOf(await daySalt(day), request);
  }

  async function addressHash(request: FastifyRequest, day: string) {
    const salt = await daySalt(day);
    return createHmac('sha256', secret)
      .update(`stats-address|${salt}|${clientNetworkOf(request.ip)}`)
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
    await checkRate(await addressHash(request, day), at);
    const userAgent = (request.headers['user-agent'] ?? '').slice(0, 512);
    const reason = exclusionOf(request, input.page_uri);
    if (reason) {
      const agent = reason === 'bot' ? botFamilyOf(userAgent) : '';
      await commit.submit({ kind: 'exclusion', day, reason, agent });
      return { status: true, excluded: reason };
    }
    const hash = await visitorHash(request, day);
    const parsed = Bowser.parse(userAgent);
    const query = input.page_uri.includes('?') ? input.page_uri.slice(input.page_uri.indexOf('?') + 1) : '';
    const siteHost = hostOf(request.host);
    const source =
      classifySource({
        query,
        referrer: input.referred,
        siteHost,
        hasSession: false,
      }) ?? directSource();
    // Nothing private is stored (PRIVATE_QUERY_PARAMS), and a page is the same page whatever variation is chosen.
    const page = recordedPage(input.page_uri);
    const referrer = recordedUrl(input.referred);
    const referrerHost = referrer ? hostOf(referrer) : '';
    await commit.submit({
      kind: 'hit',
      createdAt: at,
      day,
      visitorHash: input.anonymous === '1' ? null : hash,
      page,
      pageType: input.source_type,
      pageId: input.source_id,
      searchQuery: input.search_query,
      referrer,
      // A page of the shop's own hosts is internal navigation, never a referrer.
      referrerHost: isOwnHost(referrerHost, siteHost) ? '' : referrerHost,
      sourceType: source.type,
      source: source.source,
      browser: parsed.browser.name ?? 'Unknown',
      os: parsed.os.name ?? 'Unknown',
      deviceType: deviceTypeOf(userAgent),
    });
    return { status: true };
  }

  /** The request's host and the attribution cookie domain (the shop's subdomains) are the shop's own. */
  function isOwnHost(host: string, siteHost: string): boolean {
    if (!host) return false;
    const lower = host.toLowerCase();
    const domain = config.attribution.cookieDomain?.replace(/^\./, '').toLowerCase();
    return (
      lower === siteHost.toLowerCase() || (!!domain && (lower === domain || lower.endsWith(`.${domain}`)))
    );
  }

  async function recordOnline(input: HitInput, request: FastifyRequest) {
    verify(request, input, true);
    const reason = exclusionOf(request, input.page_uri);
    if (reason) return { status: true, excluded: reason };
    const at = now();
    const day = new Date(at).toISOString().slice(0, 10);
    // A visitor new to this process is stored at once (so every process counts them) unless their address has
    // `onlinePerAddress` visitors online already; later pings only refresh memory, flushed in batches. Pings are
    // not rate-limited: a known visitor's costs no write, and however many arrive, the cap bounds what they add.
    if (input.anonymous !== '1') {
      const visitor = {
        visitorHash: await visitorHash(request, day),
        addressHash: await addressHash(request, day),
      };
      await presence.ping(visitor, recordedPage(input.page_uri), at);
    }
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
    await checkRate(await addressHash(request, day), at);
    if (reason === 'bot' || reason === 'owner') return { status: true, excluded: reason };
    const hash = await visitorHash(request, day);
    await commit.submit({
      kind: 'event',
      createdAt: at,
      day,
      visitorHash: input.anonymous === '1' ? null : hash,
      name: input.en,
      targetUrl: recordedUrl(input.tu),
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

  return {
    recordHit,
    recordOnline,
    recordEvent,
    async close() {
      await commit.flush();
      await presence.close();
    },
  };
}
