import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Variation } from '../types';
import { type MatchAttribute, matchVariations } from './matchVariations';
import { admits, type Choices, selectVariation } from './selectVariation';

function variation(id: number, attributes: Record<string, string>, is_in_stock = true): Variation {
  return {
    id,
    sku: null,
    attributes,
    price: 1000,
    regularPrice: 1000,
    salePrice: null,
    is_in_stock,
    max_qty: null,
    variation_stock_left: null,
    image: null,
  };
}

// WooCommerce's sample Hoodie: Color × Logo, but only Red/No, Green/No, Blue/No and Blue/Yes exist.
const hoodieAttributes: MatchAttribute[] = [
  { field: 'attribute_pa_color', values: ['red', 'green', 'blue'] },
  { field: 'attribute_logo', values: ['yes', 'no'] },
];
const hoodie = [
  variation(1, { attribute_pa_color: 'red', attribute_logo: 'no' }),
  variation(2, { attribute_pa_color: 'green', attribute_logo: 'no' }),
  variation(3, { attribute_pa_color: 'blue', attribute_logo: 'no' }),
  variation(4, { attribute_pa_color: 'blue', attribute_logo: 'yes' }),
];

// WooCommerce's sample V-Neck T-Shirt: one variation per colour, each leaving Size empty ("any size").
const vneckAttributes: MatchAttribute[] = [
  { field: 'attribute_pa_color', values: ['red', 'green', 'blue'] },
  { field: 'attribute_pa_size', values: ['small', 'medium', 'large'] },
];
const vneck = [
  variation(11, { attribute_pa_color: 'red', attribute_pa_size: '' }),
  variation(12, { attribute_pa_color: 'green', attribute_pa_size: '' }, false),
  variation(13, { attribute_pa_color: 'blue', attribute_pa_size: '' }),
];

const statuses = (match: ReturnType<typeof matchVariations>, field: string) =>
  Object.fromEntries(
    Object.entries(match.values[field] ?? {}).map(([value, state]) => [value, state.status]),
  );

describe('matchVariations on the Hoodie', () => {
  it('offers every value while nothing is chosen', () => {
    const match = matchVariations(hoodieAttributes, hoodie, {});
    expect(statuses(match, 'attribute_pa_color')).toEqual({
      red: 'available',
      green: 'available',
      blue: 'available',
    });
    expect(statuses(match, 'attribute_logo')).toEqual({ yes: 'available', no: 'available' });
    expect(match).toMatchObject({ complete: false, variation: null });
  });

  it('leaves only Blue once Logo is Yes, naming Logo as the reason', () => {
    const match = matchVariations(hoodieAttributes, hoodie, { attribute_logo: 'yes' });
    expect(statuses(match, 'attribute_pa_color')).toEqual({
      red: 'impossible',
      green: 'impossible',
      blue: 'available',
    });
    expect(match.values.attribute_pa_color?.red?.conflicts).toEqual(['attribute_logo']);
    // The chosen attribute's own values stay judged against the other choices only, so it can be changed.
    expect(statuses(match, 'attribute_logo')).toEqual({ yes: 'available', no: 'available' });
  });

  it('rules out Logo Yes for Red, and selects the variation of complete choices', () => {
    const red = matchVariations(hoodieAttributes, hoodie, { attribute_pa_color: 'red' });
    expect(statuses(red, 'attribute_logo')).toEqual({ yes: 'impossible', no: 'available' });
    const blueYes = matchVariations(hoodieAttributes, hoodie, {
      attribute_pa_color: 'blue',
      attribute_logo: 'yes',
    });
    expect(blueYes).toMatchObject({ complete: true, variation: { id: 4 } });
    const redYes = matchVariations(hoodieAttributes, hoodie, {
      attribute_pa_color: 'red',
      attribute_logo: 'yes',
    });
    expect(redYes).toMatchObject({ complete: true, variation: null });
  });

  it('tells a sold-out value from an impossible one', () => {
    const soldOut = hoodie.map((each) => (each.id === 4 ? { ...each, is_in_stock: false } : each));
    const match = matchVariations(hoodieAttributes, soldOut, { attribute_pa_color: 'blue' });
    expect(statuses(match, 'attribute_logo')).toEqual({ yes: 'outofstock', no: 'available' });
    expect(match.values.attribute_logo?.yes?.conflicts).toEqual(['attribute_pa_color']);
    const any = matchVariations(hoodieAttributes, soldOut, {});
    expect(any.values.attribute_logo?.yes).toEqual({ status: 'outofstock', conflicts: [] });
  });
});

