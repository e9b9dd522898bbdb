import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ATTRIBUTION_FIELDS } from '../../shared/attribution/attributionFields';
import { statesOf } from '../../shared/checkout/addressRules';
import { BILLING_FIELDS, type BillingFieldSpec, SHIPPING_FIELDS } from '../../shared/checkout/billingFields';
import { ALL_COUNTRIES } from '../../shared/checkout/countries';
import type { ShippingRate } from '../../shared/checkout/shippingZones';
import type { PaymentMethodId } from '../../shared/orders/orderTypes';
import { getAttributionFields } from '../attribution/attributionRuntime';
import { submitNatively } from '../cart/submitNatively';
import { useFormatMoney } from '../catalog/Price';
import { useShopSettings } from '../ShopSettingsContext';
import type { UpdatedCheckoutDetail } from './bindCheckoutReview';

export interface CheckoutFormProps {
  nonce: string;
  cartHash: string;
  /** Minted with the form: the server answers a replayed submit with the order it already made. */
  checkoutKey: string;
  values: Record<string, string>;
  errors: Record<string, string>;
  /** The countries the shop sells to; empty: every country. */
  allowedCountries: string[];
  defaultCountry: string;
  paymentMethods: { id: PaymentMethodId; title: string; description: string }[];
  /** The shipping choices for the address the form holds, and the one in use. */
  shipping: CheckoutShipping;
  /** The total the order review shows: sent with the order, which is refused (409) if it now costs otherwise. */
  shownTotal: number;
}

export interface CheckoutShipping {
  rates: ShippingRate[];
  chosen: string | null;
}

/** Fields whose change alters shipping or tax: the checkout asks for new totals (`update_checkout`). */
const QUOTE_FIELDS = new Set([
  'billing_country',
  'billing_state',
  'billing_postcode',
  'shipping_country',
  'shipping_state',
  'shipping_postcode',
  'ship_to_different_address',
  'shipping_method',
]);
/** A typed postcode is quoted once the shopper pauses, not on every keystroke. */
const TYPING_DELAY_MS = 600;

const ERROR_ORDER = [
  ...BILLING_FIELDS.map((field) => field.name as string),
  ...SHIPPING_FIELDS.map((field) => field.name as string),
  'shipping_method',
  'payment_method',
];
const FIELD_LABELS: Record<string, string> = {
  shipping_method: 'Shipping method',
  payment_method: 'Payment method',
};

type CheckBilling = typeof import('../../shared/checkout/billingSchema').checkBilling;

/**
 * The billing form. The server validates every submission with the same schema and re-renders this form with its
 * messages; once hydrated, the form also checks before sending so the shopper sees the messages at once. The
 * schema (and zod) loads when the shopper first enters the form, not with the page; a submission before it has
 * arrived waits for it, and goes to the server unchecked only if it cannot load (offline).
 */
