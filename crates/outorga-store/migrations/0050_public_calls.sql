-- A public call for new permits (SMJ art. 2º, 6º, 8º; Canguçu art. 37;
-- TO art. 1º): the edital — its act, the places it offers (what the cap
-- leaves, computed when it opens: per reserved share and open), the
-- application period, the documents it asks and its ranking criteria,
-- each with its item — and where the call stands: applications open,
-- screened, provisional result published (with the last day to appeal),
-- final result published.
CREATE TABLE calls (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    service TEXT NOT NULL,
    rulebook TEXT NOT NULL,
    act TEXT NOT NULL,
    offered INTEGER NOT NULL CHECK (offered > 0),
    -- JSON: {"open": n, "reserved": [["share", n], …], "articles": […]}
    places TEXT NOT NULL,
    opens_on TEXT NOT NULL,
    closes_on TEXT NOT NULL,
    -- JSON lists: [{key, description, points_per_unit, max, citation}],
    -- [criterion key], [{name, citation}].
    criteria TEXT NOT NULL,
    tie_breaks TEXT NOT NULL,
    documents TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('open', 'screened', 'provisional', 'final')),
    screened_on TEXT,
    provisional_on TEXT,
    appeal_until TEXT,
    final_on TEXT,
    -- The places left unfilled by the published result (JSON: released,
    -- vacant, open vacant), and its articles.
    outcome TEXT,
    citations TEXT NOT NULL,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number),
    CHECK (closes_on >= opens_on),
    CHECK ((status = 'open') = (screened_on IS NULL)),
    CHECK ((status IN ('provisional', 'final')) = (appeal_until IS NOT NULL)),
    CHECK ((status = 'final') = (final_on IS NOT NULL))
);

-- An application to a call, in the order received: `label` is what the
-- published lists and a tie draw's tickets read ("inscricao-7"); what the
-- applicant showed for each criterion, the documents presented, the
-- reserved share claimed and its conditions proved. Screened, its
-- findings and points (JSON); ranked, its position; placed, the kind of
-- place; granted, the permit.
CREATE TABLE call_applications (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    label TEXT NOT NULL,
    who TEXT NOT NULL,
    applied_on TEXT NOT NULL,
    -- JSON: {"criterion": "quantity"}, ["document"], ["condition"].
    quantities TEXT NOT NULL,
    documents TEXT NOT NULL,
    claim TEXT,
    proved TEXT NOT NULL,
    screening TEXT,
    position INTEGER,
    -- 'reserved:SHARE', 'open', 'released:SHARE'; its turn among the grants.
    place TEXT,
    place_order INTEGER,
    permit_service TEXT,
    permit_number BIGINT,
    granted_on TEXT,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq),
    UNIQUE (jurisdiction, year, number, label),
    UNIQUE (jurisdiction, year, number, who),
    FOREIGN KEY (jurisdiction, year, number) REFERENCES calls (jurisdiction, year, number),
    FOREIGN KEY (jurisdiction, who) REFERENCES people (jurisdiction, document),
    CHECK ((place IS NULL) = (place_order IS NULL)),
    CHECK ((permit_number IS NULL) = (granted_on IS NULL))
);

-- Appeals against a call's provisional result, within the period
-- (`call_appeal`), and the board's decision; a granted appeal may correct
-- what the application showed (`amendment`, JSON), weighed in the final
-- result.
CREATE TABLE call_appeals (
    jurisdiction TEXT NOT NULL,
    year INTEGER NOT NULL,
    number BIGINT NOT NULL,
    seq INTEGER NOT NULL,
    application INTEGER NOT NULL,
    filed_on TEXT NOT NULL,
    grounds TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('filed', 'granted', 'denied')),
    decided_on TEXT,
    decision TEXT,
    decided_by TEXT,
    amendment TEXT,
    recorded_by TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, year, number, seq),
    FOREIGN KEY (jurisdiction, year, number, application)
        REFERENCES call_applications (jurisdiction, year, number, seq),
    CHECK ((status = 'filed') = (decided_on IS NULL))
);
