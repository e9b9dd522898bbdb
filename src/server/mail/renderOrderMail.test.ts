import { describe, expect, it } from 'vitest';
import { ORDER_MAIL_KINDS } from '../../shared/orders/orderMail';
import type { Order } from '../../shared/orders/orderTypes';
import { parseSettings } from '../../shared/settings/parseSettings';
import { renderOrderMail } from './renderOrderMail';

const ORDER: Order = {
  id: 4711,
  orderKey: 'wc_order_SECRETKEY123',
  status: 'processing',
  currency: 'EUR',
  subtotal: 5350,
  total: 5350,
  paymentMethod: 'cod',
  customerNote: 'Leave it at the door',
  createdAt: '2026-03-14T09:26:53.000Z',
  billing: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    company: '',
    address1: '12 Analytical Row',
    address2: '',
    city: 'Springfield',
    state: '',
    postcode: '12345',
    country: 'GB',
    email: 'ada@example.com',
    phone: '+44 20 1234 5678',
  },
  shippingAddress: {
    firstName: 'Ada',
    lastName: 'Lovelace',
    company: '',
    address1: '12 Analytical Row',
    address2: '',
    city: 'Springfield',
    state: '',
    postcode: '12345',
    country: 'GB',
  },
  shipping: null,
  taxTotal: 0,
  taxLabel: 'Tax',
  pricesIncludeTax: false,
  lines: [
    {
      productId: 1,
      variationId: 11,
      name: 'Linen shirt',
      sku: 'LS-1',
      attributes: { Colour: 'Sage', Size: 'M' },
      quantity: 2,
      unitPrice: 2000,
      lineTotal: 4000,
      lineTax: 0,
    },
    {
      productId: 2,
      variationId: null,
      name: 'Mug',
      sku: null,
      attributes: {},
      quantity: 1,
      unitPrice: 1350,
      lineTotal: 1350,
      lineTax: 0,
    },
  ],
};

const CONFIG = parseSettings({
  shop: {
    name: 'Fern & Flax',
    currency: { code: 'EUR', symbol: '€', position: 'right_space', decimalSeparator: ',' },
  },
  server: { mail: { shopUrl: 'https://fern.example' } },
});

/** The HTML's visible text, tags dropped and the entities React writes decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&')
    .replace(/[ \t\r\n]+/g, ' ');
}

describe('order mail templates', () => {
  for (const kind of ORDER_MAIL_KINDS) {
    it(`renders ${kind} with the order's number, lines, totals, address and payment, as text and HTML`, () => {
      const mail = renderOrderMail(kind, ORDER, CONFIG);
      expect(mail.subject).toContain('#4711');
      expect(mail.subject).toContain('Fern & Flax');
      for (const part of [mail.text, visibleText(mail.html)]) {
        expect(part).toContain('Order #4711');
        expect(part).toContain('March 14, 2026');
        expect(part).toContain('Linen shirt');
        expect(part).toContain('Colour: Sage, Size: M');
        expect(part).toContain('Mug');
        expect(part).toContain('40,00\u00a0€');
        expect(part).toContain('13,50\u00a0€');
        expect(part).toMatch(/Subtotal:? 53,50\u00a0€/);
        expect(part).toMatch(/Total:? 53,50\u00a0€/);
        expect(part).toContain('Cash on delivery');
        expect(part).toContain('12 Analytical Row');
        expect(part).toContain('12345 Springfield');
        expect(part).toContain('United Kingdom');
        expect(part).toContain('Leave it at the door');
      }
      expect(mail.text).toMatch(/Linen shirt \(Colour: Sage, Size: M\) × 2: 40,00\u00a0€/);
      expect(mail.html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    });
  }

  it('escapes what shoppers typed: a product or customer name is text, never markup', () => {
    const hostile: Order = {
      ...ORDER,
      billing: { ...ORDER.billing, firstName: '<img src=x onerror=alert(1)>' },
      lines: [{ ...(ORDER.lines[0] as Order['lines'][number]), name: '<script>alert("x")</script>' }],
    };
    const mail = renderOrderMail('order_received', hostile, CONFIG);
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<img');
    expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(mail.text).toContain('<script>alert("x")</script>');
  });

  it("links the customer's mail to the order-received page with its key, and the owner's to the back office without it", () => {
    const customer = renderOrderMail('order_completed', ORDER, CONFIG);
    const link = 'https://fern.example/checkout/order-received/4711/?key=wc_order_SECRETKEY123';
    expect(customer.text).toContain(link);
    expect(customer.html).toContain(`href="${link}"`);
    const owner = renderOrderMail('new_order', ORDER, CONFIG);
    expect(owner.text).toContain('https://fern.example/admin/orders/4711/');
    expect(owner.text).not.toContain('SECRETKEY');
    expect(owner.html).not.toContain('SECRETKEY');
    expect(owner.text).toContain('ada@example.com');
  });

  it('has no links when the shop has no public address set', () => {
    const mail = renderOrderMail('order_received', ORDER, parseSettings({}));
    expect(mail.text).not.toContain('http');
    expect(mail.html).not.toContain('href');
    expect(mail.html).not.toContain('SECRETKEY');
    expect(mail.subject).toBe('Your Storefront order #4711 has been received');
  });
});
