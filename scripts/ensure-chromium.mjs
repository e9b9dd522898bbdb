// Finds Chromium for the browser tests: CHROMIUM_PATH, then Debian's /usr/bin/chromium (Playwright's own browser
// download cannot be used here). `scripts/ensure-test-tools.mjs` installs it when it is missing.
import { existsSync } from 'node:fs';

export function findChromium() {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}
