import { fillEditDistanceRow } from './editDistanceRow';
import type { IndexSegment } from './IndexSegment';

const MAX_LENGTH = 64;

/** Edit-distance rows reused across calls (searches are synchronous), one set per word length. */
const BEST_AT = new Int32Array(MAX_LENGTH + 1);
const rowCache = new Map<number, Int32Array[]>();
function rowsFor(wordLength: number): Int32Array[] {
  let rows = rowCache.get(wordLength);
  if (!rows) {
    rows = Array.from({ length: MAX_LENGTH + 1 }, () => new Int32Array(wordLength + 1));
    rowCache.set(wordLength, rows);
  }
  return rows;
}

/**
 * Visits every term of the sorted dictionary within `maxEdits` edits of `word` (Damerau: a swap of two
 * neighbouring letters is one edit), or, with `prefix`, every term that has a prefix within `maxEdits` of it
 * (the shopper is still typing). It walks the dictionary like a trie: each term reuses the edit-distance rows
 * of the prefix it shares with the previous term, and a prefix already more than `maxEdits` away skips every
 * term that starts with it in one binary search. The first letter is taken as typed (as most typo-tolerant
 * engines assume): the walk covers only that letter's part of the dictionary.
 */
export function scanTypos(
  segment: IndexSegment,
  word: string,
  maxEdits: number,
  prefix: boolean,
  visit: (termId: number, distance: number) => void,
): void {
  const terms = segment.terms;
  const m = word.length;
  const rows = rowsFor(m);
  const top = rows[0] as Int32Array;
  for (let j = 0; j <= m; j++) top[j] = j;
  // bestAt[d]: the least distance between the word and any prefix of the current term up to length d.
  const bestAt = BEST_AT;
  bestAt[0] = m;
  let previous = '';
  let valid = 0;
  const first = word.charAt(0);
  let index = segment.lowerBound(first);
  const end = segment.lowerBound(`${first}\uffff`, index);
  while (index < end) {
    const term = terms[index] as string;
    const length = Math.min(term.length, MAX_LENGTH);
    let shared = 0;
    const limit = Math.min(valid, length, previous.length);
    while (shared < limit && term.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
    let pruned = 0;
    for (let depth = shared + 1; depth <= length; depth++) {
      const row = rows[depth] as Int32Array;
      const above = rows[depth - 1] as Int32Array;
      // At depth 1 the row two above is never read; the top row stands in for it.
      const twoAbove = rows[Math.max(depth - 2, 0)] as Int32Array;
      const rowMin = fillEditDistanceRow(word, term, depth, row, above, twoAbove);
      bestAt[depth] = Math.min(bestAt[depth - 1] as number, row[m] as number);
      // With a prefix, a term whose beginning already matched stays a match however it continues.
      if (rowMin > maxEdits && !(prefix && (bestAt[depth] as number) <= maxEdits)) {
        pruned = depth;
        break;
      }
    }
    previous = term;
    if (pruned > 0) {
      valid = pruned - 1;
      // Nothing that starts with this prefix can come back within reach: jump past all of it.
      index = segment.lowerBound(`${term.slice(0, pruned)}\uffff`, index + 1);
      continue;
    }
    valid = length;
    const distance = prefix ? (bestAt[length] as number) : ((rows[length] as Int32Array)[m] as number);
    if (distance <= maxEdits) visit(index, distance);
    index++;
  }
}
