import { describe, expect, it } from 'vitest';
import type { ProductAttribute } from '../types';
import { describeValueState } from './describeValueState';

const attribute = (slug: string, name: string, options: [string, string][]): ProductAttribute => ({
  id: 1,
  slug,
  name,
  swatchType: 'label',
  visible: true,
  forVariations: true,
  options: options.map(([optionSlug, optionName]) => ({
    slug: optionSlug,
    name: optionName,
    color: null,
    image: null,
    swatchType: null,
  })),
});
const attributes = [
  attribute('pa_color', 'Color', [
    ['red', 'Red'],
    ['blue', 'Blue'],
  ]),
  attribute('logo', 'Logo', [
    ['yes', 'Yes'],
    ['no', 'No'],
  ]),
  attribute('pa_size', 'Size', [['l', 'Large']]),
];
const choices = { attribute_pa_color: 'red', attribute_logo: 'yes', attribute_pa_size: 'l' };

describe('describeValueState', () => {
  it('names the choices that rule a value out, by their display names', () => {
    const state = { status: 'impossible' as const, conflicts: ['attribute_logo'] };
    expect(describeValueState(state, attributes, choices, 'attribute_pa_color')).toBe(
      'Not available with Logo: Yes',
    );
  });

  it('names every other choice when only their combination rules it out', () => {
    const state = { status: 'impossible' as const, conflicts: [] };
    expect(describeValueState(state, attributes, choices, 'attribute_pa_color')).toBe(
      'Not available with Logo: Yes, Size: Large',
    );
  });

  it('says a sold-out value is out of stock, and says nothing of an available one', () => {
    expect(
      describeValueState({ status: 'outofstock', conflicts: [] }, attributes, choices, 'attribute_logo'),
    ).toBe('Out of stock');
    expect(
      describeValueState(
        { status: 'outofstock', conflicts: ['attribute_pa_color'] },
        attributes,
        choices,
        'attribute_logo',
      ),
    ).toBe('Out of stock with Color: Red');
    expect(
      describeValueState({ status: 'available', conflicts: [] }, attributes, choices, 'attribute_logo'),
    ).toBeNull();
  });

  it('words every description with the translation strings it is given', () => {
    const french = {
      outOfStock: 'Rupture de stock',
      outOfStockWith: 'Rupture de stock avec %s',
      notAvailable: 'Indisponible',
      notAvailableWith: 'Indisponible avec %s',
    };
    const impossible = { status: 'impossible' as const, conflicts: ['attribute_logo'] };
    expect(describeValueState(impossible, attributes, choices, 'attribute_pa_color', french)).toBe(
      'Indisponible avec Logo: Yes',
    );
    const soldOutWith = { status: 'outofstock' as const, conflicts: ['attribute_pa_color'] };
    expect(describeValueState(soldOutWith, attributes, choices, 'attribute_logo', french)).toBe(
      'Rupture de stock avec Color: Red',
    );
    const soldOut = { status: 'outofstock' as const, conflicts: [] };
    expect(describeValueState(soldOut, attributes, {}, 'attribute_logo', french)).toBe('Rupture de stock');
    expect(describeValueState({ status: 'impossible', conflicts: [] }, attributes, {}, 'x', french)).toBe(
      'Indisponible',
    );
  });

  it('says "Not available" in English when no choice is to blame, and "Out of stock" when the blamed one is unchosen', () => {
    expect(
      describeValueState({ status: 'impossible', conflicts: [] }, attributes, {}, 'attribute_logo'),
    ).toBe('Not available');
    const soldOut = { status: 'outofstock' as const, conflicts: ['attribute_pa_size'] };
    expect(describeValueState(soldOut, attributes, { attribute_pa_color: 'red' }, 'attribute_logo')).toBe(
      'Out of stock',
    );
  });

  it('names a chosen value the attribute does not list by the value itself', () => {
    const state = { status: 'impossible' as const, conflicts: ['attribute_logo'] };
    expect(describeValueState(state, attributes, { attribute_logo: 'gold-foil' }, 'attribute_pa_color')).toBe(
      'Not available with Logo: gold-foil',
    );
  });
});
