import type { Post, ProductDetail, Taxonomy, Term, Vendor } from '../../shared/catalog/types';
import { postUrl, productUrl, searchUrl, termUrl, vendorUrl } from '../../shared/catalog/urls';
import type { Suggestion, SuggestionSlots } from '../../shared/search/suggestionTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { toPlainText } from '../catalog/sanitizeRichText';
import type { ProductCard, Repositories } from '../db/ports';
import { escapeHtml, priceHtml, variationPriceHtml } from './priceHtml';
import type { SearchGroup, SearchHit, SearchResult } from './SearchIndex';

/**
 * Server-side extension point for the suggestion slots, where a shop adds its own markup to suggestions (badges,
 * notes): a decorator returns markup for meta_before, meta_after, title_before, title_after, content_after.
 * It must return escaped or sanitized markup; the browser inserts it as is.
 */
export interface SuggestionDecorator {
  decorate(suggestion: Suggestion): SuggestionSlots | undefined;
}

const DESCRIPTION_LENGTH = 120;

/** Taxonomies, vendors, then products (with "more"), then posts and pages. */
const GROUP_ORDER: SearchGroup[] = [
  'product_cat',
  'product_tag',
  'product_brand',
  'vendors',
  'products',
  'post',
  'page',
];

interface DisplayData {
  revision: string;
  terms: Map<number, Term>;
  termNames: Map<string, string>;
  vendors: Map<number, Vendor>;
  posts: Map<number, Post>;
}

function truncate(text: string, length = DESCRIPTION_LENGTH): string {
  return text.length <= length ? text : `${text.slice(0, length - 1).trimEnd()}…`;
}

export function shortText(html: string, length = DESCRIPTION_LENGTH): string {
  return truncate(toPlainText(html), length);
}

/** Turns index hits into the suggestions the search box shows (shared/search/suggestionTypes.ts), with the display data of each hit. */
export class SuggestionBuilder {
  #repositories: Repositories;
  #config: ShopConfig;
  #decorators: SuggestionDecorator[];
  #display: Promise<DisplayData> | null = null;

  constructor(options: {
    repositories: Repositories;
    config: ShopConfig;
    decorators?: SuggestionDecorator[];
  }) {
    this.#repositories = options.repositories;
    this.#config = options.config;
    this.#decorators = options.decorators ?? [];
  }

