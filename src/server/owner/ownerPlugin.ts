import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ShopError } from '../../shared/errors/ShopError';
import type { ShopConfig } from '../../shared/settings/settingsSchema';
import type { Repositories } from '../db/ports';
import { type LimitedCheck, LoginLimiter } from './loginLimiter';
import {
  credentialsFingerprint,
  isOwnerCredential,
  isOwnerToken,
  type OwnerCredentials,
  safeEqual,
} from './ownerCredentials';

/*
 * The owner's authentication, in one place: one session cookie (server-side sessions, so logging out ends a
 * copied cookie too), one guard (`requireOwner`, a Fastify hook) for the insights, media writes, the statistics'
 * owner report and whatever back-office comes next, and one login limiter. Plugins only translate HTTP.
 *
 * The password is the settings' `server.ownerPasswordHash` when present, else the one `npm run owner -- set-password`
 * stored in the database (owner_account). The owner is recognized by
 * - the `shop_owner` session cookie (HttpOnly, SameSite=Strict, Secure over HTTPS, 12 hours), set by the login
 *   form at /admin/login or by POST /wp-json/stats/v1/owner with the token;
 * - `Authorization: Bearer <server.ownerToken>`, or `Authorization: Basic` with the user name `owner` and the
 *   owner's password or token (what WordPress REST clients send with an application password).
 */

export const OWNER_COOKIE = 'shop_owner';
export const OWNER_DEVICE_COOKIE = 'shop_owner_device';
const OWNER_SESSION_MS = 12 * 60 * 60 * 1000;
/** The user name of `Authorization: Basic` for the owner (the password is the owner's password or token). */
const OWNER_USER_NAME = 'owner';
const DEVICE_MS = 365 * 24 * 60 * 60 * 1000;
const OWNER_LOGIN_PATH = '/admin/login';

