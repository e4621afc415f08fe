-- The audit log sealed with a key kept outside the database, and describing
-- the rows each entry wrote.
--
-- `images`: the rows an entry wrote, as a JSON list of { table, key, row }
-- (covered by the entry's hash); `mac`: HMAC-SHA256 of the entry's hash with
-- the audit key. The head carries the MAC of its sequence and hash, and the
-- id of the key that sealed the log ('' until it is sealed).
ALTER TABLE audit_log ADD COLUMN images TEXT NOT NULL DEFAULT '[]';
ALTER TABLE audit_log ADD COLUMN mac TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_head ADD COLUMN mac TEXT NOT NULL DEFAULT '';
ALTER TABLE audit_head ADD COLUMN key_id TEXT NOT NULL DEFAULT '';

-- One row per row image, so the latest image of a record is found by its
-- key: derived from `audit_log.images` (verification checks they agree).
-- `digest` is the SHA-256 of the image; NULL when the entry deleted the row.
CREATE TABLE audit_rows (
    tbl TEXT NOT NULL,
    key TEXT NOT NULL,
    seq BIGINT NOT NULL,
    digest TEXT,
    PRIMARY KEY (tbl, key, seq)
);
CREATE INDEX audit_rows_seq ON audit_rows (seq);

-- The columns of each audited table as the log last recorded them: when a
-- migration changes them, the rows are described again (audit.baseline).
CREATE TABLE audit_schema (
    tbl TEXT PRIMARY KEY,
    columns TEXT NOT NULL
);
