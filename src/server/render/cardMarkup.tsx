import { renderToString } from 'react-dom/server';
import { type CardMarkup, ProductCardContent } from '../../client/catalog/ProductCard';
import { ShopSettingsContext } from '../../client/ShopSettingsContext';
import type { PageSettings } from '../../shared/settings/settingsSchema';

/** Cards kept: a few catalogs' worth of listed products, each entry a card's props and its HTML (about 1.5 kB). */
export const CARD_MARKUP_ENTRIES = 2_000;

/**
 * Product cards rendered once and reused by every page that lists the same product the same way (home, archives,
 * a product page's lists), also when the render cache is cold or off: rendering a dozen cards is most of an
 * archive page's React work.
 *
 * A card's HTML is a function of its product summary, its title level and the shop's settings alone (currency,
 * texts, swatch rules: never the visitor's cart, nonces or statistics), so it is looked up by those: the summary as
 * read for this page, serialized. A changed price, name, stock or image is another key, so a card is never stale
 * and needs no invalidation; the entries of old versions fall out, least recently used first, past `maxEntries`.
 * `settings` are the shop's, fixed for the life of the process.
 */
export function createCardMarkup(
  settings: PageSettings,
  maxEntries = CARD_MARKUP_ENTRIES,
): { markup: CardMarkup; size: () => number } {
  const cards = new Map<string, string>();
  const markup: CardMarkup = (product, titleLevel) => {
    const key = `${titleLevel}${JSON.stringify(product)}`;
    let html = cards.get(key);
    if (html !== undefined) {
      // Most recently used last: Map keeps insertion order.
      cards.delete(key);
    } else {
      html = renderToString(
        <ShopSettingsContext value={settings}>
          <ProductCardContent product={product} titleLevel={titleLevel} />
        </ShopSettingsContext>,
      );
      if (cards.size >= maxEntries) cards.delete(cards.keys().next().value as string);
    }
    cards.set(key, html);
    return html;
  };
  return { markup, size: () => cards.size };
}
