import { useState } from 'react';
import { useShopSettings } from '../ShopSettingsContext';
import { storeNoticeDismissalCookie } from './storeNoticeCookie';

export interface StoreNoticeProps {
  id: string | null;
  text: string;
}

/**
 * The store notice banner (SPEC.md §4): visible until dismissed, then hidden and remembered by the
 * `store_notice{id}` cookie, which the server reads so a dismissed notice is not rendered again.
 */
export default function StoreNotice({ id, text }: StoreNoticeProps) {
  const { i18n } = useShopSettings();
  const [dismissed, setDismissed] = useState(false);
  if (dismissed) return null;
  return (
    <section className="woocommerce-store-notice demo_store" aria-label={i18n.storeNotice}>
      <p>{text}</p>
      <button
        type="button"
        className="woocommerce-store-notice__dismiss-link"
        onClick={() => {
          // biome-ignore lint/suspicious/noDocumentCookie: a plain cookie the server reads; no store is needed
          document.cookie = storeNoticeDismissalCookie(id);
          setDismissed(true);
        }}
      >
        {i18n.dismiss}
      </button>
    </section>
  );
}
