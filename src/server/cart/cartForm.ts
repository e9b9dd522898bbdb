import { z } from 'zod';
import { MAX_LINE_QUANTITY } from '../../shared/cart/cartTypes';
import { ShopError } from '../../shared/errors/ShopError';
import { parseInput } from '../http/parseInput';
import type { AddToCartRequest } from './cartService';

/*
 * What the cart's inputs mean, in WooCommerce's field names: the add-to-cart forms of product pages, the cart page's
 * quantity form, and the fields the ajax endpoints share with them.
 */

/** A quantity as typed: whole numbers only, so `1e9`, `2.5`, `-1` and `abc` are refused, never coerced. */
const WHOLE_QUANTITY = /^\d{1,6}$/;

export const quantityText = z
  .string()
  .trim()
  .regex(WHOLE_QUANTITY, 'Quantity must be a whole number.')
  .transform(Number);

export const positiveId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** A cart line's key as pages carry it (WooCommerce's md5 cart item key). */
export const cartItemKey = z.string().regex(/^[a-f0-9]{32}$/, 'Unknown cart item');

/** The quantity of the mini-cart's quantity field, refused with the cart's own error rather than a generic 400. */
export function typedQuantity(text: string): number {
  const trimmed = text.trim();
  if (!WHOLE_QUANTITY.test(trimmed)) {
    throw new ShopError(
      'invalid_quantity',
      `Please enter a whole quantity between 0 and ${MAX_LINE_QUANTITY}.`,
    );
  }
  return Number(trimmed);
}

/** A form post's fields: single values or repeated ones (formbody gives an array), nothing else. */
export const cartFormBody = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
export type CartFormBody = z.infer<typeof cartFormBody>;

/** A single-valued field of a form post; a repeated field counts as absent. */
export function formField(body: CartFormBody, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The additions an add-to-cart form asks for: a grouped product posts one quantity per child (children left at 0
 * are skipped), any other product one line.
 */
export function addToCartRequests(body: CartFormBody, productId: number): AddToCartRequest[] {
  const grouped = Object.entries(body).filter(([name]) => /^quantity\[\d+\]$/.test(name));
  if (grouped.length === 0) {
    const variationId = formField(body, 'variation_id');
    const quantity = formField(body, 'quantity');
    return [
      {
        productId,
        variationId: variationId ? parseInput(positiveId, variationId) : null,
        quantity: quantity === undefined ? 1 : parseInput(quantityText, quantity),
        attributes: attributeFields(body),
      },
    ];
  }
  const children = grouped.flatMap(([name, value]) => {
    const quantity = parseInput(quantityText, value);
    return quantity === 0
      ? []
      : [{ productId: Number(name.slice(9, -1)), variationId: null, quantity, attributes: {} }];
  });
  if (children.length === 0) {
    throw new ShopError(
      'invalid_quantity',
      'Please choose the quantity of items you wish to add to your cart.',
    );
  }
  return children;
}

/**
 * The quantities the cart page's form asks for, as `[line key, quantity]`: its Remove link names one line
 * (`remove_item`), its Update button posts every line's `cart[key][qty]`.
 */
export function quantityChanges(body: CartFormBody): [string, number][] {
  const remove = formField(body, 'remove_item');
  if (remove !== undefined) return [[remove, 0]];
  return Object.entries(body).flatMap(([name, value]): [string, number][] => {
    const key = /^cart\[([a-f0-9]{32})\]\[qty\]$/.exec(name)?.[1];
    return key && typeof value === 'string' ? [[key, parseInput(quantityText, value)]] : [];
  });
}

/** The chosen values of a variable product (`attribute_{slug}` fields); anything else in the input is ignored. */
export function attributeFields(input: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(input).filter(
      (entry): entry is [string, string] =>
        /^attribute_[a-z0-9_-]{1,100}$/.test(entry[0]) &&
        typeof entry[1] === 'string' &&
        entry[1].length <= 200,
    ),
  );
}
