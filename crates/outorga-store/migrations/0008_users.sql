-- The people who use a deployment, with one role each and the jurisdictions
-- they may act in ('*' for all, else a JSON array of ids). Passwords are kept
-- only as Argon2id PHC strings.
CREATE TABLE users (
    name TEXT PRIMARY KEY,
    role TEXT NOT NULL CHECK (role IN ('admin', 'clerk', 'inspector', 'board', 'read-only')),
    password_hash TEXT NOT NULL,
    jurisdictions TEXT NOT NULL,
    created_at TEXT NOT NULL
);

-- Named API tokens for scripts: only the SHA-256 of the token is kept (the
-- token is shown once). A revoked token stays, with the time it was revoked.
CREATE TABLE api_tokens (
    user_name TEXT NOT NULL REFERENCES users (name),
    label TEXT NOT NULL,
    hash TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    PRIMARY KEY (user_name, label)
);

-- Login sessions: the SHA-256 of the bearer token and when it expires, so a
-- session opened on one server works on any other of the same database.
CREATE TABLE sessions (
    hash TEXT PRIMARY KEY,
    user_name TEXT NOT NULL REFERENCES users (name),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
