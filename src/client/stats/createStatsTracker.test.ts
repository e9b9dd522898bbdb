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
  credentials: RequestCredentials | undefined;
  method: string | undefined;
}

function setup({
  stats = {},
  consentMode = 'none' as 'none' | 'api' | 'banner',
  doNotTrack = false,
  answer = (): Answer | Promise<Answer> => ({ status: 200, body: { status: true } }),
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
        credentials: init.credentials,
        method: init.method,
      });
      const { status, body } = await answer();
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
      const [pathname = '', query] = (next.split('#')[0] ?? '').split('?');
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
    revoke(category: string, { announce = true } = {}) {
      granted.delete(category);
      if (announce) target.dispatchEvent(new Event('wp_listen_for_consent_change'));
    },
  };
}

interface Answer {
  status: number;
  body: unknown;
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

  it('counts neither a new hash nor a variation choice as a page view; a new query is one', async () => {
    const { tracker, sent, navigate } = setup({ path: '/product/hoodie/' });
    tracker.start();
    await settle();
    // A hash link (pushState) and a swatch click (replaceState of ?attribute_pa_color=…) stay on the page.
    navigate('/product/hoodie/#reviews');
    tracker.urlChanged();
    navigate('/product/hoodie/?attribute_pa_color=blue#reviews');
    tracker.urlChanged();
    navigate('/product/hoodie/?attribute_pa_color=red&attribute_size=l');
    tracker.urlChanged();
    await settle();
    expect(sent).toHaveLength(1);
    navigate('/product/hoodie/?attribute_pa_color=red&page=2');
    tracker.urlChanged();
    await settle();
    expect(sent).toHaveLength(2);
    expect(decodeBase64Text(sent[1]?.body.get('page_uri') ?? '')).toBe('/product/hoodie/?page=2');
  });

