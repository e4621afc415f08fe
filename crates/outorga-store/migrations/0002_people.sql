-- Each jurisdiction's register of people (CPF) and companies (CNPJ), keyed by
-- the document without punctuation (upper case: the alphanumeric CNPJ).
CREATE TABLE people (
    jurisdiction TEXT NOT NULL REFERENCES jurisdictions (id),
    document TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('person', 'company')),
    name TEXT NOT NULL,
    PRIMARY KEY (jurisdiction, document)
);
