// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { bindQuantityButtons } from './bindQuantityButtons';

const control = (attributes: string, value: string) => `
  <div class="quantity">
    <label for="q">Quantity</label>
    <button type="button" data-quantity-step="-1">Decrease quantity</button>
    <input id="q" class="qty" type="number" ${attributes} value="${value}">
    <button type="button" data-quantity-step="1">Increase quantity</button>
  </div>`;

let unbind: () => void = () => {};
afterEach(() => unbind());

function setUp(attributes: string, value: string) {
  document.body.innerHTML = control(attributes, value);
  unbind = bindQuantityButtons(document);
  const input = document.querySelector<HTMLInputElement>('input.qty') as HTMLInputElement;
  const [minus, plus] = [...document.querySelectorAll<HTMLButtonElement>('button')] as [
    HTMLButtonElement,
    HTMLButtonElement,
  ];
  return { input, minus, plus };
}

describe('bindQuantityButtons', () => {
  it('raises a value below a positive minimum on load', () => {
    expect(setUp('min="3"', '1').input.value).toBe('3');
  });

  it('steps within min and max, and announces each change as input and change events', () => {
    const { input, minus, plus } = setUp('min="1" max="3"', '2');
    const heard: string[] = [];
    document.addEventListener('input', () => heard.push('input'));
    document.addEventListener('change', () => heard.push('change'));
    plus.click();
    plus.click();
    expect(input.value).toBe('3');
    minus.click();
    minus.click();
    minus.click();
    expect(input.value).toBe('1');
    // Three real changes; presses that change nothing announce nothing.
    expect(heard).toEqual(['input', 'change', 'input', 'change', 'input', 'change']);
  });

  it('works for controls added after binding (fragments)', () => {
    const { plus } = setUp('min="0"', '0');
    plus.click();
    const later = document.createElement('div');
    later.innerHTML = control('min="0" step="0.5"', '1');
    document.body.append(later);
    later.querySelector<HTMLButtonElement>('[data-quantity-step="1"]')?.click();
    expect(later.querySelector<HTMLInputElement>('input')?.value).toBe('1.5');
  });
});
