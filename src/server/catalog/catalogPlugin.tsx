import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { FacetFilters } from '../../client/catalog/FacetFilters';
import { JsonLd } from '../../client/catalog/JsonLd';
import { ArchivePage } from '../../client/pages/ArchivePage';
import { HomePage } from '../../client/pages/HomePage';
import { DidYouMeanNotice } from '../../client/search/DidYouMeanNotice';
import { PRODUCT_ORDERINGS, type ProductSummary, type Taxonomy, type Term } from '../../shared/catalog/types';
import { productUrl, termUrl, vendorUrl } from '../../shared/catalog/urls';
import { ShopError } from '../../shared/errors/ShopError';
import { MAX_SEARCH_LENGTH } from '../../shared/search/searchLimits';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import { breadcrumbJsonLd, itemListJsonLd } from '../../shared/structuredData/jsonLd';
import type { ProductListQuery, Repositories } from '../db/ports';
import { parseInput } from '../http/parseInput';
import { pageTag } from '../render/pageCache/pageTags';
import { dependsOn, PAGE_CACHE_ROUTE, rendersFromIndex } from '../render/pagesPlugin';
import type { ReviewsView } from '../reviews/reviewsView';
import type { FacetService } from '../search/facets/FacetService';
import {
  canonicalFacetSearch,
  facetParams,
  hasSelection,
  parseFacetParams,
  queryText,
  type RawQuery,
} from '../search/facets/facetUrl';
import type { SearchService } from '../search/SearchService';
import { withArchiveSwatches } from '../swatches/buildArchiveSwatches';
import { registerPlaceholderImageRoute } from './placeholderImageRoute';
import { productPageDocument, siteOrigin } from './productPageDocument';

interface CatalogPluginOptions {
  repositories: Repositories;
  config: ShopConfig;
  /** Search results pages rank with the same index as the suggestions. */
  search: SearchService;
  /** The product page's "Reviews (N)" section (absent: no reviews section). */
  reviewsView?: ReviewsView;
  /** Filters with counts on search results and category pages (absent: no filters). */
  facets?: FacetService;
}

// An unknown ordering falls back to the default, as WooCommerce does, instead of failing the page.
const archiveQuery = z.object({
  orderby: z.enum(PRODUCT_ORDERINGS).catch('menu_order'),
  s: z
    .string()
    .max(MAX_SEARCH_LENGTH, `That search is too long (max ${MAX_SEARCH_LENGTH} characters)`)
    .optional(),
  post_type: z.string().optional(),
  /** `exact=1`: the words as typed, no typo matching, no did-you-mean correction (docs/contract.md). */
  exact: z.literal('1').optional().catch(undefined),
});
const pageParam = z.object({ page: z.coerce.number().int().min(1).max(100000) });
const slugParam = z.object({ slug: z.string().min(1).max(200) });
// A product page's own parameters: the reviews' page and the notice after a review was sent; junk is ignored.
const productQuery = z.object({
  'reviews-page': z.coerce.number().int().min(1).max(100_000).catch(1).default(1),
  review: z.enum(['held', 'published']).optional().catch(undefined),
});

