import { z } from 'zod';
import { flag } from './flag';

/*
 * One schema for every setting the shop has (docs/settings.md), with its default. The same shape is read from SHOP_CONFIG
 * (deep-merged over these defaults) and rendered into every page as #shop-settings (docs/contract.md "Settings").
 * Objects are strict so a typo in a settings file stops the start with the bad key named, instead of being
 * silently ignored. `prefault({})` runs the defaults of nested objects when a section is absent.
 */

const ms = z.number().int().nonnegative();
const px = z.number().int().nonnegative();
const nullableString = z.string().nullable().default(null);

/** Owner tokens shorter than this are refused at start-up (a token is never typed, so it can be long). */
const MIN_OWNER_TOKEN_LENGTH = 24;
/** The format of `server.ownerPasswordHash`: `scrypt$<salt>$<key>`, both base64url. */
const OWNER_PASSWORD_HASH = /^scrypt\$[A-Za-z0-9_-]{16,}\$[A-Za-z0-9_-]{43}$/;

const themeSchema = z
  .strictObject({
    breakpoint: px.default(992),
    scrollToTop: z.enum(['both', 'desktop', 'mobile', 'off']).default('both'),
    storeNotice: z
      .strictObject({ enabled: flag(false), id: nullableString, text: z.string().default('') })
      .prefault({}),
    comingSoon: z.strictObject({ enabled: flag(false) }).prefault({}),
    mobileMenu: z.enum(['dropdown', 'offcanvas']).default('dropdown'),
    stickyHeader: flag(true),
    hiddenElements: z
      .array(z.strictObject({ objectId: z.union([z.string(), z.number()]), classNames: z.array(z.string()) }))
      .default([]),
  })
  .prefault({});

const cartSchema = z
  .strictObject({
    layout: z.enum(['drawer', 'dropdown']).default('drawer'),
    quantityButtons: z.enum(['buttons', 'none']).default('buttons'),
    openDrawerOnAdd: flag(true),
    redirectToCartOnMobile: flag(false),
    hideIfEmpty: flag(false),
    /** Short hash of the shop's base URL; null lets the server derive it from the request's origin. */
    storageKey: nullableString,
    requestTimeout: ms.default(5000),
    ajaxUrl: z.string().default('/ajax'),
    wcAjaxUrl: z.string().default('/?wc-ajax=%%endpoint%%'),
    cartUrl: z.string().default('/cart/'),
    /** Per-page value: the nonce for set_cart_item_quantity, filled in by the server on every page. */
    qtyNonce: nullableString,
  })
  .prefault({});

