import type { VocabularyTerm, VocabularyWord, WordVocabulary } from './didYouMean';
import type { IndexSegment } from './IndexSegment';
import { scanTypos } from './scanTypos';

/**
 * The embedded index's answer to `SearchIndex.vocabulary` (did you mean): per word, the documents it reaches as
 * typed in all segments (exact term, synonyms, and completions for the word being typed) and the terms within
 * its edit budget, found by the same dictionary walk as typos (`scanTypos`). Counts include documents replaced
 * since the last full rebuild (the base keeps them tombstoned): they only order candidates.
 */
export function segmentVocabulary(
  segments: readonly IndexSegment[],
  words: readonly VocabularyWord[],
  stopWords: ReadonlySet<string>,
  synonyms: ReadonlyMap<string, readonly string[]>,
): WordVocabulary[] {
  return words.map((word) => {
    let documents = 0;
    const near = new Map<string, VocabularyTerm>();
    for (const segment of segments) {
      if (segment.terms.length === 0) continue;
      for (const term of [word.text, ...(synonyms.get(word.text) ?? [])]) {
        const termId = segment.termId(term);
        if (termId >= 0) documents += segment.postingCount(termId);
      }
      if (word.prefix) {
        const [from, to] = segment.prefixRange(word.text);
        documents += (segment.offsets[to] as number) - (segment.offsets[from] as number);
        const exact = segment.termId(word.text);
        if (exact >= 0) documents -= segment.postingCount(exact);
      }
    }
    // Near terms only for a word the dictionary does not know: the only words a correction changes.
    if (documents === 0 && word.maxEdits > 0) {
      for (const segment of segments) {
        if (segment.terms.length === 0) continue;
        scanTypos(segment, word.text, word.maxEdits, word.nearByPrefix, (termId, distance) => {
          if (distance === 0) return;
          const term = segment.terms[termId] as string;
          if (looksJoined(segments, term)) return;
          const known = near.get(term);
          const count = segment.postingCount(termId);
          if (known)
            near.set(term, {
              ...known,
              distance: Math.min(known.distance, distance),
              documents: known.documents + count,
            });
          else near.set(term, { term, distance, documents: count });
        });
      }
    }
    return { documents, stopWord: stopWords.has(word.text), near: [...near.values()] };
  });
}

/**
 * Whether `term` may be only the index's joining of a one- or two-letter word to the next ("an oak" → `anoak`,
 * kept so that "t shirt" finds "tshirt"): both halves are terms. Such a term is no word to offer as a correction
 * ("anorak" → "anoak"); a real word that happens to split so ("is" + "land") is given up with it, as a correction
 * only ever offers less.
 */
export function looksJoined(segments: readonly IndexSegment[], term: string): boolean {
  const known = (text: string) =>
    segments.some((segment) => segment.terms.length > 0 && segment.termId(text) >= 0);
  for (let cut = 1; cut <= 2; cut++) {
    if (term.length >= cut + 3 && known(term.slice(0, cut)) && known(term.slice(cut))) return true;
  }
  return false;
}
