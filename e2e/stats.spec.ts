import { execFileSync } from 'node:child_process';
import { expect, type Page, type Request, test } from '@playwright/test';
import { readShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

/*
 * The statistics tracker in Chromium against the real server (issue 7). The Playwright config gives the browser a
 * desktop user agent: headless Chromium's own is a bot's, and bots are excluded.
 */

const OWNER_TOKEN = 'e2e-owner-token-0123456789abcdef';
const shop = shopPerSpecFile({
  stats: { honorDoNotTrack: true },
  server: { ownerToken: OWNER_TOKEN },
});

/** Hits acknowledged as counted across this file, for the report check at the end. */
let countedHits = 0;

function decode(base64: string | null): string {
  return Buffer.from(base64 ?? '', 'base64').toString('utf8');
}

function watchHits(page: Page): Request[] {
  const hits: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/wp-json/stats/v1/hit')
      hits.push(request);
  });
  return hits;
}

/** The next hit's answer; a counted one adds to `countedHits`. Every hit this file causes is awaited through it. */
async function hitResponse(page: Page): Promise<unknown> {
  const response = await page.waitForResponse(
    (each) => new URL(each.url()).pathname === '/wp-json/stats/v1/hit',
  );
  const body = (await response.json()) as { status?: boolean; excluded?: string };
  if (response.status() === 200 && body.status === true && !body.excluded) countedHits += 1;
  return body;
}

test('a page view sends exactly one hit, and a pushState navigation another', async ({ page }) => {
  const hits = watchHits(page);
  const answered = hitResponse(page);
  const before = Math.floor(Date.now() / 1000);
  await page.goto(`${shop().url}/product/cafe-au-lait-mug/?color=blue`, {
    referer: 'https://www.bing.com/search?q=mug',
  });
  expect(await answered).toEqual({ status: true });
  await page.waitForTimeout(300);
  expect(hits).toHaveLength(1);
  const [hit] = hits;
  const form = new URLSearchParams(hit?.postData() ?? '');
  expect(decode(form.get('page_uri'))).toBe('/product/cafe-au-lait-mug/?color=blue');
  expect(decode(form.get('referred'))).toBe('https://www.bing.com/search?q=mug');
  const ts = Number(decode((await hit?.allHeaders())?.['x-wps-ts'] ?? ''));
  expect(ts).toBeGreaterThanOrEqual(before);
  expect(ts).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  expect(form.get('signature')).toMatch(/^[0-9a-f]{64}$/);

  const second = hitResponse(page);
  await page.evaluate(() => history.pushState({}, '', '/shop/?page=2'));
  await second;
  expect(hits).toHaveLength(2);
  const next = new URLSearchParams(hits[1]?.postData() ?? '');
  expect(decode(next.get('page_uri'))).toBe('/shop/?page=2');
  expect(decode(next.get('referred'))).toContain('/product/cafe-au-lait-mug/?color=blue');

  const stored = readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT page, source_type, source FROM stats_hits ORDER BY id').all(),
  );
  expect(stored).toEqual([
    { page: '/product/cafe-au-lait-mug/?color=blue', source_type: 'organic', source: 'bing' },
    { page: '/shop/?page=2', source_type: 'typein', source: '(direct)' },
  ]);
});

test("the owner's preview sends no hit", async ({ page }) => {
  const login = await page.request.post(`${shop().url}/wp-json/stats/v1/owner`, {
    headers: { authorization: `Bearer ${OWNER_TOKEN}` },
  });
  expect(login.status()).toBe(204);
  const hits = watchHits(page);
  await page.goto(`${shop().url}/shop/?preview=1`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await page.waitForTimeout(500);
  expect(hits).toEqual([]);
});

test('do-not-track on sends no hit', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });
  });
  const hits = watchHits(page);
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  await page.goto(`${shop().url}/shop/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await page.waitForTimeout(500);
  expect(hits).toEqual([]);
  expect(messages.join('\n')).toContain('do-not-track');
});

test('a download link and an outbound link each send an event that arrives as the page unloads', async ({
  page,
}) => {
  watchHits(page);
  // The outbound site is answered locally: nothing leaves this machine.
  await page.route('https://outbound.example/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: '<p>elsewhere</p>' }),
  );
  for (const [href, text] of [
    ['/files/care-guide.pdf', 'Care guide (PDF)'],
    ['https://outbound.example/partner', 'Our partner'],
  ]) {
    const answered = hitResponse(page);
    await page.goto(`${shop().url}/`);
    await answered;
    await page.evaluate(
      ([href, text]) => {
        const link = document.createElement('a');
        link.href = href ?? '';
        link.textContent = text ?? '';
        link.id = 'tracked-link';
        document.querySelector('main')?.prepend(link);
      },
      [href, text],
    );
    const local = href?.startsWith('/');
    // The download lands on the shop's not-found page, which counts its own hit: wait for it.
    const nextHit = local ? hitResponse(page) : null;
    await page.getByRole('link', { name: text }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/') || url.host !== new URL(shop().url).host);
    await nextHit;
  }
  await expect
    .poll(() =>
      readShopDatabase(shop().dataDir, (db) =>
        db.prepare('SELECT name, target_url, file_ext, element_id FROM stats_events ORDER BY id').all(),
      ),
    )
    .toEqual([
      {
        name: 'file_download',
        target_url: `${shop().url}/files/care-guide.pdf`,
        file_ext: 'pdf',
        element_id: 'tracked-link',
      },
      {
        name: 'outbound_link',
        target_url: 'https://outbound.example/partner',
        file_ext: '',
        element_id: 'tracked-link',
      },
    ]);
});

test('the report counts the hits and events of this file', async () => {
  const report = JSON.parse(
    execFileSync(process.execPath, ['dist/server/report.js', 'stats', '--json'], {
      env: { ...process.env, ...shop().env },
    }).toString(),
  ) as { views: number; visitors: number; events: { name: string; count: number }[]; exclusions: unknown[] };
  expect(countedHits).toBeGreaterThanOrEqual(4);
  expect(report.views).toBe(countedHits);
  expect(report.visitors).toBe(1);
  expect(report.events).toEqual([
    { name: 'file_download', count: 1 },
    { name: 'outbound_link', count: 1 },
  ]);
});
