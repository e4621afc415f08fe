-- The words of each registered name (lower case, without accents), so the
-- staff's search finds a person by the beginning of any word of the name
-- with one index range. Derived from `people.name`: written with the person,
-- and for people registered before it when the store opens after a migration.
CREATE TABLE person_words (
    jurisdiction TEXT NOT NULL,
    word TEXT NOT NULL,
    document TEXT NOT NULL,
    -- No foreign key: an index, never a record; the search joins `people`.
    PRIMARY KEY (jurisdiction, word, document)
);
-- The register listed by name.
CREATE INDEX people_by_name ON people (jurisdiction, name, document);
-- A permit's autos, the latest first (its dossier).
CREATE INDEX autos_by_permit ON autos (jurisdiction, service, permit_number, committed_at, year, number);
