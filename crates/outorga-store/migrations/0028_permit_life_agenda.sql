-- The agenda's permit-life items, each one index range by its day: a
-- reserve (suspension on request) ending, and the time to correct of a
-- notice before caducity ending (the latest such step of a permit; a later
-- step — a return, a cure, an end — takes it off).
CREATE INDEX permit_reserves_due ON permit_history (jurisdiction, until, service, number, seq)
    WHERE event IN ('reserve', 'reserve_extension', 'suspension') AND until IS NOT NULL;
CREATE INDEX permit_notices_due ON permit_history (jurisdiction, until, service, number, seq)
    WHERE event = 'caducity_notice' AND until IS NOT NULL;
