import { foldText, splitChunks } from '../../shared/search/foldText';
import { MAX_TERM_LENGTH } from './analyzeText';

/** More words than this are ignored: no shopper types them, and each word is a pass over the index. */
const MAX_QUERY_WORDS = 8;
/** Longer input is cut before any work (a pasted page must not cost more than a sentence). */
const MAX_QUERY_LENGTH = 200;

export interface QueryWord {
  text: string;
  /** The last word is still being typed: it matches as a prefix. */
  prefix: boolean;
}

/**
 * The ways to read a query, each a list of words that must all match (AND). Hyphenated and dotted chunks are
 * read joined first (`t-shirt` → `tshirt`, `woo-hoodie-blue` → one SKU word) and also split into their parts,
 * so either spelling in the catalog is found; a one- or two-letter word is also read joined to the next. Stop words are dropped unless nothing else is left.
 */
export function parseSearchQuery(text: string, stopWords: ReadonlySet<string>): QueryWord[][] {
  const folded = foldText(text.slice(0, MAX_QUERY_LENGTH)).trim();
  const chunks = splitChunks(folded).slice(0, MAX_QUERY_WORDS);
  if (chunks.length === 0) return [];
  const joined = chunks.map((parts) => [parts.join('')]);
  const readings = [joined];
  if (chunks.some((parts) => parts.length > 1)) readings.push(chunks.map((parts) => parts));
  // `t shirt` also reads as `tshirt`: a one- or two-letter word joined to the next, as the index does.
  const merged: string[][] = [];
  for (const [index, parts] of joined.entries()) {
    const previous = merged.at(-1);
    if (index > 0 && previous && (joined[index - 1]?.[0]?.length ?? 0) <= 2 && previous.length === 1) {
      merged[merged.length - 1] = [`${previous[0]}${parts[0]}`];
    } else merged.push([...parts]);
  }
  if (merged.length < joined.length) readings.push(merged);
  return readings.map((reading) => {
    const words = reading.flat().map((word) => word.slice(0, MAX_TERM_LENGTH));
    const kept = words.filter((word) => !stopWords.has(word));
    const chosen = kept.length > 0 ? kept : words;
    const lastTyped = words.at(-1);
    return chosen.map((word, index) => ({
      text: word,
      // The prefix is the word the shopper is typing, only if it survived the stop-word filter.
      prefix: index === chosen.length - 1 && word === lastTyped,
    }));
  });
}

/** The folded, single-spaced form of a query: how analytics group queries and how pins are looked up. */
export function normalizeQuery(text: string): string {
  return splitChunks(foldText(text.slice(0, MAX_QUERY_LENGTH)))
    .map((parts) => parts.join('-'))
    .join(' ');
}
