import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Repositories } from '../db/ports';
import { createNonce, verifyNonce } from '../security/nonces';
import { refuseWhenLimited } from '../security/rateLimiter';
import { SESSION_COOKIE, VisitorSession } from './VisitorSession';

interface SessionPluginOptions {
  repositories: Repositories;
  secret: string;
  ttlHours: number;
  /** New stored sessions per client address per hour (settings `server.newSessionsPerHour`). */
  newSessionsPerHour: number;
}

/**
 * Nonces prove a request's intent, bound to the visitor's own session id: creating one mints the id when the
 * visitor has none yet, and a request without a session id never passes a check (no shared "anonymous" nonce).
 * A nonce is not a permission: what only the owner may do is guarded by `app.owner.requireOwner`.
 */
interface Nonces {
  /** For a request's visitor (minting its id), or for a known session id. */
  create(action: string, visitor: VisitorSession | string): string;
  verify(nonce: unknown, action: string, visitor: VisitorSession): boolean;
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
    const newSessions = { name: 'new-sessions', limit: options.newSessionsPerHour, windowMs: 60 * 60 * 1000 };
    app.decorate('nonces', {
      create: (action, visitor) => {
        // A page for the render cache carries no nonce: the browser asks for its own (render/pageCache).
        if (typeof visitor !== 'string' && visitor.shared) return '';
        return createNonce(
          options.secret,
          action,
          typeof visitor === 'string' ? visitor : visitor.ensureId(),
        );
      },
      verify: (nonce, action, visitor) =>
        visitor.id !== null && verifyNonce(options.secret, nonce, action, visitor.id),
    } satisfies Nonces);
    app.decorateRequest('visitor', null as unknown as VisitorSession);
    app.addHook('onRequest', async function attachVisitorSession(request, reply) {
      request.visitor = new VisitorSession({
        store: options.repositories.sessions,
        ttlMs,
        cookieValue: request.cookies[SESSION_COOKIE],
        cookies: reply,
        secure: request.protocol === 'https',
        beforeCreate: async () =>
          refuseWhenLimited(
            reply,
            await app.rateLimiter.take(newSessions, request.ip),
            'Too many new carts have been started from your network. Please try again in a little while.',
          ),
      });
    });
  },
  { name: 'shop-session', fastify: '5.x' },
);
