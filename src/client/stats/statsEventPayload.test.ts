import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSettings } from '../../shared/settings/parseSettings';
import { createConsent } from '../consent/createConsent';
import { createStatsTracker, eventFields, type StatsEnv } from './createStatsTracker';

/*
 * The event fields `m` and `pid` (the page the link was on, WP Statistics' names) in what the tracker sends, and
 * `stats.downloadExtensions` deciding which links count as downloads when the shop sets its own list.
 */

const HIT_PARAMS = { source_type: 'product', source_id: '42', search_query: '', signature: 'a'.repeat(64) };

function trackerSending(stats: object = {}) {
  const settings = parseSettings({ stats: { hitParams: HIT_PARAMS, ...stats } }).stats;
  const sent: URLSearchParams[] = [];
  const consentEvents = new EventTarget();
  const env: StatsEnv = {
    settings,
    consent: createConsent({
      mode: 'none',
      window: { wp_has_consent: () => false },
      document: {
        cookie: '',
        addEventListener: consentEvents.addEventListener.bind(consentEvents),
        removeEventListener: consentEvents.removeEventListener.bind(consentEvents),
      } as unknown as Document,
    }),
    consentCategory: 'statistics',
    fetch: async (_url, init) => {
      sent.push(new URLSearchParams(String(init.body)));
      return { ok: true, status: 200, json: async () => ({ status: true }) };
    },
    location: () => ({
      href: 'https://shop.test/product/mug/',
      host: 'shop.test',
      pathname: '/product/mug/',
      search: '',
    }),
    referrer: '',
    doNotTrack: false,
    now: Date.now,
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
    console: { log: vi.fn(), warn: vi.fn() },
  };
  const tracker = createStatsTracker(env);
  const events = () => sent.filter((body) => body.get('action') === 'stats_event');
  return { tracker, events };
}

const link = (href: string) => ({ href, id: '', className: '', text: 'link', button: 0 });
const page = {
  href: 'https://shop.test/product/mug/',
  host: 'shop.test',
  pathname: '/product/mug/',
  search: '',
};

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2026-11-22T01:00:00Z') });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the event payload', () => {
  it('carries the page’s source id as m and pid', async () => {
    const { tracker, events } = trackerSending();
    tracker.start();
    await vi.advanceTimersByTimeAsync(0);
    tracker.linkClicked(link('https://example.org/elsewhere'));
    const [event] = events();
    expect(event?.get('en')).toBe('outbound_link');
    expect(event?.get('m')).toBe('42');
    expect(event?.get('pid')).toBe('42');
  });

  it('sends m and pid as 0 on a page without a source id', () => {
    const settings = parseSettings({ stats: { hitParams: { ...HIT_PARAMS, source_id: '0' } } }).stats;
    expect(eventFields(link('https://example.org/'), page, settings, 1)).toMatchObject({ m: '0', pid: '0' });
  });
});

describe('stats.downloadExtensions', () => {
  const custom = parseSettings({
    stats: { hitParams: HIT_PARAMS, downloadExtensions: ['stl', 'GCODE'] },
  }).stats;

  it('counts a link with an extension of the shop’s list as a download, case-insensitively', () => {
    expect(eventFields(link('/files/vase.stl'), page, custom, 1)).toMatchObject({
      en: 'file_download',
      fn: 'vase',
      fx: 'stl',
    });
    expect(eventFields(link('/files/vase.gcode'), page, custom, 1)?.en).toBe('file_download');
  });

  it('no longer counts an extension of the default list', () => {
    // pdf is in the default list: an internal pdf link is a download there, an ordinary link here.
    const defaults = parseSettings({ stats: { hitParams: HIT_PARAMS } }).stats;
    expect(eventFields(link('/files/guide.pdf'), page, defaults, 1)?.en).toBe('file_download');
    expect(eventFields(link('/files/guide.pdf'), page, custom, 1)).toBeNull();
    expect(eventFields(link('/files/vase.stl'), page, defaults, 1)).toBeNull();
    // An outbound pdf is still an outbound link, not a download.
    expect(eventFields(link('https://example.org/guide.pdf'), page, custom, 1)?.en).toBe('outbound_link');
  });

  it('makes the tracker send the download event for the custom extension only', async () => {
    const { tracker, events } = trackerSending({ downloadExtensions: ['stl'] });
    tracker.start();
    await vi.advanceTimersByTimeAsync(0);
    tracker.linkClicked(link('/files/guide.pdf'));
    tracker.linkClicked(link('/files/vase.stl'));
    expect(events().map((event) => [event.get('en'), event.get('fx')])).toEqual([['file_download', 'stl']]);
  });
});
