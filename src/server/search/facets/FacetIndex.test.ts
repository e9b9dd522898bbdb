import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FacetIndex, type FacetQuery } from './FacetIndex';
import {
  EMPTY_SELECTION,
  type FacetContext,
  type FacetProduct,
  type FacetSelection,
  type FacetVocabulary,
  STOCK_STATUSES,
} from './facetTypes';
import { priceBuckets } from './priceBuckets';

/*
 * Every count is checked against a brute-force count written the slow, obvious way: for each facet value, the base
 * products that pass every chosen filter except that facet's own, and have the value. Related products likewise:
 * every other product ranked by hand.
 */

const vocabularyArb: fc.Arbitrary<FacetVocabulary> = fc
  .record({
    categoryParents: fc.array(fc.nat(8), { minLength: 1, maxLength: 8 }),
    attributeSizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 0, maxLength: 3 }),
  })
  .map(({ categoryParents, attributeSizes }) => {
    let termId = 100;
    return {
      // A category's parent is an earlier category (or none), so the tree has no cycles.
      categories: categoryParents.map((parent, index) => ({
        id: index + 1,
        slug: `cat-${index + 1}`,
        name: `Category ${index + 1}`,
        parentId: parent < index ? parent + 1 : null,
      })),
      attributes: attributeSizes.map((size, index) => ({
        id: index + 1,
        slug: `attr${index + 1}`,
        name: `Attribute ${index + 1}`,
        terms: Array.from({ length: size }, (_, term) => {
          termId++;
          return { id: termId, slug: `v${term + 1}`, name: `Value ${term + 1}` };
        }),
      })),
    };
  });

function productArb(id: number, vocabulary: FacetVocabulary): fc.Arbitrary<FacetProduct> {
  const terms = vocabulary.attributes.flatMap((attribute) => attribute.terms.map((term) => term.id));
  return fc
    .record({
      visibility: fc.constantFrom('visible', 'catalog', 'search'),
      categories: fc.subarray(vocabulary.categories.map((category) => category.id)),
      attributeTerms: fc.subarray(terms),
      price: fc.option(fc.tuple(fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 0, max: 5_000 }))),
      stockStatus: fc.constantFrom(...STOCK_STATUSES),
      ratingAverage: fc.integer({ min: 0, max: 50 }).map((tenths) => tenths / 10),
      ratingCount: fc.nat(3),
      // Tag ids apart from the categories' (both are terms of one table).
      tags: fc.subarray([9001, 9002, 9003]),
      totalSales: fc.nat(3),
      purchasable: fc.boolean(),
    })
    .map(({ price, ...rest }) => ({
      id,
      ...rest,
      priceMin: price ? price[0] : null,
      priceMax: price ? price[0] + price[1] : null,
    }));
}

function selectionArb(vocabulary: FacetVocabulary): fc.Arbitrary<FacetSelection> {
  return fc.record({
    categories: fc.subarray(
      vocabulary.categories.map((category) => category.slug),
      {
        maxLength: Math.min(3, vocabulary.categories.length),
      },
    ),
    attributes: fc
      .tuple(
        ...vocabulary.attributes.map((attribute) =>
          fc.subarray([...attribute.terms.map((term) => term.slug), 'unknown'], { maxLength: 2 }),
        ),
      )
      .map((lists) =>
        Object.fromEntries(
          lists.flatMap((list, index) =>
            list.length ? [[vocabulary.attributes[index]?.slug ?? '', list]] : [],
          ),
        ),
      ),
    minPrice: fc.option(fc.integer({ min: 0, max: 15_000 })),
    maxPrice: fc.option(fc.integer({ min: 5_000, max: 30_000 })),
    stock: fc.subarray([...STOCK_STATUSES]),
    ratings: fc.subarray([1, 2, 3, 4, 5]),
  });
}

interface World {
  vocabulary: FacetVocabulary;
  products: FacetProduct[];
  selection: FacetSelection;
  context: FacetContext;
  base: 'all' | 'subset' | 'category';
  subset: number[];
  category: number;
}

