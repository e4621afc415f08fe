-- A stand's act (the decree that set it, Canguçu art. 15, caput and § 5º)
-- and, for a provisional stand of an event (art. 16), the days it exists.
ALTER TABLE stands ADD COLUMN act TEXT;
ALTER TABLE stands ADD COLUMN opens_on TEXT;
ALTER TABLE stands ADD COLUMN closes_on TEXT;

-- Which permit holds a place at which fixed stand, from which day
-- (`from_day`, included) to the day it left (`left_on`, excluded; NULL:
-- still there). A permit is at one fixed stand at a time: its stretches
-- never overlap. The occupancy of any past day is the stretches that
-- cover it.
CREATE TABLE stand_places (
    jurisdiction TEXT NOT NULL,
    service TEXT NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    stand TEXT NOT NULL,
    from_day TEXT NOT NULL,
    left_on TEXT,
    -- How it came there: a designation by the department, a swap, a
    -- relocation by the authority, a vacancy's draw.
    came_by TEXT NOT NULL CHECK (came_by IN ('designation', 'swap', 'relocation', 'draw')),
    -- How it left: a swap, a relocation, a draw to another stand, the loss
    -- the downtime rule imposes, the permit ended.
    left_by TEXT CHECK (left_by IN ('swap', 'relocation', 'draw', 'downtime', 'permit_ended')),
    -- The act or request it rests on ("swap 3/2026", "draw 2/2026", a decree).
    act TEXT NOT NULL,
    grounds TEXT NOT NULL,
    citations TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, service, number, seq),
    FOREIGN KEY (jurisdiction, service, number) REFERENCES permits (jurisdiction, service, number),
    FOREIGN KEY (jurisdiction, stand) REFERENCES stands (jurisdiction, code),
    CHECK ((left_on IS NULL) = (left_by IS NULL))
);
-- A stand's occupants on a day: its stretches, newest first.
CREATE INDEX stand_places_by_stand ON stand_places (jurisdiction, stand, from_day);

-- Two holders' written request to swap their fixed stands (Canguçu art.
-- 15, § 3º, I; § 6º) with the class entity's consent, and the
-- coordinator's decision; approved, each pays the fee (§ 3º, II).
CREATE TABLE stand_swaps (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    service TEXT NOT NULL,
    permit_a BIGINT NOT NULL,
    permit_b BIGINT NOT NULL,
    stand_a TEXT NOT NULL,
    stand_b TEXT NOT NULL,
    requested_on TEXT NOT NULL,
    -- The class entity that consented and the day (NULL: not given).
    consent_by TEXT,
    consent_on TEXT,
    status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'refused')),
    decided_on TEXT,
    decided_by TEXT,
    decision TEXT,
    citations TEXT NOT NULL,
    -- The two fees' debts ("ano/número/parcela"), once approved.
    debts TEXT,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number),
    FOREIGN KEY (jurisdiction, service, permit_a) REFERENCES permits (jurisdiction, service, number),
    FOREIGN KEY (jurisdiction, service, permit_b) REFERENCES permits (jurisdiction, service, number),
    CHECK ((status = 'requested') = (decided_on IS NULL))
);
-- The swaps still to decide.
CREATE INDEX stand_swaps_by_status ON stand_swaps (jurisdiction, status, year, number);

-- A public draw (engine::draw): what it allocates, the closed list of
-- participants with its SHA-256 published before, the seed fixed in
-- advance from a public source and entered after it happens, the order.
-- Once drawn it is never drawn again.
CREATE TABLE draws (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    -- What it allocates: a stand's vacancies (subject `stand:CODE`), the
    -- order of applicants tied in a public call (subject `call:YEAR:NUMBER`).
    purpose TEXT NOT NULL CHECK (purpose IN ('stand_vacancy', 'call_tie')),
    subject TEXT NOT NULL,
    places INTEGER NOT NULL CHECK (places > 0),
    -- The public source the seed will come from and the day it happens.
    seed_source TEXT NOT NULL,
    seed_on TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'closed', 'drawn')),
    opened_on TEXT NOT NULL,
    closed_on TEXT,
    list_hash TEXT,
    seed TEXT,
    drawn_on TEXT,
    drawn_by TEXT,
    citations TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number),
    CHECK ((status = 'open') = (closed_on IS NULL)),
    CHECK ((status = 'drawn') = (seed IS NOT NULL))
);
CREATE INDEX draws_by_subject ON draws (jurisdiction, subject, year, number);

-- A draw's participants in the order of the published list: `label` is
-- what the list and the tickets read (a permit's number), `who` the
-- person; `ticket` and `position` once drawn.
CREATE TABLE draw_participants (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    label TEXT NOT NULL,
    who TEXT NOT NULL,
    service TEXT,
    permit BIGINT,
    ticket TEXT,
    position INTEGER,
    PRIMARY KEY (jurisdiction, year, number, seq),
    UNIQUE (jurisdiction, year, number, label),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES draws (jurisdiction, year, number)
);

-- Appeals against a draw's result, and their decision.
CREATE TABLE draw_appeals (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    appellant TEXT NOT NULL,
    filed_on TEXT NOT NULL,
    grounds TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('filed', 'granted', 'denied')),
    decided_on TEXT,
    decision TEXT,
    decided_by TEXT,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES draws (jurisdiction, year, number),
    CHECK ((status = 'filed') = (decided_on IS NULL))
);
