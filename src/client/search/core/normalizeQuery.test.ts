import { describe, expect, it } from 'vitest';
import { extractQuery, replaceQuery, stripTags } from './normalizeQuery';

describe('normalizeQuery', () => {
  it('trims the query, or takes the trimmed last part after the delimiter', () => {
    expect(extractQuery('  linen shirt ', null)).toBe('linen shirt');
    expect(extractQuery('mug,  linen ', ',')).toBe('linen');
    expect(extractQuery('mug,', ',')).toBe('');
  });

  it('replaces only the last part after the delimiter', () => {
    expect(replaceQuery('mug, lin', 'Linen Shirt', ',')).toBe('mug, Linen Shirt');
    expect(replaceQuery('lin', 'Linen Shirt', ',')).toBe('Linen Shirt');
    expect(replaceQuery('lin', 'Linen Shirt', null)).toBe('Linen Shirt');
  });

  it('strips HTML tags and decodes the common entities', () => {
    expect(stripTags('<b>Café</b> &amp; <i>Mug</i> ')).toBe('Café & Mug');
    expect(stripTags('<img src=x onerror=alert(1)>Mug')).toBe('Mug');
  });
});
