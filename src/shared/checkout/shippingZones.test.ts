import { describe, expect, it } from 'vitest';
import {
  cheapestRate,
  postcodeMatches,
  type ShippingZoneSetting,
  shippingRatesFor,
  zoneMatches,
} from './shippingZones';

const CALIFORNIA_LOCAL: ShippingZoneSetting = {
  name: 'San Francisco',
  regions: ['US:CA'],
  postcodes: ['941*'],
  methods: [{ type: 'local_pickup', title: 'Pick up in the shop', cost: 0 }],
};
const US: ShippingZoneSetting = {
  name: 'United States',
  regions: ['US'],
  postcodes: [],
  methods: [
    { type: 'flat_rate', title: 'Ground', cost: 800 },
    { type: 'free_shipping', title: 'Free shipping', minAmount: 10_000 },
  ],
};
const EVERYWHERE: ShippingZoneSetting = {
  name: 'Everywhere',
  regions: [],
  postcodes: [],
  methods: [{ type: 'flat_rate', title: 'International', cost: 2500 }],
};
const ZONES = [CALIFORNIA_LOCAL, US, EVERYWHERE];

describe('zone matching', () => {
  it('matches a country, a state within it, and postcodes by exact value, prefix or range', () => {
    expect(zoneMatches(US, { country: 'US', state: 'NY', postcode: '10001' })).toBe(true);
    expect(zoneMatches(US, { country: 'CA', state: 'ON', postcode: 'K1A 0B1' })).toBe(false);
    expect(zoneMatches(CALIFORNIA_LOCAL, { country: 'US', state: 'CA', postcode: '94105' })).toBe(true);
    // Right state, postcode outside the zone's; right postcode, other state.
    expect(zoneMatches(CALIFORNIA_LOCAL, { country: 'US', state: 'CA', postcode: '90210' })).toBe(false);
    expect(zoneMatches(CALIFORNIA_LOCAL, { country: 'US', state: 'NV', postcode: '94105' })).toBe(false);
    expect(postcodeMatches('90210...90299', '90250')).toBe(true);
    expect(postcodeMatches('90210...90299', '90300')).toBe(false);
    expect(postcodeMatches('sw1a 1aa', 'SW1A  1AA')).toBe(true);
    expect(postcodeMatches('90210...90299', 'SW1A 1AA')).toBe(false);
  });

  it('uses the first zone that matches, and a zone without regions covers everywhere else', () => {
    const sf = shippingRatesFor(ZONES, { country: 'US', state: 'CA', postcode: '94105' }, 2000);
    expect(sf.map((rate) => rate.title)).toEqual(['Pick up in the shop']);
    const ny = shippingRatesFor(ZONES, { country: 'US', state: 'NY', postcode: '10001' }, 2000);
    expect(ny.map((rate) => rate.title)).toEqual(['Ground']);
    const de = shippingRatesFor(ZONES, { country: 'DE', state: '', postcode: '10115' }, 2000);
    expect(de).toEqual([{ id: 'flat_rate:4', type: 'flat_rate', title: 'International', cost: 2500 }]);
  });

  it('offers nothing where no zone covers the address', () => {
    expect(shippingRatesFor([US], { country: 'GB', state: '', postcode: 'SW1A 1AA' }, 2000)).toEqual([]);
  });

  it('numbers each method by its place among all zones, so an id names one method', () => {
    const rates = shippingRatesFor(ZONES, { country: 'US', state: 'NY', postcode: '10001' }, 10_000);
    expect(rates.map((rate) => rate.id)).toEqual(['flat_rate:2', 'free_shipping:3']);
  });
});

describe('method eligibility and the preselected method', () => {
  it('offers free shipping from its minimum amount on, not a cent below', () => {
    const at = (amount: number) =>
      shippingRatesFor([US], { country: 'US', state: 'NY', postcode: '10001' }, amount).map(
        (rate) => rate.type,
      );
    expect(at(9_999)).toEqual(['flat_rate']);
    expect(at(10_000)).toEqual(['flat_rate', 'free_shipping']);
  });

  it('offers free shipping without a minimum to every order', () => {
    const zone: ShippingZoneSetting = {
      ...EVERYWHERE,
      methods: [{ type: 'free_shipping', title: 'Free', minAmount: null }],
    };
    expect(shippingRatesFor([zone], { country: 'FR', state: '', postcode: '75001' }, 1)).toHaveLength(1);
  });

  it('preselects the cheapest method, the first of equals', () => {
    const rates = [
      { id: 'flat_rate:1', type: 'flat_rate' as const, title: 'Ground', cost: 800 },
      { id: 'free_shipping:2', type: 'free_shipping' as const, title: 'Free', cost: 0 },
      { id: 'local_pickup:3', type: 'local_pickup' as const, title: 'Pickup', cost: 0 },
    ];
    expect(cheapestRate(rates)?.id).toBe('free_shipping:2');
    expect(cheapestRate([])).toBeNull();
  });
});
