-- The audit log: every change, who made it, when, what and why. Append-only;
-- each entry's hash covers the previous entry's hash, so editing, inserting or
-- deleting an entry breaks the chain (`outorga audit verify`). `audit_head`
-- holds the last entry: writers take it in turn (the row is updated before it
-- is read), so the sequence has no gaps or forks under concurrent writes.
CREATE TABLE audit_log (
    seq BIGINT PRIMARY KEY,
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    jurisdiction TEXT,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL,
    reason TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL
);

CREATE TABLE audit_head (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    seq BIGINT NOT NULL,
    hash TEXT NOT NULL
);
INSERT INTO audit_head (id, seq, hash) VALUES (1, 0, '0000000000000000000000000000000000000000000000000000000000000000');

-- Sequential numbers per jurisdiction, series and year (autos de infração,
-- permits, documents): taken inside the transaction that uses them, so a
-- rolled-back write gives its number back and the sequence has no gaps.
CREATE TABLE counters (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    series TEXT NOT NULL,
    year INTEGER NOT NULL,
    last BIGINT NOT NULL,
    PRIMARY KEY (jurisdiction, series, year)
);
