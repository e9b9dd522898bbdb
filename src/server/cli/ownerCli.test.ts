import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test-support/createTestApp';
import { Shopper } from '../../../test-support/shopper';
import { openRepositories } from '../db/openRepositories';
import { createTestDatabase, TEST_DATABASE_URL } from '../db/postgres/testDatabase';
import { verifyOwnerPassword } from '../owner/ownerCredentials';
import { projectPath } from '../projectPath';

/*
 * `npm run owner -- set-password` as a deploy script runs it: no terminal, the password in OWNER_PASSWORD. Then the
 * owner logs in with it (on SQLite, into a running shop on the same data dir; under `npm run test:postgres`, the
 * command writes to its own PostgreSQL database, which is then read back).
 */

const run = promisify(execFile);
const PASSWORD = 'a password from the cli';

async function ownerCommand(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', projectPath('src/server/cli/ownerCli.ts'), ...args],
      {
        cwd: projectPath('.'),
        env: { ...process.env, DATABASE_URL: '', SHOP_CONFIG: '', ...env },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run owner -- set-password', { timeout: 120_000 }, () => {
  let shop: TestApp;
  let dataDir: string;
  beforeAll(async () => {
    shop = await createTestApp({ seed: false });
    dataDir = mkdtempSync(join(tmpdir(), 'owner-cli-'));
  }, 60_000);
  afterAll(async () => {
    await shop.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses without a terminal and without OWNER_PASSWORD, and refuses a short password', async () => {
    const none = await ownerCommand(['set-password'], { DATA_DIR: dataDir, OWNER_PASSWORD: '' });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('set OWNER_PASSWORD');
    const short = await ownerCommand(['set-password'], { DATA_DIR: dataDir, OWNER_PASSWORD: 'short' });
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('at least 10 characters');
    const wrong = await ownerCommand(['set-pasword'], { DATA_DIR: dataDir, OWNER_PASSWORD: PASSWORD });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Usage: npm run owner -- set-password');
  });

  it.skipIf(TEST_DATABASE_URL !== '')(
    'sets the password a running shop then admits at /admin/login',
    async () => {
      const owner = new Shopper();
      const before = await owner.send(shop.app, 'GET', '/admin/login');
      expect(before.body).toContain('No owner is set yet');
      const result = await ownerCommand(['set-password', '--email', 'owner@example.com'], {
        DATA_DIR: shop.dataDir,
        OWNER_PASSWORD: PASSWORD,
      });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('The owner password is set (owner email owner@example.com)');
      expect(await shop.repositories.ownerAuth.getOwnerAccount()).toMatchObject({
        email: 'owner@example.com',
      });

      const form = await owner.send(shop.app, 'GET', '/admin/login');
      const nonce = /name="_wpnonce" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
      const login = await owner.send(shop.app, 'POST', '/admin/login', {
        password: PASSWORD,
        _wpnonce: nonce,
      });
      expect(login.statusCode).toBe(303);
      expect((await owner.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(200);

      // Resetting the password ends the session opened with the old one; the email stays when not given.
      const reset = await ownerCommand(['set-password'], {
        DATA_DIR: shop.dataDir,
        OWNER_PASSWORD: `${PASSWORD}!`,
      });
      expect(reset.code).toBe(0);
      expect((await owner.send(shop.app, 'GET', '/admin/orders/')).statusCode).toBe(303);
      expect(await shop.repositories.ownerAuth.getOwnerAccount()).toMatchObject({
        email: 'owner@example.com',
      });
    },
  );

  it.skipIf(TEST_DATABASE_URL === '')(
    'stores the password in the PostgreSQL database of DATABASE_URL',
    async () => {
      const database = await createTestDatabase();
      try {
        const result = await ownerCommand(['set-password', '--email=owner@example.com'], {
          DATABASE_URL: database.url,
          OWNER_PASSWORD: PASSWORD,
        });
        expect(result.code).toBe(0);
        const repositories = await openRepositories({ databaseUrl: database.url, dataDir });
        try {
          const account = await repositories.ownerAuth.getOwnerAccount();
          expect(account?.email).toBe('owner@example.com');
          expect(await verifyOwnerPassword(PASSWORD, account?.passwordHash ?? '')).toBe(true);
        } finally {
          await repositories.close();
        }
      } finally {
        await database.drop();
      }
    },
  );
});

describe('npm run owner -- api-key', { timeout: 120_000 }, () => {
  let shop: TestApp;
  beforeAll(async () => {
    shop = await createTestApp({ seed: false });
  }, 60_000);
  afterAll(async () => {
    await shop.close();
  });

  it('refuses unknown permissions and a missing description, in words', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'owner-cli-'));
    try {
      const permissions = await ownerCommand(
        ['api-key', 'create', '--permissions', 'admin', '--description', 'x'],
        { DATA_DIR: dataDir },
      );
      expect(permissions.code).toBe(1);
      expect(permissions.stderr).toContain('Choose the permissions: read, write or read_write.');
      const description = await ownerCommand(['api-key', 'create', '--permissions', 'read'], {
        DATA_DIR: dataDir,
      });
      expect(description.code).toBe(1);
      expect(description.stderr).toContain('Describe the key');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(TEST_DATABASE_URL !== '')(
    'prints a key a running shop then takes, lists it, and revokes it',
    async () => {
      const made = await ownerCommand(
        ['api-key', 'create', '--permissions', 'read_write', '--description', 'Nightly stock sync'],
        { DATA_DIR: shop.dataDir },
      );
      expect(made.stderr).toBe('');
      expect(made.code).toBe(0);
      const key = /consumer_key=(ck_[0-9a-f]{40})/.exec(made.stdout)?.[1] ?? '';
      const secret = /consumer_secret=(cs_[0-9a-f]{40})/.exec(made.stdout)?.[1] ?? '';
      const call = () =>
        shop.app.inject({
          url: '/wp-json/wc/v3/orders',
          headers: { authorization: `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}` },
        });
      expect((await call()).statusCode).toBe(200);

      const listed = await ownerCommand(['api-key', 'list'], { DATA_DIR: shop.dataDir });
      expect(listed.stdout).toContain(`…${key.slice(-7)}`);
      expect(listed.stdout).toContain('Nightly stock sync');
      expect(listed.stdout).not.toContain(secret);
      const id = /^(\d+)\t/m.exec(listed.stdout)?.[1] ?? '';
      const revoked = await ownerCommand(['api-key', 'revoke', id], { DATA_DIR: shop.dataDir });
      expect(revoked.code).toBe(0);
      expect((await call()).statusCode).toBe(401);
    },
  );
});
