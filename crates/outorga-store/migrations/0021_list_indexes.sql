-- Lists read a page at a time by keyset: each list has a unique order, and
-- each filter an index that ends in that order, so a page is one index range
-- read from where the last one ended, however large the table. Indexes whose
-- columns a new one begins with are dropped.

-- Autos, the latest infraction first: by moment, year and number; filtered
-- by offender, plate (also the public plate check's impediments), status and
-- infraction.
DROP INDEX autos_offender;
CREATE INDEX autos_listed ON autos (jurisdiction, committed_at, year, number);
CREATE INDEX autos_by_offender ON autos (jurisdiction, offender, committed_at, year, number);
CREATE INDEX autos_by_plate ON autos (jurisdiction, plate, committed_at, year, number);
CREATE INDEX autos_by_status ON autos (jurisdiction, status, committed_at, year, number);
CREATE INDEX autos_by_infraction ON autos (jurisdiction, infraction, committed_at, year, number);

-- Permits by service and number (the primary key); by status and holder.
CREATE INDEX permits_by_status ON permits (jurisdiction, status, service, number);
CREATE INDEX permits_by_holder ON permits (jurisdiction, holder, service, number);

-- A permit's drivers by registration.
CREATE INDEX permit_drivers_by_permit ON permit_drivers (jurisdiction, service, number, registration);

-- Debts in the order they were issued; by debtor.
DROP INDEX debts_debtor;
CREATE INDEX debts_listed ON debts (jurisdiction, issued_on, year, number, seq);
CREATE INDEX debts_by_debtor ON debts (jurisdiction, debtor, issued_on, year, number, seq);

-- Documents, the latest issued first; by subject (also the plate check),
-- holder and kind.
DROP INDEX documents_subject;
CREATE INDEX documents_listed ON documents (jurisdiction, issued_on, code);
CREATE INDEX documents_by_subject ON documents (jurisdiction, subject, issued_on, code);
CREATE INDEX documents_by_holder ON documents (jurisdiction, holder, issued_on, code);
CREATE INDEX documents_by_kind ON documents (jurisdiction, kind, issued_on, code);

-- The audit log in the order of time (moment, sequence); by subject, action,
-- actor and jurisdiction (a reader's scope is one range per jurisdiction).
CREATE INDEX audit_log_listed ON audit_log (at, seq);
CREATE INDEX audit_log_by_subject ON audit_log (subject, at, seq);
CREATE INDEX audit_log_by_action ON audit_log (action, at, seq);
CREATE INDEX audit_log_by_actor ON audit_log (actor, at, seq);
CREATE INDEX audit_log_by_jurisdiction ON audit_log (jurisdiction, at, seq);

-- The agenda: each kind of thing that falls due, by the day it does, only
-- the rows that can fall due (the agenda reads a page of each, merged).
CREATE INDEX permits_falling_due ON permits (jurisdiction, expires_on, service, number)
    WHERE status IN ('granted', 'suspended', 'reserved') AND expires_on IS NOT NULL;
CREATE INDEX documents_falling_due ON documents (jurisdiction, valid_until, code)
    WHERE cancelled_on IS NULL AND valid_until IS NOT NULL;
CREATE INDEX autos_to_notify ON autos (jurisdiction, notify_by, year, number)
    WHERE status = 'issued' AND notify_by IS NOT NULL;
CREATE INDEX autos_to_defend ON autos (jurisdiction, defense_by, year, number)
    WHERE status = 'notified' AND defense_by IS NOT NULL;
CREATE INDEX autos_decision_to_notify ON autos (jurisdiction, judged_on, year, number)
    WHERE status = 'judged' AND appeal_by IS NULL AND judged_on IS NOT NULL;
CREATE INDEX autos_to_appeal ON autos (jurisdiction, appeal_by, year, number)
    WHERE status = 'judged' AND appeal_by IS NOT NULL;
CREATE INDEX sanctions_ending ON applied_sanctions (jurisdiction, ends, year, number, seq)
    WHERE ends IS NOT NULL;
CREATE INDEX debts_falling_due ON debts (jurisdiction, due_on, year, number, seq)
    WHERE installments IS NULL;

-- A driver's cassations, read by every eligibility decision on them.
CREATE INDEX sanctions_cassations ON applied_sanctions (jurisdiction, target)
    WHERE kind = 'driver_cassation';
