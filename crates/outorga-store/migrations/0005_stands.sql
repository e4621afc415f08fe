-- Each jurisdiction's taxi and mototaxi stands: a fixed stand has the places
-- its decree set; a free stand (events) has none.
CREATE TABLE stands (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    code TEXT NOT NULL,
    name TEXT NOT NULL,
    capacity INTEGER,
    CHECK (capacity IS NULL OR capacity > 0),
    PRIMARY KEY (jurisdiction, code)
);
