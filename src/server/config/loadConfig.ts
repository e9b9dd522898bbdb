import { readFileSync } from 'node:fs';
import { parseSettings } from '../../shared/settings/parseSettings';
import type { ShopConfig } from '../../shared/settings/settingsSchema';

/** Reads the SHOP_CONFIG JSON file (if any) and validates it over the defaults; throws a message naming the bad key. */
export function loadConfig(path: string | undefined): ShopConfig {
  if (!path) return parseSettings({});
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`SHOP_CONFIG ${path} cannot be read as JSON: ${(error as Error).message}`);
  }
  try {
    return parseSettings(json);
  } catch (error) {
    throw new Error(`SHOP_CONFIG ${path}: ${(error as Error).message}`);
  }
}
