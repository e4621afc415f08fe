-- The record a decision reads: a person's final autos under a rulebook. A
-- partial index keeps that read short however many autos are in process.
CREATE INDEX autos_final ON autos (jurisdiction, rulebook, offender) WHERE status = 'final';
