/**
 * The part of the input that is searched: the trimmed value, or with a delimiter only the
 * trimmed last part after it, so "shirt, mug" searches "mug".
 */
export function extractQuery(value: string, delimiter: string | null): string {
  if (!delimiter) return value.trim();
  const parts = value.split(delimiter);
  return (parts[parts.length - 1] ?? '').trim();
}

/** The input value after choosing `phrase`: with a delimiter only the last part is replaced. */
export function replaceQuery(value: string, phrase: string, delimiter: string | null): string {
  if (!delimiter) return phrase;
  const parts = value.split(delimiter);
  parts[parts.length - 1] = parts.length > 1 ? ` ${phrase}` : phrase;
  return parts.join(delimiter);
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
  '#039': "'",
  nbsp: ' ',
};

/** A phrase placed into the input loses its HTML tags; common entities become their characters. */
export function stripTags(value: string): string {
  return value
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#0?39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .trim();
}
