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
});
