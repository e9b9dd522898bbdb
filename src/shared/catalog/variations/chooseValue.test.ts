import { describe, expect, it } from 'vitest';
import type { Variation } from '../types';
import { chooseValue, isBlockedEverywhere } from './chooseValue';
import type { MatchAttribute } from './matchVariations';

const attributes: MatchAttribute[] = [
  { field: 'attribute_pa_color', values: ['red', 'green', 'blue'] },
  { field: 'attribute_logo', values: ['yes', 'no'] },
];
const hoodie: Variation[] = [
  ['red', 'no'],
  ['green', 'no'],
  ['blue', 'no'],
  ['blue', 'yes'],
].map(([color, logo], index) => ({
  id: index + 1,
  sku: null,
  attributes: { attribute_pa_color: color as string, attribute_logo: logo as string },
  price: 100,
  regularPrice: 100,
  salePrice: null,
  is_in_stock: index !== 2,
  max_qty: null,
  variation_stock_left: null,
  image: null,
}));
const off = { clearOnReselect: false, deselectUnavailable: false, clickableOutOfStock: false };

describe('chooseValue', () => {
  it('selects a value, and keeps a reselected one unless clear-on-reselect is on', () => {
    const red = chooseValue(attributes, hoodie, {}, 'attribute_pa_color', 'red', off);
    expect(red).toEqual({ attribute_pa_color: 'red' });
    expect(chooseValue(attributes, hoodie, red, 'attribute_pa_color', 'red', off)).toBe(red);
    expect(
      chooseValue(attributes, hoodie, red, 'attribute_pa_color', 'red', { ...off, clearOnReselect: true }),
    ).toEqual({});
  });

  it('ignores an impossible value, or with deselect-unavailable clears the choice that rules it out', () => {
    const red = { attribute_pa_color: 'red' };
    expect(chooseValue(attributes, hoodie, red, 'attribute_logo', 'yes', off)).toBe(red);
    expect(
      chooseValue(attributes, hoodie, red, 'attribute_logo', 'yes', { ...off, deselectUnavailable: true }),
    ).toEqual({ attribute_logo: 'yes' });
  });

  it('treats a sold-out value as blocked unless out-of-stock values are clickable', () => {
    // Blue/No (id 3) is sold out.
    const blue = { attribute_pa_color: 'blue' };
    expect(chooseValue(attributes, hoodie, blue, 'attribute_logo', 'no', off)).toBe(blue);
    expect(
      chooseValue(attributes, hoodie, blue, 'attribute_logo', 'no', { ...off, clickableOutOfStock: true }),
    ).toEqual({ attribute_pa_color: 'blue', attribute_logo: 'no' });
    // Deselecting reaches an in-stock variation: Logo No is in stock with Red and Green.
    expect(
      chooseValue(attributes, hoodie, blue, 'attribute_logo', 'no', { ...off, deselectUnavailable: true }),
    ).toEqual({ attribute_logo: 'no' });
  });

  it('with deselect-unavailable, leaves the choices alone for a value sold out in every variation', () => {
    // A third logo option whose only variation is sold out: no other choice can make it available.
    const withEngraved: MatchAttribute[] = [
      attributes[0] as MatchAttribute,
      { field: 'attribute_logo', values: ['yes', 'no', 'engraved'] },
    ];
    const soldOutEverywhere: Variation[] = [
      ...hoodie,
      {
        ...(hoodie[0] as Variation),
        id: 9,
        attributes: { attribute_pa_color: 'red', attribute_logo: 'engraved' },
        is_in_stock: false,
      },
    ];
    const rules = { ...off, deselectUnavailable: true };
    const red = { attribute_pa_color: 'red', attribute_logo: 'no' };
    expect(isBlockedEverywhere(withEngraved, soldOutEverywhere, 'attribute_logo', 'engraved', rules)).toBe(
      true,
    );
    expect(chooseValue(withEngraved, soldOutEverywhere, red, 'attribute_logo', 'engraved', rules)).toBe(red);
    // Clickable when sold-out values are: chosen as the sold-out variation it is, Color kept.
    expect(
      chooseValue(withEngraved, soldOutEverywhere, red, 'attribute_logo', 'engraved', {
        ...rules,
        clickableOutOfStock: true,
      }),
    ).toEqual({ attribute_pa_color: 'red', attribute_logo: 'engraved' });
    // A value only the other choices block is still worth clearing them for.
    expect(isBlockedEverywhere(withEngraved, soldOutEverywhere, 'attribute_logo', 'yes', rules)).toBe(false);
  });

  describe('with deselect-unavailable, among three attributes', () => {
    const three: MatchAttribute[] = [
      { field: 'attribute_pa_color', values: ['red', 'blue'] },
      { field: 'attribute_pa_size', values: ['s', 'l'] },
      { field: 'attribute_logo', values: ['yes', 'no'] },
    ];
    const shirts: Variation[] = [
      ['red', 's', 'no'],
      ['red', 'l', 'yes'],
      ['blue', 's', 'yes'],
    ].map(([color, size, logo], index) => ({
      ...(hoodie[0] as Variation),
      id: index + 1,
      is_in_stock: true,
      attributes: {
        attribute_pa_color: color as string,
        attribute_pa_size: size as string,
        attribute_logo: logo as string,
      },
    }));
    const deselect = { ...off, deselectUnavailable: true };

    it('clears only the choice that rules the value out, and keeps the others', () => {
      const chosen = { attribute_pa_color: 'red', attribute_pa_size: 'l' };
      expect(chooseValue(three, shirts, chosen, 'attribute_logo', 'no', deselect)).toEqual({
        attribute_pa_color: 'red',
        attribute_logo: 'no',
      });
    });

    it('clears every other choice when only their combination rules the value out', () => {
      const chosen = { attribute_pa_color: 'red', attribute_pa_size: 's' };
      expect(chooseValue(three, shirts, chosen, 'attribute_logo', 'yes', deselect)).toEqual({
        attribute_logo: 'yes',
      });
    });

    it('changes nothing for a value the attribute does not offer', () => {
      const chosen = { attribute_pa_color: 'red' };
      expect(chooseValue(three, shirts, chosen, 'attribute_logo', 'maybe', deselect)).toBe(chosen);
    });
  });
});
