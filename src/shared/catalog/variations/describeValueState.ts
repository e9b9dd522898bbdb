import { formatText } from '../../settings/formatText';
import type { ProductAttribute } from '../types';
import { attributeFieldName } from '../types';
import type { ValueState } from './matchVariations';
import type { Choices } from './selectVariation';

/** The translation strings a description is made of (the page's `i18n` settings carry them). */
export interface ValueStateTexts {
  outOfStock: string;
  /** `%s`: the choices that rule the value out, as "Color: Red, Logo: Yes". */
  outOfStockWith: string;
  notAvailable: string;
  notAvailableWith: string;
}

export const ENGLISH_VALUE_STATE_TEXTS: ValueStateTexts = {
  outOfStock: 'Out of stock',
  outOfStockWith: 'Out of stock with %s',
  notAvailable: 'Not available',
  notAvailableWith: 'Not available with %s',
};

/**
 * Why a value cannot be had, for a swatch's accessible description and tooltip: "Out of stock", or "Not available
 * with Logo: Yes" naming the choices that rule it out (all other choices when only their combination does).
 * Null for an available value.
 */
export function describeValueState(
  state: ValueState,
  attributes: readonly ProductAttribute[],
  choices: Choices,
  ownField: string,
  texts: ValueStateTexts = ENGLISH_VALUE_STATE_TEXTS,
): string | null {
  if (state.status === 'available') return null;
  if (state.status === 'outofstock' && state.conflicts.length === 0) return texts.outOfStock;
  const named = attributes
    .filter((attribute) => {
      const field = attributeFieldName(attribute.slug);
      if (field === ownField || !choices[field]) return false;
      return state.conflicts.length === 0 || state.conflicts.includes(field);
    })
    .map((attribute) => {
      const chosen = choices[attributeFieldName(attribute.slug)];
      const option = attribute.options.find((each) => each.slug === chosen);
      return `${attribute.name}: ${option?.name ?? chosen}`;
    });
  if (named.length === 0) return state.status === 'outofstock' ? texts.outOfStock : texts.notAvailable;
  return formatText(
    state.status === 'outofstock' ? texts.outOfStockWith : texts.notAvailableWith,
    named.join(', '),
  );
}