const worldArb: fc.Arbitrary<World> = vocabularyArb.chain((vocabulary) =>
  fc.record({
    vocabulary: fc.constant(vocabulary),
    products: fc
      .integer({ min: 0, max: 40 })
      .chain((n) => fc.tuple(...Array.from({ length: n }, (_, index) => productArb(index + 1, vocabulary)))),
    selection: selectionArb(vocabulary),
    context: fc.constantFrom<FacetContext>('shop', 'search'),
    base: fc.constantFrom<World['base']>('all', 'subset', 'category'),
    subset: fc.array(fc.integer({ min: 1, max: 45 }), { maxLength: 30 }).map((ids) => [...new Set(ids)]),
    category: fc.integer({ min: 1, max: vocabulary.categories.length }),
  }),
);

/** The slow, obvious count. */
function bruteForce(world: World, minorPerMajor = 100) {
  const { vocabulary, products, selection } = world;
  const byId = new Map(products.map((product) => [product.id, product]));
  const parentOf = new Map(vocabulary.categories.map((category) => [category.id, category.parentId]));
  const slugOf = new Map(vocabulary.categories.map((category) => [category.id, category.slug]));
  const categorySlugs = (product: FacetProduct) => {
    const slugs = new Set<string>();
    for (const id of product.categories) {
      for (let at: number | null | undefined = id; at != null; at = parentOf.get(at))
        slugs.add(slugOf.get(at) ?? '');
    }
    return slugs;
  };
  const attributeSlugs = (product: FacetProduct, attribute: string) =>
    new Set(
      vocabulary.attributes
        .find((candidate) => candidate.slug === attribute)
        ?.terms.filter((term) => product.attributeTerms.includes(term.id))
        .map((term) => term.slug) ?? [],
    );
  const stars = (product: FacetProduct) =>
    product.ratingCount > 0
      ? new Set([String(Math.min(5, Math.max(1, Math.round(product.ratingAverage))))])
      : new Set();

  // Each facet: the product's values, and the chosen values (empty: no filter).
  const facetsOf = (product: FacetProduct): Record<string, Set<string>> => ({
    product_cat: categorySlugs(product),
    ...Object.fromEntries(
      vocabulary.attributes.map((attribute) => [
        `pa_${attribute.slug}`,
        attributeSlugs(product, attribute.slug),
      ]),
    ),
    stock_status: new Set([product.stockStatus]),
    rating: stars(product) as Set<string>,
  });
  const known = (key: string, values: string[]) => {
    const all = new Set<string>();
    for (const product of products) for (const value of facetsOf(product)[key] ?? []) all.add(value);
    const vocabularyValues =
      key === 'product_cat'
        ? vocabulary.categories.map((category) => category.slug)
        : key === 'stock_status'
          ? [...STOCK_STATUSES]
          : key === 'rating'
            ? ['1', '2', '3', '4', '5']
            : (vocabulary.attributes
                .find((attribute) => `pa_${attribute.slug}` === key)
                ?.terms.map((term) => term.slug) ?? []);
    return values.filter((value) => vocabularyValues.includes(value));
  };
  const chosen: Record<string, string[]> = {
    product_cat: known('product_cat', selection.categories),
    ...Object.fromEntries(
      Object.entries(selection.attributes).map(([attribute, values]) => [
        `pa_${attribute}`,
        known(`pa_${attribute}`, values),
      ]),
    ),
    stock_status: known('stock_status', selection.stock),
    rating: known('rating', selection.ratings.map(String)),
  };
  const priceChosen = selection.minPrice !== null || selection.maxPrice !== null;
  const passes = (product: FacetProduct, except: string | null) => {
    for (const [key, values] of Object.entries(chosen)) {
      if (key === except || values.length === 0) continue;
      const has = facetsOf(product)[key] ?? new Set();
      if (!values.some((value) => has.has(value))) return false;
    }
    if (except !== 'price' && priceChosen) {
      if (product.priceMin === null || product.priceMax === null) return false;
      if (selection.minPrice !== null && product.priceMax < selection.minPrice) return false;
      if (selection.maxPrice !== null && product.priceMin > selection.maxPrice) return false;
    }
    return true;
  };

  const excluded = world.context === 'shop' ? 'search' : 'catalog';
  let base: FacetProduct[];
  if (world.base === 'subset')
    base = world.subset.flatMap((id) => (byId.has(id) ? [byId.get(id) as FacetProduct] : []));
  else if (world.base === 'category')
    base = products.filter((product) => categorySlugs(product).has(`cat-${world.category}`));
  else base = products;
  base = base.filter((product) => product.visibility !== excluded);

  const count = (key: string, value: string) =>
    base.filter((product) => passes(product, key) && (facetsOf(product)[key] ?? new Set()).has(value)).length;
  const dearest = Math.max(0, ...base.map((product) => product.priceMax ?? 0));
  const priceCounts = priceBuckets(dearest, minorPerMajor).map(
    (range) =>
      base.filter(
        (product) =>
          passes(product, 'price') &&
          product.priceMin !== null &&
          product.priceMax !== null &&
          product.priceMax >= range.min &&
          product.priceMin <= range.max,
      ).length,
  );
  return {
    ids: base.filter((product) => passes(product, null)).map((product) => product.id),
    count,
    priceCounts,
  };
}

