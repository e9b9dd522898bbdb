import type { Variation } from '../types';

/** Keyed like the form fields (`attribute_{slug}`); a missing or empty value is "not chosen". */
export type Choices = Readonly<Record<string, string>>;

/** Whether a variation's value for one attribute admits a chosen value ('' on the variation means "any"). */
export function admits(variationValue: string | undefined, chosen: string): boolean {
  return variationValue === undefined || variationValue === '' || variationValue === chosen;
}

/**
 * The variation a complete set of choices selects. Several variations can match when some leave an attribute as
 * "any"; an in-stock one wins over an out-of-stock one, then menu order (WooCommerce takes the first in menu
 * order). Preferring stock is what makes the swatches' "available" exact: a value is shown available only when an
 * in-stock variation admits it, so the choices it leads to must select that variation, not an earlier sold-out
 * "any" one. The cart uses the same rule, so the page and the server never disagree.
 */
export function selectVariation(
  variations: readonly Variation[],
  attributeFields: readonly string[],
  choices: Choices,
): Variation | null {
  if (attributeFields.some((field) => !choices[field])) return null;
  let firstMatch: Variation | null = null;
  for (const variation of variations) {
    const matches = attributeFields.every((field) =>
      admits(variation.attributes[field], choices[field] as string),
    );
    if (!matches) continue;
    if (variation.is_in_stock) return variation;
    firstMatch ??= variation;
  }
  return firstMatch;
}
