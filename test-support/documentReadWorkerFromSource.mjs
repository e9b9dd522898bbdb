// The search's document read worker run from its TypeScript source, as tests run the server (the built server runs
// the bundled dist/server/search-read-worker.js): the worker's own modules go through tsx.
import { tsImport } from 'tsx/esm/api';

await tsImport('../src/server/search/documentReadWorker.ts', import.meta.url);
