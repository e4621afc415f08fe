-- A passenger's complaint about an intercity bus trip (Amapá art. 22, 32,
-- 48, 49, 53): a delay or interruption, a refund refused, baggage damaged
-- or lost, excess baggage charged, a seat sold twice. The complaint keeps,
-- in `trip` (JSON), the facts told (the departure, the ticket, the times,
-- kilograms and amounts) and the engine's answer with its articles, as the
-- inspectors read it. SQLite cannot change a CHECK: the table is made
-- again, rows and indexes as they were (nothing refers to it).
CREATE TABLE complaints_next (
    protocol TEXT NOT NULL PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL CHECK (kind IN ('overcharge', 'refusal', 'vehicle_condition',
        'dangerous_driving', 'conduct', 'unlicensed', 'other', 'trip_delay',
        'refund_refused', 'baggage_damaged', 'baggage_lost', 'excess_baggage',
        'seat_sold_twice')),
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
    trip TEXT,
    CHECK ((status = 'auto') = (auto_number IS NOT NULL)),
    CHECK ((trip IS NOT NULL) = (kind IN ('trip_delay', 'refund_refused', 'baggage_damaged',
        'baggage_lost', 'excess_baggage', 'seat_sold_twice')))
);
INSERT INTO complaints_next (protocol, jurisdiction, kind, description, occurred_at, place, plate,
    line, contact, received_at, status, note, auto_year, auto_number, handled_by, trip)
SELECT protocol, jurisdiction, kind, description, occurred_at, place, plate, line, contact,
    received_at, status, note, auto_year, auto_number, handled_by, NULL FROM complaints;
DROP TABLE complaints;
ALTER TABLE complaints_next RENAME TO complaints;
-- The inspectors' queue: a jurisdiction's complaints by status, oldest first.
CREATE INDEX complaints_queue ON complaints (jurisdiction, status, received_at, protocol);
CREATE INDEX complaints_listed ON complaints (jurisdiction, received_at, protocol);
