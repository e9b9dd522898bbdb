import { defineConfig } from '@playwright/test';
import { findChromium } from './scripts/ensure-chromium.mjs';

// Browser tests drive Debian's Chromium against the built shop; each spec file starts its own server on a free
// port with a fresh data dir (e2e/support/startShop.ts), so files run in parallel.
export default defineConfig({
  testDir: 'e2e',
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    // Headless Chromium's own user agent reads as a bot, and statistics exclude bots.
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    launchOptions: {
      executablePath: findChromium() ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-back-forward-cache',
      ],
    },
  },
});
