-- The jurisdictions a deployment serves, each bound to its rulebooks.
-- Portable SQL: the same file runs on SQLite and PostgreSQL.
CREATE TABLE jurisdictions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    state TEXT NOT NULL
);

CREATE TABLE jurisdiction_rulebooks (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    rulebook TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, rulebook)
);
