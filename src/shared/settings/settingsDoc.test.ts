import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listSettings, renderSettingsDoc, SETTINGS_DOC_PATH } from '../../../scripts/settings-doc';
import { settingsSchema } from './settingsSchema';

/** Every setting's dotted path, read from the defaults alone (not from the generator's walk of the schema). */
function leafPaths(value: unknown, path: string[] = []): string[] {
  const isSection =
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0;
  if (!isSection || (path.length > 0 && isFreeFormMap(path))) return [path.join('.')];
  return Object.entries(value).flatMap(([key, child]) => leafPaths(child, [...path, key]));
}

// Maps whose keys are the owner's (query → pinned ids, parameter → value): one setting, however many entries.
function isFreeFormMap(path: string[]): boolean {
  return ['search.customParams', 'search.relevance.pins', 'stats.hitParams'].includes(path.join('.'));
}

describe('settings reference (docs/settings.md)', () => {
  it('is what `npm run docs:settings` writes from the schema today', () => {
    const committed = readFileSync(SETTINGS_DOC_PATH, 'utf8');
    // When this fails, the schema changed: run `npm run docs:settings` and commit docs/settings.md.
    expect(committed, 'docs/settings.md is stale: run `npm run docs:settings`').toBe(renderSettingsDoc());
  });

  it('lists every setting the schema has a default for, once, with that default', () => {
    const defaults = settingsSchema.parse({});
    const rows = listSettings();
    expect(rows.map((row) => row.path).sort()).toEqual(leafPaths(defaults).sort());
    const byPath = new Map(rows.map((row) => [row.path, row]));
    expect(byPath.get('search.minChars')?.defaultValue).toBe(defaults.search.minChars);
    expect(byPath.get('server.stats.batchSize')?.defaultValue).toBe(defaults.server.stats.batchSize);
  });

  it('names each type the way a settings file must write it', () => {
    const typeOf = (path: string) => listSettings().find((row) => row.path === path)?.type;
    expect(typeOf('theme.scrollToTop')).toBe('"both" or "desktop" or "mobile" or "off"');
    expect(typeOf('theme.stickyHeader')).toBe('boolean');
    expect(typeOf('search.limits.products')).toBe('integer 0–50');
    expect(typeOf('search.lookupLimit')).toBe('integer ≥ 1 or null');
    expect(typeOf('server.secret')).toBe('string of ≥ 32 characters or null');
    expect(typeOf('shop.currency.code')).toBe('string of 3 characters');
    const { minChars } = settingsSchema.parse({}).search;
    expect(renderSettingsDoc()).toMatch(
      new RegExp(`\\| \`search\\.minChars\` +\\| integer ≥ 1 +\\| \`${minChars}\` +\\|`),
    );
  });
});
