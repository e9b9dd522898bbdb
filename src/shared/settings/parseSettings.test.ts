import { describe, expect, it } from 'vitest';
import { isShopError, type ShopError } from '../errors/ShopError';
import { parseSettings, toPageSettings } from './parseSettings';

/** The ShopError parseSettings throws for `input`, or a failure when it does not throw one. */
function settingsError(input: unknown): ShopError {
  try {
    parseSettings(input);
  } catch (error) {
    if (isShopError(error)) return error;
    throw error;
  }
  throw new Error('parseSettings accepted the input');
}

describe('parseSettings', () => {
  it('fills every section with its defaults when given nothing', () => {
    const settings = parseSettings({});
    expect(Object.keys(settings).sort()).toEqual(
      [
        'attribution',
        'cart',
        'checkout',
        'consent',
        'i18n',
        'rest',
        'reviews',
        'search',
        'server',
        'shop',
        'stats',
        'swatches',
        'theme',
      ].sort(),
    );
    expect(settings.search.minChars).toBe(3);
    expect(settings.search.debounceWait).toBe(400);
    expect(settings.swatches.lazyVariationsThreshold).toBe(30);
    expect(settings.attribution.fieldPrefix).toBe('wc_order_attribution_');
    expect(settings.attribution.lifetimeMonths).toBe(6);
    expect(settings.cart.layout).toBe('drawer');
    expect(settings.cart.qtyNonce).toBeNull();
    expect(settings.theme.breakpoint).toBe(992);
    expect(settings.theme.storeNotice).toEqual({ enabled: false, id: null, text: '' });
    expect(settings.stats.requestUrl).toBe('/wp-json/stats/v1');
    expect(settings.consent.mode).toBe('none');
    expect(settings.rest.root).toBe('/wp-json/');
    expect(settings.i18n.addToCart).toBe('Add to cart');
    expect(settings.shop.currency.code).toBe('USD');
    expect(settings.server.sessionTtlHours).toBe(48);
  });

  it('treats undefined and null like an empty object', () => {
    expect(parseSettings()).toEqual(parseSettings({}));
    expect(parseSettings(null)).toEqual(parseSettings({}));
  });

  it('deep-merges a partial section over the defaults', () => {
    const settings = parseSettings({ search: { show: { sku: true } } });
    expect(settings.search.show).toEqual({ ...parseSettings({}).search.show, sku: true });
    expect(settings.search.show.images).toBe(true);
    expect(settings.search.minChars).toBe(3);
    expect(settings.cart.layout).toBe('drawer');
  });

  it('keeps a value that is given', () => {
    const settings = parseSettings({ search: { minChars: 2 }, cart: { layout: 'dropdown' } });
    expect(settings.search.minChars).toBe(2);
    expect(settings.cart.layout).toBe('dropdown');
  });

  it.each(['1', 'true', 'yes', 'on', 'YES', ' On ', 1, true])('reads %j as true', (value) => {
    expect(parseSettings({ search: { rtl: value } }).search.rtl).toBe(true);
  });

  it.each(['0', 'no', 'off', 'false', 'OFF', 0, false])('reads %j as false', (value) => {
    // A default of true shows that the value, not the default, was read.
    expect(parseSettings({ search: { mobileOverlay: value } }).search.mobileOverlay).toBe(false);
  });

  it('refuses a flag spelling it does not know, naming the path', () => {
    const error = settingsError({ search: { rtl: 'maybe' } });
    expect(error.code).toBe('invalid_settings');
    expect(error.message).toContain('search.rtl');
  });

  it('refuses an unknown key with a ShopError naming its full path', () => {
    const error = settingsError({ search: { minChar: 2 } });
    expect(error.code).toBe('invalid_settings');
    expect(error.message).toContain('search.minChar');
  });

  it('refuses an unknown top-level section', () => {
    expect(settingsError({ serach: {} }).message).toContain('serach');
  });

  it('refuses an unknown key deep inside a section', () => {
    expect(settingsError({ search: { show: { skus: true } } }).message).toContain('search.show.skus');
  });

  it('names the path of a value of the wrong type', () => {
    const error = settingsError({ search: { debounceWait: 'slow' } });
    expect(error.code).toBe('invalid_settings');
    expect(error.message).toContain('search.debounceWait');
  });

  it('names the path of an enum value it does not know', () => {
    expect(settingsError({ cart: { layout: 'sidebar' } }).message).toContain('cart.layout');
  });
});

describe('toPageSettings', () => {
  it('drops the server and checkout sections and keeps every other one', () => {
    const config = parseSettings({
      server: { secret: 's'.repeat(40) },
      checkout: { payment: { bacs: { accounts: [{ accountNumber: '12345678' }] } } },
    });
    const page = toPageSettings(config);
    expect(page).not.toHaveProperty('server');
    expect(page).not.toHaveProperty('checkout');
    expect(JSON.stringify(page)).not.toContain('s'.repeat(40));
    expect(JSON.stringify(page)).not.toContain('12345678');
    const { server: _server, checkout: _checkout, ...rest } = config;
    expect(page).toEqual(rest);
  });
});
