import { createInterface } from 'node:readline';
import {
  WEBHOOK_STATUSES,
  WEBHOOK_TOPICS,
  type WebhookStatus,
  type WebhookTopic,
} from '../../shared/webhooks/webhookTypes';
import { loadConfig } from '../config/loadConfig';
import { openRepositories } from '../db/openRepositories';
import { hashOwnerPassword, MIN_OWNER_PASSWORD_LENGTH } from '../owner/ownerCredentials';
import { createApiKeyService } from '../wcRest/apiKeys/apiKeyService';
import { createWebhookDesk } from '../webhooks/webhookDesk';
import { pingWebhook } from '../webhooks/webhookRequest';
import { shopStorageFromEnv } from './cliEnvironment';

/**
 * `npm run owner -- api-key create --permissions read|write|read_write --description TEXT` prints a new REST API
 * key's consumer key and secret (the only time the secret is shown); `api-key list` lists the keys;
 * `api-key revoke ID` revokes one. They go through the same service as the back office's /admin/settings/api/.
 *
 * `npm run owner -- webhook create --topic TOPIC --url URL [--name TEXT] [--secret TEXT] [--status active|paused]`
 * adds a webhook (printing its secret, made when not given) through the back office's rules and pings it;
 * `webhook list` lists them.
 *
 * `npm run owner -- set-password [--email ADDR]`: sets (or resets) the owner's password, stored hashed in the
 * shop's database (DATA_DIR or DATABASE_URL, as the shop finds it). On a terminal it asks twice without echo;
 * without one (a deploy script, a test) it reads OWNER_PASSWORD. A hash in the settings file
 * (`server.ownerPasswordHash`) wins over this one: the command says so when it finds one.
 * Setting a new password ends every owner session (sessions carry the credentials' fingerprint).
 */

const USAGE =
  'Usage: npm run owner -- set-password [--email you@example.com]\n' +
  '       npm run owner -- api-key create --permissions read|write|read_write --description "What uses it"\n' +
  '       npm run owner -- api-key list\n' +
  '       npm run owner -- api-key revoke ID\n' +
  `       npm run owner -- webhook create --topic ${WEBHOOK_TOPICS.join('|')} --url https://… [--name TEXT] [--secret TEXT] [--status active|paused]\n` +
  '       npm run owner -- webhook list';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function parseArguments(args: string[]): { email: string | undefined } {
  const [command, ...rest] = args;
  if (command !== 'set-password') fail(USAGE);
  let email: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    if (arg === '--email') email = rest[++i];
    else if (arg.startsWith('--email=')) email = arg.slice('--email='.length);
    else fail(`Unknown argument "${arg}". ${USAGE}`);
  }
  if (email !== undefined && !EMAIL.test(email)) fail(`"${email ?? ''}" is not an email address. ${USAGE}`);
  return { email };
}