  async build(text: string, result: SearchResult, revision: string): Promise<Suggestion[]> {
    const display = await this.displayData(revision);
    // Every product card of the response in one query.
    const productIds = (result.hits.products ?? [])
      .filter((hit) => hit.kind === 'product')
      .map((hit) => hit.id);
    const cards = new Map(
      (await this.#repositories.search.describeProducts(productIds)).map((card) => [card.id, card]),
    );
    const { labels, show } = this.#config.search;
    const headings: Record<SearchGroup, string> = {
      products: labels.productsHeading,
      product_cat: labels.categoriesHeading,
      product_tag: labels.tagsHeading,
      product_brand: labels.brandsHeading,
      vendors: labels.vendorsHeading,
      post: labels.postsHeading,
      page: labels.pagesHeading,
    };
    const suggestions: Suggestion[] = [];
    let shownProducts = 0;
    for (const group of GROUP_ORDER) {
      const hits = result.hits[group] ?? [];
      const built: Suggestion[] = [];
      for (const hit of hits) {
        const suggestion = await this.#suggestion(hit, display, cards);
        if (suggestion) built.push(this.#decorate(suggestion));
      }
      if (built.length === 0) continue;
      if (group === 'products') shownProducts = built.filter((each) => each.type === 'product').length;
      if (show.headings) {
        // The products' heading is the v2 headline: the main column, which the box may style apart.
        suggestions.push({
          type: group === 'products' ? 'headline-v2' : 'headline',
          value: headings[group],
          group: group === 'product_brand' ? this.#config.search.brandsTaxonomy : group,
        });
      }
      suggestions.push(...built);
    }
    if (suggestions.length === 0) return [{ type: 'no-results', value: labels.noResults }];
    if (result.totalProducts > shownProducts) {
      suggestions.push({
        type: 'more_products',
        value: text,
        total: result.totalProducts,
        ...(result.totalIsLowerBound ? { total_is_lower_bound: true } : {}),
        url: searchUrl(text),
      });
    }
    return suggestions;
  }

  /** Terms, vendors and posts are few: loaded once per catalog revision instead of per suggestion. */
  displayData(revision: string): Promise<DisplayData> {
    const cached = this.#display;
    if (cached) {
      return cached.then((data) => (data.revision === revision ? data : this.#loadDisplay(revision)));
    }
    return this.#loadDisplay(revision);
  }

  #loadDisplay(revision: string): Promise<DisplayData> {
    const { catalog } = this.#repositories;
    const taxonomies: Taxonomy[] = ['product_cat', 'product_tag', 'product_brand'];
    this.#display = Promise.all([
      Promise.all(taxonomies.map((taxonomy) => catalog.listTerms(taxonomy))),
      catalog.listVendors(),
      catalog.listPosts('post', 10000),
      catalog.listPosts('page', 10000),
    ]).then(([termLists, vendors, posts, pages]) => {
      const terms = termLists.flat();
      return {
        revision,
        terms: new Map(terms.map((term) => [term.id, term])),
        termNames: new Map(terms.map((term) => [`${term.taxonomy}/${term.slug}`, term.name])),
        vendors: new Map(vendors.map((vendor) => [vendor.id, vendor])),
        posts: new Map([...posts, ...pages].map((post) => [post.id, post])),
      };
    });
    return this.#display;
  }

  #decorate(suggestion: Suggestion): Suggestion {
    let decorated = suggestion;
    for (const decorator of this.#decorators) decorated = { ...decorated, ...decorator.decorate(decorated) };
    return decorated;
  }

  async #suggestion(
    hit: SearchHit,
    display: DisplayData,
    cards: Map<number, ProductCard>,
  ): Promise<Suggestion | null> {
    switch (hit.kind) {
      case 'product': {
        const card = cards.get(hit.id);
        return card ? this.productSuggestion(card, display) : null;
      }
      case 'variation': {
        const product = await this.#repositories.catalog.getProductById(hit.parentId as number);
        return product ? this.variationSuggestion(product, hit.id, display) : null;
      }
      case 'term': {
        const term = display.terms.get(hit.id);
        if (!term) return null;
        const parents = term.path
          .slice(0, -1)
          .map((slug) => display.termNames.get(`${term.taxonomy}/${slug}`) ?? slug);
        return {
          type: 'taxonomy',
          taxonomy: publicTaxonomy(term.taxonomy, this.#config),
          term_id: term.id,
          value: term.name,
          url: termUrl(term),
          ...(parents.length > 0 ? { breadcrumbs: parents.join(' > ') } : {}),
        };
      }
      case 'vendor': {
        const vendor = display.vendors.get(hit.id);
        if (!vendor) return null;
        return {
          type: 'vendor',
          vendor_id: vendor.id,
          value: vendor.name,
          url: vendorUrl(vendor.slug),
          vendor_url: vendorUrl(vendor.slug),
          ...(vendor.city ? { shop_city: vendor.city } : {}),
        };
      }
      case 'post': {
        const post = display.posts.get(hit.id);
        if (!post) return null;
        return {
          type: 'post',
          post_type: post.type,
          post_id: post.id,
          value: post.title,
          url: postUrl(post.slug),
          ...(post.protected || !post.excerpt ? {} : { desc: shortText(post.excerpt) }),
        };
      }
    }
  }

  productSuggestion(product: ProductCard, display: DisplayData): Suggestion {
    const currency = this.#config.shop.currency;
    const vendor = product.vendorId === null ? undefined : display.vendors.get(product.vendorId);
    const price = priceHtml(product.price, currency);
    return {
      type: 'product',
      post_id: product.id,
      value: product.name,
      url: productUrl(product.slug),
      ...imageFields(product.imageSrc),
      ...(product.sku ? { sku: product.sku } : {}),
      ...(product.shortDescription ? { desc: truncate(product.shortDescription) } : {}),
      ...(price ? { price } : {}),
      on_sale: product.price.onSale,
      featured: product.featured,
      ...(product.rating.count > 0
        ? { rating: product.rating.average, rating_count: product.rating.count }
        : {}),
      ...(vendor
        ? {
            vendor: vendor.name,
            vendor_url: vendorUrl(vendor.slug),
            ...(vendor.city ? { shop_city: vendor.city } : {}),
          }
        : {}),
    };
  }

  variationSuggestion(product: ProductDetail, variationId: number, display: DisplayData): Suggestion | null {
    const variation = product.variations.find((each) => each.id === variationId);
    if (!variation) return null;
    const chosen = Object.entries(variation.attributes).filter(([, value]) => value !== '');
    const names = chosen.map(([field, value]) => {
      const attribute = product.attributes.find((each) => `attribute_${each.slug}` === field);
      return attribute?.options.find((option) => option.slug === value)?.name ?? value;
    });
    const query = new URLSearchParams(chosen).toString();
    const price = variationPriceHtml(variation, this.#config.shop.currency);
    const base = this.productSuggestion(
      {
        id: product.id,
        slug: product.slug,
        name: product.name,
        sku: product.sku,
        shortDescription: toPlainText(product.shortDescription),
        price: product.price,
        featured: product.featured,
        inStock: product.stockStatus !== 'outofstock',
        imageSrc: product.image?.src ?? null,
        vendorId: product.vendor?.id ?? null,
        rating: { average: product.ratingAverage, count: product.ratingCount },
      },
      display,
    );
    return {
      ...base,
      type: 'product_variation',
      variation_id: variation.id,
      value: names.length > 0 ? `${product.name} – ${names.join(', ')}` : product.name,
      url: `${productUrl(product.slug)}${query ? `?${query}` : ''}`,
      ...imageFields(variation.image?.src ?? product.image?.src ?? null),
      ...(variation.sku ? { sku: variation.sku } : {}),
      ...(price ? { price } : {}),
    };
  }
}

/**
 * The taxonomy name a suggestion carries: the catalog keeps brands as `product_brand`, the shop names its
 * brands taxonomy in `search.brandsTaxonomy` (a brands plugin's own name), and the box and the details endpoint
 * speak that name.
 */
function publicTaxonomy(taxonomy: Taxonomy, config: ShopConfig): string {
  return taxonomy === 'product_brand' ? config.search.brandsTaxonomy : taxonomy;
}

/** The inverse of publicTaxonomy: the catalog's taxonomy for a name from the browser, or null. */
export function catalogTaxonomy(name: string, config: ShopConfig): Taxonomy | null {
  if (name === config.search.brandsTaxonomy) return 'product_brand';
  return name === 'product_cat' || name === 'product_tag' ? name : null;
}

function imageFields(src: string | null): Pick<Suggestion, 'image' | 'image_src' | 'thumb_html'> {
  if (!src) return {};
  return {
    image: src,
    image_src: src,
    thumb_html: `<img src="${escapeHtml(src)}" alt="" width="64" height="64" loading="lazy" decoding="async">`,
  };
}
