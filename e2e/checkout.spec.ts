import { expect, test } from '@playwright/test';
import { fillBilling } from './support/checkout';
import { countOrders, readShopDatabase } from './support/shopDatabase';
import { shopPerSpecFile } from './support/startShop';

const shop = shopPerSpecFile();

test('a simple product goes into the cart and is ordered through checkout', async ({ page }) => {
  await page.goto(`${shop().url}/product/cafe-au-lait-mug/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Café au Lait Mug' })).toBeVisible();
  await page.getByLabel('Quantity').fill('2');
  await page.getByRole('button', { name: 'Add to cart' }).click();

  // Added without a page load: the drawer opens, and its "View cart" goes to the cart page.
  await page.getByRole('dialog', { name: 'Cart' }).getByRole('link', { name: 'View cart' }).click();
  await expect(page).toHaveURL(/\/cart\/$/);
  await expect(page.getByRole('link', { name: /^Cart 2 items/ })).toBeVisible();
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'woocommerce_items_in_cart')?.value).toBe('1');
  expect(cookies.find((cookie) => cookie.name === 'woocommerce_cart_hash')?.value).toMatch(/^[a-f0-9]{32}$/);
  expect(cookies.find((cookie) => cookie.name === 'shop_session')?.httpOnly).toBe(true);

  await page.getByRole('link', { name: 'Proceed to checkout' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
  await fillBilling(page);
  await page.getByRole('button', { name: 'Place order' }).click();

  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
  await expect(page.getByRole('heading', { level: 1, name: 'Order received' })).toBeVisible();
  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
  const stored = readShopDatabase(shop().dataDir, (db) => ({
    order: db.prepare('SELECT * FROM orders WHERE id = ?').get(orderId) as { total: number; billing: string },
    lines: db.prepare('SELECT name, quantity, unit_price FROM order_items WHERE order_id = ?').all(orderId),
    stock: db.prepare("SELECT stock_quantity FROM products WHERE sku = 'DEMO-CAFE-MUG'").pluck().get(),
  }));
  expect(stored.lines).toEqual([
    { name: 'Café au Lait Mug', quantity: 2, unit_price: stored.order.total / 2 },
  ]);
  expect(JSON.parse(stored.order.billing).email).toBe('ada@example.com');
  expect(stored.stock).toBe(22);

  // The order emptied the cart.
  await page.goto(`${shop().url}/cart/`);
  await expect(page.getByText('Your cart is currently empty.')).toBeVisible();
});

test('a bad email gets a clear message and creates no order', async ({ page }) => {
  const before = countOrders(shop().dataDir);
  await page.goto(`${shop().url}/product/waxed-canvas-tote/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/checkout/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await fillBilling(page, { 'Email address': 'ada-at-example' });
  await page.getByRole('button', { name: 'Place order' }).click();

  await expect(page.getByRole('alert')).toContainText('Please enter a valid email address.');
  await expect(page.getByLabel('Email address')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/checkout\/$/);
  expect(countOrders(shop().dataDir)).toBe(before);
});

test('the server refuses a bad email even when the browser check is bypassed', async ({ page }) => {
  const before = countOrders(shop().dataDir);
  await page.goto(`${shop().url}/product/waxed-canvas-tote/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  // Without JavaScript the form posts as it is, and the server alone decides.
  await page.context().route('**/static/**', (route) => route.abort());
  await page.goto(`${shop().url}/checkout/`);
  await fillBilling(page, { 'Email address': 'mailto:ada@example.com' });
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('alert')).toContainText('Please enter a valid email address.');
  expect(countOrders(shop().dataDir)).toBe(before);
});

test('Place order is disabled while the order is on its way, and a retried submit makes no second order', async ({
  page,
}) => {
  const before = countOrders(shop().dataDir);
  await page.goto(`${shop().url}/product/waxed-canvas-tote/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/checkout/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  await fillBilling(page);

  // Hold the first submit in the network, as a slow connection would, and count what reaches the server.
  let submits = 0;
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/checkout/', async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    submits += 1;
    await held;
    return route.continue();
  });
  // The page cannot be queried while its navigation is pending, so it reports the button's state itself.
  const states: string[] = [];
  page.on('console', (message) => {
    if (message.text().startsWith('place_order:')) states.push(message.text());
  });
  await page.evaluate(() => {
    const button = document.querySelector<HTMLButtonElement>('#place_order') as HTMLButtonElement;
    new MutationObserver(() =>
      console.log(`place_order: disabled=${button.disabled} text=${button.textContent}`),
    ).observe(button, { attributes: true, childList: true, subtree: true, characterData: true });
  });
  await page.locator('#place_order').dblclick(); // an impatient double click
  await expect.poll(() => states).toContain('place_order: disabled=true text=Placing order…');
  release();

  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
  expect(submits).toBe(1);
  expect(countOrders(shop().dataDir)).toBe(before + 1);
  // Reloading the order-received page shows the order again and makes nothing new.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Order received' })).toBeVisible();
  expect(countOrders(shop().dataDir)).toBe(before + 1);
});

