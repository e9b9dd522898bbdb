import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Term } from '../../shared/catalog/types';
import { postUrl, productUrl, termUrl, vendorUrl } from '../../shared/catalog/urls';
import { parseSuggestionObjectId } from '../../shared/search/suggestionObjectId';
import type {
  DetailsItem,
  DetailsResponse,
  PricesResponse,
  Suggestion,
  SuggestionsResponse,
} from '../../shared/search/suggestionTypes';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { priceHtml, variationPriceHtml } from './priceHtml';
import { renderListDetails, renderPostDetails, renderProductDetails } from './SearchDetailsPanel';
import type { SearchService } from './SearchService';
import { catalogTaxonomy, type SuggestionBuilder, shortText } from './SuggestionBuilder';

interface SearchPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  search: SearchService;
  suggestions: SuggestionBuilder;
}

/** Details and prices answer at most this many items per request. */
const MAX_ITEMS = 50;
const TOP_PRODUCTS = 4;

function tagOf(text: string): string {
  return createHash('sha1').update(text).digest('base64url').slice(0, 8);
}

/** The first value of a parameter that may arrive repeated (`s=a&s=b`); anything else reads as empty. */
const text = z
  .preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().catch(''))
  .default('');

/** `exact=1`: the words as typed, no typo matching and no did-you-mean correction (docs/contract.md). */
const suggestionsInput = z.looseObject({ s: text, l: text, exact: text });

/** Form posts carry `items` as JSON text or as `items[0][objectID]` keys; JSON bodies as an array. */
function collectItems(input: Record<string, unknown>): unknown {
  const raw = input.items;
  if (typeof raw === 'string') {
    try {
      return JSON.parse(raw);
    } catch {
      return raw.split(',');
    }
  }
  if (raw !== undefined) return raw;
  const items: Record<string, Record<string, unknown>> = {};
  for (const [key, value] of Object.entries(input)) {
    const match = /^items\[(\d{1,3})\](?:\[(\w+)\])?$/.exec(key);
    if (!match) continue;
    const index = match[1] as string;
    if (match[2] === undefined) items[index] = { value } as Record<string, unknown>;
    else items[index] = { ...items[index], [match[2]]: value };
  }
  return Object.values(items).map((item) =>
    'value' in item && Object.keys(item).length === 1 ? item.value : item,
  );
}

function withItems(input: unknown) {
  if (typeof input !== 'object' || input === null) return input;
  const record = input as Record<string, unknown>;
  return { action: record.action, items: collectItems(record) };
}

const detailsInput = z.preprocess(
  withItems,
  z.object({
    action: z.literal('result-details', { error: 'action must be "result-details"' }).optional(),
    items: z
      .array(z.object({ objectID: z.string().max(100), value: z.string().max(1000).optional() }))
      .max(MAX_ITEMS, `At most ${MAX_ITEMS} items`),
  }),
);

const pricesInput = z.preprocess(
  withItems,
  z.object({
    action: z.string().max(100).optional(),
    items: z
      .array(z.union([z.number(), z.string()]))
      .max(MAX_ITEMS, `At most ${MAX_ITEMS} items`)
      .transform((ids) =>
        ids
          .map((id) => (typeof id === 'number' ? id : /^\d{1,12}$/.test(id) ? Number(id) : -1))
          .filter((id) => id > 0),
      ),
  }),
);

/**
 * The search box's three endpoints on the wc-ajax dispatcher. Suggestions are
 * cacheable: the ETag is the index revision (catalog change log + rules) and the settings, so any catalog
 * write or rule edit changes it, and an unchanged answer costs a 304.
 */