const searchSchema = z
  .strictObject({
    minChars: z.number().int().min(1).default(3),
    debounceWait: ms.default(400),
    deferBy: ms.default(0),
    maxHeight: px.default(600),
    width: z.union([z.literal('auto'), px]).default('auto'),
    zIndex: z.number().int().default(999999999),
    rtl: flag(false),
    goToFirstVariationOnSubmit: flag(true),
    history: z.strictObject({ products: flag(true), phrases: flag(true) }).prefault({}),
    mobileOverlay: flag(true),
    mobileOverlayBreakpoint: px.default(992),
    layout: z.enum(['classic', 'icon', 'icon-flexible', 'icon-flexible-inv']).default('classic'),
    layoutBreakpoint: px.default(992),
    detailsPanelBreakpoint: px.default(550),
    darkenedOverlay: flag(false),
    // The mini-cart widget in the search bar; hide-if-empty reads the woocommerce_items_in_cart cookie. Its
    // hideIfEmpty left null follows the shop-wide `cart.hideIfEmpty`.
    miniCart: z
      .strictObject({ enabled: flag(false), hideIfEmpty: z.union([z.null(), flag(false)]).default(null) })
      .prefault({}),
    // The self-repair helper's timer-based hard mode: rescans every second when on.
    selfRepairHardMode: flag(false),
    voiceSearch: z.strictObject({ enabled: flag(false), lang: nullableString }).prefault({}),
    badQueryPrevention: flag(false),
    delimiter: nullableString,
    lookupLimit: z.number().int().positive().nullable().default(null),
    exactMatchAutoSelect: flag(false),
    disableSubmit: flag(false),
    disableHits: flag(false),
    brandsTaxonomy: z.string().default('product_brand'),
    language: nullableString,
    customParams: z.record(z.string(), z.string()).default({}),
    show: z
      .strictObject({
        images: flag(true),
        price: flag(true),
        description: flag(true),
        sku: flag(false),
        saleBadge: flag(true),
        featuredBadge: flag(true),
        headings: flag(true),
        vendor: flag(false),
        detailsPanel: flag(false),
      })
      .prefault({}),
    /** Suggestions per group; 0 leaves a group out. */
    limits: z
      .strictObject({
        products: z.number().int().min(0).max(50).default(7),
        categories: z.number().int().min(0).max(20).default(3),
        tags: z.number().int().min(0).max(20).default(3),
        brands: z.number().int().min(0).max(20).default(3),
        vendors: z.number().int().min(0).max(20).default(2),
        posts: z.number().int().min(0).max(20).default(2),
        pages: z.number().int().min(0).max(20).default(2),
      })
      .prefault({}),
    /** Variations found by their own SKU appear among the products. */
    variations: flag(true),
    /**
     * The owner's relevance rules as first seeded into the database (later edits live there): synonym groups
     * (`["hoodie", "sweatshirt"]` or `"hoodie = sweatshirt"`), stop words, per-field weights, out-of-stock
     * products as usual, last or hidden, and product ids pinned first for a query.
     */
    relevance: z
      .strictObject({
        synonyms: z.array(z.union([z.string(), z.array(z.string())])).default([]),
        stopWords: z.array(z.string()).default([]),
        boosts: z
          .strictObject({
            title: z.number().min(0).max(100).default(10),
            sku: z.number().min(0).max(100).default(8),
            taxonomy: z.number().min(0).max(100).default(5),
            attributes: z.number().min(0).max(100).default(4),
            content: z.number().min(0).max(100).default(1),
          })
          .prefault({}),
        outOfStock: z.enum(['normal', 'last', 'hide']).default('normal'),
        pins: z.record(z.string(), z.array(z.number().int().positive())).default({}),
      })
      .prefault({}),
    dynamicPrices: flag(false),
    analytics: z
      .strictObject({ enabled: flag(false), modules: z.array(z.enum(['ga4', 'gtag'])).default([]) })
      .prefault({}),
    endpoints: z
      .strictObject({
        suggestions: z.string().default('/?wc-ajax=search_suggestions'),
        details: z.string().default('/?wc-ajax=search_details'),
        prices: z.string().default('/?wc-ajax=search_prices'),
      })
      .prefault({}),
    /** The box's icons as inline SVG markup (owner-controlled, like `labels.noResults`). */
    icons: z
      .strictObject({
        magnifier: z
          .string()
          .default(
            '<svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20"><path fill="currentColor" d="M10 2a8 8 0 0 1 6.32 12.9l5.39 5.4-1.41 1.4-5.4-5.38A8 8 0 1 1 10 2zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12z"/></svg>',
          ),
        back: z.string().default('<span aria-hidden="true">←</span>'),
        voice: z
          .string()
          .default(
            '<svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11z"/></svg>',
          ),
        history: z
          .string()
          .default(
            '<svg class="shop-search__history-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M13 3a9 9 0 0 0-9 9H1l3.9 3.9L9 12H6a7 7 0 1 1 2.05 4.95l-1.41 1.41A9 9 0 1 0 13 3zm-1 5v5l4.25 2.52.77-1.28-3.52-2.09V8z"/></svg>',
          ),
      })
      .prefault({}),
    labels: z
      .strictObject({
        placeholder: z.string().default('Search for products...'),
        submit: z.string().default('Search'),
        noResults: z.string().default('No results'),
        showMore: z.string().default('See all products... (%s)'),
        soldBy: z.string().default('Sold by:'),
        sku: z.string().default('SKU:'),
        sale: z.string().default('sale'),
        featured: z.string().default('featured'),
        historyHeading: z.string().default('Your recent searches'),
        historyClear: z.string().default('Clear'),
        productsHeading: z.string().default('Products'),
        categoriesHeading: z.string().default('Categories'),
        tagsHeading: z.string().default('Tags'),
        brandsHeading: z.string().default('Brands'),
        vendorsHeading: z.string().default('Vendors'),
        postsHeading: z.string().default('Posts'),
        pagesHeading: z.string().default('Pages'),
      })
      .prefault({}),
  })
  .prefault({});

