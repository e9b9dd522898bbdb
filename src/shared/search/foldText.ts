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
/**
 * Runs of anything but symbols (Unicode category S). Symbols are left undecomposed: compatibility decomposition
 * would turn `™` into `TM`, `℠` into `SM`, `Ⓡ` into `R`, so "Acme™" would be indexed as the word "acmetm",
 * missed by "acme" and found by "tm". Kept as they are, they are no letters and split words like `®` and `©`
 * (which have no decomposition) always did.
 */
const NOT_SYMBOLS = /[^\p{S}]+/gu;
/**
 * Printable ASCII, tabs and line breaks: most catalog text. Nothing in it decomposes, no mark or special letter is
 * in it, so folding it is lower-casing, and its parts are runs of ASCII letters and digits (the fast paths below
 * give the same result as the general ones, in a fraction of the time an index build spends on them).
 */
const PLAIN_ASCII = /^[\t\n\r -~]*$/;

/**
 * Lower case without accents: `Crème Brûlée` → `creme brulee`. Lengths may change (ß → ss). Symbols (`™`, `®`,
 * `©`, `℃`) stay symbols, never letters: the index and the query both read them as separators.
 */
export function foldText(text: string): string {
  if (PLAIN_ASCII.test(text)) return text.toLowerCase();
  return text
    .replace(NOT_SYMBOLS, (run) => run.normalize('NFKD'))
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
  const plain = PLAIN_ASCII.test(folded);
  for (const chunk of folded.split(/[\s/|,;:!?()[\]{}<>"“”«»]+/u)) {
    const parts = chunk.split(plain ? /[^A-Za-z0-9]+/ : /[^\p{L}\p{N}]+/u).filter(Boolean);
    if (parts.length > 0) chunks.push(parts);
  }
  return chunks;
}
