-- A carrier's registration (Amapá art. 28, § 4º) is a document of its own:
-- the copy the bus carries on a charter (art. 64, IV), checked by its code
-- on the road; valid through the registration's last day, renewed as it
-- nears it (the agenda lists it), cancelled with the registration (§ 5º).
-- The documents' kinds grow by it: both tables are made again as in 0042.
CREATE TABLE documents_next (
    code TEXT PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL CHECK (kind IN ('traffic_authorization', 'driver_registration',
        'delegation_term', 'inspection_seal', 'auto', 'auto_notification', 'decision_notice',
        'payment_slip', 'charter_authorization', 'carrier_registration')),
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
