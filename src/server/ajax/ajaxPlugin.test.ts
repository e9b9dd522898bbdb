import { describe, expect, it } from 'vitest';
import { rewriteWcAjaxUrl, WC_AJAX_PATH } from './ajaxPlugin';

describe('rewriteWcAjaxUrl', () => {
  it('turns /?wc-ajax=name into the ajax route and keeps the other parameters', () => {
    expect(rewriteWcAjaxUrl('/?wc-ajax=add_to_cart&x=1')).toBe('/wc-ajax/add_to_cart?x=1');
  });

  it('drops the query entirely when wc-ajax is the only parameter', () => {
    expect(rewriteWcAjaxUrl('/?wc-ajax=get_refreshed_fragments')).toBe(
      `${WC_AJAX_PATH}get_refreshed_fragments`,
    );
  });

  it('finds wc-ajax wherever it is in the query', () => {
    expect(rewriteWcAjaxUrl('/?time=123&wc-ajax=get_refreshed_fragments')).toBe(
      '/wc-ajax/get_refreshed_fragments?time=123',
    );
  });

  it('encodes a name that is not a plain path segment', () => {
    expect(rewriteWcAjaxUrl('/?wc-ajax=a%2Fb')).toBe('/wc-ajax/a%2Fb');
  });

  it('leaves other paths untouched', () => {
    expect(rewriteWcAjaxUrl('/shop/?wc-ajax=add_to_cart')).toBe('/shop/?wc-ajax=add_to_cart');
    expect(rewriteWcAjaxUrl('/cart?wc-ajax=add_to_cart')).toBe('/cart?wc-ajax=add_to_cart');
  });

  it('leaves URLs without wc-ajax untouched', () => {
    expect(rewriteWcAjaxUrl('/')).toBe('/');
    expect(rewriteWcAjaxUrl('/?s=mug&post_type=product')).toBe('/?s=mug&post_type=product');
    expect(rewriteWcAjaxUrl('/product/mug/')).toBe('/product/mug/');
  });
});
