import type { ProductFormValues } from '../src/server/admin/products/productForm';

/**
 * The fields the back office's product edit form posts for these values, each variation's row included, for
 * in-process (`inject`) tests that save a product as the owner does.
 */
export function productFormFields(values: ProductFormValues): Record<string, string | string[]> {
  const fields: Record<string, string | string[]> = {
    name: values.name,
    slug: values.slug,
    description: values.description,
    short_description: values.short_description,
    regular_price: values.regular_price,
    sale_price: values.sale_price,
    sku: values.sku,
    stock_quantity: values.stock_quantity,
    stock_status: values.stock_status,
    backorders: values.backorders,
    status: values.status,
    categories: values.categories,
  };
  if (values.manage_stock) fields.manage_stock = '1';
  for (const variation of values.variations) {
    fields[`v${variation.id}_regular_price`] = variation.regular_price;
    fields[`v${variation.id}_sale_price`] = variation.sale_price;
    fields[`v${variation.id}_sku`] = variation.sku;
    fields[`v${variation.id}_stock`] = variation.stock;
  }
  return fields;
}
