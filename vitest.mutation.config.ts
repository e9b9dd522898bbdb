import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant: only the unit tests of the browser and shared code it mutates, and
// for one group (MUTATION_GROUP, see stryker.config.mjs) only that group's test folders. Server and PostgreSQL
// tests stay out: they would make every run minutes long; `*.server.test.ts` starts a real server.
const testDirs = process.env.MUTATION_TEST_DIRS?.split(',').filter(Boolean) ?? ['src/client', 'src/shared'];

export default defineConfig({
  plugins: [react()],
  test: {
    include: testDirs.map((dir) => `${dir}/**/*.test.{ts,tsx}`),
    exclude: ['**/node_modules/**', 'src/**/*.server.test.ts'],
    setupFiles: ['vitest.mutation.setup.ts'],
    environment: 'node',
    pool: 'forks',
  },
});
