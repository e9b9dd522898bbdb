import { Bitset } from './Bitset';
import {
  type FacetContext,
  type FacetCounts,
  type FacetProduct,
  type FacetResult,
  type FacetSelection,
  type FacetValueCount,
  type FacetVocabulary,
  STOCK_STATUSES,
  type StockStatus,
} from './facetTypes';
import { type PriceRange, priceBuckets } from './priceBuckets';

/*
 * Facet counts from memory. Every facet value (a category, an attribute term, a stock status, a star rating) gets a
 * "code" and a bitset of the products that have it; each product keeps its list of codes. A count is one pass over
 * the base products (the search's matches, a category's members, or the whole shop): a product that fails no chosen
 * filter counts toward every facet's values; a product that fails exactly one facet's choice counts toward that
 * facet's values only (a facet's counts ignore its own choice: OR within a facet, AND across facets); a product
 * failing two or more counts nowhere. Price ranges are counted in the same pass from each product's price range.
 *
 * The same records rank a product's related products (`related`): each product's own categories and tags are kept
 * as sets of documents by term, so the products sharing them, and how many each shares, are a walk of those sets.
 */

const STARS = [5, 4, 3, 2, 1] as const;

interface FacetDefinition {
  key: string;
  param: string;
  label: string;
  /** Codes of this facet's values, in display order. */
  codes: number[];
}

interface CodeInfo {
  facet: number;
  value: string;
  label: string;
  depth?: number;
  /** A category's own id: the category page hides itself and its ancestors. */
  categoryId?: number;
}

export interface FacetQuery {
  /** Product ids in their order (search results), or a category's members (with descendants), or every product. */
  base: readonly number[] | { categoryId: number } | 'all';
  context: FacetContext;
  selection: FacetSelection;
  /** Category ids not to offer (the category page's own category and its ancestors). */
  hideCategories?: ReadonlySet<number>;
  /** Minor units per major unit of the shop's currency (100 for cents): price ranges are round in major units. */
  minorPerMajor?: number;
}

export class FacetIndex {
  #records: (FacetProduct | undefined)[] = [];
  #docByProduct = new Map<number, number>();
  // What the counting pass reads of each document, in columns: no object to chase per product.
  #columns = newColumns(1024);
  /** Document number + 1 by product id (0: none), for ids small enough to index an array by. */
  #docOfId = new Int32Array(1024);
  #free: number[] = [];
  #docCodes: Uint32Array[] = [];
  /** Bitset of the documents having each code. */
  #postings: Bitset[] = [];
  #codes: CodeInfo[] = [];
  #facets: FacetDefinition[] = [];
  /** Per facet key, value → code. */
  #codeOf = new Map<string, Map<string, number>>();
  #categoryCode = new Map<number, number>();
  #attributeTermCode = new Map<number, number>();
  #categoryAncestors = new Map<number, number[]>();
  #stockCode = new Map<StockStatus, number>();
  #starCode = new Map<number, number>();
  #live = new Bitset();
  /** The documents having each category or tag as their own (not through a subcategory): what related products share. */
  #termDocs = new Map<number, Set<number>>();
  /** Per document, how many terms it shares with the product being ranked (zero between two calls). */
  #shared = new Uint16Array(1024);

  get size(): number {
    return this.#docByProduct.size;
  }