describe('matchVariations on the V-Neck T-Shirt (Size left as "any")', () => {
  it('offers every size with any colour, and a sold-out colour as out of stock', () => {
    const match = matchVariations(vneckAttributes, vneck, { attribute_pa_size: 'large' });
    expect(statuses(match, 'attribute_pa_color')).toEqual({
      red: 'available',
      green: 'outofstock',
      blue: 'available',
    });
    const green = matchVariations(vneckAttributes, vneck, { attribute_pa_color: 'green' });
    expect(statuses(green, 'attribute_pa_size')).toEqual({
      small: 'outofstock',
      medium: 'outofstock',
      large: 'outofstock',
    });
  });

  it('selects the colour variation whatever the size', () => {
    for (const size of ['small', 'medium', 'large']) {
      const match = matchVariations(vneckAttributes, vneck, {
        attribute_pa_color: 'blue',
        attribute_pa_size: size,
      });
      expect(match.variation?.id).toBe(13);
    }
  });
});

/** Products of 1–4 attributes with 1–4 values each and random, partly "any", partly sold-out variations. */
const productArbitrary = fc
  .array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 4 })
  .chain((sizes) => {
    const attributes: MatchAttribute[] = sizes.map((size, index) => ({
      field: `attribute_a${index}`,
      values: Array.from({ length: size }, (_, value) => `v${value}`),
    }));
    const variationArbitrary = fc
      .tuple(
        fc.tuple(...attributes.map((attribute) => fc.constantFrom('', ...attribute.values))),
        fc.boolean(),
      )
      .map(([values, inStock]) =>
        Object.assign(
          variation(
            0,
            Object.fromEntries(
              attributes.map((attribute, index) => [attribute.field, values[index] as string]),
            ),
          ),
          { is_in_stock: inStock },
        ),
      );
    const choicesArbitrary = fc.tuple(
      ...attributes.map((attribute) => fc.constantFrom('', ...attribute.values)),
    );
    return fc.record({
      attributes: fc.constant(attributes),
      variations: fc
        .array(variationArbitrary, { maxLength: 12 })
        .map((list) => list.map((each, index) => ({ ...each, id: index + 1 }))),
      choiceValues: choicesArbitrary,
    });
  });

function toChoices(attributes: MatchAttribute[], values: readonly string[]): Choices {
  return Object.fromEntries(
    attributes.flatMap((attribute, index) => (values[index] ? [[attribute.field, values[index]]] : [])),
  );
}

/** Every complete choice set, by brute force: the oracle the fast answer is checked against. */
function* completions(attributes: MatchAttribute[], choices: Choices): Generator<Choices> {
  const open = attributes.find((attribute) => !choices[attribute.field]);
  if (!open) {
    yield choices;
    return;
  }
  for (const value of open.values) yield* completions(attributes, { ...choices, [open.field]: value });
}

