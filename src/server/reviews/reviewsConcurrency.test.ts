import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nonceOf, ownerShopper } from '../../../test-support/ownerBrowser';
import { openShopProcesses, type ShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';
import { readCatalogFiles } from '../catalog/import/readCatalogFiles';
import { DEMO_CATALOG } from '../catalog/import/seedDemoCatalog';

/*
 * Two server processes on one database (two connections on SQLite; two pools under `npm run test:postgres`): the
 * owner approves, holds and deletes many reviews of one product at once, half through each process, and the
 * product's stored rating still counts every approved review exactly once. Also: the review limit per client is
 * one count for every process.
 */

const BOWL = 1022;
let shop: ShopProcesses;
let bowlUrl: string;

beforeAll(async () => {
  shop = await openShopProcesses(2, { reviews: { perHour: 3 } });
  await shop.repositories[0]?.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
  const [row] = await shop.query<{ slug: string }>('SELECT slug FROM products WHERE id = ?', [BOWL]);
  bowlUrl = `/product/${row?.slug}/`;
}, 60_000);
afterAll(async () => {
  await shop.close();
});

async function bowlRating() {
  const [row] = await shop.query<{ average: number; count: number }>(
    'SELECT rating_average AS average, rating_count AS count FROM products WHERE id = ?',
    [BOWL],
  );
  return { average: Number(row?.average), count: Number(row?.count) };
}

describe('the stored rating under concurrent moderation, across two processes', () => {
  // 5+4+3+2+1+5+4+3+2+1+5+5 = 40 over 12 = 3.333… → 3.33
  const stars = [5, 4, 3, 2, 1, 5, 4, 3, 2, 1, 5, 5];
  let ids: number[] = [];

  it('counts every one of twelve reviews approved at once, six through each process', async () => {
    const before = await bowlRating();
    expect(before.count).toBeGreaterThan(0); // the imported rating
    const reviews = shop.repositories[0];
    if (!reviews) throw new Error('no process');
    ids = [];
    for (const [index, rating] of stars.entries()) {
      const stored = await reviews.reviews.addReview({
        productId: BOWL,
        rating,
        reviewer: `Reviewer ${index}`,
        email: `r${index}@example.com`,
        content: 'Lovely bowl.',
        status: 'pending',
      });
      ids.push(Number(stored?.id));
    }
    const [first, second] = shop.apps as [
      NonNullable<(typeof shop.apps)[0]>,
      NonNullable<(typeof shop.apps)[1]>,
    ];
    const { owner } = await ownerShopper(first, undefined, '/admin/reviews/');
    const page = await owner.send(first, 'GET', '/admin/reviews/?status=pending');
    const nonce = nonceOf(page.body, `/admin/reviews/${ids[0]}/status`);
    const answers = await Promise.all(
      ids.map((id, index) =>
        owner.send(index % 2 === 0 ? first : second, 'POST', `/admin/reviews/${id}/status`, {
          _wpnonce: nonce,
          status: 'approved',
        }),
      ),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(ids.map(() => 303));
    expect(await bowlRating()).toEqual({ average: 3.33, count: 12 });
  });

  it('gives the imported rating back when every review is held, marked spam or deleted at once', async () => {
    const [first, second] = shop.apps as [
      NonNullable<(typeof shop.apps)[0]>,
      NonNullable<(typeof shop.apps)[1]>,
    ];
    const { owner } = await ownerShopper(second, undefined, '/admin/reviews/');
    const page = await owner.send(second, 'GET', '/admin/reviews/?status=approved');
    const nonce = nonceOf(page.body, `/admin/reviews/${ids[0]}/status`);
    const answers = await Promise.all(
      ids.map((id, index) => {
        const app = index % 2 === 0 ? second : first;
        if (index % 3 === 0)
          return owner.send(app, 'POST', `/admin/reviews/${id}/delete`, { _wpnonce: nonce });
        const status = index % 3 === 1 ? 'spam' : 'pending';
        return owner.send(app, 'POST', `/admin/reviews/${id}/status`, { _wpnonce: nonce, status });
      }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(ids.map(() => 303));
    // The demo sidecar's rating of the speckled bowl: 4.5 from 12.
    expect(await bowlRating()).toEqual({ average: 4.5, count: 12 });
  });

  it('limits reviews per client across both processes: the fourth within the hour is refused, text kept', async () => {
    const sendVia = async (index: number) => {
      const app = shop.apps[index % 2];
      if (!app) throw new Error('no process');
      const shopper = new Shopper();
      const page = await shopper.send(app, 'GET', bowlUrl);
      return shopper.send(app, 'POST', `${bowlUrl}review`, {
        _wpnonce: nonceOf(page.body, `${bowlUrl}review`),
        rating: '4',
        reviewer: 'Sam',
        email: 'sam@example.com',
        content: `Review number ${index}`,
      });
    };
    const [pending] = await shop.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM product_reviews WHERE status = 'pending'",
    );
    for (const index of [0, 1, 2]) expect((await sendVia(index)).statusCode).toBe(303);
    const refused = await sendVia(3);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.body).toContain('You have sent several reviews in a short time.');
    expect(refused.body).toContain('Review number 3');
    const [after] = await shop.query<{ n: number }>(
      "SELECT COUNT(*) AS n FROM product_reviews WHERE status = 'pending'",
    );
    expect(Number(after?.n)).toBe(Number(pending?.n) + 3);
  });
});

describe('reviews published at once, sent at the same time through two processes', () => {
  let published: ShopProcesses;
  beforeAll(async () => {
    published = await openShopProcesses(2, { reviews: { moderation: 'publish', perHour: 100 } });
  }, 60_000);
  afterAll(async () => {
    await published.close();
  });

  it('counts all ten in the product’s rating', async () => {
    const [row] = await published.query<{ slug: string }>('SELECT slug FROM products WHERE id = ?', [BOWL]);
    const url = `/product/${row?.slug}/`;
    // 5+5+4+4+3+3+2+1+5+4 = 36 over 10 = 3.6
    const stars = [5, 5, 4, 4, 3, 3, 2, 1, 5, 4];
    const forms = await Promise.all(
      stars.map(async (rating, index) => {
        const app = published.apps[index % 2];
        if (!app) throw new Error('no process');
        const shopper = new Shopper();
        const page = await shopper.send(app, 'GET', url);
        return { app, shopper, rating, nonce: nonceOf(page.body, `${url}review`) };
      }),
    );
    const answers = await Promise.all(
      forms.map(({ app, shopper, rating, nonce }, index) =>
        shopper.send(app, 'POST', `${url}review`, {
          _wpnonce: nonce,
          rating: String(rating),
          reviewer: `Shopper ${index}`,
          email: `s${index}@example.com`,
          content: 'Sent at the same time as the others.',
        }),
      ),
    );
    expect(answers.map((answer) => answer.headers.location)).toEqual(
      stars.map(() => `${url}?review=published#reviews`),
    );
    const [rating] = await published.query<{ average: number; count: number }>(
      'SELECT rating_average AS average, rating_count AS count FROM products WHERE id = ?',
      [BOWL],
    );
    expect({ average: Number(rating?.average), count: Number(rating?.count) }).toEqual({
      average: 3.6,
      count: 10,
    });
  });
});

describe('a catalog import while the owner approves reviews', () => {
  it('neither fails nor hides the reviews’ rating behind the imported one', async () => {
    const repositories = shop.repositories[0];
    const [first, second] = shop.apps as [
      NonNullable<(typeof shop.apps)[0]>,
      NonNullable<(typeof shop.apps)[1]>,
    ];
    if (!repositories) throw new Error('no process');
    const ids: number[] = [];
    for (const rating of [5, 3, 4, 4]) {
      const stored = await repositories.reviews.addReview({
        productId: BOWL,
        rating,
        reviewer: 'Ida',
        email: 'ida@example.com',
        content: 'During an import.',
        status: 'pending',
      });
      ids.push(Number(stored?.id));
    }
    const { owner } = await ownerShopper(first, undefined, '/admin/reviews/');
    const page = await owner.send(first, 'GET', '/admin/reviews/?status=pending');
    const nonce = nonceOf(page.body, `/admin/reviews/${ids[0]}/status`);
    const catalog = await readCatalogFiles(DEMO_CATALOG.csv, DEMO_CATALOG.sidecar);
    const [, ...answers] = await Promise.all([
      shop.repositories[1]?.catalog.importCatalog(catalog),
      ...ids.map((id, index) =>
        owner.send(index % 2 === 0 ? first : second, 'POST', `/admin/reviews/${id}/status`, {
          _wpnonce: nonce,
          status: 'approved',
        }),
      ),
    ]);
    expect(answers.map((answer) => answer?.statusCode)).toEqual(ids.map(() => 303));
    // 5 + 3 + 4 + 4 = 16 over 4 = 4.0, whatever the import's 4.5 from 12.
    expect(await bowlRating()).toEqual({ average: 4, count: 4 });
  });
});
