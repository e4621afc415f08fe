-- The holders' and drivers' own space. An account is a CPF: one for every
-- jurisdiction that records the person. Its password is set with a
-- first-access code a clerk prints for them (kept as its SHA-256, valid for
-- a while, used once); the password is kept only as an Argon2id PHC string.
-- An account opened through gov.br has no password until one is set.
CREATE TABLE citizen_accounts (
    document TEXT PRIMARY KEY,
    password_hash TEXT,
    created_at TEXT NOT NULL,
    password_set_at TEXT
);

-- A sign-in through gov.br (OpenID Connect) under way: the `state` sent to
-- the provider (its SHA-256), with the PKCE verifier and the nonce it is
-- checked with when the browser comes back; used once, for ten minutes.
-- Kept in the database, so the browser may come back to any server.
CREATE TABLE citizen_logins (
    state_hash TEXT PRIMARY KEY,
    verifier TEXT NOT NULL,
    nonce TEXT NOT NULL,
    started_at TEXT NOT NULL
);

CREATE TABLE citizen_codes (
    hash TEXT PRIMARY KEY,
    document TEXT NOT NULL,
    -- Where it was printed, and by whom.
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    issued_by TEXT NOT NULL,
    issued_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    -- When it was used, or replaced by a newer one.
    used_at TEXT
);
CREATE INDEX citizen_codes_of ON citizen_codes (document, used_at);

-- Their sessions, as the staff's: the SHA-256 of the cookie's token, so a
-- session opened on one server works on any other of the same database.
CREATE TABLE citizen_sessions (
    hash TEXT PRIMARY KEY,
    document TEXT NOT NULL REFERENCES citizen_accounts (document),
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
);
CREATE INDEX citizen_sessions_of ON citizen_sessions (document);

-- What a holder or driver files online (a petição): a defense or an appeal
-- against an auto (recorded as the procedure's step when filed), or a
-- request to renew a permit (for the clerks to handle). Found by its
-- protocol, a random code, as a complaint is.
CREATE TABLE petitions (
    protocol TEXT PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL CHECK (kind IN ('defense', 'appeal', 'renewal')),
    document TEXT NOT NULL,
    auto_year INTEGER,
    auto_number BIGINT,
    service TEXT,
    permit_number BIGINT,
    text TEXT NOT NULL,
    filed_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('received', 'handled')),
    handled_by TEXT,
    handled_at TEXT,
    answer TEXT,
    CHECK ((kind = 'renewal') = (permit_number IS NOT NULL)),
    CHECK ((kind = 'renewal') = (auto_number IS NULL))
);
-- The clerks' queue: a jurisdiction's petitions by status, oldest first;
-- an auto's petitions on its page; a person's in their space.
CREATE INDEX petitions_queue ON petitions (jurisdiction, status, filed_at, protocol);
CREATE INDEX petitions_of_auto ON petitions (jurisdiction, auto_year, auto_number);
CREATE INDEX petitions_of_person ON petitions (document, filed_at);

-- A petition's attachments (PDF, JPEG or PNG, checked by their content):
-- base64, one spelling on both backends; the audit log keeps their SHA-256.
CREATE TABLE petition_files (
    protocol TEXT NOT NULL REFERENCES petitions (protocol),
    seq INTEGER NOT NULL,
    name TEXT NOT NULL,
    content_type TEXT NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (protocol, seq)
);

-- A person's registers in every jurisdiction (their space gathers them).
CREATE INDEX people_by_document ON people (document);
