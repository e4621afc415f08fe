-- Permits (and bus delegations) of every service, numbered per jurisdiction
-- and service; `status` is the current one, `permit_history` every change
-- with its date, reason and the articles it rests on.
CREATE TABLE permits (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    service TEXT NOT NULL,
    number BIGINT NOT NULL,
    rulebook TEXT NOT NULL,
    holder TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('granted', 'suspended', 'reserved', 'renounced', 'revoked', 'extinct')),
    quota TEXT,
    granted_on TEXT NOT NULL,
    expires_on TEXT,
    line TEXT,
    PRIMARY KEY (jurisdiction, service, number),
    FOREIGN KEY (jurisdiction, holder) REFERENCES people (jurisdiction, document)
);

CREATE TABLE permit_history (
    jurisdiction TEXT NOT NULL,
    service TEXT NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    -- grant, suspension, reserve, reinstatement, renewal, renunciation,
    -- cassation, revocation, caducity, extinction
    event TEXT NOT NULL,
    status TEXT NOT NULL,
    since TEXT NOT NULL,
    until TEXT,
    reason TEXT NOT NULL,
    citations TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, service, number, seq),
    FOREIGN KEY (jurisdiction, service, number) REFERENCES permits (jurisdiction, service, number)
);

-- Drivers serving under a permit (auxiliary, collaborator, preposto), each
-- with a registration number unique in the jurisdiction; `until` is set when
-- they leave.
CREATE TABLE permit_drivers (
    jurisdiction TEXT NOT NULL,
    registration TEXT NOT NULL,
    service TEXT NOT NULL,
    number BIGINT NOT NULL,
    driver TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('auxiliary', 'collaborator', 'preposto')),
    since TEXT NOT NULL,
    valid_until TEXT,
    until TEXT,
    PRIMARY KEY (jurisdiction, registration),
    FOREIGN KEY (jurisdiction, service, number) REFERENCES permits (jurisdiction, service, number),
    FOREIGN KEY (jurisdiction, driver) REFERENCES people (jurisdiction, document)
);

-- The vehicles that served each permit: inclusion or substitution, and when
-- they left.
CREATE TABLE permit_vehicles (
    jurisdiction TEXT NOT NULL,
    service TEXT NOT NULL,
    number BIGINT NOT NULL,
    plate TEXT NOT NULL,
    how TEXT NOT NULL CHECK (how IN ('inclusion', 'substitution')),
    since TEXT NOT NULL,
    until TEXT,
    PRIMARY KEY (jurisdiction, service, number, plate, since),
    FOREIGN KEY (jurisdiction, service, number) REFERENCES permits (jurisdiction, service, number),
    FOREIGN KEY (jurisdiction, plate) REFERENCES vehicles (jurisdiction, plate)
);

-- Bus lines delegated to a carrier: the delegation is a permit of service
-- `onibus` whose `line` names the line.

-- Inspections of vehicles with their result and the next one due.
CREATE TABLE inspections (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    plate TEXT NOT NULL,
    kind TEXT NOT NULL,
    done_on TEXT NOT NULL,
    approved INTEGER NOT NULL CHECK (approved IN (0, 1)),
    findings TEXT NOT NULL,
    next_due TEXT,
    inspector TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number),
    FOREIGN KEY (jurisdiction, plate) REFERENCES vehicles (jurisdiction, plate)
);

-- Documents issued (traffic authorization / DIV / alvará, driver
-- registration, delegation term, inspection seal), with validity and a
-- random verification code anyone can check.
CREATE TABLE documents (
    code TEXT PRIMARY KEY,
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    kind TEXT NOT NULL CHECK (kind IN ('traffic_authorization', 'driver_registration', 'delegation_term', 'inspection_seal')),
    subject TEXT NOT NULL,
    holder TEXT NOT NULL,
    issued_on TEXT NOT NULL,
    valid_until TEXT,
    cancelled_on TEXT
);
CREATE INDEX documents_subject ON documents (jurisdiction, subject);
