import { formatText } from '../../shared/settings/formatText';
import type { PageSettings } from '../../shared/settings/settingsSchema';
import { useShopSettings } from '../ShopSettingsContext';

/** The texts of the result-count line (the page's `i18n` settings). */
export type ResultCountTexts = Pick<
  PageSettings['i18n'],
  'resultCountSingle' | 'resultCountAll' | 'resultCountRange'
>;

/** WooCommerce's result-count line, worded as it words it. */
export function describeResultCount(
  total: number,
  page: number,
  perPage: number,
  texts: ResultCountTexts,
): string {
  if (total === 1) return texts.resultCountSingle;
  if (total <= perPage || total === 0) return formatText(texts.resultCountAll, total);
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return formatText(texts.resultCountRange, first, last, total);
}

export function ResultCount({ total, page, perPage }: { total: number; page: number; perPage: number }) {
  const { i18n } = useShopSettings();
  return (
    <p className="woocommerce-result-count" role="status">
      {describeResultCount(total, page, perPage, i18n)}
    </p>
  );
}
