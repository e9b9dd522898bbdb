import { dispatchCartEvent, wcAjaxUrl } from './cartEvents';
import { type FragmentsAnswer, parseErrorAnswer, parseFragmentsAnswer } from './fragmentsPayload';
import { replaceFragments } from './replaceFragments';
import { submitNatively } from './submitNatively';

/*
 * Add to cart without a page load (WooCommerce's add-to-cart.js): the button and the header count change in the
 * same frame, `adding_to_cart` fires as the request leaves, and the answer's fragments replace the page's cart
 * parts before `added_to_cart` fires with them (the fragments lifecycle stores them; the drawer opens).
 * Any component can call `addToCart`; forms marked `data-ajax-add-to-cart` use it through `bindAjaxAddToCart`.
 */

interface AddToCartInput {
  productId: number;
  quantity?: number | string;
  variationId?: number | null;
  /** Chosen values keyed `attribute_{slug}`. */
  attributes?: Record<string, string>;
}

interface AddToCartOptions {
  /** The button that asked: it shows the loading state and gets the focus back when the drawer closes. */
  button?: HTMLElement | null;
  document?: Document;
  fetch?: typeof fetch;
  /** `cart.wcAjaxUrl`. */
  wcAjaxUrlTemplate?: string;
}

class AddToCartError extends Error {
  override readonly name = 'AddToCartError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function addToCart(input: AddToCartInput, options: AddToCartOptions = {}): Promise<FragmentsAnswer> {
  const document = options.document ?? globalThis.document;
  const send = options.fetch ?? globalThis.fetch.bind(globalThis);
  const button = options.button ?? null;
  const quantity = String(input.quantity ?? 1);

  button?.classList.remove('added');
  button?.classList.add('loading');
  button?.setAttribute('aria-busy', 'true');
  const restoreCount = showOptimisticCount(document, Number(quantity));

  const body = new URLSearchParams({ product_id: String(input.productId), quantity });
  if (input.variationId) body.set('variation_id', String(input.variationId));
  for (const [name, value] of Object.entries(input.attributes ?? {})) body.set(name, value);
  dispatchCartEvent(document, 'adding_to_cart', { button, data: Object.fromEntries(body) });

  try {
    const response = await send(
      wcAjaxUrl(options.wcAjaxUrlTemplate ?? readWcAjaxUrl(document), 'add_to_cart'),
      {
        method: 'POST',
        body,
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      },
    );
    const json: unknown = await response.json().catch(() => null);
    if (!response.ok) {
      const error = parseErrorAnswer(json);
      throw new AddToCartError(
        error?.code ?? 'unknown_error',
        error?.message ?? 'An unknown error occurred.',
      );
    }
    const answer = parseFragmentsAnswer(json);
    if (!answer) throw new AddToCartError('invalid_json', 'The response is not a valid JSON response.');
    replaceFragments(document, answer.fragments);
    button?.classList.add('added');
    dispatchCartEvent(document, 'added_to_cart', { ...answer, button });
    return answer;
  } catch (error) {
    restoreCount();
    if (error instanceof AddToCartError) throw error;
    throw new AddToCartError('fetch_error', 'You are probably offline.');
  } finally {
    button?.classList.remove('loading');
    button?.removeAttribute('aria-busy');
  }
}

/** Bumps every header count at once; returns how to undo it if the request fails. */
function showOptimisticCount(document: Document, quantity: number): () => void {
  const counts = Array.from(document.querySelectorAll<HTMLElement>('.cart-contents__count'));
  const before = counts.map((count) => count.textContent ?? '');
  if (Number.isInteger(quantity) && quantity > 0) {
    for (const count of counts) {
      const current = Number(count.textContent);
      if (Number.isInteger(current)) count.textContent = String(current + quantity);
    }
  }
  return () => {
    counts.forEach((count, index) => {
      if (count.isConnected) count.textContent = before[index] ?? '';
    });
  };
}

function readWcAjaxUrl(document: Document): string {
  try {
    const settings = JSON.parse(document.getElementById('shop-settings')?.textContent ?? '{}');
    if (typeof settings?.cart?.wcAjaxUrl === 'string') return settings.cart.wcAjaxUrl;
  } catch {
    // fall through to WooCommerce's default
  }
  return '/?wc-ajax=%%endpoint%%';
}

/**
 * Sends the add-to-cart forms marked `data-ajax-add-to-cart` (archive cards, simple products) without a page load.
 * When the server refuses, the form is posted the ordinary way so the shopper sees the product again with the
 * reason, as without JavaScript.
 */
export function bindAjaxAddToCart(document: Document, options: { wcAjaxUrlTemplate: string }): () => void {
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target as HTMLFormElement | null;
    // A form's own handler may have refused the submission (a variable product with options missing).
    if (event.defaultPrevented || !form?.matches?.('form[data-ajax-add-to-cart]')) return;
    const submitter = event.submitter as HTMLButtonElement | null;
    const data = new FormData(form, submitter);
    const productId = Number(data.get('add-to-cart'));
    if (!Number.isInteger(productId) || productId <= 0) return;
    event.preventDefault();
    const button = submitter ?? form.querySelector<HTMLElement>('button[type="submit"]');
    const attributes: Record<string, string> = {};
    for (const [name, value] of data) {
      if (name.startsWith('attribute_') && typeof value === 'string') attributes[name] = value;
    }
    const variationId = Number(data.get('variation_id'));
    addToCart(
      {
        productId,
        quantity: String(data.get('quantity') ?? '1'),
        variationId: Number.isInteger(variationId) && variationId > 0 ? variationId : null,
        attributes,
      },
      { button, document, wcAjaxUrlTemplate: options.wcAjaxUrlTemplate },
    ).catch(() => submitNatively(form, submitter));
  };
  document.addEventListener('submit', onSubmit);
  return () => document.removeEventListener('submit', onSubmit);
}
