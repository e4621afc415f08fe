-- A deployment's values for a rulebook's parameters (the IBGE population of
-- the year, a decree's choice where the law leaves it open): they override
-- the rulebook's value for every decision in the jurisdiction.
CREATE TABLE jurisdiction_parameters (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, name)
);