/** Home, the shop and every product archive, product pages, and the local placeholder images. */
export async function catalogPlugin(
  app: FastifyInstance,
  { repositories, config, search, reviewsView, facets }: CatalogPluginOptions,
) {
  const { catalog } = repositories;
  const perPage = config.shop.productsPerPage;

  async function sendArchive(
    reply: FastifyReply,
    rawQuery: unknown,
    page: number,
    archive: {
      title: string;
      description?: string;
      filter: Partial<ProductListQuery>;
      /** A search results page: the products the search index finds for this text. */
      search?: string;
      baseUrl: string;
      emptyMessage?: string;
      /** schema.org JSON-LD for this page of products (category pages: ItemList and BreadcrumbList). */
      structuredData?: (products: ProductSummary[], origin: string) => unknown[];
      /** Offer filters: on the search's matches, or on a category's products. */
      facetBase?: 'search' | { category: Term };
    },
  ) {
    const query = parseInput(archiveQuery, rawQuery);
    const decimals = config.shop.currency.decimals;
    if (facets && archive.facetBase) {
      // The plain form sends repeated keys and a price range: answer with the canonical, shareable address.
      const [path, search = ''] = reply.request.url.split('?', 2) as [string, string?];
      const canonical = canonicalFacetSearch(search, decimals);
      if (canonical !== null) return reply.redirect(`${path}${canonical ? `?${canonical}` : ''}`, 302);
    }
    if (archive.search !== undefined || (facets && archive.facetBase)) {
      // The matches and the filter counts are the indexes': the page shows the catalog as of their position (taken
      // after they applied what they can; a swap meanwhile only makes the page newer than that).
      await search.refresh();
      rendersFromIndex(reply.request, search.indexedThrough);
    }
    // A search is read once (with its did-you-mean correction) and handed to the counts and the listing.
    const searched = archive.search
      ? await search.productIdsCorrected(archive.search, { typos: query.exact !== '1' })
      : undefined;
    const filtering =
      facets && archive.facetBase
        ? await countFacets(facets, archive.facetBase, searched?.ids, rawQuery)
        : null;
    const filteredIds = filtering?.chosen ? filtering.result.ids : undefined;
    const list: { items: ProductSummary[]; total: number } =
      archive.search === undefined
        ? await catalog.listProducts({
            context: 'shop',
            orderby: query.orderby,
            page,
            perPage,
            ...archive.filter,
            ...(filteredIds ? { ids: filteredIds } : {}),
          })
        : await listSearchResults(archive.search, query.orderby, page, filteredIds ?? searched?.ids);
    // A search is recorded once per visit of its first page, as typed (narrowing its results with filters is not
    // another search), also when the render cache answers it.
    const searchText = archive.search;
    // What the text as typed found: a query corrected from nothing stays a zero-result query for the owner.
    const found = searched?.found ?? list.total;
    const recordSearch =
      searchText !== undefined && page === 1 && !filtering?.chosen
        ? (request: FastifyRequest) => {
            const visitor = {
              sessionId: request.visitor.id,
              ip: request.ip,
              userAgent: request.headers['user-agent'] ?? '',
            };
            app.searchAnalytics.record(search.queryRecord(searchText, found, 'results', visitor), request.ip);
          }
        : undefined;
    recordSearch?.(reply.request);
    if (page > 1 && list.items.length === 0)
      throw new ShopError('not_found', 'There is no such page of products.');
    if (config.swatches.showOnArchive) list.items = await withArchiveSwatches(catalog, list.items);
    const keep: Record<string, string> = {};
    if (query.s !== undefined) {
      keep.s = query.s;
      keep.post_type = 'product';
      if (query.exact === '1') keep.exact = '1';
    }
    // The render cache drops this page when a product it shows changes, or what selects and orders them: the term's
    // members, or (shop, vendor, search) any product; every sale when ordered by popularity.
    dependsOn(reply.request, [
      ...list.items.map((item) => pageTag.listed(item.id)),
      ...(archive.filter.term ? [pageTag.term(archive.filter.term.id)] : [pageTag.catalog]),
      ...(archive.search !== undefined ? [pageTag.search] : []),
      ...(query.orderby === 'popularity' ? [pageTag.sales] : []),
    ]);
    const correction = searched?.correction ?? null;
    const filterParams = filtering ? facetParams(filtering.selection, decimals) : [];
    for (const [name, value] of filterParams) keep[name] = value;
    const suffix = queryText(
      Object.entries({ ...keep, ...(query.orderby !== 'menu_order' ? { orderby: query.orderby } : {}) }),
    );
    return reply.sendPage(
      {
        title: archive.title,
        description: archive.description,
        body: (
          <>
            {archive.structuredData?.(list.items, siteOrigin(config, reply.request)).map((data, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list built for this render
              <JsonLd key={index} data={data} />
            ))}
            <ArchivePage
              title={archive.title}
              description={archive.description}
              products={list.items}
              total={list.total}
              page={page}
              perPage={perPage}
              orderby={query.orderby}
              keep={keep}
              pageUrl={(number) =>
                `${number === 1 ? archive.baseUrl : `${archive.baseUrl}page/${number}/`}${suffix ? `?${suffix}` : ''}`
              }
              emptyMessage={archive.emptyMessage ?? 'No products were found matching your selection.'}
              notice={
                correction !== null && archive.search ? (
                  <p className="search-did-you-mean" role="status" aria-live="polite">
                    <DidYouMeanNotice
                      correction={correction}
                      original={archive.search}
                      url={`/?${new URLSearchParams({ s: archive.search, post_type: 'product', exact: '1' })}`}
                      className="search-did-you-mean"
                    />
                  </p>
                ) : undefined
              }
              filters={
                filtering ? (
                  <FacetFilters
                    facets={filtering.result.facets}
                    action={archive.baseUrl}
                    hidden={{
                      ...(query.s !== undefined ? { s: query.s, post_type: 'product' } : {}),
                      ...(query.orderby !== 'menu_order' ? { orderby: query.orderby } : {}),
                    }}
                    clearUrl={`${archive.baseUrl}${
                      query.s !== undefined || query.orderby !== 'menu_order'
                        ? `?${queryText(
                            Object.entries({
                              ...(query.s !== undefined ? { s: query.s, post_type: 'product' } : {}),
                              ...(query.orderby !== 'menu_order' ? { orderby: query.orderby } : {}),
                            }),
                          )}`
                        : ''
                    }`}
                    customPrice={filtering.customPrice}
                    currency={config.shop.currency}
                  />
                ) : undefined
              }
            />
          </>
        ),
      },
      { searchQuery: query.s, onCacheHit: recordSearch },
    );
  }

  /**
   * The facet counts of a listing and the products passing the chosen filters.
   */
  async function countFacets(
    service: FacetService,
    base: 'search' | { category: Term },
    /** A search's matches (corrected if it was), in relevance order; none for an empty search: every product. */
    searchIds: readonly number[] | undefined,
    rawQuery: unknown,
  ) {
    const selection = parseFacetParams((rawQuery ?? {}) as RawQuery, config.shop.currency.decimals);
    const result = await service.count({
      base: base === 'search' ? (searchIds ?? 'all') : { categoryId: base.category.id },
      context: base === 'search' ? 'search' : 'shop',
      selection,
      hideCategories: base === 'search' ? undefined : service.categoryWithAncestors(base.category.id),
      minorPerMajor: 10 ** config.shop.currency.decimals,
    });
    const priceChosen = selection.minPrice !== null || selection.maxPrice !== null;
    const bucketChosen = result.facets.some(
      (facet) => facet.key === 'price' && facet.values.some((v) => v.selected),
    );
    return {
      selection,
      result,
      chosen: hasSelection(selection),
      customPrice: priceChosen && !bucketChosen ? { min: selection.minPrice, max: selection.maxPrice } : null,
    };
  }

  /** The default order of search results is relevance (the index's order); any other ordering sorts the matches. */
  async function listSearchResults(
    text: string,
    orderby: ProductListQuery['orderby'],
    page: number,
    /** The matches already known (filtered, or read for the counts), in relevance order. */
    known?: readonly number[],
  ) {
    if (!text && !known) return catalog.listProducts({ context: 'search', orderby, page, perPage });
    const ids = known ?? (await search.productIds(text));
    if (orderby !== 'menu_order')
      return catalog.listProducts({ context: 'search', ids, orderby, page, perPage });
    const pageIds = ids.slice((page - 1) * perPage, page * perPage);
    const list = await catalog.listProducts({
      context: 'search',
      ids: pageIds,
      relevance: true,
      orderby,
      page: 1,
      perPage,
    });
    return { items: list.items, total: ids.length };
  }

  app.get('/', PAGE_CACHE_ROUTE, async function homeOrSearch(request, reply) {
    const query = parseInput(archiveQuery, request.query);
    if (query.s !== undefined) {
      const text = query.s.trim();
      return sendArchive(reply, request.query, 1, {
        title: text ? `Search results: “${text}”` : 'Search results',
        filter: {},
        search: text,
        baseUrl: '/',
        emptyMessage: 'No products were found matching your search.',
        facetBase: 'search',
      });
    }
    const [featured, posts] = await Promise.all([
      catalog.listProducts({ context: 'shop', featured: true, orderby: 'menu_order', page: 1, perPage: 8 }),
      catalog.listPosts('post', 3),
    ]);
    dependsOn(request, [pageTag.catalog, pageTag.posts]);
    return reply.sendPage({
      title: 'Home',
      description: config.shop.tagline,
      body: <HomePage featured={featured.items} posts={posts} />,
    });
  });

  // Search results keep WooCommerce's address, /?s=…&post_type=product; later pages live under /page/N/.
  app.get('/page/:page/', PAGE_CACHE_ROUTE, async function searchResultsPage(request, reply) {
    const { page } = parseInput(pageParam, request.params);
    const query = parseInput(archiveQuery, request.query);
    if (query.s === undefined) return reply.redirect('/shop/');
    return sendArchive(reply, request.query, page, {
      title: `Search results: “${query.s.trim()}”`,
      filter: {},
      search: query.s.trim(),
      baseUrl: '/',
      facetBase: 'search',
    });
  });

  const shopArchive = { title: 'Shop', filter: {}, baseUrl: '/shop/' };
  app.get('/shop/', PAGE_CACHE_ROUTE, async (request, reply) =>
    sendArchive(reply, request.query, 1, shopArchive),
  );
  app.get('/shop/page/:page/', PAGE_CACHE_ROUTE, async (request, reply) =>
    sendArchive(reply, request.query, parseInput(pageParam, request.params).page, shopArchive),
  );

  // Category paths have any depth (/product-category/apparel/shirts/), optionally followed by /page/N/.
  app.get('/product-category/*', PAGE_CACHE_ROUTE, async function categoryArchive(request, reply) {
    const rest = (request.params as { '*': string })['*'];
    const segments = rest.split('/').filter(Boolean);
    let page = 1;
    if (segments.length >= 2 && segments.at(-2) === 'page') {
      page = parseInput(pageParam, { page: segments.at(-1) }).page;
      segments.splice(-2, 2);
    }
    if (segments.length === 0 || segments.length > 10)
      throw new ShopError('not_found', 'There is no such category.');
    // The categories as the header menu read them, once per catalog change: the page's category and its trail.
    const categories = await app.pageCache.categories();
    const term = categoryAtPath(categories, segments.map(decodeSegment));
    if (!term) throw new ShopError('not_found', 'There is no such category.');
    // The trail names each ancestor: the terms on the path, found by their slug under their parent.
    const trail: Term[] = [];
    for (const slug of term.path) {
      const parentId = trail.at(-1)?.id ?? null;
      const found = categories.find(
        (candidate) => candidate.slug === slug && candidate.parentId === parentId,
      );
      if (found) trail.push(found);
    }
    return sendArchive(reply, request.query, page, {
      ...termArchive(term),
      facetBase: { category: term },
      structuredData: (products, origin) => [
        itemListJsonLd(products, productUrl, origin, (page - 1) * perPage + 1),
        breadcrumbJsonLd(
          [
            { name: 'Home', url: '/' },
            { name: 'Shop', url: '/shop/' },
            ...trail.map((crumb) => ({ name: crumb.name, url: termUrl(crumb) })),
          ],
          origin,
        ),
      ],
    });
  });

  const taxonomyRoutes: [string, Taxonomy][] = [
    ['/product-tag/', 'product_tag'],
    ['/brand/', 'product_brand'],
  ];
  for (const [base, taxonomy] of taxonomyRoutes) {
    const handler = async (
      request: { params: unknown; query: unknown },
      reply: FastifyReply,
      page: number,
    ) => {
      const { slug } = parseInput(slugParam, request.params);
      const term = await catalog.getTermByPath(taxonomy, [slug]);
      if (!term) throw new ShopError('not_found', 'There is no such archive.');
      return sendArchive(reply, request.query, page, termArchive(term));
    };
    app.get(`${base}:slug/`, PAGE_CACHE_ROUTE, async (request, reply) => handler(request, reply, 1));
    app.get(`${base}:slug/page/:page/`, PAGE_CACHE_ROUTE, async (request, reply) =>
      handler(
        request,
        reply,
        parseInput(pageParam, { page: (request.params as { page: string }).page }).page,
      ),
    );
  }

  const vendorArchive = async (
    request: { params: unknown; query: unknown },
    reply: FastifyReply,
    page: number,
  ) => {
    const { slug } = parseInput(slugParam, request.params);
    const vendor = await catalog.getVendorBySlug(slug);
    if (!vendor) throw new ShopError('not_found', 'There is no such vendor.');
    return sendArchive(reply, request.query, page, {
      title: vendor.name,
      description: vendor.city ? `Sold by ${vendor.name}, ${vendor.city}.` : `Sold by ${vendor.name}.`,
      filter: { vendorId: vendor.id },
      baseUrl: vendorUrl(vendor.slug),
    });
  };
  app.get('/vendor/:slug/', PAGE_CACHE_ROUTE, async (request, reply) => vendorArchive(request, reply, 1));
  app.get('/vendor/:slug/page/:page/', PAGE_CACHE_ROUTE, async (request, reply) =>
    vendorArchive(
      request,
      reply,
      parseInput(pageParam, { page: (request.params as { page: string }).page }).page,
    ),
  );

  app.get('/product/:slug/', PAGE_CACHE_ROUTE, async function productPage(request, reply) {
    const { slug } = parseInput(slugParam, request.params);
    const product = await catalog.getProductBySlug(slug);
    if (!product)
      throw new ShopError('product_not_found', 'That product does not exist or is no longer available.');
    const query = parseInput(productQuery, request.query);
    const reviews = await reviewsView?.(request, product, {
      page: query['reviews-page'],
      notice: query.review ?? null,
    });
    return reply.sendPage(
      await productPageDocument(
        { app, repositories, config, related: facets },
        request,
        product,
        request.query as Record<string, unknown>,
        reviews,
      ),
    );
  });

  registerPlaceholderImageRoute(app, '/images', (id) => catalog.getImagePlaceholder(id));
}

function termArchive(term: Term) {
  return {
    title: term.name,
    description: term.description || undefined,
    filter: { term },
    baseUrl: termUrl(term),
  };
}

/**
 * The category at an archive's path, as `getTermByPath` finds it (slugs are unique in a taxonomy): a single segment
 * is the category of that slug wherever it sits, the first of several a top-level one, each next a child of the one
 * before.
 */
export function categoryAtPath(categories: readonly Term[], path: readonly string[]): Term | null {
  let found: Term | null = null;
  for (const slug of path) {
    const term = categories.find((each) => each.slug === slug);
    if (!term || (path.length > 1 && term.parentId !== (found?.id ?? null))) return null;
    found = term;
  }
  return found;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ShopError('invalid_request', 'That address is not valid.');
  }
}
