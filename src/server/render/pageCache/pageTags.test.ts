import { describe, expect, it } from 'vitest';
import type { PageChanges } from '../../db/ports';
import { ANY_CHANGE, invalidationOf } from './pageTags';

const changes = (part: Partial<PageChanges>): PageChanges => ({
  seq: 1,
  full: false,
  rules: '0',
  products: [],
  terms: [],
  vendors: [],
  posts: [],
  archiveTerms: [],
  ...part,
});
const tags = (part: Partial<PageChanges>, rulesChanged = false) => {
  const result = invalidationOf(changes(part), rulesChanged);
  return { all: result.all, tags: [...result.tags].sort() };
};

describe('what each kind of change drops', () => {
  it('a stock count or sale alone: the product page and popularity orders, no listing', () => {
    expect(tags({ products: [{ id: 5, wide: false }] })).toEqual({
      all: false,
      tags: [ANY_CHANGE, 'product:5', 'sales'],
    });
  });

  it('a listing-visible change: its page, its cards, its archives, the catalog-wide listings', () => {
    expect(tags({ products: [{ id: 5, wide: true }], archiveTerms: [3, 1] })).toEqual({
      all: false,
      tags: [ANY_CHANGE, 'catalog', 'listed:5', 'product:5', 'sales', 'term:1', 'term:3'],
    });
  });

  it('a product joining or leaving a term: that archive and the catalog-wide listings', () => {
    expect(tags({ terms: [{ id: 3, wide: false }], archiveTerms: [3] })).toEqual({
      all: false,
      tags: [ANY_CHANGE, 'catalog', 'term:3'],
    });
  });

  it('a term’s own change, a vendor, a backlog: everything', () => {
    expect(tags({ terms: [{ id: 3, wide: true }] }).all).toBe(true);
    expect(tags({ vendors: [2] }).all).toBe(true);
    expect(tags({ full: true }).all).toBe(true);
  });

  it('posts and search rules: their own pages; nothing: nothing', () => {
    expect(tags({ posts: [4] }).tags).toEqual([ANY_CHANGE, 'posts']);
    expect(tags({}, true).tags).toEqual([ANY_CHANGE, 'search']);
    expect(tags({})).toEqual({ all: false, tags: [] });
  });
});
