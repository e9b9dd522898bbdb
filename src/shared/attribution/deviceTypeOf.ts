export type DeviceType = 'Mobile' | 'Tablet' | 'Desktop';

/**
 * The device type WooCommerce's order attribution stores, by its user-agent rules; one home for browser (checkout
 * input), server (orders) and statistics (visits), so orders and visits can be joined on it.
 */
export function deviceTypeOf(userAgent: string): DeviceType {
  if (/(tablet|ipad|playbook|silk)|(android(?!.*mobi))/i.test(userAgent)) return 'Tablet';
  if (
    /Mobile|iP(hone|od)|Android|BlackBerry|IEMobile|Kindle|Silk-Accelerated|(hpw|web)OS|Opera M(obi|ini)/.test(
      userAgent,
    )
  )
    return 'Mobile';
  return 'Desktop';
}
