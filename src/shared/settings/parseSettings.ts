import { ShopError } from '../errors/ShopError';
import { type ShopConfig, settingsSchema } from './settingsSchema';

/**
 * Validates a settings object (the parsed SHOP_CONFIG file, or nothing) over the defaults.
 * Every default is in the schema, so parsing a partial object is the deep merge.
 */
export function parseSettings(input: unknown = {}): ShopConfig {
  const result = settingsSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const path = issue.path.join('.');
    const keys =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => (path ? `${path}.${key}` : key)) : [];
    return keys.length > 0 ? `unknown key ${keys.join(', ')}` : `${path || '(root)'}: ${issue.message}`;
  });
  throw new ShopError('invalid_settings', `Invalid settings: ${problems.join('; ')}`);
}

/** The part of the settings that pages may see: everything but the checkout's (read by the server) and server's. */
export function toPageSettings(config: ShopConfig) {
  const { server: _server, checkout: _checkout, ...page } = config;
  return page;
}
