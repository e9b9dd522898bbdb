import { normalizeQuery } from './parseSearchQuery';
import { typoDistance } from './postgres/typoDistance';

/*
 * "Did you mean": the corrected query for one that finds nothing, or finds only through typos. Built from the
 * index's vocabulary (each engine answers `SearchIndex.vocabulary`, so the rule is written once, here) and from
 * the queries shoppers searched before with results (the analytics table). The caller runs the correction and
 * shows its results with "Showing results for X — search instead for Y".
 */

/** A word to look up in the index's dictionary. */
export interface VocabularyWord {
  /** Folded, hyphenated parts joined (the index's whole-chunk term: `t-shirt` → `tshirt`). */
  text: string;
  /** The last word of the query, still being typed: known when a term starts with it. */
  prefix: boolean;
  /** How many edits a near term may be away (first letter as typed, Damerau); 0: no near terms wanted. */
  maxEdits: number;
  /** Near terms are those with a beginning within maxEdits (the word is being typed), not whole terms. */
  nearByPrefix: boolean;
}

/** A dictionary term near a word, with the documents holding it. */
export interface VocabularyTerm {
  term: string;
  distance: number;
  documents: number;
}

/** What the dictionary says about one word. */
export interface WordVocabulary {
  /** Documents the word reaches as typed: its exact term, its synonyms and, for a prefix, every term it starts. */
  documents: number;
  /** An owner's stop word: never corrected. */
  stopWord: boolean;
  /**
   * Only for a word the dictionary does not know (documents 0): the terms within maxEdits of it (with
   * nearByPrefix: terms with a beginning within maxEdits), at least one edit away.
   */
  near: VocabularyTerm[];
}

/** The index accessor the correction needs; both engines implement it. */
export interface SearchVocabulary {
  vocabulary(words: readonly VocabularyWord[]): Promise<WordVocabulary[]>;
}

/** A query searched before that found something, with how many times (the `search_queries` table). */
export interface PastQuery {
  query: string;
  searches: number;
}

export interface Correction {
  /** The corrected query, folded and single-spaced (`hoodie`). */
  query: string;
  /** Where it came from: the dictionary word by word, or a past query. */
  source: 'vocabulary' | 'past-query';
}

/**
 * How many edits a correction may make to a word: one from 3 letters, two from 5. One more than the engine's
 * own typo rule allows at 5–7 letters (ranking.ts `maxEditsOf`): a correction is a suggestion that is checked
 * by running it, so it may reach further than a match that lands in the results unasked.
 */
export function correctionEditsOf(wordLength: number): number {
  if (wordLength >= 5) return 2;
  return wordLength >= 3 ? 1 : 0;
}

/** A whole query may be this many edits from a past query (on the folded text, spaces included). */
export function pastQueryEditsOf(queryLength: number): number {
  if (queryLength >= 8) return 2;
  return queryLength >= 4 ? 1 : 0;
}

/**
 * Words that are never corrected: one or two letters (too short to know what was meant) and anything with a
 * digit (a SKU, a size, a model number: a near neighbour is another product, not a fix).
 */
function isCorrectable(word: string): boolean {
  return word.length >= 3 && !/\d/.test(word);
}

/** At most this many past queries near the text are checked against the dictionary. */
const PAST_CANDIDATES = 3;

export interface DidYouMeanInput {
  text: string;
  /** Whether the query as sent (typos included) found anything. */
  found: boolean;
  vocabulary: SearchVocabulary;
  /**
   * Past successful queries (results > 0), most searched first, normalized as `normalizeQuery` does; read only
   * when a correction is needed.
   */
  pastQueries: () => Promise<readonly PastQuery[]>;
}

/**
 * The corrected query, or null when none is needed or none is known.
 *
 * - Needed when the query found nothing, or when a word of it is unknown to the dictionary (no exact term,
 *   synonym or, for the last word, completion): then whatever was found, was found through typos.
 *   One- and two-letter words, words with digits and stop words are taken as typed.
 * - From the dictionary: each unknown word becomes its nearest term (fewest edits, then the word shoppers
 *   used most in past successful queries, then the term in most documents, then alphabetical); every unknown
 *   word needs one, or there is no dictionary correction.
 * - From past queries: a successful past query within `pastQueryEditsOf` edits of the whole text (any letter,
 *   the first too) whose every word the dictionary knows (a past query that itself found through typos is
 *   no correction). The nearest wins, then the most searched.
 * - The past query wins over the dictionary at equal or fewer edits: shoppers typed it and it found something.
 */
