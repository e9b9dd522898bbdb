import { describe, expect, it, vi } from 'vitest';
import { trackSearch } from './trackSearch';

describe('trackSearch', () => {
  it('sends the site-search page view to gtag when present', () => {
    const gtag = vi.fn();
    trackSearch(
      { gtag, location: { origin: 'https://shop.test' } },
      { kind: 'pageview', query: 'linen shirt' },
    );
    expect(gtag).toHaveBeenCalledWith('event', 'page_view', {
      page_location: 'https://shop.test/?s=linen%20shirt&post_type=product&dgwt_wcas=1',
      page_path: '/?s=linen%20shirt&post_type=product&dgwt_wcas=1',
      search_term: 'linen shirt',
    });
  });

  it('pushes searches with and without results to dataLayer when there is no gtag', () => {
    const dataLayer: unknown[] = [];
    const target = { dataLayer, location: { origin: 'https://shop.test' } };
    trackSearch(target, { kind: 'results', query: 'mug', count: 2 });
    trackSearch(target, { kind: 'no-results', query: 'zzz' });
    expect(dataLayer).toEqual([
      expect.objectContaining({ event: 'search_with_results', search_term: 'mug' }),
      expect.objectContaining({ event: 'search_no_results', search_term: 'zzz' }),
    ]);
  });

  it('does nothing without either global', () => {
    expect(() => trackSearch({ location: { origin: 'x' } }, { kind: 'pageview', query: 'a' })).not.toThrow();
  });

  it('sends only to the modules named in analytics.modules', () => {
    const gtag = vi.fn();
    const dataLayer: unknown[] = [];
    const target = { gtag, dataLayer, location: { origin: 'https://shop.test' } };
    trackSearch(target, { kind: 'results', query: 'mug', count: 2 }, ['ga4']);
    expect(gtag).not.toHaveBeenCalled();
    expect(dataLayer).toEqual([expect.objectContaining({ event: 'search_with_results' })]);
    trackSearch(target, { kind: 'no-results', query: 'zzz' }, ['gtag']);
    expect(gtag).toHaveBeenCalledWith('event', 'search_no_results', expect.anything());
    expect(dataLayer).toHaveLength(1);
    trackSearch(target, { kind: 'pageview', query: 'tea' }, ['gtag', 'ga4']);
    expect(gtag).toHaveBeenCalledTimes(2);
    expect(dataLayer).toHaveLength(2);
  });

  it('with both globals and no modules named, counts the search once, in gtag', () => {
    const gtag = vi.fn();
    const dataLayer: unknown[] = [];
    trackSearch(
      { gtag, dataLayer, location: { origin: 'https://shop.test' } },
      { kind: 'no-results', query: 'zzz' },
    );
    expect(gtag).toHaveBeenCalledTimes(1);
    expect(dataLayer).toEqual([]);
  });

  it('sends the event fields in full: category, label and term for searches, the page for the page view', () => {
    const gtag = vi.fn();
    const dataLayer: unknown[] = [];
    const target = { gtag, dataLayer, location: { origin: 'https://shop.test' } };
    trackSearch(target, { kind: 'results', query: 'mug & tea', count: 3 }, ['gtag', 'ga4']);
    trackSearch(target, { kind: 'pageview', query: 'mug & tea' }, ['ga4']);
    const searchFields = {
      event_category: 'shop_search',
      event_label: 'mug & tea',
      search_term: 'mug & tea',
    };
    expect(gtag.mock.calls).toEqual([['event', 'search_with_results', searchFields]]);
    expect(dataLayer).toEqual([
      { event: 'search_with_results', ...searchFields },
      {
        event: 'page_view',
        page_location: 'https://shop.test/?s=mug%20%26%20tea&post_type=product&dgwt_wcas=1',
        page_path: '/?s=mug%20%26%20tea&post_type=product&dgwt_wcas=1',
        search_term: 'mug & tea',
      },
    ]);
  });

  it('sends nothing to a named module the page does not have, and does not fail', () => {
    const dataLayer: unknown[] = [];
    expect(() =>
      trackSearch({ dataLayer, location: { origin: 'x' } }, { kind: 'results', query: 'a', count: 1 }, [
        'gtag',
      ]),
    ).not.toThrow();
    expect(dataLayer).toEqual([]);
    const gtag = vi.fn();
    expect(() =>
      trackSearch({ gtag, location: { origin: 'x' } }, { kind: 'no-results', query: 'a' }, ['ga4']),
    ).not.toThrow();
    expect(gtag).not.toHaveBeenCalled();
  });
});
