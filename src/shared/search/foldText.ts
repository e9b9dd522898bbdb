/*
 * Accent and case folding shared by the search index (server) and the highlighting of matched text (browser):
 * both sides must agree on what "the same letters" means, or <mark> would wrap text the engine did not match.
 */

// Letters that Unicode decomposition leaves alone but shoppers type as plain Latin letters.
const SPECIAL_LETTERS: Record<string, string> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
};
const SPECIAL_PATTERN = /[ßæœøłđðþı]/g;
const COMBINING_MARKS = /\p{M}+/gu;

/** Lower case without accents: `Crème Brûlée` → `creme brulee`. Lengths may change (ß → ss). */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase()
    .replace(SPECIAL_PATTERN, (letter) => SPECIAL_LETTERS[letter] ?? letter);
}

/**
 * Splits folded text into chunks (runs without spaces) and each chunk into its letter-and-digit parts:
 * `T-Shirt (organic)` → `[['t', 'shirt'], ['organic']]`. Hyphens and other punctuation join parts of one chunk,
 * which is what lets `t-shirt`, `tshirt` and `t shirt` meet (see analyzeText on the server).
 */
export function splitChunks(folded: string): string[][] {
  const chunks: string[][] = [];
  for (const chunk of folded.split(/[\s/|,;:!?()[\]{}<>"“”«»]+/u)) {
    const parts = chunk.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
    if (parts.length > 0) chunks.push(parts);
  }
  return chunks;
}
