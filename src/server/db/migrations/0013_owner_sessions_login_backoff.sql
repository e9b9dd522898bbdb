-- The owner's sessions, kept server-side so logging out ends them everywhere a cookie was copied to. `token_hash`
-- is a SHA-256 of the cookie's token (a copy of the database hands out no cookie); `credentials` fingerprints the
-- owner's password and token, so changing them ends every session.
CREATE TABLE owner_sessions (
  token_hash  TEXT PRIMARY KEY,
  credentials TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
CREATE INDEX owner_sessions_expires_at ON owner_sessions (expires_at);

-- Exponential back-off of credential checks (owner login, bearer and basic credentials), per client address, per
-- account and per known device. `bucket` is the key's name and a keyed hash of the client (never a raw address);
-- `lock_ms` is the last lock's length, doubled by the next counted failure; the row is forgotten at `expires_at`.
CREATE TABLE login_backoffs (
  bucket       TEXT PRIMARY KEY,
  failures     INTEGER NOT NULL,
  lock_ms      INTEGER NOT NULL,
  locked_until INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
);
CREATE INDEX login_backoffs_expires_at ON login_backoffs (expires_at);
