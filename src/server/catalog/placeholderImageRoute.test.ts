import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';

/*
 * /images/{id}.svg draws a product's name: for a product nobody may see (a draft, or a variation of one, or a
 * draft variation) it must answer 404 and tell nothing, on either engine.
 */

const HOST = 'shop.test';
const MUG = 1021; // simple
const LINEN_SHIRT = 1001; // variable; its variations are 1002…

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp();
});
afterAll(async () => shop?.close());

const image = (id: number) => shop.app.inject({ url: `/images/${id}.svg`, headers: { host: HOST } });
const imageIds = async (productId: number) =>
  (
    await shop.query<{ id: number }>('SELECT id FROM product_images WHERE product_id = ? ORDER BY id', [
      productId,
    ])
  ).map((row) => Number(row.id));
const setStatus = (productId: number, status: 'publish' | 'draft') =>
  shop.query('UPDATE products SET status = ? WHERE id = ?', [status, productId]);
const productName = async (productId: number) =>
  (await shop.query<{ name: string }>('SELECT name FROM products WHERE id = ?', [productId]))[0]?.name ?? '';

/** The placeholder shows the name as SVG text, so `&` arrives escaped. */
const svgText = (name: string) => name.replace(/&/g, '&amp;');

describe('placeholder images of products nobody may see', () => {
  it('draws a published product, and answers 404 without its name once it is a draft', async () => {
    const [mugImage] = await imageIds(MUG);
    const name = svgText(await productName(MUG));
    expect(mugImage).toBeDefined();
    const published = await image(mugImage as number);
    expect(published.statusCode).toBe(200);
    expect(published.body).toContain(name);

    await setStatus(MUG, 'draft');
    const draft = await image(mugImage as number);
    expect(draft.statusCode).toBe(404);
    expect(draft.body).not.toContain(name);
    await setStatus(MUG, 'publish');
  });

  it("hides a draft variable product's images and its variations' images, and a draft variation's", async () => {
    const variations = (
      await shop.query<{ id: number }>(
        'SELECT v.id FROM products v JOIN product_images i ON i.product_id = v.id WHERE v.parent_id = ? ORDER BY v.id',
        [LINEN_SHIRT],
      )
    ).map((row) => Number(row.id));
    const [variation, otherVariation] = variations;
    expect(otherVariation).toBeDefined();
    const [parentImage] = await imageIds(LINEN_SHIRT);
    const [variationImage] = await imageIds(variation as number);
    const [otherVariationImage] = await imageIds(otherVariation as number);
    const name = svgText(await productName(LINEN_SHIRT));
    for (const id of [parentImage, variationImage, otherVariationImage])
      expect((await image(id as number)).statusCode).toBe(200);

    await setStatus(variation as number, 'draft');
    expect((await image(variationImage as number)).statusCode).toBe(404);
    expect((await image(otherVariationImage as number)).statusCode).toBe(200);
    expect((await image(parentImage as number)).statusCode).toBe(200);

    await setStatus(LINEN_SHIRT, 'draft');
    for (const id of [parentImage, variationImage, otherVariationImage]) {
      const response = await image(id as number);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain(name);
    }
    await setStatus(LINEN_SHIRT, 'publish');
    await setStatus(variation as number, 'publish');
  });
});
