// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseSettings, toPageSettings } from '../../shared/settings/parseSettings';
import { decodeBase64Text } from '../../shared/stats/base64Text';
import { createConsent } from '../consent/createConsent';
import type { StatsTracker } from './createStatsTracker';
import { startStats } from './startStats';

/*
 * The statistics tracker wired to a real page: hits go out through the page's fetch, history navigation (also
 * pushState and replaceState, which fire no event) sends a new hit, and link clicks (middle button included)
 * become events. What each request carries is the core's concern (createStatsTracker.test.ts).
 */

/** Moves the test page to `url` (happy-dom's own control; a page's script cannot do this without navigating). */
function setPageUrl(url: string) {
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(url);
}

const HIT_PARAMS = { source_type: 'product', source_id: '7', search_query: '', signature: 'sig' };

interface Sent {
  /** The request's path (hits and pings go through the page's REST client, which adds its query arguments). */
  path: string;
  init: RequestInit;
  body: URLSearchParams;
}

let sent: Sent[];
let tracker: StatsTracker | null = null;
/** Each test's consent: withdrawn after it, so the listeners its tracker left on the window send nothing more. */
let consentGiven = { value: true };
const originalPushState = history.pushState;
const originalReplaceState = history.replaceState;

beforeEach(() => {
  sent = [];
  vi.spyOn(console, 'log').mockImplementation(() => {});
  setPageUrl('https://shop.example.com/product/mug/');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string | URL | Request, init: RequestInit) => {
      const target = url instanceof Request ? url.url : String(url);
      sent.push({
        path: new URL(target, location.origin).pathname,
        init,
        body: new URLSearchParams(String(init.body)),
      });
      return new Response(JSON.stringify({ status: true }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
});

afterEach(() => {
  consentGiven.value = false;
  tracker?.stop();
  tracker = null;
  history.pushState = originalPushState;
  history.replaceState = originalReplaceState;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = '';
});

function start(stats: Record<string, unknown> = {}) {
  const page = toPageSettings(parseSettings({ stats: { hitParams: HIT_PARAMS, ...stats } }));
  const given = { value: true };
  consentGiven = given;
  const consent = createConsent({ mode: 'api', window: { wp_has_consent: () => given.value }, document });
  tracker = startStats(page, consent);
  return tracker;
}

/** Lets the tracker's awaited fetch answers settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const hits = () =>
  sent
    .filter((each) => each.path === '/wp-json/stats/v1/hit')
    .map((each) => decodeBase64Text(each.body.get('page_uri') ?? ''));

describe('startStats', () => {
  it("sends the page's hit through the page's fetch", async () => {
    start();
    await settle();
    expect(sent[0]?.path).toBe('/wp-json/stats/v1/hit');
    expect(hits()).toEqual(['/product/mug/']);
    expect(tracker?.getState()).toBe('tracking');
  });

  it('sends a new hit on pushState, replaceState and back/forward navigation', async () => {
    start();
    await settle();
    history.pushState({}, '', '/shop/');
    await settle();
    history.replaceState({}, '', '/shop/?page=2');
    await settle();
    setPageUrl('https://shop.example.com/cart/');
    window.dispatchEvent(new PopStateEvent('popstate'));
    await settle();
    expect(hits()).toEqual(['/product/mug/', '/shop/', '/shop/?page=2', '/cart/']);
    // The wrapped history methods still navigate.
    expect(location.pathname).toBe('/cart/');
  });

  it('sends an event for an outbound link clicked with the left or the middle button', async () => {
    start();
    await settle();
    document.body.innerHTML =
      '<a id="out" class="ext" href="https://example.org/page"><span>Our <b>supplier</b></span></a>' +
      '<a id="in" href="/shop/">Shop</a>';
    const click = (target: Element | null, type: string, button: number) => {
      target?.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, button }));
      // happy-dom follows the link; the visitor's next click is made on the shop's page again.
      setPageUrl('https://shop.example.com/product/mug/');
    };
    click(document.querySelector('b'), 'click', 0);
    click(document.querySelector('#in'), 'click', 0);
    click(document.querySelector('#out'), 'auxclick', 1);
    click(document.body, 'click', 0);
    await settle();
    const events = sent.filter((each) => each.body.get('action') === 'stats_event');
    expect(events.map((each) => [each.body.get('en'), each.body.get('mb'), each.init.keepalive])).toEqual([
      ['outbound_link', '0', true],
      ['outbound_link', '1', true],
    ]);
    expect(events[0]?.body.get('tu')).toBe('https://example.org/page');
    expect(events[0]?.body.get('eid')).toBe('out');
    expect(events[0]?.body.get('ec')).toBe('ext');
    expect(events[0]?.body.get('ev')).toBe('Our supplier');
  });

  it('sends nothing when do-not-track is on and honoured', async () => {
    vi.spyOn(navigator, 'doNotTrack', 'get').mockReturnValue('1');
    start({ honorDoNotTrack: true });
    await settle();
    expect(sent).toEqual([]);
    expect(tracker?.getState()).toBe('blocked');
  });

  it('sends online pings every jsCheckTime while the visitor is active, and after activity following a pause', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date', 'setTimeout'] });
    try {
      start({ jsCheckTime: 1000 });
      await vi.advanceTimersByTimeAsync(0);
      const pings = () => sent.filter((each) => each.path === '/wp-json/stats/v1/online').length;
      await vi.advanceTimersByTimeAsync(3000);
      expect(pings()).toBe(3);
      // 30 minutes without activity stop the pings; a click, a key press or a scroll brings them back.
      for (const type of ['click', 'keydown', 'scroll']) {
        await vi.advanceTimersByTimeAsync(31 * 60_000);
        const stopped = pings();
        await vi.advanceTimersByTimeAsync(5000);
        expect(pings()).toBe(stopped);
        window.dispatchEvent(new Event(type));
        await vi.advanceTimersByTimeAsync(2000);
        expect(pings(), type).toBe(stopped + 2);
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('startStats: what the page passes to the tracker', () => {
  it('records a visit when do-not-track is honoured but the browser does not send it', async () => {
    start({ honorDoNotTrack: true });
    await settle();
    expect(hits()).toEqual(['/product/mug/']);
  });

  it('honours the older window.doNotTrack signal too', async () => {
    Object.defineProperty(window, 'doNotTrack', { configurable: true, value: '1' });
    try {
      start({ honorDoNotTrack: true });
      await settle();
      expect(sent).toEqual([]);
      expect(tracker?.getState()).toBe('blocked');
    } finally {
      delete (window as { doNotTrack?: string }).doNotTrack;
    }
  });

  it('hears clicks and activity even when the page’s own handler stops them from bubbling', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date', 'setTimeout'] });
    try {
      start({ jsCheckTime: 1000 });
      await vi.advanceTimersByTimeAsync(0);
      document.body.innerHTML =
        '<div id="widget"><a id="out" href="https://example.org/partner">Partner</a></div>';
      const widget = document.getElementById('widget') as HTMLElement;
      for (const type of ['click', 'auxclick'])
        widget.addEventListener(type, (event) => event.stopPropagation());
      const pings = () => sent.filter((each) => each.path === '/wp-json/stats/v1/online').length;
      await vi.advanceTimersByTimeAsync(31 * 60_000);
      const stopped = pings();
      document.getElementById('out')?.dispatchEvent(new MouseEvent('click', { bubbles: true, button: 0 }));
      setPageUrl('https://shop.example.com/product/mug/');
      await vi.advanceTimersByTimeAsync(2000);
      // The middle button's auxclick too.
      document.getElementById('out')?.dispatchEvent(new MouseEvent('auxclick', { bubbles: true, button: 1 }));
      setPageUrl('https://shop.example.com/product/mug/');
      expect(sent.filter((each) => each.body.get('action') === 'stats_event')).toHaveLength(2);
      // The same click was activity: the pings are back.
      expect(pings()).toBe(stopped + 2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores clicks on the page itself and outside links, and passes history arguments through', async () => {
    start();
    await settle();
    document.body.innerHTML = '<p id="plain">Text</p>';
    document.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    document.getElementById('plain')?.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settle();
    expect(sent.filter((each) => each.body.get('action') === 'stats_event')).toEqual([]);
    history.pushState({ step: 2 }, '', '/shop/?page=2');
    expect(history.state).toEqual({ step: 2 });
    expect(location.pathname + location.search).toBe('/shop/?page=2');
  });
});