  it('sends no private parameter of the address, in the page or the next referrer', async () => {
    const { tracker, sent, navigate } = setup({
      path: '/checkout/order-received/7/?key=wc_order_secret&email=a%40b.test&utm_source=news',
    });
    tracker.start();
    await settle();
    navigate('/shop/');
    tracker.urlChanged();
    await settle();
    expect(decodeBase64Text(sent[0]?.body.get('page_uri') ?? '')).toBe(
      '/checkout/order-received/7/?utm_source=news',
    );
    expect(decodeBase64Text(sent[1]?.body.get('referred') ?? '')).toBe(
      'https://shop.test/checkout/order-received/7/?utm_source=news',
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

describe('history navigation while a hit is unanswered', () => {
  it('queues the navigation and records it once the first hit is answered, in order', async () => {
    let release: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const { tracker, sent, navigate } = setup({
      answer: async () => {
        calls += 1;
        if (calls === 1) await first;
        return { status: 200, body: { status: true } };
      },
    });
    tracker.start();
    await settle();
    expect(tracker.getState()).toBe('sending');
    navigate('/shop/?page=2');
    tracker.urlChanged();
    navigate('/cart/');
    tracker.urlChanged();
    await settle();
    // One request at a time: the navigations wait for the first answer.
    expect(sent).toHaveLength(1);
    release();
    await settle();
    const pages = sent.map((each) => decodeBase64Text(each.body.get('page_uri') ?? ''));
    expect(pages).toEqual(['/product/mug/?color=blue', '/shop/?page=2', '/cart/']);
    expect(sent.map((each) => decodeBase64Text(each.body.get('referred') ?? ''))).toEqual([
      'https://www.google.com/',
      'https://shop.test/product/mug/?color=blue',
      'https://shop.test/shop/?page=2',
    ]);
    expect(tracker.getState()).toBe('tracking');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(kinds(sent).at(-1)).toBe('/wp-json/stats/v1/online');
    expect(decodeBase64Text(sent.at(-1)?.body.get('page_uri') ?? '')).toBe('/cart/');
  });
});

describe('consent followed as it changes', () => {
  const link = { href: 'https://example.org/partner', id: '', className: '', text: 'Partner', button: 0 };

  it('withdrawn consent stops pings, history hits and events at once; consent given again records the page', async () => {
    const { tracker, sent, log, navigate, grant, revoke } = setup({ consentMode: 'api' });
    tracker.start();
    grant('statistics');
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(kinds(sent)).toEqual([
      '/wp-json/stats/v1/hit',
      '/wp-json/stats/v1/online',
      '/wp-json/stats/v1/online',
    ]);

    revoke('statistics');
    expect(log.log).toHaveBeenCalledWith(expect.stringContaining('withdrawn'));
    navigate('/shop/');
    tracker.urlChanged();
    tracker.linkClicked(link);
    tracker.activity();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(sent).toHaveLength(3);

    // Consent again on a page not yet recorded: its hit goes out (referred by the page before), then pings.
    grant('statistics');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(kinds(sent).slice(3)).toEqual(['/wp-json/stats/v1/hit', '/wp-json/stats/v1/online']);
    expect(decodeBase64Text(sent[3]?.body.get('page_uri') ?? '')).toBe('/shop/');
    expect(decodeBase64Text(sent[3]?.body.get('referred') ?? '')).toBe(
      'https://shop.test/product/mug/?color=blue',
    );
  });

  it('consent given again on the page already recorded resumes the pings without a second hit', async () => {
    const { tracker, sent, grant, revoke } = setup({ consentMode: 'api' });
    grant('statistics');
    tracker.start();
    await settle();
    revoke('statistics');
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(sent).toHaveLength(1);
    grant('statistics');
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(kinds(sent)).toEqual([
      '/wp-json/stats/v1/hit',
      '/wp-json/stats/v1/online',
      '/wp-json/stats/v1/online',
    ]);
    // Tracking as before: a click on an outbound link is an event again.
    tracker.linkClicked({ href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 });
    expect(kinds(sent).at(-1)).toBe('/ajax');
  });

  it('asks for consent before every request, also when the change was not announced', async () => {
    const { tracker, sent, grant, revoke } = setup({ consentMode: 'api' });
    grant('statistics');
    tracker.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(sent).toHaveLength(2);
    revoke('statistics', { announce: false });
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toHaveLength(2);
    expect(tracker.getState()).toBe('waiting-for-consent');
  });

  it('consent withdrawn while the hit is unanswered: the answer starts no pings', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { tracker, sent, grant, revoke } = setup({
      consentMode: 'api',
      answer: async () => {
        await held;
        return { status: 200, body: { status: true } };
      },
    });
    grant('statistics');
    tracker.start();
    await settle();
    revoke('statistics');
    release();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toHaveLength(1);
    expect(tracker.getState()).toBe('waiting-for-consent');
  });

  it('with anonymous tracking, withdrawn consent makes the next requests anonymous', async () => {
    const { tracker, sent, grant, revoke } = setup({
      consentMode: 'api',
      stats: { anonymousTracking: true },
    });
    grant('statistics');
    tracker.start();
    await settle();
    expect(sent[0]?.body.has('anonymous')).toBe(false);
    revoke('statistics');
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(kinds(sent)).toEqual(['/wp-json/stats/v1/hit', '/wp-json/stats/v1/online']);
    expect(sent[1]?.body.get('anonymous')).toBe('1');
  });

  it('withholds link events under do-not-track and without consent', async () => {
    const dnt = setup({ stats: { honorDoNotTrack: true }, doNotTrack: true });
    dnt.tracker.start();
    dnt.tracker.linkClicked(link);
    dnt.tracker.linkClicked({ ...link, href: 'https://shop.test/files/guide.pdf' });
    await settle();
    expect(dnt.sent).toEqual([]);

    const noConsent = setup({ consentMode: 'api' });
    noConsent.tracker.start();
    noConsent.tracker.linkClicked(link);
    await settle();
    expect(noConsent.sent).toEqual([]);

    // The same click with consent sends its event: the two above were withheld, not malformed.
    noConsent.grant('statistics');
    await settle();
    noConsent.tracker.linkClicked(link);
    await settle();
    expect(noConsent.sent.map((each) => each.body.get('action'))).toEqual([null, 'stats_event']);
  });
});

describe('ad-blocker bypass', () => {
  it('sends the online pings to /ajax with action=stats_online', async () => {
    const { tracker, sent } = setup({ stats: { bypassAdBlockers: true } });
    const startedAt = Date.now();
    tracker.start();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(sent.map((each) => [each.url, each.body.get('action')])).toEqual([
      ['/ajax', 'stats_hit'],
      ['/ajax', 'stats_online'],
      ['/ajax', 'stats_online'],
    ]);
    expect(sent[1]?.body.get('signature')).toBe(HIT_PARAMS.signature);
    expect(decodeBase64Text(sent[1]?.body.get('page_uri') ?? '')).toBe('/product/mug/?color=blue');
    // The ping's own time, a minute after the hit.
    expect(sent[1]?.headers['X-WPS-TS']).toBe(btoa(String(Math.floor((startedAt + MINUTE) / 1000))));
  });
});

describe('where and how requests go', () => {
  it('joins the request URL and the endpoint names from settings, a trailing slash or not', async () => {
    for (const requestUrl of ['/stats-api', '/stats-api/']) {
      const { tracker, sent } = setup({ stats: { requestUrl, hitEndpoint: 'h', onlineEndpoint: 'o' } });
      tracker.start();
      await vi.advanceTimersByTimeAsync(MINUTE);
      expect(kinds(sent)).toEqual(['/stats-api/h', '/stats-api/o']);
      tracker.stop();
    }
  });

  it('sends hits, pings and events with the shop’s cookies only (same-origin), and only events with keepalive', async () => {
    const { tracker, sent } = setup();
    tracker.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    tracker.linkClicked({ href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 });
    expect(sent.map((each) => [each.credentials, each.keepalive])).toEqual([
      ['same-origin', false],
      ['same-origin', false],
      ['same-origin', true],
    ]);
  });
});

describe('what counts as a recorded hit', () => {
  it('takes only a 200 as recorded: another success status sends no pings', async () => {
    for (const status of [201, 204]) {
      const { tracker, sent, log } = setup({ answer: () => ({ status, body: { status: true } }) });
      tracker.start();
      await vi.advanceTimersByTimeAsync(3 * MINUTE);
      expect(sent).toHaveLength(1);
      expect(log.warn).toHaveBeenCalledOnce();
      expect(tracker.getState()).toBe('failed');
    }
  });

  it('takes a 200 without a status field as recorded', async () => {
    const { tracker, sent } = setup({ answer: () => ({ status: 200, body: {} }) });
    tracker.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(kinds(sent)).toEqual(['/wp-json/stats/v1/hit', '/wp-json/stats/v1/online']);
  });

  it('a hit lost to the network warns and sends no pings, and a later page is still recorded', async () => {
    let calls = 0;
    const { tracker, sent, log, navigate } = setup({
      answer: () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return { status: 200, body: { status: true } };
      },
    });
    tracker.start();
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(sent).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledOnce();
    expect(tracker.getState()).toBe('failed');
    navigate('/shop/');
    tracker.urlChanged();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(kinds(sent)).toEqual([
      '/wp-json/stats/v1/hit',
      '/wp-json/stats/v1/hit',
      '/wp-json/stats/v1/online',
    ]);
  });

  it('sends the hit but no pings when jsCheckTime is 0', async () => {
    const { tracker, sent } = setup({ stats: { jsCheckTime: 0 } });
    tracker.start();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    tracker.activity();
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(kinds(sent)).toEqual(['/wp-json/stats/v1/hit']);
    expect(tracker.getState()).toBe('tracking');
  });
});

describe('a page that records nothing', () => {
  it('without hit parameters: a console message, and no hit, navigation hit, ping or event', async () => {
    const { tracker, sent, log, navigate } = setup({ stats: { hitParams: null } });
    tracker.start();
    navigate('/shop/');
    tracker.urlChanged();
    tracker.linkClicked({ href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 });
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toEqual([]);
    expect(tracker.getState()).toBe('blocked');
    expect(log.log).toHaveBeenCalledWith(expect.stringContaining('hit parameters'));
  });

  it('under honoured do-not-track, consent given later sends nothing either', async () => {
    const { tracker, sent, grant, navigate } = setup({
      consentMode: 'api',
      stats: { honorDoNotTrack: true },
      doNotTrack: true,
    });
    tracker.start();
    grant('statistics');
    navigate('/shop/');
    tracker.urlChanged();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toEqual([]);
    expect(tracker.getState()).toBe('blocked');
  });

  it('before start: navigation, clicks and consent changes send nothing, and start sends one hit', async () => {
    const { tracker, sent, grant, navigate } = setup({ consentMode: 'api' });
    grant('statistics');
    navigate('/shop/');
    tracker.urlChanged();
    tracker.linkClicked({ href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 });
    await settle();
    expect(sent).toEqual([]);
    expect(tracker.getState()).toBe('idle');
    tracker.start();
    tracker.start();
    await settle();
    expect(sent).toHaveLength(1);
    expect(decodeBase64Text(sent[0]?.body.get('page_uri') ?? '')).toBe('/shop/');
  });
});

describe('link events by state', () => {
  const outbound = { href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 };

  it('sends events while the hit is unanswered and after it failed, not while waiting for consent', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { tracker, sent } = setup({
      answer: async () => {
        await held;
        return { status: 500, body: {} };
      },
    });
    tracker.start();
    await settle();
    expect(tracker.getState()).toBe('sending');
    tracker.linkClicked(outbound);
    release();
    await settle();
    expect(tracker.getState()).toBe('failed');
    tracker.linkClicked(outbound);
    expect(sent.map((each) => each.body.get('action') ?? 'hit')).toEqual([
      'hit',
      'stats_event',
      'stats_event',
    ]);

    const waiting = setup({ consentMode: 'api' });
    waiting.tracker.start();
    waiting.tracker.linkClicked(outbound);
    await settle();
    expect(waiting.sent).toEqual([]);
  });

  it('marks events anonymous when only anonymous tracking allows them', async () => {
    const { tracker, sent } = setup({ consentMode: 'api', stats: { anonymousTracking: true } });
    tracker.start();
    await settle();
    tracker.linkClicked(outbound);
    expect(sent[1]?.body.get('action')).toBe('stats_event');
    expect(sent[1]?.body.get('anonymous')).toBe('1');
  });

  it('sends nothing for an internal link, and an event lost to the network is no error', async () => {
    let calls = 0;
    const { tracker, sent } = setup({
      answer: () => {
        calls += 1;
        if (calls > 1) throw new TypeError('Failed to fetch');
        return { status: 200, body: { status: true } };
      },
    });
    tracker.start();
    await settle();
    tracker.linkClicked({ ...outbound, href: '/shop/' });
    expect(sent).toHaveLength(1);
    tracker.linkClicked(outbound);
    await settle();
    expect(sent).toHaveLength(2);
  });
});

describe('pings and activity', () => {
  it('activity while the pings run keeps their rhythm; activity while the hit is unanswered starts none early', async () => {
    const { tracker, sent } = setup();
    tracker.start();
    await settle();
    await vi.advanceTimersByTimeAsync(MINUTE / 2);
    tracker.activity();
    await vi.advanceTimersByTimeAsync(MINUTE / 2);
    // Still one minute after the hit, not a minute after the activity.
    expect(kinds(sent)).toEqual(['/wp-json/stats/v1/hit', '/wp-json/stats/v1/online']);

    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = setup({
      answer: async () => {
        await held;
        return { status: 200, body: { status: true } };
      },
    });
    slow.tracker.start();
    await settle();
    slow.tracker.activity();
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(kinds(slow.sent)).toEqual(['/wp-json/stats/v1/hit']);
    release();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(kinds(slow.sent)).toEqual(['/wp-json/stats/v1/hit', '/wp-json/stats/v1/online']);
  });

  it('activity before the hit failed or after it brings no pings to a failed page', async () => {
    const { tracker, sent } = setup({ answer: () => ({ status: 200, body: { status: false } }) });
    tracker.start();
    await settle();
    await vi.advanceTimersByTimeAsync(40 * MINUTE);
    tracker.activity();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toHaveLength(1);
  });

  it('a navigation stops the pings until its own hit is answered, then pings for the new page', async () => {
    let release: () => void = () => {};
    let calls = 0;
    const { tracker, sent, navigate } = setup({
      answer: async () => {
        calls += 1;
        if (calls === 3) await new Promise<void>((resolve) => (release = resolve));
        return { status: 200, body: { status: true } };
      },
    });
    tracker.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    navigate('/shop/');
    tracker.urlChanged();
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(kinds(sent)).toEqual([
      '/wp-json/stats/v1/hit',
      '/wp-json/stats/v1/online',
      '/wp-json/stats/v1/hit',
    ]);
    release();
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(kinds(sent).at(-1)).toBe('/wp-json/stats/v1/online');
    expect(decodeBase64Text(sent.at(-1)?.body.get('page_uri') ?? '')).toBe('/shop/');
  });
});

describe('consent and a failed hit', () => {
  it('consent given again on a page whose hit failed sends no pings and no second hit', async () => {
    const { tracker, sent, grant, revoke } = setup({
      consentMode: 'api',
      answer: () => ({ status: 500, body: {} }),
    });
    grant('statistics');
    tracker.start();
    await settle();
    revoke('statistics');
    grant('statistics');
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent).toHaveLength(1);
    expect(tracker.getState()).toBe('failed');
  });

  it('consent announced but unchanged while tracking changes nothing: no second hit, the pings keep their rhythm', async () => {
    const { tracker, sent, grant } = setup({ consentMode: 'api' });
    grant('statistics');
    tracker.start();
    await vi.advanceTimersByTimeAsync(MINUTE / 2);
    grant('marketing');
    await vi.advanceTimersByTimeAsync(MINUTE / 2);
    expect(kinds(sent)).toEqual(['/wp-json/stats/v1/hit', '/wp-json/stats/v1/online']);
  });

  it('consent announced while the first hit is unanswered sends that page once', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { tracker, sent, grant } = setup({
      consentMode: 'api',
      answer: async () => {
        await held;
        return { status: 200, body: { status: true } };
      },
    });
    grant('statistics');
    tracker.start();
    await settle();
    grant('marketing');
    release();
    await vi.advanceTimersByTimeAsync(MINUTE / 2);
    expect(kinds(sent)).toEqual(['/wp-json/stats/v1/hit']);
  });

