/** A price range in minor units, both ends included (as WooCommerce's `min_price`/`max_price` filter). */
export interface PriceRange {
  min: number;
  max: number;
}

/** How many ranges the price facet aims for. */
const TARGET_RANGES = 5;

/**
 * Even price ranges up to the dearest product, with a round width (1, 2, 2.5 or 5 times a power of ten, at least one
 * major unit): "0–19.99, 20–39.99, …". Each range ends one minor unit below the next, so a simple product falls in
 * exactly one range.
 */
export function priceBuckets(dearest: number, minorPerMajor = 100): PriceRange[] {
  if (!(dearest > 0)) return [];
  const raw = dearest / TARGET_RANGES;
  let width = minorPerMajor;
  for (let power = minorPerMajor; width < raw; power *= 10) {
    width =
      [1, 2, 2.5, 5, 10]
        .map((step) => step * power)
        .find((candidate) => Number.isInteger(candidate) && candidate >= raw) ?? power * 10;
  }
  const ranges: PriceRange[] = [];
  for (let min = 0; min <= dearest; min += width) ranges.push({ min, max: min + width - 1 });
  return ranges;
}
