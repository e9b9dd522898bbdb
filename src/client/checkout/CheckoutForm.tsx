import { type FormEvent, useEffect, useRef, useState } from 'react';
import { ATTRIBUTION_FIELDS } from '../../shared/attribution/attributionFields';
import { BILLING_FIELDS, COUNTRIES } from '../../shared/checkout/billingFields';
import { getAttributionFields } from '../attribution/attributionRuntime';
import { submitNatively } from '../cart/submitNatively';
import { useShopSettings } from '../ShopSettingsContext';
import type { UpdatedCheckoutDetail } from './bindCheckoutReview';

export interface CheckoutFormProps {
  nonce: string;
  cartHash: string;
  /** Minted with the form: the server answers a replayed submit with the order it already made. */
  checkoutKey: string;
  values: Record<string, string>;
  errors: Record<string, string>;
}

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
}: CheckoutFormProps) {
  const [errors, setErrors] = useState(serverErrors);
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
      const next = (event as CustomEvent<UpdatedCheckoutDetail>).detail?.cartHash;
      if (next) setCurrentCartHash(next);
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
    const result = checkBilling.current(Object.fromEntries(new FormData(form)) as Record<string, string>);
    if ('errors' in result) {
      event.preventDefault();
      setErrors(result.errors);
      // A new notice for each failed attempt, which the notice enhancer focuses after 500 ms (docs/theme.md).
      setFailedAttempts((count) => count + 1);
      return;
    }
    setPlacing(true);
  }

  const errorList = BILLING_FIELDS.filter((field) => errors[field.name]);
  return (
    <form
      ref={formRef}
      method="post"
      action="/checkout/"
      className="checkout"
      noValidate
      onSubmit={onSubmit}
      onFocus={() => void loadChecks()}
      onPointerDown={() => void loadChecks()}
    >
      {errorList.length > 0 && (
        <div key={failedAttempts} className="notice notice--error" role="alert">
          <p>{i18n.correctTheFollowing}</p>
          <ul>
            {errorList.map((field) => (
              <li key={field.name}>
                <a href={`#${field.name}`}>{errors[field.name]}</a>
              </li>
            ))}
          </ul>
        </div>
      )}
      <fieldset>
        <legend>Billing details</legend>
        {BILLING_FIELDS.map((field) => {
          const error = errors[field.name];
          const common = {
            id: field.name,
            name: field.name,
            autoComplete: field.autoComplete,
            required: field.required,
            'aria-invalid': error ? true : undefined,
            'aria-describedby': error ? `${field.name}-error` : undefined,
          };
          return (
            <p key={field.name} className={`form-row${error ? ' form-row--invalid' : ''}`}>
              <label htmlFor={field.name}>
                {field.label}
                {field.required && <span aria-hidden="true"> *</span>}
              </label>
              {field.type === 'select' ? (
                <select {...common} defaultValue={values[field.name] ?? 'US'}>
                  {COUNTRIES.map(([code, name]) => (
                    <option key={code} value={code}>
                      {name}
                    </option>
                  ))}
                </select>
              ) : (
                <input {...common} type={field.type} defaultValue={values[field.name] ?? ''} />
              )}
              {error && (
                <span id={`${field.name}-error`} className="field-error">
                  {error}
                </span>
              )}
            </p>
          );
        })}
        <p className="form-row">
          <label htmlFor="order_comments">Order notes (optional)</label>
          <textarea
            id="order_comments"
            name="order_comments"
            rows={3}
            defaultValue={values.order_comments ?? ''}
          />
        </p>
      </fieldset>
      <fieldset>
        <legend>Payment</legend>
        <p className="form-row">
          <input type="radio" id="payment_method_cod" name="payment_method" value="cod" defaultChecked />{' '}
          <label htmlFor="payment_method_cod">Cash on delivery</label>
        </p>
      </fieldset>
      <input type="hidden" name="_wpnonce" value={nonce} />
      <input type="hidden" name="cart_hash" value={currentCartHash} />
      <input type="hidden" name="checkout_key" value={checkoutKey} />
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
