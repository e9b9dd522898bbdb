/*
 * sourcebuster.js's URL helpers, ported as they are: classification must agree with the library shops migrate
 * from, including its quirks — query values are taken undecoded, `www.` is removed wherever it first
 * occurs in a host, and a bare `?key` (no `=`) counts as absent. The differential test in
 * computeTrafficCookies.test.ts holds this port to the `sourcebuster` package.
 */

const LOOSE =
  /^(?:(?![^:@]+:[^:@/]*@)([^:/?#.]+):)?(?:\/\/)?((?:(([^:@]*)(?::([^:@]*))?)?@)?([^:/?#]*)(?::(\d*))?)(((\/(?:[^?#](?![^?#/]*\.[^?#/.]+(?:[?#]|$)))*\/?)?([^?#/]*))(?:\?([^#]*))?(?:#(.*))?)/;

interface ParsedUri {
  host: string;
  path: string;
  query: string;
}

export function parseUri(uri: string): ParsedUri {
  const match = LOOSE.exec(uri);
  return { host: match?.[6] ?? '', path: match?.[9] ?? '', query: match?.[12] ?? '' };
}

/** A host as sourcebuster compares it: the first `www.` removed. */
export function hostOf(uri: string): string {
  return parseUri(uri).host.replace('www.', '');
}

/** A query parameter's raw value: undefined when absent or written without `=`, a list when repeated. */
export type QueryValue = string | undefined | (string | undefined)[];

/** sourcebuster's `getParam`: no decoding, the first `=` splits name from value and the rest is dropped. */
export function readQuery(query: string): Map<string, QueryValue> {
  const params = new Map<string, QueryValue>();
  for (const pair of query.split('&')) {
    const [name = '', value] = pair.split('=');
    const known = params.get(name);
    // As in the library: an absent first value is overwritten, a second value makes a list.
    if (known === undefined) params.set(name, value);
    else if (typeof known === 'string') params.set(name, [known, value]);
    else known.push(value);
  }
  return params;
}

/** A query value as JavaScript's string concatenation renders it (a list joins with commas). */
export function queryText(value: QueryValue): string {
  if (Array.isArray(value)) return value.map((each) => each ?? '').join(',');
  return value ?? 'undefined';
}

export function escapeRegExp(text: string): string {
  return text.replace(/[-[\]/{}()*+?.\\^$|]/g, '\\$&');
}
