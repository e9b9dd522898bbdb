import {
  ADMIN_PRODUCT_STATUSES,
  BACKORDER_OPTIONS,
  type ProductFormValues,
  STATUS_LABELS,
} from '../../../shared/catalog/adminProducts';
import { AdminField, AdminFieldMessages, adminFieldControl, fieldDescribedBy } from '../AdminField';
import { ProductsFrame } from './ProductsFrame';

const STOCK_OPTIONS = [
  ['instock', 'In stock'],
  ['outofstock', 'Out of stock'],
  ['onbackorder', 'On backorder'],
] as const;
const BACKORDER_LABELS: Record<(typeof BACKORDER_OPTIONS)[number], string> = {
  no: 'Do not allow',
  notify: 'Allow, but notify the customer',
  yes: 'Allow',
};

export interface ProductEditProps {
  /** Null: the "Add product" form. */
  productId: number | null;
  type: string;
  values: ProductFormValues;
  errors: Record<string, string>;
  categories: { id: number; label: string }[];
  /** The product's page for shoppers, when it is published. */
  shopUrl: string | null;
  nonce: string;
  /** The image form's nonce, the current image and what was wrong with the last upload. */
  imageNonce: string;
  imageUrl: string | null;
  imageError: string | null;
  maxImageMegabytes: number;
  notice: string | null;
}

