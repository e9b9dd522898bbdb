// `npm run bench [-- NAME]`: runs the benchmarks in bench/ (each prints its figures and a ratio against a peer).
import { readdirSync } from 'node:fs';

const wanted = process.argv[2];
const benches = readdirSync(new URL('.', import.meta.url))
  .filter((file) => file.endsWith('.bench.mjs'))
  .filter((file) => !wanted || file.startsWith(`${wanted}.`));
if (benches.length === 0) {
  console.error(`No benchmark named "${wanted}"`);
  process.exit(2);
}
for (const file of benches) {
  console.log(`\n# ${file}`);
  await import(`./${file}`);
}