  it('never says consent was withdrawn when it was never given', async () => {
    const { tracker, sent, log, grant, navigate } = setup({ consentMode: 'api' });
    tracker.start();
    grant('marketing');
    navigate('/shop/');
    tracker.urlChanged();
    await settle();
    expect(sent).toEqual([]);
    expect(log.log.mock.calls.map(([message]) => String(message))).toEqual([
      'Statistics: no consent to statistics yet, so nothing is sent.',
    ]);
  });

  it('sends no event for a click once consent is gone, even unannounced', async () => {
    const { tracker, sent, grant, revoke } = setup({ consentMode: 'api' });
    grant('statistics');
    tracker.start();
    await settle();
    revoke('statistics', { announce: false });
    tracker.linkClicked({ href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 });
    await settle();
    expect(kinds(sent)).toEqual(['/wp-json/stats/v1/hit']);
    expect(tracker.getState()).toBe('waiting-for-consent');
  });
});

describe('eventFields edge cases', () => {
  const settings = parseSettings({ stats: { hitParams: HIT_PARAMS } }).stats;
  const page = { href: 'https://shop.test/p/', host: 'shop.test', pathname: '/p/', search: '' };
  const link = (href: string, text = '') => ({ href, id: '', className: '', text, button: 0 });

  it('ignores addresses that are not web links or not addresses at all', () => {
    expect(eventFields(link('http://[bad'), page, settings, 1)).toBeNull();
    expect(eventFields(link('javascript:void(0)'), page, settings, 1)).toBeNull();
    expect(eventFields(link('ftp://files.example.org/a.zip'), page, settings, 1)).toBeNull();
  });

  it('reads a dot-file as a name without extension, and a plain http outbound link', () => {
    expect(eventFields(link('https://example.org/files/.pdf'), page, settings, 1)).toMatchObject({
      en: 'outbound_link',
      fn: '.pdf',
      fx: '',
    });
    expect(eventFields(link('/files/.pdf'), page, settings, 1)).toBeNull();
    expect(eventFields(link('http://example.org/'), page, settings, 1)?.en).toBe('outbound_link');
  });

  it('keeps the link text to 100 characters, spaces collapsed', () => {
    const text = `  ${'word '.repeat(30)}  `;
    const fields = eventFields(link('https://example.org/', text), page, settings, 1);
    expect(fields?.ev).toBe('word '.repeat(30).trim().slice(0, 100));
    expect(fields?.ev).toHaveLength(100);
  });

  it('sends 0 as the page id when the page carries no signed parameters', () => {
    const none = parseSettings({}).stats;
    expect(eventFields(link('https://example.org/'), page, none, 7)).toMatchObject({
      m: '0',
      pid: '0',
      et: '7',
    });
  });
});

