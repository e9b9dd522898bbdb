// Builds the client bundle (dist/client) and the server bundle (dist/server), then stamps the build.
import { writeFileSync } from 'node:fs';
import { build } from 'vite';
import { BUILD_STAMP, sourceFingerprint } from './buildStamp.mjs';
import { precompressDir } from './precompress.mjs';

await build({ configFile: 'vite.config.ts', logLevel: 'warn' });
precompressDir('dist/client/assets');
await build({ configFile: 'vite.server.config.ts', logLevel: 'warn' });
writeFileSync(BUILD_STAMP, sourceFingerprint());
console.log('Built dist/client and dist/server');
