/** One REST request, as WordPress's `apiFetch` takes it: a `path` under the REST root, or a full `url`. */
export interface RestRequest {
  path?: string;
  url?: string;
  method?: string;
  /** Sent as JSON (`Content-Type: application/json`) unless `body` is given. */
  data?: unknown;
  body?: BodyInit | null;
  headers?: Record<string, string>;
  /** false: resolve with (and reject with) the raw `Response` instead of its parsed JSON. */
  parse?: boolean;
  signal?: AbortSignal;
  credentials?: RequestCredentials;
}

/** The rest of the chain after a middleware: the next middleware, and at the end the fetch itself. */
export type RestNext = (options: RestRequest) => Promise<unknown>;

/** A link of the chain: may change the request, answer it itself, or act on the answer (WordPress's shape). */
export type RestMiddleware = (options: RestRequest, next: RestNext) => Promise<unknown>;

export type { PreloadedResponses } from '../../shared/rest/preloadedResponses';
