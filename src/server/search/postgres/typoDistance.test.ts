import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IndexSegment } from '../IndexSegment';
import { scanTypos } from '../scanTypos';
import { typoDistance } from './typoDistance';

/** Every term scanTypos visits for a word, with its distance. */
function scanned(terms: string[], word: string, maxEdits: number, prefix: boolean): Map<string, number> {
  const segment = new IndexSegment(new Map(terms.map((term) => [term, [0, 1]])));
  const found = new Map<string, number>();
  scanTypos(segment, word, maxEdits, prefix, (termId, distance) =>
    found.set(segment.terms[termId] as string, distance),
  );
  return found;
}

describe('typoDistance', () => {
  it('counts substitutions, insertions, deletions and neighbour swaps as one edit each', () => {
    expect(typoDistance('hodie', 'hoodie', false)).toBe(1);
    expect(typoDistance('hoodei', 'hoodie', false)).toBe(1);
    expect(typoDistance('hxodie', 'hoodie', false)).toBe(1);
    expect(typoDistance('hdooie', 'hoodie', false)).toBe(2);
    expect(typoDistance('hodi', 'hoodie', true)).toBe(1);
    expect(typoDistance('hood', 'hoodie', true)).toBe(0);
  });

  it('agrees with the embedded index (scanTypos) on every term of the same first letter', () => {
    const letters = fc.constantFrom('a', 'b', 'e', 'o', 'r', 's');
    const text = (min: number, max: number) =>
      fc.array(letters, { minLength: min, maxLength: max }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(
        fc.uniqueArray(text(1, 9), { minLength: 1, maxLength: 40 }),
        text(4, 9),
        fc.boolean(),
        (terms, word, prefix) => {
          const maxEdits = word.length >= 8 ? 2 : 1;
          const expected = scanned(terms, word, maxEdits, prefix);
          const actual = new Map<string, number>();
          for (const term of terms) {
            if (term[0] !== word[0]) continue;
            const distance = typoDistance(word, term, prefix);
            if (distance <= maxEdits) actual.set(term, distance);
          }
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
