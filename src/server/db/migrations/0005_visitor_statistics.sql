-- Visitor statistics. No raw IP address is stored anywhere: a visitor is a salted hash of IP and user
-- agent, and the salt is random per day and deleted after that day, so yesterday's hashes cannot be recomputed.
-- Times are Unix milliseconds; `day` is the UTC date (YYYY-MM-DD) the retention and reports use.
CREATE TABLE stats_salts (
  day  TEXT PRIMARY KEY,
  salt TEXT NOT NULL
);

CREATE TABLE stats_visitors (
  day          TEXT NOT NULL,
  visitor_hash TEXT NOT NULL,
  first_seen   INTEGER NOT NULL,
  last_seen    INTEGER NOT NULL,
  hits         INTEGER NOT NULL,
  browser      TEXT NOT NULL,
  os           TEXT NOT NULL,
  device_type  TEXT NOT NULL,
  -- Where the day's first visit came from (utm/organic/referral/typein), by the attribution rules.
  source_type  TEXT NOT NULL,
  source       TEXT NOT NULL,
  entry_page   TEXT NOT NULL,
  PRIMARY KEY (day, visitor_hash)
);

CREATE TABLE stats_hits (
  id           INTEGER PRIMARY KEY,
  created_at   INTEGER NOT NULL,
  day          TEXT NOT NULL,
  -- Null for an anonymous hit (no statistics consent, anonymous tracking on).
  visitor_hash TEXT,
  page         TEXT NOT NULL,
  page_type    TEXT NOT NULL,
  page_id      INTEGER NOT NULL,
  search_query TEXT NOT NULL,
  referrer     TEXT NOT NULL,
  referrer_host TEXT NOT NULL,
  source_type  TEXT NOT NULL,
  source       TEXT NOT NULL,
  browser      TEXT NOT NULL,
  os           TEXT NOT NULL,
  device_type  TEXT NOT NULL
);
CREATE INDEX stats_hits_day ON stats_hits(day);

CREATE TABLE stats_online (
  visitor_hash TEXT PRIMARY KEY,
  page         TEXT NOT NULL,
  first_seen   INTEGER NOT NULL,
  last_seen    INTEGER NOT NULL
);
CREATE INDEX stats_online_last_seen ON stats_online(last_seen);

CREATE TABLE stats_events (
  id           INTEGER PRIMARY KEY,
  created_at   INTEGER NOT NULL,
  day          TEXT NOT NULL,
  visitor_hash TEXT,
  name         TEXT NOT NULL CHECK (name IN ('file_download', 'outbound_link')),
  target_url   TEXT NOT NULL,
  link_domain  TEXT NOT NULL,
  link_path    TEXT NOT NULL,
  file_name    TEXT NOT NULL,
  file_ext     TEXT NOT NULL,
  element_id   TEXT NOT NULL,
  element_classes TEXT NOT NULL,
  element_text TEXT NOT NULL,
  mouse_button INTEGER NOT NULL,
  page_id      INTEGER NOT NULL,
  shop_download INTEGER NOT NULL,
  event_time   INTEGER NOT NULL
);
CREATE INDEX stats_events_day ON stats_events(day);

-- Hits not counted, and why (bot, owner, excluded_url): recorded, never silently dropped.
CREATE TABLE stats_exclusions (
  id          INTEGER PRIMARY KEY,
  created_at  INTEGER NOT NULL,
  day         TEXT NOT NULL,
  reason      TEXT NOT NULL,
  page        TEXT NOT NULL,
  user_agent  TEXT NOT NULL
);
CREATE INDEX stats_exclusions_day ON stats_exclusions(day, reason);
