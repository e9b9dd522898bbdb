import type { SearchDocument } from '../src/server/search/SearchIndex';

/** A product's search document with a title, as the index reads it; `extra` overrides any field (tests). */
export function productDocument(
  id: number,
  title: string,
  extra: Partial<SearchDocument> = {},
): SearchDocument {
  return {
    key: `product__${id}`,
    kind: 'product',
    id,
    parentId: null,
    taxonomy: null,
    postType: null,
    fields: { title: [title] },
    featured: false,
    inStock: true,
    sales: 0,
    ...extra,
  };
}
