import type { PageSettings } from '../../shared/settings/settingsSchema';
import { encodeBase64Text } from '../../shared/stats/base64Text';
import { recordedSearch, recordedUrl } from '../../shared/stats/pageIdentity';
import { type EventFields, type EventName, IDLE_STOP_MS } from '../../shared/stats/statsPayload';
import type { Consent } from '../consent/createConsent';

/*
 * The visitor-statistics tracker, a core with no globals: the
 * page's window, timers and fetch come in through `env`, so tests drive it with fakes and fake timers.
 * - One hit per page view, again when history navigation changes the path or the query; none in preview mode.
 *   A new hash or a variation choice the shop writes into the address (`SHOP_VARIATION_PARAMS`) is the same page.
 *   Private parameters (`PRIVATE_QUERY_PARAMS`) never leave the page. Hits go out one after another, so a
 *   navigation made while a hit is unanswered is queued, never dropped.
 * - After a successful hit, an online ping every `jsCheckTime` ms, stopped after 30 minutes without click,
 *   keypress or scroll and restarted by the next one; a failed hit (non-200 or `status: false`) sends no pings.
 * - Downloads and outbound links send an event with `keepalive`, so it arrives even as the page unloads.
 * - Do-not-track (when honoured) or missing consent: a console message, and nothing is sent. Consent is asked
 *   before every request and followed as it changes: withdrawn, it stops hits, pings and events at once; given
 *   later on the page, it records the page then (as WP Statistics starts its tracker on the consent event).
 */

export interface PageLocation {
  href: string;
  host: string;
  pathname: string;
  search: string;
}