export async function didYouMean(input: DidYouMeanInput): Promise<Correction | null> {
  const chunks = normalizeQuery(input.text).split(' ').filter(Boolean);
  if (chunks.length === 0) return null;
  const words = chunks.map((chunk) => chunk.replaceAll('-', ''));
  const lookUps: VocabularyWord[] = words.map((word, index): VocabularyWord => {
    const last = index === words.length - 1;
    // The word being typed is matched by its beginning from 4 letters, as the engine's typos are, and with no
    // more edits than the engine allows: two edits on the beginning of a 5-letter word reach half the dictionary.
    const nearByPrefix = last && word.length > 3;
    const maxEdits = !isCorrectable(word)
      ? 0
      : nearByPrefix
        ? Math.min(correctionEditsOf(word.length), word.length >= 8 ? 2 : 1)
        : correctionEditsOf(word.length);
    return { text: word, prefix: last, maxEdits, nearByPrefix };
  });
  // The word being typed may also be a whole word typed with more edits than a beginning allows ("hodiee"):
  // it is looked up once more as a whole term, with the whole-word budget.
  const last = lookUps.at(-1) as VocabularyWord;
  const wholeLast = last.nearByPrefix && correctionEditsOf(last.text.length) > last.maxEdits;
  if (wholeLast) {
    lookUps.push({ ...last, maxEdits: correctionEditsOf(last.text.length), nearByPrefix: false });
  }
  const answers = await input.vocabulary.vocabulary(lookUps);
  if (wholeLast) {
    const whole = answers.pop() as WordVocabulary;
    const typed = answers.at(-1) as WordVocabulary;
    const byTerm = new Map(typed.near.map((entry) => [entry.term, entry]));
    for (const entry of whole.near) {
      const known = byTerm.get(entry.term);
      if (!known || entry.distance < known.distance) byTerm.set(entry.term, entry);
    }
    typed.near = [...byTerm.values()];
  }
  const unknown = words.map(
    (word, index) =>
      isCorrectable(word) && !(answers[index] as WordVocabulary).stopWord && answers[index]?.documents === 0,
  );
  if (input.found && !unknown.includes(true)) return null;

  const original = chunks.join(' ');
  const pastQueries = await input.pastQueries();
  const wordUse = pastWordUse(pastQueries);
  let fromVocabulary: { query: string; distance: number } | null = null;
  if (unknown.includes(true)) {
    const corrected: string[] = [];
    let distance = 0;
    for (const [index, chunk] of chunks.entries()) {
      if (!unknown[index]) {
        corrected.push(chunk);
        continue;
      }
      const best = bestTerm((answers[index] as WordVocabulary).near, wordUse);
      if (!best) {
        corrected.length = 0;
        break;
      }
      corrected.push(best.term);
      distance += best.distance;
    }
    if (corrected.length === chunks.length) fromVocabulary = { query: corrected.join(' '), distance };
  }

  const fromPast = await nearestPastQuery(original, pastQueries, input.vocabulary);
  if (fromPast && (!fromVocabulary || fromPast.distance <= fromVocabulary.distance)) {
    return { query: fromPast.query, source: 'past-query' };
  }
  if (fromVocabulary && fromVocabulary.query !== original) {
    return { query: fromVocabulary.query, source: 'vocabulary' };
  }
  return null;
}

/** The nearest term: fewest edits, then most used in past successful queries, then in most documents. */
export function bestTerm(near: readonly VocabularyTerm[], wordUse: ReadonlyMap<string, number>) {
  let best: VocabularyTerm | null = null;
  for (const candidate of near) {
    if (candidate.distance < 1) continue;
    if (!best || compareTerms(candidate, best, wordUse) < 0) best = candidate;
  }
  return best;
}

function compareTerms(a: VocabularyTerm, b: VocabularyTerm, wordUse: ReadonlyMap<string, number>): number {
  return (
    a.distance - b.distance ||
    (wordUse.get(b.term) ?? 0) - (wordUse.get(a.term) ?? 0) ||
    b.documents - a.documents ||
    (a.term < b.term ? -1 : a.term > b.term ? 1 : 0)
  );
}

/** How often each word appears in past successful queries (weighted by searches). */
export function pastWordUse(pastQueries: readonly PastQuery[]): Map<string, number> {
  const use = new Map<string, number>();
  for (const { query, searches } of pastQueries) {
    for (const word of query.split(' ')) {
      const joined = word.replaceAll('-', '');
      if (joined) use.set(joined, (use.get(joined) ?? 0) + searches);
    }
  }
  return use;
}

async function nearestPastQuery(
  original: string,
  pastQueries: readonly PastQuery[],
  vocabulary: SearchVocabulary,
): Promise<{ query: string; distance: number } | null> {
  const budget = pastQueryEditsOf(original.length);
  if (budget === 0) return null;
  const near: { query: string; distance: number; searches: number }[] = [];
  for (const { query, searches } of pastQueries) {
    if (query === original || Math.abs(query.length - original.length) > budget) continue;
    const distance = typoDistance(original, query, false);
    if (distance <= budget) near.push({ query, distance, searches });
  }
  near.sort((a, b) => a.distance - b.distance || b.searches - a.searches || (a.query < b.query ? -1 : 1));
  const candidates = near.slice(0, PAST_CANDIDATES);
  if (candidates.length === 0) return null;
  // One dictionary look-up for every candidate's words: a candidate counts only if the dictionary knows them all.
  const lookUps: VocabularyWord[] = [];
  const spans: [number, number][] = [];
  for (const candidate of candidates) {
    const words = candidate.query.split(' ').map((word) => word.replaceAll('-', ''));
    spans.push([lookUps.length, lookUps.length + words.length]);
    for (const word of words) lookUps.push({ text: word, prefix: false, maxEdits: 0, nearByPrefix: false });
  }
  const answers = await vocabulary.vocabulary(lookUps);
  for (const [index, candidate] of candidates.entries()) {
    const [from, to] = spans[index] as [number, number];
    const known = answers
      .slice(from, to)
      .every(
        (answer, at) =>
          answer.documents > 0 || answer.stopWord || !isCorrectable(lookUps[from + at]?.text ?? ''),
      );
    if (known) return candidate;
  }
  return null;
}
