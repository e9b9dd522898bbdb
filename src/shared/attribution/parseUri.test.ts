import { describe, expect, it } from 'vitest';
import { queryText, readQuery } from './parseUri';

describe("the library's query reading", () => {
  it('makes a list of a repeated parameter, in order, and keeps the first value when there is one', () => {
    const params = readQuery('utm_source=a&utm_source=b&utm_source=c&ref&ref=x');
    expect(params.get('utm_source')).toEqual(['a', 'b', 'c']);
    expect(params.get('ref')).toBe('x');
    expect(params.has('missing')).toBe(false);
  });

  it('renders values as string concatenation does: a list joined with commas, nothing as "undefined"', () => {
    expect(queryText(['a', undefined, 'c'])).toBe('a,,c');
    expect(queryText('a')).toBe('a');
    expect(queryText(undefined)).toBe('undefined');
  });
});
