import { fillEditDistanceRow } from '../editDistanceRow';

/**
 * The edit distance scanTypos uses, for one term (Damerau, optimal string alignment: a swap of two neighbouring
 * letters is one edit), or with `prefix` the least distance between `word` and any beginning of `term` (the
 * shopper is still typing). PostgresSearchIndex checks pg_trgm's candidates with it, so a typo matches on
 * PostgreSQL exactly when it would in the embedded index.
 */
export function typoDistance(word: string, term: string, prefix: boolean): number {
  const m = word.length;
  let before = new Int32Array(m + 1);
  let above = Int32Array.from({ length: m + 1 }, (_, j) => j);
  let best = prefix ? m : Number.POSITIVE_INFINITY;
  for (let depth = 1; depth <= term.length; depth++) {
    const row = new Int32Array(m + 1);
    fillEditDistanceRow(word, term, depth, row, above, before);
    if (prefix) best = Math.min(best, row[m] as number);
    before = above;
    above = row;
  }
  return prefix ? best : (above[m] as number);
}
