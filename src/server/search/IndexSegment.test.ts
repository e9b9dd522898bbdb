import { describe, expect, it } from 'vitest';
import { IndexSegment } from './IndexSegment';

/** A segment's arrays and dictionary, for comparing two builds. */
function contents(segment: IndexSegment) {
  return {
    terms: segment.terms,
    termLengths: [...segment.termLengths],
    offsets: [...segment.offsets],
    docs: [...segment.docs],
    masks: [...segment.masks],
    termMasks: [...segment.termMasks],
    firstDoc: segment.firstDoc,
    forwardOffsets: [...segment.forwardOffsets],
    forwardTerms: [...segment.forwardTerms],
    forwardMasks: [...segment.forwardMasks],
    ids: segment.terms.map((term) => segment.termId(term)),
  };
}

/** Runs a sliced build to its end: the segment, and how many times it yielded. */
function runSlices(steps: Generator<void, IndexSegment>): { slices: number; segment: IndexSegment } {
  let slices = 0;
  let next = steps.next();
  while (!next.done) {
    slices++;
    next = steps.next();
  }
  return { slices, segment: next.value };
}

describe('IndexSegment.building: the same segment, in slices', () => {
  const postings = new Map<string, number[]>();
  const words = ['shirt', 'shoe', 'linen', 'oak', 'sh', 'mug', 'wool', 'a', 'zebra', 'blue'];
  for (let doc = 3; doc < 400; doc++) {
    for (const [index, word] of words.entries()) {
      if ((doc * (index + 3)) % 7 < 3) {
        const list = postings.get(word) ?? [];
        list.push(doc, 1 << (doc % 5));
        postings.set(word, list);
      }
    }
    postings.set(`model${doc}`, [doc, 2]);
  }

  it('yields between slices and builds what the constructor builds', () => {
    const whole = new IndexSegment(postings, 0b111);
    const { slices, segment } = runSlices(IndexSegment.building(postings, 0b111, 50));
    expect(slices).toBeGreaterThan(10);
    expect(contents(segment)).toEqual(contents(whole));
    expect(segment.prefixRange('sh')).toEqual(whole.prefixRange('sh'));
  });

  it('an empty segment', () => {
    const { segment } = runSlices(IndexSegment.building(new Map(), 0xff, 10));
    expect(contents(segment)).toEqual(contents(new IndexSegment(new Map())));
  });
});

describe('IndexSegment.merging: kept postings renumbered, merged with new ones', () => {
  // Base documents 0-199; the odd ones are gone, the even ones become 0-99; new documents 100-149 interleave terms.
  const basePostings = new Map<string, number[]>();
  const added = new Map<string, number[]>();
  const combined = new Map<string, number[]>();
  const push = (map: Map<string, number[]>, term: string, doc: number, mask: number) => {
    const list = map.get(term) ?? [];
    list.push(doc, mask);
    map.set(term, list);
  };
  const renumbered = new Int32Array(200).fill(-1);
  for (let doc = 0; doc < 200; doc++) {
    // "odd" only ever held removed documents: it leaves the dictionary.
    const terms = doc % 2 === 0 ? ['shared', `base${doc % 7}`] : ['shared', 'odd', `base${doc % 7}`];
    for (const term of terms) push(basePostings, term, doc, 1 << (doc % 3));
    if (doc % 2 === 0) {
      renumbered[doc] = doc / 2;
      for (const term of terms) push(combined, term, doc / 2, 1 << (doc % 3));
    }
  }
  for (let doc = 100; doc < 150; doc++) {
    for (const term of ['shared', `new${doc % 5}`, `base${doc % 4}`]) {
      push(added, term, doc, 2);
      push(combined, term, doc, 2);
    }
  }
  // The constructor wants each term's postings in document order.
  for (const list of combined.values()) {
    const pairs: [number, number][] = [];
    for (let i = 0; i < list.length; i += 2) pairs.push([list[i] as number, list[i + 1] as number]);
    pairs.sort((a, b) => a[0] - b[0]);
    list.splice(0, list.length, ...pairs.flat());
  }

  it('builds what the constructor builds from the combined postings, in slices', () => {
    const base = new IndexSegment(basePostings, 0b011);
    const { slices, segment } = runSlices(IndexSegment.merging(base, renumbered, added, 0b011, 40));
    expect(slices).toBeGreaterThan(10);
    expect(contents(segment)).toEqual(contents(new IndexSegment(combined, 0b011)));
    expect(segment.termId('odd')).toBe(-1);
  });

  it('an empty base takes the new postings as they are', () => {
    const empty = new IndexSegment(new Map());
    const { segment } = runSlices(IndexSegment.merging(empty, new Int32Array(0), added, 0xff, Infinity));
    expect(contents(segment)).toEqual(contents(new IndexSegment(added)));
  });
});
