import type { ProductAttribute } from '../types';
import { attributeFieldName } from '../types';
import type { ValueState } from './matchVariations';
import type { Choices } from './selectVariation';

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
  outOfStockText = 'Out of stock',
): string | null {
  if (state.status === 'available') return null;
  if (state.status === 'outofstock' && state.conflicts.length === 0) return outOfStockText;
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
  if (named.length === 0) return state.status === 'outofstock' ? outOfStockText : 'Not available';
  const prefix = state.status === 'outofstock' ? `${outOfStockText} with` : 'Not available with';
  return `${prefix} ${named.join(', ')}`;
}
