import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

/* The mini-cart drawer, quantity controls and add to cart without a page load (issue 3). */

const shop = shopPerSpecFile();

/** A marker that survives only while the page is not reloaded. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as Window & { notReloaded?: boolean }).notReloaded = true;
  });
}
const stillSamePage = (page: Page) =>
  page.evaluate(() => (window as Window & { notReloaded?: boolean }).notReloaded === true);

async function openHydrated(page: Page, path: string) {
  await page.goto(`${shop().url}${path}`);
  await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
}

test('adding from the shop opens the drawer without a page load, and the cart hash is stored', async ({
  page,
}) => {
  await openHydrated(page, '/shop/');
  await markPage(page);
  const events: string[] = [];
  await page.exposeFunction('recordEvent', (name: string) => events.push(name));
  await page.evaluate(() => {
    for (const name of ['adding_to_cart', 'added_to_cart']) {
      document.addEventListener(name, () =>
        (window as unknown as { recordEvent(n: string): void }).recordEvent(name),
      );
    }
  });

  await page.getByRole('button', { name: 'Add “Café au Lait Mug” to your cart' }).click();
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  await expect(drawer).toBeVisible();
  await expect(drawer.locator('.mini_cart_item')).toContainText('Café au Lait Mug');
  await expect(drawer.getByRole('button', { name: /^Remove Café au Lait Mug/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /^Cart 1 item/ })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Close' })).toBeFocused();
  await expect(page.locator('a.cart-contents')).toHaveAttribute('aria-expanded', 'true');
  expect(await stillSamePage(page)).toBe(true);
  expect(new URL(page.url()).pathname).toBe('/shop/');
  expect(events).toEqual(['adding_to_cart', 'added_to_cart']);

  // woocommerce_cart_hash equals the stored wc_cart_hash_{key}, in session and local storage.
  const cookie = (await page.context().cookies()).find((each) => each.name === 'woocommerce_cart_hash');
  expect(cookie?.value).toMatch(/^[a-f0-9]{32}$/);
  const stored = await page.evaluate(() => {
    const key = JSON.parse(document.getElementById('shop-settings')?.textContent ?? '{}').cart.storageKey;
    return {
      session: sessionStorage.getItem(`wc_cart_hash_${key}`),
      local: localStorage.getItem(`wc_cart_hash_${key}`),
      fragments: JSON.parse(sessionStorage.getItem(`wc_fragments_${key}`) ?? '{}'),
      created: sessionStorage.getItem('wc_cart_created'),
    };
  });
  expect(stored.session).toBe(cookie?.value);
  expect(stored.local).toBe(cookie?.value);
  expect(stored.fragments['div.widget_shopping_cart_content']).toContain('Café au Lait Mug');
  expect(Number(stored.created)).toBeGreaterThan(0);
});

test('Escape, the overlay and the close button close the drawer; focus returns to the cart control', async ({
  page,
}) => {
  await openHydrated(page, '/shop/');
  const control = page.getByRole('link', { name: /^Cart/ });
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  await expect(drawer).toBeHidden();

  await control.click();
  await expect(drawer).toBeVisible();
  await expect(drawer.getByText('No products in the cart.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(control).toBeFocused();

  await control.click();
  await expect(drawer).toBeVisible();
  // The overlay is the part of the page left of the panel.
  await page.mouse.click(20, 300);
  await expect(drawer).toBeHidden();

  await control.focus();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();
  await expect(drawer).toBeHidden();

  // A change of viewport width closes it too.
  await control.click();
  await expect(drawer).toBeVisible();
  await page.setViewportSize({ width: 1100, height: 700 });
  await expect(drawer).toBeHidden();
});

test('plus and minus obey the minimum, the maximum and the step', async ({ page }) => {
  await openHydrated(page, '/product/cafe-au-lait-mug/'); // 24 in stock
  const quantity = page.getByLabel('Quantity');
  const minus = page.getByRole('button', { name: 'Decrease quantity' });
  const plus = page.getByRole('button', { name: 'Increase quantity' });
  await expect(quantity).toHaveValue('1');
  await minus.click();
  await expect(quantity).toHaveValue('1'); // the minimum is 1
  await plus.click();
  await plus.click();
  await expect(quantity).toHaveValue('3');
  await quantity.fill('23');
  await plus.click();
  await plus.click();
  await expect(quantity).toHaveValue('24'); // never above the stock

  // A non-integer step shows one decimal; minus stops at the minimum.
  await quantity.evaluate((input) => {
    input.setAttribute('step', '0.5');
    input.setAttribute('min', '0.5');
    (input as HTMLInputElement).value = '1';
  });
  await plus.click();
  await expect(quantity).toHaveValue('1.5');
  await minus.click();
  await minus.click();
  await minus.click();
  await expect(quantity).toHaveValue('0.5');

  // Sold individually: the maximum is 1.
  await openHydrated(page, '/product/one-off-walnut-serving-board/');
  await page.getByRole('button', { name: 'Increase quantity' }).click();
  await expect(page.getByLabel('Quantity')).toHaveValue('1');
});

test('typing a mini-cart quantity sends exactly one update, 500 ms after the last keystroke', async ({
  page,
}) => {
  await openHydrated(page, '/product/cafe-au-lait-mug/');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  await expect(drawer).toBeVisible();

  const updates: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/ajax') && request.postData()?.includes('set_cart_item_quantity')) {
      updates.push(request.postData() ?? '');
    }
  });
  // Page-side clocks: when the last keystroke landed and when the update left.
  await page.evaluate(() => {
    const w = window as Window & { lastInputAt?: number; sentAt?: number[] };
    w.sentAt = [];
    document.addEventListener('input', () => {
      w.lastInputAt = performance.now();
    });
    const original = window.fetch.bind(window);
    window.fetch = (input, init) => {
      if (String(init?.body ?? '').includes('set_cart_item_quantity')) w.sentAt?.push(performance.now());
      return original(input, init);
    };
  });
  const input = drawer.getByLabel(/Quantity/);
  await input.fill('');
  await input.pressSequentially('12', { delay: 100 });
  await expect.poll(() => updates.length).toBe(1);
  const clocks = await page.evaluate(() => {
    const w = window as Window & { lastInputAt?: number; sentAt?: number[] };
    return { lastInputAt: w.lastInputAt ?? 0, sentAt: w.sentAt ?? [] };
  });
  expect(clocks.sentAt).toHaveLength(1);
  // Timers never fire early: the update left at least 500 ms after the last keystroke.
  expect((clocks.sentAt[0] ?? 0) - clocks.lastInputAt).toBeGreaterThanOrEqual(499);
  const sent = new URLSearchParams(updates[0]);
  expect(sent.get('quantity')).toBe('12');
  expect(sent.get('hash')).toMatch(/^[a-f0-9]{32}$/);
  expect(sent.get('qtyNonce')).toBeTruthy();
  // The refresh that follows shows the server's cart.
  await expect(page.getByRole('link', { name: /^Cart 12 items/ })).toBeVisible();
  await expect(drawer.locator('.blockOverlay')).toHaveCount(0);
  await page.waitForTimeout(700);
  expect(updates).toHaveLength(1);

  // An emptied field sends nothing; the plus button sends one update.
  await input.fill('');
  await page.waitForTimeout(800);
  expect(updates).toHaveLength(1);
  await drawer.getByRole('button', { name: 'Increase quantity' }).click();
  await expect.poll(() => updates.length).toBe(2);
  await expect(page.getByRole('link', { name: /^Cart 1 item/ })).toBeVisible();

  // Remove empties the cart without a page load.
  await drawer.getByRole('button', { name: /^Remove Café au Lait Mug/ }).click();
  await expect(drawer.getByText('No products in the cart.')).toBeVisible();
  await expect(page.getByRole('link', { name: /^Cart 0 items/ })).toBeVisible();
});

test('adding gives feedback in the same frame, before the server answers', async ({ page }) => {
  await openHydrated(page, '/shop/');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/?wc-ajax=add_to_cart', async (route) => {
    await held;
    await route.continue();
  });
  const button = page.getByRole('button', { name: 'Add “Café au Lait Mug” to your cart' });
  const count = page.locator('a.cart-contents .cart-contents__count');
  await expect(count).toHaveText('0');
  await button.click();
  // The request is still held: the button is busy and the count already shows the addition.
  await expect(button).toHaveAttribute('aria-busy', 'true');
  await expect(count).toHaveText('1');
  release();
  await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
  await expect(button).not.toHaveAttribute('aria-busy');
  await expect(button).toHaveClass(/added/);
});

test('the mini-cart is blocked while a quantity update is in flight, and freed 500 ms after', async ({
  page,
}) => {
  await openHydrated(page, '/product/cafe-au-lait-mug/');
  await page.getByRole('button', { name: 'Add to cart' }).click();
  const drawer = page.getByRole('dialog', { name: 'Cart' });
  await expect(drawer).toBeVisible();
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/ajax', async (route) => {
    await held;
    await route.continue();
  });
  await drawer.getByRole('button', { name: 'Increase quantity' }).click();
  const body = page.locator('.cart-drawer__body');
  await expect(body).toHaveAttribute('aria-busy', 'true', { timeout: 2000 });
  await expect(body.locator('.blockOverlay')).toHaveCSS('z-index', '1000');
  await page.waitForTimeout(600);
  await expect(body).toHaveAttribute('aria-busy', 'true'); // still in flight
  release();
  await expect(page.getByRole('link', { name: /^Cart 2 items/ })).toBeVisible();
  await expect(body).not.toHaveAttribute('aria-busy');
  await expect(body.locator('.blockOverlay')).toHaveCount(0);
});

test.describe('with the other cart settings', () => {
  // One more shop for every non-default setting, so the file starts two servers, not three.
  const variant = shopPerSpecFile({
    cart: {
      redirectToCartOnMobile: true,
      layout: 'dropdown',
      quantityButtons: 'none',
      openDrawerOnAdd: false,
      // Short, so the test sees a slow refresh given up after this long rather than the default 5 s.
      requestTimeout: 400,
    },
  });

  test('on small screens with the redirect setting the cart control goes to the cart page', async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width: 480, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(`${variant().url}/shop/`);
      await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
      await page.getByRole('link', { name: /^Cart/ }).click();
      await expect(page).toHaveURL(/\/cart\/$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Cart' })).toBeVisible();

      // Wider than the breakpoint, the same setting opens the mini-cart.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(`${variant().url}/shop/`);
      await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
      await page.getByRole('link', { name: /^Cart/ }).click();
      await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
      await expect(page).toHaveURL(/\/shop\/$/);
    } finally {
      await context.close();
    }
  });

  test('the dropdown layout, no quantity buttons and no drawer on add are honoured', async ({ page }) => {
    await page.goto(`${variant().url}/product/cafe-au-lait-mug/`);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await expect(page.getByRole('button', { name: 'Increase quantity' })).toHaveCount(0);
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('link', { name: /^Cart 2 items/ })).toBeVisible();
    const dialog = page.getByRole('dialog', { name: 'Cart' });
    await expect(dialog).toBeHidden();
    await page.getByRole('link', { name: /^Cart/ }).click();
    await expect(dialog).toBeVisible();
    await expect(page.locator('.cart-drawer')).toHaveClass(/cart-drawer--dropdown/);
    await expect(dialog.getByLabel(/Quantity/)).toHaveValue('2');
  });

  test('a fragments refresh slower than cart.requestTimeout is given up after that long', async ({
    page,
  }) => {
    await page.goto(`${variant().url}/product/cafe-au-lait-mug/`);
    await expect(page.locator('html[data-hydrated="true"]')).toBeAttached();
    await page.route('**/?wc-ajax=get_refreshed_fragments', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue().catch(() => undefined); // the page gave up on it
    });
    const waited = await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          const started = performance.now();
          document.addEventListener('wc_fragments_ajax_error', () => resolve(performance.now() - started), {
            once: true,
          });
          document.dispatchEvent(new CustomEvent('wc_fragment_refresh'));
        }),
    );
    expect(waited).toBeGreaterThanOrEqual(390);
    expect(waited).toBeLessThan(1500);
  });
});
