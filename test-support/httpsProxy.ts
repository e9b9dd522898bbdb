import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A TLS-terminating reverse proxy on 127.0.0.1 in front of a shop listening on plain HTTP, as a production host
 * runs one (nginx, Caddy): it adds `X-Forwarded-Proto: https` and `X-Forwarded-For`, which the shop believes only
 * with `server.trustProxy`. Its certificate is self-signed for 127.0.0.1 and made on the spot with the `openssl`
 * command; clients trust it through `certificate` (e.g. an https.Agent's `ca`, curl's `--cacert`).
 */
export interface HttpsProxy {
  origin: string;
  certificate: string;
  certificatePath: string;
  close(): Promise<void>;
}

export async function startHttpsProxy(upstreamPort: number): Promise<HttpsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'shop-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certificatePath = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certificatePath,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  const certificate = readFileSync(certificatePath, 'utf8');
  const server = createServer({ key: readFileSync(keyPath), cert: certificate }, (incoming, outgoing) => {
    const upstream = httpRequest(
      {
        host: '127.0.0.1',
        port: upstreamPort,
        method: incoming.method,
        path: incoming.url,
        headers: {
          ...incoming.headers,
          'x-forwarded-proto': 'https',
          'x-forwarded-for': incoming.socket.remoteAddress ?? '',
        },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `https://127.0.0.1:${port}`,
    certificate,
    certificatePath,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
