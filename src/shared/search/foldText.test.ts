import { describe, expect, it } from 'vitest';
import { foldText, splitChunks } from './foldText';

const words = (text: string) => splitChunks(foldText(text));

describe('foldText', () => {
  it('folds accents, case and special letters', () => {
    expect(foldText('Crème Brûlée')).toBe('creme brulee');
    expect(foldText('Straße Øl')).toBe('strasse ol');
    expect(foldText('ﬁne ①')).toBe('fine 1');
  });

  it('drops trademark-like symbols instead of folding them into letters', () => {
    expect(words('Acme™ Mug')).toEqual([['acme'], ['mug']]);
    expect(words('Acme® Mug')).toEqual([['acme'], ['mug']]);
    expect(words('Acme© Mug')).toEqual([['acme'], ['mug']]);
    expect(words('Brand℠ Ⓡ №5 20℃')).toEqual([['brand'], ['5'], ['20']]);
    // Inside a chunk a symbol splits parts, as punctuation does, so the joined form is still indexed.
    expect(words('Acme™Mug')).toEqual([['acme', 'mug']]);
  });

  it('reads plain ASCII text (its fast path) exactly as the general path does', () => {
    // Every printable ASCII character, tabs and line breaks, in random strings; the same string followed by a
    // non-ASCII word takes the general paths (a word still not ASCII once folded, for splitChunks), and must read
    // the same words before it.
    const alphabet = `${Array.from({ length: 95 }, (_, code) => String.fromCharCode(32 + code)).join('')}\t\n\r`;
    let state = 11;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
    for (let round = 0; round < 2000; round++) {
      const length = Math.floor(random() * 30);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(words(`${text} Жук`)).toEqual([...words(text), ['жук']]);
      expect(foldText(`${text}é`)).toBe(`${foldText(text)}e`);
    }
  });
});
