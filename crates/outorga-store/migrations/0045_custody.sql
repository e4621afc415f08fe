-- The custody of a vehicle held on the spot by an auto (retained or seized:
-- Amapá art. 63, 64, 69, 70): where it is kept and by whom, from when; the
-- irregularity corrected (a retention goes on then, art. 69, parágrafo
-- único); the release, by an act of the órgão fiscalizador (art. 64,
-- § 3º). One per auto: an auto holds one vehicle.
CREATE TABLE custodies (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('vehicle_retention', 'vehicle_seizure')),
    plate TEXT NOT NULL,
    held_at TEXT NOT NULL,
    place TEXT NOT NULL,
    custodian TEXT NOT NULL,
    opened_by TEXT NOT NULL,
    corrected_at TEXT,
    correction TEXT,
    released_at TEXT,
    release_act TEXT,
    released_by TEXT,
    PRIMARY KEY (jurisdiction, year, number),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES autos (jurisdiction, year, number),
    CHECK ((corrected_at IS NULL) = (correction IS NULL)),
    CHECK ((released_at IS NULL) = (release_act IS NULL))
);
-- The vehicles held now, the longest held first.
CREATE INDEX custodies_held ON custodies (jurisdiction, held_at, year, number)
    WHERE released_at IS NULL;

-- What the custody costs its owner, as the law puts it on them (art. 64,
-- §§ 1º–2º): the passengers carried on by another bus, their food and
-- lodging; in reais, with the day paid and the receipt.
CREATE TABLE custody_expenses (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('continuation_transport', 'food_lodging', 'removal_storage')),
    description TEXT NOT NULL,
    amount TEXT NOT NULL,
    incurred_on TEXT NOT NULL,
    paid_on TEXT,
    receipt TEXT,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES custodies (jurisdiction, year, number),
    CHECK ((paid_on IS NULL) = (receipt IS NULL))
);
