import { useState } from 'react';
import { getShopRestClient } from '../rest/shopRestClient';
import { useShopSettings } from '../ShopSettingsContext';

export interface ComingSoonBannerProps {
  /** The REST URL the dismiss control carries: `wp/v2/users/me` under the REST root. */
  restUrl: string;
}

/** The meta flag that records the dismissal (WooCommerce's user meta key). */
export const COMING_SOON_DISMISSAL = { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } } as const;

/**
 * The coming-soon footer banner: dismissing it POSTs the meta flag through the page's REST client, which sends the
 * nonce and, when the server refuses a nonce minted before the visitor's session began, fetches a fresh one and
 * retries once. The banner hides when the call completes, whatever the result.
 */
export default function ComingSoonBanner({ restUrl }: ComingSoonBannerProps) {
  const { rest, i18n } = useShopSettings();
  const [state, setState] = useState<'shown' | 'dismissing' | 'hidden'>('shown');
  if (state === 'hidden') return null;

  const dismiss = () => {
    setState('dismissing');
    getShopRestClient(rest)({ url: restUrl, method: 'POST', data: COMING_SOON_DISMISSAL })
      .catch(() => undefined)
      .finally(() => setState('hidden'));
  };

  return (
    <section className="woocommerce-coming-soon-banner" aria-label={i18n.comingSoon}>
      <p>{i18n.comingSoonText}</p>
      <button
        type="button"
        className="woocommerce-coming-soon-banner__close"
        data-rest-url={restUrl}
        disabled={state === 'dismissing'}
        onClick={dismiss}
      >
        <span aria-hidden="true">×</span>
        <span className="screen-reader-text">{i18n.dismissComingSoon}</span>
      </button>
    </section>
  );
}
