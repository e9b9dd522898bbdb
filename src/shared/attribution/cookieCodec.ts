/*
 * How sourcebuster.js writes cookie values, so cookies set by a WooCommerce shop read the same here: fields joined
 * with the three-pipe delimiter, each value URI-encoded (with !~*'() escaped too), and optionally the
 * whole value base64-encoded without padding (WooCommerce's option for firewalls that block the plain value).
 */

export const FIELD_DELIMITER = '|||';

export function encodeData(text: string): string {
  return encodeURIComponent(text)
    .replace(/!/g, '%21')
    .replace(/~/g, '%7E')
    .replace(/\*/g, '%2A')
    .replace(/'/g, '%27')
    .replace(/\(/g, '%28')
    .replace(/\)/g, '%29');
}

export function decodeData(text: string): string {
  try {
    return decodeURIComponent(text)
      .replace(/%21/g, '!')
      .replace(/%7E/g, '~')
      .replace(/%2A/g, '*')
      .replace(/%27/g, "'")
      .replace(/%28/g, '(')
      .replace(/%29/g, ')');
  } catch {
    // A malformed escape (a hand-edited or truncated cookie): the library falls back to `unescape`, never fails.
    return unescape(text);
  }
}

/** The value as written to `document.cookie`. */
export function encodeCookieValue(value: string, base64: boolean): string {
  const encoded = encodeData(value);
  return base64 ? btoa(encoded).replace(/=+$/, '') : encoded;
}

/** Reads either form: an encoded value always contains `%` (its fields hold `=`), a base64 one never does. */
export function decodeCookieValue(raw: string): string {
  let text = raw;
  if (/^[A-Za-z0-9+/]+$/.test(raw)) {
    try {
      // atob reads the unpadded value as written: browsers and Node share the forgiving base64 decoder.
      text = atob(raw);
    } catch {
      // Not base64 after all (a length no encoding produces): read as the plain value it is.
    }
  }
  return decodeData(text);
}

/** `key=value|||key=value` → a record; values are decoded once more, as the library's `parse` does. */
export function unpackFields(text: string | null): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!text) return fields;
  for (const part of text.split(FIELD_DELIMITER)) {
    const [key = '', ...rest] = part.split('=');
    fields[key] = decodeData(rest.join('='));
  }
  return fields;
}

export function packFields(fields: readonly (readonly [string, string | number])[]): string {
  return fields.map(([key, value]) => `${key}=${value}`).join(FIELD_DELIMITER);
}
