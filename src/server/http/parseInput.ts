import type { z } from 'zod';
import { ShopError } from '../../shared/errors/ShopError';

/** Validates request input with a zod schema, turning the first problem into a readable 400. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  throw new ShopError(
    'invalid_request',
    field ? `${field}: ${issue?.message}` : (issue?.message ?? 'Invalid request'),
    {
      fields: Object.fromEntries(result.error.issues.map((each) => [each.path.join('.'), each.message])),
    },
  );
}
