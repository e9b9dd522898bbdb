import { createHash } from 'node:crypto';

/**
 * A visitor of the statistics: address and browser hashed with the day's salt (deleted after the day), so a
 * visitor is one per day and cannot be followed across days. The checkout uses it to find an order's visit.
 */
export function visitorHashOf(
  salt: string,
  request: { ip: string; headers: { 'user-agent'?: string | undefined } },
): string {
  return createHash('sha256')
    .update(`${salt}|${request.ip}|${request.headers['user-agent'] ?? ''}`)
    .digest('hex')
    .slice(0, 32);
}
