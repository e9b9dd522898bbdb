import { attributeFieldName, type ProductAttribute } from '../types';
import type { Choices } from './selectVariation';

/**
 * The choices a shared address preselects (`?attribute_pa_color=blue`, WooCommerce's variation links): only
 * known attributes and values count, so a stale or hostile link selects nothing rather than something invalid.
 */
export function choicesFromQuery(
  attributes: readonly ProductAttribute[],
  query: Readonly<Record<string, unknown>> | URLSearchParams,
): Choices {
  const read = (field: string): unknown =>
    query instanceof URLSearchParams ? query.get(field) : (query as Record<string, unknown>)[field];
  const choices: Record<string, string> = {};
  for (const attribute of attributes) {
    const field = attributeFieldName(attribute.slug);
    const value = read(field);
    if (typeof value === 'string' && attribute.options.some((option) => option.slug === value))
      choices[field] = value;
  }
  return choices;
}
