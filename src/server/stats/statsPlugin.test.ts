import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test-support/createTestApp';
import { encodeBase64Text } from '../../shared/stats/base64Text';
import type { StatsReport } from '../../shared/stats/statsTypes';
import { statsReport } from '../reports/statsReport';
import { signHitParams } from './hitSignature';

/*
 * Statistics ingestion through HTTP: signed, validated hits stored with a salted visitor hash and never a
 * raw IP; bots, the owner and excluded URLs recorded as exclusions; bad input refused with 400 and nothing stored;
 * a visitor's first online ping stored at once, repeat pings kept in memory until flushed; the owner's report.
 */

const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const OWNER_TOKEN = 'owner-token-0123456789abcdef';
const IP = '203.0.113.77';

let shop: TestApp;
beforeEach(async () => {
  shop = await createTestApp({
    settings: {
      server: { ownerToken: OWNER_TOKEN, stats: { excludedUrls: ['/private/*'], rateLimitPerMinute: 30 } },
    },
  });
});
afterEach(async () => {
  await shop.close();
});

const seconds = (offset = 0) => encodeBase64Text(String(Math.floor(Date.now() / 1000) + offset));
const params = signHitParams(TEST_SECRET, { sourceType: 'product', sourceId: 0, searchQuery: '' });
const count = async (table: string) =>
  (await shop.query<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0]?.n;

function hit(
  fields: Record<string, string> = {},
  { url = '/wp-json/stats/v1/hit', ts = seconds(), userAgent = DESKTOP, cookie = '', ip = IP } = {},
) {
  return shop.app.inject({
    method: 'POST',
    url,
    remoteAddress: ip,
    headers: {
      host: 'shop.test',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': userAgent,
      'x-wps-ts': ts,
      ...(cookie ? { cookie } : {}),
    },
    payload: new URLSearchParams({
      ...params,
      referred: encodeBase64Text('https://www.google.com/'),
      page_uri: encodeBase64Text('/product/cafe-au-lait-mug/?color=blue'),
      ...fields,
    }).toString(),
  });
}

