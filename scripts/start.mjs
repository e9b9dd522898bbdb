// `npm start`: builds when the sources are newer than dist/, then runs the server bundle.
import { execFileSync } from 'node:child_process';
import { buildIsCurrent } from './buildStamp.mjs';

if (!buildIsCurrent()) execFileSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
await import('../dist/server/main.js');
