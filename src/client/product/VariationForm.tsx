import { useEffect, useId, useState } from 'react';
import { findMatchingVariation } from '../../shared/catalog/findMatchingVariation';
import { attributeFieldName, type ProductAttribute, type Variation } from '../../shared/catalog/types';
import { useFormatMoney } from '../catalog/Price';
import { useShopSettings } from '../ShopSettingsContext';

export interface VariationFormProps {
  productId: number;
  productName: string;
  attributes: ProductAttribute[];
  variations: Variation[];
}

/**
 * The add-to-cart form of a variable product with one plain select per attribute. Without JavaScript it posts the
 * chosen values and the server finds the variation; once hydrated it shows the chosen variation's price and
 * stock and refuses an incomplete or impossible choice before sending. The swatches issue enhances the selects.
 */
export default function VariationForm({
  productId,
  productName,
  attributes,
  variations,
}: VariationFormProps) {
  const { i18n } = useShopSettings();
  const format = useFormatMoney();
  const id = useId();
  const [choices, setChoices] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  // Until hydrated the form posts as it is and the server decides, so the button must not look disabled.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const complete = attributes.every((attribute) => choices[attributeFieldName(attribute.slug)]);
  const variation = complete ? findMatchingVariation(variations, choices) : null;
  const canBuy = variation?.is_in_stock && variation.price !== null;

  let status: string | null = null;
  if (complete && !variation) status = i18n.unavailable;
  else if (variation && !variation.is_in_stock) status = i18n.outOfStock;
  else if (tried && !complete)
    status = 'Please select some product options before adding this product to your cart.';

  return (
    <form
      method="post"
      action="/cart/"
      className="variations_form cart"
      onSubmit={(event) => {
        if (!canBuy) {
          event.preventDefault();
          setTried(true);
        }
      }}
    >
      <table className="variations">
        <tbody>
          {attributes.map((attribute) => {
            const field = attributeFieldName(attribute.slug);
            const selectId = `${id}-${attribute.slug}`;
            return (
              <tr key={attribute.slug}>
                <th scope="row">
                  <label htmlFor={selectId}>{attribute.name}</label>
                </th>
                <td>
                  <select
                    id={selectId}
                    name={field}
                    value={choices[field] ?? ''}
                    onChange={(event) => {
                      const value = event.currentTarget.value;
                      setChoices((previous) => ({ ...previous, [field]: value }));
                    }}
                  >
                    <option value="">{i18n.chooseAnOption}</option>
                    {attribute.options.map((option) => (
                      <option key={option.slug} value={option.slug}>
                        {option.name}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <div className="single_variation" aria-live="polite">
        {variation && variation.price !== null && (
          <p className="price">
            {variation.salePrice !== null &&
            variation.regularPrice !== null &&
            variation.salePrice < variation.regularPrice ? (
              <>
                <del>{format(variation.regularPrice)}</del> <ins>{format(variation.salePrice)}</ins>
              </>
            ) : (
              format(variation.price)
            )}
          </p>
        )}
        {variation?.is_in_stock && (
          <p className="stock in-stock">
            {variation.variation_stock_left !== null
              ? `${variation.variation_stock_left} in stock`
              : i18n.inStock}
          </p>
        )}
        {status && <p className="woocommerce-variation-availability notice notice--info">{status}</p>}
      </div>
      <input type="hidden" name="add-to-cart" value={productId} />
      <input type="hidden" name="variation_id" value={variation?.id ?? ''} />
      <div className="add-to-cart-row">
        <label htmlFor={`${id}-quantity`}>{i18n.quantity}</label>
        <input
          id={`${id}-quantity`}
          type="number"
          name="quantity"
          defaultValue={1}
          min={1}
          max={variation?.max_qty ?? undefined}
          step={1}
          inputMode="numeric"
          className="qty"
        />
        <button
          type="submit"
          className="button single_add_to_cart_button"
          aria-disabled={hydrated ? !canBuy : undefined}
        >
          {i18n.addToCart}
          <span className="screen-reader-text"> – {productName}</span>
        </button>
      </div>
    </form>
  );
}
