-- The procedure of an auto as the core's state machine keeps it
-- (outorga-core engine::process::State): its statuses, one spelling each,
-- and what the machine remembers between steps.
--
-- `status` takes the machine's ten statuses: added as a new column (with
-- the new CHECK), filled, the old one dropped with the indexes that read it,
-- and renamed, so both backends run the same statements. The values stay
-- what the audit log recorded: an auto judged whose decision was notified
-- (appeal_by set) becomes `decision_notified` through an audited write when
-- a command opens the database (`Store::upgrade_records`), not here.
DROP INDEX autos_final;
DROP INDEX autos_by_status;
DROP INDEX autos_to_notify;
DROP INDEX autos_to_defend;
DROP INDEX autos_decision_to_notify;
DROP INDEX autos_to_appeal;
ALTER TABLE autos ADD COLUMN stage TEXT NOT NULL DEFAULT 'issued'
    CHECK (stage IN ('issued', 'awaiting_cure', 'cured', 'notified', 'judged',
                     'decision_notified', 'appealed', 'final', 'archived', 'annulled'));
UPDATE autos SET stage = status;
ALTER TABLE autos DROP COLUMN status;
ALTER TABLE autos RENAME COLUMN stage TO status;

-- The day the auto was issued when not the infraction's: a notice of
-- irregularity found not cured becomes the auto on that day (Canguçu Anexo
-- I art. 9º); `uncured` says so (its penalty is then the proposal's
-- `uncured` one). The decision notified, the appeals decided (the next goes
-- to the procedure's appeals[instance]), the decision (upheld, days fixed,
-- sanctions chosen: JSON) and the time to cure a notice of irregularity.
ALTER TABLE autos ADD COLUMN issued_on TEXT;
ALTER TABLE autos ADD COLUMN uncured INTEGER NOT NULL DEFAULT 0 CHECK (uncured IN (0, 1));
ALTER TABLE autos ADD COLUMN cure_by TEXT;
ALTER TABLE autos ADD COLUMN decision_notified_on TEXT;
ALTER TABLE autos ADD COLUMN instance INTEGER NOT NULL DEFAULT 0;
ALTER TABLE autos ADD COLUMN decision TEXT;

CREATE INDEX autos_final ON autos (jurisdiction, rulebook, offender) WHERE status = 'final';
CREATE INDEX autos_by_status ON autos (jurisdiction, status, committed_at, year, number);
CREATE INDEX autos_to_notify ON autos (jurisdiction, notify_by, year, number)
    WHERE status = 'issued' AND notify_by IS NOT NULL;
CREATE INDEX autos_to_cure ON autos (jurisdiction, cure_by, year, number)
    WHERE status = 'awaiting_cure' AND cure_by IS NOT NULL;
CREATE INDEX autos_to_defend ON autos (jurisdiction, defense_by, year, number)
    WHERE status = 'notified' AND defense_by IS NOT NULL;
CREATE INDEX autos_decision_to_notify ON autos (jurisdiction, judged_on, year, number)
    WHERE status = 'judged' AND judged_on IS NOT NULL;
CREATE INDEX autos_to_appeal ON autos (jurisdiction, appeal_by, year, number)
    WHERE status = 'decision_notified' AND appeal_by IS NOT NULL;
