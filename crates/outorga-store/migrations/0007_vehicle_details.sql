-- A vehicle's details: colour, doors, passenger capacity (seats besides the
-- driver's), and its equipment and accessibility adaptations (JSON arrays of
-- names, e.g. ["taximetro","luminoso"], ["rampa","cinto para cadeira de rodas"]).
ALTER TABLE vehicles ADD COLUMN colour TEXT NOT NULL DEFAULT '';
ALTER TABLE vehicles ADD COLUMN doors INTEGER;
ALTER TABLE vehicles ADD COLUMN capacity INTEGER;
ALTER TABLE vehicles ADD COLUMN equipment TEXT NOT NULL DEFAULT '[]';
ALTER TABLE vehicles ADD COLUMN adaptations TEXT NOT NULL DEFAULT '[]';
