/**
 * REST answers the server renders into a page so the client needs no request for them (WordPress's
 * `rest_preload_api_request`), keyed by path under the REST root (`/wp/v2/posts?per_page=5`). Headers are kept
 * for callers that read pagination (`parse: false`).
 */
export type PreloadedResponses = Record<string, { body: unknown; headers?: Record<string, string> }>;

/** The `<script type="application/json">` that carries them. */
export const REST_PRELOAD_SCRIPT_ID = 'shop-rest-preload';
