-- A user who leaves is disabled, not deleted (the audit log names them):
-- they can no longer sign in, and their sessions and tokens end.
ALTER TABLE users ADD COLUMN disabled_at TEXT;
