import { useEffect, useMemo, useRef, useState } from 'react';
import { attributeFieldName, type ProductAttribute, type Variation } from '../../shared/catalog/types';
import { chooseValue, isBlocked } from '../../shared/catalog/variations/chooseValue';
import { describeValueState } from '../../shared/catalog/variations/describeValueState';
import { matchVariations, toMatchAttributes } from '../../shared/catalog/variations/matchVariations';
import type { Choices } from '../../shared/catalog/variations/selectVariation';
import { formatText } from '../../shared/settings/formatText';
import { QuantityInput } from '../cart/QuantityInput';
import { useFormatMoney } from '../catalog/Price';
import { useShopSettings } from '../ShopSettingsContext';
import { SwatchGroup, type SwatchValueView } from './SwatchGroup';
import { useProductGalleryUpdate } from './useProductGalleryUpdate';
import { useVariationsLoader } from './useVariationsLoader';

export interface VariationFormProps {
  productId: number;
  productName: string;
  /** The product's own address, without choices: where "Clear" leads when scripts are off. */
  productUrl: string;
  attributes: ProductAttribute[];
  /** Inlined variations; empty when the product has more than `swatches.lazyVariationsThreshold`. */
  variations: Variation[];
  /** The variations are not inlined: fetch them from `/?wc-ajax=get_variations` when first needed. */
  lazy: boolean;
  /** Preselected from the address (`?attribute_pa_color=blue`), already validated by the server. */
  initialChoices: Choices;
}

const UNKNOWN: SwatchValueView = { noStock: false, unavailable: false, inert: false, description: null };

/**
 * The add-to-cart form of a variable product. Without JavaScript each attribute is a group of swatches around native
 * radios and the server picks the variation from the posted values. Once hydrated each swatch becomes an ARIA radio
 * of the same size (nothing moves) and a hidden select per attribute posts the choice, following every one; the
 * chosen variation's price, stock, image and SKU show, the address reflects the choices so it can be shared, and
 * an incomplete or impossible choice is refused before sending.
 */
