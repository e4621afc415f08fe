-- The columns of each audited table are read from the log's own sealed
-- `audit.schema` entries, which no one can edit without the key; the table
-- that kept a copy of them could be edited (a deleted row made a table look
-- new), so it goes.
DROP TABLE audit_schema;
