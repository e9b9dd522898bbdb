import { expect, type Page, test } from '@playwright/test';
import { shopPerSpecFile } from './support/startShop';

// One shop with every theme option that changes behaviour, one with the defaults (dropdown menu, both devices).
const themed = shopPerSpecFile({
  theme: {
    breakpoint: 800,
    mobileMenu: 'offcanvas',
    scrollToTop: 'desktop',
    // An id with a space: the browser writes the cookie name percent-encoded, and the server must read that name.
    storeNotice: { enabled: true, id: 'spring sale', text: 'Spring sale: 20% off throws' },
    comingSoon: { enabled: true },
    hiddenElements: [{ objectId: 1001, classNames: ['product_meta'] }],
  },
});
const plain = shopPerSpecFile();

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 760 };

async function open(page: Page, url: string) {
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
}

const menuButton = (page: Page) => page.getByRole('button', { name: 'Menu', exact: true });
// The header icon comes before the dropdown's own submit button, also named "Search".
const headerSearchIcon = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }).first();

test.describe('header', () => {
  test('switches between breakpoint and desktop mode at the configured width, after resizing settles', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 799, height: 700 });
    await open(page, `${themed().url}/shop/`);
    await expect(page.locator('html')).toHaveAttribute('data-header-mode', 'breakpoint');
    await expect(menuButton(page)).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();

    await page.setViewportSize({ width: 800, height: 700 });
    await expect(page.locator('html')).toHaveAttribute('data-header-mode', 'desktop');
    await expect(menuButton(page)).toBeHidden();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop' }),
    ).toBeVisible();

    await page.setViewportSize({ width: 799, height: 700 });
    await expect(page.locator('html')).toHaveAttribute('data-header-mode', 'breakpoint');
    await expect(menuButton(page)).toBeVisible();
  });

  test('the off-canvas menu: Menu toggles aria-expanded, focus stays inside, Escape and the overlay close it', async ({
    page,
  }) => {
    await page.setViewportSize(MOBILE);
    await open(page, `${themed().url}/`);
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close menu' })).toBeFocused();

    // Tab and Shift+Tab never leave the popup.
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Shift+Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);

    // A submenu expands inside the popup.
    await dialog.getByRole('button', { name: 'Apparel submenu' }).click();
    await expect(dialog.getByRole('link', { name: 'Shirts' })).toBeVisible();

    // Escape closes the innermost open thing first: the submenu, then the popup.
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('link', { name: 'Shirts' })).toBeHidden();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    await expect(menuButton(page)).toBeFocused();

    await menuButton(page).click();
    await expect(dialog).toBeVisible();
    // The overlay is the darkened area beside the panel.
    await page.mouse.click(MOBILE.width - 10, MOBILE.height / 2);
    await expect(dialog).toBeHidden();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');

    await menuButton(page).click();
    await dialog.getByRole('button', { name: 'Close menu' }).click();
    await expect(dialog).toBeHidden();
  });

  test('the dropdown menu opens below the header and its submenus expand', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await open(page, `${plain().url}/`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();
    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(nav).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Shirts' })).toBeHidden();
    await nav.getByRole('button', { name: 'Apparel submenu' }).click();
    await expect(nav.getByRole('link', { name: 'Shirts' })).toBeVisible();
    await nav.getByRole('link', { name: 'Shirts' }).click();
    await expect(page).toHaveURL(/\/product-category\/apparel\/shirts\/$/);
  });

  test('desktop submenus open on hover and from the keyboard', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await open(page, `${plain().url}/`);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(menuButton(page)).toBeHidden();
    await expect(nav.getByRole('link', { name: 'Shirts' })).toBeHidden();
    await nav.getByRole('link', { name: 'Apparel', exact: true }).hover();
    await expect(nav.getByRole('link', { name: 'Shirts' })).toBeVisible();
    await page.mouse.move(600, 600);
    await expect(nav.getByRole('link', { name: 'Shirts' })).toBeHidden();

    await nav.getByRole('link', { name: 'Apparel', exact: true }).focus();
    await page.keyboard.press('Tab');
    const toggle = nav.getByRole('button', { name: 'Apparel submenu' });
    await expect(toggle).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: 'Shirts' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(nav.getByRole('link', { name: 'Accessories' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Shirts' })).toBeHidden();
  });

  test('the search icon opens the search field dropdown on small screens; desktop shows the field', async ({
    page,
  }) => {
    await page.setViewportSize(MOBILE);
    await open(page, `${plain().url}/`);
    const field = page.getByRole('combobox', { name: 'Search products' });
    await expect(field).toBeHidden();
    await expect(headerSearchIcon(page)).toHaveAttribute('aria-expanded', 'false');
    await headerSearchIcon(page).click();
    await expect(headerSearchIcon(page)).toHaveAttribute('aria-expanded', 'true');
    await expect(field).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(field).toBeHidden();
    await expect(headerSearchIcon(page)).toBeFocused();

    await headerSearchIcon(page).click();
    await field.fill('linen');
    await field.press('Enter');
    await expect(page).toHaveURL(/\?s=linen&post_type=product/);

    // On desktop the field is in the header and the icon is gone: the only "Search" button is the submit.
    await page.setViewportSize(DESKTOP);
    await expect(field).toBeVisible();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Search', exact: true })).toHaveCount(
      1,
    );
    await expect(
      page.getByRole('banner').getByRole('button', { name: 'Search', exact: true }),
    ).toHaveAttribute('type', 'submit');
  });

  test('without JavaScript the menu and the search field are simply shown', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: MOBILE });
    const page = await context.newPage();
    await page.goto(`${plain().url}/`);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Shop' }),
    ).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Search products' })).toBeVisible();
    await expect(menuButton(page)).toBeHidden();
    await context.close();
  });
});

