import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isShopError } from '../../shared/errors/ShopError';
import { parseInput } from './parseInput';

function failure(schema: z.ZodType, input: unknown) {
  try {
    parseInput(schema, input);
  } catch (error) {
    if (isShopError(error)) return { message: error.message, fields: error.details.fields };
    throw error;
  }
  throw new Error('parseInput accepted the input');
}

describe('parseInput', () => {
  it("keeps a schema's own message as written, without the field's path", () => {
    const schema = z.object({ s: z.string().max(3, 'That search is too long (max 3 characters)') });
    expect(failure(schema, { s: 'abcd' }).message).toBe('That search is too long (max 3 characters)');
  });

  it.each([
    [z.object({ page: z.coerce.number().int().min(1) }), { page: '0' }, 'Page must be at least 1.'],
    [z.object({ page: z.coerce.number().int().max(9) }), { page: '10' }, 'Page must be at most 9.'],
    [z.object({ page: z.coerce.number() }), { page: 'abc' }, 'Page must be a number.'],
    [z.object({ hash: z.string() }), {}, 'Hash is missing.'],
    [
      z.object({ post_title: z.string().max(5) }),
      { post_title: 'abcdef' },
      'Post title is too long (max 5 characters).',
    ],
    [z.object({ mode: z.enum(['a', 'b']) }), { mode: 'c' }, 'Mode is not one of the accepted values.'],
    [
      z.object({ billing: z.object({ first_name: z.string().min(2) }) }),
      { billing: { first_name: 'a' } },
      'Billing first name must be at least 2 characters.',
    ],
  ])('words zod’s own problems as a sentence (%#)', (schema, input, sentence) => {
    const { message, fields } = failure(schema, input);
    expect(message).toBe(sentence);
    expect(Object.values(fields ?? {})).toContain(sentence);
  });
});
