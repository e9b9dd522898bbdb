import { createHash } from 'node:crypto';
import { type CartView, type CartViewLine, EMPTY_CART, MAX_LINE_QUANTITY } from '../../shared/cart/cartTypes';
import { purchasableQuantity } from '../../shared/catalog/purchasable';
import { attributeFieldName, type ProductDetail, type Variation } from '../../shared/catalog/types';
import { productUrl } from '../../shared/catalog/urls';
import { selectVariation } from '../../shared/catalog/variations/selectVariation';
import { ShopError } from '../../shared/errors/ShopError';
import type { CartLine, CatalogRepository } from '../db/ports';

/*
 * The cart's rules, apart from HTTP: what may be added, how quantities are limited, and how a stored cart is
 * priced against the current catalog (prices are never stored in the cart, so a price change applies at once).
 */

export interface AddToCartRequest {
  productId: number;
  variationId: number | null;
  quantity: number;
  /** Chosen values keyed `attribute_{slug}`, from the form. */
  attributes: Record<string, string>;
}

/** The same product, variation and chosen values always give the same key (WooCommerce's cart item key). */
export function cartLineKey(
  productId: number,
  variationId: number | null,
  attributes: Record<string, string>,
): string {
  const sorted = Object.fromEntries(Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('md5')
    .update(JSON.stringify([productId, variationId ?? 0, sorted]))
    .digest('hex');
}

/** Most of a product or variation one cart may hold: sold individually, stock, then the contract's 9999. */
export function maxQuantityOf(product: ProductDetail, variation: Variation | null): number | null {
  if (product.soldIndividually) return 1;
  if (variation) return variation.max_qty;
  return purchasableQuantity(product);
}

export interface PreparedAdd {
  product: ProductDetail;
  /** The line to add, with the quantity to add. */
  line: CartLine;
  max: number | null;
}

/** Adds a prepared line to the cart as it is now; refuses a total above the stock or the product's maximum. */
export function applyAdd(cart: CartLine[], { product, line, max }: PreparedAdd): CartLine[] {
  const existing = cart.find((each) => each.key === line.key);
  const wanted = (existing?.quantity ?? 0) + line.quantity;
  if (max !== null && wanted > max) {
    throw new ShopError(
      'out_of_stock',
      product.soldIndividually
        ? `You cannot add another “${product.name}” to your cart.`
        : `You cannot add that amount to the cart — we have ${max} in stock and you already have ${existing?.quantity ?? 0} in your cart.`,
    );
  }
  const next = { ...line, quantity: wanted };
  return existing ? cart.map((each) => (each.key === line.key ? next : each)) : [...cart, next];
}

/**
 * Sets a line's quantity in the cart as it is now (0 removes it). The line may have gone since the quantity was
 * checked (another tab removed it): that is an unknown item, not a resurrection.
 */
export function applyQuantity(cart: CartLine[], key: string, quantity: number): CartLine[] {
  if (!cart.some((each) => each.key === key)) {
    throw new ShopError('unknown_cart_item', 'That item is no longer in your cart.');
  }
  if (quantity === 0) return cart.filter((each) => each.key !== key);
  return cart.map((each) => (each.key === key ? { ...each, quantity } : each));
}

/** The visitor's stored cart: read as it is, or changed atomically from its latest state (the session's transaction). */
export interface StoredCart {
  cart(): Promise<CartLine[]>;
  updateCart(update: (cart: CartLine[]) => CartLine[]): Promise<CartLine[]>;
}

export class CartService {
  #catalog: CatalogRepository;
  constructor(catalog: CatalogRepository) {
    this.#catalog = catalog;
  }

  /** Adds a product (or the variation the chosen values select) to the cart; returns the new cart and the line's key. */
  async add(
    cart: CartLine[],
    request: AddToCartRequest,
  ): Promise<{ cart: CartLine[]; line: CartLine; product: ProductDetail }> {
    const prepared = await this.prepareAdd(request);
    const next = applyAdd(cart, prepared);
    return {
      cart: next,
      line: next.find((each) => each.key === prepared.line.key) as CartLine,
      product: prepared.product,
    };
  }

  /**
   * Everything about an addition that needs the catalog, checked before the cart is touched; `applyAdd` then
   * applies it to whatever the cart holds at that moment (inside the session's transaction).
   */
  async prepareAdd(request: AddToCartRequest): Promise<PreparedAdd> {
    const product = await this.#catalog.getProductById(request.productId);
    if (!product) throw new ShopError('product_not_found', 'That product does not exist.');
    if (product.type === 'grouped' || product.type === 'external') {
      throw new ShopError('not_purchasable', `“${product.name}” cannot be added to the cart.`);
    }
    if (!Number.isInteger(request.quantity) || request.quantity < 1 || request.quantity > MAX_LINE_QUANTITY) {
      throw new ShopError('invalid_quantity', `Please enter a quantity between 1 and ${MAX_LINE_QUANTITY}.`);
    }

    let variation: Variation | null = null;
    let attributes: Record<string, string> = {};
    if (product.type === 'variable') {
      ({ variation, attributes } = this.#chooseVariation(product, request));
    }
    const price = variation ? variation.price : product.price.min;
    const inStock = variation ? variation.is_in_stock : purchasableQuantity(product) !== 0;
    if (price === null) throw new ShopError('not_purchasable', `“${product.name}” cannot be bought yet.`);
    if (!inStock) throw new ShopError('out_of_stock', `“${product.name}” is out of stock.`);

    const line: CartLine = {
      key: cartLineKey(product.id, variation?.id ?? null, attributes),
      productId: product.id,
      variationId: variation?.id ?? null,
      attributes,
      quantity: request.quantity,
    };
    return { product, line, max: maxQuantityOf(product, variation) };
  }

  /**
   * Adds to the stored cart. Everything that needs the catalog is checked first; the additions are then applied to
   * the cart as it is when written, so a change made meanwhile in another tab is kept.
   */
  async addToStoredCart(stored: StoredCart, requests: AddToCartRequest[]): Promise<CartView> {
    const additions = await Promise.all(requests.map((each) => this.prepareAdd(each)));
    return this.view(await stored.updateCart((cart) => additions.reduce(applyAdd, cart)));
  }

  /**
   * Sets quantities of the stored cart (0 removes a line). Each is checked against the cart as read (see
   * allowedQuantity) and applied to the cart as it is when written: only the named lines change, so two tabs never
   * undo each other's other lines, and the last write wins on a line.
   */
  async setStoredQuantities(
    stored: StoredCart,
    wanted: [key: string, quantity: number][],
  ): Promise<{ view: CartView; allowed: { key: string; quantity: number; clamped: boolean }[] }> {
    const read = await stored.cart();
    const allowed: { key: string; quantity: number; clamped: boolean }[] = [];
    for (const [key, quantity] of wanted) {
      allowed.push({ key, ...(await this.allowedQuantity(read, key, quantity)) });
    }
    const cart = await stored.updateCart((current) =>
      allowed.reduce((next, { key, quantity }) => applyQuantity(next, key, quantity), current),
    );
    return { view: await this.view(cart), allowed };
  }

  /**
   * Sets a line's quantity (0 removes it). Values outside 0..9999 are refused; a valid value above the stock or the
   * product's maximum is clamped to it, as WooCommerce's own cart does.
   */
  async setQuantity(
    cart: CartLine[],
    key: string,
    quantity: number,
  ): Promise<{ cart: CartLine[]; quantity: number; clamped: boolean }> {
    const result = await this.allowedQuantity(cart, key, quantity);
    return { ...result, cart: applyQuantity(cart, key, result.quantity) };
  }

  /** The quantity a line may be set to: refuses an unknown key or an invalid value, clamps to the stock. */
  async allowedQuantity(
    cart: CartLine[],
    key: string,
    quantity: number,
  ): Promise<{ quantity: number; clamped: boolean }> {
    const line = cart.find((each) => each.key === key);
    if (!line) throw new ShopError('unknown_cart_item', 'That item is no longer in your cart.');
    if (!Number.isInteger(quantity) || quantity < 0 || quantity > MAX_LINE_QUANTITY) {
      throw new ShopError('invalid_quantity', `Please enter a quantity between 0 and ${MAX_LINE_QUANTITY}.`);
    }
    if (quantity === 0) return { quantity: 0, clamped: false };
    const product = await this.#catalog.getProductById(line.productId);
    const variation = product?.variations.find((each) => each.id === line.variationId) ?? null;
    const max = product ? maxQuantityOf(product, variation) : null;
    const allowed = max !== null ? Math.min(quantity, max) : quantity;
    return { quantity: allowed, clamped: allowed !== quantity };
  }

  /** Prices the stored cart against the catalog; lines whose product is gone or unbuyable are left out. */
  async view(cart: CartLine[]): Promise<CartView> {
    if (cart.length === 0) return EMPTY_CART;
    const lines: CartViewLine[] = [];
    const products = new Map<number, ProductDetail | null>();
    for (const line of cart) {
      if (!products.has(line.productId))
        products.set(line.productId, await this.#catalog.getProductById(line.productId));
      const product = products.get(line.productId);
      if (!product) continue;
      const variation =
        line.variationId === null
          ? null
          : (product.variations.find((each) => each.id === line.variationId) ?? null);
      if (line.variationId !== null && !variation) continue;
      const unitPrice = variation ? variation.price : product.price.min;
      if (unitPrice === null) continue;
      const labels = new Map(
        product.attributes.map((attribute) => [attributeFieldName(attribute.slug), attribute]),
      );
      lines.push({
        key: line.key,
        productId: product.id,
        variationId: line.variationId,
        name: product.name,
        permalink: productUrl(product.slug),
        image: variation?.image ?? product.image,
        sku: variation?.sku ?? product.sku,
        attributes: Object.entries(line.attributes).map(([field, value]) => {
          const attribute = labels.get(field);
          return {
            label: attribute?.name ?? field,
            value: attribute?.options.find((option) => option.slug === value)?.name ?? value,
          };
        }),
        quantity: line.quantity,
        maxQuantity: maxQuantityOf(product, variation),
        unitPrice,
        lineTotal: unitPrice * line.quantity,
      });
    }
    const subtotal = lines.reduce((sum, line) => sum + line.lineTotal, 0);
    const itemCount = lines.reduce((sum, line) => sum + line.quantity, 0);
    const hash =
      lines.length === 0
        ? ''
        : createHash('md5')
            .update(JSON.stringify(lines.map((line) => [line.key, line.quantity, line.unitPrice])))
            .digest('hex');
    return { lines, itemCount, subtotal, total: subtotal, hash };
  }

  #chooseVariation(product: ProductDetail, request: AddToCartRequest) {
    const variationAttributes = product.attributes.filter((attribute) => attribute.forVariations);
    const chosen: Record<string, string> = {};
    for (const attribute of variationAttributes) {
      const field = attributeFieldName(attribute.slug);
      const value = request.attributes[field] ?? '';
      if (value !== '' && !attribute.options.some((option) => option.slug === value)) {
        throw new ShopError(
          'invalid_variation',
          `“${value}” is not a ${attribute.name} of “${product.name}”.`,
        );
      }
      chosen[field] = value;
    }
    const variation =
      request.variationId !== null
        ? (product.variations.find((each) => each.id === request.variationId) ?? null)
        : selectVariation(
            product.variations,
            variationAttributes.map((attribute) => attributeFieldName(attribute.slug)),
            chosen,
          );
    if (!variation) {
      const missing = variationAttributes.filter((attribute) => !chosen[attributeFieldName(attribute.slug)]);
      throw new ShopError(
        'invalid_variation',
        missing.length > 0
          ? `Please choose product options: ${missing.map((attribute) => attribute.name).join(', ')}.`
          : 'Sorry, this product is unavailable. Please choose a different combination.',
      );
    }
    // A variation's own values win; one it leaves as "any" needs the shopper's choice.
    const attributes: Record<string, string> = {};
    for (const [field, value] of Object.entries(variation.attributes)) {
      const picked = value === '' ? chosen[field] : value;
      if (!picked) {
        const attribute = variationAttributes.find((each) => attributeFieldName(each.slug) === field);
        throw new ShopError('invalid_variation', `Please choose ${attribute?.name ?? field}.`);
      }
      if (request.variationId !== null && value !== '' && chosen[field] && chosen[field] !== value) {
        throw new ShopError('invalid_variation', 'The chosen options do not match that variation.');
      }
      attributes[field] = picked;
    }
    return { variation, attributes };
  }
}
