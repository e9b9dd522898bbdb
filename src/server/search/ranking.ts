import type { Taxonomy } from '../../shared/catalog/types';
import { foldText, splitChunks } from '../../shared/search/foldText';
import { analyzeText, MAX_TERM_LENGTH } from './analyzeText';
import { normalizeQuery } from './parseSearchQuery';
import {
  type RelevanceRules,
  SEARCH_FIELDS,
  SEARCH_GROUPS,
  type SearchDocument,
  type SearchGroup,
} from './SearchIndex';

/*
 * How a search ranks, shared by the embedded index (MemorySearchIndex) and the PostgreSQL one so that both pass
 * the same relevance tests: the sum over the query's words of the best field weight × match factor (title over
 * SKU over taxonomy over attributes over content; exact over synonym over prefix over typo), then the query being
 * the whole title, then featured, then in stock, then units sold. Owner rules (synonyms, stop words, boosts, out-of-stock handling) apply per query.
 */

export const EXACT = 1;
export const SYNONYM = 0.9;
export const PREFIX_BASE = 0.7;
/** What a prefix gains as the word covers more of the term: a whole-term prefix scores PREFIX_BASE + PREFIX_SPAN. */
export const PREFIX_SPAN = 0.2;
/** Match factor by edit distance (0 is the exact word). */
export const TYPO = [1, 0.45, 0.3];
/**
 * Typos are looked for only when the word as typed (exactly, or as a prefix) reaches fewer documents than this,
 * or when it is weak: found in descriptions only (no title, SKU, taxonomy or attribute value holds it), so its
 * best match is the lowest-ranked kind and a one-typo match elsewhere is the likelier meaning ("lether" in a few
 * descriptions, "leather" in titles). Otherwise a word that completes to real terms is taken as typed correctly
 * (as Typesense's typo_tokens_threshold does): every prefix would also match its one-edit neighbourhood (vilh →
 * every vil… term), flooding the results and costing time.
 */
export const TYPO_THRESHOLD = 10;

/**
 * Words of this many letters get one typo only as a fallback, when the query as typed (exact, synonym, prefix,
 * and the usual typos of longer words) finds nothing: "cse" → "case". Matched against whole terms, not as a
 * prefix: a one-edit prefix of three letters is any term sharing two of them (cse → ce…, cre…, che…), which
 * would list half the catalog in no useful order.
 */
export const SHORT_TYPO_LENGTH = 3;

/**
 * How many edits a word may have: two from 8 letters, one from 4, and one at 3 letters in the fallback
 * (`shortTypos`, see SHORT_TYPO_LENGTH).
 */
export function maxEditsOf(wordLength: number, shortTypos: boolean): number {
  if (wordLength >= 8) return 2;
  if (wordLength >= 4) return 1;
  return shortTypos && wordLength === SHORT_TYPO_LENGTH ? 1 : 0;
}

/** The group of a document outside SEARCH_GROUPS (a term of another taxonomy): never shown. */
export const GROUP_NONE = 255;

/**
 * A last word of one or two letters matches outside the descriptions only: nearly every description has a word
 * starting with "a" or "th", so there it would match everything and rank nothing.
 */
export const SHORT_WORD = 2;
const CONTENT_BIT = 1 << SEARCH_FIELDS.indexOf('content');
/** The field mask a short word (or a typo) may match in. */
export const SHORT_FIELDS = 0xff & ~CONTENT_BIT;

/** A prefix scores between 0.7 and 0.9: the closer the word is to the whole term, the higher. */
export function prefixFactor(wordLength: number, termLength: number): number {
  return PREFIX_BASE + (PREFIX_SPAN * wordLength) / termLength;
}

/** Units sold count up to this in the rank; the score and flags sit above. */
const SALES_LIMIT = 2 ** 20;
/** Scores (× 100, rounded) are kept below this, the stock tier above. */
export const SCORE_LIMIT = 2 ** 18;
/**
 * Added to the rank base when the query is a document's whole title: above featured, in stock and sales, below
 * the score. "hoodie" puts "Hoodie" before a featured "Hoodie with Zipper", whose score is the same.
 */
export const WHOLE_TITLE = 4 * SALES_LIMIT;
/** The rank base (whole title, featured, in stock, sales) fits below this. */
export const RANK_BASE_LIMIT = 8 * SALES_LIMIT;

/**
 * The part of a document's rank that does not depend on the query, in the low bits of one number:
 * featured, in stock, units sold.
 */
export function rankBase(document: Pick<SearchDocument, 'featured' | 'inStock' | 'sales'>): number {
  const sales = Math.min(Math.max(0, Math.floor(document.sales)), SALES_LIMIT - 1);
  return ((document.featured ? 2 : 0) + (document.inStock ? 1 : 0)) * SALES_LIMIT + sales;
}

