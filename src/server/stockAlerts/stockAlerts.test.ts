import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_SECRET, type TestApp } from '../../../test-support/createTestApp';
import { ownerBrowser } from '../../../test-support/ownerBrowser';
import { productFormFields } from '../../../test-support/productEditForm';
import { readEml } from '../../../test-support/readEml';
import { openShopProcesses } from '../../../test-support/shopProcesses';
import { Shopper } from '../../../test-support/shopper';
import { testOwnerServer } from '../../../test-support/testOwner';
import { formValuesOf } from '../admin/products/productForm';
import { EMPTY_SIDECAR } from '../catalog/import/siteSidecarSchema';
import { stockAlertEmailKey, unsubscribeToken } from './stockAlertTokens';

/*
 * Back in stock, as a shopper and the shop meet it over HTTP, on whichever engine the run uses: the form on an
 * out-of-stock product, one mail per alert when stock returns (whatever path returns it), the unsubscribe link.
 */

const CUPS = 1023; // Espresso Cup Pair: out of stock in the demo catalog
const MUG = 1021; // Café au Lait Mug: in stock
const SHIRT_INDIGO_L = 1005; // a variation of the Washed Linen Shirt, out of stock
const SHOP_URL = 'https://shop.example';

let shop: TestApp;
beforeAll(async () => {
  shop = await createTestApp({ settings: { server: { ...testOwnerServer, mail: { shopUrl: SHOP_URL } } } });
});
afterAll(() => shop.close());

