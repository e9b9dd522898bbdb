import { describe, expect, it } from 'vitest';
import type { Variation } from '../types';
import { selectVariation } from './selectVariation';

const variation = (id: number, size: string, is_in_stock: boolean): Variation => ({
  id,
  sku: null,
  attributes: { attribute_pa_color: 'red', attribute_pa_size: size },
  price: 100,
  regularPrice: 100,
  salePrice: null,
  is_in_stock,
  max_qty: null,
  variation_stock_left: null,
  image: null,
});
const fields = ['attribute_pa_color', 'attribute_pa_size'];

describe('selectVariation', () => {
  it('needs every attribute chosen', () => {
    expect(selectVariation([variation(1, '', true)], fields, { attribute_pa_color: 'red' })).toBeNull();
  });

  it('prefers an in-stock match to an earlier sold-out "any" one, else takes the first match', () => {
    const list = [variation(1, '', false), variation(2, 'l', true)];
    expect(selectVariation(list, fields, { attribute_pa_color: 'red', attribute_pa_size: 'l' })?.id).toBe(2);
    expect(selectVariation(list, fields, { attribute_pa_color: 'red', attribute_pa_size: 's' })?.id).toBe(1);
    expect(selectVariation(list, fields, { attribute_pa_color: 'blue', attribute_pa_size: 's' })).toBeNull();
  });

  it('lets a variation that does not name an attribute at all match any value of it', () => {
    const colourOnly: Variation = { ...variation(3, 'l', true), attributes: { attribute_pa_color: 'red' } };
    expect(
      selectVariation([colourOnly], fields, { attribute_pa_color: 'red', attribute_pa_size: 'xl' })?.id,
    ).toBe(3);
  });
});
