import { describe, expect, it } from 'vitest';
import { quoteCheckout } from './checkoutQuote';
import { taxIncluded, taxOnTop, taxRateFor } from './tax';

/* Every figure below is worked by hand; amounts are cents. */

describe('tax on one line', () => {
  it('adds the rate to prices entered without tax, rounded to the cent', () => {
    // 19.99 × 7.25 % = 1.449275 → 1.45
    expect(taxOnTop(1999, 7.25)).toBe(145);
    // 10.00 × 20 % = 2.00 exactly
    expect(taxOnTop(1000, 20)).toBe(200);
    // 0.05 × 10 % = 0.005: a half cent rounds up (PHP's round, WooCommerce's default)
    expect(taxOnTop(5, 10)).toBe(1);
    // 0.04 × 10 % = 0.004 → 0
    expect(taxOnTop(4, 10)).toBe(0);
    // 12.34 × 8.875 % = 1.0951750 → 1.10 (four-decimal rates are exact)
    expect(taxOnTop(1234, 8.875)).toBe(110);
  });

  it('takes the tax out of prices entered with it: price × rate / (100 + rate)', () => {
    // 10.00 incl. 20 % → 1.6666… → 1.67
    expect(taxIncluded(1000, 20)).toBe(167);
    // 12.00 incl. 20 % → 2.00 exactly
    expect(taxIncluded(1200, 20)).toBe(200);
    // 1.05 incl. 5 % → 0.05 exactly
    expect(taxIncluded(105, 5)).toBe(5);
    // 0.21 incl. 5 % → 0.01 (0.01 exactly: 21 × 5 / 105)
    expect(taxIncluded(21, 5)).toBe(1);
    // 0.63 incl. 5 % → 0.03 (63 × 5 / 105 = 3); 0.52 → 2.476… → 0.02
    expect(taxIncluded(63, 5)).toBe(3);
    expect(taxIncluded(52, 5)).toBe(2);
  });

  it('is no tax at a zero rate', () => {
    expect(taxOnTop(1999, 0)).toBe(0);
    expect(taxIncluded(1999, 0)).toBe(0);
  });
});

describe('the rate for an address', () => {
  const rates = [
    { country: '*', state: '', rate: 5, label: 'Tax', shipping: true },
    { country: 'US', state: '', rate: 0, label: 'Tax', shipping: false },
    { country: 'US', state: 'CA', rate: 7.25, label: 'CA tax', shipping: true },
  ];

  it("takes the state's rate over the country's, and the country's over the catch-all", () => {
    expect(taxRateFor(rates, { country: 'US', state: 'CA' })?.rate).toBe(7.25);
    expect(taxRateFor(rates, { country: 'US', state: 'NY' })?.rate).toBe(0);
    expect(taxRateFor(rates, { country: 'DE', state: '' })?.rate).toBe(5);
    expect(taxRateFor(rates.slice(1), { country: 'DE', state: '' })).toBeNull();
  });
});

describe('an order priced per line', () => {
  const zones = [
    {
      name: 'All',
      regions: [],
      postcodes: [],
      methods: [{ type: 'flat_rate' as const, title: 'Flat rate', cost: 500 }],
    },
  ];
  const california = { country: 'US', state: 'CA', postcode: '94105' };

  it('rounds each line, so two half cents make two cents, not one', () => {
    // Two lines of 1.05 at 10 %: 0.105 each → 0.11 each → 0.22 (0.21 if rounded on the subtotal).
    const quote = quoteCheckout(
      {
        pricesIncludeTax: false,
        taxRates: [{ country: 'US', state: '', rate: 10, label: 'Tax', shipping: false }],
        shippingZones: zones,
      },
      [
        { key: 'a', lineTotal: 105 },
        { key: 'b', lineTotal: 105 },
      ],
      california,
      null,
    );
    expect(quote.lines.map((line) => line.lineTax)).toEqual([11, 11]);
    expect(quote.totals).toEqual({
      subtotal: 210,
      shippingTotal: 500,
      shippingTax: 0,
      itemsTax: 22,
      taxTotal: 22,
      total: 210 + 22 + 500,
    });
  });

  it('taxes shipping at the rate when the rate says so, shipping costs being entered without tax', () => {
    // 3 × 19.99 = 59.97 → 59.97 × 7.25 % = 4.347825 → 4.35; 12.00 → 0.87; shipping 5.00 → 0.3625 → 0.36.
    const quote = quoteCheckout(
      {
        pricesIncludeTax: false,
        taxRates: [{ country: 'US', state: 'CA', rate: 7.25, label: 'CA tax', shipping: true }],
        shippingZones: zones,
      },
      [
        { key: 'mugs', lineTotal: 5997 },
        { key: 'bowl', lineTotal: 1200 },
      ],
      california,
      null,
    );
    expect(quote.taxLabel).toBe('CA tax');
    expect(quote.totals).toEqual({
      subtotal: 7197,
      shippingTotal: 500,
      shippingTax: 36,
      itemsTax: 435 + 87,
      taxTotal: 435 + 87 + 36,
      total: 7197 + 522 + 500 + 36,
    });
  });

  it('keeps prices that include tax as they are and says how much tax they hold', () => {
    // 10.00 incl. 20 % holds 1.67; 24.00 holds 4.00; shipping 5.00 + 20 % = 1.00.
    const quote = quoteCheckout(
      {
        pricesIncludeTax: true,
        taxRates: [{ country: 'GB', state: '', rate: 20, label: 'VAT', shipping: true }],
        shippingZones: zones,
      },
      [
        { key: 'a', lineTotal: 1000 },
        { key: 'b', lineTotal: 2400 },
      ],
      { country: 'GB', state: '', postcode: 'SW1A 1AA' },
      null,
    );
    expect(quote.totals).toEqual({
      subtotal: 3400,
      shippingTotal: 500,
      shippingTax: 100,
      itemsTax: 167 + 400,
      taxTotal: 667,
      total: 3400 + 500 + 100,
    });
  });

  it('uses the method the shopper chose while the address still offers it, else the cheapest', () => {
    const twoMethods = [
      {
        name: 'All',
        regions: [],
        postcodes: [],
        methods: [
          { type: 'flat_rate' as const, title: 'Express', cost: 1500 },
          { type: 'flat_rate' as const, title: 'Ground', cost: 500 },
        ],
      },
    ];
    const settings = { pricesIncludeTax: false, taxRates: [], shippingZones: twoMethods };
    const lines = [{ key: 'a', lineTotal: 1000 }];
    expect(quoteCheckout(settings, lines, california, null).chosen?.title).toBe('Ground');
    const chosen = quoteCheckout(settings, lines, california, 'flat_rate:1');
    expect(chosen).toMatchObject({ chosen: { title: 'Express' }, choiceRefused: false });
    expect(chosen.totals.total).toBe(2500);
    const gone = quoteCheckout(settings, lines, california, 'local_pickup:9');
    expect(gone).toMatchObject({ chosen: { title: 'Ground' }, choiceRefused: true });
  });
});