const swatchesSchema = z
  .strictObject({
    clearOnReselect: flag(false),
    deselectUnavailable: flag(false),
    clickableOutOfStock: flag(false),
    stockLeftThreshold: z.number().int().nonnegative().nullable().default(null),
    showOnArchive: flag(false),
    lazyVariationsThreshold: z.number().int().positive().default(30),
  })
  .prefault({});

const attributionSchema = z
  .strictObject({
    allowTracking: flag(true),
    fieldPrefix: z.string().default('wc_order_attribution_'),
    lifetimeMonths: z.number().positive().default(6),
    sessionMinutes: z.number().positive().default(30),
    cookieDomain: nullableString,
    base64Cookies: flag(false),
  })
  .prefault({});

const statsSchema = z
  .strictObject({
    jsCheckTime: ms.default(60000),
    honorDoNotTrack: flag(false),
    bypassAdBlockers: flag(false),
    isPreview: flag(false),
    requestUrl: z.string().default('/wp-json/stats/v1'),
    hitEndpoint: z.string().default('hit'),
    onlineEndpoint: z.string().default('online'),
    ajaxUrl: z.string().default('/ajax'),
    downloadExtensions: z
      .array(z.string())
      .default([
        'zip',
        'rar',
        'pdf',
        'doc',
        'docx',
        'xls',
        'xlsx',
        'ppt',
        'pptx',
        'mp3',
        'mp4',
        'csv',
        'txt',
        'epub',
      ]),
    /** Per-page value: the signed hit parameters the server writes into the page. */
    hitParams: z.record(z.string(), z.string()).nullable().default(null),
    /** Without statistics consent, still send hits, stored with no visitor identity (WP Statistics' anonymous tracking). */
    anonymousTracking: flag(false),
  })
  .prefault({});

const consentSchema = z
  .strictObject({
    mode: z.enum(['none', 'api', 'banner']).default('none'),
    /** The consent-API category statistics need (WP Statistics' default). */
    category: z.string().default('statistics'),
    /** The consent-API category order attribution needs (WooCommerce asks for marketing). */
    attributionCategory: z.string().default('marketing'),
  })
  .prefault({});

const restSchema = z
  .strictObject({
    root: z.string().default('/wp-json/'),
    /** Per-page value: a fresh REST nonce. */
    nonce: nullableString,
    nonceEndpoint: z.string().default('/ajax?action=rest-nonce'),
    /** Largest media upload accepted by wp/v2/media, in bytes (the client may check before sending). */
    maxUploadBytes: z
      .number()
      .int()
      .positive()
      .default(10 * 1024 * 1024),
  })
  .prefault({});