function mailFiles(dataDir: string): string[] {
  try {
    return readdirSync(join(dataDir, 'mail')).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
}

function nonceFrom(html: string): string {
  const match = /name="_wpnonce" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no nonce on the page');
  return match[1];
}

async function subscribe(shopper: Shopper, app: TestApp['app'], page: string, form: Record<string, string>) {
  const product = await shopper.send(app, 'GET', page);
  expect(product.statusCode).toBe(200);
  return shopper.send(app, 'POST', '/back-in-stock/', { _wpnonce: nonceFrom(product.body), ...form });
}

async function restock(productId: number, quantity = 5) {
  await shop.query("UPDATE products SET stock_status = 'instock', stock_quantity = ? WHERE id = ?", [
    quantity,
    productId,
  ]);
}

describe('the notify-me form', () => {
  it('is on an out-of-stock product and on a variable product with an out-of-stock variation, not on an in-stock one', async () => {
    const shopper = new Shopper();
    const cups = await shopper.send(shop.app, 'GET', '/product/espresso-cup-pair/');
    expect(cups.body).toContain('Notify me when available');
    expect(cups.body).toContain(`name="product_id" value="${CUPS}"`);
    const shirt = await shopper.send(shop.app, 'GET', '/product/washed-linen-shirt/');
    expect(shirt.body).toContain(
      `<option value="${SHIRT_INDIGO_L}">Washed Linen Shirt (Color: Indigo, Size: L)</option>`,
    );
    const mug = await shopper.send(shop.app, 'GET', '/product/cafe-au-lait-mug/');
    expect(mug.body).not.toContain('id="back-in-stock"');
  });

  it('refuses a missing nonce, a bad address and an unknown product in words', async () => {
    const shopper = new Shopper();
    const noNonce = await shopper.send(shop.app, 'POST', '/back-in-stock/', {
      product_id: String(CUPS),
      email: 'ada@example.com',
    });
    // The product page again, asking to send once more (a cached page's form has no nonce without JavaScript).
    expect(noNonce.statusCode).toBe(403);
    expect(noNonce.body).toContain('please press “Notify me” once more');
    const badEmail = await subscribe(shopper, shop.app, '/product/espresso-cup-pair/', {
      product_id: String(CUPS),
      email: 'not an address',
    });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.body).toContain('Please enter a valid email address.');
    const unknown = await subscribe(shopper, shop.app, '/product/espresso-cup-pair/', {
      product_id: '999999',
      email: 'ada@example.com',
    });
    expect(unknown.statusCode).toBe(404);
    const rows = await shop.query('SELECT id FROM stock_alerts');
    expect(rows).toEqual([]);
  });

  it('says an in-stock product can be ordered instead of storing an alert', async () => {
    const shopper = new Shopper();
    const answer = await subscribe(shopper, shop.app, '/product/espresso-cup-pair/', {
      product_id: String(MUG),
      email: 'ada@example.com',
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/product/cafe-au-lait-mug/?stock-alert=available#back-in-stock');
    expect(await shop.query('SELECT id FROM stock_alerts')).toEqual([]);
  });
});

describe('when stock comes back', () => {
  it('mails each subscriber once, with a signed unsubscribe link, and deletes the alerts', async () => {
    const ada = new Shopper();
    const answer = await subscribe(ada, shop.app, '/product/espresso-cup-pair/', {
      product_id: String(CUPS),
      email: 'Ada@Example.com',
    });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/product/espresso-cup-pair/?stock-alert=subscribed#back-in-stock');
    const notice = await ada.send(shop.app, 'GET', answer.headers.location as string);
    expect(notice.body).toContain('Thank you. We will send you one email when it is back in stock.');
    // The same address again (any case) stores nothing more and is answered alike.
    const again = await subscribe(new Shopper(), shop.app, '/product/espresso-cup-pair/', {
      product_id: String(CUPS),
      email: 'ada@example.com',
    });
    expect(again.headers.location).toBe(answer.headers.location);
    await subscribe(new Shopper(), shop.app, '/product/espresso-cup-pair/', {
      product_id: String(CUPS),
      email: 'brook@example.com',
    });
    expect(await shop.query('SELECT email FROM stock_alerts ORDER BY id')).toEqual([
      { email: 'Ada@Example.com' },
      { email: 'brook@example.com' },
    ]);

    const before = mailFiles(shop.dataDir).length;
    expect(await shop.app.stockAlerts.process()).toBe(0); // still out of stock: nothing is due
    await restock(CUPS);
    expect(await shop.app.stockAlerts.process()).toBe(2);
    await shop.app.mail.flush();
    expect(await shop.app.stockAlerts.process()).toBe(0);
    const files = mailFiles(shop.dataDir).slice(before);
    expect(files).toHaveLength(2);
    const mails = mailFiles(shop.dataDir)
      .map((name) => readEml(readFileSync(join(shop.dataDir, 'mail', name), 'utf8')))
      .filter((mail) => mail.headers.get('subject')?.includes('Espresso Cup Pair is back in stock'));
    expect(mails.map((mail) => mail.headers.get('to')).sort()).toEqual([
      'Ada@example.com',
      'brook@example.com',
    ]);
    const ada1 = mails.find((mail) => mail.headers.get('to') === 'Ada@example.com');
    expect(ada1?.text).toContain(`${SHOP_URL}/product/espresso-cup-pair/`);
    const token = unsubscribeToken(TEST_SECRET, stockAlertEmailKey(TEST_SECRET, 'ada@example.com'));
    expect(ada1?.text).toContain(`${SHOP_URL}/back-in-stock/unsubscribe/?token=${token}`);
    expect(ada1?.text).not.toMatch(/unsubscribe[^\n]*ada%40|unsubscribe[^\n]*ada@/i);
    expect(await shop.query('SELECT id FROM stock_alerts')).toEqual([]);
    const outbox = await shop.query<{ kind: string; order_id: number | null }>(
      "SELECT kind, order_id FROM mail_outbox WHERE kind = 'back_in_stock'",
    );
    expect(outbox).toEqual([
      { kind: 'back_in_stock', order_id: null },
      { kind: 'back_in_stock', order_id: null },
    ]);
  });

  it('unsubscribes through the signed link: the page changes nothing until its button is pressed', async () => {
    const shopper = new Shopper();
    await shop.query("UPDATE products SET stock_status = 'outofstock', stock_quantity = 0 WHERE id = ?", [
      CUPS,
    ]);
    await subscribe(shopper, shop.app, '/product/espresso-cup-pair/', {
      product_id: String(CUPS),
      email: 'cleo@example.com',
    });
    const token = unsubscribeToken(TEST_SECRET, stockAlertEmailKey(TEST_SECRET, 'cleo@example.com'));
    const page = await shopper.send(shop.app, 'GET', `/back-in-stock/unsubscribe/?token=${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Stop these emails');
    expect(await shop.query('SELECT email FROM stock_alerts')).toEqual([{ email: 'cleo@example.com' }]);

    const forged = await shopper.send(
      shop.app,
      'GET',
      `/back-in-stock/unsubscribe/?token=${token.slice(0, -2)}xx`,
    );
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('This unsubscribe link is not valid.');
    const noNonce = await shopper.send(shop.app, 'POST', '/back-in-stock/unsubscribe/', { token });
    expect(noNonce.statusCode).toBe(403);

    const done = await shopper.send(shop.app, 'POST', '/back-in-stock/unsubscribe/', {
      token,
      _wpnonce: nonceFrom(page.body),
    });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('This address will get no back-in-stock email');
    expect(await shop.query('SELECT email FROM stock_alerts')).toEqual([]);
  });
});

describe('every path that gives stock back marks the alerts due', () => {
  const BOARD = 1024; // One-off Walnut Serving Board: one in stock

  async function dueMails(productName: string): Promise<string[]> {
    await shop.app.stockAlerts.process();
    const rows = await shop.query<{ recipient: string }>(
      "SELECT recipient FROM mail_outbox WHERE kind = 'back_in_stock' AND subject LIKE ? ORDER BY id",
      [`${productName} is back in stock%`],
    );
    return rows.map((row) => row.recipient);
  }

  it('a cancelled order returning the last one', async () => {
    const buyer = new Shopper();
    const form = await buyer.readyForm(shop.app, BOARD, 1);
    const placed = await buyer.send(shop.app, 'POST', '/checkout/', form);
    expect(placed.statusCode).toBe(303);
    const [order] = await shop.query<{ id: number }>('SELECT id FROM orders ORDER BY id DESC LIMIT 1');
    const sold = await subscribe(new Shopper(), shop.app, '/product/one-off-walnut-serving-board/', {
      product_id: String(BOARD),
      email: 'dora@example.com',
    });
    expect(sold.headers.location).toContain('stock-alert=subscribed');
    expect(await dueMails('One-off Walnut Serving Board')).toEqual([]);
    await shop.repositories.orderAdmin.changeStatus(Number(order?.id), 'cancelled', () => 'Cancelled.');
    expect(await dueMails('One-off Walnut Serving Board')).toEqual(['dora@example.com']);
  });

  it('the owner restocking a variation in the back office', async () => {
    await subscribe(new Shopper(), shop.app, '/product/washed-linen-shirt/', {
      product_id: String(SHIRT_INDIGO_L),
      email: 'finn@example.com',
    });
    const owner = await ownerBrowser(shop.app);
    const values = formValuesOf(await shop.repositories.catalog.getAdminProduct(1001), 2);
    const fields = productFormFields(values);
    fields[`v${SHIRT_INDIGO_L}_stock`] = '3';
    const saved = await owner.postForm('/admin/products/1001/', '/admin/products/1001/', fields);
    expect(saved.statusCode).toBe(303);
    expect(await dueMails('Washed Linen Shirt - Indigo, L')).toEqual(['finn@example.com']);
  });

  it('a CSV import', async () => {
    await shop.query("UPDATE products SET stock_status = 'outofstock', stock_quantity = 0 WHERE id = ?", [
      CUPS,
    ]);
    await subscribe(new Shopper(), shop.app, '/product/espresso-cup-pair/', {
      product_id: String(CUPS),
      email: 'eve@example.com',
    });
    const exported = await shop.repositories.catalog.readCatalogForExport();
    const cups = exported.find((product) => product.csvId === CUPS);
    if (!cups) throw new Error('the export lacks the cups');
    await shop.repositories.catalog.importCatalog({
      products: [{ ...cups, stockStatus: 'instock', stockQuantity: 4 }],
      site: EMPTY_SIDECAR,
    });
    expect(await dueMails('Espresso Cup Pair')).toContain('eve@example.com');
    expect(await shop.query('SELECT id FROM stock_alerts WHERE email = ?', ['eve@example.com'])).toEqual([]);
  });
});

describe('two restocks at once, in two processes', () => {
  it('queue one mail per alert', async () => {
    const shops = await openShopProcesses(2, { server: { mail: { shopUrl: SHOP_URL } } });
    try {
      const [first, second] = shops.apps as [TestApp['app'], TestApp['app']];
      for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
        const answer = await subscribe(new Shopper(), first, '/product/espresso-cup-pair/', {
          product_id: String(CUPS),
          email,
        });
        expect(answer.statusCode).toBe(303);
      }
      // Two restocks at once (the second finds the product available already, so marks nothing more), then both
      // processes look for due alerts at once.
      await Promise.all([
        shops.query("UPDATE products SET stock_status = 'instock', stock_quantity = 3 WHERE id = ?", [CUPS]),
        shops.query("UPDATE products SET stock_status = 'instock', stock_quantity = 4 WHERE id = ?", [CUPS]),
      ]);
      // Each process's own loop may run a pass too: whoever takes an alert, the outbox holds one mail per alert.
      await Promise.all([first.stockAlerts.process(), second.stockAlerts.process()]);
      const outbox = await shops.query<{ recipient: string }>(
        "SELECT recipient FROM mail_outbox WHERE kind = 'back_in_stock' ORDER BY recipient",
      );
      expect(outbox.map((row) => row.recipient)).toEqual(['a@example.com', 'b@example.com', 'c@example.com']);
      expect(await shops.query('SELECT id FROM stock_alerts')).toEqual([]);
    } finally {
      await shops.close();
    }
  });
});

describe('the rate limit', () => {
  it('allows 10 requests an hour per client, counted across processes', async () => {
    const shops = await openShopProcesses(2);
    try {
      const shopper = new Shopper();
      const apps = shops.apps as TestApp['app'][];
      const page = await shopper.send(apps[0] as TestApp['app'], 'GET', '/product/espresso-cup-pair/');
      const nonce = nonceFrom(page.body);
      const statuses: number[] = [];
      for (let n = 0; n < 12; n++) {
        const response = await shopper.send(apps[n % 2] as TestApp['app'], 'POST', '/back-in-stock/', {
          _wpnonce: nonce,
          product_id: String(CUPS),
          email: `limit${n}@example.com`,
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.headers['retry-after']).toMatch(/^\d+$/);
          expect(response.body).toContain('Too many back-in-stock requests');
        }
      }
      expect(statuses).toEqual([...Array(10).fill(303), 429, 429]);
      expect(await shops.query('SELECT id FROM stock_alerts')).toHaveLength(10);
    } finally {
      await shops.close();
    }
  });
});
