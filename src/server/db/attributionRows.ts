import type { OrderAttribution } from '../../shared/attribution/orderAttribution';

/** An order_attribution row read back as the order's attribution, the same way on both engines. */
export function toOrderAttribution(row: Record<string, string | number | null>): OrderAttribution {
  const camel = Object.fromEntries(
    Object.entries(row)
      .filter(([key]) => key !== 'order_id')
      .map(([key, value]) => [
        key.replace(/_([a-z])/g, (_all, letter: string) => letter.toUpperCase()),
        value,
      ]),
  );
  return camel as unknown as OrderAttribution;
}
