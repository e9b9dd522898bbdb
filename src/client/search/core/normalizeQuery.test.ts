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

  it('without a delimiter searches and replaces the whole value, even one holding the word "null"', () => {
    expect(extractQuery('null and void', null)).toBe('null and void');
    expect(replaceQuery('annulled', 'Linen Shirt', null)).toBe('Linen Shirt');
  });

  it('decodes every entity a suggestion title may carry, and trims what is left', () => {
    expect(stripTags('Tom &amp; Jerry &lt;3 &gt; &quot;Mugs&quot;')).toBe('Tom & Jerry <3 > "Mugs"');
    expect(stripTags('Rock&#39;n&#039;roll')).toBe("Rock'n'roll");
    expect(stripTags('Linen&nbsp;Shirt')).toBe('Linen Shirt');
    expect(stripTags('&nbsp;<span> Mug </span>&nbsp;')).toBe('Mug');
    // Only the listed entities: anything else stays as written.
    expect(stripTags('Caf&eacute; &#40;')).toBe('Caf&eacute; &#40;');
    expect(stripTags('a <> b')).toBe('a  b');
  });
});
