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
