import { useShopSettings } from '../ShopSettingsContext';

/**
 * The unsubscribe link's page. Opening the link changes nothing (mail scanners open links): the button posts the
 * signed token back, without JavaScript.
 */
export function StockAlertUnsubscribePage({
  token,
  nonce,
  done,
}: {
  token: string;
  nonce: string;
  done: boolean;
}) {
  const { i18n } = useShopSettings();
  return (
    <section className="message-page stock-alert-unsubscribe">
      <h1>{i18n.unsubscribeTitle}</h1>
      {done ? (
        <p role="status">{i18n.unsubscribeDone}</p>
      ) : (
        <form method="post" action="/back-in-stock/unsubscribe/">
          <p>{i18n.unsubscribeText}</p>
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="_wpnonce" value={nonce} />
          <button type="submit" className="button">
            {i18n.unsubscribeButton}
          </button>
        </form>
      )}
      <p>
        <a href="/shop/">Continue shopping</a>
      </p>
    </section>
  );
}
