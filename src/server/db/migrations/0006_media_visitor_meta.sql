-- Media attachments uploaded through the REST API (wp/v2/media) and per-visitor meta (wp/v2/users/me).

-- One row per uploaded file. `file` is the original's path under DATA_DIR/uploads/ (YYYY/MM/name.ext);
-- `sizes` is the JSON map of generated sub-sizes (name → {file, width, height}), filled by sub-size
-- creation, so a row whose sizes are missing is an upload whose post-processing has not finished.
CREATE TABLE media (
  id          INTEGER PRIMARY KEY,
  slug        TEXT NOT NULL,
  title       TEXT NOT NULL,
  alt_text    TEXT NOT NULL DEFAULT '',
  mime_type   TEXT NOT NULL,
  file        TEXT NOT NULL UNIQUE,
  filesize    INTEGER NOT NULL,
  width       INTEGER NOT NULL,
  height      INTEGER NOT NULL,
  sizes       TEXT NOT NULL DEFAULT '{}',
  subsizes_done INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- What WordPress keeps as user meta, for anonymous visitors: bound to their session, gone with it.
CREATE TABLE visitor_meta (
  session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  key        TEXT NOT NULL,
  value      TEXT NOT NULL,
  PRIMARY KEY (session_id, key)
);