export default function CheckoutForm({
  nonce,
  cartHash,
  checkoutKey,
  values,
  errors: serverErrors,
  allowedCountries,
  defaultCountry,
  paymentMethods,
  shipping: initialShipping,
  shownTotal: initialShownTotal,
}: CheckoutFormProps) {
  const [errors, setErrors] = useState(serverErrors);
  const [countries, setCountries] = useState({
    billing: values.billing_country || defaultCountry,
    shipping: values.shipping_country || values.billing_country || defaultCountry,
  });
  const [shipping, setShipping] = useState(initialShipping);
  const [shownTotal, setShownTotal] = useState(initialShownTotal);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(typingTimer.current), []);
  const format = useFormatMoney();
  const [failedAttempts, setFailedAttempts] = useState(0);
  // While the order is on its way the button is disabled (a second click would only replay it); a page restored
  // from the back-forward cache gets it back.
  const [placing, setPlacing] = useState(false);
  useEffect(() => {
    const restore = (event: PageTransitionEvent) => {
      if (event.persisted) setPlacing(false);
    };
    window.addEventListener('pageshow', restore);
    return () => window.removeEventListener('pageshow', restore);
  }, []);
  // The order review may be refreshed under the form (update_checkout): the order is for the cart it now shows.
  const [currentCartHash, setCurrentCartHash] = useState(cartHash);
  useEffect(() => {
    const onUpdated = (event: Event) => {
      const detail = (event as CustomEvent<UpdatedCheckoutDetail>).detail;
      if (detail?.cartHash) setCurrentCartHash(detail.cartHash);
      if (detail?.shipping) setShipping(detail.shipping);
      if (typeof detail?.total === 'number') setShownTotal(detail.total);
    };
    document.addEventListener('updated_checkout', onUpdated);
    return () => document.removeEventListener('updated_checkout', onUpdated);
  }, []);
  const formRef = useRef<HTMLFormElement>(null);
  const checkBilling = useRef<CheckBilling | null>(null);
  const loadingChecks = useRef<Promise<CheckBilling | null> | null>(null);

  function loadChecks(): Promise<CheckBilling | null> {
    loadingChecks.current ??= import('../../shared/checkout/billingSchema').then(
      (module) => {
        checkBilling.current = module.checkBilling;
        return module.checkBilling;
      },
      () => {
        loadingChecks.current = null; // the next attempt fetches again
        return null;
      },
    );
    return loadingChecks.current;
  }
  const { attribution, i18n } = useShopSettings();
  const prefix = attribution.fieldPrefix;

  // Order attribution: the hidden inputs are filled from the cookies when the form renders in the
  // browser and again just before it is sent, so a page view in another tab is not lost.
  function fillAttribution(form: HTMLFormElement) {
    const values = getAttributionFields();
    for (const field of ATTRIBUTION_FIELDS) {
      const input = form.elements.namedItem(`${prefix}${field}`);
      if (input instanceof HTMLInputElement) input.value = values[field] ?? '';
    }
  }
  // biome-ignore lint/correctness/useExhaustiveDependencies: fill once when hydrated; submit fills again
  useEffect(() => {
    if (formRef.current) fillAttribution(formRef.current);
  }, []);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = event.currentTarget;
    if (placing) {
      event.preventDefault();
      return;
    }
    fillAttribution(form);
    if (!checkBilling.current) {
      event.preventDefault();
      const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
      void loadChecks().then((loaded) =>
        loaded ? form.requestSubmit(submitter) : submitNatively(form, submitter),
      );
      return;
    }
    const result = checkBilling.current(Object.fromEntries(new FormData(form)) as Record<string, string>, {
      allowedCountries,
      paymentMethods: paymentMethods.map((method) => method.id),
    });
    if ('errors' in result) {
      event.preventDefault();
      setErrors(result.errors);
      // A new notice for each failed attempt, which the notice enhancer focuses after 500 ms (docs/theme.md).
      setFailedAttempts((count) => count + 1);
      return;
    }
    setPlacing(true);
  }

  /** Asks the checkout for new shipping choices and totals (bindCheckoutReview answers the event). */
  function requestTotals() {
    document.dispatchEvent(new CustomEvent('update_checkout'));
  }

  function onFieldChange(event: FormEvent<HTMLFormElement>) {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    if (target.name === 'billing_country' || target.name === 'shipping_country') {
      const prefix = target.name === 'billing_country' ? 'billing' : 'shipping';
      setCountries((now) => ({ ...now, [prefix]: target.value }));
    }
    if (target.name === 'shipping_method') {
      setShipping((now) => ({ ...now, chosen: target.value }));
    }
    if (!QUOTE_FIELDS.has(target.name)) return;
    clearTimeout(typingTimer.current);
    if (target instanceof HTMLInputElement && target.type === 'text') {
      typingTimer.current = setTimeout(requestTotals, TYPING_DELAY_MS);
    } else {
      requestTotals();
    }
  }

  const countryOptions =
    allowedCountries.length === 0
      ? ALL_COUNTRIES
      : ALL_COUNTRIES.filter(([code]) => allowedCountries.includes(code));

  function renderField(field: BillingFieldSpec, country: string) {
    const error = errors[field.name];
    const common = {
      id: field.name,
      name: field.name,
      autoComplete: field.autoComplete,
      required: field.required,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${field.name}-error` : undefined,
    };
    let label = field.label;
    let control: React.ReactNode;
    if (field.type === 'select') {
      control = (
        <select {...common} defaultValue={values[field.name] || defaultCountry}>
          {countryOptions.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      );
    } else if (field.type === 'state') {
      const states = statesOf(country);
      // A country without states has no field; another country's list starts afresh (keyed by the country).
      if (!states) return null;
      label = states.label;
      const posted = values[field.name] ?? '';
      control = (
        <select
          key={country}
          {...common}
          defaultValue={states.states.some(([code]) => code === posted) ? posted : ''}
        >
          <option value="">Select an option…</option>
          {states.states.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      );
    } else {
      control = <input {...common} type={field.type} defaultValue={values[field.name] ?? ''} />;
    }
    return (
      <p key={field.name} className={`form-row${error ? ' form-row--invalid' : ''}`}>
        <label htmlFor={field.name}>
          {label}
          {field.required && <span aria-hidden="true"> *</span>}
        </label>
        {control}
        {error && (
          <span id={`${field.name}-error`} className="field-error">
            {error}
          </span>
        )}
      </p>
    );
  }

  const errorList = ERROR_ORDER.filter((name) => errors[name]);
  const chosenPayment =
    paymentMethods.find((method) => method.id === values.payment_method)?.id ?? paymentMethods[0]?.id;
  return (
    <form
      ref={formRef}
      method="post"
      action="/checkout/"
      className="checkout"
      noValidate
      onSubmit={onSubmit}
      onChange={onFieldChange}
      onFocus={() => void loadChecks()}
      onPointerDown={() => void loadChecks()}
    >
      {errorList.length > 0 && (
        <div key={failedAttempts} className="notice notice--error" role="alert">
          <p>{i18n.correctTheFollowing}</p>
          <ul>
            {errorList.map((name) => (
              <li key={name}>
                <a href={`#${name === 'payment_method' ? `payment_method_${chosenPayment}` : name}`}>
                  {FIELD_LABELS[name] ? `${FIELD_LABELS[name]}: ` : ''}
                  {name.startsWith('shipping_') && name !== 'shipping_method' ? 'Shipping address: ' : ''}
                  {errors[name]}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <fieldset>
        <legend>Billing details</legend>
        {BILLING_FIELDS.map((field) => renderField(field, countries.billing))}
      </fieldset>
      <fieldset className="shipping-fields">
        <legend>Shipping address</legend>
        <p className="radio-choice">
          <input
            type="checkbox"
            id="ship-to-different-address-checkbox"
            name="ship_to_different_address"
            value="1"
            defaultChecked={values.ship_to_different_address === '1'}
          />
          <label htmlFor="ship-to-different-address-checkbox">Ship to a different address?</label>
        </p>
        {/* Shown by CSS while the box is ticked, so the choice works before (and without) JavaScript. */}
        <div className="shipping_address">
          {SHIPPING_FIELDS.map((field) => renderField(field, countries.shipping))}
        </div>
      </fieldset>
      <p className="form-row">
        <label htmlFor="order_comments">Order notes (optional)</label>
        <textarea
          id="order_comments"
          name="order_comments"
          rows={3}
          defaultValue={values.order_comments ?? ''}
        />
      </p>
      <fieldset className="shipping-methods" id="shipping_method">
        <legend>Shipping method</legend>
        {shipping.rates.length === 0 ? (
          <p className="notice notice--info">
            There are no shipping options available for this address. Please check the address, or contact us
            if you need any help.
          </p>
        ) : (
          <ul className="radio-list">
            {shipping.rates.map((rate) => (
              <li key={rate.id} className="radio-choice">
                <input
                  type="radio"
                  id={`shipping_method_${rate.id.replace(':', '_')}`}
                  name="shipping_method"
                  value={rate.id}
                  checked={shipping.chosen === rate.id}
                  onChange={() => {}}
                />
                <label htmlFor={`shipping_method_${rate.id.replace(':', '_')}`}>
                  {rate.cost > 0 ? `${rate.title}: ${format(rate.cost)}` : rate.title}
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      <fieldset className="payment-methods">
        <legend>Payment method</legend>
        <ul className="radio-list">
          {paymentMethods.map((method) => (
            <li key={method.id} className="radio-choice">
              <input
                type="radio"
                id={`payment_method_${method.id}`}
                name="payment_method"
                value={method.id}
                defaultChecked={method.id === chosenPayment}
                aria-describedby={`payment_method_${method.id}-description`}
              />
              <div>
                <label htmlFor={`payment_method_${method.id}`}>{method.title}</label>
                <p id={`payment_method_${method.id}-description`} className="radio-choice__description">
                  {method.description}
                </p>
              </div>
            </li>
          ))}
        </ul>
      </fieldset>
      <input type="hidden" name="_wpnonce" value={nonce} />
      <input type="hidden" name="cart_hash" value={currentCartHash} />
      <input type="hidden" name="checkout_key" value={checkoutKey} />
      <input type="hidden" name="shown_total" value={shownTotal} />
      {ATTRIBUTION_FIELDS.map((field) => (
        // No value prop: React writes a hidden input's defaultValue (its value) again on every render, and the
        // render that disables Place order happens inside the submit, before the browser reads the form.
        <input key={field} type="hidden" name={`${prefix}${field}`} />
      ))}
      <button
        type="submit"
        className="button button--primary"
        id="place_order"
        disabled={placing}
        aria-busy={placing || undefined}
      >
        {placing ? i18n.placingOrder : i18n.placeOrder}
      </button>
    </form>
  );
}