test('a bad phone number gets its message in the browser before anything is sent', async ({ page }) => {
  const before = countOrders(shop().dataDir);
  await page.goto(`${shop().url}/product/waxed-canvas-tote/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/checkout/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  let posted = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/checkout/') posted += 1;
  });
  await fillBilling(page, { Phone: '555-12' });
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page.getByRole('alert')).toContainText('Please enter a valid phone number.');
  await expect(page.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
  // The notice takes the focus (500 ms on) and links to the field.
  await expect(page.getByRole('alert')).toBeFocused();
  await page.getByRole('alert').getByRole('link', { name: 'Please enter a valid phone number.' }).click();
  await expect(page.getByLabel('Phone')).toBeFocused();
  expect(posted).toBe(0);
  expect(countOrders(shop().dataDir)).toBe(before);
});

test('after a failed submit the error notice takes the focus 500 ms after it appears, every attempt', async ({
  page,
}) => {
  await page.goto(`${shop().url}/product/waxed-canvas-tote/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/checkout/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  // When the notice enters the page and when it receives focus, as the page itself sees them.
  await page.evaluate(() => {
    const times = { shown: [] as number[], focused: [] as number[] };
    Object.assign(window, { noticeTimes: times });
    new MutationObserver(() => {
      const notice = document.querySelector('form.checkout .notice--error');
      if (notice && notice !== (window as unknown as { lastNotice?: Element }).lastNotice) {
        Object.assign(window, { lastNotice: notice });
        times.shown.push(performance.now());
      }
    }).observe(document.body, { childList: true, subtree: true });
    document.addEventListener('focusin', (event) => {
      if ((event.target as Element).matches('.notice--error')) times.focused.push(performance.now());
    });
  });
  const times = () =>
    page.evaluate(
      () => (window as unknown as { noticeTimes: { shown: number[]; focused: number[] } }).noticeTimes,
    );

  for (const [attempt, phone] of [
    [1, '555-12'],
    [2, '12'],
  ] as const) {
    await fillBilling(page, { Phone: phone });
    await page.getByRole('button', { name: 'Place order' }).click();
    const notice = page.getByRole('alert');
    await expect(notice).toBeFocused();
    const { shown, focused } = await times();
    expect(shown).toHaveLength(attempt);
    expect(focused).toHaveLength(attempt);
    // Not before 500 ms (a timer's own rounding allowed).
    expect((focused[attempt - 1] ?? 0) - (shown[attempt - 1] ?? 0)).toBeGreaterThanOrEqual(495);
    await expect(page.getByLabel('Phone')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Phone')).toHaveAccessibleDescription('Please enter a valid phone number.');
    await expect(notice.getByRole('link', { name: 'Please enter a valid phone number.' })).toHaveAttribute(
      'href',
      '#billing_phone',
    );
  }
});

test('update_checkout refreshes the order review, and the order is placed for the cart it shows', async ({
  page,
}) => {
  await page.goto(`${shop().url}/product/cafe-au-lait-mug/`);
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await page.goto(`${shop().url}/checkout/`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
  const review = page.getByRole('complementary', { name: 'Your order' });
  await expect(review).toContainText('Café au Lait Mug');
  await expect(review).not.toContainText('Speckled Stoneware Bowl');

  // An add from elsewhere on the page (the search box's mini-cart does this), then the event it fires.
  await page.evaluate(async () => {
    const response = await fetch('/?wc-ajax=add_to_cart', {
      method: 'POST',
      body: new URLSearchParams({ product_id: '1022', quantity: '1' }),
    });
    if (!response.ok) throw new Error(`add_to_cart answered ${response.status}`);
    document.dispatchEvent(new CustomEvent('update_checkout'));
  });
  await expect(review).toContainText('Speckled Stoneware Bowl');
  await expect(review.locator('.blockOverlay')).toHaveCount(0);

  await fillBilling(page);
  await page.getByRole('button', { name: 'Place order' }).click();
  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\/\?key=wc_order_/);
  const orderId = Number(new URL(page.url()).pathname.split('/')[3]);
  const lines = readShopDatabase(shop().dataDir, (db) =>
    db.prepare('SELECT name FROM order_items WHERE order_id = ? ORDER BY name').pluck().all(orderId),
  );
  expect(lines).toEqual(['Café au Lait Mug', 'Speckled Stoneware Bowl']);
});
