/**
 * Fills a translation string's placeholders the way WordPress's `sprintf` does for texts: `%s` takes the values in
 * order, `%1$s`, `%2$s`… name them (a translation may need another order), `%%` is a literal percent sign.
 */
export function formatText(template: string, ...values: (string | number)[]): string {
  let next = 0;
  return template.replace(/%(?:(\d+)\$)?s|%%/g, (match, position: string | undefined) => {
    if (match === '%%') return '%';
    const index = position === undefined ? next++ : Number(position) - 1;
    return String(values[index] ?? '');
  });
}
