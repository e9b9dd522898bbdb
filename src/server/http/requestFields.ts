import { z } from 'zod';

/**
 * The fields of a parsed query string or body: a form post's or a JSON object's, and none without a body. A body
 * that is not a set of fields (a JSON array or string, raw bytes) is refused instead of being read as one.
 */
export const requestFields = z
  .union([z.record(z.string(), z.unknown()), z.undefined(), z.null()])
  .transform((fields) => fields ?? {});

/**
 * A request's query string and body as one input, the body winning on a shared name, as WordPress's `$_REQUEST`
 * reads them: WooCommerce's scripts send some fields in the URL and some in the body.
 */
export const queryAndBody = z
  .object({ query: requestFields, body: requestFields })
  .transform(({ query, body }) => ({ ...query, ...body }));