describe('the hit endpoint', () => {
  it('pages carry signed hit parameters', async () => {
    const page = await shop.app.inject({ url: '/product/cafe-au-lait-mug/', headers: { host: 'shop.test' } });
    const settings = JSON.parse(
      /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '{}',
    ) as { stats: { hitParams: Record<string, string>; isPreview: boolean } };
    expect(settings.stats.hitParams).toEqual(params);
    expect(settings.stats.isPreview).toBe(false);
  });

  it('stores a hit with its visitor, source, browser and device, and no raw IP', async () => {
    const response = await hit();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true });
    const [stored = {}] = await shop.query('SELECT * FROM stats_hits');
    expect(stored).toMatchObject({
      page: '/product/cafe-au-lait-mug/?color=blue',
      page_type: 'product',
      referrer: 'https://www.google.com/',
      referrer_host: 'google.com',
      source_type: 'organic',
      source: 'google',
      browser: 'Chrome',
      os: 'Linux',
      device_type: 'Desktop',
    });
    expect(stored.visitor_hash).toMatch(/^[0-9a-f]{32}$/);
    expect(await shop.query('SELECT hits, source_type, entry_page FROM stats_visitors')).toEqual([
      {
        hits: 1,
        source_type: 'organic',
        entry_page: '/product/cafe-au-lait-mug/?color=blue',
      },
    ]);
    // The same visitor again: one visitor, two hits. Another IP: another visitor.
    await hit();
    await hit({}, { ip: '198.51.100.9' });
    expect(await count('stats_hits')).toBe(3);
    expect(await count('stats_visitors')).toBe(2);
    const everything = JSON.stringify(
      await Promise.all(
        ['stats_hits', 'stats_visitors', 'stats_exclusion_days', 'stats_online', 'stats_rate_limits'].map(
          (table) => shop.query(`SELECT * FROM ${table}`),
        ),
      ),
    );
    expect(everything).not.toContain(IP);
    expect(everything).not.toContain('198.51.100.9');
  });

  it('stores no private parameter, no variation choice and no hash; the shop itself is never a referrer', async () => {
    await hit({
      page_uri: encodeBase64Text(
        '/checkout/order-received/12/?key=wc_order_abc&reset_token=t0k&to=ann%40example.org&attribute_pa_color=blue&page=2#top',
      ),
      referred: encodeBase64Text('https://shop.test/my-account/?password=hunter2&email=ann@example.org'),
    });
    const [stored = {}] = await shop.query('SELECT page, referrer, referrer_host FROM stats_hits');
    expect(stored).toEqual({
      page: '/checkout/order-received/12/?page=2',
      referrer: 'https://shop.test/my-account/',
      referrer_host: '',
    });
    expect(await shop.query('SELECT entry_page FROM stats_visitors')).toEqual([
      { entry_page: '/checkout/order-received/12/?page=2' },
    ]);
    const everything = JSON.stringify(await shop.query('SELECT * FROM stats_hits'));
    for (const secret of ['wc_order_abc', 't0k', 'ann', 'hunter2']) expect(everything).not.toContain(secret);
  });

  it('answers the /ajax action too', async () => {
    const response = await hit({ action: 'stats_hit' }, { url: '/ajax' });
    expect(response.statusCode).toBe(200);
    expect(await count('stats_hits')).toBe(1);
  });

  it.each([
    ['a missing field', { page_uri: '' }, {}],
    ['no signature', { signature: '' }, {}],
    ['a forged signature', { signature: 'a'.repeat(64) }, {}],
    ['a page type the signature does not cover', { source_type: 'home' }, {}],
    ['bad base64', { referred: '***not base64***' }, {}],
    ['base64 that is not UTF-8', { page_uri: btoa('/\xff\xfe') }, {}],
    ['a page that is not a path', { page_uri: encodeBase64Text('https://evil.example/') }, {}],
    ['a huge page', { page_uri: encodeBase64Text(`/${'a'.repeat(3000)}`) }, {}],
    ['a replayed old timestamp', {}, { ts: seconds(-3 * 3600) }],
    ['a timestamp from the future', {}, { ts: seconds(3 * 3600) }],
    ['no timestamp', {}, { ts: '' }],
    ['a timestamp that is not base64 seconds', {}, { ts: encodeBase64Text('yesterday') }],
  ])('refuses %s with a 400 and stores nothing', async (_name, fields, options) => {
    const response = await hit(fields, options);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(
      ((await count('stats_hits')) ?? 0) +
        ((await count('stats_exclusion_days')) ?? 0) +
        ((await count('stats_visitors')) ?? 0),
    ).toBe(0);
  });

  it('refuses a huge payload and stays up', async () => {
    const response = await hit({ junk: 'x'.repeat(200_000) });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(await count('stats_hits')).toBe(0);
    expect((await hit()).statusCode).toBe(200);
  });

  it('records bots, the owner and excluded URLs as exclusions, never as hits', async () => {
    const bot = await hit(
      {},
      { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    );
    expect(bot.json()).toEqual({ status: true, excluded: 'bot' });
    const headless = await hit({}, { userAgent: DESKTOP.replace('Chrome/', 'HeadlessChrome/') });
    expect(headless.json()).toEqual({ status: true, excluded: 'bot' });
    const excluded = await hit({ page_uri: encodeBase64Text('/private/area') });
    expect(excluded.json()).toEqual({ status: true, excluded: 'excluded_url' });
    // The owner's login page is seen before the owner is known: it is never visitor traffic either.
    const adminLogin = await hit({ page_uri: encodeBase64Text('/admin/login?next=%2Finsights%2F') });
    expect(adminLogin.json()).toEqual({ status: true, excluded: 'excluded_url' });

    const login = await shop.app.inject({
      method: 'POST',
      url: '/wp-json/stats/v1/owner',
      headers: { host: 'shop.test', authorization: `Bearer ${OWNER_TOKEN}` },
    });
    expect(login.statusCode).toBe(204);
    const ownerCookie = login.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
    expect((await hit({}, { cookie: ownerCookie })).json()).toEqual({ status: true, excluded: 'owner' });
    // The owner's ?preview=1 is a preview page: the tracker sends nothing there.
    const preview = await shop.app.inject({
      url: '/shop/?preview=1',
      headers: { host: 'shop.test', cookie: ownerCookie },
    });
    expect(preview.body).toContain('"isPreview":true');

    expect(await count('stats_hits')).toBe(0);
    expect(
      await shop.query('SELECT reason, agent, hits FROM stats_exclusion_days ORDER BY reason, agent'),
    ).toEqual([
      { reason: 'bot', agent: 'googlebot', hits: 1 },
      { reason: 'bot', agent: 'headlesschrome', hits: 1 },
      { reason: 'excluded_url', agent: '', hits: 2 },
      { reason: 'owner', agent: '', hits: 1 },
    ]);
  });

  it('limits one address to the configured hits per minute with a 429', async () => {
    for (let i = 0; i < 30; i++) expect((await hit()).statusCode).toBe(200);
    const limited = await hit();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited' });
    expect((await hit({}, { ip: '198.51.100.10' })).statusCode).toBe(200);
    expect(await count('stats_hits')).toBe(31);
  });
});

