import { describe, expect, it } from 'vitest';
import { decodeBase64Text, encodeBase64Text } from './base64Text';

/* The tracker encodes `referred`, `page_uri` and `X-WPS-TS` with these; the server decodes them, and null is a 400. */

describe('encodeBase64Text / decodeBase64Text', () => {
  it('encodes UTF-8 text the way the server decodes it, non-ASCII paths included', () => {
    expect(encodeBase64Text('/shop/')).toBe('L3Nob3Av');
    expect(encodeBase64Text('/café/?q=ü')).toBe(Buffer.from('/café/?q=ü').toString('base64'));
    for (const text of ['', 'a', 'ab', 'abc', '/product/café/?q=ünï', 'https://www.google.com/', '日本語'])
      expect(decodeBase64Text(encodeBase64Text(text))).toBe(text);
  });

  it('decodes padded and unpadded base64', () => {
    expect(decodeBase64Text('YQ==')).toBe('a');
    expect(decodeBase64Text('YWI=')).toBe('ab');
    expect(decodeBase64Text('YWI')).toBe('ab');
    expect(decodeBase64Text('')).toBe('');
  });

  it('refuses what is not base64: other characters, too much padding, an impossible length', () => {
    expect(decodeBase64Text('L3Nob3Av!')).toBeNull();
    expect(decodeBase64Text(' L3Nob3Av')).toBeNull();
    expect(decodeBase64Text('L3Nob3Av\n')).toBeNull();
    expect(decodeBase64Text('YQ===')).toBeNull();
    expect(decodeBase64Text('Y=Q=')).toBeNull();
    // One character past a multiple of four cannot hold a byte.
    expect(decodeBase64Text('L3Nob')).toBeNull();
    expect(decodeBase64Text('L')).toBeNull();
  });

  it('refuses bytes that are not UTF-8', () => {
    expect(decodeBase64Text(Buffer.from([0xff, 0xfe, 0x41]).toString('base64'))).toBeNull();
    expect(decodeBase64Text(Buffer.from([0x63, 0x61, 0x66, 0xe9]).toString('base64'))).toBeNull();
  });

  it('refuses whitespace anywhere, which the platform decoder would silently skip', () => {
    // atob drops ASCII whitespace: these decode to "/shop/" unless refused first.
    expect(atob('  L3Nob3Av')).toBe('/shop/');
    for (const encoded of ['  L3Nob3Av', 'L3Nob3Av  ', 'L3No  b3Av', 'L3Nob3Av\n\n', '\tL3Nob3Av\t'])
      expect(decodeBase64Text(encoded), JSON.stringify(encoded)).toBeNull();
  });
});
