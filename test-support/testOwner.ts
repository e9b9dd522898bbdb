import { hashOwnerPassword } from '../src/server/owner/ownerCredentials';

/** The owner credentials tests configure: a token long enough for start-up's strength check. */
export const TEST_OWNER_TOKEN = 'test-owner-token-0123456789abcdef';
export const TEST_OWNER_PASSWORD = 'correct horse battery';
export const TEST_OWNER_PASSWORD_HASH = hashOwnerPassword(TEST_OWNER_PASSWORD);

/** `server` settings with both owner credentials. */
export const testOwnerServer = {
  ownerToken: TEST_OWNER_TOKEN,
  ownerPasswordHash: TEST_OWNER_PASSWORD_HASH,
};

/** What an API client sends as the owner. */
export const ownerBearer = { authorization: `Bearer ${TEST_OWNER_TOKEN}` };
