-- The panel's autos per month by infraction (issue 12): the autos of a
-- jurisdiction since a day, counted by month, rulebook and infraction from
-- the index alone (every column the count reads is in it).
CREATE INDEX autos_by_month ON autos (jurisdiction, committed_at, rulebook, infraction);
