-- A passenger's complaint (denúncia): what, when, where, the plate or the
-- line, an optional contact (never shown to the public); found again by
-- its protocol, a random code. The inspectors work it: under review,
-- turned into an auto (its number), or closed with the reason.
CREATE TABLE complaints (
    protocol TEXT NOT NULL PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL CHECK (kind IN ('overcharge', 'refusal', 'vehicle_condition',
        'dangerous_driving', 'conduct', 'unlicensed', 'other')),
    description TEXT NOT NULL,
    occurred_at TEXT NOT NULL,
    place TEXT NOT NULL,
    plate TEXT,
    line TEXT,
    contact TEXT,
    received_at TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('received', 'in_review', 'auto', 'closed')),
    note TEXT,
    auto_year INTEGER,
    auto_number BIGINT,
    handled_by TEXT,
    CHECK ((status = 'auto') = (auto_number IS NOT NULL))
);
-- The inspectors' queue: a jurisdiction's complaints by status, oldest first.
CREATE INDEX complaints_queue ON complaints (jurisdiction, status, received_at, protocol);
CREATE INDEX complaints_listed ON complaints (jurisdiction, received_at, protocol);
