import type { z } from 'zod';
import { isShopError, ShopError } from '../../shared/errors/ShopError';
import { parseInput } from '../http/parseInput';

/** `parseInput` with WordPress's code for bad parameters, `rest_invalid_param`, and its message shape. */
export function parseRestInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  try {
    return parseInput(schema, input);
  } catch (error) {
    if (!isShopError(error)) throw error;
    const fields = Object.keys(error.details.fields ?? {}).filter(Boolean);
    throw new ShopError(
      'rest_invalid_param',
      fields.length > 0 ? `Invalid parameter(s): ${fields.join(', ')} (${error.message})` : error.message,
      error.details,
    );
  }
}
