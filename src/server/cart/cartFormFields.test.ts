import { describe, expect, it } from 'vitest';
import { isShopError } from '../../shared/errors/ShopError';
import { addToCartRequests, attributeFields, quantityChanges } from './cartForm';

/* What the cart's form posts ask for, read from their fields alone (the HTTP tests cover what the cart then does). */

const KEY = 'a'.repeat(32);
const OTHER = 'b'.repeat(32);

function errorCode(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isShopError(error) ? error.code : 'not a shop error';
  }
  return undefined;
}

describe('addToCartRequests', () => {
  it('reads one line of a simple or variable product, one by default', () => {
    expect(addToCartRequests({ 'add-to-cart': '7' }, 7)).toEqual([
      { productId: 7, variationId: null, quantity: 1, attributes: {} },
    ]);
    expect(
      addToCartRequests({ quantity: ' 3 ', variation_id: '9', attribute_color: 'oat', other: 'x' }, 7),
    ).toEqual([{ productId: 7, variationId: 9, quantity: 3, attributes: { attribute_color: 'oat' } }]);
  });

  it('reads a grouped product as one line per child, skipping children left at 0', () => {
    expect(addToCartRequests({ 'quantity[11]': '2', 'quantity[12]': '0' }, 10)).toEqual([
      { productId: 11, variationId: null, quantity: 2, attributes: {} },
    ]);
    expect(errorCode(() => addToCartRequests({ 'quantity[11]': '0' }, 10))).toBe('invalid_quantity');
  });

  it('refuses a quantity that is not a whole number', () => {
    for (const quantity of ['1e3', '2.5', '-1', 'abc']) {
      expect(
        errorCode(() => addToCartRequests({ quantity }, 7)),
        quantity,
      ).toBe('invalid_request');
    }
  });
});

describe('quantityChanges', () => {
  it("reads the Update button's quantities and the Remove link's one line", () => {
    expect(
      quantityChanges({ [`cart[${KEY}][qty]`]: '4', [`cart[${OTHER}][qty]`]: '0', _wpnonce: 'n' }),
    ).toEqual([
      [KEY, 4],
      [OTHER, 0],
    ]);
    expect(quantityChanges({ remove_item: KEY, [`cart[${OTHER}][qty]`]: '4' })).toEqual([[KEY, 0]]);
  });
});

describe('attributeFields', () => {
  it('keeps only attribute_* fields of sane names and lengths', () => {
    expect(
      attributeFields({
        attribute_size: 'm',
        'attribute_Bad Name': 'x',
        attribute_long: 'x'.repeat(201),
        size: 'l',
      }),
    ).toEqual({ attribute_size: 'm' });
  });
});
