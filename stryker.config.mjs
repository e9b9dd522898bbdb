// Mutation testing (`npm run mutation`, not part of `npm test`): Stryker changes the code that implements the
// shop's promised browser behaviour — attribution, statistics, cart fragments, swatches, the search box's core,
// theme enhancers, the REST client, validation — one small change at a time, and checks that some unit test
// fails for each. A surviving mutant is a behaviour no test holds. The run takes a while on two cores: it reuses
// per-test coverage so each mutant runs only the tests that reach it, and it runs only the client and shared
// unit tests (vitest.mutation.config.ts), never the server suite.
//
// One group at a time: `MUTATION_GROUP=validation npm run mutation` (names below; several with commas), or any
// glob with `npm run mutation -- --mutate 'src/shared/validation/**/*.ts'`.

/**
 * The module groups: the code each mutates and the unit tests that exercise it. A mutant in module-level code
 * (a constant table, say) cannot be traced to the tests that reach it, so Stryker runs every test for it; within a
 * group that is the group's tests, not the whole client suite. The whole run mutates every group with every test.
 */
const groups = {
  validation: { mutate: ['src/shared/validation/**/*.ts'], tests: ['src/shared/validation'] },
  attribution: {
    mutate: ['src/shared/attribution/**/*.ts', 'src/client/attribution/**/*.ts'],
    tests: ['src/shared/attribution', 'src/client/attribution', 'src/client/tracking'],
  },
  stats: {
    mutate: ['src/client/stats/**/*.ts', 'src/shared/stats/**/*.ts'],
    tests: ['src/client/stats', 'src/shared/stats', 'src/client/tracking'],
  },
  swatches: {
    mutate: ['src/shared/catalog/variations/**/*.ts'],
    tests: ['src/shared/catalog/variations', 'src/client/product'],
  },
  search: { mutate: ['src/client/search/core/**/*.ts'], tests: ['src/client/search', 'src/shared/search'] },
  fragments: {
    mutate: [
      'src/client/cart/fragments/**/*.ts',
      'src/client/cart/fragmentsPayload.ts',
      'src/client/cart/replaceFragments.ts',
      'src/client/cart/quantityRules.ts',
    ],
    tests: ['src/client/cart'],
  },
  theme: { mutate: ['src/client/theme/**/*.ts'], tests: ['src/client/theme'] },
  rest: { mutate: ['src/client/rest/**/*.ts'], tests: ['src/client/rest'] },
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
  if (!requested?.length) return Object.values(groups);
  const unknown = requested.filter((name) => !(name in groups));
  if (unknown.length) {
    throw new Error(`Unknown MUTATION_GROUP ${unknown.join(', ')}; known: ${Object.keys(groups).join(', ')}`);
  }
  return requested.map((name) => groups[name]);
}

const selected = selectedGroups();
// Read by vitest.mutation.config.ts in Stryker's test-runner processes, which inherit this environment.
if (process.env.MUTATION_GROUP)
  process.env.MUTATION_TEST_DIRS = selected.flatMap((group) => group.tests).join(',');

const reportName = process.env.MUTATION_GROUP?.replace(/[^a-z,]/g, '').replace(/,/g, '-') || 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [...selected.flatMap((group) => group.mutate), ...notMutated],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${reportName}.html` },
  jsonReporter: { fileName: `reports/mutation/${reportName}.json` },
  thresholds: { high: 90, low: 85, break: null },
  // Two cores shared with other work: two test-runner processes keep both busy without starving everything else.
  concurrency: 2,
  // A loaded machine makes honest runs slower: with a short allowance, equivalent mutants of the slow property tests
  // were reported as timeouts (counted as detected). Failing properties stop at once (vitest.mutation.setup.ts), so a
  // real timeout is a mutant that loops.
  timeoutMS: 30000,
  timeoutFactor: 3,
  // Stryker rewrites a tsconfig's `extends`/`references` for its sandbox through TypeScript's JS API, which the
  // native TypeScript 7 compiler does not have; ours has neither, so Stryker is pointed at no tsconfig at all.
  tsconfigFile: 'no-tsconfig-for-stryker.json',
  // `npm run mutation -- --incremental` re-tests only the mutants whose code changed since that group's last run (changed
  // tests go unseen with the Vitest runner: re-run survivors with `--mutate`, docs/testing-and-benchmarks.md).
  incrementalFile: `reports/mutation/${reportName}-incremental.json`,
  tempDirName: '.stryker-tmp',
  // Two groups may run side by side with their own `--tempDirName .stryker-tmp-NAME`; neither copies the other's
  // sandbox into its own.
  ignorePatterns: ['/.stryker-tmp*'],
  // Only our sources need their type checks disabled for the instrumented code; generated `.d.mts` files don't parse.
  disableTypeChecks: 'src/**/*.{ts,tsx}',
  cleanTempDir: 'always',
};
