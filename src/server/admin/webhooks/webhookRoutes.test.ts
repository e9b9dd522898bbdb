import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test-support/createTestApp';
import { formNonce, nonceOf, ownerShopper } from '../../../../test-support/ownerBrowser';
import { Shopper } from '../../../../test-support/shopper';
import { testOwnerServer } from '../../../../test-support/testOwner';
import { startWebhookReceiver, type WebhookReceiver } from '../../../../test-support/webhookReceiver';
import { formValuesOf } from '../../admin/products/productForm';

/*
 * The owner's webhooks over HTTP: add (a blank secret made by the shop, the ping), the refusals in words (an
 * address that is not http(s), the shop itself), edit, the delivery log on the webhook's page, delete; and the
 * owner's product edit reaching a product.updated receiver. Refusals without the owner or the nonce are in the
 * back office's route table (adminPlugin.test.ts).
 */

const PATH = '/admin/settings/webhooks/';
const MUG = 1021;
let shop: TestApp;
let receiver: WebhookReceiver;
let pingAnswer = 200;

beforeAll(async () => {
  receiver = await startWebhookReceiver('', ({ headers }) =>
    String(headers['content-type']).startsWith('application/x-www-form-urlencoded') ? pingAnswer : 200,
  );
  shop = await createTestApp({ settings: { server: testOwnerServer }, webhooks: { autoSend: false } });
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
}, 60_000);
afterAll(async () => {
  await shop?.close();
  await receiver?.close();
});

async function owner() {
  return (await ownerShopper(shop.app, undefined, PATH)).owner;
}

async function submit(
  browser: Shopper,
  page: string,
  action: string,
  fields: Record<string, string>,
): Promise<Awaited<ReturnType<Shopper['send']>>> {
  const form = await browser.send(shop.app, 'GET', page);
  expect(form.statusCode).toBe(200);
  return browser.send(shop.app, 'POST', action, { ...fields, _wpnonce: nonceOf(form.body, action) });
}

