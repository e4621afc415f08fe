-- When each web session was last used, for the idle expiry of the pages'
-- sessions. Not a record: the `sessions` table is audited and a write per
-- request would fill the log, so the last use lives here, written at most
-- once a minute per session, and is not audited (`audit::schema::NOT_AUDITED`).
-- Shared by every server of one database, as the sessions are.
CREATE TABLE session_activity (
    -- The session's `sessions.hash` (no foreign key: a session ends by
    -- deletion, and its activity is deleted with it).
    hash TEXT PRIMARY KEY,
    last_used_at TEXT NOT NULL
);