export interface StatsEnv {
  settings: PageSettings['stats'];
  consent: Consent;
  consentCategory: string;
  fetch: (url: string, init: RequestInit) => Promise<Pick<Response, 'ok' | 'status' | 'json'>>;
  location: () => PageLocation;
  referrer: string;
  doNotTrack: boolean;
  now: () => number;
  setInterval: (run: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  console: Pick<Console, 'log' | 'warn'>;
}

export interface ClickedLink {
  href: string;
  id: string;
  className: string;
  text: string;
  button: number;
}

export type StatsState = 'idle' | 'blocked' | 'waiting-for-consent' | 'sending' | 'tracking' | 'failed';

export interface StatsTracker {
  start(): void;
  /** History navigation happened: a new hit if the path or the query (but for variation choices) changed. */
  urlChanged(): void;
  /** A click, keypress or scroll: keeps (or brings back) the online pings. */
  activity(): void;
  linkClicked(link: ClickedLink): void;
  getState(): StatsState;
  /** Nothing more leaves the page, not even the pings a hit still unanswered would start. */
  stop(): void;
}

/** One page view as its hit reports it: the page and the page (or site) the visitor came from. */
interface PageView {
  href: string;
  pathname: string;
  search: string;
  referrer: string;
}

/** What consent allows now: hits with the visitor, anonymous hits (`stats.anonymousTracking`), or nothing. */
type Access = 'identified' | 'anonymous' | 'none';

export function createStatsTracker(env: StatsEnv): StatsTracker {
  const { settings } = env;
  let state: StatsState = 'idle';
  /** The latest page view, sent or not: the next one's referrer, and what online pings report. */
  let view: PageView | null = null;
  /** The page whose hit went out last, and whether the server recorded it. */
  let recorded: { href: string; ok: boolean } | null = null;
  const queue: PageView[] = [];
  let sending = false;
  /** Bumped when consent is withdrawn or the tracker stops: an answer to a hit sent before it starts nothing. */
  let consentEpoch = 0;
  let lastActivity = env.now();
  let pingTimer: unknown = null;
  let unsubscribe: (() => void) | null = null;

  const access = (): Access =>
    env.consent.has(env.consentCategory) ? 'identified' : settings.anonymousTracking ? 'anonymous' : 'none';

  const endpoint = (name: 'hit' | 'online') =>
    settings.bypassAdBlockers
      ? settings.ajaxUrl
      : `${settings.requestUrl.replace(/\/$/, '')}/${name === 'hit' ? settings.hitEndpoint : settings.onlineEndpoint}`;

  function payload(action: string, page: PageView, allowed: Access): URLSearchParams {
    const body = new URLSearchParams(settings.hitParams ?? {});
    if (settings.bypassAdBlockers) body.set('action', action);
    body.set('referred', encodeBase64Text(page.referrer));
    body.set('page_uri', encodeBase64Text(`${page.pathname}${page.search}`));
    if (allowed === 'anonymous') body.set('anonymous', '1');
    return body;
  }

  /** Sends a hit or ping if consent still allows it; false when it was not sent or not recorded. */
  async function post(name: 'hit' | 'online', page: PageView): Promise<boolean> {
    const allowed = access();
    if (allowed === 'none') {
      withdraw();
      return false;
    }
    try {
      const response = await env.fetch(endpoint(name), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          // docs/contract.md: base64 of the current Unix time in seconds; the server refuses old replays.
          'X-WPS-TS': encodeBase64Text(String(Math.floor(env.now() / 1000))),
        },
        body: payload(name === 'hit' ? 'stats_hit' : 'stats_online', page, allowed).toString(),
        credentials: 'same-origin',
      });
      if (response.status !== 200) return false;
      const result = (await response.json()) as { status?: unknown };
      return result.status !== false;
    } catch {
      return false;
    }
  }

  function stopPings() {
    if (pingTimer !== null) env.clearInterval(pingTimer);
    pingTimer = null;
  }

  function startPings() {
    stopPings();
    if (settings.jsCheckTime <= 0) return;
    pingTimer = env.setInterval(() => {
      if (env.now() - lastActivity >= IDLE_STOP_MS) {
        stopPings();
        return;
      }
      if (view) void post('online', view);
    }, settings.jsCheckTime);
  }

  /** The page now, reached from `referrer`; it becomes the latest page view. */
  function noteView(referrer: string): PageView {
    const { href, pathname, search } = env.location();
    view = { href, pathname, search: recordedSearch(search), referrer };
    return view;
  }

  function record(page: PageView) {
    queue.push(page);
    void sendQueued();
  }

  async function sendQueued() {
    if (sending) return;
    sending = true;
    stopPings();
    let page = queue.shift();
    while (page) {
      state = 'sending';
      const epoch = consentEpoch;
      const ok = await post('hit', page);
      recorded = { href: page.href, ok };
      if (epoch !== consentEpoch) break;
      if (!ok)
        env.console.warn(
          'Statistics: the hit was not recorded, so online presence is not sent for this page.',
        );
      state = ok ? 'tracking' : 'failed';
      page = queue.shift();
    }
    sending = false;
    if (state === 'tracking') startPings();
  }

  /** Consent is gone: nothing more leaves this page until it comes back. */
  function withdraw() {
    if (state === 'blocked' || state === 'waiting-for-consent' || state === 'idle') return;
    consentEpoch += 1;
    queue.length = 0;
    stopPings();
    state = 'waiting-for-consent';
    env.console.log('Statistics: consent to statistics was withdrawn, so nothing more is sent.');
  }

  function consentChanged() {
    if (state === 'blocked' || state === 'idle') return;
    if (access() === 'none') {
      withdraw();
      return;
    }
    if (state !== 'waiting-for-consent') return;
    const page = view ?? noteView(env.referrer);
    if (recorded?.href === page.href) {
      // This page was recorded before consent was withdrawn: carry on where it stopped.
      state = recorded.ok ? 'tracking' : 'failed';
      if (recorded.ok) startPings();
    } else record(page);
  }

  /** Whether this page may ever send anything; logs why not. */
  function blockedForGood(): boolean {
    if (settings.isPreview) return true;
    if (settings.honorDoNotTrack && env.doNotTrack) {
      env.console.log('Statistics: do-not-track is on in this browser, so this visit is not recorded.');
      return true;
    }
    if (!settings.hitParams) {
      env.console.log('Statistics: this page carries no hit parameters, so it is not recorded.');
      return true;
    }
    return false;
  }

  return {
    start() {
      if (state !== 'idle') return;
      if (blockedForGood()) {
        state = 'blocked';
        return;
      }
      unsubscribe = env.consent.subscribe(consentChanged);
      const page = noteView(env.referrer);
      if (access() === 'none') {
        state = 'waiting-for-consent';
        env.console.log('Statistics: no consent to statistics yet, so nothing is sent.');
        return;
      }
      record(page);
    },
    urlChanged() {
      if (state === 'idle' || state === 'blocked' || !view) return;
      const now = env.location();
      if (now.pathname === view.pathname && recordedSearch(now.search) === view.search) return;
      // The page the visitor came from is this history entry's referrer.
      const page = noteView(recordedUrl(view.href));
      if (access() === 'none') {
        withdraw();
        return;
      }
      record(page);
    },
    activity() {
      const wasIdle = env.now() - lastActivity >= IDLE_STOP_MS || pingTimer === null;
      lastActivity = env.now();
      if (state === 'tracking' && !sending && wasIdle) startPings();
    },
    linkClicked(link) {
      if (state !== 'tracking' && state !== 'failed' && state !== 'sending') return;
      const allowed = access();
      if (allowed === 'none') {
        withdraw();
        return;
      }
      const fields = eventFields(link, env.location(), settings, env.now());
      if (!fields) return;
      const body = new URLSearchParams(settings.hitParams ?? {});
      body.set('action', 'stats_event');
      if (allowed === 'anonymous') body.set('anonymous', '1');
      for (const [key, value] of Object.entries(fields)) body.set(key, value);
      void env
        .fetch(settings.ajaxUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: body.toString(),
          credentials: 'same-origin',
          keepalive: true,
        })
        .catch(() => undefined);
    },
    getState: () => state,
    stop() {
      // Blocked for good: navigation, activity, clicks and consent changes find nothing to do.
      state = 'blocked';
      consentEpoch += 1;
      stopPings();
      queue.length = 0;
      unsubscribe?.();
      unsubscribe = null;
    },
  };
}

/** The event a link click is, or null for an ordinary internal link (docs/contract.md "Events"). */
export function eventFields(
  link: ClickedLink,
  page: PageLocation,
  settings: PageSettings['stats'],
  now: number,
): EventFields | null {
  let target: URL;
  try {
    target = new URL(link.href, page.href);
  } catch {
    return null;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return null;
  const file = target.pathname.split('/').pop() ?? '';
  const dot = file.lastIndexOf('.');
  const extension = dot > 0 ? file.slice(dot + 1).toLowerCase() : '';
  const shopDownload = target.searchParams.has('download_file');
  const isDownload =
    shopDownload ||
    (extension !== '' && settings.downloadExtensions.map((each) => each.toLowerCase()).includes(extension));
  const outbound = target.host !== page.host;
  let name: EventName;
  if (isDownload) name = 'file_download';
  else if (outbound) name = 'outbound_link';
  else return null;
  const sourceId = settings.hitParams?.source_id ?? '0';
  return {
    en: name,
    et: String(now),
    eid: link.id,
    ec: link.className,
    ev: link.text.trim().replace(/\s+/g, ' ').slice(0, 100),
    mb: String(link.button),
    fn: dot > 0 ? file.slice(0, dot) : file,
    fx: extension,
    m: sourceId,
    tu: target.href,
    pid: sourceId,
    wcdl: shopDownload ? '1' : '0',
    df: target.hostname,
    dk: target.pathname,
  };
}
