import type { Variation } from '../types';
import { type MatchAttribute, matchVariations, type ValueState } from './matchVariations';
import type { Choices } from './selectVariation';

/** The `swatches` settings that decide what a click does (SPEC.md §4 "Swatches"). */
export interface ChoiceRules {
  clearOnReselect: boolean;
  deselectUnavailable: boolean;
  clickableOutOfStock: boolean;
}

/** A value the shopper cannot pick as things stand: impossible, or sold out when sold-out values are not clickable. */
export function isBlocked(state: ValueState, rules: ChoiceRules): boolean {
  return state.status === 'impossible' || (state.status === 'outofstock' && !rules.clickableOutOfStock);
}

/**
 * Whether no change to the other choices could make `value` pickable: blocked even with nothing else chosen (sold out
 * in every variation while sold-out values are not clickable, or offered by none). Deselect-unavailable cannot help
 * such a value, so it stays inert instead of wiping the shopper's other choices for nothing.
 */
export function isBlockedEverywhere(
  attributes: readonly MatchAttribute[],
  variations: readonly Variation[],
  field: string,
  value: string,
  rules: ChoiceRules,
): boolean {
  const alone = matchVariations(attributes, variations, {}).values[field]?.[value];
  return alone !== undefined && isBlocked(alone, rules);
}

/**
 * The choices after the shopper activates `value` of `field`: selects it; the selected value again clears it only
 * with clear-on-reselect; a blocked value is ignored, unless deselect-unavailable is on (and some other choices would
 * make it pickable), which selects it and clears the other choices that stand in its way (those in `conflicts` first, all others when the combination is to blame)
 * until an in-stock variation is reachable again. Returns the same object when nothing changes.
 */
export function chooseValue(
  attributes: readonly MatchAttribute[],
  variations: readonly Variation[],
  choices: Choices,
  field: string,
  value: string,
  rules: ChoiceRules,
): Choices {
  if (choices[field] === value) {
    if (!rules.clearOnReselect) return choices;
    const { [field]: _cleared, ...rest } = choices;
    return rest;
  }
  const state = matchVariations(attributes, variations, choices).values[field]?.[value];
  if (!state) return choices;
  if (!isBlocked(state, rules)) return { ...choices, [field]: value };
  if (!rules.deselectUnavailable || isBlockedEverywhere(attributes, variations, field, value, rules))
    return choices;

  let next: Record<string, string> = { ...choices, [field]: value };
  let current = state;
  // Each round clears at least one other choice, so this ends within the number of attributes.
  while (current.status !== 'available') {
    const others = Object.keys(next).filter((key) => key !== field && next[key]);
    if (others.length === 0) break;
    const clear = current.conflicts.length > 0 ? current.conflicts : others;
    next = Object.fromEntries(Object.entries(next).filter(([key]) => !clear.includes(key)));
    const { [field]: _own, ...othersOnly } = next;
    current = matchVariations(attributes, variations, othersOnly).values[field]?.[value] ?? current;
  }
  return next;
}
