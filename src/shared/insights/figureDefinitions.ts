/*
 * What each figure on the owner's insights page means: one sentence per figure, shown in the page (each figure's
 * "?" leads to it) and written in docs/insights.md (a test checks they say the same).
 */

export const FIGURE_DEFINITIONS = [
  {
    id: 'visitor',
    term: 'Visitor',
    text: 'One browser (address and browser together) on one day (UTC). The same person on two days is two visitors; visits the statistics did not record (no consent, a blocked tracker, a bot, the owner) are not counted.',
  },
  {
    id: 'page-view',
    term: 'Page view',
    text: 'A page loaded, or the path or query of the address changed by navigation. A new hash (#reviews) or a variation choice the shop writes into the address (attribute_*) is the same page view.',
  },
  {
    id: 'session',
    term: 'Session',
    text: "The shopper's cart session (the shop's session cookie); before it exists, the same address and browser on the same day.",
  },
  {
    id: 'source',
    term: 'Source',
    text: "Where a visitor's first page view of the day came from: Campaign (utm parameters), Search engine, Referral (another site) or Direct. The shop's own pages are never a referrer.",
  },
  {
    id: 'orders',
    term: 'Orders',
    text: 'Orders placed in the range, except cancelled, refunded and failed ones.',
  },
  {
    id: 'revenue',
    term: 'Revenue',
    text: 'The total of those orders, net of cancelled, refunded and failed orders.',
  },
  {
    id: 'buyers',
    term: 'Buyers',
    text: 'Visitors who placed at least one counted order on the day of their visit.',
  },
  {
    id: 'conversion',
    term: 'Conversion rate',
    text: 'Buyers ÷ visitors of the same range and the same source; never above 100%. Unattributed orders are not divided.',
  },
  {
    id: 'unattributed',
    term: 'Unattributed orders',
    text: "Counted orders whose buyer's visit was not recorded that day (no statistics consent, a blocked tracker): counted in orders and revenue, in no source's conversion.",
  },
  {
    id: 'purchased-search',
    term: 'Search that led to a purchase',
    text: 'A search that found products, then an add-to-cart of one of the products it found, then a counted order, all in the same session. A search that found nothing is never one.',
  },
] as const;

export type FigureId = (typeof FIGURE_DEFINITIONS)[number]['id'];

/** Source types as the owner reads them; the recorded value is kept in a tooltip. */
const SOURCE_TYPE_WORDS: Record<string, string> = {
  utm: 'Campaign',
  organic: 'Search engine',
  referral: 'Referral',
  typein: 'Direct',
  unknown: 'Unknown',
  unattributed: 'Unattributed',
};

export function sourceTypeWords(raw: string): string {
  return SOURCE_TYPE_WORDS[raw] ?? raw;
}

/** Sources as the owner reads them: the placeholders the attribution rules write, in words. */
export function sourceWords(raw: string): string {
  if (raw === '(direct)') return 'Direct';
  if (raw === '(none)') return 'None';
  return raw;
}
