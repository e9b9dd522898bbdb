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

  it('prefers the longest word where two words of the query overlap', () => {
    expect(highlightMatches('Linen Shirt', 'lin linen')).toEqual([
      { text: 'Linen', match: true },
      { text: ' Shirt', match: false },
    ]);
  });

  it('leaves no empty parts when the text starts with a match or two matches touch', () => {
    expect(highlightMatches('Linen', 'lin')).toEqual([
      { text: 'Lin', match: true },
      { text: 'en', match: false },
    ]);
    expect(highlightMatches('teatime', 'tea time')).toEqual([
      { text: 'tea', match: true },
      { text: 'time', match: true },
    ]);
  });

  it('returns the whole text unmarked when nothing matches, and ignores extra spaces in the query', () => {
    expect(highlightMatches('Mug', 'tea')).toEqual([{ text: 'Mug', match: false }]);
    expect(highlightMatches('Mug', '   ')).toEqual([{ text: 'Mug', match: false }]);
    expect(highlightMatches('Tea Mug', '  mug  ')).toEqual([
      { text: 'Tea ', match: false },
      { text: 'Mug', match: true },
    ]);
    expect(highlightMatches('', 'mug')).toEqual([{ text: '', match: false }]);
  });

  it('treats every regular-expression character literally', () => {
    const text = 'a.b*c+d?e^f$g{h}i(j)k|l[m]n\\o';
    for (const special of ['.', '*', '+', '?', '^', '$', '{', '}', '(', ')', '|', '[', ']', '\\']) {
      const parts = highlightMatches(text, special);
      expect(
        parts.filter((part) => part.match).map((part) => part.text),
        special,
      ).toEqual([special]);
      expect(parts.map((part) => part.text).join('')).toBe(text);
    }
  });
});
