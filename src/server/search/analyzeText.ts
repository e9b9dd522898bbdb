import { foldText, splitChunks } from '../../shared/search/foldText';

/** Longer words are cut: nobody types more, and it bounds the typo matcher's work. */
export const MAX_TERM_LENGTH = 40;

/**
 * The index terms of a field's texts. Every part of a hyphenated or dotted chunk is a term, and so is the
 * whole chunk joined (`T-Shirt` → `t`, `shirt`, `tshirt`; `woo-hoodie-blue` → …, `woohoodieblue`), and a
 * one- or two-letter word joined to the next (`t shirt` → `tshirt`): so `t-shirt`, `tshirt` and `t shirt`
 * all meet, and a SKU is found whole or by its parts.
 */
export function analyzeText(texts: readonly string[], add: (term: string) => void): void {
  for (const text of texts) {
    const chunks = splitChunks(foldText(text));
    let previousShort: string | null = null;
    for (const parts of chunks) {
      for (const part of parts) add(part.slice(0, MAX_TERM_LENGTH));
      const joined = parts.join('');
      if (parts.length > 1) add(joined.slice(0, MAX_TERM_LENGTH));
      if (previousShort !== null) add(`${previousShort}${joined}`.slice(0, MAX_TERM_LENGTH));
      previousShort = parts.length === 1 && joined.length <= 2 ? joined : null;
    }
  }
}
