// Finds Chromium for the browser tests (CHROMIUM_PATH, then /usr/bin/chromium); on Debian, installs the
// `chromium` package when it is missing, since Playwright's own browser download cannot be used here.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export function findChromium() {
  for (const candidate of [process.env.CHROMIUM_PATH, '/usr/bin/chromium']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (findChromium()) process.exit(0);
  const isDebian = existsSync('/etc/debian_version');
  const isRoot = process.getuid?.() === 0;
  if (isDebian) {
    const sudo = isRoot ? '' : 'sudo ';
    console.log('Chromium not found: installing Debian package "chromium" for the browser tests…');
    try {
      execSync(
        `${sudo}apt-get update -qq && ${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium`,
        {
          stdio: 'inherit',
        },
      );
    } catch {
      console.error('Installing chromium failed. Install it by hand: apt-get install chromium');
      process.exit(1);
    }
    if (findChromium()) process.exit(0);
  }
  console.error(
    'The browser tests need Chromium. Install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its binary.',
  );
  process.exit(1);
}