export async function searchPlugin(app: FastifyInstance, options: SearchPluginOptions) {
  const { repositories, config, search, suggestions } = options;
  const { limits } = config.search;
  const settingsTag = createHash('sha1')
    .update(JSON.stringify(config.search))
    .digest('base64url')
    .slice(0, 10);

  app.ajax.wcAjax('search_suggestions', {
    schema: suggestionsInput,
    methods: ['GET'],
    async handle(input, request, reply) {
      const started = process.hrtime.bigint();
      await search.refresh();
      const typos = input.exact !== '1';
      const { result, correction, found } = await search.searchCorrected({
        text: input.s,
        typos,
        limits: {
          products: limits.products,
          product_cat: limits.categories,
          product_tag: limits.tags,
          product_brand: limits.brands,
          vendors: limits.vendors,
          post: limits.posts,
          page: limits.pages,
        },
        variations: config.search.variations,
      });
      // The correction may also change with past queries (did you mean learns from them): it is part of the tag.
      const etag = `"s${search.revision}.${settingsTag}${typos ? '' : '.x'}${correction === null ? '' : `.${tagOf(correction)}`}"`;
      reply.header('cache-control', 'public, max-age=0, must-revalidate').header('etag', etag);
      // Analytics keep what the text as typed found: a query corrected from nothing stays a zero-result query.
      if (input.s.trim()) recordLater(request, input.s, found.totalProducts, 'suggestions');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      const typed = input.s.trim();
      const built = typed ? await suggestions.build(correction ?? typed, result, search.revision) : [];
      const body: SuggestionsResponse = {
        suggestions: correction === null ? built : [didYouMeanSuggestion(correction, typed), ...built],
        time: `${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(2)} ms`,
      };
      return body;
    },
  });

  app.ajax.wcAjax('search_details', {
    schema: detailsInput,
    methods: ['POST'],
    async handle(input) {
      await search.refresh();
      const seen = new Set<string>();
      const items: DetailsItem[] = [];
      for (const { objectID } of input.items) {
        if (seen.has(objectID)) continue;
        seen.add(objectID);
        const item = await details(objectID);
        if (item) items.push(item);
      }
      return { items } satisfies DetailsResponse;
    },
  });

  app.ajax.wcAjax('search_prices', {
    schema: pricesInput,
    methods: ['POST'],
    async handle(input) {
      await search.refresh();
      const data: PricesResponse['data'] = [];
      for (const id of new Set(input.items)) {
        const product = await searchableProduct(id);
        if (product) data.push({ id, price: priceHtml(product.price, config.shop.currency) });
      }
      return { success: true, data } satisfies PricesResponse;
    },
  });

  function didYouMeanSuggestion(correction: string, original: string): Suggestion {
    const url = `/?${new URLSearchParams({ s: original, post_type: 'product', exact: '1' })}`;
    return { type: 'did-you-mean', value: correction, original, url };
  }

  function recordLater(request: FastifyRequest, query: string, results: number, source: 'suggestions') {
    // After the answer: analytics never delay a suggestion. Batched and capped per client (search/analytics); a busy
    // database (an import) is waited out by the retry queue, never by the request.
    const visitor = {
      sessionId: request.visitor?.id ?? null,
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    };
    setImmediate(() => {
      app.searchAnalytics.record(search.queryRecord(query, results, source, visitor), visitor.ip);
    });
  }

  /** A product only while the index holds it: hidden and catalog-only products never leak through these ids. */
  async function searchableProduct(id: number) {
    const product = await repositories.catalog.getProductById(id);
    if (!product || product.visibility === 'hidden' || product.visibility === 'catalog') return null;
    return product;
  }

  async function topProducts(filter: { term?: Term; vendorId?: number }) {
    const list = await repositories.catalog.listProducts({
      context: 'search',
      orderby: 'popularity',
      page: 1,
      perPage: TOP_PRODUCTS,
      ...filter,
    });
    return list.items;
  }

  async function details(objectID: string): Promise<DetailsItem | null> {
    const object = parseSuggestionObjectId(objectID);
    if (!object) return null;
    const currency = config.shop.currency;
    const display = await suggestions.displayData(search.revision);
    switch (object.type) {
      case 'product':
      case 'product_variation': {
        const product = await searchableProduct(object.postId);
        if (!product) return null;
        if (object.type === 'product') {
          const price = priceHtml(product.price, currency);
          const html = renderProductDetails({
            product,
            priceMarkup: price,
            variationId: null,
            title: product.name,
            url: productUrl(product.slug),
            sku: product.sku,
            inStock: product.stockStatus !== 'outofstock',
            attributes: null,
            config,
          });
          return { objectID, html, ...(price ? { price } : {}) };
        }
        const variation = product.variations.find((each) => each.id === object.variationId);
        const suggestion = suggestions.variationSuggestion(product, object.variationId, display);
        if (!variation || !suggestion) return null;
        const price = variationPriceHtml(variation, currency);
        const html = renderProductDetails({
          product,
          priceMarkup: price,
          variationId: variation.id,
          title: suggestion.value,
          url: suggestion.url as string,
          sku: variation.sku,
          inStock: variation.is_in_stock,
          attributes: variation.attributes,
          config,
        });
        return { objectID, html, ...(price ? { price } : {}) };
      }
      case 'taxonomy': {
        const term = display.terms.get(object.termId);
        if (!term || term.taxonomy !== catalogTaxonomy(object.taxonomy, config)) return null;
        const html = renderListDetails({
          title: term.name,
          description: shortText(term.description, 200),
          url: termUrl(term),
          products: await topProducts({ term }),
          priceOf: (product) => priceHtml(product.price, currency),
        });
        return { objectID, html };
      }
      case 'vendor': {
        const vendor = display.vendors.get(object.vendorId);
        if (!vendor) return null;
        const html = renderListDetails({
          title: vendor.name,
          description: vendor.city ?? '',
          url: vendorUrl(vendor.slug),
          products: await topProducts({ vendorId: vendor.id }),
          priceOf: (product) => priceHtml(product.price, currency),
        });
        return { objectID, html };
      }
      case 'post': {
        const post = display.posts.get(object.postId);
        if (!post || post.type !== object.postType) return null;
        const html = renderPostDetails({
          title: post.title,
          excerpt: post.protected ? '' : shortText(post.excerpt, 300),
          url: postUrl(post.slug),
        });
        return { objectID, html };
      }
    }
  }
}
