/*
 * Base64 of UTF-8 text, the tracker's encoding for `referred`, `page_uri` and `X-WPS-TS`. btoa
 * alone takes only Latin-1, so non-ASCII paths go through UTF-8 bytes first. Decoding is strict: the server turns
 * null into a 400.
 */

export function encodeBase64Text(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeBase64Text(encoded: string): string | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 === 1) return null;
  try {
    const binary = atob(encoded);
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}
