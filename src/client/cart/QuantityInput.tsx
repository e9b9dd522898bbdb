import { useId } from 'react';
import { useShopSettings } from '../ShopSettingsContext';
import { formatQuantity } from './quantityRules';

interface QuantityInputProps {
  name: string;
  defaultValue: number;
  min?: number | null;
  max?: number | null;
  step?: number;
  /** Said after "Quantity" in the label, e.g. the product's name where a page lists several lines. */
  itemName?: string;
  /** Keep the label for screen readers only (cart tables, the mini-cart). */
  hideLabel?: boolean;
  disabled?: boolean;
  /** A stable id for islands: `useId` differs between the whole-page server render and an island's hydration. */
  id?: string;
}

/**
 * The quantity control of the cart page, the mini-cart and the product page (docs/contract.md "Accessibility"): an
 * input labelled "Quantity" between "Decrease quantity" and "Increase quantity" buttons, which
 * `bindQuantityButtons` drives with delegated listeners (so it also works in fragments React never sees). The
 * buttons are named by hidden text rather than `aria-label`, so a label lookup for "Quantity" finds only the input.
 * `cart.quantityButtons: none` leaves the plain number input.
 */
export function QuantityInput({
  name,
  defaultValue,
  min = null,
  max = null,
  step = 1,
  itemName,
  hideLabel = false,
  disabled = false,
  id: givenId,
}: QuantityInputProps) {
  const { i18n, cart } = useShopSettings();
  const generatedId = useId();
  const id = givenId ?? generatedId;
  // A value below a positive minimum is raised to it; the browser does the same on load.
  const value = min !== null && min > 0 && defaultValue < min ? min : defaultValue;
  const buttons = cart.quantityButtons === 'buttons';
  return (
    <div className={`quantity${buttons ? ' quantity--buttons' : ''}`}>
      <label htmlFor={id} className={hideLabel ? 'screen-reader-text' : 'quantity__label'}>
        {itemName ? `${i18n.quantity}: ${itemName}` : i18n.quantity}
      </label>
      {buttons && (
        <button
          type="button"
          className="quantity__button quantity__minus"
          data-quantity-step="-1"
          aria-controls={id}
          disabled={disabled}
        >
          <span aria-hidden="true">−</span>
          <span className="screen-reader-text">{i18n.decreaseQuantity}</span>
        </button>
      )}
      <input
        id={id}
        type="number"
        name={name}
        defaultValue={formatQuantity(value, step)}
        min={min ?? undefined}
        max={max ?? undefined}
        step={step}
        inputMode={Number.isInteger(step) ? 'numeric' : 'decimal'}
        className="input-text qty"
        disabled={disabled}
      />
      {buttons && (
        <button
          type="button"
          className="quantity__button quantity__plus"
          data-quantity-step="1"
          aria-controls={id}
          disabled={disabled}
        >
          <span aria-hidden="true">+</span>
          <span className="screen-reader-text">{i18n.increaseQuantity}</span>
        </button>
      )}
    </div>
  );
}
