-- Each jurisdiction's intercity bus lines with their tariff coefficient (an
-- exact decimal kept as text: SQLite has no exact decimal type) and whether
-- they are semi-urban (excluded from the mean tariff coefficient).
CREATE TABLE lines (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    semi_urban INTEGER NOT NULL CHECK (semi_urban IN (0, 1)),
    coefficient TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, code)
);