/** The owner's edit form for one product (or a new simple product), posted as an ordinary form. */
export function ProductEditPage({
  productId,
  type,
  values,
  errors,
  categories,
  shopUrl,
  nonce,
  imageNonce,
  imageUrl,
  imageError,
  maxImageMegabytes,
  notice,
}: ProductEditProps) {
  const action = productId === null ? '/admin/products/new' : `/admin/products/${productId}/`;
  const errorCount = Object.keys(errors).length;
  const text = (
    name: keyof ProductFormValues,
    label: string,
    options: { hint?: string; inputMode?: 'decimal' | 'numeric' } = {},
  ) => (
    <AdminField id={`product-${name}`} label={label} error={errors[name]} hint={options.hint}>
      {(control) => (
        <input
          {...control}
          name={name}
          type="text"
          inputMode={options.inputMode}
          defaultValue={String(values[name])}
        />
      )}
    </AdminField>
  );
  return (
    <ProductsFrame title={productId === null ? 'Add product' : `Edit “${values.name || 'product'}”`}>
      {notice && (
        <p role="status" className="admin-products__notice">
          {notice}
        </p>
      )}
      {errorCount > 0 && (
        <div role="alert" className="admin-products__errors">
          <p>
            Nothing was saved: {errorCount === 1 ? 'one field needs' : `${errorCount} fields need`} a change.
          </p>
          {errors[''] && <p>{errors['']}</p>}
        </div>
      )}
      {shopUrl && (
        <p>
          <a href={shopUrl}>View the product in the shop</a>
        </p>
      )}
      <form method="post" action={action} className="admin-form" noValidate>
        <input type="hidden" name="_wpnonce" value={nonce} />
        {text('name', 'Name')}
        {text('slug', 'Slug', {
          hint: 'The end of the product’s address. Left empty, it is made from the name.',
        })}
        <AdminField id="product-short_description" label="Short description" error={errors.short_description}>
          {(control) => (
            <textarea
              {...control}
              name="short_description"
              rows={3}
              defaultValue={values.short_description}
            />
          )}
        </AdminField>
        <AdminField id="product-description" label="Description" error={errors.description}>
          {(control) => (
            <textarea {...control} name="description" rows={8} defaultValue={values.description} />
          )}
        </AdminField>
        <fieldset>
          <legend>Price and SKU</legend>
          {text('regular_price', 'Regular price', { inputMode: 'decimal' })}
          {text('sale_price', 'Sale price', { inputMode: 'decimal', hint: 'Empty: no sale.' })}
          {text('sku', 'SKU')}
        </fieldset>
        <fieldset>
          <legend>Stock</legend>
          <div className="admin-field admin-field--check">
            <input
              id="product-manage_stock"
              type="checkbox"
              name="manage_stock"
              value="1"
              defaultChecked={values.manage_stock}
            />
            <label htmlFor="product-manage_stock">Manage stock (count what is left)</label>
          </div>
          {text('stock_quantity', 'Stock quantity', {
            inputMode: 'numeric',
            hint: 'Used when stock is managed; the stock status then follows it.',
          })}
          <AdminField id="product-stock_status" label="Stock status" error={errors.stock_status}>
            {(control) => (
              <select {...control} name="stock_status" defaultValue={values.stock_status}>
                {STOCK_OPTIONS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
          <AdminField id="product-backorders" label="Backorders" error={errors.backorders}>
            {(control) => (
              <select {...control} name="backorders" defaultValue={values.backorders}>
                {BACKORDER_OPTIONS.map((value) => (
                  <option key={value} value={value}>
                    {BACKORDER_LABELS[value]}
                  </option>
                ))}
              </select>
            )}
          </AdminField>
        </fieldset>
        <AdminField
          id="product-status"
          label="Status"
          error={errors.status}
          hint="Drafts and private products are hidden from shoppers."
        >
          {(control) => (
            <select {...control} name="status" defaultValue={values.status}>
              {ADMIN_PRODUCT_STATUSES.map((value) => (
                <option key={value} value={value}>
                  {STATUS_LABELS[value]}
                </option>
              ))}
            </select>
          )}
        </AdminField>
        <fieldset aria-describedby={fieldDescribedBy('product-categories', errors.categories)}>
          <legend>Categories</legend>
          <ul className="admin-checklist">
            {categories.map((category) => (
              <li key={category.id}>
                <input
                  id={`product-category-${category.id}`}
                  type="checkbox"
                  name="categories"
                  value={category.id}
                  defaultChecked={values.categories.includes(String(category.id))}
                />
                <label htmlFor={`product-category-${category.id}`}>{category.label}</label>
              </li>
            ))}
          </ul>
          <AdminFieldMessages id="product-categories" error={errors.categories} />
        </fieldset>
        {type === 'variable' && values.variations.length > 0 && (
          <fieldset>
            <legend>Variations</legend>
            <table className="admin-table admin-table--variations">
              <thead>
                <tr>
                  <th scope="col">Variation</th>
                  <th scope="col">Regular price</th>
                  <th scope="col">Sale price</th>
                  <th scope="col">SKU</th>
                  <th scope="col">Stock</th>
                </tr>
              </thead>
              <tbody>
                {values.variations.map((variation) => (
                  <tr key={variation.id}>
                    <th scope="row" id={`v${variation.id}-label`}>
                      {variation.label}
                    </th>
                    {(
                      [
                        ['regular_price', 'Regular price', 'decimal'],
                        ['sale_price', 'Sale price', 'decimal'],
                        ['sku', 'SKU', undefined],
                        ['stock', 'Stock', 'numeric'],
                      ] as const
                    ).map(([field, label, inputMode]) => {
                      const name = `v${variation.id}_${field}`;
                      const error = errors[name];
                      return (
                        <td key={field} data-label={label}>
                          <input
                            {...adminFieldControl(name, error)}
                            name={name}
                            type="text"
                            inputMode={inputMode}
                            defaultValue={variation[field]}
                            aria-label={`${label} of ${variation.label}`}
                          />
                          <AdminFieldMessages id={name} error={error} />
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="admin-field__hint">An empty stock leaves a variation’s stock unmanaged.</p>
          </fieldset>
        )}
        <button type="submit">{productId === null ? 'Add product' : 'Save changes'}</button>
      </form>
      {productId !== null && (
        <form
          method="post"
          action={`/admin/products/${productId}/image`}
          encType="multipart/form-data"
          className="admin-form"
          aria-labelledby="product-image-heading"
        >
          <h2 id="product-image-heading">Image</h2>
          {imageUrl?.startsWith('/wp-content/uploads/') && (
            <img src={imageUrl} alt={values.name} className="admin-form__image" />
          )}
          {/* Before the file, so the server checks it without holding the file first. */}
          <input type="hidden" name="_wpnonce" value={imageNonce} />
          <AdminField
            id="product-image"
            label={`New main image (JPEG, PNG, GIF or WebP, at most ${maxImageMegabytes} MB)`}
            error={imageError}
          >
            {(control) => (
              <input
                {...control}
                type="file"
                name="file"
                accept="image/jpeg,image/png,image/gif,image/webp"
              />
            )}
          </AdminField>
          <button type="submit">Upload image</button>
        </form>
      )}
    </ProductsFrame>
  );
}
