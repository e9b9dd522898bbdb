// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { bindMiniCart } from './bindMiniCart';

const KEY = 'a'.repeat(32);

let unbind: () => void = () => {};
let fetchMock: ReturnType<typeof vi.fn>;
let refreshes: number;
const countRefresh = () => {
  refreshes++;
};

beforeEach(() => {
  vi.useFakeTimers();
  refreshes = 0;
  document.addEventListener('wc_fragment_refresh', countRefresh);
  document.body.innerHTML = `
    <div class="cart-drawer"><div class="cart-drawer__body">
      <div class="widget_shopping_cart_content" data-qty-nonce="fragment-nonce">
        <div class="quantity"><input class="qty" type="number" name="cart[${KEY}][qty]" value="1"></div>
      </div>
    </div></div>`;
  fetchMock = vi.fn(async () => new Response('{}'));
  vi.stubGlobal('fetch', fetchMock);
  unbind = bindMiniCart(document, {
    ajaxUrl: '/ajax',
    wcAjaxUrlTemplate: '/?wc-ajax=%%endpoint%%',
    qtyNonce: 'page',
    quantityLimitedText: 'At most %s; set to %2$s.',
  });
});
afterEach(() => {
  unbind();
  document.removeEventListener('wc_fragment_refresh', countRefresh);
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function type(value: string) {
  const input = document.querySelector<HTMLInputElement>('input.qty') as HTMLInputElement;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('typing a mini-cart quantity', () => {
  it('sends exactly one update, 500 ms after the last keystroke, with the fragment nonce', async () => {
    type('1');
    await vi.advanceTimersByTimeAsync(300);
    type('12');
    await vi.advanceTimersByTimeAsync(499);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/ajax');
    expect(Object.fromEntries(new URLSearchParams(String(init.body)))).toEqual({
      action: 'set_cart_item_quantity',
      hash: KEY,
      quantity: '12',
      qtyNonce: 'fragment-nonce',
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('sends nothing for an empty field', async () => {
    type('');
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for a fragment refresh on completion and lifts the loading state 500 ms later', async () => {
    type('3');
    await vi.advanceTimersByTimeAsync(500);
    const body = document.querySelector('.cart-drawer__body') as HTMLElement;
    expect(body.getAttribute('aria-busy')).toBe('true');
    expect(refreshes).toBe(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(body.getAttribute('aria-busy')).toBe('true');
    await vi.advanceTimersByTimeAsync(1);
    expect(body.hasAttribute('aria-busy')).toBe(false);
    expect(document.querySelector('.cart-drawer')?.classList.contains('is-loading')).toBe(false);
  });

  it('still refreshes when the request fails', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('offline'));
    type('2');
    await vi.advanceTimersByTimeAsync(500);
    expect(refreshes).toBe(1);
  });

  it('says why a quantity over the maximum was lowered, and the reason outlives the refresh', async () => {
    fetchMock.mockResolvedValueOnce(Response.json({ fragments: {}, quantity: 24, clamped: true }));
    type('30');
    await vi.advanceTimersByTimeAsync(500);
    const notice = document.querySelector('.woocommerce-mini-cart__notice');
    expect(notice?.getAttribute('role')).toBe('status');
    expect(notice?.textContent).toBe('At most 24; set to 24.');
    // Outside the fragment the refresh replaces.
    expect(notice?.closest('.widget_shopping_cart_content')).toBeNull();
  });

  it('shows the shop’s reason when it refuses the quantity, and clears it once a quantity is taken', async () => {
    fetchMock.mockResolvedValueOnce(
      Response.json(
        { code: 'invalid_quantity', message: 'Please enter a quantity between 0 and 9999.' },
        { status: 400 },
      ),
    );
    type('99999');
    await vi.advanceTimersByTimeAsync(500);
    const notice = () => document.querySelector('.woocommerce-mini-cart__notice')?.textContent;
    expect(notice()).toBe('Please enter a quantity between 0 and 9999.');
    fetchMock.mockResolvedValueOnce(Response.json({ fragments: {}, quantity: 2 }));
    type('2');
    await vi.advanceTimersByTimeAsync(500);
    expect(notice()).toBe('');
  });
});