  /** Names and hierarchy of the values; re-derives every product's codes (in memory, no reads). */
  setVocabulary(vocabulary: FacetVocabulary): void {
    this.#codes = [];
    this.#facets = [];
    this.#codeOf = new Map();
    this.#categoryCode = new Map();
    this.#attributeTermCode = new Map();
    this.#stockCode = new Map();
    this.#starCode = new Map();
    const addFacet = (key: string, param: string, label: string) => {
      this.#facets.push({ key, param, label, codes: [] });
      this.#codeOf.set(key, new Map());
      return this.#facets.length - 1;
    };
    const addCode = (facet: number, info: Omit<CodeInfo, 'facet'>) => {
      const code = this.#codes.length;
      this.#codes.push({ facet, ...info });
      this.#facets[facet]?.codes.push(code);
      this.#codeOf.get(this.#facets[facet]?.key ?? '')?.set(info.value, code);
      return code;
    };

    const categoryFacet = addFacet('product_cat', 'filter_product_cat', 'Category');
    const children = new Map<number | null, typeof vocabulary.categories>();
    const known = new Set(vocabulary.categories.map((category) => category.id));
    for (const category of vocabulary.categories) {
      const parent = category.parentId !== null && known.has(category.parentId) ? category.parentId : null;
      children.set(parent, [...(children.get(parent) ?? []), category]);
    }
    // Parents before their children, siblings by name: the list reads as a tree.
    const walk = (parent: number | null, depth: number, ancestors: number[]) => {
      const list = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name));
      for (const category of list) {
        if (ancestors.includes(category.id)) continue; // a cycle in bad data
        this.#categoryCode.set(
          category.id,
          addCode(categoryFacet, {
            value: category.slug,
            label: category.name,
            depth,
            categoryId: category.id,
          }),
        );
        this.#categoryAncestors.set(category.id, ancestors);
        walk(category.id, depth + 1, [...ancestors, category.id]);
      }
    };
    this.#categoryAncestors = new Map();
    walk(null, 0, []);

    for (const attribute of vocabulary.attributes) {
      const facet = addFacet(`pa_${attribute.slug}`, `filter_${attribute.slug}`, attribute.name);
      for (const term of attribute.terms) {
        this.#attributeTermCode.set(term.id, addCode(facet, { value: term.slug, label: term.name }));
      }
    }
    // Price ranges are counted per request; the facet keeps its place in the order.
    addFacet('price', 'min_price', 'Price');
    const stockFacet = addFacet('stock_status', 'filter_stock_status', 'Availability');
    const stockLabels: Record<StockStatus, string> = {
      instock: 'In stock',
      onbackorder: 'On backorder',
      outofstock: 'Out of stock',
    };
    for (const status of STOCK_STATUSES) {
      this.#stockCode.set(status, addCode(stockFacet, { value: status, label: stockLabels[status] }));
    }
    const ratingFacet = addFacet('rating', 'rating_filter', 'Rating');
    for (const stars of STARS) {
      this.#starCode.set(
        stars,
        addCode(ratingFacet, {
          value: String(stars),
          label: stars === 1 ? 'Rated 1 out of 5' : `Rated ${stars} out of 5`,
        }),
      );
    }

    this.#postings = this.#codes.map(() => new Bitset());
    for (let doc = 0; doc < this.#records.length; doc++) {
      const record = this.#records[doc];
      if (record) this.#index(doc, record);
    }
  }

  /** Replaces every product (a rebuild). */
  replaceAll(products: Iterable<FacetProduct>): void {
    this.#records = [];
    this.#docByProduct = new Map();
    this.#columns = newColumns(1024);
    this.#docOfId = new Int32Array(1024);
    this.#free = [];
    this.#docCodes = [];
    this.#live = new Bitset();
    this.#termDocs = new Map();
    this.#postings = this.#codes.map(() => new Bitset());
    for (const product of products) this.#add(product);
  }

  /** Adds or replaces these products and removes the listed ids: after a catalog write. */
  update(upserts: readonly FacetProduct[], removedIds: readonly number[]): void {
    for (const id of removedIds) this.#remove(id);
    for (const product of upserts) {
      this.#remove(product.id);
      this.#add(product);
    }
  }

  #add(product: FacetProduct): void {
    const doc = this.#free.pop() ?? this.#records.length;
    this.#records[doc] = product;
    this.#docByProduct.set(product.id, doc);
    if (doc >= this.#columns.id.length) this.#columns = growColumns(this.#columns, doc + 1);
    const columns = this.#columns;
    columns.id[doc] = product.id;
    columns.visibility[doc] = VISIBILITY_CODE[product.visibility];
    columns.priceMin[doc] = product.priceMin ?? Number.NaN;
    columns.priceMax[doc] = product.priceMax ?? Number.NaN;
    columns.showsRelated[doc] = product.purchasable && product.visibility !== 'search' ? 1 : 0;
    columns.sales[doc] = product.totalSales;
    if (product.id < MAX_INDEXED_ID) {
      if (product.id >= this.#docOfId.length) {
        const grown = new Int32Array(Math.max(product.id + 1, this.#docOfId.length * 2));
        grown.set(this.#docOfId);
        this.#docOfId = grown;
      }
      this.#docOfId[product.id] = doc + 1;
    }
    this.#index(doc, product);
  }

  #remove(id: number): void {
    const doc = this.#docByProduct.get(id);
    if (doc === undefined) return;
    for (const code of this.#docCodes[doc] ?? []) this.#postings[code]?.clear(doc);
    const record = this.#records[doc];
    if (record) for (const term of ownTerms(record)) this.#termDocs.get(term)?.delete(doc);
    this.#live.clear(doc);
    this.#records[doc] = undefined;
    this.#columns.visibility[doc] = 0;
    this.#columns.showsRelated[doc] = 0;
    if (id < this.#docOfId.length) this.#docOfId[id] = 0;
    this.#docCodes[doc] = new Uint32Array(0);
    this.#docByProduct.delete(id);
    this.#free.push(doc);
  }

  #index(doc: number, product: FacetProduct): void {
    const codes = new Set<number>();
    for (const category of product.categories) {
      const code = this.#categoryCode.get(category);
      if (code === undefined) continue;
      codes.add(code);
      for (const ancestor of this.#categoryAncestors.get(category) ?? []) {
        const ancestorCode = this.#categoryCode.get(ancestor);
        if (ancestorCode !== undefined) codes.add(ancestorCode);
      }
    }
    for (const term of product.attributeTerms) {
      const code = this.#attributeTermCode.get(term);
      if (code !== undefined) codes.add(code);
    }
    const stock = this.#stockCode.get(product.stockStatus);
    if (stock !== undefined) codes.add(stock);
    if (product.ratingCount > 0) {
      const star = this.#starCode.get(roundedRating(product.ratingAverage));
      if (star !== undefined) codes.add(star);
    }
    const list = Uint32Array.from(codes);
    this.#docCodes[doc] = list;
    for (const code of list) this.#postings[code]?.set(doc);
    this.#live.set(doc);
    for (const term of ownTerms(product)) {
      const docs = this.#termDocs.get(term);
      if (docs) docs.add(doc);
      else this.#termDocs.set(term, new Set([doc]));
    }
  }

  /**
   * Up to `limit` related products of `productId`, as merchandisingSql's relatedProductIds ranks them: those sharing
   * one of its own categories or tags, the most shared first, then the best sold, then by id; only those a shopper
   * may be shown (listed in the shop, purchasable), never the product itself or one of `exclude`. Null when the
   * product is not in the index (not published, or hidden): the caller asks the database.
   */
  related(productId: number, limit: number, exclude: readonly number[] = []): number[] | null {
    const doc = this.#docByProduct.get(productId);
    const product = doc === undefined ? undefined : this.#records[doc];
    if (doc === undefined || !product) return null;
    if (this.#shared.length < this.#records.length) this.#shared = new Uint16Array(this.#records.length * 2);
    const shared = this.#shared;
    const touched: number[] = [];
    for (const term of new Set(ownTerms(product))) {
      for (const other of this.#termDocs.get(term) ?? []) {
        if (shared[other] === 0) touched.push(other);
        shared[other] = (shared[other] ?? 0) + 1;
      }
    }
    const left = new Set(exclude);
    const top = new TopRelated(limit);
    const { id, showsRelated, sales } = this.#columns;
    for (const other of touched) {
      const otherId = id[other] as number;
      if (other !== doc && showsRelated[other] === 1 && !left.has(otherId))
        top.offer(otherId, shared[other] as number, sales[other] as number);
      shared[other] = 0;
    }
    return top.ids();
  }

  /** The counts of every facet and the base products passing the selection. */
  count(query: FacetQuery): FacetResult {
    // Shop listings show `visible` and `catalog` products, search results `visible` and `search` ones.
    const excluded = query.context === 'shop' ? 'search' : 'catalog';
    const docs = this.#baseDocs(query.base);
    const { id: productIds, visibility, priceMin: minColumn, priceMax: maxColumn } = this.#columns;
    const hidden = VISIBILITY_CODE[excluded];

    // Each chosen discrete facet: the union of its chosen values' bitsets.
    const facetCount = this.#facets.length;
    const filters: { facet: number; passes: Bitset }[] = [];
    const choice = (key: string, values: readonly string[]) => {
      const facet = this.#facets.findIndex((definition) => definition.key === key);
      const codes = values
        .map((value) => this.#codeOf.get(key)?.get(value))
        .filter((code) => code !== undefined);
      if (facet < 0 || codes.length === 0) return;
      const passes = new Bitset();
      for (const code of codes) {
        const posting = this.#postings[code];
        if (posting) passes.orWith(posting);
      }
      filters.push({ facet, passes });
    };
    choice('product_cat', query.selection.categories);
    for (const [attribute, values] of Object.entries(query.selection.attributes))
      choice(`pa_${attribute}`, values);
    choice('stock_status', query.selection.stock);
    choice(
      'rating',
      query.selection.ratings.map((stars) => String(stars)),
    );
    const priceFacet = this.#facets.findIndex((definition) => definition.key === 'price');
    const { minPrice, maxPrice } = query.selection;
    const priceChosen = minPrice !== null || maxPrice !== null;
    const low = minPrice ?? Number.NEGATIVE_INFINITY;
    const high = maxPrice ?? Number.POSITIVE_INFINITY;

    // Price ranges follow the base's dearest product, so they stay put while the shopper filters.
    let dearest = 0;
    for (let at = 0; at < docs.length; at++) {
      const doc = docs[at] as number;
      const code = visibility[doc];
      const price = maxColumn[doc] as number;
      if (code !== 0 && code !== hidden && price > dearest) dearest = price;
    }
    const buckets = priceBuckets(dearest, query.minorPerMajor);
    const bucketCounts = new Int32Array(buckets.length);

    const counts = new Int32Array(this.#codes.length);
    const codeFacet = Int32Array.from(this.#codes, (info) => info.facet);
    const docCodes = this.#docCodes;
    const filterCount = filters.length;
    let ids: number[] = [];
    const passed = Array.isArray(query.base) ? new Bitset(this.#records.length) : null;
    for (let at = 0; at < docs.length; at++) {
      const doc = docs[at] as number;
      const code = visibility[doc];
      if (code === 0 || code === hidden) continue;
      let failed = -1;
      let fails = 0;
      for (let f = 0; f < filterCount; f++) {
        const filter = filters[f] as (typeof filters)[number];
        if (!filter.passes.has(doc)) {
          fails++;
          failed = filter.facet;
          if (fails > 1) break;
        }
      }
      if (fails > 1) continue;
      // NaN (no price) fails every comparison: in no range, never passes a price filter.
      const priceMin = minColumn[doc] as number;
      const priceMax = maxColumn[doc] as number;
      if (priceChosen && !(priceMax >= low && priceMin <= high)) {
        if (fails === 1) continue;
        fails = 1;
        failed = priceFacet;
      }
      if (fails === 0) {
        if (passed) passed.set(doc);
        else ids.push(productIds[doc] as number);
      }
      const codes = docCodes[doc] as Uint32Array;
      for (let c = 0; c < codes.length; c++) {
        const value = codes[c] as number;
        if (fails === 0 || codeFacet[value] === failed) counts[value] = (counts[value] as number) + 1;
      }
      if (fails === 0 || failed === priceFacet) {
        for (let bucket = 0; bucket < buckets.length; bucket++) {
          const range = buckets[bucket] as PriceRange;
          if (priceMax >= range.min && priceMin <= range.max)
            bucketCounts[bucket] = (bucketCounts[bucket] as number) + 1;
        }
      }
    }

    const selected = selectedValues(query.selection);
    const facets: FacetCounts[] = [];
    for (let facet = 0; facet < facetCount; facet++) {
      const definition = this.#facets[facet];
      if (!definition) continue;
      let values: FacetValueCount[];
      if (definition.key === 'price') {
        values = buckets.map((range, bucket) => ({
          value: `${range.min}-${range.max}`,
          label: '',
          count: bucketCounts[bucket] ?? 0,
          selected: minPrice === range.min && maxPrice === range.max,
          min: range.min,
          max: range.max,
        }));
      } else {
        const chosen = selected.get(definition.key) ?? new Set<string>();
        values = [];
        for (const code of definition.codes) {
          const info = this.#codes[code];
          if (!info) continue;
          if (info.categoryId !== undefined && query.hideCategories?.has(info.categoryId)) continue;
          values.push({
            value: info.value,
            label: info.label,
            count: counts[code] ?? 0,
            selected: chosen.has(info.value),
            ...(info.depth !== undefined ? { depth: info.depth } : {}),
          });
        }
      }
      facets.push({ key: definition.key, param: definition.param, label: definition.label, values });
    }
    if (passed) ids = (query.base as readonly number[]).filter((id) => passed.has(this.#docOf(id)));
    return { ids, facets };
  }

  /** The category ids of a category and its ancestors (what its own page does not offer as a filter). */
  categoryWithAncestors(categoryId: number): Set<number> {
    return new Set([categoryId, ...(this.#categoryAncestors.get(categoryId) ?? [])]);
  }

  /** The base's document numbers (read twice: for the price ranges, then for the counts). */
  #baseDocs(base: FacetQuery['base']): number[] {
    if (base === 'all') return this.#live.members();
    if ('categoryId' in base) {
      const code = this.#categoryCode.get(base.categoryId);
      const posting = code === undefined ? undefined : this.#postings[code];
      return posting ? posting.members() : [];
    }
    // A search's matches come in relevance order, scattered over the documents: walked in document order instead,
    // the pass reads the columns and bitsets front to back (the ids keep the base's order at the end).
    const marks = new Bitset(this.#records.length);
    for (const id of base) {
      const doc = this.#docOf(id);
      if (doc >= 0) marks.set(doc);
    }
    return marks.members();
  }

  #docOf(id: number): number {
    return id < MAX_INDEXED_ID ? (this.#docOfId[id] ?? 0) - 1 : (this.#docByProduct.get(id) ?? -1);
  }
}

/** A product's own categories and tags. */
function ownTerms(product: FacetProduct): number[] {
  return product.tags.length === 0 ? product.categories : [...product.categories, ...product.tags];
}

/** The best `limit` candidates offered, by shared terms (more first), then sales (more first), then id. */
class TopRelated {
  readonly #limit: number;
  readonly #ids: number[] = [];
  readonly #shared: number[] = [];
  readonly #sales: number[] = [];

  constructor(limit: number) {
    this.#limit = limit;
  }

  offer(id: number, shared: number, sales: number): void {
    const ids = this.#ids;
    let at = ids.length;
    while (
      at > 0 &&
      ranksBefore(
        id,
        shared,
        sales,
        ids[at - 1] as number,
        this.#shared[at - 1] as number,
        this.#sales[at - 1] as number,
      )
    )
      at--;
    if (at >= this.#limit) return;
    ids.splice(at, 0, id);
    this.#shared.splice(at, 0, shared);
    this.#sales.splice(at, 0, sales);
    if (ids.length > this.#limit) {
      ids.pop();
      this.#shared.pop();
      this.#sales.pop();
    }
  }

  ids(): number[] {
    return [...this.#ids];
  }
}

function ranksBefore(
  id: number,
  shared: number,
  sales: number,
  otherId: number,
  otherShared: number,
  otherSales: number,
): boolean {
  return shared !== otherShared
    ? shared > otherShared
    : sales !== otherSales
      ? sales > otherSales
      : id < otherId;
}

/** Product ids below this index an array (4 bytes each); larger ids go through a map. */
const MAX_INDEXED_ID = 16_000_000;
/** 0 marks a free document number. */
const VISIBILITY_CODE = { visible: 1, catalog: 2, search: 3 } as const;

interface Columns {
  id: Float64Array;
  visibility: Uint8Array;
  priceMin: Float64Array;
  priceMax: Float64Array;
  /** 1: the product may be shown among related products (purchasable, listed in the shop). */
  showsRelated: Uint8Array;
  sales: Float64Array;
}

function newColumns(size: number): Columns {
  return {
    id: new Float64Array(size),
    visibility: new Uint8Array(size),
    priceMin: new Float64Array(size),
    priceMax: new Float64Array(size),
    showsRelated: new Uint8Array(size),
    sales: new Float64Array(size),
  };
}

function growColumns(columns: Columns, needed: number): Columns {
  const grown = newColumns(Math.max(needed, columns.id.length * 2));
  grown.id.set(columns.id);
  grown.visibility.set(columns.visibility);
  grown.priceMin.set(columns.priceMin);
  grown.priceMax.set(columns.priceMax);
  grown.showsRelated.set(columns.showsRelated);
  grown.sales.set(columns.sales);
  return grown;
}

/** WooCommerce's star bucket of a product: its average rounded (4.5 → 5). */
export function roundedRating(average: number): number {
  return Math.min(5, Math.max(1, Math.round(average)));
}

function selectedValues(selection: FacetSelection): Map<string, Set<string>> {
  const map = new Map<string, Set<string>>([
    ['product_cat', new Set(selection.categories)],
    ['stock_status', new Set(selection.stock)],
    ['rating', new Set(selection.ratings.map(String))],
  ]);
  for (const [attribute, values] of Object.entries(selection.attributes))
    map.set(`pa_${attribute}`, new Set(values));
  return map;
}
