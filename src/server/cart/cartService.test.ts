import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_CART } from '../../shared/cart/cartTypes';
import { isShopError, type ShopErrorCode } from '../../shared/errors/ShopError';
import { seedDemoCatalog } from '../catalog/import/seedDemoCatalog';
import { openDatabase } from '../db/openDatabase';
import type { CartLine, Repositories } from '../db/ports';
import { createSqliteRepositories } from '../db/sqlite/createSqliteRepositories';
import { type AddToCartRequest, CartService, cartLineKey } from './cartService';

/* The cart's rules against the seeded demo catalog (src/server/catalog/demo/products.csv). */
const MUG = 1021; // simple, 24 in stock, $18
const BOWL = 1022; // simple, stock not managed, $16
const ESPRESSO_CUPS = 1023; // simple, out of stock
const WALNUT_BOARD = 1024; // simple, sold individually, 1 in stock
const LINEN_SHIRT = 1001; // variable: Color × Size, Sage/S has 4 in stock, Indigo/L out of stock, Rust/M on sale
const SAGE_S = 1002;
const RUST_M = 1006;
const ORGANIC_TEE = 1007; // variable: each colour's variation leaves Size as "any"
const TEE_WHITE = 1008;
const LAMP = 1040; // external
const BREAKFAST_SET = 1041; // grouped
const SHIBORI_NAPKINS = 1037; // draft

let dataDir: string;
let repositories: Repositories;
let cartService: CartService;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'shop-'));
  repositories = createSqliteRepositories(openDatabase(dataDir));
  await seedDemoCatalog(repositories);
  cartService = new CartService(repositories.catalog);
});

