// `npm run import -- FILE.csv [SITE.json]` and `npm run bench`: build if needed, then run the named program.
import { execFileSync } from 'node:child_process';
import { buildIsCurrent } from './buildStamp.mjs';

const [name, ...args] = process.argv.slice(2);
const programs = {
  import: 'dist/server/import.js',
  bench: 'bench/run.mjs',
  report: 'dist/server/report.js',
  reindex: 'dist/server/reindex.js',
  'owner-password': 'dist/server/owner-password.js',
  owner: 'dist/server/owner.js',
  'seed:bench': 'dist/server/seed-bench.js',
};
if (!programs[name]) {
  console.error(`Unknown program "${name}"; one of: ${Object.keys(programs).join(', ')}`);
  process.exit(2);
}
if (!buildIsCurrent()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
process.argv = [process.argv[0], programs[name], ...args];
await import(`../${programs[name]}`);
