import type { Variation } from '../types';
import { admits, type Choices, selectVariation } from './selectVariation';

/** The attributes a product varies by, as matching needs them: the form field and the values it offers. */
export interface MatchAttribute {
  /** `attribute_{slug}`, the key of `Variation.attributes` and of the choices. */
  field: string;
  values: readonly string[];
}

/**
 * What choosing a value would lead to, given the shopper's choices for the OTHER attributes (so a chosen value
 * can be swapped for another): `available` when an in-stock variation admits it, `outofstock` when only sold-out
 * ones do, `impossible` when none does.
 */
export type ValueStatus = 'available' | 'outofstock' | 'impossible';

export interface ValueState {
  status: ValueStatus;
  /**
   * For a value that is not available: the other chosen attributes (fields) that rule it out on their own, each
   * clashing with it in every variation (in-stock ones for `outofstock`). Empty when only the combination of
   * several choices rules it out.
   */
  conflicts: string[];
}

export interface VariationMatch {
  /** Per field, per value: its state. */
  values: Record<string, Record<string, ValueState>>;
  /** Every attribute has a value. */
  complete: boolean;
  /** The variation the complete choices select (`selectVariation`), else null. */
  variation: Variation | null;
}

/**
 * Availability of every attribute value and the selected variation, exact for any number of variations (no
 * 30-variation cut-off) and without enumerating combinations: one pass over the variations counts, for each, how
 * many chosen attributes it clashes with; a variation then supports attribute A's values when it clashes with no
 * chosen attribute other than A. That is O(attributes × variations). Naming the conflicts of values that are not
 * available costs one more pass per chosen attribute, only when such values exist.
 */
export function matchVariations(
  attributes: readonly MatchAttribute[],
  variations: readonly Variation[],
  choices: Choices,
): VariationMatch {
  const chosen = attributes.filter((attribute) => choices[attribute.field]);
  const clashCount = new Uint16Array(variations.length);
  // The one chosen attribute a variation clashes with, when it clashes with exactly one.
  const clashField: (string | undefined)[] = new Array(variations.length);
  variations.forEach((variation, index) => {
    for (const { field } of chosen) {
      if (!admits(variation.attributes[field], choices[field] as string)) {
        clashCount[index] = (clashCount[index] ?? 0) + 1;
        clashField[index] = field;
      }
    }
  });

  const values: VariationMatch['values'] = {};
  let needsConflicts = false;
  for (const attribute of attributes) {
    const inStock = new Set<string>();
    const anyStock = new Set<string>();
    let anyValueInStock = false;
    let anyValueAtAll = false;
    variations.forEach((variation, index) => {
      const count = clashCount[index] as number;
      if (count > 1 || (count === 1 && clashField[index] !== attribute.field)) return;
      const value = variation.attributes[attribute.field] ?? '';
      if (value === '') {
        anyValueAtAll = true;
        if (variation.is_in_stock) anyValueInStock = true;
      } else {
        anyStock.add(value);
        if (variation.is_in_stock) inStock.add(value);
      }
    });
    const states: Record<string, ValueState> = {};
    for (const value of attribute.values) {
      const status: ValueStatus =
        anyValueInStock || inStock.has(value)
          ? 'available'
          : anyValueAtAll || anyStock.has(value)
            ? 'outofstock'
            : 'impossible';
      if (status !== 'available') needsConflicts = true;
      states[value] = { status, conflicts: [] };
    }
    values[attribute.field] = states;
  }

  if (needsConflicts) nameConflicts(attributes, chosen, variations, choices, values);

  const complete = attributes.every((attribute) => Boolean(choices[attribute.field]));
  return {
    values,
    complete,
    variation: complete
      ? selectVariation(
          variations,
          attributes.map((attribute) => attribute.field),
          choices,
        )
      : null,
  };
}

/**
 * For each chosen attribute B, the values of every other attribute that some variation admitting B's choice
 * offers (in stock, and at all); a value that is not available conflicts with B when B's set lacks it.
 */
function nameConflicts(
  attributes: readonly MatchAttribute[],
  chosen: readonly MatchAttribute[],
  variations: readonly Variation[],
  choices: Choices,
  values: VariationMatch['values'],
) {
  for (const other of chosen) {
    const choice = choices[other.field] as string;
    const offered = new Map<string, { inStock: Set<string> | 'all'; atAll: Set<string> | 'all' }>();
    for (const attribute of attributes) {
      if (attribute !== other) offered.set(attribute.field, { inStock: new Set(), atAll: new Set() });
    }
    for (const variation of variations) {
      if (!admits(variation.attributes[other.field], choice)) continue;
      for (const [field, sets] of offered) {
        const value = variation.attributes[field] ?? '';
        if (value === '') {
          sets.atAll = 'all';
          if (variation.is_in_stock) sets.inStock = 'all';
        } else {
          if (sets.atAll !== 'all') sets.atAll.add(value);
          if (variation.is_in_stock && sets.inStock !== 'all') sets.inStock.add(value);
        }
      }
    }
    for (const [field, sets] of offered) {
      for (const [value, state] of Object.entries(values[field] ?? {})) {
        if (state.status === 'available') continue;
        const within = state.status === 'impossible' ? sets.atAll : sets.inStock;
        if (within !== 'all' && !within.has(value)) state.conflicts.push(other.field);
      }
    }
  }
}

/** The attributes a product varies by, in the shape matching needs. */
export function toMatchAttributes(
  attributes: readonly { slug: string; options: readonly { slug: string }[] }[],
): MatchAttribute[] {
  return attributes.map((attribute) => ({
    field: `attribute_${attribute.slug}`,
    values: attribute.options.map((option) => option.slug),
  }));
}
