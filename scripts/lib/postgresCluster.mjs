import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * A throwaway PostgreSQL cluster for tests and benchmarks: Debian's server binaries, `initdb` in a temp dir, a
 * free loopback port, trust authentication (nothing listens beyond 127.0.0.1 and the temp dir's socket), and
 * everything deleted on stop. PostgreSQL refuses to run as root, so a root caller runs it as the `postgres` user.
 */

const PG_ROOT = '/usr/lib/postgresql';

/** The newest installed server's bin dir, or null. */
export function findPostgresBin() {
  if (!existsSync(PG_ROOT)) return null;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(PG_ROOT, versions[0], 'bin') : null;
}

/** Installs Debian's `postgresql` package when no server is installed (needs root, as CI runs). */
export function ensurePostgresInstalled({ log = console.log } = {}) {
  const found = findPostgresBin();
  if (found) return found;
  if (process.getuid?.() !== 0) {
    throw new Error('PostgreSQL is not installed and installing it needs root: apt-get install postgresql');
  }
  log('Installing PostgreSQL (apt-get install postgresql)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'postgresql'], {
    stdio: 'inherit',
    env,
  });
  const bin = findPostgresBin();
  if (!bin) throw new Error(`apt-get installed postgresql but no initdb under ${PG_ROOT}`);
  return bin;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** The user the server runs as: ourselves, or `postgres` (created if missing) when we are root. */
function serverUser() {
  if (process.getuid?.() !== 0) return null;
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) {
    execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', 'postgres']);
  }
  return 'postgres';
}

function runAs(user, command, args, options = {}) {
  const [cmd, argv] = user ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args];
  return execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
}

/**
 * Starts a fresh cluster and resolves to `{ url, port, dir, stop() }`. `url` reaches database `shop` as the
 * superuser `shop`. `stop()` shuts the server down (fast mode) and deletes the cluster.
 */
export async function startPostgres({ log = () => {} } = {}) {
  const bin = ensurePostgresInstalled({ log });
  const user = serverUser();
  const dir = mkdtempSync(join(tmpdir(), 'shop-pg-'));
  // The temp dir is created 0700 by us; the server user needs to own its data and socket dirs.
  chmodSync(dir, 0o755);
  if (user) execFileSync('chown', [user, dir]);
  const dataDir = join(dir, 'data');
  runAs(user, join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'shop',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
    '--locale=C',
  ]);
  const port = await freePort();
  const opts = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    // A throwaway cluster: durability against OS crashes is not what the tests check (process kills are).
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  runAs(user, join(bin, 'pg_ctl'), [
    '-D',
    dataDir,
    '-l',
    join(dir, 'server.log'),
    '-o',
    opts,
    '-w',
    '-t',
    '60',
    'start',
  ]);
  runAs(user, join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', 'shop', 'shop']);
  log(`PostgreSQL ${bin.split('/').at(-2)} on 127.0.0.1:${port} (${dataDir})`);
  let stopped = false;
  return {
    url: `postgres://shop@127.0.0.1:${port}/shop`,
    port,
    dir,
    /** Creates another empty database in the cluster and returns its URL (one per test file or process group). */
    createDatabase(name) {
      runAs(user, join(bin, 'createdb'), ['-h', dir, '-p', String(port), '-U', 'shop', name]);
      return `postgres://shop@127.0.0.1:${port}/${name}`;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        runAs(user, join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
