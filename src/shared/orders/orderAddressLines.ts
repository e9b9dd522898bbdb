import { statesOf } from '../checkout/addressRules';
import type { OrderAddress } from './orderTypes';

/**
 * An order's address as mails and the back office print it, one line each, empty parts left out; the country is
 * named by the caller (a mail names it in the shop's language). Where the country has a list of states, the town's
 * line is written the North American way with the state's code ("Springfield, IL 62701"); elsewhere the postcode
 * comes first ("12345 Springfield"), as most of Europe writes it.
 */
export function orderAddressLines(address: OrderAddress, countryName: (code: string) => string): string[] {
  const town = statesOf(address.country)
    ? [address.city, [address.state, address.postcode].filter(Boolean).join(' ')].filter(Boolean).join(', ')
    : [address.postcode, address.city].filter(Boolean).join(' ');
  return [
    `${address.firstName} ${address.lastName}`.trim(),
    address.company,
    address.address1,
    address.address2,
    town,
    address.country ? countryName(address.country) : '',
    // A stored address read from JSON may lack a field an older checkout did not ask for.
  ].filter((line) => (line ?? '').trim() !== '');
}
