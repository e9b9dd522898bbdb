-- PostgreSQL: a wake-up for every process that keeps a copy of something derived from the catalog (its in-memory
-- search replica, a render cache). Each statement that writes the search change log or the search settings sends
-- one notification on channel `shop_changes`, its payload the table's name; PostgreSQL delivers it at commit and
-- folds identical notifications of one transaction into one. The notification only says "look": a listener reads
-- what changed from the log by sequence, so a notification missed (a dropped connection) costs only delay.
-- SQLite has no notifications: its processes check the log's newest sequence before each search.
-- engine: postgres
CREATE FUNCTION shop_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('shop_changes', TG_TABLE_NAME);
  RETURN NULL;
END $$;
CREATE TRIGGER search_changes_notify AFTER INSERT OR UPDATE OR DELETE ON search_changes
  FOR EACH STATEMENT EXECUTE FUNCTION shop_changes_notify();
CREATE TRIGGER search_settings_notify AFTER INSERT OR UPDATE OR DELETE ON search_settings
  FOR EACH STATEMENT EXECUTE FUNCTION shop_changes_notify();
-- engine: end
