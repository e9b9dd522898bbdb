-- Every abuse limit other than the statistics' own (page passwords, uploads, logins by address) counts here, so
-- all server processes share one count and a restart forgets nothing. `bucket` is the limit's name and a keyed
-- hash of the client (never a raw address); `window_start` is the start of the fixed window in Unix milliseconds.
CREATE TABLE rate_limits (
  bucket       TEXT NOT NULL,
  window_start INTEGER NOT NULL,
  count        INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (bucket, window_start)
);
CREATE INDEX rate_limits_expires_at ON rate_limits (expires_at);
