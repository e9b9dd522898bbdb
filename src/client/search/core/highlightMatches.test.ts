import { describe, expect, it } from 'vitest';
import { highlightMatches } from './highlightMatches';

describe('highlightMatches', () => {
  it('marks every word of the query, case-insensitively, and joins back to the text', () => {
    const parts = highlightMatches('Washed Linen Shirt', 'shirt lin');
    expect(parts).toEqual([
      { text: 'Washed ', match: false },
      { text: 'Lin', match: true },
      { text: 'en ', match: false },
      { text: 'Shirt', match: true },
    ]);
    expect(parts.map((part) => part.text).join('')).toBe('Washed Linen Shirt');
  });

  it('treats regular-expression characters literally', () => {
    expect(highlightMatches('Mug (large)', '(l')).toEqual([
      { text: 'Mug ', match: false },
      { text: '(l', match: true },
      { text: 'arge)', match: false },
    ]);
    expect(highlightMatches('Mug', '')).toEqual([{ text: 'Mug', match: false }]);
  });
});