export default function VariationForm({
  productId,
  productName,
  productUrl,
  attributes,
  variations: inlineVariations,
  lazy,
  initialChoices,
}: VariationFormProps) {
  const { i18n, swatches: rules, cart } = useShopSettings();
  const format = useFormatMoney();
  // Not useId: the server renders the island inside the whole page and the browser hydrates it alone, so their
  // useId values differ; ids from the product are the same on both sides.
  const id = `variation-form-${productId}`;
  const [choices, setChoices] = useState<Choices>(initialChoices);
  const hasChoices = Object.keys(choices).length > 0;
  const [tried, setTried] = useState(false);
  // Until hydrated the form posts as it is and the server decides: the swatches are native radios and nothing looks
  // disabled. Hydrating takes over what the shopper chose (and the focus) before the scripts arrived.
  const formRef = useRef<HTMLFormElement>(null);
  const focusAfterSwap = useRef<{ field: string; value: string } | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const loader = useVariationsLoader(productId, lazy ? null : inlineVariations, cart.wcAjaxUrl);
  const variations = loader.variations;
  const { load } = loader;
  useEffect(() => {
    const form = formRef.current;
    if (!form || hydrated) return;
    const data = new FormData(form);
    const chosen: Record<string, string> = {};
    for (const attribute of attributes) {
      const field = attributeFieldName(attribute.slug);
      const value = data.get(field);
      if (typeof value === 'string' && value) chosen[field] = value;
    }
    const active = document.activeElement;
    if (active instanceof HTMLInputElement && active.form === form && active.type === 'radio') {
      focusAfterSwap.current = { field: active.name, value: active.value };
    }
    setChoices(chosen);
    setHydrated(true);
    // A large product's variations, for the choices made before the scripts ran.
    if (lazy && Object.keys(chosen).length > 0) load();
  }, [hydrated, attributes, lazy, load]);
  useEffect(() => {
    const target = focusAfterSwap.current;
    const form = formRef.current;
    if (!hydrated || !target || !form) return;
    focusAfterSwap.current = null;
    const attribute = attributes.find((candidate) => attributeFieldName(candidate.slug) === target.field);
    const index = attribute?.options.findIndex((option) => option.slug === target.value) ?? -1;
    const group = form.querySelector(`[aria-labelledby="${id}-${attribute?.slug}-label"]`);
    group?.querySelectorAll<HTMLElement>('[role="radio"]')[index]?.focus();
  }, [hydrated, attributes, id]);
  // Clicks made while a large product's variations are on their way: shown at once, then replayed through the
  // availability rules from the choices before them when the variations arrive.
  const pendingClicks = useRef<{ before: Choices; clicks: [field: string, value: string][] } | null>(null);

  const matchAttributes = useMemo(() => toMatchAttributes(attributes), [attributes]);
  const match = useMemo(
    () => (variations ? matchVariations(matchAttributes, variations, choices) : null),
    [matchAttributes, variations, choices],
  );
  // Each value with nothing else chosen: one blocked even then is sold out (or offered) nowhere, and
  // deselect-unavailable has no choice to clear for it.
  const unchosen = useMemo(
    () => (variations ? matchVariations(matchAttributes, variations, {}) : null),
    [matchAttributes, variations],
  );
  const complete = attributes.every((attribute) => choices[attributeFieldName(attribute.slug)]);
  const variation = match?.variation ?? null;
  const canBuy = Boolean(variation?.is_in_stock && variation.price !== null);

  // A shared address preselects; load the variations at once so its availability shows without a first click.
  useEffect(() => {
    if (lazy && Object.keys(initialChoices).length > 0) load();
  }, [lazy, initialChoices, load]);

  useEffect(() => {
    const pending = pendingClicks.current;
    if (!variations || !pending) return;
    pendingClicks.current = null;
    setChoices(
      pending.clicks.reduce(
        (current, [field, value]) => chooseValue(matchAttributes, variations, current, field, value, rules),
        pending.before,
      ),
    );
  }, [variations, matchAttributes, rules]);

  useChoicesInAddress(hydrated, attributes, choices);
  useProductGalleryUpdate(hydrated ? variation : null);

  function activate(field: string, value: string) {
    loader.load();
    setTried(false);
    if (!variations) {
      pendingClicks.current ??= { before: choices, clicks: [] };
      pendingClicks.current.clicks.push([field, value]);
    }
    setChoices((previous) => {
      if (!variations) {
        // Not loaded yet: shown as clicked; the rules decide once the variations arrive (the effect above).
        if (previous[field] !== value) return { ...previous, [field]: value };
        if (!rules.clearOnReselect) return previous;
        const { [field]: _cleared, ...rest } = previous;
        return rest;
      }
      return chooseValue(matchAttributes, variations, previous, field, value, rules);
    });
  }

  function viewOf(field: string, value: string): SwatchValueView {
    const state = match?.values[field]?.[value];
    if (!state) return UNKNOWN;
    const blocked = isBlocked(state, rules);
    const alone = unchosen?.values[field]?.[value];
    const blockedEverywhere = alone !== undefined && isBlocked(alone, rules);
    return {
      noStock: state.status === 'outofstock' && !blocked,
      unavailable: blocked,
      inert: blocked && (!rules.deselectUnavailable || blockedEverywhere),
      description: describeValueState(state, attributes, choices, field, i18n),
    };
  }

  let status: string | null = null;
  if (match && complete && !variation) status = i18n.unavailable;
  else if (variation && !variation.is_in_stock) status = i18n.outOfStock;
  else if (tried && !complete) status = i18n.makeASelection;

  const threshold = rules.stockLeftThreshold;
  const stockLeft = variation?.variation_stock_left ?? null;

  return (
    <form
      ref={formRef}
      method="post"
      action="/cart/"
      className="variations_form cart"
      data-ajax-add-to-cart=""
      aria-busy={loader.loading || undefined}
      onPointerEnter={lazy ? loader.load : undefined}
      onFocus={lazy ? loader.load : undefined}
      onSubmit={(event) => {
        // Without the variations yet (a large product), the server decides, as it does without JavaScript.
        if (variations && !canBuy) {
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
            const labelId = `${selectId}-label`;
            const chosen = choices[field] ?? '';
            const chosenName = attribute.options.find((option) => option.slug === chosen)?.name;
            return (
              <tr key={attribute.slug}>
                <th scope="row">
                  {hydrated ? (
                    <label id={labelId} htmlFor={selectId}>
                      {attribute.name}
                    </label>
                  ) : (
                    <span id={labelId}>{attribute.name}</span>
                  )}
                  {hydrated && chosenName && (
                    <span className="swatches__chosen" aria-hidden="true">
                      : {chosenName}
                    </span>
                  )}
                </th>
                <td>
                  <SwatchGroup
                    attribute={attribute}
                    labelId={labelId}
                    idPrefix={selectId}
                    selected={chosen}
                    views={Object.fromEntries(
                      attribute.options.map((option) => [option.slug, viewOf(field, option.slug)]),
                    )}
                    onActivate={(value) => activate(field, value)}
                    nativeField={hydrated ? undefined : field}
                  />
                  {/* Once hydrated the form posts the choices through these, hidden, as the radios did before. */}
                  {hydrated && (
                    <select
                      id={selectId}
                      name={field}
                      value={chosen}
                      hidden
                      onChange={(event) => {
                        const value = event.currentTarget.value;
                        setChoices((previous) => {
                          const { [field]: _replaced, ...rest } = previous;
                          return value ? { ...rest, [field]: value } : rest;
                        });
                      }}
                    >
                      <option value="">{i18n.chooseAnOption}</option>
                      {attribute.options.map((option) => (
                        <option key={option.slug} value={option.slug}>
                          {option.name}
                        </option>
                      ))}
                    </select>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {/* Always laid out, shown once something is chosen: its appearing must not push the form down. */}
      <a
        className="reset_variations"
        href={productUrl}
        style={hasChoices ? undefined : { visibility: 'hidden' }}
        onClick={(event) => {
          event.preventDefault();
          pendingClicks.current = null;
          setTried(false);
          setChoices({});
        }}
      >
        {i18n.clearChoices}
      </a>
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
            {stockLeft === null
              ? i18n.inStock
              : formatText(
                  threshold !== null && stockLeft <= threshold ? i18n.onlyStockLeft : i18n.stockLeft,
                  stockLeft,
                )}
          </p>
        )}
        {status && <p className="woocommerce-variation-availability notice notice--info">{status}</p>}
      </div>
      <input type="hidden" name="add-to-cart" value={productId} />
      <input type="hidden" name="variation_id" value={variation?.id ?? ''} />
      <div className="add-to-cart-row">
        <QuantityInput
          id={`${id}-quantity`}
          name="quantity"
          defaultValue={1}
          min={1}
          max={variation?.max_qty}
        />
        <button
          type="submit"
          className="button single_add_to_cart_button"
          aria-disabled={hydrated && variations ? !canBuy : undefined}
        >
          {i18n.addToCart}
          <span className="screen-reader-text"> – {productName}</span>
        </button>
      </div>
    </form>
  );
}

/**
 * Mirrors the choices in the address (`?attribute_pa_color=blue`) without a reload, so the page can be shared
 * and reloaded as it is; other parameters stay.
 */
function useChoicesInAddress(active: boolean, attributes: ProductAttribute[], choices: Choices) {
  useEffect(() => {
    if (!active) return;
    const url = new URL(window.location.href);
    for (const attribute of attributes) {
      const field = attributeFieldName(attribute.slug);
      const value = choices[field];
      if (value) url.searchParams.set(field, value);
      else url.searchParams.delete(field);
    }
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
  }, [active, attributes, choices]);
}
