import { z } from 'zod';

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const FALSY = new Set(['0', 'false', 'no', 'off', '']);

/**
 * A boolean setting that also accepts the spellings site owners write in config files
 *.
 */
export function flag(defaultValue: boolean) {
  return z
    .preprocess((value) => {
      if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
      if (typeof value !== 'string') return value;
      const normalized = value.trim().toLowerCase();
      if (TRUTHY.has(normalized)) return true;
      if (FALSY.has(normalized)) return false;
      return value;
    }, z.boolean())
    .default(defaultValue);
}
