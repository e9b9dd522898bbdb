import { z } from 'zod';
import {
  ADMIN_PRODUCT_STATUSES,
  type AdminProduct,
  type AdminProductChange,
  BACKORDER_OPTIONS,
  type ProductFormValues,
} from '../../../shared/catalog/adminProducts';
import type { StockStatus } from '../../../shared/catalog/types';
import { parseMoney } from '../../../shared/money/formatMoney';
import { cleanForSlug } from '../../../shared/validation/cleanForSlug';
import { sanitizeRichText } from '../../catalog/sanitizeRichText';

/*
 * The product edit form: what the browser posts (every value a string, variations as `v<ID>_<field>`) read into a
 * change, or the problems in words keyed by field name, so the page shows each next to its field.
 */

export type { ProductFormValues };

export type FieldErrors = Record<string, string>;

const STOCK_STATUSES = ['instock', 'outofstock', 'onbackorder'] as const;

function asList(value: unknown): string[] {
  if (value === undefined) return [];
  return (Array.isArray(value) ? value : [value]).map(String);
}

function asText(value: unknown): string {
  return Array.isArray(value) ? String(value[0] ?? '') : value === undefined ? '' : String(value);
}

/** The posted body as form values; variations keep the order and labels the stored product gives them. */
export function readFormValues(
  body: Record<string, unknown>,
  stored: AdminProduct | null,
): ProductFormValues {
  const variationText = (id: number, field: string) => asText(body[`v${id}_${field}`]);
  return {
    name: asText(body.name),
    slug: asText(body.slug),
    description: asText(body.description),
    short_description: asText(body.short_description),
    regular_price: asText(body.regular_price),
    sale_price: asText(body.sale_price),
    sku: asText(body.sku),
    manage_stock: asText(body.manage_stock) === '1',
    stock_quantity: asText(body.stock_quantity),
    stock_status: asText(body.stock_status),
    backorders: asText(body.backorders),
    status: asText(body.status),
    categories: asList(body.categories),
    variations: (stored?.variations ?? [])
      .filter((variation) => Object.keys(body).some((key) => key.startsWith(`v${variation.id}_`)))
      .map((variation) => ({
        id: variation.id,
        label: variation.label,
        regular_price: variationText(variation.id, 'regular_price'),
        sale_price: variationText(variation.id, 'sale_price'),
        sku: variationText(variation.id, 'sku'),
        stock: variationText(variation.id, 'stock'),
      })),
  };
}

/** The stored product as the form shows it first. */
export function formValuesOf(product: AdminProduct | null, decimals: number): ProductFormValues {
  const money = (value: number | null) => (value === null ? '' : (value / 10 ** decimals).toFixed(decimals));
  return {
    name: product?.name ?? '',
    slug: product?.slug ?? '',
    description: product?.description ?? '',
    short_description: product?.shortDescription ?? '',
    regular_price: money(product?.regularPrice ?? null),
    sale_price: money(product?.salePrice ?? null),
    sku: product?.sku ?? '',
    manage_stock: product ? product.stockQuantity !== null : false,
    stock_quantity: product?.stockQuantity === null || !product ? '' : String(product.stockQuantity),
    stock_status: product?.stockStatus ?? 'instock',
    backorders: product?.backorders ?? 'no',
    status: product?.status ?? 'draft',
    categories: (product?.categoryIds ?? []).map(String),
    variations: (product?.variations ?? []).map((variation) => ({
      id: variation.id,
      label: variation.label,
      regular_price: money(variation.regularPrice),
      sale_price: money(variation.salePrice),
      sku: variation.sku ?? '',
      stock: variation.stockQuantity === null ? '' : String(variation.stockQuantity),
    })),
  };
}

function priceSchema(decimals: number) {
  return z.string().transform((text, context) => {
    const value = parseMoney(text, decimals);
    if (value !== null && (Number.isNaN(value) || value > 1_000_000_000_00)) {
      context.addIssue({
        code: 'custom',
        message: 'Write a price as a number, like 12.50, or leave it empty.',
      });
      return z.NEVER;
    }
    return value;
  });
}

const quantitySchema = z
  .string()
  .trim()
  .regex(/^(-?\d{1,9})?$/, 'Write the stock as a whole number, like 12.')
  .transform((text) => (text === '' ? null : Number(text)));

const skuSchema = z
  .string()
  .trim()
  .max(100, 'A SKU is at most 100 characters.')
  .transform((text) => (text === '' ? null : text));

