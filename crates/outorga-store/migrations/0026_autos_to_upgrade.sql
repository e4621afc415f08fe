-- The autos `Store::upgrade_records` moves (judged, the decision notified,
-- recorded before migration 0023): it runs whenever a command opens the
-- database, so it reads this index, empty once they moved, never the table.
CREATE INDEX autos_to_upgrade ON autos (jurisdiction, year, number)
    WHERE status = 'judged' AND appeal_by IS NOT NULL AND decision_notified_on IS NULL;
