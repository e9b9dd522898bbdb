import { normalizePostcode } from './addressRules';

/*
 * Shipping as WooCommerce core does it: zones are tried in order and the first whose regions (and postcodes, when
 * it lists some) match the destination supplies the methods. Costs are in minor units and exclude tax.
 */

export interface Destination {
  country: string;
  state: string;
  postcode: string;
}

export type ShippingMethodSetting =
  | { type: 'flat_rate'; title: string; cost: number }
  | { type: 'free_shipping'; title: string; minAmount: number | null }
  | { type: 'local_pickup'; title: string; cost: number };

export interface ShippingZoneSetting {
  name: string;
  /** `US` (a country) or `US:CA` (a state); none matches everywhere. */
  regions: string[];
  /** `90210`, `902*` (prefix) or `90210...90299` (numeric range); none matches any postcode. */
  postcodes: string[];
  methods: ShippingMethodSetting[];
}

/** One method the shopper may choose: `id` is the method's type and its instance number across all zones. */
export interface ShippingRate {
  id: string;
  type: ShippingMethodSetting['type'];
  title: string;
  cost: number;
}

function regionMatches(region: string, destination: Destination): boolean {
  const [country, state] = region.trim().toUpperCase().split(':');
  if (country !== destination.country) return false;
  return state === undefined || state === destination.state.toUpperCase();
}

/** A zone postcode: exact, a `*` prefix, or a `low...high` range of numeric postcodes. */
export function postcodeMatches(pattern: string, postcode: string): boolean {
  const wanted = normalizePostcode(pattern);
  const actual = normalizePostcode(postcode);
  if (wanted.includes('...')) {
    const [low, high] = wanted.split('...').map((part) => part.trim());
    const value = Number.parseInt(actual.replace(/\D/g, ''), 10);
    if (!low || !high || !/^\d/.test(actual) || Number.isNaN(value)) return false;
    return value >= Number(low) && value <= Number(high);
  }
  if (wanted.endsWith('*')) return actual.startsWith(wanted.slice(0, -1));
  return wanted === actual;
}

export function zoneMatches(zone: ShippingZoneSetting, destination: Destination): boolean {
  const inRegion =
    zone.regions.length === 0 || zone.regions.some((region) => regionMatches(region, destination));
  const inPostcodes =
    zone.postcodes.length === 0 ||
    zone.postcodes.some((pattern) => postcodeMatches(pattern, destination.postcode));
  return inRegion && inPostcodes;
}

/**
 * The methods the destination can use, in the zone's order: the first matching zone's, free shipping only when
 * the items reach its minimum. `itemsAmount` is the items' subtotal as prices are entered (with tax when prices
 * include it). Empty when no zone covers the destination.
 */
export function shippingRatesFor(
  zones: readonly ShippingZoneSetting[],
  destination: Destination,
  itemsAmount: number,
): ShippingRate[] {
  let instance = 0;
  for (const zone of zones) {
    const first = instance;
    instance += zone.methods.length;
    if (!zoneMatches(zone, destination)) continue;
    return zone.methods.flatMap((method, index): ShippingRate[] => {
      const id = `${method.type}:${first + index + 1}`;
      if (method.type === 'free_shipping') {
        const eligible = method.minAmount === null || itemsAmount >= method.minAmount;
        return eligible ? [{ id, type: method.type, title: method.title, cost: 0 }] : [];
      }
      return [{ id, type: method.type, title: method.title, cost: method.cost }];
    });
  }
  return [];
}

/** The cheapest rate, the first of equals: what the checkout preselects. */
export function cheapestRate(rates: readonly ShippingRate[]): ShippingRate | null {
  let best: ShippingRate | null = null;
  for (const rate of rates) if (!best || rate.cost < best.cost) best = rate;
  return best;
}
