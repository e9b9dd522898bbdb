import { isIPv4, isIPv6 } from 'node:net';

/**
 * The part of a client's address that names one client: an IPv4 address whole (an IPv4-mapped IPv6 address as its
 * IPv4), an IPv6 address by its /64, the block one household or server is given, so rotating through it is still
 * one client. Anything else (no address) is used as it is.
 */
export function clientNetworkOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped && isIPv4(mapped)) return mapped;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail] = ip.toLowerCase().split('%')[0]?.split('::') ?? [];
  // An embedded IPv4 tail (a:b::1.2.3.4) stands for the last two groups.
  const split = (part: string) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : [];
  const left = split(head);
  const right = split(tail ?? '');
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