const i18nSchema = z
  .strictObject({
    locale: z.string().default('en-US'),
    addToCart: z.string().default('Add to cart'),
    selectOptions: z.string().default('Select options'),
    chooseAnOption: z.string().default('Choose an option'),
    outOfStock: z.string().default('Out of stock'),
    inStock: z.string().default('In stock'),
    unavailable: z
      .string()
      .default('Sorry, this product is unavailable. Please choose a different combination.'),
    quantity: z.string().default('Quantity'),
    decreaseQuantity: z.string().default('Decrease quantity'),
    increaseQuantity: z.string().default('Increase quantity'),
    remove: z.string().default('Remove'),
    cart: z.string().default('Cart'),
    close: z.string().default('Close'),
    menu: z.string().default('Menu'),
    search: z.string().default('Search'),
    scrollToTop: z.string().default('Scroll to top'),
    dismiss: z.string().default('Dismiss'),
    showPassword: z.string().default('Show password'),
    hidePassword: z.string().default('Hide password'),
    // Texts with placeholders take `%s` (or `%1$s`, `%2$s`… where the order may change), as WordPress's do.
    stockLeft: z.string().default('%s in stock'),
    onlyStockLeft: z.string().default('Only %s left in stock'),
    availableOnBackorder: z.string().default('Available on backorder'),
    makeASelection: z
      .string()
      .default('Please select some product options before adding this product to your cart.'),
    clearChoices: z.string().default('Clear'),
    notAvailable: z.string().default('Not available'),
    notAvailableWith: z.string().default('Not available with %s'),
    outOfStockWith: z.string().default('Out of stock with %s'),
    removeItem: z.string().default('Remove %s from cart'),
    subtotal: z.string().default('Subtotal:'),
    emptyMiniCart: z.string().default('No products in the cart.'),
    quantityLimited: z
      .string()
      .default('You can buy at most %s of this item, so the quantity was set to %s.')
      .describe(
        'Shown in the mini-cart when a typed quantity was lowered to the stock or the product maximum.',
      ),
    viewCart: z.string().default('View cart'),
    checkout: z.string().default('Checkout'),
    placeOrder: z.string().default('Place order'),
    placingOrder: z.string().default('Placing order…'),
    correctTheFollowing: z.string().default('Please correct the following:'),
    storeNotice: z.string().default('Store notice'),
    comingSoon: z.string().default('Coming soon'),
    comingSoonText: z
      .string()
      .default(
        'This page is in “Coming soon” mode and is only visible to you and those who have permission. To make it public to everyone, change the shop’s visibility settings.',
      ),
    dismissComingSoon: z.string().default('Dismiss coming soon banner'),
    resultCountSingle: z.string().default('Showing the single result'),
    resultCountAll: z.string().default('Showing all %s results'),
    resultCountRange: z.string().default('Showing %1$s–%2$s of %3$s results'),
    shopOrder: z.string().default('Shop order'),
    relatedProducts: z.string().default('Related products'),
    alsoBought: z.string().default('Customers also bought'),
    upsells: z.string().default('You may also like…'),
    crossSells: z.string().default('You may be interested in…'),
    notifyMe: z.string().default('Notify me when available'),
    notifyMeText: z
      .string()
      .default('Leave your email address and we will send you one email when it is back in stock.'),
    notifyMeOption: z.string().default('Option'),
    emailAddress: z.string().default('Email address'),
    notifyMeButton: z.string().default('Notify me'),
    notifyMeSubscribed: z
      .string()
      .default('Thank you. We will send you one email when it is back in stock.')
      .describe(
        'Shown after the back-in-stock form is sent, whether or not the address was already waiting.',
      ),
    notifyMeAvailable: z.string().default('Good news: it is back in stock. You can order it now.'),
    unsubscribeTitle: z.string().default('Back-in-stock emails'),
    unsubscribeText: z
      .string()
      .default('Stop every back-in-stock email this address is still waiting for from this shop?'),
    unsubscribeButton: z.string().default('Stop these emails'),
    unsubscribeDone: z
      .string()
      .default('Done. This address will get no back-in-stock email for the products it was waiting for.'),
    sort: z.string().default('Sort'),
    orderings: z
      .strictObject({
        menu_order: z.string().default('Default sorting'),
        popularity: z.string().default('Sort by popularity'),
        rating: z.string().default('Sort by average rating'),
        date: z.string().default('Sort by latest'),
        price: z.string().default('Sort by price: low to high'),
        'price-desc': z.string().default('Sort by price: high to low'),
      })
      .prefault({}),
  })
  .prefault({});

const shopSchema = z
  .strictObject({
    name: z.string().min(1).default('Storefront'),
    tagline: z.string().default('Good things, honestly made'),
    currency: z
      .strictObject({
        code: z.string().length(3).default('USD'),
        symbol: z.string().default('$'),
        position: z.enum(['left', 'right', 'left_space', 'right_space']).default('left'),
        decimals: z.number().int().min(0).max(4).default(2),
        decimalSeparator: z.string().default('.'),
        thousandSeparator: z.string().default(','),
      })
      .prefault({}),
    productsPerPage: z.number().int().min(1).max(100).default(12),
  })
  .prefault({});