function query(world: World): FacetQuery {
  return {
    base:
      world.base === 'all' ? 'all' : world.base === 'subset' ? world.subset : { categoryId: world.category },
    context: world.context,
    selection: world.selection,
  };
}

function indexOf(world: World): FacetIndex {
  const index = new FacetIndex();
  index.setVocabulary(world.vocabulary);
  index.replaceAll(world.products);
  return index;
}

/** A product's related products the slow way: every other product's shared own categories and tags, sorted. */
function relatedByHand(
  products: readonly FacetProduct[],
  productId: number,
  limit: number,
  exclude: number[],
) {
  const product = products.find((candidate) => candidate.id === productId);
  if (!product) return null;
  const own = new Set([...product.categories, ...product.tags]);
  return products
    .filter((other) => other.id !== productId && other.purchasable && other.visibility !== 'search')
    .filter((other) => !exclude.includes(other.id))
    .map((other) => ({
      ...other,
      shared: new Set([...other.categories, ...other.tags].filter((term) => own.has(term))).size,
    }))
    .filter((other) => other.shared > 0)
    .sort((a, b) => b.shared - a.shared || b.totalSales - a.totalSales || a.id - b.id)
    .slice(0, limit)
    .map((other) => other.id);
}

function expectRelatedByHand(index: FacetIndex, products: readonly FacetProduct[]) {
  for (const product of products) {
    for (const limit of [1, 4])
      expect([product.id, limit, index.related(product.id, limit)]).toEqual([
        product.id,
        limit,
        relatedByHand(products, product.id, limit, []),
      ]);
    const exclude = products.filter((other) => other.id % 3 === 0).map((other) => other.id);
    expect(index.related(product.id, 4, exclude)).toEqual(relatedByHand(products, product.id, 4, exclude));
  }
}

function expectSameAsBruteForce(index: FacetIndex, world: World) {
  const result = index.count(query(world));
  const expected = bruteForce(world);
  const sortIfUnordered = (ids: number[]) => (world.base === 'subset' ? ids : [...ids].sort((a, b) => a - b));
  expect(sortIfUnordered(result.ids)).toEqual(sortIfUnordered(expected.ids));
  for (const facet of result.facets) {
    if (facet.key === 'price') {
      expect(facet.values.map((value) => value.count)).toEqual(expected.priceCounts);
      continue;
    }
    for (const value of facet.values)
      expect([facet.key, value.value, value.count]).toEqual([
        facet.key,
        value.value,
        expected.count(facet.key, value.value),
      ]);
  }
}