afterAll(async () => {
  await repositories.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const request = (overrides: Partial<AddToCartRequest> & { productId: number }): AddToCartRequest => ({
  variationId: null,
  quantity: 1,
  attributes: {},
  ...overrides,
});

/** The code of the ShopError `promise` rejects with. */
async function errorCode(promise: Promise<unknown>): Promise<ShopErrorCode> {
  try {
    await promise;
  } catch (error) {
    if (isShopError(error)) return error.code;
    throw error;
  }
  throw new Error('it succeeded');
}

describe('CartService.add', () => {
  it('adds a simple product as a new line', async () => {
    const { cart, line, product } = await cartService.add([], request({ productId: MUG, quantity: 2 }));
    expect(product.id).toBe(MUG);
    expect(line).toEqual({
      key: cartLineKey(MUG, null, {}),
      productId: MUG,
      variationId: null,
      attributes: {},
      quantity: 2,
    });
    expect(cart).toEqual([line]);
  });

  it('merges the same product into the existing line', async () => {
    const first = await cartService.add([], request({ productId: MUG, quantity: 2 }));
    const second = await cartService.add(first.cart, request({ productId: MUG, quantity: 3 }));
    expect(second.cart).toHaveLength(1);
    expect(second.line.key).toBe(first.line.key);
    expect(second.line.quantity).toBe(5);
  });

  it('keeps other lines when adding', async () => {
    const { cart: withMug } = await cartService.add([], request({ productId: MUG }));
    const { cart } = await cartService.add(withMug, request({ productId: BOWL }));
    expect(cart.map((line) => line.productId)).toEqual([MUG, BOWL]);
  });

  it.each([0, -1, 10000, 1.5, Number.NaN])('refuses the quantity %s', async (quantity) => {
    expect(await errorCode(cartService.add([], request({ productId: MUG, quantity })))).toBe(
      'invalid_quantity',
    );
  });

  it('accepts the largest allowed quantity for a product without stock management', async () => {
    const { line } = await cartService.add([], request({ productId: BOWL, quantity: 9999 }));
    expect(line.quantity).toBe(9999);
  });

  it('refuses an unknown or unpublished product', async () => {
    expect(await errorCode(cartService.add([], request({ productId: 999999 })))).toBe('product_not_found');
    expect(await errorCode(cartService.add([], request({ productId: SHIBORI_NAPKINS })))).toBe(
      'product_not_found',
    );
  });

  it('refuses grouped and external products', async () => {
    expect(await errorCode(cartService.add([], request({ productId: BREAKFAST_SET })))).toBe(
      'not_purchasable',
    );
    expect(await errorCode(cartService.add([], request({ productId: LAMP })))).toBe('not_purchasable');
  });

  it('refuses a variable product without choices', async () => {
    expect(await errorCode(cartService.add([], request({ productId: LINEN_SHIRT })))).toBe(
      'invalid_variation',
    );
  });

  it('refuses a choice that is not one of the attribute values', async () => {
    const attributes = { attribute_color: 'purple', attribute_size: 's' };
    expect(await errorCode(cartService.add([], request({ productId: LINEN_SHIRT, attributes })))).toBe(
      'invalid_variation',
    );
  });

  it('refuses a combination no variation offers', async () => {
    // Oat exists, S exists, but there is no Oat/S variation.
    const attributes = { attribute_color: 'oat', attribute_size: 's' };
    expect(await errorCode(cartService.add([], request({ productId: LINEN_SHIRT, attributes })))).toBe(
      'invalid_variation',
    );
  });

  it('finds the variation the choices select and keeps them on the line', async () => {
    const attributes = { attribute_color: 'sage', attribute_size: 's' };
    const { line } = await cartService.add([], request({ productId: LINEN_SHIRT, attributes }));
    expect(line).toMatchObject({ productId: LINEN_SHIRT, variationId: SAGE_S, attributes });
  });

  it('refuses a variation id whose values contradict the choices', async () => {
    const attributes = { attribute_color: 'rust', attribute_size: 'm' };
    expect(
      await errorCode(
        cartService.add([], request({ productId: LINEN_SHIRT, variationId: SAGE_S, attributes })),
      ),
    ).toBe('invalid_variation');
  });

  it('refuses an out-of-stock variation', async () => {
    const attributes = { attribute_color: 'indigo', attribute_size: 'l' };
    expect(await errorCode(cartService.add([], request({ productId: LINEN_SHIRT, attributes })))).toBe(
      'out_of_stock',
    );
  });

  it('requires a value for an attribute the variation leaves as "any"', async () => {
    expect(
      await errorCode(
        cartService.add([], request({ productId: ORGANIC_TEE, attributes: { attribute_color: 'white' } })),
      ),
    ).toBe('invalid_variation');
    expect(
      await errorCode(
        cartService.add(
          [],
          request({
            productId: ORGANIC_TEE,
            variationId: TEE_WHITE,
            attributes: { attribute_color: 'white' },
          }),
        ),
      ),
    ).toBe('invalid_variation');
  });

  it('keeps the chosen value of an "any" attribute in the line', async () => {
    const attributes = { attribute_color: 'white', attribute_size: 'xl' };
    const { line } = await cartService.add([], request({ productId: ORGANIC_TEE, attributes }));
    expect(line.variationId).toBe(TEE_WHITE);
    expect(line.attributes).toEqual({ attribute_color: 'white', attribute_size: 'xl' });
  });

  it('makes separate lines for different "any" values of the same variation', async () => {
    const { cart: small } = await cartService.add(
      [],
      request({ productId: ORGANIC_TEE, attributes: { attribute_color: 'white', attribute_size: 's' } }),
    );
    const { cart } = await cartService.add(
      small,
      request({ productId: ORGANIC_TEE, attributes: { attribute_color: 'white', attribute_size: 'l' } }),
    );
    expect(cart).toHaveLength(2);
    expect(new Set(cart.map((line) => line.key)).size).toBe(2);
    expect(cart.every((line) => line.variationId === TEE_WHITE)).toBe(true);
  });

  it('refuses an out-of-stock product', async () => {
    expect(await errorCode(cartService.add([], request({ productId: ESPRESSO_CUPS })))).toBe('out_of_stock');
  });

  it('refuses more than the stock, counting what is already in the cart', async () => {
    expect(await errorCode(cartService.add([], request({ productId: MUG, quantity: 25 })))).toBe(
      'out_of_stock',
    );
    const { cart } = await cartService.add([], request({ productId: MUG, quantity: 20 }));
    expect(await errorCode(cartService.add(cart, request({ productId: MUG, quantity: 5 })))).toBe(
      'out_of_stock',
    );
    expect((await cartService.add(cart, request({ productId: MUG, quantity: 4 }))).line.quantity).toBe(24);
  });

  it('refuses more than the stock of a variation', async () => {
    const attributes = { attribute_color: 'sage', attribute_size: 's' };
    expect(
      await errorCode(cartService.add([], request({ productId: LINEN_SHIRT, attributes, quantity: 5 }))),
    ).toBe('out_of_stock');
  });

  it('never lets a sold-individually product reach 2', async () => {
    expect(await errorCode(cartService.add([], request({ productId: WALNUT_BOARD, quantity: 2 })))).toBe(
      'out_of_stock',
    );
    const { cart } = await cartService.add([], request({ productId: WALNUT_BOARD }));
    expect(await errorCode(cartService.add(cart, request({ productId: WALNUT_BOARD })))).toBe('out_of_stock');
  });
});

describe('CartService.setQuantity', () => {
  let cart: CartLine[];
  beforeAll(async () => {
    ({ cart } = await cartService.add([], request({ productId: MUG, quantity: 2 })));
    ({ cart } = await cartService.add(cart, request({ productId: BOWL, quantity: 1 })));
  });
  const mugKey = () => cart[0]?.key ?? '';

  it('sets a quantity within the stock', async () => {
    const result = await cartService.setQuantity(cart, mugKey(), 7);
    expect(result).toMatchObject({ quantity: 7, clamped: false });
    expect(result.cart[0]?.quantity).toBe(7);
    expect(result.cart[1]).toEqual(cart[1]);
  });

  it('clamps a quantity above the stock and says so', async () => {
    const result = await cartService.setQuantity(cart, mugKey(), 100);
    expect(result).toMatchObject({ quantity: 24, clamped: true });
    expect(result.cart[0]?.quantity).toBe(24);
  });

  it('clamps a sold-individually product to 1', async () => {
    const { cart: boardCart, line } = await cartService.add([], request({ productId: WALNUT_BOARD }));
    expect(await cartService.setQuantity(boardCart, line.key, 3)).toMatchObject({
      quantity: 1,
      clamped: true,
    });
  });

  it('does not clamp a product whose stock is not managed', async () => {
    const bowlKey = cart[1]?.key ?? '';
    expect(await cartService.setQuantity(cart, bowlKey, 9999)).toMatchObject({
      quantity: 9999,
      clamped: false,
    });
  });

  it('removes the line at 0', async () => {
    const result = await cartService.setQuantity(cart, mugKey(), 0);
    expect(result).toMatchObject({ quantity: 0, clamped: false });
    expect(result.cart.map((line) => line.productId)).toEqual([BOWL]);
  });

  it.each([-1, 10000, 2.5])('refuses the quantity %s', async (quantity) => {
    expect(await errorCode(cartService.setQuantity(cart, mugKey(), quantity))).toBe('invalid_quantity');
  });

  it('refuses an unknown key', async () => {
    expect(await errorCode(cartService.setQuantity(cart, 'f'.repeat(32), 1))).toBe('unknown_cart_item');
    expect(await errorCode(cartService.setQuantity([], mugKey(), 1))).toBe('unknown_cart_item');
  });

  it('does not change the cart it was given', async () => {
    const copy = structuredClone(cart);
    await cartService.setQuantity(cart, mugKey(), 5);
    await cartService.setQuantity(cart, mugKey(), 0);
    expect(cart).toEqual(copy);
  });
});

describe('CartService.view', () => {
  it('is the empty cart for no lines', async () => {
    expect(await cartService.view([])).toEqual(EMPTY_CART);
  });

  it('prices every line against the catalog', async () => {
    let { cart } = await cartService.add([], request({ productId: MUG, quantity: 2 }));
    ({ cart } = await cartService.add(
      cart,
      request({ productId: LINEN_SHIRT, attributes: { attribute_color: 'rust', attribute_size: 'm' } }),
    ));
    const view = await cartService.view(cart);
    expect(view.lines).toHaveLength(2);
    expect(view.lines[0]).toMatchObject({
      productId: MUG,
      name: 'Café au Lait Mug',
      sku: 'DEMO-CAFE-MUG',
      permalink: '/product/cafe-au-lait-mug/',
      quantity: 2,
      maxQuantity: 24,
      unitPrice: 1800,
      lineTotal: 3600,
    });
    expect(view.lines[1]).toMatchObject({
      productId: LINEN_SHIRT,
      variationId: RUST_M,
      sku: 'DEMO-LINEN-SHIRT-RUST-M',
      unitPrice: 5400,
      lineTotal: 5400,
      attributes: [
        { label: 'Color', value: 'Rust' },
        { label: 'Size', value: 'M' },
      ],
    });
    expect(view.itemCount).toBe(3);
    expect(view.subtotal).toBe(9000);
    expect(view.total).toBe(9000);
    expect(view.hash).toMatch(/^[0-9a-f]{32}$/);
  });

  it('shows the chosen value of an "any" attribute', async () => {
    const { cart } = await cartService.add(
      [],
      request({ productId: ORGANIC_TEE, attributes: { attribute_color: 'sage', attribute_size: 'xl' } }),
    );
    const [line] = (await cartService.view(cart)).lines;
    expect(line?.attributes).toEqual([
      { label: 'Color', value: 'Sage' },
      { label: 'Size', value: 'XL' },
    ]);
    expect(line?.unitPrice).toBe(1900);
  });

  it('changes the hash when a quantity changes, and keeps it when nothing does', async () => {
    const { cart } = await cartService.add([], request({ productId: MUG }));
    const before = await cartService.view(cart);
    expect((await cartService.view(structuredClone(cart))).hash).toBe(before.hash);
    const { cart: changed } = await cartService.setQuantity(cart, cart[0]?.key ?? '', 2);
    const after = await cartService.view(changed);
    expect(after.hash).not.toBe(before.hash);
    expect(after.hash).not.toBe('');
  });

  it('leaves out lines whose product or variation is gone', async () => {
    const { cart } = await cartService.add([], request({ productId: MUG }));
    const stale: CartLine[] = [
      ...cart,
      { key: 'a'.repeat(32), productId: 999999, variationId: null, attributes: {}, quantity: 1 },
      { key: 'b'.repeat(32), productId: LINEN_SHIRT, variationId: 999999, attributes: {}, quantity: 1 },
      { key: 'c'.repeat(32), productId: SHIBORI_NAPKINS, variationId: null, attributes: {}, quantity: 1 },
    ];
    const view = await cartService.view(stale);
    expect(view.lines.map((line) => line.productId)).toEqual([MUG]);
    expect(view.itemCount).toBe(1);
  });
});

describe('cartLineKey', () => {
  it('is the same whatever the order of the attributes', () => {
    expect(cartLineKey(1, 2, { attribute_a: 'x', attribute_b: 'y' })).toBe(
      cartLineKey(1, 2, { attribute_b: 'y', attribute_a: 'x' }),
    );
  });

  it('differs for another product, variation or value', () => {
    const key = cartLineKey(1, 2, { attribute_a: 'x' });
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(cartLineKey(3, 2, { attribute_a: 'x' })).not.toBe(key);
    expect(cartLineKey(1, 4, { attribute_a: 'x' })).not.toBe(key);
    expect(cartLineKey(1, 2, { attribute_a: 'z' })).not.toBe(key);
  });
});
