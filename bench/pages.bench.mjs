// Server-side page rendering: how many full pages (React SSR of the layout, catalog queries, settings, nonces)
// the shop renders per second, against the floor of the same Fastify serving a static copy of the same HTML.
// Loopback only, bounded: a fixed number of requests per target, three rounds, medians reported.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

import Fastify from 'fastify';

const { buildBenchApp } = await import('../dist/server/bench.js');

const REQUESTS = 400;
const ROUNDS = 3;
const dataDir = mkdtempSync(join(tmpdir(), 'shop-bench-'));
const { app, close } = await buildBenchApp(dataDir);

const targets = ['/', '/shop/', '/product/washed-linen-shirt/', '/product-category/apparel/'];
const staticCopies = {};
for (const url of targets) staticCopies[url] = (await app.inject(url)).body;
// The peer: a bare Fastify app answering the same bytes from memory, the floor any server-rendered page sits on.
const peer = Fastify();
peer.get('/', async (request, reply) => reply.type('text/html').send(staticCopies[request.query.url]));

async function timeRequests(server, url) {
  const times = [];
  for (let i = 0; i < REQUESTS; i++) {
    const start = performance.now();
    const response = await server.inject(url);
    times.push(performance.now() - start);
    if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}`);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
console.log('page                              SSR p50 (ms)   static p50 (ms)   ratio');
for (const url of targets) {
  const ssr = [];
  const floor = [];
  for (let round = 0; round < ROUNDS; round++) {
    ssr.push(await timeRequests(app, url));
    floor.push(await timeRequests(peer, `/?url=${encodeURIComponent(url)}`));
  }
  const [a, b] = [median(ssr), median(floor)];
  console.log(
    `${url.padEnd(34)}${a.toFixed(3).padStart(12)}${b.toFixed(3).padStart(18)}${(a / b).toFixed(1).padStart(8)}×`,
  );
}
await close();
await peer.close();
rmSync(dataDir, { recursive: true, force: true });
