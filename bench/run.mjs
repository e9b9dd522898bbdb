// `npm run bench [-- NAME]`: runs the benchmarks in bench/ (each prints its figures and a ratio against a peer).
import { readdirSync } from 'node:fs';

const wanted = process.argv[2];
// A bench's own options come after its name and stay in process.argv for it to read.
if (wanted?.startsWith('-')) {
  console.error(
    'Name the benchmark before its options: npm run bench -- search --catalog FILE --queries FILE',
  );
  process.exit(2);
}
// Names that stand for several benchmarks: `pages` is how fast the server renders them and how fast a phone
// loads them (Lighthouse), "npm run bench -- pages".
const groups = { pages: ['pages', 'lighthouse'] };
const names = wanted ? (groups[wanted] ?? [wanted]) : null;
const benches = readdirSync(new URL('.', import.meta.url))
  .filter((file) => file.endsWith('.bench.mjs'))
  .filter((file) => !names || names.some((name) => file.startsWith(`${name}.`)));
if (benches.length === 0) {
  console.error(`No benchmark named "${wanted}"`);
  process.exit(2);
}
for (const file of benches) {
  console.log(`\n# ${file}`);
  await import(`./${file}`);
}
