import type { CatalogImport, ImportProduct } from '../import/catalogImport';
import { EMPTY_SIDECAR, type SiteSidecar } from '../import/siteSidecarSchema';

/*
 * A deterministic synthetic catalog for benchmarks (`npm run seed:bench -- --products 100000`): the same seed
 * always gives the same products, variations, brands, vendors and sales. Names are built from a shop-like
 * vocabulary plus invented model names, so the index sees a realistic number of distinct words (tens of
 * thousands) with a long tail, and popularity follows a Zipf-like curve as real sales do.
 */

const ADJECTIVES =
  `classic relaxed slim vintage organic washed brushed heavyweight lightweight soft cosy everyday
  essential premium rustic modern minimal handmade recycled waterproof insulated breathable stretch tailored oversized
  cropped ribbed quilted padded knitted woven printed striped checked plain textured matte glossy speckled hammered
  polished brushed raw natural undyed hand-thrown hand-dyed fair-trade small-batch limited heritage coastal alpine urban
  nordic tropical desert autumn winter summer spring midnight`.split(/\s+/);
const MATERIALS =
  `cotton linen wool merino cashmere silk denim canvas leather suede corduroy fleece jersey bamboo hemp
  oak walnut ash beech teak rattan cane bamboo ceramic stoneware porcelain glass brass copper steel iron aluminium
  marble slate cork felt velvet tweed chambray poplin`.split(/\s+/);
const COLORS =
  `black white grey charcoal navy indigo blue sky teal green sage olive khaki yellow mustard ochre orange
  rust red burgundy pink blush lilac purple brown tan sand oat cream ivory`.split(/\s+/);
const SIZES = ['XS', 'S', 'M', 'L', 'XL', 'XXL'];
const NOUNS: Record<string, string[]> = {
  'Clothing > Tops': ['t-shirt', 'tee', 'shirt', 'blouse', 'polo', 'tank top', 'henley', 'long sleeve tee'],
  'Clothing > Hoodies': ['hoodie', 'sweatshirt', 'zip hoodie', 'pullover', 'crewneck'],
  'Clothing > Knitwear': ['jumper', 'cardigan', 'sweater', 'vest', 'turtleneck'],
  'Clothing > Outerwear': ['jacket', 'coat', 'parka', 'raincoat', 'gilet', 'overshirt', 'blazer'],
  'Clothing > Bottoms': ['jeans', 'trousers', 'chinos', 'shorts', 'skirt', 'joggers', 'leggings'],
  'Clothing > Accessories': [
    'scarf',
    'beanie',
    'cap',
    'belt',
    'gloves',
    'socks',
    'sunglasses',
    'tote bag',
    'backpack',
  ],
  'Footwear > Shoes': ['sneakers', 'trainers', 'boots', 'loafers', 'sandals', 'slippers', 'espadrilles'],
  'Home > Kitchen': [
    'mug',
    'bowl',
    'plate',
    'jug',
    'teapot',
    'cutting board',
    'knife',
    'pan',
    'apron',
    'tea towel',
  ],
  'Home > Bedding': ['duvet cover', 'pillowcase', 'sheet', 'blanket', 'throw', 'quilt', 'cushion'],
  'Home > Decor': [
    'vase',
    'candle',
    'lamp',
    'mirror',
    'frame',
    'planter',
    'bookends',
    'clock',
    'rug',
    'basket',
  ],
  'Home > Bath': ['towel', 'bath mat', 'robe', 'soap dish', 'toothbrush holder'],
  'Outdoor > Garden': ['watering can', 'trowel', 'hose', 'bird feeder', 'plant pot', 'gardening gloves'],
  'Outdoor > Camping': ['tent', 'sleeping bag', 'lantern', 'camping stove', 'hammock', 'water bottle'],
  'Electronics > Audio': ['headphones', 'earbuds', 'speaker', 'turntable', 'radio'],
  'Electronics > Accessories': ['charger', 'cable', 'phone case', 'power bank', 'laptop sleeve', 'keyboard'],
  'Beauty > Skincare': ['moisturiser', 'cleanser', 'serum', 'face oil', 'lip balm', 'hand cream'],
  'Toys > Wooden toys': ['puzzle', 'building blocks', 'train set', 'rocking horse', 'stacking rings'],
  'Stationery > Paper': ['notebook', 'journal', 'planner', 'sketchbook', 'greeting card', 'wrapping paper'],
};
const APPAREL = new Set([
  'Clothing > Tops',
  'Clothing > Hoodies',
  'Clothing > Knitwear',
  'Clothing > Outerwear',
  'Clothing > Bottoms',
]);
const SYLLABLES =
  `ka ri lo ve ta mi no sa be lu do fe ra zi mo ne pa ti co va le su gra bri sto fla kel mar tor
  win ash ber den fal gar hol kin lan mor nor pel ros sel tam vil wyn`.split(/\s+/);
const CITIES =
  `Bristol Leeds York Bath Oxford Cardiff Glasgow Belfast Brighton Norwich Exeter Whitby Porto Lyon Ghent
  Utrecht Aarhus Bergen Turku Kraków Lisbon Bilbao Trieste Graz Bern`.split(/\s+/);
const PHRASES = [
  'Made to last and easy to care for.',
  'Designed in our studio and made in small runs.',
  'A quiet favourite that goes with everything.',
  'Finished by hand, so each one is slightly different.',
  'Packed without plastic and shipped carbon neutral.',
  'Machine washable at thirty degrees.',
  'Ethically sourced from a family workshop.',
  'Our best seller for three seasons running.',
];

