-- A deployment's value for a rulebook parameter from a day, with the act
-- that set it (the decree, portaria or edital that fills what the law
-- leaves open; the IBGE estimate of the population): the value in force on
-- a day is the latest from that day or before, so what a decision was
-- decided with is known for any day. The values recorded before acts were
-- dated (jurisdiction_parameters) stay in force from the law's first day
-- until an act replaces them.
CREATE TABLE parameter_acts (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    name TEXT NOT NULL,
    valid_from TEXT NOT NULL,
    value TEXT NOT NULL,
    act TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, name, valid_from)
);
