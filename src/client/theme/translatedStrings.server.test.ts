import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';

/*
 * Every visible string of the theme, cart and checkout that the i18n settings name comes from them: a shop
 * configured in French renders French, with no English left where a translation exists.
 */
const FRENCH = {
  stockLeft: '%s en stock',
  removeItem: 'Retirer %s du panier',
  subtotal: 'Sous-total :',
  emptyMiniCart: 'Aucun produit dans le panier.',
  viewCart: 'Voir le panier',
  checkout: 'Commander',
  placeOrder: 'Passer la commande',
  storeNotice: 'Annonce de la boutique',
  comingSoon: 'Bientôt disponible',
  comingSoonText: 'Cette boutique ouvre bientôt.',
  dismissComingSoon: 'Fermer le bandeau',
  resultCountRange: 'Résultats %1$s à %2$s sur %3$s',
  shopOrder: 'Tri de la boutique',
  orderings: { menu_order: 'Tri par défaut', price: 'Tri par prix croissant' },
  relatedProducts: 'Produits similaires',
  upsells: 'Vous aimerez peut-être aussi…',
  crossSells: 'Vous pourriez être intéressé par…',
  notifyMe: 'Prévenez-moi quand il revient',
  notifyMeText: 'Laissez votre adresse e-mail.',
  emailAddress: 'Adresse e-mail',
  notifyMeButton: 'Me prévenir',
};
const HOST = { host: 'shop.test' };

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({
    settings: {
      i18n: FRENCH,
      theme: { storeNotice: { enabled: true, text: 'Soldes' }, comingSoon: { enabled: true } },
    },
  });
});
afterAll(() => shop.close());

/** The page's markup without its settings script, which carries every string whether used or not. */
async function page(url: string, cookie?: string): Promise<string> {
  const response = await shop.app.inject({
    method: 'GET',
    url,
    headers: { ...HOST, ...(cookie && { cookie }) },
  });
  expect(response.statusCode).toBe(200);
  return response.body.replace(/<script id="shop-settings"[\s\S]*?<\/script>/, '');
}

describe('a shop configured in French', () => {
  it('words the stock line, the theme banners, the result count and the ordering in French', async () => {
    const product = await page('/product/cafe-au-lait-mug/');
    expect(product).toContain('>24 en stock<');
    expect(product).not.toContain('in stock');
    expect(product).toContain('aria-label="Annonce de la boutique"');
    expect(product).toContain('aria-label="Bientôt disponible"');
    expect(product).toContain('Cette boutique ouvre bientôt.');
    expect(product).toContain('Fermer le bandeau');
    expect(product).toContain('Aucun produit dans le panier.');

    const archive = await page('/shop/');
    expect(archive).toContain('Résultats 1 à 12 sur 26');
    expect(archive).toContain('Tri de la boutique');
    expect(archive).toContain('>Tri par prix croissant</option>');
    expect(archive).toContain('>Tri par défaut</option>');
  });

  it('words the product lists and the back-in-stock form in French', async () => {
    const shirt = await page('/product/washed-linen-shirt/');
    expect(shirt).toContain('<h2 id="upsells-heading">Vous aimerez peut-être aussi…</h2>');
    expect(shirt).toContain('<h2 id="related-heading">Produits similaires</h2>');
    const cups = await page('/product/espresso-cup-pair/');
    expect(cups).toContain('<h2 id="stock-alert-heading">Prévenez-moi quand il revient</h2>');
    expect(cups).toContain('Laissez votre adresse e-mail.');
    expect(cups).toContain('>Adresse e-mail</label>');
    expect(cups).toContain('>Me prévenir</button>');
    expect(cups).not.toContain('Notify me');
  });

  it('words the mini-cart, the cart page and the checkout button in French', async () => {
    const added = await shop.app.inject({
      method: 'POST',
      url: '/?wc-ajax=add_to_cart',
      headers: { ...HOST, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'product_id=1021&quantity=1',
    });
    expect(added.statusCode).toBe(200);
    const cookie = added.cookies.map((each) => `${each.name}=${each.value}`).join('; ');
    const cart = await page('/cart/', cookie);
    expect(cart).toContain('aria-label="Retirer Café au Lait Mug du panier"');
    expect(cart).toContain('Sous-total :');
    expect(cart).toContain('>Voir le panier</a>');
    expect(cart).toContain('>Commander</a>');
    expect(cart).not.toContain('from cart');
    expect(cart).toContain('<h2 id="cross-sells-heading">Vous pourriez être intéressé par…</h2>');
    const checkout = await page('/checkout/', cookie);
    expect(checkout).toContain('Passer la commande');
    expect(checkout).not.toContain('Place order');
  });
});
