/**
 * Fills one row of the Damerau edit-distance table (optimal string alignment: a swap of two neighbouring letters
 * is one edit) between `word` and the first `depth` letters of `term`, from the row above and the one above that,
 * and returns the row's least value. The typo scan over the dictionary and the single-term distance both walk
 * the table with it, so they agree on what a typo is.
 */
export function fillEditDistanceRow(
  word: string,
  term: string,
  depth: number,
  row: Int32Array,
  above: Int32Array,
  twoAbove: Int32Array,
): number {
  const m = word.length;
  const char = term.charCodeAt(depth - 1);
  row[0] = depth;
  let rowMin = depth;
  for (let j = 1; j <= m; j++) {
    const cost = word.charCodeAt(j - 1) === char ? 0 : 1;
    let value = Math.min(
      (above[j] as number) + 1,
      (row[j - 1] as number) + 1,
      (above[j - 1] as number) + cost,
    );
    if (
      depth > 1 &&
      j > 1 &&
      char === word.charCodeAt(j - 2) &&
      term.charCodeAt(depth - 2) === word.charCodeAt(j - 1)
    ) {
      value = Math.min(value, (twoAbove[j - 2] as number) + 1);
    }
    row[j] = value;
    if (value < rowMin) rowMin = value;
  }
  return rowMin;
}
