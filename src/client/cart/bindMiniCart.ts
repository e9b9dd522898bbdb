import { formatText } from '../../shared/settings/formatText';
import { blockElement } from './blockOverlay';
import { dispatchCartEvent, wcAjaxUrl } from './cartEvents';
import { parseFragmentsAnswer } from './fragmentsPayload';
import { replaceFragments } from './replaceFragments';

/*
 * The mini-cart's own controls: typing a quantity sends `set_cart_item_quantity` 500 ms after
 * the last keystroke when the field is not empty, then asks for a fragment refresh; the Remove buttons call
 * `remove_from_cart`. Delegated, since fragments replace the mini-cart's markup. While a request is in flight the
 * mini-cart is blocked, and the block lifts 500 ms after completion. A quantity the shop did not take as typed (over
 * the stock or the product's maximum, or out of range) is explained in the mini-cart's notice, a polite live region
 * outside the fragment, so the reason outlives the refresh that shows the quantity the cart really has.
 */

const QUANTITY_TYPING_DELAY_MS = 500;
const LOADING_CLEAR_DELAY_MS = 500;
const CART_KEY_PATTERN = /^cart\[([^\]]+)\]\[qty\]$/;

interface MiniCartOptions {
  ajaxUrl: string;
  wcAjaxUrlTemplate: string;
  /** The page's `cart.qtyNonce`, used when the mini-cart markup carries none. */
  qtyNonce: string | null;
  /** `i18n.quantityLimited`: "You can buy at most %s of this item, so the quantity was set to %s." */
  quantityLimitedText: string;
}

const NOTICE_CLASS = 'woocommerce-mini-cart__notice';

/** What the shop answers `set_cart_item_quantity`: the quantity it kept, or why it refused. */
interface QuantityAnswer {
  quantity?: number;
  clamped?: boolean;
  message?: string;
}

export function bindMiniCart(document: Document, options: MiniCartOptions): () => void {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  function block(from: Element): () => void {
    const area =
      from.closest<HTMLElement>('.cart-drawer__body') ??
      from.closest<HTMLElement>('.widget_shopping_cart_content');
    const drawer = document.querySelector<HTMLElement>('.cart-drawer');
    drawer?.classList.add('is-loading');
    const unblock = area ? blockElement(area) : () => {};
    return () =>
      setTimeout(() => {
        unblock();
        drawer?.classList.remove('is-loading');
      }, LOADING_CLEAR_DELAY_MS);
  }

  /** The mini-cart's notice, rendered beside the fragment (created there for a mini-cart rendered without one). */
  function noticeFor(widget: HTMLElement | null): HTMLElement | null {
    if (!widget?.parentElement) return null;
    let notice = widget.parentElement.querySelector<HTMLElement>(`:scope > .${NOTICE_CLASS}`);
    if (!notice) {
      notice = document.createElement('p');
      notice.className = NOTICE_CLASS;
      notice.setAttribute('role', 'status');
      widget.before(notice);
    }
    return notice;
  }

  function explain(widget: HTMLElement | null, typed: string, answer: QuantityAnswer, ok: boolean) {
    const notice = noticeFor(widget);
    if (!notice) return;
    if (!ok && answer.message) notice.textContent = answer.message;
    else if (answer.clamped && answer.quantity !== undefined && String(answer.quantity) !== typed) {
      notice.textContent = formatText(options.quantityLimitedText, answer.quantity, answer.quantity);
    } else notice.textContent = '';
  }

  async function sendQuantity(input: HTMLInputElement, key: string) {
    const widget = input.closest<HTMLElement>('.widget_shopping_cart_content');
    const nonce = widget?.dataset.qtyNonce ?? options.qtyNonce ?? '';
    const typed = input.value.trim();
    const done = block(input);
    try {
      const response = await fetch(options.ajaxUrl, {
        method: 'POST',
        credentials: 'same-origin',
        body: new URLSearchParams({
          action: 'set_cart_item_quantity',
          hash: key,
          quantity: typed,
          qtyNonce: nonce,
        }),
      });
      explain(widget, typed, await readAnswer(response), response.ok);
    } catch {
      // Whatever happened, the refresh below shows the cart as the server has it.
    } finally {
      dispatchCartEvent(document, 'wc_fragment_refresh');
      done();
    }
  }

  const onInput = (event: Event) => {
    const input = event.target as HTMLInputElement | null;
    if (!input?.matches?.('.widget_shopping_cart_content input.qty')) return;
    const key = CART_KEY_PATTERN.exec(input.name)?.[1];
    if (!key) return;
    clearTimeout(timers.get(key));
    timers.set(
      key,
      setTimeout(() => {
        timers.delete(key);
        if (input.value.trim() === '' || !input.isConnected) return;
        void sendQuantity(input, key);
      }, QUANTITY_TYPING_DELAY_MS),
    );
  };

  const onClick = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>(
      '.widget_shopping_cart_content .remove_from_cart_button',
    );
    const key = button?.dataset.cart_item_key;
    if (!button || !key) return;
    event.preventDefault();
    const panel = button.closest<HTMLElement>('[role="dialog"]');
    const done = block(button);
    void (async () => {
      try {
        const response = await fetch(wcAjaxUrl(options.wcAjaxUrlTemplate, 'remove_from_cart'), {
          method: 'POST',
          credentials: 'same-origin',
          body: new URLSearchParams({ cart_item_key: key }),
        });
        const answer = parseFragmentsAnswer(await response.json());
        if (!response.ok || !answer) throw new Error('remove_from_cart failed');
        replaceFragments(document, answer.fragments);
        dispatchCartEvent(document, 'removed_from_cart', { ...answer, button });
      } catch {
        dispatchCartEvent(document, 'wc_fragment_refresh');
      } finally {
        // The button is gone with its line: keep the focus in the dialog.
        if (!document.activeElement || document.activeElement === document.body) panel?.focus();
        done();
      }
    })();
  };

  document.addEventListener('input', onInput);
  document.addEventListener('click', onClick);
  return () => {
    document.removeEventListener('input', onInput);
    document.removeEventListener('click', onClick);
    for (const timer of timers.values()) clearTimeout(timer);
  };
}

async function readAnswer(response: Response): Promise<QuantityAnswer> {
  try {
    const body = (await response.json()) as unknown;
    return typeof body === 'object' && body !== null ? (body as QuantityAnswer) : {};
  } catch {
    return {};
  }
}
