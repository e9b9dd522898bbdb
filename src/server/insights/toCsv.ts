/**
 * RFC 4180 CSV with a header row. A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR at the
 * start) gets a leading apostrophe: page paths and referrers come from visitors (OWASP "CSV injection").
 */
export function toCsv(columns: string[], rows: (string | number | null)[][]): string {
  const cell = (value: string | number | null) => {
    if (value === null) return '';
    if (typeof value === 'number') return String(value);
    const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  return `${[columns, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}
