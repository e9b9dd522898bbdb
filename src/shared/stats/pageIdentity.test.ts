import { describe, expect, it } from 'vitest';
import { isPrivateParam, recordedPage, recordedSearch, recordedUrl } from './pageIdentity';

/* What the statistics keep of an address: nothing private, no shop-written variation choice, no hash. */

describe('isPrivateParam', () => {
  it('knows private names in any case, and names that say token, nonce, secret or password in any spelling', () => {
    for (const name of [
      'key',
      'ORDER_KEY',
      'Token',
      'access_token',
      'auth',
      '_wpnonce',
      'pwd',
      'Email',
      'code',
    ])
      expect(isPrivateParam(name, 'x'), name).toBe(true);
    for (const name of ['reset_token', 'apiToken', 'client_secret', 'new_password', 'passwd', 'my_nonce'])
      expect(isPrivateParam(name, 'x'), name).toBe(true);
    for (const name of ['s', 'page', 'utm_source', 'orderby', 'keyword', 'authority', 'codes'])
      expect(isPrivateParam(name, 'x'), name).toBe(false);
  });

  it('reads names and values percent-encoded or with + for spaces, and keeps undecodable text as written', () => {
    expect(isPrivateParam('%6Bey', 'x')).toBe(true);
    expect(isPrivateParam('order%5Fkey', 'x')).toBe(true);
    expect(isPrivateParam('ref', 'a%40b.test')).toBe(true);
    expect(isPrivateParam('ref', '+a@b.test+')).toBe(true);
    expect(isPrivateParam('%E0%A4%A', 'x')).toBe(false);
    expect(isPrivateParam('token%E0%A4%A', 'x')).toBe(true);
    expect(isPrivateParam('ref', '%E0%A4%A@b.test')).toBe(true);
  });

  it('takes a value for an email only when it holds one', () => {
    for (const value of ['a@b.test', 'first.last@shop.example.com', 'x a@b.test', 'Sent by a@b.test today'])
      expect(isPrivateParam('ref', value), value).toBe(true);
    for (const value of ['a@b', '@b.test', 'a@.test', 'a @b.test', 'newsletter', 'mug@home'])
      expect(isPrivateParam('ref', value), value).toBe(false);
  });

  it('finds an address whose plus the query reads as a space, and an address standing as a bare name', () => {
    // john+shop@… is read as "john shop@…": still an address.
    expect(isPrivateParam('ref', 'john+shop@gmail.com')).toBe(true);
    expect(isPrivateParam('ref', 'john%2Bshop%40gmail.com')).toBe(true);
    expect(recordedSearch('?ref=john+shop@gmail.com&s=mug')).toBe('?s=mug');
    expect(recordedSearch('?a@b.test&s=mug')).toBe('?s=mug');
    expect(recordedSearch('?someone%40example.com')).toBe('');
    expect(recordedPage('/shop/?ref=john+shop@gmail.com')).toBe('/shop/');
    expect(recordedUrl('https://news.test/?via=john+shop@gmail.com&id=3')).toBe('https://news.test/?id=3');
  });
});

describe('recordedSearch', () => {
  it('keeps ordinary parameters in order, with or without the leading ?', () => {
    expect(recordedSearch('?s=mug&page=2')).toBe('?s=mug&page=2');
    expect(recordedSearch('s=mug&page=2')).toBe('?s=mug&page=2');
    expect(recordedSearch('?flag&s=mug')).toBe('?flag&s=mug');
  });

  it('drops private and shop-written parameters and empty pairs, and gives nothing when none is left', () => {
    expect(
      recordedSearch('?key=wc_order_1&s=mug&&attribute_pa_color=blue&Attribute_size=l&variation_id=7'),
    ).toBe('?s=mug');
    expect(recordedSearch('?email&variation_id=7')).toBe('');
    expect(recordedSearch('?')).toBe('');
    expect(recordedSearch('')).toBe('');
    expect(recordedSearch('?&&')).toBe('');
    // An address in a value goes whatever the name, also under an empty name.
    expect(recordedSearch('?ref=a%40b.test&=a%40b.test&s=mug')).toBe('?s=mug');
    // Only names that start with attribute_ are variation choices.
    expect(recordedSearch('?a=1&author=x')).toBe('?a=1&author=x');
    expect(recordedSearch('?my_attribute_x=1&variation=2')).toBe('?my_attribute_x=1&variation=2');
  });
});

describe('recordedPage', () => {
  it('drops the hash and what the query may not keep', () => {
    expect(recordedPage('/product/mug/#reviews')).toBe('/product/mug/');
    expect(recordedPage('/product/mug/?attribute_pa_color=blue#reviews')).toBe('/product/mug/');
    expect(recordedPage('/shop/?page=2&token=abc')).toBe('/shop/?page=2');
    expect(recordedPage('/shop/')).toBe('/shop/');
    // The server strips what a tracker sends, even an address that is only a query.
    expect(recordedPage('?token=abc&s=mug')).toBe('?s=mug');
  });
});

describe('recordedUrl', () => {
  it('drops the hash and private parameters of a referrer, keeping values that hold =', () => {
    expect(recordedUrl('https://mail.example/read?id=7&token=abc#top')).toBe(
      'https://mail.example/read?id=7',
    );
    expect(recordedUrl('https://a.test/?q=a=b&email=a%40b.test')).toBe('https://a.test/?q=a=b');
    expect(recordedUrl('https://a.test/p?key=1&&nonce=2')).toBe('https://a.test/p');
    expect(recordedUrl('https://a.test/p#x')).toBe('https://a.test/p');
    expect(recordedUrl('https://a.test/p?attribute_pa_color=blue')).toBe(
      'https://a.test/p?attribute_pa_color=blue',
    );
    expect(recordedUrl('')).toBe('');
    expect(recordedUrl('https://a.test/p?a=1&token=x&b=2')).toBe('https://a.test/p?a=1&b=2');
    expect(recordedUrl('?token=x&s=1')).toBe('?s=1');
    expect(recordedUrl('https://a.test/?ref=a%40b.test&s=1')).toBe('https://a.test/?s=1');
    expect(recordedUrl('not a url ?secret=1')).toBe('not a url ');
  });
});
