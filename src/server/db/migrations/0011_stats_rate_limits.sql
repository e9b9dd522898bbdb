-- Several processes: the statistics rate limit is counted in the database, one row per visitor hash
-- and minute, incremented with an atomic upsert, so N processes share one limit instead of allowing N times it.
-- Rows of finished minutes go with the hourly retention.
CREATE TABLE stats_rate_limits (
  visitor_hash TEXT NOT NULL,
  minute       INTEGER NOT NULL,
  count        INTEGER NOT NULL,
  PRIMARY KEY (visitor_hash, minute)
);
