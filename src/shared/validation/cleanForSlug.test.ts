import { describe, expect, it } from 'vitest';
import { cleanForSlug } from './cleanForSlug';

describe('cleanForSlug', () => {
  it('returns an empty slug for an empty title', () => {
    expect(cleanForSlug('')).toBe('');
  });

  it('lowercases and joins words with hyphens', () => {
    expect(cleanForSlug('Summer Sale Hat')).toBe('summer-sale-hat');
  });

  it('removes accents', () => {
    expect(cleanForSlug('Crème Brûlée')).toBe('creme-brulee');
    expect(cleanForSlug('Ærøskøbing Łódź')).toBe('aeroskobing-lodz');
    expect(cleanForSlug('Œuvre Þórr đak')).toBe('oeuvre-thorr-dak');
  });

  it('removes accents written as combining marks too', () => {
    expect(cleanForSlug('Cre\u0300me')).toBe('creme');
  });

  it('turns runs of whitespace, dots and slashes into one hyphen', () => {
    expect(cleanForSlug('v1.2 / beta')).toBe('v1-2-beta');
    expect(cleanForSlug('a\t\n  b')).toBe('a-b');
    expect(cleanForSlug('shoes/men/boots')).toBe('shoes-men-boots');
  });

  it('drops other punctuation and symbols', () => {
    expect(cleanForSlug("Rock 'n' Roll! (50% off) €9 #1")).toBe('rock-n-roll-50-off-9-1');
  });

  it('keeps underscores and digits', () => {
    expect(cleanForSlug('item_42')).toBe('item_42');
  });

  it('trims and collapses hyphens', () => {
    expect(cleanForSlug('--Hello---World--')).toBe('hello-world');
    expect(cleanForSlug(' . / ')).toBe('');
  });

  it('turns &nbsp; &ndash; &mdash; into hyphens and drops other entities', () => {
    expect(cleanForSlug('Salt&nbsp;&amp;&nbsp;Pepper')).toBe('salt-pepper');
    expect(cleanForSlug('2019&ndash;2020')).toBe('2019-2020');
    expect(cleanForSlug('Fish&mdash;Chips')).toBe('fish-chips');
  });

  it('keeps letters from other scripts, since WordPress slugs may be Unicode', () => {
    expect(cleanForSlug('Привет мир')).toBe('привет-мир');
    expect(cleanForSlug('日本 茶')).toBe('日本-茶');
  });

  it('only folds the accents WordPress folds', () => {
    // ß, Greek tonos and Ḍ are outside the remove-accents list WordPress uses.
    expect(cleanForSlug('Straße')).toBe('straße');
    expect(cleanForSlug('Καλημέρα')).toBe('καλημέρα');
    expect(cleanForSlug('Ḍ')).toBe('ḍ');
    expect(cleanForSlug('Йогурт ёж')).toBe('иогурт-еж');
  });

  it('drops emoji and other symbols', () => {
    expect(cleanForSlug('Tea ☕ time 🎉')).toBe('tea-time');
  });
});
