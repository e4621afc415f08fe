-- Each jurisdiction's register of vehicles, keyed by plate (old ABC1234 or
-- Mercosul ABC1D23, upper case, no hyphen); the RENAVAM (11 digits) is unique.
CREATE TABLE vehicles (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    plate TEXT NOT NULL,
    renavam TEXT NOT NULL,
    manufactured INTEGER NOT NULL,
    PRIMARY KEY (jurisdiction, plate),
    UNIQUE (jurisdiction, renavam)
);
