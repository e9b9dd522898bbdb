import type { Variation } from './types';

/**
 * The variation a complete set of choices selects. A variation's empty attribute value means "any value", so
 * several variations can match; like WooCommerce, the first in menu order wins.
 * `choices` is keyed like the form fields (`attribute_{slug}`).
 */
export function findMatchingVariation(
  variations: readonly Variation[],
  choices: Readonly<Record<string, string>>,
): Variation | null {
  return (
    variations.find((variation) =>
      Object.entries(variation.attributes).every(([field, value]) => {
        const chosen = choices[field];
        return chosen !== undefined && chosen !== '' && (value === '' || value === chosen);
      }),
    ) ?? null
  );
}
