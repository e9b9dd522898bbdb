import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Repositories } from '../db/repositories';
import { createNonce, verifyNonce } from '../security/nonces';
import { SESSION_COOKIE, VisitorSession } from './VisitorSession';

export interface SessionPluginOptions {
  repositories: Repositories;
  secret: string;
  ttlHours: number;
}

export interface Nonces {
  create(action: string, sessionId: string | null): string;
  verify(nonce: unknown, action: string, sessionId: string | null): boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    nonces: Nonces;
  }
  interface FastifyRequest {
    visitor: VisitorSession;
  }
}

/** Cookies, the visitor's session and nonces bound to it: the services every feature shares. */
export const sessionPlugin = fp(
  async function sessionPlugin(app: FastifyInstance, options: SessionPluginOptions) {
    await app.register(fastifyCookie);
    const ttlMs = options.ttlHours * 60 * 60 * 1000;
    app.decorate('nonces', {
      create: (action, sessionId) => createNonce(options.secret, action, sessionId ?? ''),
      verify: (nonce, action, sessionId) => verifyNonce(options.secret, nonce, action, sessionId ?? ''),
    } satisfies Nonces);
    app.decorateRequest('visitor', null as unknown as VisitorSession);
    app.addHook('onRequest', async function attachVisitorSession(request, reply) {
      request.visitor = new VisitorSession({
        store: options.repositories.sessions,
        ttlMs,
        cookieValue: request.cookies[SESSION_COOKIE],
        cookies: reply,
        secure: request.protocol === 'https',
      });
    });
  },
  { name: 'shop-session', fastify: '5.x' },
);
