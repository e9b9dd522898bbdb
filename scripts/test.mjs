// `npm test`: lint, type check, unit tests, build, then the browser tests against the built shop.
import { spawnSync } from 'node:child_process';

const steps = [
  ['Lint and format (Biome)', 'npx', ['biome', 'ci', '.']],
  ['Type check (tsc)', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']],
  ['Test tools (Chromium, curl, openssl)', process.execPath, ['scripts/ensure-test-tools.mjs']],
  ['Unit tests (Vitest)', 'npx', ['vitest', 'run']],
  ['Build', process.execPath, ['scripts/build.mjs']],
  ['Browser tests (Playwright + Chromium)', 'npx', ['playwright', 'test']],
];

for (const [title, command, args] of steps) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n✖ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}
console.log('\n✔ All checks passed');
