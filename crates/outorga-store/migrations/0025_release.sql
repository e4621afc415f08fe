-- The day what was seized or retained on the spot was released (the
-- procedure's `release` step): its measures end the day before.
ALTER TABLE autos ADD COLUMN released_on TEXT;
