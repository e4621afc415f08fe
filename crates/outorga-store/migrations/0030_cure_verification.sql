-- A notice of irregularity sets its own time to cure (Canguçu Anexo I
-- art. 7º, § 1º): the days it set, when not the rulebook's. The
-- verification inspection is made known at least 24 hours before it
-- (art. 7º, § 2º): the moment it takes place, as the holder was told.
ALTER TABLE autos ADD COLUMN cure_days INTEGER;
ALTER TABLE autos ADD COLUMN verification_at TEXT;
-- Its day, which the agenda reads by one index range.
ALTER TABLE autos ADD COLUMN verification_on TEXT;
CREATE INDEX autos_to_verify ON autos (jurisdiction, verification_on, year, number)
    WHERE status = 'awaiting_cure' AND verification_on IS NOT NULL;
-- The infraction a final decision is recorded as, where the authority chose
-- an option that carries its own points (Teófilo Otoni art. 85: a, 4 points;
-- b, 8; a and b, 12): the record counts its points.
ALTER TABLE autos ADD COLUMN recorded_as TEXT;
