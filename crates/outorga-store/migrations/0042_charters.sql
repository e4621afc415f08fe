-- Services by authorization (Amapá art. 6º, III; 3º, VIII–IX; 27–29):
-- charters (continuous, eventual) and emergency services, each authorized
-- by the law's rules with its document (`charter_authorization`), which the
-- bus carries (art. 28, § 2º) and an inspector checks by its code. The list
-- of passengers is kept here and never published.
CREATE TABLE charters (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    carrier TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('continuous', 'eventual', 'emergency')),
    from_day TEXT NOT NULL,
    until_day TEXT NOT NULL,
    origin TEXT NOT NULL,
    destination TEXT NOT NULL,
    end_place TEXT NOT NULL,
    route TEXT NOT NULL,
    plate TEXT NOT NULL,
    -- Who hires it (a continuous charter's company or institution, an
    -- eventual one's person or group), as the request names them.
    client TEXT NOT NULL,
    invoice TEXT,
    contract TEXT,
    -- An emergency service: the line it serves.
    line TEXT,
    -- JSON: [{"name": "...", "document": "..."}].
    passengers TEXT NOT NULL,
    authorized_on TEXT NOT NULL,
    document TEXT NOT NULL,
    citations TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number),
    FOREIGN KEY (jurisdiction, carrier) REFERENCES people (jurisdiction, document),
    FOREIGN KEY (jurisdiction, plate) REFERENCES vehicles (jurisdiction, plate)
);
CREATE INDEX charters_by_carrier ON charters (jurisdiction, carrier, year, number);

-- The documents' kinds grow by the charter authorization. SQLite cannot
-- change a CHECK: both tables are made again, rows and indexes as they
-- were. The files' table is made first pointing at the new documents (so
-- neither backend sees it point at the table dropped), then the old ones
-- are dropped and the new renamed (both backends carry the reference over).
CREATE TABLE documents_next (
    code TEXT PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL CHECK (kind IN ('traffic_authorization', 'driver_registration',
        'delegation_term', 'inspection_seal', 'auto', 'auto_notification', 'decision_notice',
        'payment_slip', 'charter_authorization')),
    subject TEXT NOT NULL,
    holder TEXT NOT NULL,
    issued_on TEXT NOT NULL,
    valid_until TEXT,
    cancelled_on TEXT
);
INSERT INTO documents_next (code, jurisdiction, kind, subject, holder, issued_on, valid_until, cancelled_on)
SELECT code, jurisdiction, kind, subject, holder, issued_on, valid_until, cancelled_on FROM documents;
CREATE TABLE document_files_next (
    code TEXT NOT NULL REFERENCES documents_next (code),
    format TEXT NOT NULL CHECK (format IN ('a4', 'card')),
    sha256 TEXT NOT NULL,
    pdf TEXT NOT NULL,
    printed_at TEXT NOT NULL,
    printed_by TEXT NOT NULL,
    PRIMARY KEY (code, format)
);
INSERT INTO document_files_next (code, format, sha256, pdf, printed_at, printed_by)
SELECT code, format, sha256, pdf, printed_at, printed_by FROM document_files;
DROP TABLE document_files;
DROP TABLE documents;
ALTER TABLE documents_next RENAME TO documents;
ALTER TABLE document_files_next RENAME TO document_files;
CREATE INDEX documents_listed ON documents (jurisdiction, issued_on, code);
CREATE INDEX documents_by_subject ON documents (jurisdiction, subject, issued_on, code);
CREATE INDEX documents_by_holder ON documents (jurisdiction, holder, issued_on, code);
CREATE INDEX documents_by_kind ON documents (jurisdiction, kind, issued_on, code);
CREATE UNIQUE INDEX documents_current ON documents (jurisdiction, kind, subject)
    WHERE cancelled_on IS NULL;
-- Nothing to renew: a slip (its due day), a charter's authorization (its
-- service's last day).
CREATE INDEX documents_falling_due ON documents (jurisdiction, valid_until, code)
    WHERE cancelled_on IS NULL AND valid_until IS NOT NULL
    AND kind NOT IN ('payment_slip', 'charter_authorization');
