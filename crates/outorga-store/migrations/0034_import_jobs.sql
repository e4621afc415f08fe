-- An import the screen runs in the background: what it is, how far it went
-- (rows done of the total, imported and refused so far, the refused rows
-- with their reasons) and how it ended. Kept in the database, so every
-- server sharing it shows the same progress; the process that received the
-- file runs it and writes `beat_at` as it goes: a job still `running` whose
-- beat is old was interrupted (its process died). Not audited: the rows the
-- import writes are, each with its own entry; this is only their progress.
CREATE TABLE import_jobs (
    id TEXT NOT NULL PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL,
    file TEXT NOT NULL,
    started_by TEXT NOT NULL,
    started_at TEXT NOT NULL,
    beat_at TEXT NOT NULL,
    total BIGINT NOT NULL,
    done BIGINT NOT NULL,
    imported BIGINT NOT NULL,
    refused BIGINT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('running', 'finished', 'failed')),
    -- The outcomes so far (JSON: the refused rows; every row once finished).
    outcomes TEXT NOT NULL,
    error TEXT
);
CREATE INDEX import_jobs_listed ON import_jobs (jurisdiction, started_at);