/** Money in the shop currency's minor units (cents). */
const minorUnits = z.number().int().nonnegative();

const shippingMethodSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('flat_rate'),
    title: z.string().min(1).default('Flat rate'),
    cost: minorUnits.default(0),
  }),
  z.strictObject({
    type: z.literal('free_shipping'),
    title: z.string().min(1).default('Free shipping'),
    minAmount: minorUnits.nullable().default(null),
  }),
  z.strictObject({
    type: z.literal('local_pickup'),
    title: z.string().min(1).default('Local pickup'),
    cost: minorUnits.default(0),
  }),
]);

const shippingZoneSchema = z.strictObject({
  name: z.string().min(1),
  regions: z
    .array(z.string().regex(/^[A-Za-z]{2}(:[A-Za-z0-9-]{1,10})?$/, 'must be a country code or COUNTRY:STATE'))
    .default([]),
  postcodes: z.array(z.string().min(1).max(40)).default([]),
  methods: z.array(shippingMethodSchema).default([]),
});

const taxRateSchema = z.strictObject({
  country: z.string().regex(/^([A-Za-z]{2}|\*)$/, 'must be a country code or *'),
  state: z.string().max(10).default(''),
  rate: z.number().min(0).max(100),
  label: z.string().min(1).default('Tax'),
  shipping: flag(true),
});

const bacsAccountSchema = z.strictObject({
  accountName: z.string().default(''),
  accountNumber: z.string().default(''),
  bankName: z.string().default(''),
  sortCode: z.string().default(''),
  iban: z.string().default(''),
  bic: z.string().default(''),
});

/** Product reviews (docs/reviews.md): how a new review is published and who may write one. */
const reviewsSchema = z
  .strictObject({
    moderation: z
      .enum(['hold', 'publish'])
      .default('hold')
      .describe(
        "hold: a new review waits for the owner's approval at /admin/reviews/; publish: it is shown (and counted in the rating) at once.",
      ),
    verifiedOwnersOnly: flag(false).describe(
      'Only shoppers whose email has a processing or completed order of the product may review it.',
    ),
    perHour: z
      .number()
      .int()
      .positive()
      .default(5)
      .describe(
        'Reviews one client address may send per hour, counted across every server process; the next one gets 429.',
      ),
  })
  .prefault({});

/** Shipping, tax, addresses and payment at checkout: read by the server only, not rendered into every page. */
const checkoutSchema = z
  .strictObject({
    allowedCountries: z
      .array(z.string().regex(/^[A-Z]{2}$/))
      .default([])
      .describe('Countries shoppers can buy from and ship to (ISO codes); empty: every country.'),
    defaultCountry: z
      .string()
      .regex(/^[A-Z]{2}$/)
      .default('US')
      .describe(
        'The country the checkout form starts with (and quotes shipping for before an address is known).',
      ),
    pricesIncludeTax: flag(false).describe(
      'Whether catalog prices are entered with tax included (the tax is then the part of the price the rate accounts for).',
    ),
    taxRates: z
      .array(taxRateSchema)
      .default([])
      .describe(
        'One standard class: {country (or *), state (or empty), rate in percent, label, shipping (taxed too)}; the most specific match applies. None: no tax.',
      ),
    shippingZones: z
      .array(shippingZoneSchema)
      .default([
        {
          name: 'Everywhere',
          regions: [],
          postcodes: [],
          methods: [
            { type: 'flat_rate', title: 'Flat rate', cost: 500 },
            { type: 'free_shipping', title: 'Free shipping', minAmount: 5000 },
            { type: 'local_pickup', title: 'Local pickup', cost: 0 },
          ],
        },
      ])
      .describe(
        'Tried in order; the first whose regions (US or US:CA; none = everywhere) and postcodes (90210, 902*, 90210...90299; none = any) match supplies the methods: flat_rate {cost}, free_shipping {minAmount or null}, local_pickup {cost}. Costs in minor units, without tax.',
      ),
    payment: z
      .strictObject({
        cod: z
          .strictObject({
            enabled: flag(true).describe('Cash on delivery: the order is processing at once.'),
          })
          .prefault({}),
        bacs: z
          .strictObject({
            enabled: flag(true).describe('Direct bank transfer: the order waits on-hold for the money.'),
            accounts: z
              .array(bacsAccountSchema)
              .default([])
              .describe('The bank accounts shown on the order-received page for the transfer.'),
          })
          .prefault({}),
        cheque: z
          .strictObject({
            enabled: flag(true).describe('Check payments: the order waits on-hold for the check.'),
            instructions: z
              .string()
              .default('Please send a check to the shop’s address; your order ships once it has cleared.')
              .describe('What the order-received page tells a shopper paying by check.'),
          })
          .prefault({}),
      })
      .prefault({}),
  })
  .prefault({});

