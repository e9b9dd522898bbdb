import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { nonceOf, ownerShopper } from '../../../test-support/ownerBrowser';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';
import { readCatalogFiles } from '../catalog/import/readCatalogFiles';
import { DEMO_CATALOG } from '../catalog/import/seedDemoCatalog';

/*
 * Reviews over HTTP, on whichever engine the run uses (SQLite under `npm test`, PostgreSQL under
 * `npm run test:postgres`): the form and its refusals, moderation, the product's stored rating after every
 * approval, unapproval and deletion (figures computed by hand), the search suggestions and the Store API.
 */

const MUG = 1021; // imported rating: 4.8 from 44 (the demo catalog's sidecar)
let shop: TestApp;
let mugUrl: string;

beforeAll(async () => {
  shop = await createTestApp();
  await shop.repositories.ownerAuth.setOwnerAccount(
    TEST_OWNER_PASSWORD_HASH,
    'owner@example.com',
    Date.now(),
  );
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
  const [row] = await shop.query<{ slug: string }>('SELECT slug FROM products WHERE id = ?', [MUG]);
  mugUrl = `/product/${row?.slug}/`;
}, 60_000);
afterAll(async () => {
  await shop.close();
});

async function placeOrder(email: string): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(shop.app, MUG, 1);
  const placed = await shopper.send(shop.app, 'POST', '/checkout/', { ...form, billing_email: email });
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

/** A shopper on the product page sending the review form with the page's nonce. */
async function sendReview(fields: Record<string, string>, url = mugUrl, shopper = new Shopper()) {
  const page = await shopper.send(shop.app, 'GET', url);
  expect(page.statusCode).toBe(200);
  const nonce = nonceOf(page.body, `${url}review`);
  return shopper.send(shop.app, 'POST', `${url}review`, { _wpnonce: nonce, ...fields });
}

async function mugRating() {
  const [row] = await shop.query<{ average: number; count: number }>(
    'SELECT rating_average AS average, rating_count AS count FROM products WHERE id = ?',
    [MUG],
  );
  return { average: Number(row?.average), count: Number(row?.count) };
}

async function latestReviewId(): Promise<number> {
  const [row] = await shop.query<{ id: number }>('SELECT MAX(id) AS id FROM product_reviews');
  return Number(row?.id);
}

async function moderate(id: number, action: 'approved' | 'pending' | 'spam' | 'delete') {
  const { owner } = await ownerShopper(shop.app, undefined, '/admin/reviews/');
  const url = action === 'delete' ? `/admin/reviews/${id}/delete` : `/admin/reviews/${id}/status`;
  // The nonce of the review's own form, on whichever tab lists it.
  let nonce = '';
  for (const tab of ['pending', 'approved', 'spam']) {
    const page = await owner.send(shop.app, 'GET', `/admin/reviews/?status=${tab}`);
    if (page.body.includes(`action="${url}"`)) nonce = nonceOf(page.body, url);
  }
  expect(nonce).not.toBe('');
  const form: Record<string, string> = { _wpnonce: nonce };
  if (action !== 'delete') form.status = action;
  return owner.send(shop.app, 'POST', url, form);
}

const GOOD = {
  rating: '5',
  reviewer: 'Ada',
  email: 'ada@example.com',
  content: 'Holds a proper milky coffee.',
};

