import { execFileSync } from 'node:child_process';
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { fillBilling } from './support/checkout';
import { readShopDatabase } from './support/shopDatabase';
import { type RunningShop, shopPerSpecFile, startShop } from './support/startShop';

/*
 * Order attribution in Chromium (issue 6): each kind of visit sets the right sbjs_current, the checkout's hidden
 * inputs carry it, the order stores it and the report counts it; tracking off deletes the cookies; with the
 * consent API nothing is written before consent, and the first page is still attributed after it.
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
