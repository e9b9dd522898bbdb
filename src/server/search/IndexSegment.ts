/**
 * An immutable inverted index over some documents: a sorted term dictionary (binary search gives every term
 * with a prefix; the typo matcher walks it in order) and, per term, the documents holding it with a bit mask of
 * the fields it appears in. Plain typed arrays keep 100,000 products in a few tens of megabytes and make the
 * posting loops cheap.
 */
export class IndexSegment {
  readonly terms: string[];
  readonly #termIndex: Map<string, number>;
  /** Postings of term i are docs[offsets[i]] … docs[offsets[i + 1] - 1]. */
  readonly offsets: Uint32Array;
  readonly docs: Int32Array;
  readonly masks: Uint8Array;

  /** `postings` maps each term to interleaved pairs of document number and field mask. */
  constructor(postings: Map<string, number[]>) {
    this.terms = [...postings.keys()].sort();
    this.#termIndex = new Map(this.terms.map((term, index) => [term, index]));
    this.offsets = new Uint32Array(this.terms.length + 1);
    let total = 0;
    for (const [index, term] of this.terms.entries()) {
      this.offsets[index] = total;
      total += (postings.get(term)?.length ?? 0) / 2;
    }
    this.offsets[this.terms.length] = total;
    this.docs = new Int32Array(total);
    this.masks = new Uint8Array(total);
    let at = 0;
    for (const term of this.terms) {
      const pairs = postings.get(term) ?? [];
      for (let i = 0; i < pairs.length; i += 2) {
        this.docs[at] = pairs[i] as number;
        this.masks[at] = pairs[i + 1] as number;
        at++;
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
