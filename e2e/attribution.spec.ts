import { execFileSync } from 'node:child_process';
import { type BrowserContext, chromium, expect, type Page, test } from '@playwright/test';
import { findChromium } from '../scripts/ensure-chromium.mjs';
import { fillBilling } from './support/checkout';
import { readShopDatabase } from './support/shopDatabase';
import { type RunningShop, shopPerSpecFile, startShop } from './support/startShop';

/*
 * Order attribution in Chromium: each kind of visit sets the right sbjs_current, the checkout's hidden inputs carry
 * it, the order stores it and the report counts it; tracking off deletes the cookies; with the consent API nothing
 * is written before consent, and the first page is still attributed after it; a visitor arriving with WooCommerce's
 * domain cookies gets their new campaigns.
 */

const shop = shopPerSpecFile();
const PREFIX = 'wc_order_attribution_';

async function cookie(context: BrowserContext, name: string): Promise<string | undefined> {
  const found = (await context.cookies()).find((each) => each.name === name);
  return found ? decodeURIComponent(found.value) : undefined;
}

async function loaded(page: Page) {
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

test('a utm visit, an organic, a referral and a direct one each set their source', async ({ browser }) => {
  const cases: { path: string; referer?: string; expected: RegExp }[] = [
    {
      path: '/?utm_source=newsletter&utm_medium=email&utm_campaign=spring',
      expected: /^typ=utm\|\|\|src=newsletter\|\|\|mdm=email\|\|\|cmp=spring\|\|\|/,
    },
    {
      path: '/shop/',
      referer: 'https://www.google.com/search?q=linen+shirt',
      expected: /^typ=organic\|\|\|src=google\|\|\|mdm=organic\|\|\|/,
    },
    {
      path: '/shop/',
      referer: 'https://blog.example.org/posts/linen',
      expected: /^typ=referral\|\|\|src=blog\.example\.org\|\|\|mdm=referral\|\|\|/,
    },
    { path: '/', expected: /^typ=typein\|\|\|src=\(direct\)\|\|\|mdm=\(none\)\|\|\|/ },
  ];
  for (const each of cases) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${shop().url}${each.path}`, each.referer ? { referer: each.referer } : {});
    await loaded(page);
    expect(await cookie(context, 'sbjs_current'), each.path).toMatch(each.expected);
    expect(await cookie(context, 'sbjs_first')).toBe(await cookie(context, 'sbjs_current'));
    expect(await cookie(context, 'sbjs_session')).toMatch(/^pgs=1\|\|\|cpg=/);
    await context.close();
  }
});

test('the checkout carries the source in its hidden inputs, the order stores it and the report counts it', async ({
  page,
}) => {
  await page.goto(
    `${shop().url}/product/cafe-au-lait-mug/?utm_source=partner&utm_medium=banner&utm_campaign=mugs`,
  );
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
  await expect(page).toHaveURL(/\/cart\//);
  await page.goto(`${shop().url}/checkout/`);
  await loaded(page);
  const hidden = (name: string) => page.locator(`input[type="hidden"][name="${PREFIX}${name}"]`);
  await expect(hidden('source_type')).toHaveValue('utm');
  await expect(hidden('utm_source')).toHaveValue('partner');
  await expect(hidden('utm_campaign')).toHaveValue('mugs');
  await expect(hidden('session_pages')).toHaveValue('3');
  await expect(hidden('device_type')).toHaveValue('Desktop');
  await fillBilling(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\//);
  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);

  const stored = readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT * FROM order_attribution WHERE order_id = ?').get(orderId),
  );
  expect(stored).toMatchObject({
    source_type: 'utm',
    utm_source: 'partner',
    utm_medium: 'banner',
    utm_campaign: 'mugs',
    session_pages: 3,
    session_count: 1,
    device_type: 'Desktop',
  });

  const report = JSON.parse(
    execFileSync(process.execPath, ['dist/server/report.js', 'attribution', '--json'], {
      env: { ...process.env, ...shop().env },
    }).toString(),
  ) as { rows: { sourceType: string; source: string; medium: string; campaign: string; orders: number }[] };
  expect(report.rows.find((row) => row.source === 'partner')).toMatchObject({
    sourceType: 'utm',
    medium: 'banner',
    campaign: 'mugs',
    orders: 1,
  });
});

test('oversized and malformed attribution cookies do not stop the order', async ({ page, context }) => {
  const { hostname } = new URL(shop().url);
  await context.addCookies([
    {
      name: 'sbjs_current',
      value: `typ%3Dutm%7C%7C%7Csrc%3D${'x'.repeat(3500)}`,
      domain: hostname,
      path: '/',
    },
    { name: 'sbjs_udata', value: '%E0%A4%A', domain: hostname, path: '/' },
    { name: 'sbjs_first', value: 'typ%3Dtypein', domain: hostname, path: '/' },
    { name: 'sbjs_migrations', value: '1418474375998%3D1', domain: hostname, path: '/' },
  ]);
  await page.goto(`${shop().url}/product/cafe-au-lait-mug/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
  await expect(page).toHaveURL(/\/cart\//);
  await page.goto(`${shop().url}/checkout/`);
  await loaded(page);
  await fillBilling(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\//);
  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
  const stored = readShopDatabase(shop().dataDir, (db) =>
    db
      .prepare(
        'SELECT source_type, length(utm_source) AS sourceLength FROM order_attribution WHERE order_id = ?',
      )
      .get(orderId),
  );
  expect(stored).toEqual({ source_type: 'utm', sourceLength: 200 });
});

test.describe('with tracking off', () => {
  let off: RunningShop;
  test.beforeAll(async () => {
    off = await startShop({ attribution: { allowTracking: false } });
  });
  test.afterAll(async () => {
    await off.stop();
  });

  test('every attribution cookie is deleted, and the runtime switch brings tracking back', async ({
    page,
    context,
  }) => {
    const { hostname } = new URL(off.url);
    await context.addCookies(
      ['sbjs_current', 'sbjs_first', 'sbjs_session', 'sbjs_udata', 'sbjs_promo'].map((name) => ({
        name,
        value: 'typ%3Dtypein',
        domain: hostname,
        path: '/',
      })),
    );
    await page.goto(`${off.url}/?utm_source=newsletter`);
    await loaded(page);
    expect((await context.cookies()).filter((each) => each.name.startsWith('sbjs_'))).toEqual([]);

    await page.evaluate(() => window.shopAttribution?.setOrderTracking(true));
    expect(await cookie(context, 'sbjs_current')).toMatch(/^typ=utm\|\|\|src=newsletter/);
    await page.evaluate(() => window.shopAttribution?.setOrderTracking(false));
    expect((await context.cookies()).filter((each) => each.name.startsWith('sbjs_'))).toEqual([]);
  });
});

test.describe('with the consent API', () => {
  let gated: RunningShop;
  test.beforeAll(async () => {
    gated = await startShop({ consent: { mode: 'api' } });
  });
  test.afterAll(async () => {
    await gated.stop();
  });

  test('nothing is written before consent, and the first page is attributed after it', async ({
    page,
    context,
  }) => {
    await page.addInitScript(() => {
      const granted = new Set<string>();
      window.wp_has_consent = (category) => granted.has(category);
      (window as unknown as { grant: (category: string) => void }).grant = (category) => {
        granted.add(category);
        document.dispatchEvent(
          new CustomEvent('wp_listen_for_consent_change', { detail: { [category]: 'allow' } }),
        );
      };
    });
    const landing = `${gated.url}/shop/?utm_source=podcast&utm_medium=audio`;
    await page.goto(landing, { referer: 'https://podcasts.example.net/episode/7' });
    await loaded(page);
    expect((await context.cookies()).filter((each) => each.name.startsWith('sbjs_'))).toEqual([]);

    await page.evaluate(() =>
      (window as unknown as { grant: (category: string) => void }).grant('marketing'),
    );
    expect(await cookie(context, 'sbjs_current')).toMatch(/^typ=utm\|\|\|src=podcast\|\|\|mdm=audio/);
    const extra = await cookie(context, 'sbjs_current_extra');
    expect(extra).toContain(`ep=${landing}`);
    expect(extra).toContain('rf=https://podcasts.example.net/');
  });
});

test.describe('with our cookie banner', () => {
  let bannered: RunningShop;
  test.beforeAll(async () => {
    bannered = await startShop({ consent: { mode: 'banner' } });
  });
  test.afterAll(async () => {
    await bannered.stop();
  });

  test('nothing is tracked until Accept, which attributes the landing page; the choice is remembered', async ({
    page,
    context,
  }) => {
    const hits: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/wp-json/stats/v1/hit')) hits.push(request.url());
    });
    await page.goto(`${bannered.url}/?utm_source=flyer`, { referer: 'https://print.example.com/' });
    await loaded(page);
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await expect(banner).toBeVisible();
    expect((await context.cookies()).filter((each) => each.name.startsWith('sbjs_'))).toEqual([]);
    expect(hits).toEqual([]);

    const hit = page.waitForResponse((response) => response.url().includes('/wp-json/stats/v1/hit'));
    await banner.getByRole('button', { name: 'Accept' }).click();
    await expect(banner).toBeHidden();
    expect(await cookie(context, 'sbjs_current')).toMatch(/^typ=utm\|\|\|src=flyer/);
    // Statistics share the same consent: the hit goes out once the visitor accepts.
    expect((await hit).status()).toBe(200);

    await page.goto(`${bannered.url}/shop/`);
    await loaded(page);
    await expect(page.getByRole('region', { name: 'Cookie consent' })).toHaveCount(0);
    expect(await cookie(context, 'sbjs_session')).toMatch(/^pgs=2\|\|\|/);
  });
});

test("a returning WooCommerce visitor's new campaign replaces the one in WooCommerce's domain cookies", async () => {
  // A host name that can carry domain cookies (an IP address cannot), resolved to the test server by Chromium
  // itself: nothing leaves this machine.
  const browser = await chromium.launch({
    executablePath: findChromium() ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP shop.test 127.0.0.1'],
  });
  try {
    const context = await browser.newContext();
    const base = `http://shop.test:${new URL(shop().url).port}`;
    const woo = (fields: string) => encodeURIComponent(fields);
    const expires = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
    // What WooCommerce's sourcebuster left behind: every cookie on `.shop.test`, with the `_add` names.
    await context.addCookies(
      [
        [
          'sbjs_current',
          'typ=utm|||src=spring|||mdm=email|||cmp=spring_sale|||cnt=(none)|||trm=(none)|||id=(none)',
        ],
        [
          'sbjs_first',
          'typ=utm|||src=spring|||mdm=email|||cmp=spring_sale|||cnt=(none)|||trm=(none)|||id=(none)',
        ],
        ['sbjs_first_add', 'fd=2026-03-01 10:00:00|||ep=https://shop.test/|||rf=(none)'],
        ['sbjs_udata', 'vst=3|||uip=(none)|||uag=Mozilla/5.0'],
        ['sbjs_migrations', '1418474375998=1'],
      ].map(([name = '', value = '']) => ({
        name,
        value: woo(value),
        domain: '.shop.test',
        path: '/',
        expires,
      })),
    );
    const page = await context.newPage();
    await page.goto(`${base}/?utm_source=autumn&utm_medium=social&utm_campaign=autumn_sale`);
    await loaded(page);
    await page.goto(`${base}/shop/`);
    await loaded(page);
    expect(await page.evaluate(() => window.shopAttribution?.getFields())).toMatchObject({
      source_type: 'utm',
      utm_source: 'autumn',
      utm_campaign: 'autumn_sale',
      session_pages: '2',
      session_count: '4',
    });
    // One copy of each cookie, on WooCommerce's domain; the first visit is still the first.
    const cookies = (await context.cookies()).filter((each) => each.name.startsWith('sbjs_'));
    expect(cookies.filter((each) => each.name === 'sbjs_current')).toHaveLength(1);
    expect(new Set(cookies.map((each) => each.domain))).toEqual(new Set(['.shop.test']));
    expect(decodeURIComponent(cookies.find((each) => each.name === 'sbjs_first')?.value ?? '')).toContain(
      'src=spring',
    );
    await context.close();
  } finally {
    await browser.close();
  }
});

test.describe('with a field prefix and lifetime of its own', () => {
  let custom: RunningShop;
  test.beforeAll(async () => {
    custom = await startShop({ attribution: { fieldPrefix: 'shop_source_', lifetimeMonths: 2 } });
  });
  test.afterAll(async () => {
    await custom.stop();
  });

  test('cookies last 30 days per month and the session 30 minutes; every checkout field reaches the order', async ({
    page,
    context,
  }) => {
    const landing =
      `${custom.url}/product/cafe-au-lait-mug/?utm_source=partner&utm_medium=video&utm_campaign=mugs` +
      '&utm_content=&utm_term=linen&utm_id=42&utm_source_platform=meta&utm_creative_format=reel' +
      '&utm_marketing_tactic=prospecting';
    const referrer = 'https://videos.example.net/watch/7';
    const landedAt = Date.now() / 1000;
    await page.goto(landing, { referer: referrer });
    await loaded(page);
    const lifetime = async (name: string) => {
      const found = (await context.cookies()).find((each) => each.name === name);
      return (found?.expires ?? 0) - landedAt;
    };
    const DAY = 24 * 3600;
    for (const name of ['sbjs_current', 'sbjs_first', 'sbjs_current_extra', 'sbjs_udata', 'sbjs_promo']) {
      expect(await lifetime(name), name).toBeGreaterThan(60 * DAY - 120);
      expect(await lifetime(name), name).toBeLessThan(60 * DAY + 120);
    }
    expect(await lifetime('sbjs_session')).toBeGreaterThan(30 * 60 - 120);
    expect(await lifetime('sbjs_session')).toBeLessThan(30 * 60 + 120);

    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
    await expect(page).toHaveURL(/\/cart\//);
    await page.goto(`${custom.url}/checkout/`);
    await loaded(page);
    expect(await page.locator('input[name^="wc_order_attribution_"]').count()).toBe(0);
    const inputs = page.locator('input[type="hidden"][name^="shop_source_"]');
    const values = Object.fromEntries(
      await inputs.evaluateAll((all) =>
        (all as HTMLInputElement[]).map((input) => [input.name.slice('shop_source_'.length), input.value]),
      ),
    );
    const userAgent = await page.evaluate(() => navigator.userAgent);
    expect(values).toEqual({
      source_type: 'utm',
      referrer,
      utm_campaign: 'mugs',
      utm_source: 'partner',
      utm_medium: 'video',
      utm_content: '',
      utm_id: '42',
      utm_term: 'linen',
      utm_source_platform: 'meta',
      utm_creative_format: 'reel',
      utm_marketing_tactic: 'prospecting',
      session_entry: landing,
      session_start_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      session_pages: '3',
      session_count: '1',
      user_agent: userAgent,
      device_type: 'Desktop',
      current_page: `${custom.url}/checkout/`,
      promo_code: expect.stringMatching(/^\d{6}$/),
    });

    await fillBilling(page);
    await page.getByRole('button', { name: 'Place order' }).click();
    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\//);
    const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
    const stored = readShopDatabase(custom.dataDir, (db) =>
      db.prepare('SELECT * FROM order_attribution WHERE order_id = ?').get(orderId),
    );
    expect(stored).toEqual({
      order_id: orderId,
      source_type: 'utm',
      referrer,
      utm_campaign: 'mugs',
      utm_source: 'partner',
      utm_medium: 'video',
      utm_content: null,
      utm_id: '42',
      utm_term: 'linen',
      utm_source_platform: 'meta',
      utm_creative_format: 'reel',
      utm_marketing_tactic: 'prospecting',
      session_entry: landing,
      session_start_time: values.session_start_time,
      session_pages: 3,
      session_count: 1,
      user_agent: userAgent,
      device_type: 'Desktop',
      current_page: `${custom.url}/checkout/`,
      promo_code: values.promo_code,
    });
  });
});