/** Reads a line from the terminal without echoing it. */
function askHidden(prompt: string): Promise<string> {
  return new Promise((resolve) => {
    const lines = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const muted = lines as unknown as { _writeToOutput(text: string): void };
    let prompted = false;
    muted._writeToOutput = (text: string) => {
      // The prompt itself is written once; every keystroke's echo is swallowed.
      if (!prompted) {
        process.stdout.write(text);
        prompted = true;
      }
    };
    lines.question(prompt, (answer) => {
      lines.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}

async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    const given = process.env.OWNER_PASSWORD;
    if (!given) fail('No terminal to ask on: set OWNER_PASSWORD to the new owner password.');
    return given;
  }
  const first = await askHidden(`New owner password (at least ${MIN_OWNER_PASSWORD_LENGTH} characters): `);
  const second = await askHidden('The same password again: ');
  if (first !== second) fail('The two passwords differ; nothing was changed.');
  return first;
}

/** `--name value` or `--name=value` options after the command words. */
function readOptions(rest: string[], names: readonly string[]): Record<string, string> {
  const options: Record<string, string> = {};
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? '';
    const name = names.find((each) => arg === `--${each}` || arg.startsWith(`--${each}=`));
    if (!name) fail(`Unknown argument "${arg}". ${USAGE}`);
    options[name] = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : (rest[++i] ?? '');
  }
  return options;
}

async function apiKeyCommand([action, ...rest]: string[]) {
  const repositories = await openRepositories(shopStorageFromEnv());
  const keys = createApiKeyService(repositories.apiKeys);
  try {
    if (action === 'create') {
      const options = readOptions(rest, ['permissions', 'description']);
      let issued: Awaited<ReturnType<typeof keys.create>>;
      try {
        issued = await keys.create({
          description: options.description ?? '',
          permissions: options.permissions ?? '',
        });
      } catch (error) {
        fail(`${(error as Error).message} ${USAGE}`);
      }
      console.log(`API key ${issued.key.id} made (${issued.key.permissions}): ${issued.key.description}`);
      console.log(`consumer_key=${issued.consumerKey}`);
      console.log(`consumer_secret=${issued.consumerSecret}`);
      console.log('The secret is shown only now: keep it where the tool that uses it can read it.');
    } else if (action === 'list') {
      if (rest.length > 0) fail(USAGE);
      for (const key of await keys.list()) {
        const state = key.revokedAt === null ? 'live' : 'revoked';
        const last =
          key.lastAccess === null ? 'never used' : `last used ${new Date(key.lastAccess).toISOString()}`;
        console.log(
          `${key.id}\t…${key.truncatedKey}\t${key.permissions}\t${state}\t${last}\t${key.description}`,
        );
      }
    } else if (action === 'revoke') {
      const id = Number(rest[0]);
      if (rest.length !== 1 || !Number.isSafeInteger(id) || id < 1) fail(USAGE);
      try {
        await keys.revoke(id);
      } catch (error) {
        fail((error as Error).message);
      }
      console.log(`API key ${id} is revoked.`);
    } else fail(USAGE);
  } finally {
    await repositories.close();
  }
}

async function webhookCommand([action, ...rest]: string[]) {
  const repositories = await openRepositories(shopStorageFromEnv());
  const desk = createWebhookDesk({
    webhooks: repositories.webhooks,
    ping: (webhook) => pingWebhook(webhook),
  });
  try {
    if (action === 'create') {
      const options = readOptions(rest, ['topic', 'url', 'name', 'secret', 'status']);
      const topic = options.topic ?? '';
      const status = options.status ?? 'active';
      if (!(WEBHOOK_TOPICS as readonly string[]).includes(topic))
        fail(`--topic must be one of ${WEBHOOK_TOPICS.join(', ')}. ${USAGE}`);
      if (!(WEBHOOK_STATUSES as readonly string[]).includes(status))
        fail(`--status must be active or paused. ${USAGE}`);
      let shopUrl: string | null = null;
      try {
        shopUrl = loadConfig(process.env.SHOP_CONFIG).server.mail.shopUrl;
      } catch {
        // A broken settings file is the shop's start to report, not this command's.
      }
      const result = await desk.save(
        null,
        {
          name: options.name ?? '',
          status: status as WebhookStatus,
          topic: topic as WebhookTopic,
          deliveryUrl: options.url ?? '',
          secret: options.secret ?? '',
        },
        { shopHosts: shopUrl ? [new URL(shopUrl).host.toLowerCase()] : [] },
      );
      if (!result.ok) fail(`${Object.values(result.fieldErrors).join(' ')} Nothing was saved.`);
      const { webhook } = result;
      console.log(
        `Webhook ${webhook.id} made (${webhook.status}, ${webhook.topic} → ${webhook.deliveryUrl}).`,
      );
      console.log(`secret=${webhook.secret}`);
      if (result.pinged)
        console.log(
          result.pingError === null ? 'The delivery URL answered the ping.' : `Ping: ${result.pingError}`,
        );
    } else if (action === 'list') {
      if (rest.length > 0) fail(USAGE);
      for (const webhook of await desk.list())
        console.log(
          `${webhook.id}\t${webhook.status}\t${webhook.topic}\t${webhook.deliveryUrl}\t${webhook.name}`,
        );
    } else fail(USAGE);
  } finally {
    await repositories.close();
  }
}

async function main() {
  if (process.argv[2] === 'api-key') return apiKeyCommand(process.argv.slice(3));
  if (process.argv[2] === 'webhook') return webhookCommand(process.argv.slice(3));
  const { email } = parseArguments(process.argv.slice(2));
  const password = await readPassword();
  let hash: string;
  try {
    hash = hashOwnerPassword(password);
  } catch (error) {
    fail(`${(error as Error).message} Nothing was changed.`);
  }
  const repositories = await openRepositories(shopStorageFromEnv());
  try {
    await repositories.ownerAuth.setOwnerAccount(hash, email, Date.now());
  } finally {
    await repositories.close();
  }
  console.log(
    `The owner password is set${email ? ` (owner email ${email})` : ''}. Log in at /admin/login; ` +
      'any owner session opened before has ended.',
  );
  let settingsHash = false;
  try {
    settingsHash = loadConfig(process.env.SHOP_CONFIG).server.ownerPasswordHash !== null;
  } catch {
    // A broken settings file is the shop's start to report, not this command's.
  }
  if (settingsHash)
    console.log(
      'Note: the settings file sets server.ownerPasswordHash, which wins over this password: remove it to use this one.',
    );
}

void main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
