import { describe, expect, it } from 'vitest';
import { decodeCookieValue, decodeData, encodeCookieValue, packFields, unpackFields } from './cookieCodec';

describe('cookie values as sourcebuster writes them', () => {
  it('writes base64 without padding for every length and reads it back', () => {
    for (const value of ['typ=utm', 'typ=utm1', 'typ=utm12', 'src=mail|||mdm=email']) {
      const written = encodeCookieValue(value, true);
      expect(written, value).toMatch(/^[A-Za-z0-9+/]+$/);
      expect(decodeCookieValue(written)).toBe(value);
    }
  });

  it('reads a plain value that only looks like base64 as plain text', () => {
    // Five characters: no base64 encoding has that length, so it is the value itself.
    expect(decodeCookieValue('abcde')).toBe('abcde');
  });

  it("reads values with !~*'() escaped, as the library escapes them, back to the characters", () => {
    const packed = packFields([
      ['src', 'news%21letter'],
      ['cmp', 'it%27s%20%28new%29%7E%2A'],
    ]);
    const fields = unpackFields(decodeCookieValue(encodeCookieValue(packed, false)));
    expect(fields).toEqual({ src: 'news!letter', cmp: "it's (new)~*" });
  });

  it('reads a value with a malformed escape the way unescape does, without failing', () => {
    expect(decodeData('%E9t%E9 100%')).toBe('été 100%');
  });
});
