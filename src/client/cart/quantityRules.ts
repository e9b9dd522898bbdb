/*
 * The quantity input's rules, pure so the React markup, the browser behaviour and
 * the tests share them: step defaults to 1 and a non-integer step shows one decimal; plus never passes the
 * maximum; minus never goes below the minimum or zero; a value below a positive minimum is raised to it on load.
 */

interface QuantityRules {
  min: number | null;
  max: number | null;
  step: number;
}

/** Reads the rules from an input's `min`, `max` and `step` attributes; missing or unreadable values fall back. */
export function readQuantityRules(attributes: {
  min?: string | null;
  max?: string | null;
  step?: string | null;
}): QuantityRules {
  const number = (text: string | null | undefined) => {
    if (text === null || text === undefined || text.trim() === '') return null;
    const value = Number(text);
    return Number.isFinite(value) ? value : null;
  };
  const step = number(attributes.step);
  return { min: number(attributes.min), max: number(attributes.max), step: step && step > 0 ? step : 1 };
}

export function formatQuantity(value: number, step: number): string {
  return Number.isInteger(step) ? String(Math.round(value)) : value.toFixed(1);
}

/** The value after pressing plus (`direction` 1) or minus (-1). */
export function stepQuantity(current: string, rules: QuantityRules, direction: 1 | -1): string {
  const parsed = Number.parseFloat(current);
  const value = Number.isFinite(parsed) ? parsed : 0;
  // Rounded to a tenth so 0.1 + 0.2 does not drift into 0.30000000000000004.
  let next = Math.round((value + direction * rules.step) * 10) / 10;
  if (direction === 1 && rules.max !== null && next > rules.max) next = rules.max;
  const floor = Math.max(rules.min ?? 0, 0);
  if (direction === -1 && next < floor) next = floor;
  return formatQuantity(next, rules.step);
}

/** On load: a value below a positive minimum becomes the minimum; anything else is left as the server wrote it. */
export function raiseToMinimum(current: string, rules: QuantityRules): string {
  const value = Number.parseFloat(current);
  if (rules.min === null || rules.min <= 0) return current;
  if (!Number.isFinite(value) || value < rules.min) return formatQuantity(rules.min, rules.step);
  return current;
}
