-- Statistics against flooding from one client. The rate limit counts per client address (a keyed hash of it with
-- the day's salt, never the address itself) whatever user agent the requests claim, so the key is renamed.
ALTER TABLE stats_rate_limits RENAME COLUMN visitor_hash TO address_hash;

-- Each online entry remembers the same address hash, so one address adds at most `onlinePerAddress` visitors to
-- "online now". Entries live for the online window only.
ALTER TABLE stats_online ADD COLUMN address_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX stats_online_address ON stats_online(address_hash, last_seen);

-- Hits not counted (bot, owner, excluded_url) are kept as counts per day, reason and agent, never a row per hit:
-- a flood of bot hits moves a counter instead of growing a table. `agent` is a bot's family from a fixed list
-- (googlebot, curl, … or other), empty for the other reasons. Counts only: kept like the insights summaries.
CREATE TABLE stats_exclusion_days (
  day    TEXT NOT NULL,
  reason TEXT NOT NULL,
  agent  TEXT NOT NULL,
  hits   INTEGER NOT NULL,
  PRIMARY KEY (day, reason, agent)
);
INSERT INTO stats_exclusion_days (day, reason, agent, hits)
  SELECT day, reason, CASE WHEN reason = 'bot' THEN 'other' ELSE '' END, COUNT(*)
  FROM stats_exclusions GROUP BY day, reason;
DROP TABLE stats_exclusions;
