-- The plans of the queries that read growing tables, on PostgreSQL, as the
-- server runs them (plan_cache_mode = force_custom_plan): an auto's issue,
-- the public plate check, and a page of each list (docs/benchmarks.md).
-- Usage: psql postgres://…/DB -f scripts/load/plans.sql   (a database with
-- autos in santa-maria-de-jetiba, e.g. after scripts/load/run with BENCH_KEEP=1)
\set ON_ERROR_STOP on
\pset pager off
SET plan_cache_mode = force_custom_plan;
SELECT 'santa-maria-de-jetiba' AS j \gset
SELECT offender, plate, committed_at, year, number FROM autos WHERE jurisdiction = :'j' AND plate IS NOT NULL ORDER BY committed_at DESC, year DESC, number DESC OFFSET 60 LIMIT 1 \gset
SELECT substr(subject, 9) AS in_service FROM documents WHERE jurisdiction = :'j' AND kind = 'traffic_authorization' LIMIT 1 \gset
SELECT at, seq FROM audit_log ORDER BY at, seq OFFSET 60 LIMIT 1 \gset
\echo == issue: the offender final record (world::history)
EXPLAIN (ANALYZE, TIMING OFF) SELECT a.infraction, a.offender, a.committed_at, a.service, a.permit_number FROM (VALUES (:'offender')) AS wanted CROSS JOIN autos a WHERE a.jurisdiction = :'j' AND a.rulebook = 'santa-maria-de-jetiba/taxi' AND a.status = 'final' AND a.offender = wanted.column1;
\echo == issue: the step number (auto_step)
EXPLAIN (ANALYZE, TIMING OFF) SELECT COALESCE(MAX(seq), 0) + 1 FROM auto_steps WHERE jurisdiction = :'j' AND year = :year AND number = :number;
\echo == issue: the foreign key check of the auto of the step (what PostgreSQL runs)
EXPLAIN (ANALYZE, TIMING OFF) SELECT 1 FROM ONLY autos x WHERE jurisdiction = :'j' AND year = :year AND number = :number FOR KEY SHARE OF x;
\echo == plate check
EXPLAIN (ANALYZE, TIMING OFF) SELECT pv.service, pv.number, p.status,
 (SELECT COUNT(CASE WHEN d.kind = 'traffic_authorization' THEN 1 END) FROM documents d WHERE d.jurisdiction = :'j' AND d.subject = 'vehicle:' || :'in_service' AND d.cancelled_on IS NULL) AS authorizations,
 (SELECT MAX(CASE WHEN d.kind = 'inspection_seal' THEN d.valid_until END) FROM documents d WHERE d.jurisdiction = :'j' AND d.subject = 'vehicle:' || :'in_service' AND d.cancelled_on IS NULL) AS seal_until,
 (SELECT MAX(s.ends) FROM autos a CROSS JOIN applied_sanctions s WHERE a.jurisdiction = :'j' AND a.plate = :'in_service' AND s.jurisdiction = a.jurisdiction AND s.year = a.year AND s.number = a.number AND s.kind = 'vehicle_impediment') AS impeded_until
 FROM vehicles v LEFT JOIN permit_vehicles pv ON pv.jurisdiction = v.jurisdiction AND pv.plate = v.plate AND pv.until IS NULL
 LEFT JOIN permits p ON p.jurisdiction = pv.jurisdiction AND p.service = pv.service AND p.number = pv.number WHERE v.jurisdiction = :'j' AND v.plate = :'in_service';
\echo == autos, a later page
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number FROM autos WHERE jurisdiction = :'j' AND (committed_at, year, number) < (:'committed_at', :year, :number) ORDER BY committed_at DESC, year DESC, number DESC LIMIT 51;
\echo == autos of an offender, of a plate, in a status, of an infraction, in a month
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number FROM autos WHERE jurisdiction = :'j' AND offender = :'offender' ORDER BY committed_at DESC, year DESC, number DESC LIMIT 51;
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number FROM autos WHERE jurisdiction = :'j' AND plate = :'plate' AND offender || '' = :'offender' ORDER BY committed_at DESC, year DESC, number DESC LIMIT 51;
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number FROM autos WHERE jurisdiction = :'j' AND status = 'final' ORDER BY committed_at DESC, year DESC, number DESC LIMIT 51;
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number FROM autos WHERE jurisdiction = :'j' AND infraction = '51-I-b' ORDER BY committed_at DESC, year DESC, number DESC LIMIT 51;
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number FROM autos WHERE jurisdiction = :'j' AND committed_at >= '2026-02-01' AND committed_at < '2026-03-01' ORDER BY committed_at DESC, year DESC, number DESC LIMIT 51;
\echo == audit log, a later page; by subject; scoped to two jurisdictions
EXPLAIN (ANALYZE, TIMING OFF) SELECT seq FROM audit_log WHERE (at, seq) > (:'at', :seq) ORDER BY at, seq LIMIT 51;
EXPLAIN (ANALYZE, TIMING OFF) SELECT seq FROM audit_log WHERE subject = 'auto:2026:' || :number AND actor || '' = 'fiscal' ORDER BY at, seq LIMIT 51;
EXPLAIN (ANALYZE, TIMING OFF) SELECT seq, at FROM (SELECT seq, at FROM audit_log WHERE jurisdiction = 'amapa' ORDER BY at, seq LIMIT 51) AS range0 UNION ALL SELECT seq, at FROM (SELECT seq, at FROM audit_log WHERE jurisdiction = 'cangucu' ORDER BY at, seq LIMIT 51) AS range1 ORDER BY at, seq LIMIT 51;
\echo == agenda: autos to notify, overdue debts
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number FROM autos WHERE jurisdiction = :'j' AND status = 'issued' AND notify_by IS NOT NULL AND notify_by <= '2027-12-31' ORDER BY notify_by, year, number LIMIT 51;
EXPLAIN (ANALYZE, TIMING OFF) SELECT year, number, seq FROM debts WHERE jurisdiction = :'j' AND installments IS NULL AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.jurisdiction = debts.jurisdiction AND p.year = debts.year AND p.number = debts.number AND p.seq = debts.seq) AND due_on <= '2027-12-31' ORDER BY due_on, year, number, seq LIMIT 51;
\echo == documents of a holder
EXPLAIN (ANALYZE, TIMING OFF) SELECT code FROM documents WHERE jurisdiction = :'j' AND holder = :'offender' ORDER BY issued_on DESC, code DESC LIMIT 51;
