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
   */
  constructor(postings: Map<string, number[]>, forwardFields = 0xff) {
    this.terms = [...postings.keys()].sort();
    this.#termIndex = new Map(this.terms.map((term, index) => [term, index]));
    this.termLengths = Uint8Array.from(this.terms, (term) => Math.min(term.length, 255));
    this.offsets = new Uint32Array(this.terms.length + 1);
    let total = 0;
    for (const [index, term] of this.terms.entries()) {
      this.offsets[index] = total;
      total += (postings.get(term)?.length ?? 0) / 2;
    }
    this.offsets[this.terms.length] = total;
    this.docs = new Int32Array(total);
    this.masks = new Uint8Array(total);
    this.termMasks = new Uint8Array(this.terms.length);
    let at = 0;
    let firstDoc = Number.POSITIVE_INFINITY;
    let lastDoc = -1;
    for (const [termId, term] of this.terms.entries()) {
      const pairs = postings.get(term) ?? [];
      for (let i = 0; i < pairs.length; i += 2) {
        const doc = pairs[i] as number;
        this.docs[at] = doc;
        this.masks[at] = pairs[i + 1] as number;
        this.termMasks[termId] = (this.termMasks[termId] as number) | (pairs[i + 1] as number);
        if (doc < firstDoc) firstDoc = doc;
        if (doc > lastDoc) lastDoc = doc;
        at++;
      }
    }
    this.firstDoc = lastDoc < 0 ? 0 : firstDoc;
    const span = lastDoc < 0 ? 0 : lastDoc - firstDoc + 1;
    this.forwardOffsets = new Uint32Array(span + 1);
    let forwardTotal = 0;
    for (let i = 0; i < total; i++) {
      if (((this.masks[i] as number) & forwardFields) === 0) continue;
      const slot = (this.docs[i] as number) - this.firstDoc + 1;
      this.forwardOffsets[slot] = (this.forwardOffsets[slot] as number) + 1;
      forwardTotal++;
    }
    for (let i = 1; i <= span; i++) {
      this.forwardOffsets[i] = (this.forwardOffsets[i] as number) + (this.forwardOffsets[i - 1] as number);
    }
    this.forwardTerms = new Int32Array(forwardTotal);
    this.forwardMasks = new Uint8Array(forwardTotal);
    const fill = this.forwardOffsets.slice(0, span);
    for (let termId = 0; termId < this.terms.length; termId++) {
      for (let i = this.offsets[termId] as number; i < (this.offsets[termId + 1] as number); i++) {
        const mask = (this.masks[i] as number) & forwardFields;
        if (mask === 0) continue;
        const slot = (this.docs[i] as number) - this.firstDoc;
        const position = fill[slot] as number;
        this.forwardTerms[position] = termId;
        this.forwardMasks[position] = mask;
        fill[slot] = position + 1;
      }
    }
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
