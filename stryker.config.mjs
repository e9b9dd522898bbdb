// Mutation testing (`npm run mutation`, not part of `npm test`): Stryker changes the code that implements the
// shop's promised browser behaviour — attribution, statistics, cart fragments, swatches, the search box's core,
// theme enhancers, the REST client, validation — one small change at a time, and checks that some unit test
// fails for each. A surviving mutant is a behaviour no test holds. The run takes a while on two cores: it reuses
// per-test coverage so each mutant runs only the tests that reach it.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts', related: false },
  coverageAnalysis: 'perTest',
  mutate: [
    'src/shared/attribution/**/*.ts',
    'src/client/attribution/**/*.ts',
    'src/client/stats/**/*.ts',
    'src/shared/stats/**/*.ts',
    'src/client/cart/fragments/**/*.ts',
    'src/client/cart/fragmentsPayload.ts',
    'src/client/cart/replaceFragments.ts',
    'src/client/cart/quantityRules.ts',
    'src/shared/catalog/variations/**/*.ts',
    'src/client/search/core/**/*.ts',
    'src/client/theme/**/*.ts',
    'src/client/rest/**/*.ts',
    'src/shared/validation/**/*.ts',
    '!src/**/*.test.ts',
    '!src/**/testSupport.ts',
    '!src/client/rest/createFakeFetch.ts',
  ],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 90, low: 85, break: null },
  concurrency: 2,
  // Stryker rewrites a tsconfig's `extends`/`references` for its sandbox through TypeScript's JS API, which the
  // native TypeScript 7 compiler does not have; ours has neither, so Stryker is pointed at no tsconfig at all.
  tsconfigFile: 'no-tsconfig-for-stryker.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