/**
 * A document's rank for one query: the stock tier (1 for in stock when the owner puts out-of-stock products
 * last, else 0), then the score to two decimals, then whether the query is the whole title, then the rank base.
 */
export function queryRank(score: number, stockTier: number, base: number, wholeTitle = false): number {
  const scoreKey = Math.min(Math.round(score * 100), SCORE_LIMIT - 1);
  return (stockTier * SCORE_LIMIT + scoreKey) * RANK_BASE_LIMIT + base + (wholeTitle ? WHOLE_TITLE : 0);
}

/**
 * A title or a query as the words a shopper types, for the whole-title rule: folded, each chunk joined
 * (`T-Shirt` → `tshirt`), single spaces. "hoodie" and "HOODIE" are the whole of the title "Hoodie"; "hoodie
 * with" (the last word unfinished or not) is not; neither is a typo ("hodie").
 */
export function titleKey(text: string): string {
  return splitChunks(foldText(text.slice(0, MAX_TITLE_KEY)))
    .map((parts) => parts.join(''))
    .join(' ');
}
/** Longer titles are compared by this much of them: no one types more into a search box. */
const MAX_TITLE_KEY = 200;

/**
 * The whole-title keys of a document (its titles; none for a variation, found by its SKU only). A document is never
 * changed once made, so its keys are folded once, however many index builds keep it.
 */
export function titleKeysOf(document: SearchDocument): readonly string[] {
  let keys = titleKeysByDocument.get(document);
  if (keys === undefined) {
    keys =
      document.kind === 'variation'
        ? []
        : [...new Set((document.fields.title ?? []).map(titleKey).filter(Boolean))];
    titleKeysByDocument.set(document, keys);
  }
  return keys;
}
const titleKeysByDocument = new WeakMap<SearchDocument, readonly string[]>();

export function groupOf(document: SearchDocument): number {
  const group: SearchGroup | null =
    document.kind === 'product' || document.kind === 'variation'
      ? 'products'
      : document.kind === 'term'
        ? (document.taxonomy as Taxonomy)
        : document.kind === 'vendor'
          ? 'vendors'
          : document.postType;
  return group === null ? GROUP_NONE : SEARCH_GROUPS.indexOf(group);
}

/**
 * Each term of a document with the bit mask of the fields it appears in. A variation is found by its whole SKU
 * only (exact or as a prefix): the parts of `DEMO-LINEN-SHIRT-SAGE-S` must not make every linen variation a
 * suggestion for "linen"; its parent already answers that.
 */
export function termsOf(document: SearchDocument): Map<string, number> {
  const terms = new Map<string, number>();
  if (document.kind === 'variation') {
    for (const sku of document.fields.sku ?? []) {
      const whole = splitChunks(foldText(sku)).flat().join('').slice(0, MAX_TERM_LENGTH);
      if (whole) terms.set(whole, 1 << SEARCH_FIELDS.indexOf('sku'));
    }
    return terms;
  }
  for (const [bit, field] of SEARCH_FIELDS.entries()) {
    const texts = document.fields[field];
    if (!texts || texts.length === 0) continue;
    analyzeText(texts, (term) => terms.set(term, (terms.get(term) ?? 0) | (1 << bit)));
  }
  return terms;
}

/** The owner's rules in the form a query uses: folded stop words, synonyms per word, weight per field mask. */
export function compileRules(rules: RelevanceRules): {
  stopWords: Set<string>;
  synonyms: Map<string, string[]>;
  fieldWeights: Float64Array<ArrayBuffer>;
} {
  const stopWords = new Set(rules.stopWords.map((word) => normalizeQuery(word)).filter(Boolean));
  const synonyms = new Map<string, string[]>();
  for (const group of rules.synonyms) {
    const words = group.map((word) => normalizeQuery(word).replace(/[\s-]+/g, '')).filter(Boolean);
    for (const word of words) {
      const others = words.filter((other) => other !== word);
      synonyms.set(word, [...(synonyms.get(word) ?? []), ...others]);
    }
  }
  // The weight of a posting is that of its best field: one table lookup per posting at query time.
  const fieldWeights = new Float64Array(32);
  for (let mask = 0; mask < 32; mask++) {
    let best = 0;
    for (const [bit, field] of SEARCH_FIELDS.entries()) {
      if (mask & (1 << bit)) best = Math.max(best, rules.boosts[field]);
    }
    fieldWeights[mask] = best;
  }
  return { stopWords, synonyms, fieldWeights };
}
