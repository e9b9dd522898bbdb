import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSettings } from '../../shared/settings/parseSettings';
import { decodeBase64Text } from '../../shared/stats/base64Text';
import { createConsent } from '../consent/createConsent';
import { createStatsTracker, eventFields, type StatsEnv } from './createStatsTracker';

const HIT_PARAMS = { source_type: 'product', source_id: '0', search_query: '', signature: 'f'.repeat(64) };
const MINUTE = 60_000;

interface Sent {
  url: string;
  body: URLSearchParams;
  headers: Record<string, string>;
  keepalive: boolean;
}

function setup({
  stats = {},
  consentMode = 'none' as 'none' | 'api' | 'banner',
  doNotTrack = false,
  answer = () => ({ status: 200, body: { status: true } as unknown }),
  path = '/product/mug/?color=blue',
} = {}) {
  const settings = parseSettings({ stats: { jsCheckTime: MINUTE, hitParams: HIT_PARAMS, ...stats } });
  const sent: Sent[] = [];
  const log = { log: vi.fn(), warn: vi.fn() };
  let location = {
    href: `https://shop.test${path}`,
    host: 'shop.test',
    pathname: path.split('?')[0] ?? '',
    search: path.includes('?') ? `?${path.split('?')[1]}` : '',
  };
  const granted = new Set<string>();
  const target = new EventTarget();
  const consent = createConsent({
    mode: consentMode,
    window: { wp_has_consent: (category) => granted.has(category) },
    document: {
      cookie: '',
      addEventListener: target.addEventListener.bind(target),
      removeEventListener: target.removeEventListener.bind(target),
    } as unknown as Document,
  });
  const env: StatsEnv = {
    settings: settings.stats,
    consent,
    consentCategory: 'statistics',
    fetch: async (url, init) => {
      sent.push({
        url,
        body: new URLSearchParams(String(init.body)),
        headers: init.headers as Record<string, string>,
        keepalive: init.keepalive === true,
      });
      const { status, body } = answer();
      return { ok: status === 200, status, json: async () => body };
    },
    location: () => location,
    referrer: 'https://www.google.com/',
    doNotTrack,
    now: Date.now,
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
    console: log,
  };
  return {
    tracker: createStatsTracker(env),
    sent,
    log,
    navigate(next: string) {
      const [pathname = '', query] = next.split('?');
      location = {
        href: `https://shop.test${next}`,
        host: 'shop.test',
        pathname,
        search: query ? `?${query}` : '',
      };
    },
    grant(category: string) {
      granted.add(category);
      target.dispatchEvent(new Event('wp_listen_for_consent_change'));
    },
  };
}

const kinds = (sent: Sent[]) => sent.map((each) => each.url);
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T01:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the hit', () => {
  it('sends one hit with the signed parameters, base64 referrer and page, and the base64 timestamp', async () => {
    const { tracker, sent } = setup();
    tracker.start();
    await settle();
    expect(sent).toHaveLength(1);
    const [hit] = sent;
    expect(hit?.url).toBe('/wp-json/stats/v1/hit');
    expect(Object.fromEntries(hit?.body ?? [])).toMatchObject(HIT_PARAMS);
    expect(decodeBase64Text(hit?.body.get('referred') ?? '')).toBe('https://www.google.com/');
    expect(decodeBase64Text(hit?.body.get('page_uri') ?? '')).toBe('/product/mug/?color=blue');
    expect(hit?.headers['X-WPS-TS']).toBe(btoa(String(Math.floor(Date.now() / 1000))));
    expect(hit?.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('goes to /ajax with action=stats_hit when ad-blocker bypass is on', async () => {
    const { tracker, sent } = setup({ stats: { bypassAdBlockers: true } });
    tracker.start();
    await settle();
    expect(sent[0]?.url).toBe('/ajax');
    expect(sent[0]?.body.get('action')).toBe('stats_hit');
  });

  it('encodes non-ASCII pages as UTF-8', async () => {
    const { tracker, sent } = setup({ path: '/product/café/?q=ünï' });
    tracker.start();
    await settle();
    expect(decodeBase64Text(sent[0]?.body.get('page_uri') ?? '')).toBe('/product/café/?q=ünï');
  });

  it('sends another hit on history navigation to a new URL, with the previous page as referrer', async () => {
    const { tracker, sent, navigate } = setup();
    tracker.start();
    await settle();
    tracker.urlChanged();
    await settle();
    expect(sent).toHaveLength(1);
    navigate('/shop/');
    tracker.urlChanged();
    await settle();
    expect(sent).toHaveLength(2);
    expect(decodeBase64Text(sent[1]?.body.get('page_uri') ?? '')).toBe('/shop/');
    expect(decodeBase64Text(sent[1]?.body.get('referred') ?? '')).toBe(
      'https://shop.test/product/mug/?color=blue',
    );
  });

  it('sends nothing in preview mode', async () => {
    const { tracker, sent } = setup({ stats: { isPreview: true } });
    tracker.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toEqual([]);
  });

  it('honours do-not-track when the setting says so, with a console message', async () => {
    const blocked = setup({ stats: { honorDoNotTrack: true }, doNotTrack: true });
    blocked.tracker.start();
    await settle();
    expect(blocked.sent).toEqual([]);
    expect(blocked.log.log).toHaveBeenCalledWith(expect.stringContaining('do-not-track'));

    const ignored = setup({ stats: { honorDoNotTrack: false }, doNotTrack: true });
    ignored.tracker.start();
    await settle();
    expect(ignored.sent).toHaveLength(1);
  });

  it('without consent logs a message and waits; consent sends the hit', async () => {
    const { tracker, sent, log, grant } = setup({ consentMode: 'api' });
    tracker.start();
    await settle();
    expect(sent).toEqual([]);
    expect(log.log).toHaveBeenCalledWith(expect.stringContaining('consent'));
    grant('marketing');
    await settle();
    expect(sent).toEqual([]);
    grant('statistics');
    await settle();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body.has('anonymous')).toBe(false);
  });

  it('without consent but with anonymous tracking sends an anonymous hit', async () => {
    const { tracker, sent } = setup({ consentMode: 'api', stats: { anonymousTracking: true } });
    tracker.start();
    await settle();
    expect(sent[0]?.body.get('anonymous')).toBe('1');
  });
});

