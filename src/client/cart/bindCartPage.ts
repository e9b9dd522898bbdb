import { raiseQuantitiesToMinimum } from './bindQuantityButtons';
import { blockElement } from './blockOverlay';
import { dispatchCartEvent } from './cartEvents';
import { submitNatively } from './submitNatively';

/*
 * The cart page without reloads (WooCommerce's cart.js): its form (update, remove) is posted in the background,
 * the page's main area is replaced with the server's answer (the same page a reload would show, notices included),
 * and `updated_wc_div` fires, which refreshes the fragments. If anything fails, the form posts the ordinary way.
 */
export function bindCartPage(document: Document): () => void {
  const onSubmit = (event: SubmitEvent) => {
    const form = event.target as HTMLFormElement | null;
    if (!form?.matches?.('form.woocommerce-cart-form')) return;
    event.preventDefault();
    const submitter = event.submitter as HTMLButtonElement | null;
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(form, submitter)) {
      if (typeof value === 'string') body.append(name, value);
    }
    const main = document.querySelector<HTMLElement>('main#main');
    const area = form.closest<HTMLElement>('.cart-page') ?? form;
    const unblock = blockElement(area);
    void (async () => {
      try {
        const response = await fetch(form.action, { method: 'POST', body, credentials: 'same-origin' });
        const html = await response.text();
        const next = new DOMParser().parseFromString(html, 'text/html').querySelector('main#main');
        if (!main || !next) throw new Error('The cart page answered without its main area');
        main.replaceChildren(...Array.from(next.childNodes, (node) => document.importNode(node, true)));
        raiseQuantitiesToMinimum(main);
        // The answer's notice ("Cart updated.", an error) is scrolled to and focused 500 ms later by the theme's
        // notice handling, which sees it arrive: keyboard users land on the outcome, as on every other page.
        dispatchCartEvent(document, 'updated_wc_div');
      } catch {
        unblock();
        submitNatively(form, submitter);
      }
    })();
  };
  document.addEventListener('submit', onSubmit);
  return () => document.removeEventListener('submit', onSubmit);
}
