-- The latest inspection of a plate (the public check, the vehicle's next
-- inspection): one index range, whatever the number of inspections.
CREATE INDEX inspections_by_plate ON inspections (jurisdiction, plate, done_on, year, number);