/**
 * Reads the form into a change (sale price below the regular one; a managed stock with its quantity), or every
 * problem keyed by the field name the page uses.
 */
export function parseProductForm(
  values: ProductFormValues,
  decimals: number,
): { ok: true; change: AdminProductChange } | { ok: false; errors: FieldErrors } {
  const schema = z.object({
    name: z.string().trim().min(1, 'Give the product a name.').max(200, 'A name is at most 200 characters.'),
    slug: z
      .string()
      .trim()
      .max(200, 'A slug is at most 200 characters.')
      .regex(/^([\p{Ll}\p{Lo}\p{N}]+(-[\p{Ll}\p{Lo}\p{N}]+)*)?$/u, {
        message: 'Use lower-case letters, digits and single hyphens in the slug, like blue-t-shirt.',
      }),
    description: z.string().max(100_000, 'The description is too long (100,000 characters at most).'),
    short_description: z
      .string()
      .max(10_000, 'The short description is too long (10,000 characters at most).'),
    regular_price: priceSchema(decimals),
    sale_price: priceSchema(decimals),
    sku: skuSchema,
    manage_stock: z.boolean(),
    stock_quantity: quantitySchema,
    stock_status: z.enum(STOCK_STATUSES, { message: 'Choose in stock, out of stock or on backorder.' }),
    backorders: z.enum(BACKORDER_OPTIONS, { message: 'Choose whether backorders are allowed.' }),
    status: z.enum(ADMIN_PRODUCT_STATUSES, { message: 'Choose published, draft or private.' }),
    categories: z.array(z.string().regex(/^\d{1,12}$/, 'Choose categories from the list.')).max(200),
    variations: z.array(
      z.object({
        id: z.number(),
        label: z.string(),
        regular_price: priceSchema(decimals),
        sale_price: priceSchema(decimals),
        sku: skuSchema,
        stock: quantitySchema,
      }),
    ),
  });
  const parsed = schema.safeParse(values);
  const errors: FieldErrors = {};
  for (const issue of parsed.success ? [] : parsed.error.issues) {
    const [first, index, field] = issue.path;
    const key =
      first === 'variations' && typeof index === 'number'
        ? `v${values.variations[index]?.id}_${String(field)}`
        : String(first ?? '');
    errors[key] ??= issue.message;
  }
  // Rules across fields, checked even when another field is wrong, so the owner sees every problem at once.
  const saleAboveRegular = (sale: string, regular: string) => {
    const salePrice = parseMoney(sale, decimals);
    const regularPrice = parseMoney(regular, decimals);
    return (
      salePrice !== null &&
      !Number.isNaN(salePrice) &&
      !Number.isNaN(regularPrice) &&
      (regularPrice === null || salePrice >= regularPrice)
    );
  };
  const belowRegular = 'The sale price must be below the regular price.';
  if (saleAboveRegular(values.sale_price, values.regular_price)) errors.sale_price ??= belowRegular;
  if (values.manage_stock && values.stock_quantity.trim() === '')
    errors.stock_quantity ??= 'Give the stock quantity, or turn off “Manage stock”.';
  for (const variation of values.variations)
    if (saleAboveRegular(variation.sale_price, variation.regular_price))
      errors[`v${variation.id}_sale_price`] ??= belowRegular;
  if (!parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  const form = parsed.data;
  const stockQuantity = form.manage_stock ? form.stock_quantity : null;
  // A managed stock decides the status as WooCommerce does: none left is out of stock unless backorders are allowed.
  const stockStatus: StockStatus =
    stockQuantity === null
      ? form.stock_status
      : stockQuantity > 0
        ? 'instock'
        : form.backorders === 'no'
          ? 'outofstock'
          : 'onbackorder';
  return {
    ok: true,
    change: {
      fields: {
        name: form.name,
        slug: form.slug || cleanForSlug(form.name) || 'product',
        description: sanitizeRichText(form.description),
        shortDescription: sanitizeRichText(form.short_description),
        regularPrice: form.regular_price,
        salePrice: form.sale_price,
        sku: form.sku,
        stockQuantity,
        stockStatus,
        backorders: form.backorders,
        status: form.status,
        categoryIds: [...new Set(form.categories.map(Number))],
      },
      variations: form.variations.map((variation) => ({
        id: variation.id,
        regularPrice: variation.regular_price,
        salePrice: variation.sale_price,
        sku: variation.sku,
        stockQuantity: variation.stock,
      })),
      image: null,
    },
  };
}
