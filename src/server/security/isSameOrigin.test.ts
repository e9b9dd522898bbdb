import { describe, expect, it } from 'vitest';
import { isSameOrigin } from './isSameOrigin';

const HOST = 'shop.example:8080';

describe('isSameOrigin', () => {
  it('accepts an Origin on the same host', () => {
    expect(isSameOrigin({ origin: 'http://shop.example:8080' }, HOST)).toBe(true);
    expect(isSameOrigin({ origin: 'https://shop.example:8080' }, HOST)).toBe(true);
  });

  it('refuses an Origin on another host', () => {
    expect(isSameOrigin({ origin: 'http://evil.example' }, HOST)).toBe(false);
    expect(isSameOrigin({ origin: 'http://shop.example' }, HOST)).toBe(false);
    expect(isSameOrigin({ origin: 'http://shop.example:8080.evil.example' }, HOST)).toBe(false);
  });

  it('refuses a cross-site Sec-Fetch-Site even with a matching Origin', () => {
    expect(isSameOrigin({ 'sec-fetch-site': 'cross-site' }, HOST)).toBe(false);
    expect(isSameOrigin({ 'sec-fetch-site': 'cross-site', origin: 'http://shop.example:8080' }, HOST)).toBe(
      false,
    );
  });

  it('accepts a same-origin Sec-Fetch-Site without an Origin', () => {
    expect(isSameOrigin({ 'sec-fetch-site': 'same-origin' }, HOST)).toBe(true);
  });

  it('lets a client that sends neither Origin nor Referer through', () => {
    expect(isSameOrigin({}, HOST)).toBe(true);
    expect(isSameOrigin({ 'user-agent': 'curl/8' }, HOST)).toBe(true);
  });

  it('falls back to the Referer when there is no Origin', () => {
    expect(isSameOrigin({ referer: 'http://shop.example:8080/product/mug/' }, HOST)).toBe(true);
    expect(isSameOrigin({ referer: 'http://evil.example/attack.html' }, HOST)).toBe(false);
  });

  it('prefers the Origin over the Referer', () => {
    expect(
      isSameOrigin({ origin: 'http://evil.example', referer: 'http://shop.example:8080/cart/' }, HOST),
    ).toBe(false);
  });

  it('refuses an Origin that is not a URL', () => {
    expect(isSameOrigin({ origin: 'not a url' }, HOST)).toBe(false);
    expect(isSameOrigin({ referer: '::::' }, HOST)).toBe(false);
  });

  it('treats an opaque Origin (sandboxed frame) as foreign unless the Referer is ours', () => {
    expect(isSameOrigin({ origin: 'null' }, HOST)).toBe(false);
    expect(isSameOrigin({ origin: 'null', referer: 'http://evil.example/' }, HOST)).toBe(false);
    expect(isSameOrigin({ origin: 'null', referer: 'http://shop.example:8080/cart/' }, HOST)).toBe(true);
  });

  it('falls back to the Referer when the Origin header is empty', () => {
    expect(isSameOrigin({ origin: '', referer: 'http://evil.example/' }, HOST)).toBe(false);
  });
});
