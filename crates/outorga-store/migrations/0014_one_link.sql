-- A driver serves one permit at a time, and a vehicle one permit at a time:
-- the database keeps it so even when two requests race.
CREATE UNIQUE INDEX permit_drivers_one_at_a_time ON permit_drivers (jurisdiction, driver) WHERE until IS NULL;
CREATE UNIQUE INDEX permit_vehicles_one_at_a_time ON permit_vehicles (jurisdiction, plate) WHERE until IS NULL;
