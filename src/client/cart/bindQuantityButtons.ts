import { raiseToMinimum, readQuantityRules, stepQuantity } from './quantityRules';

/**
 * Drives every QuantityInput on the page, including ones that arrive later in fragments or cart page updates:
 * one delegated click listener for the buttons, and the minimum rule applied on load.
 */
export function bindQuantityButtons(document: Document): () => void {
  raiseQuantitiesToMinimum(document);
  const onClick = (event: MouseEvent) => {
    const button = (event.target as Element | null)?.closest?.<HTMLButtonElement>(
      'button[data-quantity-step]',
    );
    const input = button?.closest('.quantity')?.querySelector<HTMLInputElement>('input.qty');
    if (!button || !input || input.disabled) return;
    event.preventDefault();
    const direction = button.dataset.quantityStep === '-1' ? -1 : 1;
    const next = stepQuantity(input.value, rulesOf(input), direction);
    if (next === input.value) return;
    input.value = next;
    // Listeners (the mini-cart's update, React forms) hear the change as if typed.
    input.dispatchEvent(new Event('input', { bubbles: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
  };
  document.addEventListener('click', onClick);
  return () => document.removeEventListener('click', onClick);
}

export function raiseQuantitiesToMinimum(root: ParentNode) {
  for (const input of root.querySelectorAll<HTMLInputElement>('.quantity input.qty')) {
    input.value = raiseToMinimum(input.value, rulesOf(input));
  }
}

function rulesOf(input: HTMLInputElement) {
  return readQuantityRules({
    min: input.getAttribute('min'),
    max: input.getAttribute('max'),
    step: input.getAttribute('step'),
  });
}
