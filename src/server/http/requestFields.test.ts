import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';
import { parseInput } from './parseInput';
import { queryAndBody } from './requestFields';

/* Request bodies are read through a schema: fields of a form or a JSON object, never whatever else was posted. */

describe('queryAndBody', () => {
  it('reads the query and the body as one input, the body winning on a shared name', () => {
    expect(parseInput(queryAndBody, { query: { a: '1', b: '1' }, body: { b: '2' } })).toEqual({
      a: '1',
      b: '2',
    });
    expect(parseInput(queryAndBody, { query: { a: '1' }, body: undefined })).toEqual({ a: '1' });
  });

  it('refuses a body that is not a set of fields', () => {
    for (const body of [[1, 2], 'text', Buffer.from('raw')]) {
      expect(() => parseInput(queryAndBody, { query: {}, body })).toThrow(/^Body /);
    }
  });
});

describe('endpoints given a JSON body that is not an object', () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp();
  });
  afterAll(async () => {
    await shop.close();
  });

  const post = (url: string, payload: string) =>
    shop.app.inject({
      method: 'POST',
      url,
      headers: { host: 'shop.test', origin: 'http://shop.test', 'content-type': 'application/json' },
      payload,
    });

  it('answer the ajax dispatchers with a readable 400, not an input read from array indexes', async () => {
    for (const url of ['/?wc-ajax=get_refreshed_fragments', '/ajax?action=set_cart_item_quantity']) {
      const response = await post(url, '["0"]');
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_request' });
    }
  });

  it('answer the checkout with a 400, not the expired-session page of an empty form', async () => {
    const shopper = new Shopper();
    await shopper.send(shop.app, 'POST', '/?wc-ajax=add_to_cart', { product_id: '1021', quantity: '1' });
    const cookie = [...shopper.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await shop.app.inject({
      method: 'POST',
      url: '/checkout/',
      headers: { host: 'shop.test', cookie, 'content-type': 'application/json' },
      payload: '["0"]',
    });
    expect(response.statusCode).toBe(400);
  });
});