describe('online pings, events and the report', () => {
  const report = async (authorization = `Bearer ${OWNER_TOKEN}`) =>
    shop.app.inject({ url: '/wp-json/stats/v1/report', headers: { host: 'shop.test', authorization } });

  it('stores a visitor at their first ping, answers repeat pings from memory, and the report counts them', async () => {
    await hit();
    const ping = await hit({}, { url: '/wp-json/stats/v1/online' });
    expect(ping.json()).toEqual({ status: true });
    const stored = await shop.query<{ page: string; last_seen: number }>(
      'SELECT page, last_seen FROM stats_online',
    );
    expect(stored).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await hit({ page_uri: encodeBase64Text('/shop/') }, { url: '/wp-json/stats/v1/online' });
    // The repeat ping waits for the batched flush: no write yet.
    expect(await shop.query('SELECT page, last_seen FROM stats_online')).toEqual(stored);
    const result = (await report()).json() as StatsReport;
    expect(result.onlineNow).toBe(1);
  });

  it('refuses a range day that is not a date with a 400, also when the other end is left to its default', async () => {
    for (const query of ['?to=abc', '?from=abc', '?from=2026-01-01&to=2026-13-01']) {
      const response = await shop.app.inject({
        url: `/wp-json/stats/v1/report${query}`,
        headers: { host: 'shop.test', authorization: `Bearer ${OWNER_TOKEN}` },
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request' });
    }
  });

  it('stores download and outbound events', async () => {
    const event = (fields: Record<string, string>) =>
      shop.app.inject({
        method: 'POST',
        url: '/ajax',
        headers: {
          host: 'shop.test',
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': DESKTOP,
        },
        payload: new URLSearchParams({
          action: 'stats_event',
          ...params,
          et: String(Date.now()),
          ...fields,
        }).toString(),
      });
    const download = await event({
      en: 'file_download',
      tu: 'https://shop.test/files/care-guide.pdf',
      fn: 'care-guide',
      fx: 'pdf',
      df: 'shop.test',
      dk: '/files/care-guide.pdf',
      mb: '0',
    });
    expect(download.json()).toEqual({ status: true });
    const outbound = await event({ en: 'outbound_link', tu: 'https://example.org/?ref=shop&token=abc' });
    expect(outbound.statusCode).toBe(200);
    expect((await event({ en: 'mystery', tu: 'https://example.org/' })).statusCode).toBe(400);
    expect((await event({ en: 'outbound_link', tu: 'javascript:alert(1)' })).statusCode).toBe(400);
    const replayed = await event({
      en: 'outbound_link',
      tu: 'https://example.org/',
      et: String(Date.now() - 3 * 3_600_000),
    });
    expect(replayed.statusCode).toBe(400);
    expect(await shop.query('SELECT name, file_ext, target_url FROM stats_events ORDER BY id')).toEqual([
      { name: 'file_download', file_ext: 'pdf', target_url: 'https://shop.test/files/care-guide.pdf' },
      // The link's private parameter is not stored.
      { name: 'outbound_link', file_ext: '', target_url: 'https://example.org/?ref=shop' },
    ]);
    const result = (await report()).json() as StatsReport;
    expect(result.events).toEqual([
      { name: 'file_download', count: 1 },
      { name: 'outbound_link', count: 1 },
    ]);
  });

  it('reports visitors, views, pages and referrers to the owner only', async () => {
    expect((await report('Bearer wrong')).statusCode).toBe(401);
    expect((await report('')).statusCode).toBe(401);
    await hit();
    await hit({
      page_uri: encodeBase64Text('/shop/'),
      referred: encodeBase64Text('https://shop.test/product/x/'),
    });
    await hit({ referred: encodeBase64Text('https://blog.example.org/post') }, { ip: '198.51.100.20' });
    const result = (await report()).json() as StatsReport;
    expect(result).toMatchObject({
      visitors: 2,
      views: 3,
      topPages: [
        { page: '/product/cafe-au-lait-mug/?color=blue', views: 2 },
        { page: '/shop/', views: 1 },
      ],
      topReferrers: [
        { host: 'blog.example.org', views: 1 },
        { host: 'google.com', views: 1 },
      ],
      sources: [
        { sourceType: 'organic', visitors: 1 },
        { sourceType: 'referral', visitors: 1 },
      ],
    });

    // The CLI prints the same figures.
    let text = '';
    await statsReport([], {
      repositories: shop.repositories,
      write: (chunk) => {
        text += chunk;
      },
    });
    expect(text).toMatch(/visitors\s+views\s+online now\n\s+2\s+3\s+0/);
    expect(text).toMatch(/\/product\/cafe-au-lait-mug\/\?color=blue\s+2/);
    expect(text).toMatch(/blog\.example\.org\s+1/);
  });
});