/** Never rendered into a page: secrets and owner credentials. */
const serverSchema = z
  .strictObject({
    /** HMAC secret for nonces and signatures; shared by every process. Null: generated once and kept in the database. */
    secret: z.string().min(32).nullable().default(null),
    /** `scrypt$<salt>$<key>` from `npm run owner-password` (which refuses a password under 10 characters). */
    ownerPasswordHash: z
      .string()
      .regex(
        OWNER_PASSWORD_HASH,
        'must be scrypt$<salt>$<key> as `npm run owner-password` prints it, never the password itself',
      )
      .nullable()
      .default(null),
    /** The owner's API token (Bearer); a weak one is refused at start-up. */
    ownerToken: z
      .string()
      .min(
        MIN_OWNER_TOKEN_LENGTH,
        `must be at least ${MIN_OWNER_TOKEN_LENGTH} characters (e.g. \`openssl rand -base64 32\`)`,
      )
      .nullable()
      .default(null),
    sessionTtlHours: z.number().positive().default(48),
    /**
     * New carts (stored sessions) one client address may start per hour; a script adding to the cart without
     * keeping its cookie would otherwise write a row per request. High, as many shoppers can share an address.
     */
    newSessionsPerHour: z.number().int().positive().default(300),
    /**
     * Take the client's address and protocol from X-Forwarded-For / X-Forwarded-Proto. Only behind a proxy that
     * overwrites those headers (README "Configuration"): otherwise any client can claim any address.
     */
    trustProxy: flag(false),
    loopSliceMs: z
      .number()
      .positive()
      .max(1000)
      .default(1)
      .describe(
        'Request work a process starts per turn of its event loop before later requests wait their turn in arrival order (docs/architecture.md "Turns"): the loop accepts one new connection per turn, so short turns let new visitors in while it is busy.',
      ),
    /** The render cache of anonymous pages (docs/scale-out.md): memory bound and what a CDN may hold. */
    pageCache: z
      .strictObject({
        maxBytes: z
          .number()
          .int()
          .min(0)
          .default(64 * 1024 * 1024)
          .describe(
            'Memory the render cache of anonymous pages may use per process (HTML plus its brotli and gzip copies), least recently used dropped first; 0 turns the cache off.',
          ),
        cdnMaxAgeSeconds: z
          .number()
          .int()
          .min(0)
          .max(3600)
          .default(10)
          .describe(
            '`s-maxage` of cacheable anonymous pages: how long a CDN or shared proxy may serve one without asking (browsers always revalidate with the ETag).',
          ),
        staleWhileRevalidateSeconds: z
          .number()
          .int()
          .min(0)
          .max(86_400)
          .default(60)
          .describe(
            '`stale-while-revalidate` of cacheable anonymous pages: how long after `s-maxage` a CDN may still answer with its copy while it fetches a fresh one.',
          ),
      })
      .prefault({}),
    faviconFile: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe(
        'The icon served at /favicon.ico: a .ico, .png or .svg file path (relative to the working directory). Null: the icon shipped with the shop.',
      ),
    /** Test-only fault injection, off by default: `image-subsizes` fails sub-sizes after the thumbnail (README). */
    testFaults: z.array(z.enum(['image-subsizes'])).default([]),

    /**
     * Order mail (docs/back-office.md "Mail"). Under `server` because the SMTP address holds a password and the
     * owner's address is private: neither may reach a page.
     */
    mail: z
      .strictObject({
        smtp: z
          .string()
          .regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL')
          .nullable()
          .default(null)
          .describe(
            'SMTP server URL for order mail, `smtp://user:password@host:587` or `smtps://…:465`; null writes each message as an `.eml` file into `DATA_DIR/mail/`',
          ),
        from: nullableString.describe(
          'From of every mail, e.g. `Fern & Flax <orders@example.com>`; null: the shop name at `shop@localhost`',
        ),
        owner: z
          .email('must be an email address')
          .nullable()
          .default(null)
          .describe(
            'Where "new order" mail goes; null: the address stored by `npm run owner -- set-password --email`, else no such mail',
          ),
        shopUrl: z
          .string()
          .regex(
            /^https?:\/\/[^\s/?#]+\/?$/,
            'must be an http:// or https:// origin, like https://shop.example',
          )
          .nullable()
          .default(null)
          .describe(
            "The shop's public origin for links in mail, e.g. `https://example.com` (never taken from a request's Host header); null: no links",
          ),
      })
      .prefault({}),

    /** Visitor statistics, server side. */
    stats: z
      .strictObject({
        /**
         * Days raw statistics (hits, visitors, events) and search analytics (search_queries) are kept; the daily
         * summaries (insights, excluded-hit counts) are kept beyond. 400: the longest range the insights page shows.
         */
        retentionDays: z.number().int().positive().default(400),
        /** Paths not counted (recorded as exclusions): `*` matches any characters, e.g. `/wp-admin/*`. */
        excludedUrls: z.array(z.string()).default([]),
        /**
         * Hits and events per client address per minute before 429, whatever user agent they claim (bots too;
         * an IPv6 address counts by its /64). People behind one NAT share it; one person never comes near it.
         */
        rateLimitPerMinute: z.number().int().positive().default(120),
        /**
         * Searches recorded in the owner's search analytics per client address per minute (an IPv6 address by its
         * /64), counted across processes. Beyond it a search is still answered, not recorded (counted on /healthz as
         * `cappedWrites.searchQueries`). A typing burst counts once, so a person typing never comes near it; a crawler
         * of search URLs cannot fill the table or hold the database's writer.
         */
        recordedSearchesPerMinute: z.number().int().positive().default(60),
        /** Visitors one client address can add to "online now" (several people behind one NAT stay counted). */
        onlinePerAddress: z.number().int().positive().default(5),
        /** Group commit: the longest a hit waits for its batch, and the largest batch. */
        batchDelayMs: z.number().int().nonnegative().default(5),
        batchSize: z.number().int().positive().default(500),
        /** How often the in-memory online presence is written to the database. */
        onlineFlushMs: z.number().int().positive().default(10_000),
      })
      .prefault({}),
  })
  .prefault({});

const publicSettingsShape = {
  shop: shopSchema,
  theme: themeSchema,
  cart: cartSchema,
  search: searchSchema,
  swatches: swatchesSchema,
  attribution: attributionSchema,
  stats: statsSchema,
  consent: consentSchema,
  rest: restSchema,
  reviews: reviewsSchema,
  i18n: i18nSchema,
};

export const settingsSchema = z.strictObject({
  ...publicSettingsShape,
  checkout: checkoutSchema,
  server: serverSchema,
});
export const publicSettingsSchema = z.strictObject(publicSettingsShape);

/** Shipping, tax, addresses and payment, as the server reads them. */
export type CheckoutSettings = z.output<typeof checkoutSchema>;
/** Everything the shop is configured with, checkout and server sections included. */
export type ShopConfig = z.output<typeof settingsSchema>;
/** What pages receive in #shop-settings. */
export type PageSettings = z.output<typeof publicSettingsSchema>;
