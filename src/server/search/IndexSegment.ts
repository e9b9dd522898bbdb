/**
 * An immutable inverted index over some documents: a sorted term dictionary (binary search gives every term
 * with a prefix; the typo matcher walks it in order) and, per term, the documents holding it with a bit mask of
 * the fields it appears in. Plain typed arrays keep 100,000 products in a few tens of megabytes and make the
 * posting loops cheap.
 */
export class IndexSegment {
  readonly terms: string[];
  /** Term lengths apart from the strings: the prefix score needs them in hot loops, without a pointer chase. */
  readonly termLengths: Uint8Array;
  readonly #termIndex: Map<string, number>;
  /** Postings of term i are docs[offsets[i]] … docs[offsets[i + 1] - 1]. */
  readonly offsets: Uint32Array;
  readonly docs: Int32Array;
  readonly masks: Uint8Array;
  /** Per term, every field it appears in (the OR of its postings' masks): the best score a term can give. */
  readonly termMasks: Uint8Array;
  /**
   * The forward index: the term ids of document d are forwardTerms[forwardOffsets[d - firstDoc]] … up to the
   * next offset. When a few candidates remain and the next word has a huge posting volume (a one-letter
   * prefix), checking the candidates' own terms is far cheaper than walking those postings. Each document's
   * terms are in term id order (dictionary order): a prefix range is found among them by a binary search.
   */
  readonly firstDoc: number;
  readonly forwardOffsets: Uint32Array;
  readonly forwardTerms: Int32Array;
  readonly forwardMasks: Uint8Array;

  /**
   * `postings` maps each term to interleaved pairs of document number and field mask; the forward index keeps
   * only the fields of `forwardFields` (a bit mask): the short fields, where a one- or two-letter prefix counts.
   * Built in one go; `IndexSegment.building` builds the same in slices.
   */
  constructor(postings: Map<string, number[]> | SegmentParts, forwardFields = 0xff) {
    const parts =
      postings instanceof Map ? runToEnd(segmentParts(postings, forwardFields, Infinity)) : postings;
    this.terms = parts.terms;
    this.#termIndex = parts.termIndex;
    this.termLengths = parts.termLengths;
    this.offsets = parts.offsets;
    this.docs = parts.docs;
    this.masks = parts.masks;
    this.termMasks = parts.termMasks;
    this.firstDoc = parts.firstDoc;
    this.forwardOffsets = parts.forwardOffsets;
    this.forwardTerms = parts.forwardTerms;
    this.forwardMasks = parts.forwardMasks;
  }

  /**
   * The constructor's build, yielding after about `step` units of work (a term or a posting each): an index built
   * beside the answering one lets searches run between the slices (a 100,000-posting segment is ~100 ms in one go).
   */
  static *building(
    postings: Map<string, number[]>,
    forwardFields: number,
    step: number,
  ): Generator<void, IndexSegment> {
    return new IndexSegment(yield* segmentParts(postings, forwardFields, step));
  }

  /**
   * The segment a build of `base`'s kept postings plus `added` would give, without going through a map of every
   * term: `renumbered[d]` is base document d's new number (-1 when it is gone, and increasing over the kept ones),
   * and `added` holds the other documents' postings as the constructor takes them. The two dictionaries are merged
   * in order and the postings written straight into the new arrays, so a merge into a large index copies each kept
   * posting once and allocates no list per term. Yields after about `step` units of work.
   */
  static *merging(
    base: IndexSegment,
    renumbered: Int32Array,
    added: Map<string, number[]>,
    forwardFields: number,
    step: number,
  ): Generator<void, IndexSegment> {
    return new IndexSegment(yield* mergedParts(base, renumbered, added, forwardFields, step));
  }

  termId(term: string): number {
    return this.#termIndex.get(term) ?? -1;
  }

  postingCount(termId: number): number {
    return (this.offsets[termId + 1] as number) - (this.offsets[termId] as number);
  }

  /** The index of the first term that is not less than `value`. */
  lowerBound(value: string, from = 0): number {
    let low = from;
    let high = this.terms.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.terms[middle] as string) < value) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Term ids whose term starts with `prefix`: one contiguous range of the sorted dictionary. */
  prefixRange(prefix: string): [number, number] {
    return [this.lowerBound(prefix), this.lowerBound(`${prefix}\uffff`)];
  }
}