describe('the reviews section and form on a product page', () => {
  it('shows "Reviews (0)", the imported rating as the starting average, and a form with nonce and honeypot', async () => {
    const page = await new Shopper().send(shop.app, 'GET', mugUrl);
    expect(page.body).toContain('Reviews (0)');
    expect(page.body).toContain('4.8 out of 5 from 44 earlier ratings');
    expect(page.body).toContain('aria-label="Rated 4.8 out of 5 from 44 reviews"');
    expect(page.body).toMatch(/<fieldset[^>]*class="review-form__rating"/);
    expect(page.body.match(/type="radio"[^>]*name="rating"/g)).toHaveLength(5);
    expect(page.body).toContain('name="review_website"');
    expect(nonceOf(page.body, `${mugUrl}review`)).toHaveLength(22);
  });

  it('refuses an empty form with a message beside each field, keeping what was typed', async () => {
    const response = await sendReview({
      rating: '',
      reviewer: 'Grace <b>H</b>',
      email: 'not-an-email',
      content: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Choose a rating from 1 to 5 stars.');
    expect(response.body).toContain('Enter a valid email address, like name@example.com.');
    expect(response.body).toContain('Write your review.');
    expect(response.body).toContain('value="Grace &lt;b&gt;H&lt;/b&gt;"');
    expect(response.body).toContain('value="not-an-email"');
    expect(response.body).toContain('aria-describedby="review-email-hint review-email-error"');
    expect(await shop.query('SELECT id FROM product_reviews')).toHaveLength(0);
  });

  it('refuses text over the length limit, and keeps the choice of stars', async () => {
    const response = await sendReview({ ...GOOD, rating: '3', content: 'x'.repeat(3001) });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Your review is too long: at most 3,000 characters (it has 3,001).');
    const radios = [...response.body.matchAll(/<input type="radio"[^>]*name="rating"[^>]*>/g)].map(
      (m) => m[0],
    );
    expect(radios.filter((radio) => /checked/.test(radio))).toEqual([expect.stringContaining('value="3"')]);
  });

  it('refuses a post without the page nonce (403), keeping the text', async () => {
    const shopper = new Shopper();
    const response = await shopper.send(shop.app, 'POST', `${mugUrl}review`, {
      ...GOOD,
      content: 'Typed with care',
      _wpnonce: 'forged-forged-forged-1',
    });
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('Your review was not sent yet: please press “Submit review” once more');
    expect(response.body).toContain('Typed with care');
    expect(await shop.query('SELECT id FROM product_reviews')).toHaveLength(0);
  });

  it('stores nothing when the honeypot is filled, answering as for a held review', async () => {
    const response = await sendReview({ ...GOOD, review_website: 'http://spam.example' });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`${mugUrl}?review=held#reviews`);
    expect(await shop.query('SELECT id FROM product_reviews')).toHaveLength(0);
  });
});

describe('moderation and the stored rating', () => {
  it('holds a buyer’s review, marked verified; approving it replaces the imported rating with it', async () => {
    const orderId = await placeOrder('Buyer@Example.com');
    const [order] = await shop.query<{ status: string }>('SELECT status FROM orders WHERE id = ?', [orderId]);
    expect(['processing', 'completed']).toContain(order?.status);

    const sent = await sendReview({ ...GOOD, email: 'buyer@example.com', reviewer: 'Bea Buyer' });
    expect(sent.statusCode).toBe(303);
    expect(sent.headers.location).toBe(`${mugUrl}?review=held#reviews`);
    const id = await latestReviewId();
    const [row] = await shop.query<{ status: string; verified: number }>(
      'SELECT status, verified FROM product_reviews WHERE id = ?',
      [id],
    );
    expect(row).toEqual({ status: 'pending', verified: 1 });
    // Held: neither shown nor counted.
    const held = await new Shopper().send(shop.app, 'GET', `${mugUrl}?review=held`);
    expect(held.body).toContain('It will appear once the shop has approved it.');
    expect(held.body).toContain('Reviews (0)');
    expect(held.body).not.toContain('Bea Buyer');
    expect(await mugRating()).toEqual({ average: 4.8, count: 44 });

    const approved = await moderate(id, 'approved');
    expect(approved.statusCode).toBe(303);
    // One review of 5 stars: 5 / 1 = 5.00 from 1.
    expect(await mugRating()).toEqual({ average: 5, count: 1 });
    const page = await new Shopper().send(shop.app, 'GET', mugUrl);
    expect(page.body).toContain('Reviews (1)');
    expect(page.body).toContain('Bea Buyer');
    expect(page.body).toContain('Verified owner');
    expect(page.body).toContain('aria-label="Rated 5.0 out of 5 from 1 review"');
    expect(page.body).toMatch(/<tr data-stars="5">[\s\S]*?<td class="reviews__bar-count">1</);
    expect(page.body).not.toContain('buyer@example.com');
  });

  it('shows a non-buyer’s review without the badge, and averages both by hand', async () => {
    await sendReview({ ...GOOD, rating: '2', reviewer: 'Nina Nonbuyer', email: 'nina@example.com' });
    const id = await latestReviewId();
    await moderate(id, 'approved');
    // (5 + 2) / 2 = 3.5 from 2.
    expect(await mugRating()).toEqual({ average: 3.5, count: 2 });
    const page = await new Shopper().send(shop.app, 'GET', mugUrl);
    const nina = /<li class="review" id="review-\d+">(?:(?!<\/li>)[\s\S])*Nina Nonbuyer[\s\S]*?<\/li>/.exec(
      page.body,
    )?.[0];
    expect(nina).toBeDefined();
    expect(nina).not.toContain('Verified owner');
    expect(page.body).toContain('Reviews (2)');
  });

  it('shows markup in a review as text', async () => {
    await sendReview({
      ...GOOD,
      rating: '4',
      reviewer: 'Mal <i>Formed</i>',
      email: 'mal@example.com',
      content: '<b>bold</b> <script>alert(1)</script>',
    });
    await moderate(await latestReviewId(), 'approved');
    // (5 + 2 + 4) / 3 = 3.666… → 3.67 from 3.
    expect(await mugRating()).toEqual({ average: 3.67, count: 3 });
    const page = await new Shopper().send(shop.app, 'GET', mugUrl);
    expect(page.body).toContain('&lt;b&gt;bold&lt;/b&gt; &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.body).toContain('Mal &lt;i&gt;Formed&lt;/i&gt;');
    expect(page.body).not.toContain('<script>alert(1)');
  });

  it('quotes the approved reviews in the page’s Product JSON-LD, with the stored rating and markup kept as text', async () => {
    const page = await new Shopper().send(shop.app, 'GET', mugUrl);
    const scripts = [...page.body.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)];
    const product = scripts
      .map((match) => JSON.parse(match[1] as string))
      .find((data) => data['@type'] === 'Product');
    expect(product.aggregateRating).toMatchObject({ ratingValue: 3.67, ratingCount: 3 });
    // Newest first, as the page lists them; the script tag in a review is data, not markup.
    expect(
      product.review.map((review: { author: { name: string }; reviewRating: { ratingValue: number } }) => [
        review.author.name,
        review.reviewRating.ratingValue,
      ]),
    ).toEqual([
      ['Mal <i>Formed</i>', 4],
      ['Nina Nonbuyer', 2],
      ['Bea Buyer', 5],
    ]);
    expect(product.review[0].reviewBody).toBe('<b>bold</b> <script>alert(1)</script>');
  });

  it('shows the stored rating in listings once a review is approved', async () => {
    const kitchen = await new Shopper().send(shop.app, 'GET', '/product-category/home/kitchen/');
    expect(kitchen.statusCode).toBe(200);
    expect(kitchen.body).toContain('aria-label="Rated 3.7 out of 5 from 3 reviews"');
    expect(kitchen.body).not.toContain('from 44 reviews');
  });

  it('shows the stored rating in search suggestions once a review is approved', async () => {
    const answer = await new Shopper().send(shop.app, 'GET', '/?wc-ajax=search_suggestions&s=mug');
    const mug = (
      answer.json().suggestions as { post_id?: number; rating?: number; rating_count?: number }[]
    ).find((each) => each.post_id === MUG);
    expect(mug).toMatchObject({ rating: 3.67, rating_count: 3 });
  });

  it('counts only approved reviews: spam, unapprove and delete each recompute; none left gives the imported rating back', async () => {
    const ids = (
      await shop.query<{ id: number }>("SELECT id FROM product_reviews WHERE status = 'approved' ORDER BY id")
    ).map((row) => Number(row.id));
    expect(ids).toHaveLength(3);
    const [five, two, four] = ids as [number, number, number];
    await moderate(two, 'spam');
    // (5 + 4) / 2 = 4.5 from 2.
    expect(await mugRating()).toEqual({ average: 4.5, count: 2 });
    await moderate(five, 'pending');
    expect(await mugRating()).toEqual({ average: 4, count: 1 });
    const deleted = await moderate(four, 'delete');
    expect(deleted.statusCode).toBe(303);
    expect(await mugRating()).toEqual({ average: 4.8, count: 44 });
    const page = await new Shopper().send(shop.app, 'GET', mugUrl);
    expect(page.body).toContain('Reviews (0)');
    // Bring two back for the REST tests: 5 and 2 → 3.5 from 2.
    await moderate(five, 'approved');
    await moderate(two, 'approved');
    expect(await mugRating()).toEqual({ average: 3.5, count: 2 });
  });

  it('lists each status in its tab, with counts, emails for the owner only', async () => {
    const { owner } = await ownerShopper(shop.app, undefined, '/admin/reviews/');
    const approved = await owner.send(shop.app, 'GET', '/admin/reviews/?status=approved');
    expect(approved.statusCode).toBe(200);
    expect(approved.body).toContain('Approved (2)');
    expect(approved.body).toContain('buyer@example.com');
    expect(approved.body).toMatch(
      /href="\/admin\/reviews\/"[^>]*aria-current="page"|aria-current="page"[^>]*>Reviews/,
    );
    const missing = await owner
      .send(shop.app, 'POST', '/admin/reviews/999999/status', {
        _wpnonce: nonceOf(approved.body, `/admin/reviews/${(await latestReviewId()) - 1}/status`),
        status: 'approved',
      })
      .catch(() => null);
    expect(missing?.statusCode).toBe(404);
  });
});

describe('GET /wp-json/wc/store/v1/products/reviews', () => {
  it('answers approved reviews in the Store API shape, newest first, with pagination headers and no email', async () => {
    const response = await new Shopper().send(
      shop.app,
      'GET',
      `/wp-json/wc/store/v1/products/reviews?product_id=${MUG}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-wp-total']).toBe('2');
    expect(response.headers['x-wp-totalpages']).toBe('1');
    const reviews = response.json() as Record<string, unknown>[];
    expect(reviews).toHaveLength(2);
    expect(Object.keys(reviews[0] ?? {}).sort()).toEqual(
      [
        'id',
        'date_created',
        'formatted_date_created',
        'date_created_gmt',
        'product_id',
        'product_name',
        'product_permalink',
        'product_image',
        'reviewer',
        'review',
        'rating',
        'verified',
        'reviewer_avatar_urls',
      ].sort(),
    );
    expect(reviews.map((review) => review.reviewer)).toEqual(['Nina Nonbuyer', 'Bea Buyer']);
    expect(reviews[1]).toMatchObject({
      product_id: MUG,
      product_name: 'Café au Lait Mug',
      product_permalink: `http://shop.test${mugUrl}`,
      rating: 5,
      verified: true,
      review: '<p>Holds a proper milky coffee.</p>',
    });
    expect(String(reviews[0]?.date_created_gmt)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(Object.keys(reviews[0]?.reviewer_avatar_urls as object)).toEqual(['24', '48', '96']);
    expect(response.body).not.toMatch(/@example\.com/);
  });

  it('pages, orders and filters as WooCommerce does, and refuses bad parameters in its format', async () => {
    const first = await new Shopper().send(
      shop.app,
      'GET',
      '/wp-json/wc/store/v1/products/reviews?per_page=1&order=asc&orderby=rating',
    );
    expect(first.headers['x-wp-totalpages']).toBe('2');
    expect(first.headers.link).toContain('rel="next"');
    expect((first.json() as { rating: number }[]).map((review) => review.rating)).toEqual([2]);
    const none = await new Shopper().send(
      shop.app,
      'GET',
      '/wp-json/wc/store/v1/products/reviews?product_id=1001',
    );
    expect(none.json()).toEqual([]);
    const bad = await new Shopper().send(
      shop.app,
      'GET',
      '/wp-json/wc/store/v1/products/reviews?per_page=500',
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
  });
});

describe('a catalog import after reviews exist', () => {
  it('stores the imported rating aside, shown only for products without an approved review', async () => {
    const site = JSON.parse(readFileSync(DEMO_CATALOG.sidecar, 'utf8'));
    site.products['DEMO-CAFE-MUG'].rating = { average: 3.9, count: 50 };
    site.products['DEMO-SPECKLED-BOWL'].rating = { average: 4.1, count: 13 };
    const sidecar = join(shop.dataDir, 'site-reviews-test.json');
    writeFileSync(sidecar, JSON.stringify(site));
    await shop.repositories.catalog.importCatalog(await readCatalogFiles(DEMO_CATALOG.csv, sidecar));
    // The mug has two approved reviews (5 and 2): it keeps 3.5 from 2.
    expect(await mugRating()).toEqual({ average: 3.5, count: 2 });
    const rows = await shop.query<{ id: number; average: number; count: number; ia: number; ic: number }>(
      `SELECT id, rating_average AS average, rating_count AS count, rating_imported_average AS ia,
         rating_imported_count AS ic FROM products WHERE id IN (1021, 1022) ORDER BY id`,
    );
    expect(
      rows.map((row) => [
        Number(row.id),
        Number(row.average),
        Number(row.count),
        Number(row.ia),
        Number(row.ic),
      ]),
    ).toEqual([
      [1021, 3.5, 2, 3.9, 50],
      [1022, 4.1, 13, 4.1, 13],
    ]);
  });
});

describe('paging the reviews on a product page', () => {
  it('lists ten a page, newest first, with links to older pages that work without JavaScript', async () => {
    const CUPS = 1023;
    const [row] = await shop.query<{ slug: string }>('SELECT slug FROM products WHERE id = ?', [CUPS]);
    const url = `/product/${row?.slug}/`;
    for (let n = 1; n <= 12; n++) {
      await shop.repositories.reviews.addReview({
        productId: CUPS,
        rating: (n % 5) + 1,
        reviewer: `Taster ${n}`,
        email: `t${n}@example.com`,
        content: `Cup review ${n}`,
        status: 'approved',
      });
    }
    const first = await new Shopper().send(shop.app, 'GET', url);
    expect(first.body).toContain('Reviews (12)');
    const names = (body: string) =>
      [...body.matchAll(/class="review__author">Taster (\d+)</g)].map((m) => Number(m[1]));
    expect(names(first.body)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
    expect(first.body).toContain(`href="${url}?reviews-page=2#reviews" rel="next"`);
    const second = await new Shopper().send(shop.app, 'GET', `${url}?reviews-page=2`);
    expect(names(second.body)).toEqual([2, 1]);
    expect(second.body).toContain(`href="${url}#reviews" rel="prev"`);
    // A page past the last shows the last; junk shows the first.
    expect(names((await new Shopper().send(shop.app, 'GET', `${url}?reviews-page=9`)).body)).toEqual([2, 1]);
    const junk = await new Shopper().send(shop.app, 'GET', `${url}?reviews-page=abc`);
    expect(junk.statusCode).toBe(200);
    expect(names(junk.body)).toHaveLength(10);
  });
});
