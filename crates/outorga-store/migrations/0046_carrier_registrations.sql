-- The register of the carriers authorized for special services (Amapá
-- art. 28, § 4º): a carrier's registration, numbered per jurisdiction and
-- year, in force from `valid_from` through `valid_until` (the rulebook's
-- validity; a renewal from the day after the one it renews ends), until
-- cancelled (art. 28, § 5º: at once, with the grounds and the article).
-- A charter's bus carries a copy of it (art. 64, IV): the charter names
-- the registration it was authorized on.
CREATE TABLE carrier_registrations (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    carrier TEXT NOT NULL,
    granted_on TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    valid_until TEXT NOT NULL,
    -- The registration it renews ("número/ano"), if any.
    renews TEXT,
    status TEXT NOT NULL CHECK (status IN ('in_force', 'cancelled')),
    cancelled_on TEXT,
    cancel_reason TEXT,
    cancel_article TEXT,
    recorded_by TEXT NOT NULL,
    citations TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number),
    FOREIGN KEY (jurisdiction, carrier) REFERENCES people (jurisdiction, document),
    CHECK ((status = 'cancelled') = (cancelled_on IS NOT NULL))
);
-- A carrier's registrations, a page at a time (newest first).
CREATE INDEX carrier_registrations_by_carrier
    ON carrier_registrations (jurisdiction, carrier, year, number);

-- The documents presented for a registration, as `petition_files` keeps a
-- petition's: the type told by the content, the bytes as base64, the
-- SHA-256 (in the audit log's image of the row).
CREATE TABLE carrier_registration_files (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('articles_of_association', 'cnpj_card',
        'clearance_certificates', 'fleet_inspection', 'insurance_policy', 'other')),
    name TEXT NOT NULL,
    content_type TEXT NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number)
        REFERENCES carrier_registrations (jurisdiction, year, number)
);

-- A charter's files sent with its request: the contract of a continuous
-- charter, the invoice (nota fiscal, art. 63, VI), the list of passengers
-- as signed, others.
CREATE TABLE charter_files (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('contract', 'invoice', 'passenger_list', 'other')),
    name TEXT NOT NULL,
    content_type TEXT NOT NULL CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    content TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES charters (jurisdiction, year, number)
);

-- The registration a charter was authorized on ("número/ano"; none before
-- the register, or for an emergency service).
ALTER TABLE charters ADD COLUMN registration TEXT;
