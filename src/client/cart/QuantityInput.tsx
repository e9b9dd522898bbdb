import { useId } from 'react';
import type { CartViewLine } from '../../shared/cart/cartTypes';
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
        <QuantityStepButton
          step={-1}
          symbol="−"
          label={i18n.decreaseQuantity}
          controls={id}
          disabled={disabled}
        />
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
        <QuantityStepButton
          step={1}
          symbol="+"
          label={i18n.increaseQuantity}
          controls={id}
          disabled={disabled}
        />
      )}
    </div>
  );
}

/** One of the two buttons beside the input; `bindQuantityButtons` reads its step. */
function QuantityStepButton({
  step,
  symbol,
  label,
  controls,
  disabled,
}: {
  step: 1 | -1;
  symbol: string;
  label: string;
  controls: string;
  disabled: boolean;
}) {
  return (
    <button
      type="button"
      className={`quantity__button ${step < 0 ? 'quantity__minus' : 'quantity__plus'}`}
      data-quantity-step={String(step)}
      aria-controls={controls}
      disabled={disabled}
    >
      <span aria-hidden="true">{symbol}</span>
      <span className="screen-reader-text">{label}</span>
    </button>
  );
}

/** A cart line's quantity field, as the cart page and the mini-cart post it (0 removes the line). */
export function CartLineQuantityInput({ line }: { line: CartViewLine }) {
  return (
    <QuantityInput
      name={`cart[${line.key}][qty]`}
      defaultValue={line.quantity}
      min={0}
      max={line.maxQuantity}
      itemName={line.name}
      hideLabel
    />
  );
}
