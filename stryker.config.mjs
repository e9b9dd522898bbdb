// Mutation testing (`npm run mutation`, not part of `npm test`): Stryker changes the code that implements the
// shop's promised browser behaviour — attribution, statistics, cart fragments, swatches, the search box's core,
// theme enhancers, the REST client, validation — one small change at a time, and checks that some unit test
// fails for each. A surviving mutant is a behaviour no test holds. The run takes a while on two cores: it reuses
// per-test coverage so each mutant runs only the tests that reach it, and it runs only the client and shared
// unit tests (vitest.mutation.config.ts), never the server suite.
//
// One group at a time: `MUTATION_GROUP=validation npm run mutation` (names below; several with commas), or any
// glob with `npm run mutation -- --mutate 'src/shared/validation/**/*.ts'`.

/** The module groups, each a set of globs; the whole run mutates all of them. */
const groups = {
  validation: ['src/shared/validation/**/*.ts'],
  attribution: ['src/shared/attribution/**/*.ts', 'src/client/attribution/**/*.ts'],
  stats: ['src/client/stats/**/*.ts', 'src/shared/stats/**/*.ts'],
  swatches: ['src/shared/catalog/variations/**/*.ts'],
  search: ['src/client/search/core/**/*.ts'],
  fragments: [
    'src/client/cart/fragments/**/*.ts',
    'src/client/cart/fragmentsPayload.ts',
    'src/client/cart/replaceFragments.ts',
    'src/client/cart/quantityRules.ts',
  ],
  theme: ['src/client/theme/**/*.ts'],
  rest: ['src/client/rest/**/*.ts'],
};

/** Tests, their helpers and type-only declarations: nothing there for a mutant to change. */
const notMutated = [
  '!src/**/*.test.ts',
  '!src/**/*.d.ts',
  '!src/**/testSupport.ts',
  '!src/client/rest/createFakeFetch.ts',
];

function selectedGroups() {
  const requested = process.env.MUTATION_GROUP?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!requested?.length) return Object.values(groups).flat();
  const unknown = requested.filter((name) => !(name in groups));
  if (unknown.length) {
    throw new Error(`Unknown MUTATION_GROUP ${unknown.join(', ')}; known: ${Object.keys(groups).join(', ')}`);
  }
  return requested.flatMap((name) => groups[name]);
}

const reportName = process.env.MUTATION_GROUP?.replace(/[^a-z,]/g, '').replace(/,/g, '-') || 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [...selectedGroups(), ...notMutated],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${reportName}.html` },
  jsonReporter: { fileName: `reports/mutation/${reportName}.json` },
  thresholds: { high: 90, low: 85, break: null },
  // Two cores shared with other work: two test-runner processes keep both busy without starving everything else.
  concurrency: 2,
  // A loaded machine makes honest runs slower; a mutant is a timeout only when it is far past its dry-run time.
  timeoutMS: 10000,
  timeoutFactor: 2,
  // Stryker rewrites a tsconfig's `extends`/`references` for its sandbox through TypeScript's JS API, which the
  // native TypeScript 7 compiler does not have; ours has neither, so Stryker is pointed at no tsconfig at all.
  tsconfigFile: 'no-tsconfig-for-stryker.json',
  // `npm run mutation -- --incremental` re-tests only the mutants whose code or tests changed since that group's last run.
  incrementalFile: `reports/mutation/${reportName}-incremental.json`,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
