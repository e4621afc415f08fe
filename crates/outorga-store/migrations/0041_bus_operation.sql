-- How a bus line is operated (Amapá art. 13, IV–V; 34–37): its service
-- level, terminals and stops, departures per day of the week and minimum
-- weekly trips. Each row is a version from a day: set by the agency or
-- requested by the carrier with its justification (art. 34), then approved or
-- refused with the article. The operation in force on a day is the approved
-- row with the latest `since` on or before it.
CREATE TABLE line_operations (
    jurisdiction TEXT NOT NULL,
    line TEXT NOT NULL,
    seq INTEGER NOT NULL,
    since TEXT NOT NULL,
    level TEXT NOT NULL CHECK (level IN ('convencional', 'executivo', 'leito')),
    -- JSON: seven lists of "HH:MM", Monday first.
    departures TEXT NOT NULL,
    min_weekly_trips INTEGER NOT NULL CHECK (min_weekly_trips >= 0),
    -- JSON: the two terminals and the stops in between.
    terminals TEXT NOT NULL,
    stops TEXT NOT NULL,
    -- The carrier that asked (CPF/CNPJ), NULL when the agency set it.
    requested_by TEXT,
    requested_on TEXT NOT NULL,
    justification TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('requested', 'approved', 'refused')),
    decided_on TEXT,
    act TEXT,
    grounds TEXT,
    citations TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (jurisdiction, line, seq),
    FOREIGN KEY (jurisdiction, line) REFERENCES lines (jurisdiction, code)
);

-- A file of a carrier's own data handed in (tickets as CSV or BP-e XML, or
-- the monthly statistics as CSV): kept by its SHA-256, so the same file is
-- imported once; with what was accepted and every line refused.
CREATE TABLE carrier_files (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    id BIGINT NOT NULL,
    carrier TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('tickets_csv', 'tickets_bpe', 'statistics_csv')),
    month TEXT NOT NULL,
    name TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    received_on TEXT NOT NULL,
    accepted INTEGER NOT NULL,
    repeated INTEGER NOT NULL,
    -- JSON: [{"line": n, "field": "...", "reason": "..."}]
    refused TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, id),
    UNIQUE (jurisdiction, sha256),
    FOREIGN KEY (jurisdiction, carrier) REFERENCES people (jurisdiction, document)
);

-- The tickets a carrier sold, as its file reports them (one row per ticket,
-- keyed by the BP-e access key or the CSV's number and series): what the
-- findings read. `missing`: the items of the law the ticket does not show.
CREATE TABLE carrier_tickets (
    jurisdiction TEXT NOT NULL,
    key TEXT NOT NULL,
    file BIGINT NOT NULL,
    carrier TEXT NOT NULL,
    line TEXT NOT NULL,
    departs TEXT NOT NULL,
    origin TEXT NOT NULL,
    destination TEXT NOT NULL,
    -- NULL: the ticket shows no seat; 0: a standing passenger.
    seat INTEGER,
    fare TEXT NOT NULL,
    discount TEXT NOT NULL,
    missing TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, carrier, key),
    FOREIGN KEY (jurisdiction, file) REFERENCES carrier_files (jurisdiction, id)
);
CREATE INDEX carrier_tickets_by_trip ON carrier_tickets (jurisdiction, carrier, departs, line);

-- The trips made, as the monthly statistics report them: the vehicle and
-- the passengers carried on each section.
CREATE TABLE carrier_trips (
    jurisdiction TEXT NOT NULL,
    carrier TEXT NOT NULL,
    line TEXT NOT NULL,
    departs TEXT NOT NULL,
    plate TEXT NOT NULL,
    file BIGINT NOT NULL,
    -- JSON: [{"from": "...", "to": "...", "passengers": n}]
    sections TEXT NOT NULL,
    passengers INTEGER NOT NULL,
    PRIMARY KEY (jurisdiction, carrier, line, departs),
    FOREIGN KEY (jurisdiction, file) REFERENCES carrier_files (jurisdiction, id)
);
CREATE INDEX carrier_trips_by_month ON carrier_trips (jurisdiction, carrier, departs);

-- A finding turned into an auto: the auto it became, so it becomes one.
CREATE TABLE finding_autos (
    jurisdiction TEXT NOT NULL,
    carrier TEXT NOT NULL,
    month TEXT NOT NULL,
    finding TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    PRIMARY KEY (jurisdiction, carrier, finding)
);
CREATE INDEX finding_autos_by_month ON finding_autos (jurisdiction, carrier, month);
