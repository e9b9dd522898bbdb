// The search bench's workload: which queries, typed how, and how typo recall is judged. Shared by the synthetic
// catalog and an owner's own catalog (`--catalog FILE --queries FILE`), so both are measured the same way.

/** A deterministic random source (mulberry32): the same workload on every run and for every engine. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** One typo in `word` (never in its first letter): a substitution, deletion, insertion or swap. */
export function typo(word, random) {
  const at = 1 + Math.floor(random() * (word.length - 1));
  const letter = LETTERS[Math.floor(random() * 26)];
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, at) + letter + word.slice(at + 1);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + letter + word.slice(at);
    default:
      return at < word.length - 1 ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2) : word;
  }
}

/** Lower case, accents off, words split on anything but letters and digits: how recall reads titles and queries. */
export function plainWords(text) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * Synthetic queries drawn from the catalog's own titles (popular products far more often, Zipf-like), one to four
 * words, 15% with a typo in a word of 5+ letters, 5% matching nothing. A typo query keeps its intended spelling
 * (`intended`) for the recall figure.
 */
export function syntheticQueries(documents, count, seed = 7) {
  const random = seededRandom(seed);
  const zipf = (n) => Math.min(n - 1, Math.floor(n ** random()) - 1);
  const products = documents
    .filter((doc) => doc.kind === 'product')
    .sort((a, b) => b.sales - a.sales || a.id - b.id);
  const queries = [];
  for (let i = 0; i < count; i++) {
    const roll = random();
    if (roll < 0.05) {
      const words = Array.from(
        { length: 1 + Math.floor(random() * 2) },
        () => `zqx${LETTERS[Math.floor(random() * 26)]}vt`,
      );
      queries.push({ text: words.join(' '), intended: null });
      continue;
    }
    const words = products[zipf(products.length)].fields.title[0].toLowerCase().split(/\s+/);
    const length = Math.min(words.length, [1, 1, 1, 1, 2, 2, 2, 3, 3, 4][Math.floor(random() * 10)]);
    const from = Math.floor(random() * (words.length - length + 1));
    const chosen = words.slice(from, from + length);
    const intended = chosen.join(' ');
    if (roll < 0.2) {
      const long = chosen.findIndex((word) => word.length >= 5);
      if (long >= 0) chosen[long] = typo(chosen[long], random);
    }
    const text = chosen.join(' ');
    queries.push({ text, intended: text === intended ? null : intended });
  }
  return queries;
}

/**
 * An owner's queries (one per line, blank lines and duplicates kept: they are the traffic), plus, for the recall
 * figure, a typo'd copy of each one that has a word of 5+ letters (judged only, not timed).
 */
export function ownerQueries(lines, seed = 7) {
  const random = seededRandom(seed);
  const queries = lines
    .map((line) => line.trim())
    .filter(Boolean)
    .map((text) => ({ text, intended: null }));
  const typos = [];
  for (const { text } of queries) {
    const words = text.toLowerCase().split(/\s+/);
    const long = words.findIndex((word) => word.length >= 5);
    if (long < 0) continue;
    const changed = [...words];
    changed[long] = typo(words[long], random);
    if (changed[long] !== words[long]) typos.push({ text: changed.join(' '), intended: words.join(' ') });
  }
  return { queries, typos };
}

/** Every prefix a shopper's box sends while typing `text` key by key: from `minChars` letters, not after a space. */
export function keystrokes(text, minChars = 3) {
  const prefixes = [];
  for (let end = minChars; end <= text.length; end++)
    if (text[end - 1] !== ' ') prefixes.push(text.slice(0, end));
  return prefixes;
}

/**
 * Typo recall@10, engine-agnostic: a typo query counts when its top 10 products hold at least one product whose
 * title has every word of the intended spelling (the last as a prefix, as typed). Queries whose intended spelling
 * no title has are left out (nothing to recall). Returns the judged queries and a `judge(query, ids)` function.
 */
export function typoRecallJudge(documents, typoQueries) {
  const titles = new Map();
  for (const doc of documents) {
    if (doc.kind !== 'product') continue;
    titles.set(doc.id, plainWords((doc.fields.title ?? []).join(' ')));
  }
  const matches = (words, title) =>
    words.every((word, index) =>
      index === words.length - 1 ? title.some((each) => each.startsWith(word)) : title.includes(word),
    );
  const judged = [];
  for (const query of typoQueries) {
    const words = plainWords(query.intended);
    if (words.length === 0) continue;
    const relevant = new Set();
    for (const [id, title] of titles) if (matches(words, title)) relevant.add(id);
    if (relevant.size > 0) judged.push({ text: query.text, relevant });
  }
  return judged;
}
