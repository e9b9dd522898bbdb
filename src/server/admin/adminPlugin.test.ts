import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { nonceOf, ownerShopper } from '../../../test-support/ownerBrowser';
import { Shopper } from '../../../test-support/shopper';
import { TEST_OWNER_PASSWORD, TEST_OWNER_PASSWORD_HASH } from '../../../test-support/testOwner';
import { hashOwnerPassword } from '../owner/ownerCredentials';
import { createApiKeyService } from '../wcRest/apiKeys/apiKeyService';

/*
 * The back office over HTTP, on whichever engine the run uses: every route refused to a stranger, the one login
 * (its password from the database, `next` kept local), the orders list with its filters, search and pages, one
 * order's page, status changes and notes.
 */

const MUG = 1021;
let shop: TestApp;

beforeAll(async () => {
  shop = await createTestApp();
  await shop.repositories.ownerAuth.setOwnerAccount(
    TEST_OWNER_PASSWORD_HASH,
    'owner@example.com',
    Date.now(),
  );
  await shop.query("UPDATE products SET stock_quantity = 50, stock_status = 'instock' WHERE id = ?", [MUG]);
  // Key 1 exists, so a forged revoke that got through would show.
  await createApiKeyService(shop.repositories.apiKeys).create({ description: 'Kept', permissions: 'read' });
}, 60_000);
afterAll(async () => {
  await shop.close();
});

function ownerBrowser(password = TEST_OWNER_PASSWORD, next = '/admin/orders/') {
  return ownerShopper(shop.app, password, next);
}

