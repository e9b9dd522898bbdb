import { z } from 'zod';
import {
  ADMIN_PRODUCT_STATUSES,
  type AdminProduct,
  BACKORDER_OPTIONS,
  type ProductFormValues,
} from '../../shared/catalog/adminProducts';
import { ShopError } from '../../shared/errors/ShopError';
import { type FieldErrors, formValuesOf, parseProductForm } from '../admin/products/productForm';

/*
 * A product or variation write through the API is the back office's edit form filled in by the client: the stored
 * product's values, with the fields the request sends put over them, read by the same parseProductForm (so a sale
 * price above the regular one, a bad SKU or a managed stock without a quantity are refused by one rule) and saved
 * by the same saveAdminProduct (which feeds the search change log, so shoppers see the change at once).
 */

const money = z.union([z.string().max(30), z.number().nonnegative()]).transform(String);
const quantity = z
  .union([z.number().int(), z.string().regex(/^-?\d{1,9}$/), z.null()])
  .transform((value) => (value === null ? '' : String(value)));
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** The product fields WooCommerce clients send that the shop keeps; others are ignored, as WooCommerce ignores read-only ones. */
export const productBody = z.object({
  name: z.string().max(1000).optional(),
  slug: z.string().max(1000).optional(),
  type: z.string().max(20).optional(),
  status: z.enum([...ADMIN_PRODUCT_STATUSES, 'pending', 'future']).optional(),
  description: z.string().max(200_000).optional(),
  short_description: z.string().max(20_000).optional(),
  sku: z.string().max(1000).optional(),
  regular_price: money.optional(),
  sale_price: money.optional(),
  manage_stock: flag.optional(),
  stock_quantity: quantity.optional(),
  stock_status: z.enum(['instock', 'outofstock', 'onbackorder']).optional(),
  backorders: z.enum(BACKORDER_OPTIONS).optional(),
  categories: z
    .array(z.object({ id: z.coerce.number().int().min(1) }))
    .max(200)
    .optional(),
});
export type ProductBody = z.output<typeof productBody>;

export const variationBody = z.object({
  sku: z.string().max(1000).optional(),
  regular_price: money.optional(),
  sale_price: money.optional(),
  manage_stock: flag.optional(),
  stock_quantity: quantity.optional(),
});
export type VariationBody = z.output<typeof variationBody>;

function refuse(errors: FieldErrors): never {
  const fields = Object.keys(errors);
  // A taken SKU has WooCommerce's own code, which clients that sync stock by SKU look for.
  if (fields.length === 1 && fields[0] === 'sku')
    throw new ShopError('product_invalid_sku', errors.sku ?? 'Invalid or duplicated SKU.');
  throw new ShopError(
    'rest_invalid_param',
    `Invalid parameter(s): ${fields.map((field) => `${field} (${errors[field]})`).join(', ')}`,
    { params: errors },
  );
}

/** The edit form's values for a product write: the stored ones (none for a new product) with the body's over them. */
export function productFormValues(
  stored: AdminProduct | null,
  body: ProductBody,
  decimals: number,
): ProductFormValues {
  if (body.status === 'pending' || body.status === 'future')
    refuse({ status: 'The shop keeps products published, draft or private.' });
  if (stored === null && body.type !== undefined && body.type !== 'simple')
    throw new ShopError(
      'woocommerce_rest_invalid_product_type',
      'Only simple products can be created through the API.',
    );
  const values = formValuesOf(stored, decimals);
  if (stored === null) values.status = 'publish'; // WooCommerce's default for a product made through the API.
  const set = <K extends keyof ProductFormValues>(key: K, value: ProductFormValues[K] | undefined) => {
    if (value !== undefined) values[key] = value;
  };
  set('name', body.name);
  set('slug', body.slug);
  set('description', body.description);
  set('short_description', body.short_description);
  set('sku', body.sku);
  set('regular_price', body.regular_price);
  set('sale_price', body.sale_price);
  set('stock_status', body.stock_status);
  set('backorders', body.backorders);
  if (body.status === 'publish' || body.status === 'draft' || body.status === 'private')
    values.status = body.status;
  // Sending a quantity manages the stock, as WooCommerce does when manage_stock is sent with it.
  if (body.stock_quantity !== undefined) {
    values.stock_quantity = body.stock_quantity;
    values.manage_stock = body.manage_stock ?? true;
  } else if (body.manage_stock !== undefined) values.manage_stock = body.manage_stock;
  if (body.categories) values.categories = body.categories.map((category) => String(category.id));
  // A change to the product alone leaves its variations as they are (the plan writes only those it is given).
  values.variations = [];
  return values;
}

/** The edit form's values for one variation's write: the parent as stored, the variation with the body over it. */
export function variationFormValues(
  parent: AdminProduct,
  variationId: number,
  body: VariationBody,
  decimals: number,
): ProductFormValues {
  const values = formValuesOf(parent, decimals);
  const variation = values.variations.find((candidate) => candidate.id === variationId);
  if (!variation) throw new ShopError('woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
  if (body.sku !== undefined) variation.sku = body.sku;
  if (body.regular_price !== undefined) variation.regular_price = body.regular_price;
  if (body.sale_price !== undefined) variation.sale_price = body.sale_price;
  if (body.stock_quantity !== undefined) variation.stock = body.stock_quantity;
  if (body.manage_stock === false) variation.stock = '';
  values.variations = [variation];
  return values;
}

/** The form's reading of the values, or the refusal with every problem in words. */
export function readProductValues(values: ProductFormValues, decimals: number) {
  const parsed = parseProductForm(values, decimals);
  if (!parsed.ok) {
    // The form names a variation's fields `v<ID>_<field>`; the API's client sent plain names.
    refuse(apiFieldNames(parsed.errors));
  }
  return parsed.change;
}

/** A refused save (a SKU or slug another product has) as WooCommerce's error. */
export function refuseSave(fieldErrors: Record<string, string>): never {
  refuse(apiFieldNames(fieldErrors));
}

/** The form names a variation's fields `v<ID>_<field>` and its stock `stock`; the API's client sent plain names. */
function apiFieldNames(errors: FieldErrors): FieldErrors {
  return Object.fromEntries(
    Object.entries(errors).map(([key, message]) => {
      const field = key.replace(/^v\d+_/, '');
      return [field === 'stock' ? 'stock_quantity' : field, message];
    }),
  );
}
