import { describe, expect, it } from 'vitest';
import type { ProductAttribute } from '../types';
import { choicesFromQuery } from './choicesFromQuery';

const color: ProductAttribute = {
  id: 1,
  slug: 'pa_color',
  name: 'Color',
  swatchType: 'color',
  visible: true,
  forVariations: true,
  options: ['red', 'blue'].map((slug) => ({ slug, name: slug, color: null, image: null, swatchType: null })),
};

describe('choicesFromQuery', () => {
  it('keeps known values of known attributes, from a query object or URLSearchParams', () => {
    expect(choicesFromQuery([color], { attribute_pa_color: 'blue', attribute_pa_size: 'l' })).toEqual({
      attribute_pa_color: 'blue',
    });
    expect(choicesFromQuery([color], new URLSearchParams('attribute_pa_color=red&x=1'))).toEqual({
      attribute_pa_color: 'red',
    });
  });

  it('drops unknown values and repeated parameters', () => {
    expect(choicesFromQuery([color], { attribute_pa_color: 'purple' })).toEqual({});
    expect(choicesFromQuery([color], { attribute_pa_color: ['red', 'blue'] })).toEqual({});
  });
});