describe('stop()', () => {
  it('sends nothing more: not the pings an unanswered hit would start, nor hits, events or pings after it', async () => {
    let release: () => void = () => {};
    let calls = 0;
    const { tracker, sent, navigate, grant, revoke } = setup({
      consentMode: 'api',
      answer: async () => {
        calls += 1;
        if (calls === 2) await new Promise<void>((resolve) => (release = resolve));
        return { status: 200, body: { status: true } };
      },
    });
    grant('statistics');
    tracker.start();
    await settle();
    navigate('/shop/');
    tracker.urlChanged();
    await settle();
    // A second navigation waits behind the unanswered hit for /shop/.
    navigate('/cart/');
    tracker.urlChanged();
    tracker.stop();
    release();
    await settle();
    revoke('statistics');
    grant('statistics');
    navigate('/checkout/');
    tracker.urlChanged();
    tracker.activity();
    tracker.linkClicked({ href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 });
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(sent.map((each) => decodeBase64Text(each.body.get('page_uri') ?? ''))).toEqual([
      '/product/mug/?color=blue',
      '/shop/',
    ]);
  });
});

describe('requests as the server reads them', () => {
  it('posts hits, pings and events form-encoded, events with the visitor identified when consent allows', async () => {
    const { tracker, sent, log } = setup();
    tracker.start();
    await vi.advanceTimersByTimeAsync(MINUTE);
    tracker.linkClicked({ href: 'https://example.org/', id: '', className: '', text: 'x', button: 0 });
    expect(sent.map((each) => [each.method, each.headers['content-type']])).toEqual([
      ['POST', 'application/x-www-form-urlencoded'],
      ['POST', 'application/x-www-form-urlencoded'],
      ['POST', 'application/x-www-form-urlencoded'],
    ]);
    expect(sent[2]?.body.has('anonymous')).toBe(false);
    // A recorded hit is no cause for a warning; a failed one says why the pings are missing.
    expect(log.warn).not.toHaveBeenCalled();
    const failed = setup({ answer: () => ({ status: 500, body: {} }) });
    failed.tracker.start();
    await settle();
    expect(failed.log.warn).toHaveBeenCalledWith(expect.stringContaining('not recorded'));
  });
});

