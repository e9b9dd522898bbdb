import { describe, expect, it } from 'vitest';
import type { AttributeOption, ProductAttribute, SwatchType } from '../../shared/catalog/types';
import { resolveSwatchType } from './resolveSwatchType';

const option = (slug: string, look: Partial<AttributeOption> = {}): AttributeOption => ({
  slug,
  name: slug,
  color: null,
  image: null,
  swatchType: null,
  ...look,
});
const attribute = (swatchType: SwatchType, options: AttributeOption[]): ProductAttribute => ({
  id: 1,
  slug: 'a',
  name: 'A',
  swatchType,
  visible: true,
  forVariations: true,
  options,
});

describe('resolveSwatchType', () => {
  it("uses the term's own type over its attribute's", () => {
    const blue = option('blue', { image: '/swatch-images/1.svg', swatchType: 'image' });
    expect(resolveSwatchType(attribute('color', [blue]), blue)).toBe('image');
    const red = option('red', { color: '#f00' });
    expect(resolveSwatchType(attribute('color', [red]), red)).toBe('color');
  });

  it('falls back to a label when a colour or image is missing', () => {
    const plain = option('plain');
    expect(resolveSwatchType(attribute('color', [plain]), plain)).toBe('label');
    expect(resolveSwatchType(attribute('image', [plain]), plain)).toBe('label');
    expect(resolveSwatchType(attribute('radio', [plain]), plain)).toBe('radio');
  });

  it('gives an unconfigured attribute colours or images when every value has one, else labels', () => {
    const colours = [option('a', { color: '#000' }), option('b', { color: '#fff' })];
    expect(resolveSwatchType(attribute('select', colours), colours[0] as AttributeOption)).toBe('color');
    const images = [option('a', { image: '/swatch-images/1.svg' })];
    expect(resolveSwatchType(attribute('select', images), images[0] as AttributeOption)).toBe('image');
    const mixed = [option('a', { color: '#000' }), option('b')];
    expect(resolveSwatchType(attribute('select', mixed), mixed[0] as AttributeOption)).toBe('label');
  });
});
