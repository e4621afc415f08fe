-- A continuous charter's contract sets how many trips it makes ("quantidade
-- de viagens definidas", Amapá art. 3º, VIII): kept with the charter, shown
-- on its authorization.
ALTER TABLE charters ADD COLUMN trips INTEGER;