/** The page's markup without the comments React puts between adjacent text parts. */
const textOf = (body: string) => body.replaceAll('<!-- -->', '');
const idOf = (location: unknown) => Number(/webhooks\/(\d+)\//.exec(String(location))?.[1]);

describe('the owner’s webhooks', { timeout: 60_000 }, () => {
  it('adds a webhook with a secret the shop makes, pings its URL, and lists it', async () => {
    const browser = await owner();
    const saved = await submit(browser, `${PATH}new`, PATH, {
      name: '',
      status: 'active',
      topic: 'order.created',
      deliveryUrl: receiver.url,
      secret: '',
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toMatch(/^\/admin\/settings\/webhooks\/\d+\/\?saved=1&ping=ok$/);
    const webhook = await shop.app.webhooks.desk.get(idOf(saved.headers.location));
    expect(webhook.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(webhook.name).toMatch(/^Webhook created on \d{4}-\d{2}-\d{2}$/);
    const ping = receiver.received.at(-1);
    expect(ping?.rawBody.toString()).toBe(`webhook_id=${webhook.id}`);
    const page = await browser.send(shop.app, 'GET', String(saved.headers.location));
    expect(page.body).toContain('Webhook saved. The delivery URL answered the ping.');
    expect(page.body).toContain(`value="${webhook.secret}"`);
    const list = await browser.send(shop.app, 'GET', PATH);
    expect(list.body).toContain(`href="${PATH}${webhook.id}/"`);
    expect(list.body).toContain(receiver.url);
  });

  it('says so when the ping is not answered 200, and keeps the webhook', async () => {
    pingAnswer = 404;
    try {
      const browser = await owner();
      const saved = await submit(browser, `${PATH}new`, PATH, {
        name: 'Label app',
        status: 'active',
        topic: 'order.updated',
        deliveryUrl: receiver.url,
        secret: 's3cret',
      });
      expect(saved.headers.location).toContain('ping=failed');
      const page = await browser.send(shop.app, 'GET', String(saved.headers.location));
      expect(page.body).toContain('did not answer the ping with HTTP 200');
      expect((await shop.app.webhooks.desk.get(idOf(saved.headers.location))).secret).toBe('s3cret');
    } finally {
      pingAnswer = 200;
    }
  });

  it.each([
    ['', 'Enter the delivery URL.'],
    ['not a url', 'Enter a full address, like https://example.com/hooks/orders.'],
    ['ftp://files.example/x', 'The delivery URL must start with http:// or https://.'],
    ['http://shop.test/wp-json/wc/v3/products/1021', 'The delivery URL points at this shop'],
    ['http://SHOP.test:80/anything', 'The delivery URL points at this shop'],
  ])('refuses the delivery URL %j in words, saving nothing', async (deliveryUrl, message) => {
    const browser = await owner();
    const before = (await shop.app.webhooks.desk.list()).length;
    const refused = await submit(browser, `${PATH}new`, PATH, {
      name: 'x',
      status: 'active',
      topic: 'order.created',
      deliveryUrl,
      secret: '',
    });
    expect(refused.statusCode).toBe(400);
    expect(textOf(refused.body)).toContain('Nothing was saved: one field needs a change.');
    expect(textOf(refused.body)).toContain(message);
    expect(refused.body).toContain('aria-invalid="true"');
    expect((await shop.app.webhooks.desk.list()).length).toBe(before);
  });

  it('refuses an unknown topic or status with a readable 400', async () => {
    const browser = await owner();
    const refused = await submit(browser, `${PATH}new`, PATH, {
      status: 'active',
      topic: 'order.exploded',
      deliveryUrl: receiver.url,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('<p>Topic is not one of the accepted values.</p>');
  });

  it('edits a webhook, shows its delivery log, and deletes it', async () => {
    const browser = await owner();
    const saved = await submit(browser, `${PATH}new`, PATH, {
      name: 'Accounting',
      status: 'active',
      topic: 'order.created',
      deliveryUrl: receiver.url,
      secret: 'accounting-secret',
    });
    const id = idOf(saved.headers.location);
    const editPage = `${PATH}${id}/`;

    const shopper = new Shopper();
    const placed = await shopper.send(
      shop.app,
      'POST',
      '/checkout/',
      await shopper.readyForm(shop.app, MUG, 1),
    );
    expect(placed.statusCode).toBe(303);
    await shop.app.webhooks.flush();
    const page = await browser.send(shop.app, 'GET', editPage);
    expect(page.body).toMatch(/<h2 id="webhook-log">Deliveries<\/h2>/);
    expect(page.body).toContain('HTTP 200');
    expect(textOf(page.body)).toMatch(/#\d+ order\.created \d+/);

    const edited = await submit(browser, editPage, editPage, {
      name: 'Accounting (paused)',
      status: 'paused',
      topic: 'order.created',
      deliveryUrl: receiver.url,
      secret: 'accounting-secret',
    });
    expect(edited.statusCode).toBe(303);
    expect(edited.headers.location).toBe(`${editPage}?saved=1`); // paused: no ping
    expect(await shop.app.webhooks.desk.get(id)).toMatchObject({
      name: 'Accounting (paused)',
      status: 'paused',
    });

    const deleted = await submit(browser, editPage, `${editPage}delete`, {});
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe(`${PATH}?deleted=1`);
    expect((await browser.send(shop.app, 'GET', editPage)).statusCode).toBe(404);
    const again = await browser.send(shop.app, 'POST', `${editPage}delete`, {
      _wpnonce: formNonce((await browser.send(shop.app, 'GET', PATH)).body),
    });
    expect(again.statusCode).toBe(403); // the list page's nonce is not the delete form's
  });

  it('shows a name and an address with markup in them as text', async () => {
    const browser = await owner();
    const evil = '<img src=x onerror=alert(1)>';
    const saved = await submit(browser, `${PATH}new`, PATH, {
      name: evil,
      status: 'paused',
      topic: 'order.created',
      deliveryUrl: `${receiver.url}?q=${evil}`,
      secret: evil,
    });
    expect(saved.statusCode).toBe(303);
    for (const url of [PATH, String(saved.headers.location)]) {
      const page = await browser.send(shop.app, 'GET', url);
      expect(page.body).not.toContain('<img src=x');
      expect(page.body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  it('answers 404 for a webhook that does not exist', async () => {
    const browser = await owner();
    expect((await browser.send(shop.app, 'GET', `${PATH}999999/`)).statusCode).toBe(404);
  });

  it('delivers product.updated when the owner saves a product', async () => {
    const browser = await owner();
    await submit(browser, `${PATH}new`, PATH, {
      name: 'Catalog sync',
      status: 'active',
      topic: 'product.updated',
      deliveryUrl: receiver.url,
      secret: 'x',
    });
    const values = formValuesOf(await shop.repositories.catalog.getAdminProduct(MUG), 2);
    const before = receiver.received.length;
    const edit = await browser.send(shop.app, 'GET', `/admin/products/${MUG}/`);
    const saved = await browser.send(shop.app, 'POST', `/admin/products/${MUG}/`, {
      _wpnonce: formNonce(edit.body),
      name: 'Enamel mug, blue',
      slug: values.slug,
      description: values.description,
      short_description: values.short_description,
      regular_price: values.regular_price,
      sale_price: values.sale_price,
      sku: values.sku,
      stock_quantity: values.stock_quantity,
      stock_status: values.stock_status,
      backorders: values.backorders,
      status: values.status,
      ...(values.manage_stock ? { manage_stock: '1' } : {}),
    });
    expect(saved.statusCode).toBe(303);
    await shop.app.webhooks.flush();
    const updates = receiver.received
      .slice(before)
      .filter((each) => each.headers['x-wc-webhook-topic'] === 'product.updated');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.json).toMatchObject({ id: MUG, name: 'Enamel mug, blue' });
  });
});
