import { createHmac } from 'node:crypto';
import type { BackoffPolicy, BackoffVerdict, OwnerAuthRepository } from '../db/ports';

/*
 * The one limiter of owner credential checks — the login form, Bearer tokens and Basic credentials on the APIs,
 * and REST API keys (per address only, see apiClientKeys) —
 * stored in the database (migration 0013), so every server process shares it and a restart forgets nothing.
 * Each try is counted against every key it carries, with exponential back-off (docs/security.md):
 *
 * - per client ADDRESS: 5 free failures (typos), then each further failure locks the address for 2 s, 4 s, 8 s …
 *   up to 15 minutes. One address gets about a hundred checked guesses a day, and locks only itself.
 * - per ACCOUNT (there is one: the owner): 50 free failures from all addresses together, then 1 s, 2 s … up to
 *   60 s. This is what rotating addresses (or a forged X-Forwarded-For) cannot escape: whatever the number of
 *   addresses, the account gets at most one checked guess a minute once it is under attack. The cap is short on
 *   purpose, so that an attacker can never lock the owner out for longer than a minute per try: the owner, from
 *   an address that is not itself locked, waits at most 60 s.
 * - per known DEVICE: a browser the owner has logged in from holds a signed device cookie; its logins are counted
 *   on that device alone (5 free, then 2 s … 15 min), so neither a locked account nor a locked shared address
 *   (every client behind a proxy without trustProxy) keeps the owner out.
 *
 * A try refused while a key is locked is not checked and not counted, so hammering a lock does not lengthen it.
 * Failures are forgotten a day after a key's last counted try, and a right credential forgets its keys' failures.
 * Passwords are counted before they are checked (two concurrent guesses can never both pass an unlocked check);
 * tokens, which are long and random, are compared first and counted only when wrong, so an API client's
 * concurrent requests never lock each other out.
 */

const HOUR_MS = 60 * 60 * 1000;
export const ADDRESS_BACKOFF: BackoffPolicy = {
  freeFailures: 5,
  firstLockMs: 2_000,
  maxLockMs: 15 * 60 * 1000,
  forgetMs: 24 * HOUR_MS,
};
export const ACCOUNT_BACKOFF: BackoffPolicy = {
  freeFailures: 50,
  firstLockMs: 1_000,
  maxLockMs: 60_000,
  forgetMs: 24 * HOUR_MS,
};
const DEVICE_BACKOFF: BackoffPolicy = ADDRESS_BACKOFF;

interface LimitedKey {
  bucket: string;
  policy: BackoffPolicy;
}

export type LimitedCheck = { ok: true } | { ok: false; retryAfterSeconds: number | null };

export class LoginLimiter {
  #store: OwnerAuthRepository;
  #secret: string;
  #now: () => number;

  constructor(store: OwnerAuthRepository, secret: string, now: () => number = () => Date.now()) {
    this.#store = store;
    this.#secret = secret;
    this.#now = now;
  }

  /** The keys of a try: a known device alone, or the client's address and the account. */
  keys(address: string, device: string | null): LimitedKey[] {
    if (device !== null) return [{ bucket: this.#bucket('device', device), policy: DEVICE_BACKOFF }];
    return [
      { bucket: this.#bucket('address', address), policy: ADDRESS_BACKOFF },
      { bucket: this.#bucket('account', 'owner'), policy: ACCOUNT_BACKOFF },
    ];
  }

  /**
   * The key of a REST API key's try: the client's address alone, in buckets of their own. API keys are 320 random
   * bits, so guessing is stopped by the per-address back-off; counting them against the owner account too would let
   * a forgotten integration with a revoked key slow the owner's own logins, which is all that bucket would gain.
   */
  apiClientKeys(address: string): LimitedKey[] {
    return [{ bucket: this.#bucket('api-address', address), policy: ADDRESS_BACKOFF }];
  }

  /**
   * Checks a credential under the keys' back-off: `retryAfterSeconds` says the try was refused unchecked (a key is
   * locked), null that it was checked and wrong. `countFirst` counts the try before checking (passwords).
   */
  async check(
    keys: LimitedKey[],
    verify: () => Promise<boolean>,
    countFirst: boolean,
  ): Promise<LimitedCheck> {
    const now = this.#now();
    const seen = await Promise.all(keys.map((key) => this.#store.peekBackoff(key.bucket, now)));
    const locked = refused(seen);
    if (locked) return locked;
    if (countFirst) {
      // One key after the other: a key locked meanwhile stops the try before the next key counts it.
      for (const key of keys) {
        const taken = refused([await this.#store.takeBackoff(key.bucket, now, key.policy)]);
        if (taken) return taken;
      }
    }
    if (await verify()) {
      if (countFirst || seen.some((verdict) => verdict.failures > 0))
        await Promise.all(keys.map((key) => this.#store.clearBackoff(key.bucket)));
      return { ok: true };
    }
    if (!countFirst) for (const key of keys) await this.#store.takeBackoff(key.bucket, now, key.policy);
    return { ok: false, retryAfterSeconds: null };
  }

  #bucket(name: string, client: string): string {
    const hash = createHmac('sha256', this.#secret).update(`login-${name}|${client}`).digest('base64url');
    return `${name}:${hash.slice(0, 27)}`;
  }
}

function refused(verdicts: BackoffVerdict[]): LimitedCheck | null {
  const wait = Math.max(0, ...verdicts.filter((verdict) => !verdict.allowed).map((v) => v.retryAfterMs));
  return verdicts.some((verdict) => !verdict.allowed)
    ? { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) }
    : null;
}
