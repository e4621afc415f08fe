-- The e-mail reminders of deadlines the agenda knows (renewal, inspection,
-- defense, appeal, payment, parcel), to the holders and drivers who gave an
-- address: an outbox. One row per deadline, person and lead (`key`), so a
-- reminder is planned once whichever server plans it; a server claims a
-- row until `claimed_until` (another takes it over after that, should the
-- first stop), and records when it was sent or why it failed.
CREATE TABLE messages (
    key TEXT PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL,
    record TEXT NOT NULL,
    due_on TEXT NOT NULL,
    lead_days INTEGER NOT NULL,
    document TEXT NOT NULL,
    recipient TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    planned_at TEXT NOT NULL,
    claimed_until TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    sent_at TEXT,
    last_error TEXT
);
-- What waits to be sent, the oldest first.
CREATE INDEX messages_waiting ON messages (sent_at, planned_at);
-- A jurisdiction's messages, the latest first; a person's.
CREATE INDEX messages_listed ON messages (jurisdiction, planned_at);
CREATE INDEX messages_of_person ON messages (document, planned_at);
