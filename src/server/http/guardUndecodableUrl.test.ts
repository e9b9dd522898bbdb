import { describe, expect, it } from 'vitest';
import { guardUndecodableUrl, UNDECODABLE_URL_PATH } from './guardUndecodableUrl';

describe('guardUndecodableUrl', () => {
  it('leaves every decodable URL as it is, query included', () => {
    for (const url of [
      '/',
      '/product/caf%C3%A9-mug/?a=%zz',
      '/shop/?orderby=%',
      '/%25/',
      '/?wc-ajax=add_to_cart',
    ])
      expect(guardUndecodableUrl(url)).toBe(url);
  });

  it('sends a path whose percent-encoding does not decode to the one route that refuses it', () => {
    for (const url of ['/%', '/product/%E0%A4%A/', '/%C0%AE%C0%AE/?s=x', '/wc-ajax/add%zz'])
      expect(guardUndecodableUrl(url)).toBe(UNDECODABLE_URL_PATH);
  });
});