test.describe('scrolling', () => {
  test('scroll-to-top shows only past 300 px and returns to the top', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await open(page, `${themed().url}/shop/`);
    const button = page.getByRole('button', { name: 'Scroll to top' });
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 300));
    await page.waitForFunction(() => window.scrollY === 300);
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 301));
    await expect(button).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, 120));
    await expect(button).toBeHidden();
    await page.evaluate(() => window.scrollTo(0, 1200));
    await expect(button).toBeVisible();
    await button.click();
    await page.waitForFunction(() => window.scrollY === 0);
    await expect(button).toBeHidden();
  });

  test('scroll-to-top respects the device setting', async ({ page }) => {
    // themed: desktop only.
    await page.setViewportSize(MOBILE);
    await open(page, `${themed().url}/shop/`);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.waitForFunction(() => window.scrollY === 1500);
    await page.waitForTimeout(100);
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toBeHidden();
    // Widening past the break point makes it a desktop.
    await page.setViewportSize({ width: 900, height: 760 });
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toBeVisible();

    // plain: both devices.
    await page.setViewportSize(MOBILE);
    await open(page, `${plain().url}/shop/`);
    await page.evaluate(() => window.scrollTo(0, 1500));
    await expect(page.getByRole('button', { name: 'Scroll to top' })).toBeVisible();
  });

  for (const [name, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    test(`a hash link lands with its target just below the sticky header (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await open(page, `${plain().url}/shop/`);
      await page.evaluate(() => {
        const target = document.querySelectorAll('.product-card')[4] as HTMLElement;
        target.id = 'fifth-product';
        const link = document.createElement('a');
        link.href = '#fifth-product';
        link.textContent = 'Jump to the fifth product';
        document.querySelector('main h1')?.after(link);
      });
      await page.getByRole('link', { name: 'Jump to the fifth product' }).click();
      await expect(page).toHaveURL(/#fifth-product$/);
      // Smooth scrolling takes a moment: wait for where it comes to rest.
      const gap = () =>
        page.evaluate(() => {
          const target = (document.getElementById('fifth-product') as HTMLElement).getBoundingClientRect()
            .top;
          const header = (document.querySelector('.site-header') as HTMLElement).getBoundingClientRect()
            .bottom;
          return Math.round(target - header);
        });
      await expect.poll(gap, { timeout: 10_000 }).toBeGreaterThanOrEqual(0);
      await expect.poll(gap, { timeout: 10_000 }).toBeLessThanOrEqual(2);
      await expect(page.locator('#fifth-product')).toBeFocused();
    });
  }
});

test.describe('animation timing', () => {
  test('a hash link scrolls smoothly over several frames, not in one jump', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await open(page, `${plain().url}/shop/`);
    const positions = await page.evaluate(async () => {
      const target = document.querySelectorAll('.product-card')[8] as HTMLElement;
      target.id = 'ninth-product';
      const link = document.createElement('a');
      link.href = '#ninth-product';
      link.textContent = 'Jump';
      document.querySelector('main h1')?.after(link);
      link.click();
      const seen = [window.scrollY]; // an instant scroll would already be there
      const until = performance.now() + 1500;
      while (performance.now() < until) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        seen.push(window.scrollY);
      }
      return seen;
    });
    expect(positions[0]).toBe(0);
    const final = positions.at(-1) ?? 0;
    expect(final).toBeGreaterThan(300);
    const between = new Set(positions.filter((y) => y > 0 && y < final));
    expect(between.size).toBeGreaterThanOrEqual(3);
  });

  test('a notice that appears after an action scrolls to 100 px below the top over 1000 ms', async ({
    page,
  }) => {
    await page.setViewportSize(MOBILE);
    await open(page, `${plain().url}/product/cafe-au-lait-mug/`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
    await page.clock.install();
    await open(page, `${plain().url}/checkout/`);
    // The form's checks load on first focus; then time stops, and only the test moves it.
    await page.locator('#billing_first_name').focus();
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await page.getByRole('button', { name: 'Place order' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'Please correct the following' });
    await expect(notice).toBeVisible();
    const top = () => notice.evaluate((element) => Math.round(element.getBoundingClientRect().top));
    // Wherever the notice starts (above the viewport, as the page stays where Place order was clicked), it moves
    // to 100 px below the top and arrives only at 1000 ms.
    const start = await top();
    expect(start).not.toBe(100);
    const onTheWay = (value: number) => Math.min(start, 100) < value && value < Math.max(start, 100);
    await page.clock.runFor(500);
    expect(onTheWay(await top())).toBe(true);
    await page.clock.runFor(450);
    expect(onTheWay(await top())).toBe(true); // still moving at 950 ms
    await page.clock.runFor(100);
    expect(await top()).toBe(100);
  });

  test('the product description folds away over 250 ms', async ({ page }) => {
    await open(page, `${plain().url}/product/washed-linen-shirt/`);
    const toggle = page.getByRole('button', { name: 'Description' });
    const content = page.getByText('Cut from mid-weight European flax');
    // Clicked and read in one task: on a busy machine the round trip between a click from the test and a read of
    // the animations can outlast the 250 ms, and the animation is gone when read.
    const timing = await toggle.evaluate((button: HTMLElement) => {
      button.click();
      const element = document.querySelector('.product__description-content');
      return (element?.getAnimations() ?? []).map(
        (animation) => animation.effect?.getComputedTiming().endTime,
      );
    });
    expect(timing).toEqual([250]);
    // Hidden only once the animation has run.
    await expect(content).toBeHidden();
  });
});

test.describe('banners', () => {
  test('the store notice is dismissed, remembered by its cookie and stays away after a reload', async ({
    page,
  }) => {
    await open(page, `${themed().url}/`);
    const notice = page.getByRole('region', { name: 'Store notice' });
    await expect(notice).toContainText('Spring sale: 20% off throws');
    await notice.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await expect(notice).toBeHidden();
    const cookie = (await page.context().cookies()).find(
      (entry) => entry.name === 'store_noticespring%20sale',
    );
    expect(cookie).toMatchObject({ value: 'hidden', path: '/' });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true');
    await expect(page.getByRole('region', { name: 'Store notice' })).toHaveCount(0);
    // The shop without a notice never shows one.
    await open(page, `${plain().url}/`);
    await expect(page.getByRole('region', { name: 'Store notice' })).toHaveCount(0);
  });

  const dismissButton = (page: Page) => page.getByRole('button', { name: 'Dismiss coming soon banner' });
  // With or without the client's query (`_locale=user`).
  const isUsersMe = (url: URL) => url.pathname === '/wp-json/wp/v2/users/me';

  /** Every REST and nonce call the page makes, with the status it got. */
  function recordRestCalls(page: Page): string[] {
    const calls: string[] = [];
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith('/wp-json/wp/') || url.searchParams.get('action') === 'rest-nonce') {
        calls.push(`${response.request().method()} ${url.pathname} ${response.status()}`);
      }
    });
    return calls;
  }

  test('a visitor whose session began with an Ajax add to cart after the page loaded still dismisses the banner', async ({
    page,
  }) => {
    const calls = recordRestCalls(page);
    await open(page, `${themed().url}/`);
    await page.getByRole('button', { name: 'Add “Café au Lait Mug” to your cart' }).click();
    await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Cart' }).getByRole('button', { name: 'Close' }).click();
    await dismissButton(page).click();
    await expect(page.getByRole('region', { name: 'Coming soon' })).toBeHidden();
    // The last attempt was accepted; a refused nonce was followed by a fresh one and exactly one retry.
    await expect.poll(() => calls.at(-1)).toBe('POST /wp-json/wp/v2/users/me 200');
    const refused = calls.filter((call) => call.endsWith(' 403'));
    expect(refused.length).toBeLessThanOrEqual(1);
    if (refused.length === 1)
      expect(calls).toEqual([
        'POST /wp-json/wp/v2/users/me 403',
        'GET /ajax 200',
        'POST /wp-json/wp/v2/users/me 200',
      ]);
    // Stored with the visitor's session: the next page does not render the banner.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Coming soon' })).toHaveCount(0);
  });

  test('a page nonce the server refuses is refreshed once and the dismissal retried', async ({ page }) => {
    const calls = recordRestCalls(page);
    await open(page, `${themed().url}/`);
    // The session the page was rendered for is gone; the Ajax add starts another, so the page's nonce is stale.
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Add “Café au Lait Mug” to your cart' }).click();
    await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Cart' }).getByRole('button', { name: 'Close' }).click();
    const retried = page.waitForRequest(
      (request) => isUsersMe(new URL(request.url())) && calls.includes('GET /ajax 200'),
    );
    await dismissButton(page).click();
    const fresh = (await retried).headers()['x-wp-nonce'];
    await expect(page.getByRole('region', { name: 'Coming soon' })).toBeHidden();
    expect(calls).toEqual([
      'POST /wp-json/wp/v2/users/me 403',
      'GET /ajax 200',
      'POST /wp-json/wp/v2/users/me 200',
    ]);
    const pageNonce = await page.evaluate(
      () => JSON.parse(document.getElementById('shop-settings')?.textContent ?? '{}').rest.nonce as string,
    );
    expect(fresh).toBeTruthy();
    expect(fresh).not.toBe(pageNonce);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Coming soon' })).toHaveCount(0);
  });

  test('the coming-soon banner posts the dismissal with the REST nonce and hides when the call completes', async ({
    page,
  }) => {
    await open(page, `${themed().url}/`);
    const banner = page.getByRole('region', { name: 'Coming soon' });
    await expect(banner).toBeVisible();
    const nonce = await page.evaluate(
      () => JSON.parse(document.getElementById('shop-settings')?.textContent ?? '{}').rest.nonce as string,
    );
    expect(nonce).toBeTruthy();
    const [request] = await Promise.all([
      page.waitForRequest((candidate) => new URL(candidate.url()).pathname === '/wp-json/wp/v2/users/me'),
      dismissButton(page).click(),
    ]);
    expect(request.method()).toBe('POST');
    // The REST client's conventions: the page's nonce, and the user's locale asked for.
    expect(new URL(request.url()).searchParams.get('_locale')).toBe('user');
    expect(request.headers()['x-wp-nonce']).toBe(nonce);
    expect(request.postDataJSON()).toEqual({ meta: { woocommerce_coming_soon_banner_dismissed: 'yes' } });
    expect((await request.response())?.status()).toBe(200);
    await expect(banner).toBeHidden();

    // The server stored the dismissal with the visitor's session: the next page does not render the banner.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await expect(page.getByRole('region', { name: 'Coming soon' })).toHaveCount(0);
  });

  test('the coming-soon banner hides when the call fails with a server error', async ({ page }) => {
    await page.route(isUsersMe, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"internal_error"}' }),
    );
    await open(page, `${themed().url}/`);
    await dismissButton(page).click();
    await expect(page.getByRole('region', { name: 'Coming soon' })).toBeHidden();
  });

  test('the coming-soon banner hides when the request fails on the network', async ({ page }) => {
    await page.route(isUsersMe, (route) => route.abort('connectionrefused'));
    await open(page, `${themed().url}/`);
    await dismissButton(page).click();
    await expect(page.getByRole('region', { name: 'Coming soon' })).toBeHidden();
  });

  test('the coming-soon banner hides once the call succeeds, not before', async ({ page }) => {
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    await page.route(isUsersMe, async (route) => {
      await answered;
      await route.fulfill({ status: 200, contentType: 'application/json', body: '{"id":0,"meta":{}}' });
    });
    await open(page, `${themed().url}/`);
    await dismissButton(page).click();
    const banner = page.getByRole('region', { name: 'Coming soon' });
    await expect(dismissButton(page)).toBeDisabled();
    await expect(banner).toBeVisible();
    answer();
    await expect(banner).toBeHidden();
  });

  test('the coming-soon banner is off unless enabled', async ({ page }) => {
    await open(page, `${plain().url}/`);
    await expect(page.getByRole('region', { name: 'Coming soon' })).toHaveCount(0);
  });
});

test.describe('shop pages', () => {
  test('the ordering dropdown submits its form on change, and the result count is re-announced', async ({
    page,
  }) => {
    await open(page, `${plain().url}/shop/`);
    const count = page.locator('.woocommerce-result-count');
    await expect(count).toHaveRole('status');
    const text = await count.textContent();
    await expect(count).toHaveAttribute('data-announced', 'true', { timeout: 4000 });
    await expect(count).toHaveText(text ?? '');
    await page.getByLabel('Shop order').selectOption('price');
    await expect(page).toHaveURL(/\/shop\/\?orderby=price$/);
    await expect(page.getByLabel('Shop order')).toHaveValue('price');
  });

  test('a password field shows and hides its password', async ({ page }) => {
    await open(page, `${plain().url}/trade-prices/`);
    const field = page.getByLabel('Password', { exact: true });
    await expect(field).toHaveAttribute('type', 'password');
    await field.fill('wholesale');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(field).toHaveAttribute('type', 'text');
    await expect(page.getByRole('button', { name: 'Hide password' })).toHaveAttribute(
      'aria-controls',
      'post-password',
    );
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(field).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Enter' }).click();
    await expect(page.getByText('Stockists receive 45% off')).toBeVisible();
  });

  test('error and message notices receive focus after 500 ms', async ({ page }) => {
    await open(page, `${plain().url}/trade-prices/`);
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Enter' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The password you entered is not correct.' });
    await expect(alert).toBeFocused();

    // The cart page after an add without JavaScript (the form's own address) carries a message notice.
    await open(page, `${plain().url}/product/cafe-au-lait-mug/`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
    await open(page, `${plain().url}/cart/?added=1021`);
    const message = page.getByRole('status').filter({ hasText: 'has been added to your cart' });
    await expect(message).toBeFocused();
  });

  test('a checkout error that appears after submitting is scrolled into view', async ({ page }) => {
    await page.setViewportSize(MOBILE);
    await open(page, `${plain().url}/product/cafe-au-lait-mug/`);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    // The add is an Ajax call: wait for its answer (the drawer) before leaving, or the checkout may come first.
    await expect(page.getByRole('dialog', { name: 'Cart' })).toBeVisible();
    await open(page, `${plain().url}/checkout/`);
    await page.getByRole('button', { name: 'Place order' }).click();
    const notice = page.getByRole('alert').filter({ hasText: 'Please correct the following' });
    // Scrolled to 100 px below the top of the viewport, then focused; the invalid fields stay marked.
    await expect
      .poll(() => notice.evaluate((element) => Math.round(element.getBoundingClientRect().top)), {
        timeout: 5000,
      })
      .toBe(100);
    await expect(notice).toBeFocused();
    await expect(page.locator('#billing_first_name')).toHaveAttribute('aria-invalid', 'true');
  });

  test('the product description folds away and back', async ({ page }) => {
    await open(page, `${plain().url}/product/washed-linen-shirt/`);
    const toggle = page.getByRole('button', { name: 'Description' });
    const content = page.getByText('Cut from mid-weight European flax');
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(content).toBeHidden();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(content).toBeVisible();
  });

  test('element-hiding data hides the listed classes of that product only, in the server-rendered page', async ({
    page,
  }) => {
    const html = await (await page.request.get(`${themed().url}/product/washed-linen-shirt/`)).text();
    expect(html).toContain('<style>.product_meta{display:none!important}</style>');
    await open(page, `${themed().url}/product/washed-linen-shirt/`);
    await expect(page.locator('.product_meta')).toBeHidden();
    await open(page, `${themed().url}/product/organic-cotton-t-shirt/`);
    await expect(page.locator('.product_meta')).toBeVisible();
  });
});
