// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { SearchMiniCart } from './SearchMiniCart';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;

/** What WooCommerce's server does with Set-Cookie, done by hand in the test document. */
function setItemsCookie(value: string, expired = false) {
  const expires = expired ? '; expires=Thu, 01 Jan 1970 00:00:00 GMT' : '';
  // biome-ignore lint/suspicious/noDocumentCookie: the component reads document.cookie; the test sets it the same way
  document.cookie = `woocommerce_items_in_cart=${value}${expires}`;
}

function render(hideIfEmpty: boolean, cartUrl = '/cart/') {
  const container = document.createElement('div');
  document.body.append(container);
  act(() => {
    root = createRoot(container);
    root.render(<SearchMiniCart hideIfEmpty={hideIfEmpty} cartUrl={cartUrl} />);
  });
  return container.querySelector('a') as HTMLAnchorElement;
}

afterEach(() => {
  act(() => root?.unmount());
  document.body.innerHTML = '';
  setItemsCookie('', true);
});

describe('SearchMiniCart', () => {
  it('is hidden when set to hide-if-empty and the items-in-cart cookie is not above 0', () => {
    expect(render(true).hidden).toBe(true);
  });

  it('shows while an item is being added, then follows the cookie', () => {
    const link = render(true);
    act(() => document.dispatchEvent(new CustomEvent('adding_to_cart')));
    expect(link.hidden).toBe(false);
    setItemsCookie('1');
    act(() => document.dispatchEvent(new CustomEvent('added_to_cart')));
    expect(link.hidden).toBe(false);
    setItemsCookie('0');
    act(() => document.dispatchEvent(new CustomEvent('removed_from_cart')));
    expect(link.hidden).toBe(true);
  });

  it('always shows when hide-if-empty is off', () => {
    expect(render(false).hidden).toBe(false);
  });

  it('links to cart.cartUrl and shows the count and total of the page cart fragment, following its updates', () => {
    const header = document.createElement('header');
    header.innerHTML =
      '<a class="cart-contents" href="/cart/">Cart <span class="cart-contents__count">0</span><span class="cart-contents__total">$0.00</span></a>';
    document.body.append(header);
    const link = render(false, '/basket/');
    expect(link.getAttribute('href')).toBe('/basket/');
    expect(link.textContent).toBe('Cart 0 $0.00');
    // What the cart script does: the fragment is replaced, then added_to_cart fires.
    header.innerHTML =
      '<a class="cart-contents" href="/cart/">Cart <span class="cart-contents__count">2</span><span class="cart-contents__total">$136.00</span></a>';
    act(() => document.dispatchEvent(new CustomEvent('added_to_cart')));
    expect(link.querySelector('.shop-search__mini-cart-count')?.textContent).toBe('2');
    expect(link.querySelector('.shop-search__mini-cart-total')?.textContent).toBe('$136.00');
  });
});
