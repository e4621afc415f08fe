-- A line's route: the localities it serves in order (itinerary) and its
-- sections (seccionamentos) with their length in km, as JSON text:
-- ["Macapá","Porto Grande","Ferreira Gomes"],
-- [{"from":"Macapá","to":"Porto Grande","km":"108.5"}, …].
ALTER TABLE lines ADD COLUMN itinerary TEXT NOT NULL DEFAULT '[]';
ALTER TABLE lines ADD COLUMN sections TEXT NOT NULL DEFAULT '[]';