// Hundreds of random catalogs each, counted twice: slow on a busy machine, never by design.
describe('FacetIndex', () => {
  it('counts every facet value as a brute-force count does (OR within a facet, AND across, own choice ignored)', () => {
    fc.assert(
      fc.property(worldArb, (world) => {
        expectSameAsBruteForce(indexOf(world), world);
      }),
      { numRuns: 400 },
    );
  }, 120_000);

  it('ranks related products as ranking every other product by hand does', () => {
    fc.assert(
      fc.property(worldArb, (world) => {
        expectRelatedByHand(indexOf(world), world.products);
      }),
      { numRuns: 200 },
    );
  }, 120_000);

  it('after updates and removals counts as an index built from scratch on the final catalog', () => {
    fc.assert(
      fc.property(
        worldArb,
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 45 }), fc.nat()), { maxLength: 20 }),
        (world, edits) => {
          const index = indexOf(world);
          const products = new Map(world.products.map((product) => [product.id, product]));
          for (const [remove, id, seed] of edits) {
            if (remove) {
              index.update([], [id]);
              products.delete(id);
            } else {
              const [changed] = fc.sample(productArb(id, world.vocabulary), { numRuns: 1, seed });
              if (!changed) continue;
              index.update([changed], []);
              products.set(id, changed);
            }
          }
          expectSameAsBruteForce(index, { ...world, products: [...products.values()] });
          expectRelatedByHand(index, [...products.values()]);
          // A product gone, or never in the index, is ranked by the database: no answer here.
          expect(index.related(1_000, 4)).toBeNull();
          // Replaced whole (numbered anew), nothing of the documents before is left.
          index.replaceAll([...products.values()].reverse());
          expectRelatedByHand(index, [...products.values()]);
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it('keeps counting right after the vocabulary changes (a category moved under another)', () => {
    fc.assert(
      fc.property(worldArb, vocabularyArb, (world, other) => {
        const index = indexOf(world);
        const moved: FacetVocabulary = { ...world.vocabulary, categories: other.categories };
        index.setVocabulary(moved);
        expectSameAsBruteForce(index, { ...world, vocabulary: moved });
      }),
      { numRuns: 100 },
    );
  }, 120_000);

  it('names the facets and values the way a shopper reads them', () => {
    const index = new FacetIndex();
    index.setVocabulary({
      categories: [
        { id: 1, slug: 'clothing', name: 'Clothing', parentId: null },
        { id: 2, slug: 'hoodies', name: 'Hoodies', parentId: 1 },
      ],
      attributes: [{ id: 1, slug: 'color', name: 'Color', terms: [{ id: 10, slug: 'red', name: 'Red' }] }],
    });
    index.replaceAll([
      {
        id: 7,
        visibility: 'visible',
        categories: [2],
        attributeTerms: [10],
        priceMin: 4500,
        priceMax: 4500,
        stockStatus: 'instock',
        ratingAverage: 4.5,
        ratingCount: 2,
        tags: [],
        totalSales: 0,
        purchasable: true,
      },
    ]);
    const result = index.count({
      base: 'all',
      context: 'shop',
      selection: { ...EMPTY_SELECTION, attributes: { color: ['red'] } },
      hideCategories: index.categoryWithAncestors(1),
    });
    expect(result.ids).toEqual([7]);
    expect(result.facets.map((facet) => [facet.key, facet.param, facet.label])).toEqual([
      ['product_cat', 'filter_product_cat', 'Category'],
      ['pa_color', 'filter_color', 'Color'],
      ['price', 'min_price', 'Price'],
      ['stock_status', 'filter_stock_status', 'Availability'],
      ['rating', 'rating_filter', 'Rating'],
    ]);
    const values = Object.fromEntries(result.facets.map((facet) => [facet.key, facet.values]));
    expect(values.product_cat).toEqual([
      { value: 'hoodies', label: 'Hoodies', count: 1, selected: false, depth: 1 },
    ]);
    expect(values.pa_color).toEqual([{ value: 'red', label: 'Red', count: 1, selected: true }]);
    // 4.5 stars rounds to 5, as WooCommerce's rating filter does.
    expect(values.rating?.find((value) => value.value === '5')?.count).toBe(1);
    expect(values.price?.map((value) => [value.min, value.max, value.count])).toEqual([
      [0, 999, 0],
      [1000, 1999, 0],
      [2000, 2999, 0],
      [3000, 3999, 0],
      [4000, 4999, 1],
    ]);
  });
});
