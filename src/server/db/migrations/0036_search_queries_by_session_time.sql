-- An add-to-cart asks for its session's latest searches (the facts behind "searches that led to a purchase"): this
-- index reads them newest first and stops after the few it needs, rather than reading and sorting every search of
-- the session (a crawler's address, browser and day may hold thousands).
CREATE INDEX search_queries_session_created ON search_queries (session_hash, created_at);