/** What a segment is made of, computed by `segmentParts`. */
interface SegmentParts {
  terms: string[];
  termIndex: Map<string, number>;
  termLengths: Uint8Array;
  offsets: Uint32Array;
  docs: Int32Array;
  masks: Uint8Array;
  termMasks: Uint8Array;
  firstDoc: number;
  forwardOffsets: Uint32Array;
  forwardTerms: Int32Array;
  forwardMasks: Uint8Array;
}

function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** The segment's arrays from its postings, yielding after every `step` units of work (a term or a posting). */
function* segmentParts(
  postings: Map<string, number[]>,
  forwardFields: number,
  step: number,
): Generator<void, SegmentParts> {
  const spent = workCounter(step);
  // Sorting the whole dictionary (tens of thousands of terms) is a step of its own: the slice before it is spent.
  if (step !== Number.POSITIVE_INFINITY && spent(step)) yield;
  const terms = [...postings.keys()].sort();
  if (spent(terms.length)) yield;
  const termIndex = new Map<string, number>();
  const termLengths = new Uint8Array(terms.length);
  const offsets = new Uint32Array(terms.length + 1);
  let total = 0;
  for (const [index, term] of terms.entries()) {
    termIndex.set(term, index);
    termLengths[index] = Math.min(term.length, 255);
    offsets[index] = total;
    total += (postings.get(term)?.length ?? 0) / 2;
    if (spent(1)) yield;
  }
  offsets[terms.length] = total;
  const docs = new Int32Array(total);
  const masks = new Uint8Array(total);
  const termMasks = new Uint8Array(terms.length);
  let at = 0;
  let firstDoc = Number.POSITIVE_INFINITY;
  let lastDoc = -1;
  for (const [termId, term] of terms.entries()) {
    const pairs = postings.get(term) ?? [];
    for (let i = 0; i < pairs.length; i += 2) {
      const doc = pairs[i] as number;
      docs[at] = doc;
      masks[at] = pairs[i + 1] as number;
      termMasks[termId] = (termMasks[termId] as number) | (pairs[i + 1] as number);
      if (doc < firstDoc) firstDoc = doc;
      if (doc > lastDoc) lastDoc = doc;
      at++;
    }
    if (spent(1 + pairs.length / 2)) yield;
  }
  const forward = yield* forwardIndex(
    terms.length,
    offsets,
    docs,
    masks,
    firstDoc,
    lastDoc,
    forwardFields,
    spent,
  );
  return { terms, termIndex, termLengths, offsets, docs, masks, termMasks, ...forward };
}

