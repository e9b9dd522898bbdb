import { describe, expect, it } from 'vitest';
import { isPhoneNumber } from './isPhoneNumber';

const digits = (count: number) => '1234567890'.repeat(2).slice(0, count);

describe('isPhoneNumber', () => {
  it('accepts a formatted international number', () => {
    expect(isPhoneNumber('+1 (555) 123-4567')).toBe(true);
  });

  it('requires 6 to 15 digits', () => {
    expect(isPhoneNumber(digits(5))).toBe(false);
    expect(isPhoneNumber(digits(6))).toBe(true);
    expect(isPhoneNumber(digits(15))).toBe(true);
    expect(isPhoneNumber(digits(16))).toBe(false);
  });

  it('ignores dashes, dots, brackets and spaces when counting', () => {
    expect(isPhoneNumber('12-34.5(6)')).toBe(true);
    expect(isPhoneNumber('1 2 3 4 5')).toBe(false);
    expect(isPhoneNumber('--..()  123456')).toBe(true);
  });

  it('rejects the empty string and separators alone', () => {
    expect(isPhoneNumber('')).toBe(false);
    expect(isPhoneNumber(' -.() ')).toBe(false);
  });

  it('does not treat other whitespace as a separator', () => {
    expect(isPhoneNumber('123\t456')).toBe(false);
    expect(isPhoneNumber('123\u00a0456')).toBe(false);
  });

  it('accepts one leading + only', () => {
    expect(isPhoneNumber('+441632960961')).toBe(true);
    expect(isPhoneNumber('++441632960961')).toBe(false);
    expect(isPhoneNumber('44+1632960961')).toBe(false);
  });

  it('accepts a lowercase tel: prefix, as in tel: links', () => {
    expect(isPhoneNumber('tel:+441632960961')).toBe(true);
    expect(isPhoneNumber('tel: 01632 960961')).toBe(true);
    expect(isPhoneNumber('TEL:01632960961')).toBe(false);
  });

  it('rejects letters, extensions and non-ASCII digits', () => {
    expect(isPhoneNumber('1-800-FLOWERS')).toBe(false);
    expect(isPhoneNumber('01632 960961 ext 2')).toBe(false);
    expect(isPhoneNumber('١٢٣٤٥٦٧')).toBe(false);
  });
});
