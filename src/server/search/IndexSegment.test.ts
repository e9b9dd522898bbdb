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
    const steps = IndexSegment.building(postings, 0b111, 50);
    let slices = 0;
    let next = steps.next();
    while (!next.done) {
      slices++;
      next = steps.next();
    }
    expect(slices).toBeGreaterThan(10);
    expect(contents(next.value)).toEqual(contents(whole));
    expect(next.value.prefixRange('sh')).toEqual(whole.prefixRange('sh'));
  });

  it('an empty segment', () => {
    const steps = IndexSegment.building(new Map(), 0xff, 10);
    let next = steps.next();
    while (!next.done) next = steps.next();
    expect(contents(next.value)).toEqual(contents(new IndexSegment(new Map())));
  });
});
