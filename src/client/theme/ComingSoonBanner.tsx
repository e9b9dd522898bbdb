import { useState } from 'react';
import { useShopSettings } from '../ShopSettingsContext';

export interface ComingSoonBannerProps {
  /** The REST URL the dismiss control carries (SPEC.md §7.3): `wp/v2/users/me` under the REST root. */
  restUrl: string;
}

/** CONTRACT.md "Payloads": the meta flag that records the dismissal. */
export const COMING_SOON_DISMISSAL = { meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } } as const;

/**
 * The coming-soon footer banner (SPEC.md §2, §7.3): dismissing it POSTs the meta flag with the page's REST nonce;
 * the banner hides when the call completes, whatever the result.
 */
export default function ComingSoonBanner({ restUrl }: ComingSoonBannerProps) {
  const { rest } = useShopSettings();
  const [state, setState] = useState<'shown' | 'dismissing' | 'hidden'>('shown');
  if (state === 'hidden') return null;

  const dismiss = () => {
    setState('dismissing');
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (rest.nonce) headers['X-WP-Nonce'] = rest.nonce;
    fetch(restUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers,
      body: JSON.stringify(COMING_SOON_DISMISSAL),
    })
      .catch(() => undefined)
      .finally(() => setState('hidden'));
  };

  return (
    <section className="woocommerce-coming-soon-banner" aria-label="Coming soon">
      <p>
        This page is in “Coming soon” mode and is only visible to you and those who have permission. To make
        it public to everyone, change the shop’s visibility settings.
      </p>
      <button
        type="button"
        className="woocommerce-coming-soon-banner__close"
        data-rest-url={restUrl}
        disabled={state === 'dismissing'}
        onClick={dismiss}
      >
        <span aria-hidden="true">×</span>
        <span className="screen-reader-text">Dismiss coming soon banner</span>
      </button>
    </section>
  );
}
