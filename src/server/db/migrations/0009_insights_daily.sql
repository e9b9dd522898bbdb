-- Owner insights: daily summaries of closed days (before today, UTC), built from the visitor
-- statistics the first time a report needs them, so a 90-day report reads a few thousand summary rows instead
-- of a million hits. Today is always read from the raw tables. A hit's day is the server's clock when it was
-- recorded, so a closed day never changes; summaries hold counts only (no visitor hash), and outlive retention.
CREATE TABLE insights_days (
  day        TEXT PRIMARY KEY,
  views      INTEGER NOT NULL,
  visitors   INTEGER NOT NULL
);

CREATE TABLE insights_daily_pages (
  day   TEXT NOT NULL,
  page  TEXT NOT NULL,
  views INTEGER NOT NULL,
  PRIMARY KEY (day, page)
);

CREATE TABLE insights_daily_referrers (
  day   TEXT NOT NULL,
  host  TEXT NOT NULL,
  views INTEGER NOT NULL,
  PRIMARY KEY (day, host)
);

-- Visitors by device type and by where their day's first visit came from (the conversion rate's denominator).
CREATE TABLE insights_daily_visitors (
  day         TEXT NOT NULL,
  device_type TEXT NOT NULL,
  source_type TEXT NOT NULL,
  source      TEXT NOT NULL,
  visitors    INTEGER NOT NULL,
  PRIMARY KEY (day, device_type, source_type, source)
);

-- The searches panel reads search analytics (migration 0003) by time.
CREATE INDEX insights_search_queries_time ON search_queries(updated_at);
