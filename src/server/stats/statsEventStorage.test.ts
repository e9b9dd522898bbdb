import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventFields } from '../../client/stats/createStatsTracker';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import { createTestApp, TEST_SECRET, type TestApp } from '../testing/createTestApp';
import { signHitParams } from './hitSignature';

/*
 * An event as the page's tracker builds it (the browser's eventFields on the settings the page carries) reaches
 * the database: the page it came from (`m`, `pid`: the signed source id) and a download counted by the shop's own
 * `stats.downloadExtensions`.
 */

const DESKTOP =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const PAGE = {
  href: 'https://shop.test/product/cafe-au-lait-mug/',
  host: 'shop.test',
  pathname: '/product/cafe-au-lait-mug/',
  search: '',
};

let shop: TestApp;
let stats: PageSettings['stats'];
beforeAll(async () => {
  shop = await createTestApp({ settings: { stats: { downloadExtensions: ['stl'] } } });
  const page = await shop.app.inject({ url: '/product/cafe-au-lait-mug/', headers: { host: 'shop.test' } });
  const settings = JSON.parse(
    /<script id="shop-settings" type="application\/json">([\s\S]*?)<\/script>/.exec(page.body)?.[1] ?? '{}',
  ) as PageSettings;
  // The page's own hit parameters, signed for a page with a source id (a page of the shop's posts, say).
  stats = {
    ...settings.stats,
    hitParams: signHitParams(TEST_SECRET, { sourceType: 'product', sourceId: 42, searchQuery: '' }),
  };
  expect(settings.stats.downloadExtensions).toEqual(['stl']);
});
afterAll(async () => shop?.close());

function send(fields: Record<string, string>) {
  return shop.app.inject({
    method: 'POST',
    url: '/ajax',
    headers: {
      host: 'shop.test',
      'content-type': 'application/x-www-form-urlencoded',
      'user-agent': DESKTOP,
    },
    payload: new URLSearchParams({ ...stats.hitParams, action: 'stats_event', ...fields }).toString(),
  });
}

const clicked = (href: string) => {
  const fields = eventFields(
    { href, id: 'file', className: 'download', text: 'Vase', button: 0 },
    PAGE,
    stats,
    Date.now(),
  );
  if (!fields) throw new Error(`${href} is not an event`);
  return fields as unknown as Record<string, string>;
};

describe('events from the page to the database', () => {
  it('stores a download of the shop’s own extension with the page it was on', async () => {
    const fields = clicked('/files/vase.stl');
    expect(fields).toMatchObject({ en: 'file_download', m: '42', pid: '42' });
    expect((await send(fields)).json()).toEqual({ status: true });
    expect(
      eventFields({ href: '/files/guide.pdf', id: '', className: '', text: '', button: 0 }, PAGE, stats, 1),
    ).toBeNull();
    expect(
      await shop.query("SELECT name, file_name, file_ext, page_id FROM stats_events WHERE file_ext = 'stl'"),
    ).toEqual([{ name: 'file_download', file_name: 'vase', file_ext: 'stl', page_id: 42 }]);
  });

  it('refuses an event whose m or pid is not a page id, storing nothing', async () => {
    const before = await shop.query('SELECT id FROM stats_events');
    const badM = await send({ ...clicked('https://example.org/'), m: 'home' });
    expect(badM.statusCode).toBe(400);
    expect(badM.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect((await send({ ...clicked('https://example.org/'), pid: '-1' })).statusCode).toBe(400);
    expect(await shop.query('SELECT id FROM stats_events')).toEqual(before);
  });
});
