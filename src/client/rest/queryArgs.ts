/*
 * Query-string edits on REST paths and URLs, relative (`/wp/v2/posts?page=2`) or absolute, without the URL
 * parser's need for a base. The platform's URLSearchParams does the encoding.
 */

function split(url: string): [base: string, query: string, hash: string] {
  const hashAt = url.indexOf('#');
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  const withoutHash = hashAt === -1 ? url : url.slice(0, hashAt);
  const queryAt = withoutHash.indexOf('?');
  return queryAt === -1
    ? [withoutHash, '', hash]
    : [withoutHash.slice(0, queryAt), withoutHash.slice(queryAt + 1), hash];
}

/** Sets (or replaces) query arguments. */
export function addQueryArgs(url: string, args: Record<string, string | number>): string {
  const [base, query, hash] = split(url);
  const params = new URLSearchParams(query);
  for (const [name, value] of Object.entries(args)) params.set(name, String(value));
  const text = params.toString();
  return `${base}${text ? `?${text}` : ''}${hash}`;
}

export function getQueryArg(url: string, name: string): string | null {
  return new URLSearchParams(split(url)[1]).get(name);
}

/** The same path with its query arguments sorted, so equal requests compare equal. */
export function normalizePath(path: string): string {
  const [base, query] = split(path);
  const params = new URLSearchParams(query);
  params.sort();
  const text = params.toString();
  return `${base.startsWith('/') ? base : `/${base}`}${text ? `?${text}` : ''}`;
}
