import { readFileSync } from 'node:fs';
import { hashOwnerPassword, MIN_OWNER_PASSWORD_LENGTH } from '../owner/ownerCredentials';

/**
 * `npm run owner-password` prints the `server.ownerPasswordHash` of a password read from standard input (so it
 * stays out of the shell's history; `npm run owner-password -- 'password'` also works). A password shorter than
 * the minimum is refused: the settings only ever hold the hash, so this is where its length can be checked.
 */
function main() {
  const given = process.argv[2] ?? readFileSync(0, 'utf8').replace(/\r?\n$/, '');
  try {
    console.log(hashOwnerPassword(given));
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    console.error(`Choose a password of at least ${MIN_OWNER_PASSWORD_LENGTH} characters.`);
    process.exit(1);
  }
}

main();