interface OwnerAuth {
  /**
   * Whether a password or a token is set at all: in the settings, or by `npm run owner -- set-password` (read from
   * the database on every call, so a password set while the shop runs counts at once, in every process).
   */
  isConfigured(): Promise<boolean>;
  /** Whether the request's Authorization header claims to be the owner (API clients; see credentialOf). */
  hasCredentials(request: FastifyRequest): boolean;
  /** Whether the request carries a live owner session cookie (looked up once, before any handler runs). */
  isOwner(request: FastifyRequest): boolean;
  /**
   * Whether the request is the owner's: its session, or owner credentials in `Authorization` (checked through the
   * login limiter; a locked client is answered 429 with Retry-After). Checked once per request.
   */
  authenticate(request: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** The guard: a hook (`onRequest` or `preHandler`) that answers 401 unless the request is the owner's. */
  requireOwner(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The login form's check: a right password or token starts a session (and marks the browser as known). */
  logIn(request: FastifyRequest, reply: FastifyReply, secret: string): Promise<LimitedCheck>;
  /** Starts a session for a request already proved to be the owner's (the token on the statistics endpoint). */
  startSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /**
   * Checks a long random credential that is not the owner's password (a REST API key) under the same login
   * limiter, per client address (buckets of its own, so a stale integration never slows the owner's login):
   * counted only when wrong, so a client's concurrent calls never lock each other out; a locked client is answered
   * 429 with Retry-After, unchecked.
   */
  checkLimited(
    request: FastifyRequest,
    reply: FastifyReply,
    verify: () => Promise<boolean>,
  ): Promise<boolean>;
  /** Ends this session, or every session ("log out everywhere"), on the server. */
  logOut(request: FastifyRequest, reply: FastifyReply, options: { everywhere: boolean }): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    owner: OwnerAuth;
  }
}

interface OwnerPluginOptions {
  config: ShopConfig;
  repositories: Repositories;
  secret: string;
  now?: () => number;
}

export const ownerPlugin = fp(
  async function ownerPlugin(
    app: FastifyInstance,
    { config, repositories, secret, now = () => Date.now() }: OwnerPluginOptions,
  ) {
    const store = repositories.ownerAuth;
    /**
     * The credentials in force: the settings' password hash wins when present; otherwise the one
     * `npm run owner -- set-password` stored. Read from the database each time (no cache), so a password set or
     * reset by the command applies at once in every process, and its new fingerprint ends the old sessions.
     */
    async function currentCredentials(): Promise<OwnerCredentials> {
      const ownerToken = config.server.ownerToken;
      if (config.server.ownerPasswordHash !== null)
        return { ownerPasswordHash: config.server.ownerPasswordHash, ownerToken };
      const account = await store.getOwnerAccount();
      return { ownerPasswordHash: account?.passwordHash ?? null, ownerToken };
    }
    const isSet = (credentials: OwnerCredentials) =>
      credentials.ownerPasswordHash !== null || credentials.ownerToken !== null;
    const limiter = new LoginLimiter(store, secret, now);
    const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url');
    const signDevice = (id: string, fingerprint: string) =>
      createHmac('sha256', secret).update(`owner-device|${id}|${fingerprint}`).digest('base64url');

    const sessions = new WeakMap<FastifyRequest, boolean>();
    const authenticated = new WeakMap<FastifyRequest, Promise<boolean>>();

    // Only requests that carry the cookie cost a lookup; shoppers' requests cost nothing.
    app.addHook('onRequest', async function resolveOwnerSession(request) {
      const token = request.cookies[OWNER_COOKIE];
      if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return;
      const credentials = await currentCredentials();
      if (!isSet(credentials)) return;
      const fingerprint = credentialsFingerprint(secret, credentials);
      sessions.set(request, await store.hasSession(hashToken(token), fingerprint, now()));
    });

    const cleanUp = () => void store.deleteExpired(now()).catch(() => undefined);
    const cleanUpTimer = setInterval(cleanUp, 60 * 60 * 1000);
    cleanUpTimer.unref();
    app.addHook('onReady', async function cleanUpAtStart() {
      cleanUp();
    });
    app.addHook('onClose', async function stopCleanUp() {
      clearInterval(cleanUpTimer);
    });

    function cookieOptions(request: FastifyRequest, maxAgeMs: number, path = '/') {
      return {
        path,
        httpOnly: true,
        sameSite: 'strict' as const,
        // Direct HTTPS, or HTTPS at a trusted proxy (X-Forwarded-Proto with server.trustProxy).
        secure: request.protocol === 'https',
        maxAge: Math.floor(maxAgeMs / 1000),
      };
    }

    function knownDevice(request: FastifyRequest, fingerprint: string): string | null {
      const [id, signature] = (request.cookies[OWNER_DEVICE_COOKIE] ?? '').split('.');
      return id && signature && safeEqual(signature, signDevice(id, fingerprint)) ? id : null;
    }

    function refuseLimited(reply: FastifyReply, check: LimitedCheck) {
      if (check.ok || check.retryAfterSeconds === null) return;
      reply.header('Retry-After', String(check.retryAfterSeconds));
      throw new ShopError('rate_limited', 'Too many wrong owner credentials from here; try again later.', {
        retryAfterSeconds: check.retryAfterSeconds,
      });
    }

    /**
     * The owner credential the request's Authorization header carries: any Bearer token, or Basic with the user
     * name `owner`. Basic with another name is not ours (a staging site's password gate sends it on every
     * request) and is ignored rather than counted as a wrong guess.
     */
    function credentialOf(request: FastifyRequest): { secret: string; isToken: boolean } | null {
      const [scheme = '', value = ''] = (request.headers.authorization ?? '').split(/\s+/, 2);
      if (/^bearer$/i.test(scheme)) return { secret: value, isToken: true };
      if (!/^basic$/i.test(scheme)) return null;
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0 || decoded.slice(0, colon) !== OWNER_USER_NAME) return null;
      return { secret: decoded.slice(colon + 1), isToken: false };
    }

    async function checkAuthorization(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
      const credential = credentialOf(request);
      if (!credential) return false;
      const credentials = await currentCredentials();
      if (!isSet(credentials)) return false;
      const keys = limiter.keys(request.ip, null);
      const check = credential.isToken
        ? await limiter.check(keys, async () => isOwnerToken(credentials, credential.secret), false)
        : await limiter.check(keys, () => isOwnerCredential(credentials, credential.secret), true);
      refuseLimited(reply, check);
      return check.ok;
    }

    async function startSession(
      request: FastifyRequest,
      reply: FastifyReply,
      credentials?: OwnerCredentials,
    ) {
      const fingerprint = credentialsFingerprint(secret, credentials ?? (await currentCredentials()));
      const token = randomBytes(32).toString('base64url');
      const at = now();
      await store.createSession(hashToken(token), fingerprint, at, at + OWNER_SESSION_MS);
      reply.setCookie(OWNER_COOKIE, token, cookieOptions(request, OWNER_SESSION_MS));
      sessions.set(request, true);
    }

    const owner: OwnerAuth = {
      isConfigured: async () => isSet(await currentCredentials()),
      hasCredentials: (request) => credentialOf(request) !== null,
      isOwner: (request) => sessions.get(request) === true,
      authenticate(request, reply) {
        let result = authenticated.get(request);
        if (!result) {
          result =
            sessions.get(request) === true ? Promise.resolve(true) : checkAuthorization(request, reply);
          authenticated.set(request, result);
        }
        return result;
      },
      async requireOwner(request, reply) {
        if (!(await owner.authenticate(request, reply)))
          throw new ShopError(
            'unauthorized',
            'This needs the shop owner: log in at /admin/login or send the owner token.',
          );
      },
      async logIn(request, reply, secretGiven) {
        const credentials = await currentCredentials();
        if (!isSet(credentials) || secretGiven === '') return { ok: false, retryAfterSeconds: null };
        const fingerprint = credentialsFingerprint(secret, credentials);
        const device = knownDevice(request, fingerprint);
        const check = await limiter.check(
          limiter.keys(request.ip, device),
          () => isOwnerCredential(credentials, secretGiven),
          true,
        );
        if (!check.ok) return check;
        await startSession(request, reply, credentials);
        if (device === null) {
          const id = randomBytes(18).toString('base64url');
          // Sent back to the login form only.
          reply.setCookie(
            OWNER_DEVICE_COOKIE,
            `${id}.${signDevice(id, fingerprint)}`,
            cookieOptions(request, DEVICE_MS, OWNER_LOGIN_PATH),
          );
        }
        return check;
      },
      startSession,
      async checkLimited(request, reply, verify) {
        const check = await limiter.check(limiter.apiClientKeys(request.ip), verify, false);
        refuseLimited(reply, check);
        return check.ok;
      },
      async logOut(request, reply, { everywhere }) {
        const token = request.cookies[OWNER_COOKIE];
        // Only the owner ends the owner's other sessions; anyone may drop the cookie they hold.
        if (everywhere && !owner.isOwner(request))
          throw new ShopError('unauthorized', 'Log in at /admin/login first.');
        if (everywhere) await store.deleteAllSessions();
        else if (token) await store.deleteSession(hashToken(token));
        sessions.set(request, false);
        reply.clearCookie(OWNER_COOKIE, { path: '/' });
      },
    };
    app.decorate('owner', owner);
  },
  { name: 'shop-owner', fastify: '5.x', dependencies: ['shop-session'] },
);
