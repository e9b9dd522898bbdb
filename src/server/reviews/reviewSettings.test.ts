import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { nonceOf } from '../../../test-support/ownerBrowser';
import { Shopper } from '../../../test-support/shopper';

/* The reviews settings: publish at once instead of holding, and only verified owners may review. */

const SCARF = 1032;
let shop: TestApp;
let url: string;

beforeAll(async () => {
  shop = await createTestApp({ settings: { reviews: { moderation: 'publish', verifiedOwnersOnly: true } } });
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [SCARF]);
  const [row] = await shop.query<{ slug: string; type: string }>(
    'SELECT slug, type FROM products WHERE id = ?',
    [SCARF],
  );
  expect(row?.type).toBe('simple');
  url = `/product/${row?.slug}/`;
}, 60_000);
afterAll(async () => {
  await shop.close();
});

async function sendReview(email: string) {
  const shopper = new Shopper();
  const page = await shopper.send(shop.app, 'GET', url);
  return shopper.send(shop.app, 'POST', `${url}review`, {
    _wpnonce: nonceOf(page.body, `${url}review`),
    rating: '4',
    reviewer: 'Vera',
    email,
    content: 'Warm and soft.',
  });
}

describe('reviews settings', () => {
  it('refuses a shopper who did not buy the product when only verified owners may review, keeping the text', async () => {
    const page = await new Shopper().send(shop.app, 'GET', url);
    expect(page.body).toContain('Only customers who bought this product can review it.');
    const refused = await sendReview('stranger@example.com');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Use the email address of your order');
    expect(refused.body).toContain('Warm and soft.');
    expect(await shop.query('SELECT id FROM product_reviews')).toHaveLength(0);
  });

  it('publishes a buyer’s review at once, counted in the rating, with the badge', async () => {
    const buyer = new Shopper();
    const form = await buyer.readyForm(shop.app, SCARF, 1);
    const placed = await buyer.send(shop.app, 'POST', '/checkout/', {
      ...form,
      billing_email: 'vera@example.com',
    });
    expect(placed.statusCode).toBe(303);
    const sent = await sendReview('VERA@example.com');
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`${url}?review=published#reviews`);
    const [rating] = await shop.query<{ average: number; count: number }>(
      'SELECT rating_average AS average, rating_count AS count FROM products WHERE id = ?',
      [SCARF],
    );
    expect({ average: Number(rating?.average), count: Number(rating?.count) }).toEqual({
      average: 4,
      count: 1,
    });
    const page = await new Shopper().send(shop.app, 'GET', `${url}?review=published`);
    expect(page.body).toContain('It is published below.');
    expect(page.body).toContain('Verified owner');
    expect(page.body).toContain('Reviews (1)');
  });
});
