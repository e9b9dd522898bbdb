import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Proxy {
  url: string;
  /** How many requests each target answered, in the order of `targets`. */
  counts: number[];
  close(): Promise<void>;
}

/**
 * A tiny load balancer for the browser tests on PostgreSQL: each request goes to the next of the shop processes
 * in turn (round robin), so a page, its Ajax calls and the form it posts reach different processes, as they
 * would behind a real balancer without sticky sessions. The Host header is passed through unchanged.
 */
export async function startRoundRobinProxy(targets: string[]): Promise<Proxy> {
  let next = 0;
  const counts = targets.map(() => 0);
  const server = createServer((incoming, outgoing) => {
    const index = next++ % targets.length;
    counts[index] = (counts[index] ?? 0) + 1;
    const target = new URL(targets[index] as string);
    const forward = request(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers: incoming.headers,
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forward.on('error', () => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end('Bad gateway');
    });
    incoming.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
