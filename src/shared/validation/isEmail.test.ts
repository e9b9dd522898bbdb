import { describe, expect, it } from 'vitest';
import { isEmail } from './isEmail';

const tld = (length: number) => 'a'.repeat(length);

describe('isEmail', () => {
  it('accepts an ordinary address', () => {
    expect(isEmail('hello@wordpress.org')).toBe(true);
  });

  it('accepts the local-part symbols . _ % + -', () => {
    expect(isEmail('first.last_name%tag+shop-news@example.com')).toBe(true);
  });

  it('accepts subdomains and hyphens in the domain', () => {
    expect(isEmail('orders@mail.my-shop.co.uk')).toBe(true);
  });

  it('ignores letter case', () => {
    expect(isEmail('Jane.Doe@Example.COM')).toBe(true);
  });

  it('rejects the empty string', () => {
    expect(isEmail('')).toBe(false);
  });

  it('rejects strings without exactly one usable @', () => {
    expect(isEmail('hello.wordpress.org')).toBe(false);
    expect(isEmail('a@b@example.com')).toBe(false);
    expect(isEmail('@example.com')).toBe(false);
    expect(isEmail('hello@')).toBe(false);
  });

  it('requires the domain to start with a letter or digit', () => {
    expect(isEmail('a@-example.com')).toBe(false);
    expect(isEmail('a@.example.com')).toBe(false);
    expect(isEmail('a@1example.com')).toBe(true);
  });

  it('requires a dot before the top-level domain', () => {
    expect(isEmail('hello@localhost')).toBe(false);
  });

  it('requires a top-level domain of 2 to 63 letters', () => {
    expect(isEmail(`a@example.${tld(1)}`)).toBe(false);
    expect(isEmail(`a@example.${tld(2)}`)).toBe(true);
    expect(isEmail(`a@example.${tld(63)}`)).toBe(true);
    expect(isEmail(`a@example.${tld(64)}`)).toBe(false);
  });

  it('rejects digits in the top-level domain', () => {
    expect(isEmail('a@example.c0m')).toBe(false);
  });

  it('accepts a leading mailto: (any case) but nothing else before the address', () => {
    expect(isEmail('mailto:hello@wordpress.org')).toBe(true);
    expect(isEmail('MAILTO:hello@wordpress.org')).toBe(true);
    expect(isEmail('mailto:mailto:hello@wordpress.org')).toBe(false);
    expect(isEmail('tel:hello@wordpress.org')).toBe(false);
  });

  it('rejects surrounding whitespace rather than trimming it', () => {
    expect(isEmail(' hello@wordpress.org')).toBe(false);
    expect(isEmail('hello@wordpress.org\n')).toBe(false);
  });

  it('rejects non-ASCII letters anywhere', () => {
    expect(isEmail('josé@example.com')).toBe(false);
    expect(isEmail('jose@exämple.com')).toBe(false);
    expect(isEmail('jose@example.рф')).toBe(false);
  });

  it('is a shape check only: consecutive dots are accepted', () => {
    expect(isEmail('a..b@example..com')).toBe(true);
  });
});
