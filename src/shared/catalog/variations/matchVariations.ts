import type { Variation } from '../types';
import { type Choices, selectVariation } from './selectVariation';

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

interface VariationMatch {
  /** Per field, per value: its state. */
  values: Record<string, Record<string, ValueState>>;
  /** Every attribute has a value. */
  complete: boolean;
  /** The variation the complete choices select (`selectVariation`), else null. */
  variation: Variation | null;
}

/**
 * A product's variations as a matrix of value indexes (ANY for "any value", UNKNOWN for a value the attribute does
 * not offer), built once per variations array and attributes list and reused by every later call, so a click
 * costs typed-array scans instead of string lookups. Both arrays are treated as immutable (as React state is).
 */
interface CompiledProduct {
  width: number;
  codes: Int32Array;
  inStock: Uint8Array;
  indexes: Map<string, number>[];
}
const ANY = -1;
const UNKNOWN = -2;
/** A chosen value the attribute does not offer: only "any" variations admit it. */
const UNOFFERED_CHOICE = -3;
const NONE = -4;
const compiledCache = new WeakMap<
  readonly Variation[],
  WeakMap<readonly MatchAttribute[], CompiledProduct>
>();

function compile(attributes: readonly MatchAttribute[], variations: readonly Variation[]): CompiledProduct {
  let byAttributes = compiledCache.get(variations);
  const cached = byAttributes?.get(attributes);
  if (cached) return cached;
  const width = attributes.length;
  const indexes = attributes.map(
    (attribute) => new Map(attribute.values.map((value, index) => [value, index])),
  );
  const codes = new Int32Array(variations.length * width);
  const inStock = new Uint8Array(variations.length);
  variations.forEach((variation, v) => {
    inStock[v] = variation.is_in_stock ? 1 : 0;
    attributes.forEach((attribute, a) => {
      const value = variation.attributes[attribute.field] ?? '';
      codes[v * width + a] = value === '' ? ANY : (indexes[a]?.get(value) ?? UNKNOWN);
    });
  });
  const compiled = { width, codes, inStock, indexes };
  if (!byAttributes) {
    byAttributes = new WeakMap();
    compiledCache.set(variations, byAttributes);
  }
  byAttributes.set(attributes, compiled);
  return compiled;
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
  const { width, codes, inStock, indexes } = compile(attributes, variations);
  const count = variations.length;
  // Per attribute: the chosen value's index, NONE when not chosen; a value it does not offer never matches.
  const chosen = attributes.map((attribute, a) => {
    const value = choices[attribute.field];
    return value ? (indexes[a]?.get(value) ?? UNOFFERED_CHOICE) : NONE;
  });
  const clashCount = new Uint8Array(count);
  // The one chosen attribute a variation clashes with, when it clashes with exactly one.
  const clashWith = new Int32Array(count);
  for (let v = 0; v < count; v++) {
    for (let a = 0; a < width; a++) {
      const choice = chosen[a] as number;
      if (choice === NONE) continue;
      const code = codes[v * width + a] as number;
      if (code !== ANY && code !== choice) {
        clashCount[v] = Math.min(2, (clashCount[v] as number) + 1);
        clashWith[v] = a;
      }
    }
  }

  const values: VariationMatch['values'] = {};
  let needsConflicts = false;
  attributes.forEach((attribute, a) => {
    // 2 = offered in stock, 1 = offered only sold out, 0 = not offered.
    const offered = new Uint8Array(attribute.values.length);
    let anyValue = 0;
    for (let v = 0; v < count; v++) {
      const clashes = clashCount[v] as number;
      if (clashes > 1 || (clashes === 1 && clashWith[v] !== a)) continue;
      const level = inStock[v] ? 2 : 1;
      const code = codes[v * width + a] as number;
      if (code === ANY) anyValue = Math.max(anyValue, level);
      else if (code >= 0) offered[code] = Math.max(offered[code] as number, level);
    }
    const states: Record<string, ValueState> = {};
    attribute.values.forEach((value, index) => {
      const level = Math.max(anyValue, offered[index] as number);
      const status: ValueStatus = level === 2 ? 'available' : level === 1 ? 'outofstock' : 'impossible';
      if (status !== 'available') needsConflicts = true;
      states[value] = { status, conflicts: [] };
    });
    values[attribute.field] = states;
  });

  if (needsConflicts) {
    // For each chosen attribute B: which values of every other attribute some variation admitting B's choice
    // offers; a value that is not available conflicts with B when B's variations never offer it (in stock, for a
    // sold-out value).
    attributes.forEach((other, b) => {
      const choice = chosen[b] as number;
      if (choice === NONE) return;
      const levels = attributes.map((attribute) => new Uint8Array(attribute.values.length));
      const anyLevels = new Uint8Array(width);
      for (let v = 0; v < count; v++) {
        const own = codes[v * width + b] as number;
        if (own !== ANY && own !== choice) continue;
        const level = inStock[v] ? 2 : 1;
        for (let a = 0; a < width; a++) {
          if (a === b) continue;
          const code = codes[v * width + a] as number;
          if (code === ANY) anyLevels[a] = Math.max(anyLevels[a] as number, level);
          else if (code >= 0) {
            const row = levels[a] as Uint8Array;
            row[code] = Math.max(row[code] as number, level);
          }
        }
      }
      attributes.forEach((attribute, a) => {
        if (a === b) return;
        const states = values[attribute.field] as Record<string, ValueState>;
        attribute.values.forEach((value, index) => {
          const state = states[value] as ValueState;
          if (state.status === 'available') return;
          const level = Math.max(anyLevels[a] as number, (levels[a] as Uint8Array)[index] as number);
          // An impossible value needs a variation at all; a sold-out one, one in stock.
          if (level < (state.status === 'impossible' ? 1 : 2)) state.conflicts.push(other.field);
        });
      });
    });
  }

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

/** The attributes a product varies by, in the shape matching needs. */
export function toMatchAttributes(
  attributes: readonly { slug: string; options: readonly { slug: string }[] }[],
): MatchAttribute[] {
  return attributes.map((attribute) => ({
    field: `attribute_${attribute.slug}`,
    values: attribute.options.map((option) => option.slug),
  }));
}
