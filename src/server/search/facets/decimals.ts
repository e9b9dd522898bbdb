/** A price as the URL writes it ("20", "39.99"; no thousands separator) into minor units; null when absent or junk. */
export function parseDecimal(text: string | undefined, decimals: number): number | null {
  if (text === undefined) return null;
  const match = text.trim().match(/^(\d{1,12})(?:\.(\d+))?$/);
  if (!match) return null;
  const fraction = `${match[2] ?? ''}${'0'.repeat(decimals)}`.slice(0, decimals);
  return Number(match[1]) * 10 ** decimals + Number(fraction || '0');
}

/** Minor units as the URL writes a price: no trailing zeros ("20", "39.99", "20.5"). */
export function formatDecimal(minor: number, decimals: number): string {
  const factor = 10 ** decimals;
  const whole = Math.floor(minor / factor);
  const fraction = String(minor % factor)
    .padStart(decimals, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
