// Variation matching for swatches (src/shared/catalog/variations/matchVariations.ts): the availability of every
// value of a product with 5 attributes × 8 values and 400 variations (some leaving an attribute as "any", some
// sold out), for 0, 2 and 4 choices made. Peers measured in the same run on the same data:
//  - WooCommerce's approach (add-to-cart-variation.js): for each attribute, filter the variations by every other
//    choice, then collect the values they offer — O(attributes² × variations);
//  - brute force: for each value, enumerate every completion of the open attributes and look up the variation it
//    selects — exponential in the open attributes, time-boxed.
// Each peer's answer is checked against ours before timing. Medians of per-call times over several rounds.
import { performance } from 'node:perf_hooks';

const { matchVariations, selectVariation } = await import('../dist/server/bench.js');

const ATTRIBUTES = 5;
const VALUES = 8;
const VARIATIONS = 400;
const ROUNDS = 7;
const TIME_BOX_MS = 4000;

// A seeded generator, so every run measures the same product.
let seed = 20261122;
const random = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const attributes = Array.from({ length: ATTRIBUTES }, (_, a) => ({
  field: `attribute_pa_a${a}`,
  values: Array.from({ length: VALUES }, (_, v) => `v${v}`),
}));
const seen = new Set();
const variations = [];
while (variations.length < VARIATIONS) {
  const values = attributes.map((attribute) => (random() < 0.08 ? '' : pick(attribute.values)));
  const key = values.join('|');
  if (seen.has(key)) continue;
  seen.add(key);
  variations.push({
    id: variations.length + 1,
    sku: null,
    attributes: Object.fromEntries(attributes.map((attribute, index) => [attribute.field, values[index]])),
    price: 1000,
    regularPrice: 1000,
    salePrice: null,
    is_in_stock: random() > 0.15,
    max_qty: null,
    variation_stock_left: null,
    image: null,
  });
}
// Choices taken from real in-stock variations, so the scenarios are ones a shopper reaches.
const template = variations.find(
  (variation) => variation.is_in_stock && !Object.values(variation.attributes).includes(''),
);
const choicesOf = (count) =>
  Object.fromEntries(
    attributes.slice(0, count).map((attribute) => [attribute.field, template.attributes[attribute.field]]),
  );

/** WooCommerce's updateAttributes, reduced to what it computes: per attribute, values offered by matching variations. */
function wooCommerceApproach(attrs, list, choices) {
  const isMatch = (variationAttributes, check) =>
    Object.entries(check).every(([field, value]) => {
      const own = variationAttributes[field];
      return own === undefined || own === '' || value === '' || own === value;
    });
  const result = {};
  for (const attribute of attrs) {
    const check = { ...choices, [attribute.field]: '' };
    const inStock = new Set();
    const atAll = new Set();
    for (const variation of list) {
      if (!isMatch(variation.attributes, check)) continue;
      const own = variation.attributes[attribute.field];
      const offered = own === '' ? attribute.values : [own];
      for (const value of offered) {
        atAll.add(value);
        if (variation.is_in_stock) inStock.add(value);
      }
    }
    result[attribute.field] = Object.fromEntries(
      attribute.values.map((value) => [
        value,
        inStock.has(value) ? 'available' : atAll.has(value) ? 'outofstock' : 'impossible',
      ]),
    );
  }
  return result;
}

/** Every completion of the open attributes, each looked up: exact by definition, exponential in the open ones. */
function bruteForce(attrs, list, choices) {
  const fields = attrs.map((attribute) => attribute.field);
  const result = {};
  for (const attribute of attrs) {
    const { [attribute.field]: _own, ...others } = choices;
    result[attribute.field] = {};
    for (const value of attribute.values) {
      let status = 'impossible';
      const walk = (partial, index) => {
        if (status === 'available') return;
        if (index === attrs.length) {
          const selected = selectVariation(list, fields, partial);
          if (selected?.is_in_stock) status = 'available';
          else if (selected) status = 'outofstock';
          return;
        }
        const { field, values } = attrs[index];
        if (partial[field]) return walk(partial, index + 1);
        for (const each of values) walk({ ...partial, [field]: each }, index + 1);
      };
      walk({ ...others, [attribute.field]: value }, 0);
      result[attribute.field][value] = status;
    }
  }
  return result;
}

const ours = (choices) => {
  const { values } = matchVariations(attributes, variations, choices);
  return Object.fromEntries(
    Object.entries(values).map(([field, states]) => [
      field,
      Object.fromEntries(Object.entries(states).map(([value, state]) => [value, state.status])),
    ]),
  );
};

/** Time of one call: repeats it until ~30 ms have passed (once when a call is slower) and divides. */
function perCall(run) {
  let calls = 0;
  const start = performance.now();
  do {
    run();
    calls++;
  } while (performance.now() - start < 30);
  return (performance.now() - start) / calls;
}
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
const format = (ms) => `${(ms * 1000).toFixed(1)} µs`;

/** Brute force is exponential in the open attributes: it runs only where one call fits well inside the box. */
function bruteForceFits(choices) {
  const open = attributes.filter((attribute) => !choices[attribute.field]).length;
  return ATTRIBUTES * VALUES * VALUES ** Math.max(0, open - 1) * variations.length <= 2e8;
}

console.log(`product: ${ATTRIBUTES} attributes × ${VALUES} values, ${variations.length} variations`);
console.log('choices   matchVariations   WooCommerce approach (ratio)      brute force (ratio)');
for (const count of [0, 2, 4]) {
  const choices = choicesOf(count);
  const expected = JSON.stringify(ours(choices));
  if (JSON.stringify(wooCommerceApproach(attributes, variations, choices)) !== expected)
    throw new Error(`WooCommerce approach disagrees with ${count} choices`);
  const brute = bruteForceFits(choices);
  if (brute && JSON.stringify(bruteForce(attributes, variations, choices)) !== expected)
    throw new Error(`brute force disagrees with ${count} choices`);
  // Interleaved rounds, so load from other processes on the machine hits both alike.
  const times = { ours: [], woo: [], brute: [] };
  const deadline = performance.now() + TIME_BOX_MS;
  for (let round = 0; round < ROUNDS && performance.now() < deadline; round++) {
    times.ours.push(perCall(() => matchVariations(attributes, variations, choices)));
    times.woo.push(perCall(() => wooCommerceApproach(attributes, variations, choices)));
  }
  // Brute force after, not between: its garbage would otherwise be collected inside the others' rounds.
  for (let round = 0; brute && round < ROUNDS && performance.now() < deadline; round++)
    times.brute.push(perCall(() => bruteForce(attributes, variations, choices)));
  const [a, b] = [median(times.ours), median(times.woo)];
  const c = brute ? median(times.brute) : undefined;
  console.log(
    `${String(count).padEnd(10)}${format(a).padStart(15)}${`${format(b)} (${(b / a).toFixed(1)}×)`.padStart(31)}${(c === undefined ? 'skipped (exponential)' : `${format(c)} (${(c / a).toFixed(0)}×)`).padStart(25)}`,
  );
}