describe('activity after 30 idle minutes', () => {
  it('restarts the pings from the activity, even before the next tick has noticed the idleness', async () => {
    const SEVEN = 7 * MINUTE;
    const { tracker, sent } = setup({ stats: { jsCheckTime: SEVEN } });
    const startedAt = Date.now();
    const pingTimes: number[] = [];
    tracker.start();
    await settle();
    // Ticks at 7, 14, 21 and 28 minutes ping; the one at 35 would find the visitor idle.
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    tracker.activity();
    for (let minute = 30; minute < 45; minute++) {
      const before = sent.length;
      await vi.advanceTimersByTimeAsync(MINUTE);
      if (sent.length > before) pingTimes.push(Math.round((Date.now() - startedAt) / MINUTE));
    }
    // A new rhythm counted from the activity at exactly 30 minutes: 37 and 44, not 35 and 42.
    expect(pingTimes).toEqual([37, 44]);
  });
});

describe('downloadExtensions holding an empty entry', () => {
  it('does not make every link without an extension a download', () => {
    const settings = parseSettings({
      stats: { hitParams: HIT_PARAMS, downloadExtensions: ['', 'pdf'] },
    }).stats;
    const page = { href: 'https://shop.test/', host: 'shop.test', pathname: '/', search: '' };
    const link = (href: string) => ({ href, id: '', className: '', text: '', button: 0 });
    expect(eventFields(link('/shop/'), page, settings, 1)).toBeNull();
    expect(eventFields(link('/files/readme'), page, settings, 1)).toBeNull();
    expect(eventFields(link('/files/guide.pdf'), page, settings, 1)?.en).toBe('file_download');
  });
});
