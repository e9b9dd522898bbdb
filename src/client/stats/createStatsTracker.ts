import type { PageSettings } from '../../shared/settings/settingsSchema';
import { encodeBase64Text } from '../../shared/stats/base64Text';
import { type EventFields, type EventName, IDLE_STOP_MS } from '../../shared/stats/statsPayload';
import type { Consent } from '../consent/createConsent';

/*
 * The visitor-statistics tracker (SPEC.md §4 "Statistics", §6, §7 calls 4–6, §8), a core with no globals: the
 * page's window, timers and fetch come in through `env`, so tests drive it with fakes and fake timers.
 * - One hit per page view, again when the URL changes by history navigation; none in preview mode.
 * - After a successful hit, an online ping every `jsCheckTime` ms, stopped after 30 minutes without click,
 *   keypress or scroll and restarted by the next one; a failed hit (non-200 or `status: false`) sends no pings.
 * - Downloads and outbound links send an event with `keepalive`, so it arrives even as the page unloads.
 * - Do-not-track (when honoured) or missing consent: a console message, and nothing is sent.
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
  /** History navigation happened: a new hit if the URL changed. */
  urlChanged(): void;
  /** A click, keypress or scroll: keeps (or brings back) the online pings. */
  activity(): void;
  linkClicked(link: ClickedLink): void;
  getState(): StatsState;
  stop(): void;
}

export function createStatsTracker(env: StatsEnv): StatsTracker {
  const { settings } = env;
  let state: StatsState = 'idle';
  let anonymous = false;
  let trackedUrl: string | null = null;
  let referrer = env.referrer;
  let lastActivity = env.now();
  let pingTimer: unknown = null;
  let unsubscribe: (() => void) | null = null;

  const endpoint = (name: 'hit' | 'online') =>
    settings.bypassAdBlockers
      ? settings.ajaxUrl
      : `${settings.requestUrl.replace(/\/$/, '')}/${name === 'hit' ? settings.hitEndpoint : settings.onlineEndpoint}`;

  function payload(action: string): URLSearchParams {
    const location = env.location();
    const body = new URLSearchParams(settings.hitParams ?? {});
    if (settings.bypassAdBlockers) body.set('action', action);
    body.set('referred', encodeBase64Text(referrer));
    body.set('page_uri', encodeBase64Text(`${location.pathname}${location.search}`));
    if (anonymous) body.set('anonymous', '1');
    return body;
  }

  async function post(name: 'hit' | 'online'): Promise<boolean> {
    try {
      const response = await env.fetch(endpoint(name), {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          // CONTRACT.md: base64 of the current Unix time in seconds; the server refuses old replays.
          'X-WPS-TS': encodeBase64Text(String(Math.floor(env.now() / 1000))),
        },
        body: payload(name === 'hit' ? 'stats_hit' : 'stats_online').toString(),
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
      void post('online');
    }, settings.jsCheckTime);
  }

  async function sendHit() {
    trackedUrl = env.location().href;
    state = 'sending';
    stopPings();
    const ok = await post('hit');
    if (!ok) {
      state = 'failed';
      env.console.warn('Statistics: the hit was not recorded, so online presence is not sent for this page.');
      return;
    }
    state = 'tracking';
    startPings();
  }

  /** Whether this page may send anything now; logs why not. */
  function permitted(): boolean {
    if (settings.isPreview) {
      state = 'blocked';
      return false;
    }
    if (settings.honorDoNotTrack && env.doNotTrack) {
      state = 'blocked';
      env.console.log('Statistics: do-not-track is on in this browser, so this visit is not recorded.');
      return false;
    }
    if (!settings.hitParams) {
      state = 'blocked';
      env.console.log('Statistics: this page carries no hit parameters, so it is not recorded.');
      return false;
    }
    if (env.consent.has(env.consentCategory)) {
      anonymous = false;
      return true;
    }
    if (settings.anonymousTracking) {
      anonymous = true;
      return true;
    }
    state = 'waiting-for-consent';
    env.console.log('Statistics: no consent to statistics yet, so nothing is sent.');
    return false;
  }

  return {
    start() {
      if (permitted()) {
        void sendHit();
        return;
      }
      if (state !== 'waiting-for-consent') return;
      unsubscribe = env.consent.subscribe(() => {
        if (state === 'waiting-for-consent' && env.consent.has(env.consentCategory)) {
          unsubscribe?.();
          unsubscribe = null;
          anonymous = false;
          void sendHit();
        }
      });
    },
    urlChanged() {
      if (state !== 'tracking' && state !== 'failed') return;
      const href = env.location().href;
      if (href === trackedUrl) return;
      // The page the visitor came from is this history entry's referrer.
      referrer = trackedUrl ?? referrer;
      void sendHit();
    },
    activity() {
      const wasIdle = env.now() - lastActivity >= IDLE_STOP_MS || pingTimer === null;
      lastActivity = env.now();
      if (state === 'tracking' && wasIdle) startPings();
    },
    linkClicked(link) {
      if (state !== 'tracking' && state !== 'failed' && state !== 'sending') return;
      const fields = eventFields(link, env.location(), settings, env.now());
      if (!fields) return;
      const body = new URLSearchParams(settings.hitParams ?? {});
      body.set('action', 'stats_event');
      if (anonymous) body.set('anonymous', '1');
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
      stopPings();
      unsubscribe?.();
    },
  };
}

/** The event a link click is, or null for an ordinary internal link (CONTRACT.md "Events"). */
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
