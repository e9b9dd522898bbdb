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

  it('says nothing of shipping or tax for an order made before shipping existed (shipping null, no tax)', () => {
    for (const kind of ORDER_MAIL_KINDS) {
      const mail = renderOrderMail(kind, ORDER, CONFIG);
      for (const part of [mail.text, visibleText(mail.html)]) {
        expect(part).not.toContain('Shipping');
        expect(part).not.toContain('Tax');
        expect(part).not.toContain('includes');
        expect(part).not.toContain('bank details');
        expect(part).toContain('Billing address');
      }
    }
  });

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

/*
 * An order that ships, priced by hand with Illinois' 6.25 %, taxing shipping, prices without tax:
 * shirts 2 × 20,00 = 40,00, tax 2,50; mug 13,50, tax 0,84375 → 0,84; flat rate 5,00, tax 0,3125 → 0,31.
 * Tax 2,50 + 0,84 + 0,31 = 3,65; total 53,50 + 5,00 + 3,65 = 62,15. Billed in Springfield, shipped to New York.
 */
const US_ADDRESS = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  company: '',
  address1: '12 Analytical Row',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  postcode: '62701',
  country: 'US',
};
const SHIPPED: Order = {
  ...ORDER,
  paymentMethod: 'bacs',
  billing: { ...US_ADDRESS, email: 'ada@example.com', phone: '+1 555 123 4567' },
  shippingAddress: {
    ...US_ADDRESS,
    firstName: 'Charles',
    lastName: 'Babbage',
    address1: '350 Fifth Ave',
    city: 'New York',
    state: 'NY',
    postcode: '10118',
  },
  shipping: { methodId: 'flat_rate:1', title: 'Flat rate', cost: 500, tax: 31 },
  taxTotal: 365,
  taxLabel: 'IL tax',
  total: 6215,
  lines: ORDER.lines.map((line) => ({ ...line, lineTax: line.lineTotal === 4000 ? 250 : 84 })),
};
const WITH_BANK = parseSettings({
  shop: {
    name: 'Fern & Flax',
    currency: { code: 'EUR', symbol: '€', position: 'right_space', decimalSeparator: ',' },
  },
  checkout: {
    payment: {
      bacs: {
        accounts: [
          {
            accountName: 'Fern & Flax Ltd',
            accountNumber: '12345678',
            bankName: 'Thames Bank',
            sortCode: '01-02-03',
          },
          { accountName: '', iban: 'DE89 3704 0044 0532 0130 00', bic: 'COBADEFFXXX' },
        ],
      },
    },
  },
});

describe('order mail for an order that ships, with tax', () => {
  for (const kind of ORDER_MAIL_KINDS) {
    it(`${kind} shows the shipping line, the tax row, the total and both addresses`, () => {
      const mail = renderOrderMail(kind, SHIPPED, WITH_BANK);
      expect(mail.text).toContain(
        'Subtotal: 53,50\u00a0€\nShipping: Flat rate (5,00\u00a0€)\nIL tax: 3,65\u00a0€\n',
      );
      expect(mail.text).toContain('Total: 62,15\u00a0€\n');
      expect(mail.text).toContain(
        'Billing address:\nAda Lovelace\n12 Analytical Row\nSpringfield, IL 62701\nUnited States\nada@example.com',
      );
      expect(mail.text).toContain(
        'Shipping address:\nCharles Babbage\n350 Fifth Ave\nNew York, NY 10118\nUnited States\n',
      );
      const html = visibleText(mail.html);
      expect(html).toContain('Subtotal 53,50\u00a0€ Shipping Flat rate (5,00\u00a0€) IL tax 3,65\u00a0€');
      expect(html).toContain('Total 62,15\u00a0€');
      expect(html).toContain(
        'Billing address Ada Lovelace 12 Analytical Row Springfield, IL 62701 United States',
      );
      expect(html).toContain(
        'Shipping address Charles Babbage 350 Fifth Ave New York, NY 10118 United States',
      );
      expect(html).not.toContain('includes');
    });
  }

  it('says "Free" for a method that costs nothing', () => {
    const pickup: Order = {
      ...SHIPPED,
      shipping: { methodId: 'local_pickup:3', title: 'Local pickup', cost: 0, tax: 0 },
      taxTotal: 334,
      total: 5684,
    };
    const mail = renderOrderMail('order_completed', pickup, WITH_BANK);
    expect(mail.text).toContain('Shipping: Local pickup (Free)\n');
    expect(visibleText(mail.html)).toContain('Shipping Local pickup (Free)');
  });

  it('writes a tax the prices include after the total, as WooCommerce does, with no tax row', () => {
    // Prices with 6.25 % in them: 40,00 × 6,25 / 106,25 = 2,3529 → 2,35; 13,50 → 0,7941 → 0,79; shipping's
    // 0,31 on top. Tax 3,45; total 53,50 + 5,00 + 0,31 = 58,81.
    const included: Order = {
      ...SHIPPED,
      pricesIncludeTax: true,
      taxLabel: 'VAT',
      taxTotal: 345,
      total: 5881,
    };
    for (const kind of ORDER_MAIL_KINDS) {
      const mail = renderOrderMail(kind, included, WITH_BANK);
      expect(mail.text).toContain('Total: 58,81\u00a0€ (includes 3,45\u00a0€ VAT)\n');
      expect(mail.text).not.toContain('VAT:');
      const html = visibleText(mail.html);
      expect(html).toContain('Total 58,81\u00a0€ (includes 3,45\u00a0€ VAT)');
      expect(html).not.toMatch(/VAT 3,45/);
    }
  });

  it('gives the bank details and the reference in the "order received" mail of a bank-transfer order only', () => {
    const received = renderOrderMail('order_received', SHIPPED, WITH_BANK);
    expect(received.text).toContain(
      [
        'Our bank details',
        'Use your order number as the payment reference: 4711.',
        '',
        'Fern & Flax Ltd',
        'Bank: Thames Bank',
        'Account number: 12345678',
        'Sort code: 01-02-03',
        '',
        'IBAN: DE89 3704 0044 0532 0130 00',
        'BIC: COBADEFFXXX',
      ].join('\n'),
    );
    expect(visibleText(received.html)).toContain(
      'Our bank details Use your order number as the payment reference: 4711. Fern & Flax Ltd Bank: Thames Bank Account number: 12345678 Sort code: 01-02-03 IBAN: DE89 3704 0044 0532 0130 00 BIC: COBADEFFXXX',
    );
    for (const kind of ORDER_MAIL_KINDS.filter((each) => each !== 'order_received')) {
      const later = renderOrderMail(kind, SHIPPED, WITH_BANK);
      expect(later.text).not.toContain('12345678');
      expect(later.html).not.toContain('12345678');
    }
    const cod = renderOrderMail('order_received', { ...SHIPPED, paymentMethod: 'cod' }, WITH_BANK);
    expect(cod.text).not.toContain('Our bank details');
    expect(cod.html).not.toContain('12345678');
    expect(received.text).toContain('Payment method: Direct bank transfer');
  });
});
