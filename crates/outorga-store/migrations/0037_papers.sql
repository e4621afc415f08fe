-- Documents of the procedure and the money module, issued when printed:
-- the auto de infração, its notification, the notice of the decision and
-- a payment slip. The kinds' CHECK grows: the table is made again with it
-- (SQLite cannot change a CHECK), its rows and indexes as they were.
CREATE TABLE documents_new (
    code TEXT PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL CHECK (kind IN ('traffic_authorization', 'driver_registration',
        'delegation_term', 'inspection_seal', 'auto', 'auto_notification', 'decision_notice',
        'payment_slip')),
    subject TEXT NOT NULL,
    holder TEXT NOT NULL,
    issued_on TEXT NOT NULL,
    valid_until TEXT,
    cancelled_on TEXT
);
INSERT INTO documents_new (code, jurisdiction, kind, subject, holder, issued_on, valid_until, cancelled_on)
SELECT code, jurisdiction, kind, subject, holder, issued_on, valid_until, cancelled_on FROM documents;
DROP TABLE documents;
ALTER TABLE documents_new RENAME TO documents;
CREATE INDEX documents_listed ON documents (jurisdiction, issued_on, code);
CREATE INDEX documents_by_subject ON documents (jurisdiction, subject, issued_on, code);
CREATE INDEX documents_by_holder ON documents (jurisdiction, holder, issued_on, code);
CREATE INDEX documents_by_kind ON documents (jurisdiction, kind, issued_on, code);
-- One document in force of a kind about a record: a renewal cancels the one
-- it replaces in the same write; two servers issuing at once, the second
-- is refused by this index (and a paper then reprints the first's).
CREATE UNIQUE INDEX documents_current ON documents (jurisdiction, kind, subject)
    WHERE cancelled_on IS NULL;
-- A payment slip's validity is its due day, nothing to renew: not on the
-- agenda.
CREATE INDEX documents_falling_due ON documents (jurisdiction, valid_until, code)
    WHERE cancelled_on IS NULL AND valid_until IS NOT NULL AND kind <> 'payment_slip';

-- The PDF of a document (in each format), kept as first printed: every later download
-- serves the same bytes, and `sha256` (of those bytes) lets anyone tell a
-- genuine file on the verification page. The audit log keeps the file as
-- its SHA-256 (audit/schema.rs), not a copy.
CREATE TABLE document_files (
    code TEXT NOT NULL REFERENCES documents (code),
    -- 'a4', or 'card' (the driver's credential to carry).
    format TEXT NOT NULL CHECK (format IN ('a4', 'card')),
    sha256 TEXT NOT NULL,
    -- The PDF, base64 (one spelling on both backends).
    pdf TEXT NOT NULL,
    printed_at TEXT NOT NULL,
    printed_by TEXT NOT NULL,
    PRIMARY KEY (code, format)
);

-- What a vehicle is, as its registration certificate (CRLV) says: shown
-- on the papers and on the public check of a plate.
ALTER TABLE vehicles ADD COLUMN make TEXT;
ALTER TABLE vehicles ADD COLUMN model TEXT;