async function placeOrder(email = 'ada@example.com', lastName = 'Lovelace'): Promise<number> {
  const shopper = new Shopper();
  const form = await shopper.readyForm(shop.app, MUG, 2);
  const placed = await shopper.send(shop.app, 'POST', '/checkout/', {
    ...form,
    billing_email: email,
    billing_last_name: lastName,
  });
  expect(placed.statusCode).toBe(303);
  return Number(/order-received\/(\d+)\//.exec(String(placed.headers.location))?.[1]);
}

async function stockOfMug(): Promise<number> {
  const [row] = await shop.query<{ stock: number }>(
    'SELECT stock_quantity AS stock FROM products WHERE id = ?',
    [MUG],
  );
  return Number(row?.stock);
}

describe('every back-office route asks for the owner', () => {
  const pages = [
    '/admin/',
    '/admin/orders/',
    '/admin/orders/?status=completed&s=ada',
    '/admin/orders/1/',
    '/admin/reviews/',
    '/admin/reviews/?status=spam&paged=2',
    '/insights/',
    '/admin/settings/webhooks/',
    '/admin/settings/webhooks/new',
    '/admin/settings/webhooks/1/',
    '/admin/settings/api/',
  ];
  const forms: { url: string; form: Record<string, string>; page: string }[] = [
    { url: '/admin/orders/1/status', form: { status: 'completed' }, page: '/admin/orders/1/' },
    { url: '/admin/orders/1/notes', form: { note: 'Hello' }, page: '/admin/orders/1/' },
    { url: '/admin/reviews/1/status', form: { status: 'approved' }, page: '/admin/reviews/' },
    { url: '/admin/reviews/1/delete', form: {}, page: '/admin/reviews/' },
    {
      url: '/admin/settings/api/',
      form: { description: 'Forged', permissions: 'read_write' },
      page: '/admin/settings/api/',
    },
    { url: '/admin/settings/api/1/revoke', form: {}, page: '/admin/settings/api/' },
    { url: '/admin/logout', form: {}, page: '/admin/orders/' },
    {
      url: '/admin/settings/webhooks/',
      form: { status: 'active', topic: 'order.created', deliveryUrl: 'http://127.0.0.1:9/hooks' },
      page: '/admin/settings/webhooks/new',
    },
    {
      url: '/admin/settings/webhooks/1/',
      form: { status: 'paused', topic: 'order.created', deliveryUrl: 'http://127.0.0.1:9/hooks' },
      page: '/admin/settings/webhooks/1/',
    },
    { url: '/admin/settings/webhooks/1/delete', form: {}, page: '/admin/settings/webhooks/1/' },
  ];

  it.each(pages)('GET %s sends a stranger to the login, coming back after', async (url) => {
    const response = await new Shopper().send(shop.app, 'GET', url);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/admin/login?next=${encodeURIComponent(url)}`);
  });

  it.each(forms.filter((each) => each.url !== '/admin/logout'))(
    'POST $url is refused without the owner session (401), and with it but without the form nonce (403)',
    async ({ url, form }) => {
      const keysBefore = await shop.repositories.apiKeys.listApiKeys();
      const stranger = await new Shopper().send(shop.app, 'POST', url, form);
      expect(stranger.statusCode).toBe(401);
      const { owner } = await ownerBrowser();
      expect((await owner.send(shop.app, 'POST', url, form)).statusCode).toBe(403);
      expect((await owner.send(shop.app, 'POST', url, { ...form, _wpnonce: 'forged' })).statusCode).toBe(403);
      // A refused form changes nothing (no key made or revoked).
      expect(await shop.repositories.apiKeys.listApiKeys()).toEqual(keysBefore);
    },
  );

  it('refuses a logout without its nonce (403), and keeps the session', async () => {
    const { owner } = await ownerBrowser();
    expect((await owner.send(shop.app, 'POST', '/admin/logout', { _wpnonce: 'forged' })).statusCode).toBe(
      403,
    );
    expect((await owner.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(200);
  });

  it('keeps every admin answer out of shared caches and search engines', async () => {
    const { owner } = await ownerBrowser();
    for (const url of ['/admin/login', '/admin/orders/', '/admin/reviews/']) {
      const response = await owner.send(shop.app, 'GET', url);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toContain('noindex');
    }
  });
});

describe('the owner login', () => {
  it('admits the password set in the database and goes back to `next`', async () => {
    const { response, owner } = await ownerBrowser(TEST_OWNER_PASSWORD, '/insights/?range=7');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/insights/?range=7');
    const insights = await owner.send(shop.app, 'GET', '/insights/');
    expect(insights.statusCode).toBe(200);
    expect(insights.body).toContain('Sources and revenue');
    expect((await owner.send(shop.app, 'GET', '/admin/')).headers.location).toBe('/admin/orders/');
  });

  it('refuses a wrong password with a readable message', async () => {
    const { response, owner } = await ownerBrowser('not the password');
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain('That password or token is not right.');
    expect((await owner.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(303);
  });

  it.each([
    '//evil.example/',
    'https://evil.example/admin/',
    '/\\evil.example/',
    '/\t/evil.example/',
    'javascript:alert(1)',
    'evil.example',
    '',
  ])('never redirects off the shop after login (next=%j)', async (next) => {
    const { response } = await ownerBrowser(TEST_OWNER_PASSWORD, next);
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/admin/orders/');
  });

  it('logs out, and "log out everywhere" ends the owner’s other sessions', async () => {
    const first = (await ownerBrowser()).owner;
    const second = (await ownerBrowser()).owner;
    const page = await first.send(shop.app, 'GET', '/admin/orders/');
    expect(page.body).toContain('Log out everywhere');
    const out = await first.send(shop.app, 'POST', '/admin/logout', {
      _wpnonce: nonceOf(page.body, '/admin/logout'),
    });
    expect(out.headers.location).toBe('/admin/login');
    expect((await first.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(303);
    expect((await second.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(200);

    const third = (await ownerBrowser()).owner;
    const thirdPage = await third.send(shop.app, 'GET', '/admin/orders/');
    await third.send(shop.app, 'POST', '/admin/logout', {
      _wpnonce: nonceOf(thirdPage.body, '/admin/logout'),
      everywhere: '1',
    });
    expect((await second.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(303);
    expect((await third.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(303);
  });
});

describe('a password in the settings file', () => {
  it('wins over the one in the database', async () => {
    const settingsPassword = 'settings file password';
    const other = await createTestApp({
      seed: false,
      settings: { server: { ownerPasswordHash: hashOwnerPassword(settingsPassword) } },
    });
    try {
      await other.repositories.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
      const tryLogin = async (password: string) => {
        const owner = new Shopper();
        const form = await owner.send(other.app, 'GET', '/admin/login');
        const nonce = /name="_wpnonce" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
        return (await owner.send(other.app, 'POST', '/admin/login', { password, _wpnonce: nonce }))
          .statusCode;
      };
      expect(await tryLogin(TEST_OWNER_PASSWORD)).toBe(401);
      expect(await tryLogin(settingsPassword)).toBe(303);
    } finally {
      await other.close();
    }
  });

  it('is not needed: with no owner at all the login page says how to become one', async () => {
    const other = await createTestApp({ seed: false });
    try {
      const page = await new Shopper().send(other.app, 'GET', '/admin/login');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('npm run owner -- set-password');
      await other.repositories.ownerAuth.setOwnerAccount(TEST_OWNER_PASSWORD_HASH, null, Date.now());
      // Read again on the next request: no restart needed.
      expect((await new Shopper().send(other.app, 'GET', '/admin/login')).body).not.toContain(
        'npm run owner -- set-password',
      );
    } finally {
      await other.close();
    }
  });
});

describe('the orders list', () => {
  let first: number;
  let second: number;
  beforeAll(async () => {
    first = await placeOrder('grace@example.com', 'Hopper');
    second = await placeOrder('ada@example.com', 'Lovelace');
  }, 60_000);

  it('shows the orders newest first with customer, items, total, status and source', async () => {
    const { owner } = await ownerBrowser();
    const page = await owner.send(shop.app, 'GET', '/admin/orders/');
    expect(page.statusCode).toBe(200);
    const numbers = [...page.body.matchAll(/href="\/admin\/orders\/(\d+)\/"/g)].map((match) =>
      Number(match[1]),
    );
    expect(numbers.indexOf(second)).toBeLessThan(numbers.indexOf(first));
    expect(page.body).toContain('Ada Lovelace');
    expect(page.body).toContain('grace@example.com');
    expect(page.body).toContain('Processing');
    expect(page.body).toContain('<nav class="admin__nav" aria-label="Back office">');
  });

  it('searches by number, email and name, and filters by status', async () => {
    const { owner } = await ownerBrowser();
    const listed = async (query: string) => {
      const page = await owner.send(shop.app, 'GET', `/admin/orders/?${query}`);
      expect(page.statusCode).toBe(200);
      return [...page.body.matchAll(/href="\/admin\/orders\/(\d+)\/"/g)].map((match) => Number(match[1]));
    };
    expect(await listed(`s=${first}`)).toEqual([first]);
    expect(await listed(`s=%23${first}`)).toEqual([first]);
    expect(await listed('s=GRACE%40example')).toEqual([first]);
    expect(await listed('s=hopper')).toEqual([first]);
    expect(await listed('s=ada+lovelace')).toContain(second);
    expect(await listed('s=ada+lovelace')).not.toContain(first);
    expect(await listed('s=%25')).toEqual([]);
    expect(await listed('status=completed')).toEqual([]);
    expect(await listed('status=processing')).toEqual(expect.arrayContaining([first, second]));
    expect((await owner.send(shop.app, 'GET', '/admin/orders/?status=shipped')).statusCode).toBe(400);
  });

  it('pages by 50', async () => {
    for (let n = 0; n < 50; n++) {
      await shop.query(
        `INSERT INTO orders (order_key, status, currency, subtotal, total, payment_method, billing, created_at)
         VALUES (?, 'on-hold', 'USD', 100, 100, 'cod', ?, ?)`,
        [
          `wc_order_bulk${n}`,
          JSON.stringify({ firstName: 'Bulk', lastName: `Buyer ${n}`, email: `b${n}@example.com` }),
          `2020-01-01T00:00:${String(n).padStart(2, '0')}.000Z`,
        ],
      );
    }
    const { owner } = await ownerBrowser();
    const one = await owner.send(shop.app, 'GET', '/admin/orders/?status=on-hold');
    expect(one.body.match(/href="\/admin\/orders\/\d+\/"/g)).toHaveLength(50);
    expect(one.body).toContain('50 orders.');
    const all = await owner.send(shop.app, 'GET', '/admin/orders/');
    expect(all.body.match(/href="\/admin\/orders\/\d+\/"/g)).toHaveLength(50);
    expect(all.body).toContain('href="/admin/orders/?paged=2"');
    const two = await owner.send(shop.app, 'GET', '/admin/orders/?paged=2');
    const rest = two.body.match(/href="\/admin\/orders\/\d+\/"/g) ?? [];
    expect(rest.length).toBeGreaterThan(0);
    expect(two.body).toContain('Buyer 0');
  });
});

describe('one order', () => {
  let order: number;
  beforeAll(async () => {
    order = await placeOrder('linus@example.com', 'Torvalds');
    await shop.query(
      `INSERT INTO order_attribution (order_id, source_type, utm_source, utm_medium, utm_campaign, device_type)
       VALUES (?, 'utm', 'newsletter', 'email', 'autumn-sale', 'Mobile')`,
      [order],
    );
  }, 60_000);

  it('shows its items, totals, address, payment method and attribution', async () => {
    const { owner } = await ownerBrowser();
    const page = await owner.send(shop.app, 'GET', `/admin/orders/${order}/`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`Order #${order}`);
    expect(page.body).toContain('Cash on delivery');
    expect(page.body).toContain('12 Analytical Row');
    expect(page.body).toContain('linus@example.com');
    expect(page.body).toContain('Source: Newsletter');
    expect(page.body).toContain('autumn-sale');
    expect(page.body).toContain('Mobile');
    expect(page.body).toMatch(/<td>2<\/td>/);
    expect(page.body).toContain('<button type="submit">Update</button>');
  });

  it('answers an unknown number with a readable 404', async () => {
    const { owner } = await ownerBrowser();
    const page = await owner.send(shop.app, 'GET', '/admin/orders/999999/');
    expect(page.statusCode).toBe(404);
    expect(page.body).toContain('There is no order #999999.');
  });

  it('changes the status with a note, gives the stock back once, takes it again when the order is back', async () => {
    const { owner } = await ownerBrowser();
    const stockBefore = await stockOfMug();
    const change = async (status: string) => {
      const page = await owner.send(shop.app, 'GET', `/admin/orders/${order}/`);
      const nonce = nonceOf(page.body, `/admin/orders/${order}/status`);
      const response = await owner.send(shop.app, 'POST', `/admin/orders/${order}/status`, {
        status,
        _wpnonce: nonce,
      });
      expect(response.statusCode).toBe(303);
      return owner.send(shop.app, 'GET', String(response.headers.location));
    };
    const completed = await change('completed');
    expect(completed.body).toContain('Status changed from Processing to Completed.');
    expect(completed.body).toContain('Order status: Completed.');
    expect(await stockOfMug()).toBe(stockBefore);

    const cancelled = await change('cancelled');
    expect(cancelled.body).toContain('Its items went back to stock.');
    expect(await stockOfMug()).toBe(stockBefore + 2);
    await change('refunded');
    expect(await stockOfMug()).toBe(stockBefore + 2);
    await change('cancelled');
    expect(await stockOfMug()).toBe(stockBefore + 2);

    const back = await change('processing');
    expect(back.body).toContain('Its items were taken from stock again.');
    expect(await stockOfMug()).toBe(stockBefore);
    const notes = await shop.query<{ body: string }>(
      'SELECT body FROM order_notes WHERE order_id = ? ORDER BY id',
      [order],
    );
    expect(notes.map((note) => note.body)).toEqual([
      'Status changed from Processing to Completed.',
      'Status changed from Completed to Cancelled.',
      'Status changed from Cancelled to Refunded.',
      'Status changed from Refunded to Cancelled.',
      'Status changed from Cancelled to Processing.',
    ]);
  });

  it('refuses to bring a cancelled order back when its items are sold out, changing nothing', async () => {
    const other = await placeOrder('sold@example.com', 'Out');
    const { owner } = await ownerBrowser();
    const post = async (status: string) => {
      const page = await owner.send(shop.app, 'GET', `/admin/orders/${other}/`);
      return owner.send(shop.app, 'POST', `/admin/orders/${other}/status`, {
        status,
        _wpnonce: nonceOf(page.body, `/admin/orders/${other}/status`),
      });
    };
    expect((await post('cancelled')).statusCode).toBe(303);
    const before = await stockOfMug();
    await shop.query("UPDATE products SET stock_quantity = 1, stock_status = 'instock' WHERE id = ?", [MUG]);
    const refused = await post('processing');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('only 1 are in stock');
    const [row] = await shop.query<{ status: string }>('SELECT status FROM orders WHERE id = ?', [other]);
    expect(row?.status).toBe('cancelled');
    expect(await stockOfMug()).toBe(1);
    await shop.query('UPDATE products SET stock_quantity = ? WHERE id = ?', [before, MUG]);
  });

  it('keeps the owner’s private notes with their dates', async () => {
    const { owner } = await ownerBrowser();
    const page = await owner.send(shop.app, 'GET', `/admin/orders/${order}/`);
    const added = await owner.send(shop.app, 'POST', `/admin/orders/${order}/notes`, {
      note: 'Customer asked for gift wrap <b>please</b>',
      _wpnonce: nonceOf(page.body, `/admin/orders/${order}/notes`),
    });
    expect(added.statusCode).toBe(303);
    const after = await owner.send(shop.app, 'GET', String(added.headers.location));
    expect(after.body).toContain('Customer asked for gift wrap &lt;b&gt;please&lt;/b&gt;');
    expect(after.body).toContain('Private note');
    expect(after.body).toMatch(
      /<time dateTime="\d{4}-\d\d-\d\dT[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/,
    );
    const empty = await owner.send(shop.app, 'POST', `/admin/orders/${order}/notes`, {
      note: '   ',
      _wpnonce: nonceOf(page.body, `/admin/orders/${order}/notes`),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Write the note first.');
  });
});

describe('the REST API keys page', () => {
  it('makes a key, shows its secret on that answer only, lists it hashed, and revokes it', async () => {
    const { owner } = await ownerBrowser();
    const page = await owner.send(shop.app, 'GET', '/admin/settings/api/');
    expect(page.statusCode).toBe(200);
    const made = await owner.send(shop.app, 'POST', '/admin/settings/api/', {
      description: 'Label printer',
      permissions: 'read_write',
      _wpnonce: nonceOf(page.body, '/admin/settings/api/'),
    });
    expect(made.statusCode).toBe(200);
    expect(made.headers['cache-control']).toBe('no-store');
    const key = /id="issued-consumer-key"[^>]*value="(ck_[0-9a-f]{40})"/.exec(made.body)?.[1] ?? '';
    const secret = /id="issued-consumer-secret"[^>]*value="(cs_[0-9a-f]{40})"/.exec(made.body)?.[1] ?? '';
    expect(key).not.toBe('');
    expect(secret).not.toBe('');
    const auth = { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` };
    expect((await shop.app.inject({ url: '/wp-json/wc/v3/orders', headers: auth })).statusCode).toBe(200);

    const again = await owner.send(shop.app, 'GET', '/admin/settings/api/');
    expect(again.body).not.toContain(secret);
    expect(again.body).not.toContain(key);
    expect(again.body).toContain(`…${key.slice(-7)}`);
    const [row] = await shop.query<{ key_hash: string; secret_hash: string }>(
      'SELECT key_hash, secret_hash FROM api_keys WHERE description = ?',
      ['Label printer'],
    );
    expect(JSON.stringify(row)).not.toContain(secret.slice(3));
    expect(JSON.stringify(row)).not.toContain(key.slice(3));

    const stored = (await shop.repositories.apiKeys.listApiKeys()).find(
      (each) => each.description === 'Label printer',
    );
    const revoke = `/admin/settings/api/${stored?.id}/revoke`;
    const revoked = await owner.send(shop.app, 'POST', revoke, { _wpnonce: nonceOf(again.body, revoke) });
    expect(revoked.statusCode).toBe(303);
    const after = await owner.send(shop.app, 'GET', String(revoked.headers.location));
    expect(after.body).toContain('The key is revoked');
    expect((await shop.app.inject({ url: '/wp-json/wc/v3/orders', headers: auth })).statusCode).toBe(401);
  });

  it('refuses a key without a description, in words next to the form', async () => {
    const { owner } = await ownerBrowser();
    const page = await owner.send(shop.app, 'GET', '/admin/settings/api/');
    const refused = await owner.send(shop.app, 'POST', '/admin/settings/api/', {
      description: '   ',
      permissions: 'read',
      _wpnonce: nonceOf(page.body, '/admin/settings/api/'),
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Describe the key');
    expect(refused.body).not.toContain('issued-consumer-secret');
  });
});