describe('online pings', () => {
  it('pings every jsCheckTime after a successful hit', async () => {
    const { tracker, sent } = setup();
    tracker.start();
    await settle();
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(kinds(sent)).toEqual([
      '/wp-json/stats/v1/hit',
      '/wp-json/stats/v1/online',
      '/wp-json/stats/v1/online',
      '/wp-json/stats/v1/online',
    ]);
    expect(decodeBase64Text(sent[1]?.body.get('page_uri') ?? '')).toBe('/product/mug/?color=blue');
  });

  it('stops after 30 minutes without activity and restarts on activity', async () => {
    const { tracker, sent } = setup();
    tracker.start();
    await settle();
    await vi.advanceTimersByTimeAsync(29 * MINUTE);
    const beforeIdle = sent.length;
    expect(beforeIdle).toBe(1 + 29);
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    // The 30th tick finds the visitor idle for 30 minutes: no more pings.
    expect(sent.length).toBe(beforeIdle);

    tracker.activity();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(sent.length).toBe(beforeIdle + 2);
  });

  it('activity keeps the pings going past 30 minutes', async () => {
    const { tracker, sent } = setup();
    tracker.start();
    await settle();
    for (let minute = 0; minute < 45; minute++) {
      if (minute % 10 === 0) tracker.activity();
      await vi.advanceTimersByTimeAsync(MINUTE);
    }
    expect(sent.length).toBe(1 + 45);
  });

  it('a failed hit (non-200) warns and sends no pings', async () => {
    const { tracker, sent, log } = setup({ answer: () => ({ status: 500, body: {} }) });
    tracker.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledOnce();
    tracker.activity();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toHaveLength(1);
  });

  it('a hit answered with status false counts as failed', async () => {
    const { tracker, sent, log } = setup({ answer: () => ({ status: 200, body: { status: false } }) });
    tracker.start();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledOnce();
  });
});

describe('link events', () => {
  it('sends a download event with keepalive to /ajax', async () => {
    const { tracker, sent } = setup();
    tracker.start();
    await settle();
    tracker.linkClicked({
      href: 'https://shop.test/files/Care-Guide.PDF',
      id: 'guide',
      className: 'button download',
      text: '  Care\n guide ',
      button: 0,
    });
    const event = sent[1];
    expect(event?.url).toBe('/ajax');
    expect(event?.keepalive).toBe(true);
    expect(Object.fromEntries(event?.body ?? [])).toMatchObject({
      action: 'stats_event',
      en: 'file_download',
      eid: 'guide',
      ec: 'button download',
      ev: 'Care guide',
      mb: '0',
      fn: 'Care-Guide',
      fx: 'pdf',
      tu: 'https://shop.test/files/Care-Guide.PDF',
      df: 'shop.test',
      dk: '/files/Care-Guide.PDF',
      wcdl: '0',
      signature: HIT_PARAMS.signature,
    });
  });

  it('tells outbound links, shop downloads and internal links apart', () => {
    const settings = parseSettings({ stats: { hitParams: HIT_PARAMS } }).stats;
    const page = { href: 'https://shop.test/', host: 'shop.test', pathname: '/', search: '' };
    const link = (href: string) => ({ href, id: '', className: '', text: '', button: 1 });
    expect(eventFields(link('https://example.org/about'), page, settings, 1)?.en).toBe('outbound_link');
    expect(eventFields(link('/?download_file=12&key=x'), page, settings, 1)).toMatchObject({
      en: 'file_download',
      wcdl: '1',
    });
    expect(eventFields(link('/shop/'), page, settings, 1)).toBeNull();
    expect(eventFields(link('mailto:a@b.c'), page, settings, 1)).toBeNull();
  });
});
