// Whether dist/ is older than the sources, so `npm start` builds only when something changed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const BUILD_STAMP = 'dist/.build-stamp';
const INPUTS = ['src', 'package.json', 'package-lock.json', 'vite.config.ts', 'vite.server.config.ts'];

function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestChange(join(path, name))),
    stat.mtimeMs,
  );
}

export function sourceFingerprint() {
  return String(Math.max(...INPUTS.map(newestChange)));
}

export function buildIsCurrent() {
  return (
    existsSync(BUILD_STAMP) &&
    existsSync('dist/server/main.js') &&
    readFileSync(BUILD_STAMP, 'utf8') === sourceFingerprint()
  );
}
