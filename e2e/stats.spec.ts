import { execFileSync } from 'node:child_process';
import { expect, type Page, type Request, test } from '@playwright/test';
import { readShopDatabase } from './support/shopDatabase';
import { type RunningShop, shopPerSpecFile, startShop } from './support/startShop';

/*
 * The statistics tracker in Chromium against the real server. The Playwright config gives the browser a desktop
 * user agent: headless Chromium's own is a bot's, and bots are excluded. The shops of the describe blocks at the
 * end are their own, so the report check counts only this file's first shop.
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

/** POSTs to the site ajax endpoint with this action (events, and hits and pings under ad-blocker bypass). */
function watchAjax(page: Page, action: string): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (
      request.method() === 'POST' &&
      new URL(request.url()).pathname === '/ajax' &&
      new URLSearchParams(request.postData() ?? '').get('action') === action
    )
      sent.push(request);
  });
  return sent;
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

test('do-not-track on sends no hit and no event', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });
  });
  const hits = watchHits(page);
  const events = watchAjax(page, 'stats_event');
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  await page.goto(`${shop().url}/shop/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await page.waitForTimeout(500);
  expect(hits).toEqual([]);
  expect(messages.join('\n')).toContain('do-not-track');
  // A download link, which would send an event: the page it opens does not count either.
  await page.evaluate(() => {
    const link = document.createElement('a');
    link.href = '/files/care-guide.pdf';
    link.textContent = 'Care guide (PDF)';
    document.querySelector('main')?.prepend(link);
  });
  await page.getByRole('link', { name: 'Care guide (PDF)' }).click();
  await page.waitForURL(/care-guide\.pdf/);
  await page.waitForTimeout(500);
  expect(events).toEqual([]);
  expect(hits).toEqual([]);
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

/** A POST to this stats REST endpoint (`hit` or `online`). */
function watchEndpoint(page: Page, name: 'hit' | 'online'): Request[] {
  const sent: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === `/wp-json/stats/v1/${name}`)
      sent.push(request);
  });
  return sent;
}

const pageOf = (request: Request | undefined) =>
  decode(new URLSearchParams(request?.postData() ?? '').get('page_uri'));

test.describe('on a shop of its own', () => {
  let own: RunningShop;
  test.beforeAll(async () => {
    own = await startShop({ stats: { jsCheckTime: 60_000 } });
  });
  test.afterAll(async () => {
    await own.stop();
  });

  test('a history navigation made while the first hit is unanswered is recorded after it', async ({
    page,
  }) => {
    let releaseFirst: () => void = () => {};
    const firstHeld = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let seen = 0;
    await page.route(/\/wp-json\/stats\/v1\/hit(\?|$)/, async (route) => {
      seen += 1;
      if (seen === 1) await firstHeld;
      await route.continue();
    });
    const hits = watchHits(page);
    await page.goto(`${own.url}/product/cafe-au-lait-mug/`);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await expect.poll(() => hits.length).toBe(1);
    await page.evaluate(() => history.pushState({}, '', '/shop/?page=2'));
    await page.waitForTimeout(300);
    const second = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/wp-json/stats/v1/hit' &&
        pageOf(response.request()) === '/shop/?page=2',
    );
    releaseFirst();
    expect((await second).status()).toBe(200);
    expect(hits.map(pageOf)).toEqual(['/product/cafe-au-lait-mug/', '/shop/?page=2']);
    expect(
      readShopDatabase(own.dataDir, (db) => db.prepare('SELECT page FROM stats_hits ORDER BY id').all()),
    ).toEqual([{ page: '/product/cafe-au-lait-mug/' }, { page: '/shop/?page=2' }]);
  });
});

test.describe('with the consent API', () => {
  let gated: RunningShop;
  test.beforeAll(async () => {
    gated = await startShop({ consent: { mode: 'api' }, stats: { jsCheckTime: 1000 } });
  });
  test.afterAll(async () => {
    await gated.stop();
  });

  test('withdrawn consent stops pings and history hits at once; consent given again records the page', async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const granted = new Set<string>();
      window.wp_has_consent = (category) => granted.has(category);
      (window as unknown as { setConsent: (category: string, allow: boolean) => void }).setConsent = (
        category,
        allow,
      ) => {
        if (allow) granted.add(category);
        else granted.delete(category);
        document.dispatchEvent(
          new CustomEvent('wp_listen_for_consent_change', {
            detail: { [category]: allow ? 'allow' : 'deny' },
          }),
        );
      };
    });
    const setConsent = (allow: boolean) =>
      page.evaluate(
        (allow) =>
          (window as unknown as { setConsent: (category: string, allow: boolean) => void }).setConsent(
            'statistics',
            allow,
          ),
        allow,
      );
    const hits = watchEndpoint(page, 'hit');
    const pings = watchEndpoint(page, 'online');
    await page.goto(`${gated.url}/shop/`);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await page.waitForTimeout(300);
    expect(hits).toEqual([]);

    await setConsent(true);
    await expect.poll(() => hits.length).toBe(1);
    await expect.poll(() => pings.length, { timeout: 3000 }).toBeGreaterThanOrEqual(1);

    await setConsent(false);
    const pingsAtWithdrawal = pings.length;
    await page.evaluate(() => history.pushState({}, '', '/shop/?page=2'));
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(2500);
    expect(hits).toHaveLength(1);
    expect(pings).toHaveLength(pingsAtWithdrawal);

    await setConsent(true);
    await expect.poll(() => hits.length).toBe(2);
    expect(pageOf(hits[1])).toBe('/shop/?page=2');
    await expect.poll(() => pings.length, { timeout: 3000 }).toBeGreaterThan(pingsAtWithdrawal);
  });
});

test.describe('with ad-blocker bypass', () => {
  let bypassing: RunningShop;
  test.beforeAll(async () => {
    bypassing = await startShop({ stats: { bypassAdBlockers: true, jsCheckTime: 1000 } });
  });
  test.afterAll(async () => {
    await bypassing.stop();
  });

  test('the hit and the online pings go to /ajax and are answered', async ({ page }) => {
    const rest = [...watchEndpoint(page, 'hit'), ...watchEndpoint(page, 'online')];
    const hit = page.waitForResponse(
      (response) => new URLSearchParams(response.request().postData() ?? '').get('action') === 'stats_hit',
    );
    const ping = page.waitForResponse(
      (response) => new URLSearchParams(response.request().postData() ?? '').get('action') === 'stats_online',
    );
    await page.goto(`${bypassing.url}/product/cafe-au-lait-mug/`);
    expect(await (await hit).json()).toEqual({ status: true });
    const answered = await ping;
    expect(answered.status()).toBe(200);
    expect(new URL(answered.url()).pathname).toBe('/ajax');
    expect(pageOf(answered.request())).toBe('/product/cafe-au-lait-mug/');
    expect(rest).toEqual([]);
  });
});
