export interface CurrencyFormat {
  code: string;
  symbol: string;
  position: 'left' | 'right' | 'left_space' | 'right_space';
  decimals: number;
  decimalSeparator: string;
  thousandSeparator: string;
}

/** Formats an amount in minor units the way WooCommerce's price settings describe it. */
export function formatMoney(minorUnits: number, currency: CurrencyFormat): string {
  const negative = minorUnits < 0;
  const absolute = Math.abs(minorUnits);
  const factor = 10 ** currency.decimals;
  const whole = Math.floor(absolute / factor);
  const fraction = absolute % factor;
  const wholeText = String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, currency.thousandSeparator);
  const number =
    currency.decimals > 0
      ? `${wholeText}${currency.decimalSeparator}${String(fraction).padStart(currency.decimals, '0')}`
      : wholeText;
  const sign = negative ? '-' : '';
  switch (currency.position) {
    case 'left':
      return `${sign}${currency.symbol}${number}`;
    case 'left_space':
      return `${sign}${currency.symbol}\u00a0${number}`;
    case 'right':
      return `${sign}${number}${currency.symbol}`;
    case 'right_space':
      return `${sign}${number}\u00a0${currency.symbol}`;
  }
}

/** Parses a decimal price as written in a CSV or a form ("12.5", ".5", "1,000.00") into minor units. */
export function parseMoney(text: string, decimals = 2): number | null {
  const cleaned = text.trim().replace(/,/g, '');
  if (cleaned === '') return null;
  if (!/^\d*(\.\d+)?$/.test(cleaned) || cleaned === '.') return Number.NaN;
  const [whole = '0', fraction = ''] = cleaned.split('.');
  const padded = `${fraction}${'0'.repeat(decimals)}`.slice(0, decimals);
  const rounding = Number(fraction.charAt(decimals) || '0') >= 5 ? 1 : 0;
  return Number(whole || '0') * 10 ** decimals + Number(padded || '0') + rounding;
}
