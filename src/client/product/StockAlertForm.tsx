import { useShopSettings } from '../ShopSettingsContext';

/** What the product page offers to wait for: the product itself, or each out-of-stock variation. */
export interface StockAlertOffer {
  nonce: string;
  targets: { id: number; name: string }[];
  /** Whether the shopper picks what to wait for (a variable product's variations), even when only one is out. */
  choose: boolean;
  /** After the form was sent: its outcome, shown as a status message. */
  notice: 'subscribed' | 'available' | null;
  /** The product whose page shows the form (a variation's parent): the page a refused form is shown on again. */
  pageProductId?: number;
  /** A form sent but not taken (its page was shared, so it carried no nonce): why, with what was typed kept. */
  refused?: { message: string; email: string; productId: number } | null;
}

/**
 * "Notify me when available": a plain form that posts without JavaScript. The page shows it only for what is out
 * of stock; the server says the same thing whether or not the address was already waiting (no address is revealed).
 */
export function StockAlertForm({ offer }: { offer: StockAlertOffer }) {
  const { i18n } = useShopSettings();
  const [only] = offer.targets;
  return (
    <section className="stock-alert" id="back-in-stock" aria-labelledby="stock-alert-heading">
      <h2 id="stock-alert-heading">{i18n.notifyMe}</h2>
      {offer.notice && (
        <p className="notice notice--success" role="status">
          {offer.notice === 'subscribed' ? i18n.notifyMeSubscribed : i18n.notifyMeAvailable}
        </p>
      )}
      {offer.refused && (
        <p className="notice notice--error" role="alert">
          {offer.refused.message}
        </p>
      )}
      {only && (
        <form method="post" action="/back-in-stock/" className="stock-alert__form">
          <p>{i18n.notifyMeText}</p>
          {offer.pageProductId !== undefined && (
            <input type="hidden" name="page_id" value={offer.pageProductId} />
          )}
          {/* Empty on a cached page: filled in before sending (client/forms/fillFormNonces.ts). */}
          <input type="hidden" name="_wpnonce" value={offer.nonce} data-nonce-action="stock_alert" />
          {!offer.choose ? (
            <input type="hidden" name="product_id" value={only.id} />
          ) : (
            <p className="form-row">
              <label htmlFor="stock-alert-product">{i18n.notifyMeOption}</label>
              <select
                id="stock-alert-product"
                name="product_id"
                required
                defaultValue={offer.refused?.productId}
              >
                {offer.targets.map((target) => (
                  <option key={target.id} value={target.id}>
                    {target.name}
                  </option>
                ))}
              </select>
            </p>
          )}
          <p className="form-row">
            <label htmlFor="stock-alert-email">{i18n.emailAddress}</label>
            <input
              id="stock-alert-email"
              type="email"
              name="email"
              required
              maxLength={254}
              autoComplete="email"
              inputMode="email"
              defaultValue={offer.refused?.email}
            />
          </p>
          <button type="submit" className="button">
            {i18n.notifyMeButton}
          </button>
        </form>
      )}
    </section>
  );
}
