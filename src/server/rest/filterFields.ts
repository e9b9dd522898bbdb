/**
 * WordPress's `_fields`: keep only the named fields of a response item, where `a.b` keeps `b` inside `a` and `a`
 * keeps all of `a`. Unknown names are ignored.
 */
export function filterFields(
  item: Record<string, unknown>,
  fields: readonly string[],
): Record<string, unknown> {
  if (fields.length === 0) return item;
  const result: Record<string, unknown> = {};
  for (const field of fields) {
    const [head = '', ...rest] = field.split('.');
    if (!(head in item)) continue;
    const value = item[head];
    if (rest.length === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) {
      result[head] = value;
      continue;
    }
    const existing = result[head];
    // A whole field asked for beside one of its parts wins over the part.
    if (existing !== undefined && fields.includes(head)) continue;
    const nested = filterFields(value as Record<string, unknown>, [rest.join('.')]);
    result[head] = { ...((existing as Record<string, unknown> | undefined) ?? {}), ...nested };
  }
  return result;
}

/** `_fields=a,b` or `_fields[]=a&_fields[]=b`, as WordPress accepts both. */
export function parseFieldsParam(value: unknown): string[] {
  const parts = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  return parts
    .flatMap((part) => String(part).split(','))
    .map((part) => part.trim())
    .filter(Boolean);
}
