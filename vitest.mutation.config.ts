import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// The tests Stryker runs against each mutant: only the unit tests of the browser and shared code it mutates.
// Server and PostgreSQL tests never reach those modules in a way that would kill a mutant they don't already
// kill here, and would make the dry run minutes long; `*.server.test.ts` starts a real server, so it stays out too.
export default defineConfig({
  plugins: [react()],
  test: {
    include: ['src/client/**/*.test.{ts,tsx}', 'src/shared/**/*.test.{ts,tsx}'],
    exclude: ['**/node_modules/**', 'src/**/*.server.test.ts'],
    environment: 'node',
    pool: 'forks',
  },
});
