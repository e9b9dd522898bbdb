// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { replaceFragments } from './replaceFragments';

describe('replaceFragments', () => {
  it('replaces every element a selector matches with the markup, and leaves the rest', () => {
    document.body.innerHTML = `
      <header><a class="cart-contents" href="/cart/">Cart <span>0</span></a></header>
      <aside><div class="widget_shopping_cart_content">old</div></aside>
      <footer><a class="cart-contents" href="/cart/">Cart <span>0</span></a></footer>
      <p id="other">untouched</p>`;
    replaceFragments(document, {
      'a.cart-contents': '<a class="cart-contents" href="/cart/">Cart <span>2</span></a>',
      'div.widget_shopping_cart_content':
        '<div class="widget_shopping_cart_content"><ul><li>Mug</li></ul></div>',
      'div.not-on-this-page': '<div>ignored</div>',
    });
    expect([...document.querySelectorAll('a.cart-contents span')].map((span) => span.textContent)).toEqual([
      '2',
      '2',
    ]);
    expect(document.querySelector('aside')?.innerHTML).toBe(
      '<div class="widget_shopping_cart_content"><ul><li>Mug</li></ul></div>',
    );
    expect(document.getElementById('other')?.textContent).toBe('untouched');
    expect(document.body.textContent).not.toContain('ignored');
  });

  it('skips a selector the browser cannot parse instead of stopping', () => {
    document.body.innerHTML = '<div class="widget_shopping_cart_content">old</div>';
    replaceFragments(document, {
      'div[': '<div>broken</div>',
      'div.widget_shopping_cart_content': '<div class="widget_shopping_cart_content">new</div>',
    });
    expect(document.body.textContent).toBe('new');
  });
});
