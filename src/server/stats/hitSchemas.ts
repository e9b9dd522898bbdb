import { z } from 'zod';
import { decodeBase64Text } from '../../shared/stats/base64Text';

/*
 * Every field of the tracker's requests, validated (missing fields, bad base64 and huge values are 400s).
 * Unknown fields are ignored. Lengths are bounded before anything is decoded or stored.
 */

const base64Text = (max: number, options: { path?: boolean } = {}) =>
  z
    .string()
    .max(Math.ceil((max * 4) / 3) + 4)
    .transform((value, context) => {
      const text = decodeBase64Text(value);
      if (text === null) {
        context.addIssue({ code: 'custom', message: 'is not valid base64 of UTF-8 text' });
        return z.NEVER;
      }
      if (text.length > max) {
        context.addIssue({ code: 'custom', message: `is longer than ${max} characters` });
        return z.NEVER;
      }
      if (options.path && !text.startsWith('/')) {
        context.addIssue({ code: 'custom', message: 'must be a path starting with /' });
        return z.NEVER;
      }
      return text;
    });

const signedParamsShape = {
  source_type: z.string().regex(/^[a-z0-9_]{1,32}$/, 'is not a page type'),
  source_id: z
    .string()
    .regex(/^\d{1,12}$/, 'is not a page id')
    .transform(Number),
  search_query: z.string().max(200).default(''),
  signature: z.string().regex(/^[0-9a-f]{64}$/, 'is not a signature'),
};

export const hitSchema = z.object({
  ...signedParamsShape,
  referred: base64Text(2048),
  page_uri: base64Text(2048, { path: true }),
  anonymous: z.enum(['0', '1']).optional(),
});
export type HitInput = z.output<typeof hitSchema>;

const text = (max: number) => z.string().max(max).default('');
export const eventSchema = z.object({
  ...signedParamsShape,
  en: z.enum(['file_download', 'outbound_link']),
  et: z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
  eid: text(200),
  ec: text(500),
  ev: text(200),
  mb: z.string().regex(/^\d$/).default('0').transform(Number),
  fn: text(255),
  fx: text(16),
  m: z
    .string()
    .regex(/^\d{1,12}$/)
    .default('0'),
  tu: z.url({ protocol: /^https?$/ }).max(2048),
  pid: z
    .string()
    .regex(/^\d{1,12}$/)
    .default('0'),
  wcdl: z.enum(['0', '1']).default('0'),
  df: text(255),
  dk: text(2048),
  anonymous: z.enum(['0', '1']).optional(),
});
export type EventInput = z.output<typeof eventSchema>;

/** `X-WPS-TS`: base64 of Unix seconds (docs/contract.md). */
export function readTimestamp(header: unknown): number | null {
  if (typeof header !== 'string' || header.length > 24) return null;
  const text = decodeBase64Text(header);
  return text !== null && /^\d{1,12}$/.test(text) ? Number(text) : null;
}