/** mulberry32: a tiny seeded generator, so the catalog is the same on every machine. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const title = (word: string) =>
  word.replace(/(^|[\s-])(\p{L})/gu, (_, space: string, letter: string) => space + letter.toUpperCase());

interface BenchCatalogOptions {
  products: number;
  seed?: number;
}

export function generateBenchCatalog({ products, seed = 42 }: BenchCatalogOptions): CatalogImport {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  // Zipf-like: low indexes far more often (popular brands, best sellers).
  const zipf = (n: number) => Math.min(n - 1, Math.floor(n ** next()) - 1);
  const word = (parts: number) => title(Array.from({ length: parts }, () => pick(SYLLABLES)).join(''));

  const models = Array.from({ length: Math.max(50, Math.floor(products / 10)) }, () =>
    word(2 + Math.floor(next() * 2)),
  );
  const brands = Array.from({ length: Math.max(10, Math.floor(products / 500)) }, (_, index) => {
    const name = `${word(2)} ${pick(['Co.', 'Studio', 'Goods', 'Works', 'Supply', 'Label', '& Sons', 'Atelier'])}`;
    return {
      name,
      slug: `bench-brand-${index + 1}`,
      description: `${name}, makers since ${1950 + Math.floor(next() * 70)}.`,
    };
  });
  const vendors = Array.from({ length: Math.max(5, Math.floor(products / 1000)) }, (_, index) => ({
    slug: `bench-vendor-${index + 1}`,
    name: `${word(2)} ${pick(['Market', 'Trading', 'House', 'Store', 'Collective'])}`,
    storeUrl: null,
    city: pick(CITIES),
  }));
  const categories = Object.keys(NOUNS);
  const site: SiteSidecar = {
    ...EMPTY_SIDECAR,
    brands,
    vendors,
    categories: categories.map((path) => ({
      path,
      description: `Everything in ${path.split(' > ').at(-1)}.`,
    })),
    products: {},
  };

  const rows: ImportProduct[] = [];
  const names = new Set<string>();
  const base = (line: number): Omit<ImportProduct, 'type' | 'sku' | 'name'> => ({
    line,
    csvId: null,
    virtual: false,
    downloadable: false,
    published: true,
    featured: false,
    visibility: 'visible',
    shortDescription: '',
    description: '',
    regularPrice: null,
    salePrice: null,
    stockStatus: 'instock',
    stockQuantity: null,
    soldIndividually: false,
    categories: [],
    tags: [],
    brands: [],
    images: [],
    parent: null,
    groupedChildren: [],
    externalUrl: null,
    buttonText: null,
    position: 0,
    attributes: [],
    downloads: [],
  });

  for (let index = 0; index < products; index++) {
    const category = pick(categories);
    const noun = pick(NOUNS[category] as string[]);
    const material = pick(MATERIALS);
    // Names repeat rarely in a real shop: a popular model first, another one if that name is taken.
    let model = models[zipf(models.length)] as string;
    let name = '';
    for (let attempt = 0; attempt < 8; attempt++) {
      name = title(`${next() < 0.5 ? `${pick(ADJECTIVES)} ` : ''}${model} ${material} ${noun}`);
      if (!names.has(name)) break;
      model = pick(models);
    }
    names.add(name);
    const sku = `BN-${String(index + 1).padStart(6, '0')}`;
    const brand = brands[zipf(brands.length)] as (typeof brands)[number];
    const vendor = vendors[zipf(vendors.length)] as (typeof vendors)[number];
    const price = 500 + Math.floor(next() * 300) * 50;
    const roll = next();
    const visibility = roll < 0.02 ? 'hidden' : roll < 0.03 ? 'catalog' : roll < 0.04 ? 'search' : 'visible';
    const variable = APPAREL.has(category) && next() < 0.4;
    const colors = Array.from(new Set([pick(COLORS), pick(COLORS), pick(COLORS)]));
    const product: ImportProduct = {
      ...base(index + 2),
      type: variable ? 'variable' : 'simple',
      sku,
      name,
      featured: next() < 0.02,
      visibility,
      shortDescription: `A ${pick(ADJECTIVES)} ${noun} in ${pick(COLORS)} ${material}.`,
      description: `<p>${pick(PHRASES)} ${pick(PHRASES)} The ${model} ${noun} by ${brand.name}.</p>`,
      regularPrice: variable ? null : price,
      salePrice: !variable && next() < 0.1 ? Math.round(price * 0.8) : null,
      stockStatus: next() < 0.08 ? 'outofstock' : 'instock',
      categories: [category.split(' > ')],
      tags: [pick(ADJECTIVES), pick(COLORS)],
      brands: [brand.name],
      attributes: variable
        ? [
            { name: 'Color', values: colors.map(title), visible: true },
            { name: 'Size', values: SIZES.slice(1, 5), visible: true },
          ]
        : [{ name: 'Color', values: [title(colors[0] as string)], visible: true }],
    };
    rows.push(product);
    site.products[sku] = { vendor: vendor.slug, totalSales: Math.floor(10000 / (1 + zipf(5000))) };
    if (!variable) continue;
    for (const [position, color] of colors.entries()) {
      rows.push({
        ...base(index + 2),
        type: 'variation',
        sku: `${sku}-${color.toUpperCase()}`,
        name: `${name} - ${title(color)}`,
        regularPrice: price,
        stockStatus: next() < 0.1 ? 'outofstock' : 'instock',
        parent: { sku },
        position,
        // Size left as "any": one variation per colour covers every size.
        attributes: [
          { name: 'Color', values: [title(color)], visible: true },
          { name: 'Size', values: [], visible: true },
        ],
      });
    }
  }
  return { products: rows, site };
}