/** IndexSegment.merging's arrays: the two sorted dictionaries and each term's two posting lists merged in order. */
function* mergedParts(
  base: IndexSegment,
  renumbered: Int32Array,
  added: Map<string, number[]>,
  forwardFields: number,
  step: number,
): Generator<void, SegmentParts> {
  const spent = workCounter(step);
  if (step !== Number.POSITIVE_INFINITY && spent(step)) yield;
  const addedTerms = [...added.keys()].sort();
  if (spent(addedTerms.length)) yield;
  let capacity = base.docs.length;
  for (const pairs of added.values()) capacity += pairs.length / 2;
  const termCapacity = base.terms.length + addedTerms.length;
  const terms: string[] = [];
  const offsets = new Uint32Array(termCapacity + 1);
  const termMasks = new Uint8Array(termCapacity);
  // Sized for every posting; those of documents gone are left unused at the end.
  const docs = new Int32Array(capacity);
  const masks = new Uint8Array(capacity);
  const { docs: baseDocs, masks: baseMasks, offsets: baseOffsets } = base;
  let at = 0;
  let firstDoc = Number.POSITIVE_INFINITY;
  let lastDoc = -1;
  let baseTerm = 0;
  let addedTerm = 0;
  while (baseTerm < base.terms.length || addedTerm < addedTerms.length) {
    const fromBase = base.terms[baseTerm];
    const fromAdded = addedTerms[addedTerm];
    const term = (
      fromAdded === undefined || (fromBase !== undefined && fromBase < fromAdded) ? fromBase : fromAdded
    ) as string;
    let begin = 0;
    let end = 0;
    if (term === fromBase) {
      begin = baseOffsets[baseTerm] as number;
      end = baseOffsets[baseTerm + 1] as number;
      baseTerm++;
    }
    const pairs = term === fromAdded ? (added.get(term) as number[]) : EMPTY;
    if (term === fromAdded) addedTerm++;
    const start = at;
    let mask = 0;
    let i = begin;
    let j = 0;
    // Both lists are in document order (kept documents keep their order when renumbered).
    for (;;) {
      while (i < end && (renumbered[baseDocs[i] as number] as number) < 0) i++;
      const kept = i < end ? (renumbered[baseDocs[i] as number] as number) : -1;
      const next = j < pairs.length ? (pairs[j] as number) : -1;
      if (kept < 0 && next < 0) break;
      if (next < 0 || (kept >= 0 && kept < next)) {
        docs[at] = kept;
        masks[at] = baseMasks[i] as number;
        i++;
      } else {
        docs[at] = next;
        masks[at] = pairs[j + 1] as number;
        j += 2;
      }
      mask |= masks[at] as number;
      at++;
    }
    if (at > start) {
      offsets[terms.length] = start;
      termMasks[terms.length] = mask;
      terms.push(term);
      if ((docs[start] as number) < firstDoc) firstDoc = docs[start] as number;
      if ((docs[at - 1] as number) > lastDoc) lastDoc = docs[at - 1] as number;
    }
    if (spent(1 + end - begin + pairs.length / 2)) yield;
  }
  offsets[terms.length] = at;
  const termIndex = new Map<string, number>();
  const termLengths = new Uint8Array(terms.length);
  for (const [index, term] of terms.entries()) {
    termIndex.set(term, index);
    termLengths[index] = Math.min(term.length, 255);
    if (spent(1)) yield;
  }
  const used = {
    offsets: offsets.subarray(0, terms.length + 1),
    docs: docs.subarray(0, at),
    masks: masks.subarray(0, at),
  };
  const forward = yield* forwardIndex(
    terms.length,
    used.offsets,
    used.docs,
    used.masks,
    firstDoc,
    lastDoc,
    forwardFields,
    spent,
  );
  return {
    terms,
    termIndex,
    termLengths,
    ...used,
    termMasks: termMasks.subarray(0, terms.length),
    ...forward,
  };
}

const EMPTY: readonly number[] = [];

/** Counts units of work; true when a slice of `step` is full (the caller yields). */
function workCounter(step: number): (units: number) => boolean {
  let work = 0;
  return (units) => {
    work += units;
    if (work < step) return false;
    work = 0;
    return true;
  };
}

/** The forward index (see IndexSegment.forwardTerms) of postings whose documents run from firstDoc to lastDoc. */
function* forwardIndex(
  termCount: number,
  offsets: Uint32Array,
  docs: Int32Array,
  masks: Uint8Array,
  lowestDoc: number,
  lastDoc: number,
  forwardFields: number,
  spent: (units: number) => boolean,
): Generator<void, Pick<SegmentParts, 'firstDoc' | 'forwardOffsets' | 'forwardTerms' | 'forwardMasks'>> {
  const total = offsets[termCount] as number;
  const firstDoc = lastDoc < 0 ? 0 : lowestDoc;
  const span = lastDoc < 0 ? 0 : lastDoc - firstDoc + 1;
  const forwardOffsets = new Uint32Array(span + 1);
  let forwardTotal = 0;
  for (let i = 0; i < total; i++) {
    if ((i & 4095) === 4095 && spent(4096)) yield;
    if (((masks[i] as number) & forwardFields) === 0) continue;
    const slot = (docs[i] as number) - firstDoc + 1;
    forwardOffsets[slot] = (forwardOffsets[slot] as number) + 1;
    forwardTotal++;
  }
  for (let i = 1; i <= span; i++) {
    forwardOffsets[i] = (forwardOffsets[i] as number) + (forwardOffsets[i - 1] as number);
  }
  const forwardTerms = new Int32Array(forwardTotal);
  const forwardMasks = new Uint8Array(forwardTotal);
  const fill = forwardOffsets.slice(0, span);
  for (let termId = 0; termId < termCount; termId++) {
    const end = offsets[termId + 1] as number;
    for (let i = offsets[termId] as number; i < end; i++) {
      const mask = (masks[i] as number) & forwardFields;
      if (mask === 0) continue;
      const slot = (docs[i] as number) - firstDoc;
      const position = fill[slot] as number;
      forwardTerms[position] = termId;
      forwardMasks[position] = mask;
      fill[slot] = position + 1;
    }
    if (spent(1 + end - (offsets[termId] as number))) yield;
  }
  return { firstDoc, forwardOffsets, forwardTerms, forwardMasks };
}
