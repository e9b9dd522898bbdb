// The programs the tests drive besides Node: Chromium for the browser tests, and curl and openssl for the REST API
// tests (the docs' curl examples run for real, through a TLS proxy whose certificate is made on the spot). On Debian
// the missing ones are installed with apt-get, as the project's own step, never by hand.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './ensure-chromium.mjs';

const onPath = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;

const missing = [
  ...(findChromium() ? [] : ['chromium']),
  ...['curl', 'openssl'].filter((tool) => !onPath(tool)),
];
if (missing.length === 0) process.exit(0);

const list = missing.join(' ');
if (existsSync('/etc/debian_version')) {
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  console.log(`Not found: ${list}. Installing the Debian packages for the tests…`);
  try {
    execSync(
      `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${list}`,
      { stdio: 'inherit' },
    );
    process.exit(0);
  } catch {
    console.error(`Installing them failed. Install them by hand: apt-get install ${list}`);
    process.exit(1);
  }
}
console.error(
  `The tests need ${list}. Install them (Debian/Ubuntu: apt-get install ${list}); for Chromium, CHROMIUM_PATH may name its binary.`,
);
process.exit(1);
