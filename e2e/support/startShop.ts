import { test } from '@playwright/test';
import { type RunningShop, startBuiltShop } from '../../scripts/lib/startBuiltShop.mjs';

export type { RunningShop };

/**
 * Starts the built shop on a free port with a fresh data dir seeded with the demo catalog, optionally with a
 * SHOP_CONFIG settings object; given `existingDataDir`, it restarts a shop on that data dir instead.
 */
export function startShop(settings?: object, existingDataDir?: string): Promise<RunningShop> {
  return startBuiltShop({ settings, dataDir: existingDataDir });
}

/**
 * One shop for the spec file that calls it (started before its first test, stopped after its last), so files run
 * in parallel on their own servers. Returns a getter, since the shop exists only once `beforeAll` has run.
 */
export function shopPerSpecFile(settings?: object): () => RunningShop {
  let shop: RunningShop | undefined;
  test.beforeAll(async () => {
    shop = await startShop(settings);
  });
  test.afterAll(async () => {
    await shop?.stop();
  });
  return () => {
    if (!shop) throw new Error('The shop is started in beforeAll; use it inside a test');
    return shop;
  };
}
