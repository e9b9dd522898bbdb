// Takes docs/insights.png: the built shop with 30 days of generated demo statistics and orders, the owner logged
// in, the insights page at a laptop's width. `node scripts/build.mjs && node scripts/insights-screenshot.mjs`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import Database from 'better-sqlite3';
import { findChromium } from './ensure-chromium.mjs';
import { startBuiltShop } from './lib/startBuiltShop.mjs';

const TOKEN = 'demo-owner-token-0123456789abcdef';
const shop = await startBuiltShop({ settings: { server: { ownerToken: TOKEN } } });
const { url, dataDir } = shop;

try {
  // Demo statistics: 30 days of visits from a handful of sources, and orders attributed to them.
  const db = new Database(join(dataDir, 'shop.sqlite'));
  db.pragma('busy_timeout = 5000');
  let seed = 7;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const pick = (list) => list[Math.floor(random() * list.length)];
  const pages = [
    '/',
    '/shop/',
    '/product/washed-linen-shirt/',
    '/product/cafe-au-lait-mug/',
    '/product/organic-cotton-t-shirt/',
    '/journal/',
  ];
  const sources = [
    ['typein', '(direct)', '', '(none)', ''],
    ['organic', 'google', 'www.google.com', 'organic', ''],
    ['referral', 'blog.example.org', 'blog.example.org', 'referral', ''],
    ['utm', 'newsletter', '', 'email', 'spring'],
  ];
  const devices = ['Desktop', 'Desktop', 'Mobile', 'Mobile', 'Tablet'];
  db.transaction(() => {
    for (let d = 29; d >= 0; d--) {
      const day = new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
      const visitors = 40 + Math.floor(30 * Math.sin(d / 4) + random() * 20);
      for (let v = 0; v < visitors; v++) {
        const [type, source, host, medium, campaign] = pick(sources);
        const device = pick(devices);
        const views = 1 + Math.floor(random() * 5);
        for (let h = 0; h < views; h++)
          db.prepare(
            `INSERT INTO stats_hits (created_at, day, visitor_hash, page, page_type, page_id, search_query, referrer,
               referrer_host, source_type, source, browser, os, device_type)
             VALUES (0, ?, ?, ?, 'page', 0, '', '', ?, ?, ?, 'Chrome', 'Linux', ?)`,
          ).run(day, `d${d}v${v}`, pick(pages), h === 0 ? host : '', type, source, device);
        db.prepare(
          `INSERT INTO stats_visitors (day, visitor_hash, first_seen, last_seen, hits, browser, os, device_type,
             source_type, source, entry_page) VALUES (?, ?, 0, 0, ?, 'Chrome', 'Linux', ?, ?, ?, '/')`,
        ).run(day, `d${d}v${v}`, views, device, type, source);
        if (random() < 0.04) {
          const total = 1500 + Math.floor(random() * 8000);
          const id = db
            .prepare(
              `INSERT INTO orders (order_key, status, currency, subtotal, total, payment_method, billing, created_at)
               VALUES (?, 'processing', 'USD', ?, ?, 'cod', '{}', ?)`,
            )
            .run(`demo_${d}_${v}`, total, total, `${day}T12:00:00.000Z`).lastInsertRowid;
          db.prepare(
            `INSERT INTO order_attribution (order_id, source_type, utm_source, utm_medium, utm_campaign, device_type)
             VALUES (?, ?, ?, ?, ?, ?)`,
          ).run(id, type, source, medium, campaign, device);
        }
      }
      const searches = [
        ['linen shirt', 4],
        ['mug', 2],
        ['hoodie', 3],
        ['anorak', 0],
        ['gift card', 0],
        ['t-shirt', 5],
      ];
      for (let q = 0; q < 12; q++) {
        const [query, results] = pick(searches);
        const at = Date.parse(`${day}T10:00:00Z`) + q * 60_000;
        db.prepare(
          `INSERT INTO search_queries (query, results, source, session_hash, created_at, updated_at)
           VALUES (?, ?, 'results', ?, ?, ?)`,
        ).run(query, results, `demo${d}${q}`, at, at);
      }
      for (let e = 0; e < 3; e++)
        db.prepare(
          `INSERT INTO stats_events (created_at, day, visitor_hash, name, target_url, link_domain, link_path, file_name,
             file_ext, element_id, element_classes, element_text, mouse_button, page_id, shop_download, event_time)
           VALUES (0, ?, NULL, ?, ?, '', '', ?, 'pdf', '', '', '', 0, 0, 0, 0)`,
        ).run(
          day,
          e ? 'outbound_link' : 'file_download',
          e === 1 ? 'https://instagram.com/fernandflax' : 'https://pinterest.com/fernandflax',
          'care-guide.pdf',
        );
    }
  })();
  db.close();

  const browser = await chromium.launch({
    executablePath: findChromium() ?? '/usr/bin/chromium',
    args: ['--no-sandbox'],
  });
  const phone = process.env.SHOT_PHONE === '1';
  const page = await browser.newPage({
    viewport: phone ? { width: 390, height: 844 } : { width: 1280, height: 900 },
  });
  await page.goto(`${url}/insights/`);
  await page.getByLabel('Password or token').fill(TOKEN);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForSelector('.insights-chart[data-drawn="true"]');
  await page.waitForTimeout(300);
  mkdirSync('docs', { recursive: true });
  if (phone) await page.locator('#sources').screenshot({ path: '/tmp/insights-phone.png' });
  else await page.screenshot({ path: 'docs/insights.png', fullPage: true });
  await browser.close();
  console.log('docs/insights.png written');
} finally {
  await shop.stop();
}
