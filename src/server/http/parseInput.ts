import type { z } from 'zod';
import { ShopError } from '../../shared/errors/ShopError';

type Issue = z.core.$ZodRawIssue;

/**
 * Validates request input with a zod schema, turning the first problem into a readable 400. Its message reaches
 * shoppers on pages, so it is a sentence: a schema's own message as written ("That search is too long (max 100
 * characters)"), else one made from the field's name ("Page must be at least 1."), never zod's wording.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  // Zod asks this map only for issues whose schema has no message of its own.
  const generated = new Set<string>();
  const result = schema.safeParse(input, {
    error: (issue) => {
      const phrase = readableProblem(issue);
      generated.add(phrase);
      return phrase;
    },
  });
  if (result.success) return result.data;
  const sentence = (issue: z.core.$ZodIssue) =>
    generated.has(issue.message) ? `${fieldLabel(issue.path)} ${issue.message}.` : issue.message;
  const first = result.error.issues[0];
  throw new ShopError('invalid_request', first ? sentence(first) : 'That request is not valid.', {
    fields: Object.fromEntries(result.error.issues.map((each) => [each.path.join('.'), sentence(each)])),
  });
}

/** `page` → "Page", `billing.first_name` → "Billing first name", the whole input → "The request". */
function fieldLabel(path: readonly PropertyKey[]): string {
  const words = path
    .filter((part) => typeof part === 'string')
    .join(' ')
    .replace(/[._-]+/g, ' ')
    .trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'The request';
}

/** What is wrong, as the end of a sentence starting with the field's name. */
function readableProblem(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is missing';
      return issue.expected === 'number' || issue.expected === 'int' ? 'must be a number' : 'is not valid';
    case 'too_small':
      if (issue.origin === 'string') {
        return Number(issue.minimum) <= 1 ? 'is missing' : `must be at least ${issue.minimum} characters`;
      }
      if (issue.origin === 'array') return `needs at least ${issue.minimum} items`;
      return `must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `is too long (max ${issue.maximum} characters)`;
      if (issue.origin === 'array') return `has too many items (max ${issue.maximum})`;
      return `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return 'is not one of the accepted values';
    case 'invalid_format':
      return 'is not in the expected format';
    case 'unrecognized_keys':
      return 'has fields the shop does not know';
    default:
      return 'is not valid';
  }
}