describe('matchVariations properties', () => {
  it('an available value always leads to an in-stock variation, by choosing available values', () => {
    fc.assert(
      fc.property(productArbitrary, ({ attributes, variations, choiceValues }) => {
        const choices = toChoices(attributes, choiceValues);
        const match = matchVariations(attributes, variations, choices);
        for (const attribute of attributes) {
          for (const [value, state] of Object.entries(match.values[attribute.field] ?? {})) {
            if (state.status !== 'available') continue;
            // Follow the swatches: keep choosing, for each open attribute, the first value shown available.
            let next: Choices = { ...choices, [attribute.field]: value };
            for (const other of attributes) {
              if (next[other.field]) continue;
              const states = matchVariations(attributes, variations, next).values[other.field] ?? {};
              const pick = other.values.find((each) => states[each]?.status === 'available');
              expect(pick).toBeDefined();
              next = { ...next, [other.field]: pick as string };
            }
            // "Available" was judged against the other choices, so those plus this value admit an in-stock variation.
            expect(matchVariations(attributes, variations, next).variation?.is_in_stock).toBe(true);
          }
        }
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it('agrees with brute-force enumeration of every complete choice set', () => {
    fc.assert(
      fc.property(productArbitrary, ({ attributes, variations, choiceValues }) => {
        const choices = toChoices(attributes, choiceValues);
        const match = matchVariations(attributes, variations, choices);
        const fields = attributes.map((attribute) => attribute.field);
        for (const attribute of attributes) {
          const { [attribute.field]: _own, ...others } = choices;
          for (const value of attribute.values) {
            let expected: string = 'impossible';
            for (const complete of completions(attributes, { ...others, [attribute.field]: value })) {
              const selected = selectVariation(variations, fields, complete);
              if (selected?.is_in_stock) {
                expected = 'available';
                break;
              }
              if (selected) expected = 'outofstock';
            }
            expect(match.values[attribute.field]?.[value]?.status).toBe(expected);
          }
        }
        const selected = match.complete ? selectVariation(variations, fields, choices) : null;
        expect(match.variation).toBe(selected);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it('names as conflicts only choices that rule the value out on their own', () => {
    fc.assert(
      fc.property(productArbitrary, ({ attributes, variations, choiceValues }) => {
        const choices = toChoices(attributes, choiceValues);
        const match = matchVariations(attributes, variations, choices);
        for (const attribute of attributes) {
          for (const [value, state] of Object.entries(match.values[attribute.field] ?? {})) {
            for (const conflict of state.conflicts) {
              const pool = variations.filter((each) => state.status === 'impossible' || each.is_in_stock);
              const together = pool.some(
                (each) =>
                  admits(each.attributes[attribute.field], value) &&
                  admits(each.attributes[conflict], choices[conflict] as string),
              );
              expect(together).toBe(false);
            }
          }
        }
      }),
      { seed: 20261122, numRuns: 200 },
    );
  });
});

describe('matchVariations with a chosen value the attribute does not offer', () => {
  it('lets only "any" variations admit it', () => {
    const match = matchVariations(vneckAttributes, vneck, { attribute_pa_size: 'huge' });
    expect(match.values.attribute_pa_color?.red?.status).toBe('available');
    const hoodieMatch = matchVariations(hoodieAttributes, hoodie, { attribute_logo: 'maybe' });
    expect(statuses(hoodieMatch, 'attribute_pa_color')).toEqual({
      red: 'impossible',
      green: 'impossible',
      blue: 'impossible',
    });
  });
});

describe('matchVariations with many values, stale variations and stale choices', () => {
  const attributes: MatchAttribute[] = [
    { field: 'attribute_pa_color', values: ['red', 'blue'] },
    { field: 'attribute_pa_size', values: ['xs', 's', 'm', 'l', 'xl'] },
  ];
  const variations = [
    variation(1, { attribute_pa_color: 'red', attribute_pa_size: 'xl' }),
    variation(2, { attribute_pa_color: 'blue', attribute_pa_size: 's' }),
    variation(3, { attribute_pa_color: 'red', attribute_pa_size: 'l' }),
    // A size the product no longer lists: it offers none of the listed ones.
    variation(4, { attribute_pa_color: 'blue', attribute_pa_size: 'xxl' }),
    // No size at all: any size, as an empty value is.
    variation(5, { attribute_pa_color: 'green' }),
  ];
  const withGreen: MatchAttribute[] = [
    { field: 'attribute_pa_color', values: ['red', 'blue', 'green'] },
    attributes[1] as MatchAttribute,
  ];

  it('rules out by the fifth value like any other', () => {
    const match = matchVariations(attributes, variations, { attribute_pa_size: 'xl' });
    expect(statuses(match, 'attribute_pa_color')).toEqual({ red: 'available', blue: 'impossible' });
  });

  it('counts a variation value the attribute does not list as none of its values', () => {
    const match = matchVariations(attributes, variations, { attribute_pa_color: 'blue' });
    expect(statuses(match, 'attribute_pa_size')).toEqual({
      xs: 'impossible',
      s: 'available',
      m: 'impossible',
      l: 'impossible',
      xl: 'impossible',
    });
  });

  it('lets only "any" variations admit a chosen value the attribute does not list', () => {
    const match = matchVariations(withGreen, variations, { attribute_pa_size: 'xxl' });
    expect(statuses(match, 'attribute_pa_color')).toEqual({
      red: 'impossible',
      blue: 'impossible',
      green: 'available',
    });
  });
});
