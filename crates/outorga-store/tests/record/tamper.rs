//! Tampering, replayed as someone who can write to the database but does not
//! hold the audit key would do it, on both backends: each attack is found
//! and named, and undoing it makes the log verify again.
//!
//! The records are the demo's (every workflow: people, permits, drivers,
//! vehicles, inspections, documents, autos at every step, debts, payments),
//! so a write that forgot to describe a row it wrote fails the first check.

use crate::common::{admin, by, d, drop_schema, keys, on, open, pg_schema};
use outorga_core::engine::process::{Decision, Status, Step};
use outorga_store::{
    AuditKey, AuditKeys, AuditReport, AutoInput, Checkpoint, CheckpointCheck, DebtFilter,
    Jurisdiction, Means, PaymentInput, ProcessStep, Profile, Store, Window, sqlite_url,
};
use sha2::{Digest, Sha256};
use sqlx::Row;
use std::path::Path;

fn library() -> outorga_rulebook::Library {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    outorga_rulebook::load(&root).expect("rulebooks load")
}

async fn with_demo(url: &str) -> Store {
    let store = open(url).await;
    let library = library();
    let mut jurisdictions: Vec<Jurisdiction> = Vec::new();
    for rulebook in library.rulebooks() {
        let j = &rulebook.jurisdiction;
        match jurisdictions.iter_mut().find(|known| known.id == j.id) {
            Some(known) => known.rulebooks.push(rulebook.id.clone()),
            None => jurisdictions.push(Jurisdiction {
                id: j.id.clone(),
                name: j.name.clone(),
                state: j.state.clone(),
                rulebooks: vec![rulebook.id.clone()],
            }),
        }
    }
    store
        .sync_jurisdictions(&by(), &jurisdictions)
        .await
        .expect("sync");
    let rulebooks: Vec<_> = library.rulebooks().collect();
    let today = by().at.date();
    store
        .load_demo(&rulebooks, today, by().at)
        .await
        .expect("demo");
    fined(&store, &library).await;
    store
}

/// What the demo lacks: a fine made final (Teófilo Otoni, art. 96: no
/// appeal), split in two parcels, the first paid.
async fn fined(store: &Store, library: &outorga_rulebook::Library) {
    const TO: &str = "teofilo-otoni";
    const EDU: &str = "11144477735";
    let rb = library.get("teofilo-otoni/mototaxi").expect("rulebook");
    store
        .register(&by(), TO, EDU, "Edu Tavares")
        .await
        .expect("person");
    let profile = Profile {
        birth_date: Some(d(1980, 5, 1)),
        resident_since: Some(d(2010, 1, 1)),
        final_conviction: Some(false),
        ..Profile::default()
    };
    store
        .update_profile(&by(), TO, EDU, &profile)
        .await
        .expect("profile");
    let input = AutoInput {
        infraction: "72301".into(),
        offender: EDU.into(),
        permit: None,
        plate: None,
        committed_at: d(2029, 10, 1).and_hms_opt(14, 30, 0).expect("time"),
        place: "Praça Central".into(),
        description: "Constatado pela fiscalização".into(),
    };
    let auto = store
        .issue_auto(&on(d(2029, 10, 1)), rb, TO, &input)
        .await
        .expect("auto");
    let key = (auto.year, auto.number);
    let notified = store
        .process_auto(
            &on(d(2029, 10, 2)),
            rb,
            TO,
            key,
            &ProcessStep::new(Step::Notify { cure_days: None }),
            d(2029, 10, 2),
        )
        .await
        .expect("notify");
    let judged_on = notified
        .defense_by
        .expect("deadline")
        .succ_opt()
        .expect("day");
    let judge = ProcessStep::with_text(
        Step::Judge(Decision {
            upheld: true,
            ..Decision::default()
        }),
        "mantido",
    );
    store
        .process_auto(&on(judged_on), rb, TO, key, &judge, judged_on)
        .await
        .expect("judged");
    let noticed = store
        .process_auto(
            &on(judged_on),
            rb,
            TO,
            key,
            &ProcessStep::new(Step::NotifyDecision),
            judged_on,
        )
        .await
        .expect("decision notified");
    let final_on = noticed
        .appeal_by
        .expect("appeal limit")
        .succ_opt()
        .expect("day");
    let last = store
        .process_auto(
            &on(final_on),
            rb,
            TO,
            key,
            &ProcessStep::new(Step::Finalize),
            final_on,
        )
        .await
        .expect("final");
    assert_eq!(last.status, Status::Final);
    let of_edu = DebtFilter {
        debtor: Some(EDU.into()),
        ..DebtFilter::default()
    };
    let debt = store
        .debts(TO, &of_edu, Window::first(10))
        .await
        .expect("debts")
        .items
        .remove(0);
    let debt_key = (debt.year, debt.number, debt.seq);
    store
        .split_debt(&on(final_on), rb, TO, debt_key, (2, final_on))
        .await
        .expect("two parcels");
    store
        .pay_debt(&on(final_on), rb, TO, debt_key, &at_counter(final_on, None))
        .await
        .expect("first parcel");
}

async fn report(store: &Store) -> AuditReport {
    store.verify_audit().await.expect("verify")
}

async fn intact(store: &Store, after: &str) {
    let report = report(store).await;
    assert!(report.intact(), "{after}: {:#?}", report.problems);
}

/// The first problem's text (entry, record and reason).
async fn first_problem(store: &Store) -> String {
    let report = report(store).await;
    let p = report.problems.first().expect("a problem");
    format!("{:?} {:?} {}", p.seq, p.record, p.reason)
}

async fn one(url: &str, sql: &str) -> String {
    let rows = admin(url, sql.to_string()).await;
    let row = rows.first().expect("a row");
    row.try_get::<String, _>(0)
        .or_else(|_| row.try_get::<i64, _>(0).map(|n| n.to_string()))
        .expect("a value")
}

/// The hash the log's formula gives an entry (the formula is public; the
/// key is what the attacker lacks).
fn rehash(fields: &[String; 10]) -> String {
    let [
        seq,
        at,
        actor,
        action,
        jurisdiction,
        subject,
        detail,
        reason,
        prev,
        images,
    ] = fields;
    let jurisdiction = if jurisdiction.is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::json!(jurisdiction)
    };
    let mut preimage = serde_json::json!([
        seq.parse::<i64>().expect("seq"),
        at,
        actor,
        action,
        jurisdiction,
        subject,
        detail,
        reason,
        prev
    ]);
    if images != "[]" {
        preimage
            .as_array_mut()
            .expect("array")
            .push(serde_json::json!(images));
    }
    format!("{:x}", Sha256::digest(preimage.to_string().as_bytes()))
}

/// Recomputes the chain from entry `from` to the end, and the head, as an
/// attacker who edited an entry would.
async fn recompute_chain(url: &str, from: i64) {
    let mut prev = one(
        url,
        &format!("SELECT prev_hash FROM audit_log WHERE seq = {from}"),
    )
    .await;
    let rows = admin(
        url,
        format!(
            "SELECT seq, at, actor, action, COALESCE(jurisdiction, '') AS j, subject, detail, \
             reason, images FROM audit_log WHERE seq >= {from} ORDER BY seq"
        ),
    )
    .await;
    let mut last = from;
    for row in &rows {
        let seq: i64 = row.try_get("seq").expect("seq");
        let text = |c: &str| row.try_get::<String, _>(c).expect(c);
        let fields = [
            seq.to_string(),
            text("at"),
            text("actor"),
            text("action"),
            text("j"),
            text("subject"),
            text("detail"),
            text("reason"),
            prev.clone(),
            text("images"),
        ];
        let hash = rehash(&fields);
        admin(
            url,
            format!("UPDATE audit_log SET prev_hash = '{prev}', hash = '{hash}' WHERE seq = {seq}"),
        )
        .await;
        prev = hash;
        last = seq;
    }
    admin(
        url,
        format!("UPDATE audit_head SET seq = {last}, hash = '{prev}' WHERE id = 1"),
    )
    .await;
}

async fn tampering(url: &str) {
    let store = with_demo(url).await;
    let first = report(&store).await;
    assert!(first.intact(), "the demo: {:#?}", first.problems);
    assert!(first.rows > 200, "{} rows checked", first.rows);
    for j in ["santa-maria-de-jetiba", "cangucu", "amapa", "teofilo-otoni"] {
        assert!(
            first
                .by_jurisdiction
                .get(j)
                .is_some_and(|(e, r)| *e > 0 && *r > 0),
            "{j}: {:?}",
            first.by_jurisdiction
        );
    }
    let checkpoint = store.checkpoint(&by()).await.expect("checkpoint");
    let head = checkpoint.seq;
    assert_eq!(
        store.check_checkpoint(&checkpoint).await.expect("check"),
        CheckpointCheck::Holds
    );

    // 1. An entry edited and the chain recomputed: its seal gives it away.
    let seq = head / 2;
    let reason = one(
        url,
        &format!("SELECT reason FROM audit_log WHERE seq = {seq}"),
    )
    .await;
    let hash = one(
        url,
        &format!("SELECT hash FROM audit_log WHERE seq = {seq}"),
    )
    .await;
    admin(
        url,
        format!("UPDATE audit_log SET reason = 'apagado por engano' WHERE seq = {seq}"),
    )
    .await;
    recompute_chain(url, seq).await;
    let found = report(&store).await;
    assert_eq!(found.problems[0].seq, Some(seq), "{:#?}", found.problems);
    assert!(
        found.problems[0].reason.contains("HMAC"),
        "{:?}",
        found.problems[0]
    );
    assert!(matches!(
        store.check_checkpoint(&checkpoint).await.expect("check"),
        CheckpointCheck::Rewritten { .. }
    ));
    admin(
        url,
        format!("UPDATE audit_log SET reason = '{reason}' WHERE seq = {seq}"),
    )
    .await;
    recompute_chain(url, seq).await;
    assert_eq!(
        one(
            url,
            &format!("SELECT hash FROM audit_log WHERE seq = {seq}")
        )
        .await,
        hash
    );
    intact(&store, "the edit undone").await;

    // 2. A forged entry appended, with a chain that links: no seal.
    let prev = one(url, "SELECT hash FROM audit_head WHERE id = 1").await;
    let forged = head + 1;
    let fields = [
        forged.to_string(),
        "2030-01-02T10:00:00.000000Z".into(),
        "admin".into(),
        "debt.payment".into(),
        "cangucu".into(),
        "debt:2026:1:1".into(),
        "{}".into(),
        "pagamento".into(),
        prev.clone(),
        "[]".into(),
    ];
    let hash = rehash(&fields);
    admin(
        url,
        format!(
            "INSERT INTO audit_log (seq, at, actor, action, jurisdiction, subject, detail, reason, \
             prev_hash, images, hash, mac) VALUES ({forged}, '{}', 'admin', 'debt.payment', \
             'cangucu', 'debt:2026:1:1', '{{}}', 'pagamento', '{prev}', '[]', '{hash}', '{}')",
            fields[1],
            "ab".repeat(32)
        ),
    )
    .await;
    admin(
        url,
        format!("UPDATE audit_head SET seq = {forged}, hash = '{hash}' WHERE id = 1"),
    )
    .await;
    let found = report(&store).await;
    assert_eq!(found.problems[0].seq, Some(forged), "{:#?}", found.problems);
    assert!(
        found.problems.iter().any(|p| p.reason.contains("cabeça")),
        "the head's seal: {:#?}",
        found.problems
    );
    admin(url, format!("DELETE FROM audit_log WHERE seq = {forged}")).await;
    admin(
        url,
        format!("UPDATE audit_head SET seq = {head}, hash = '{prev}' WHERE id = 1"),
    )
    .await;
    intact(&store, "the forged entry removed").await;

    // 3. A debt's amount edited: the debt is named with what changed.
    let first_debt = "FROM debts ORDER BY jurisdiction, year, number, seq LIMIT 1";
    let at = format!(
        "jurisdiction = '{}' AND year = {} AND number = {} AND seq = {}",
        one(url, &format!("SELECT jurisdiction {first_debt}")).await,
        one(url, &format!("SELECT year {first_debt}")).await,
        one(url, &format!("SELECT number {first_debt}")).await,
        one(url, &format!("SELECT seq {first_debt}")).await,
    );
    let quantity = one(url, &format!("SELECT quantity FROM debts WHERE {at}")).await;
    admin(url, format!("UPDATE debts SET quantity = '1' WHERE {at}")).await;
    let problem = first_problem(&store).await;
    assert!(problem.contains("debts"), "{problem}");
    assert!(
        problem.contains(&format!(
            "quantity: registrado \"{quantity}\", no banco \"1\""
        )),
        "{problem}"
    );
    admin(
        url,
        format!("UPDATE debts SET quantity = '{quantity}' WHERE {at}"),
    )
    .await;
    intact(&store, "the amount put back").await;

    // 4. An auto's offender and proposal edited.
    let first_auto = "FROM autos WHERE jurisdiction = 'cangucu' ORDER BY year, number LIMIT 1";
    let (year, number) = (
        one(url, &format!("SELECT year {first_auto}")).await,
        one(url, &format!("SELECT number {first_auto}")).await,
    );
    let at = format!("jurisdiction = 'cangucu' AND year = {year} AND number = {number}");
    let (offender, proposal) = (
        one(url, &format!("SELECT offender FROM autos WHERE {at}")).await,
        one(url, &format!("SELECT proposal FROM autos WHERE {at}")).await,
    );
    let other = one(
        url,
        &format!("SELECT document FROM people WHERE jurisdiction = 'cangucu' AND document <> '{offender}' LIMIT 1"),
    )
    .await;
    admin(
        url,
        format!("UPDATE autos SET offender = '{other}', proposal = '{{}}' WHERE {at}"),
    )
    .await;
    let found = report(&store).await;
    let named = &found.problems[0];
    assert_eq!(
        named.record.as_deref(),
        Some(format!("autos [\"cangucu\",\"{year}\",\"{number}\"]").as_str()),
        "{named:?}"
    );
    assert_eq!(named.jurisdiction.as_deref(), Some("cangucu"));
    assert!(
        named.reason.contains("offender") && named.reason.contains("proposal"),
        "{named:?}"
    );
    admin(
        url,
        format!(
            "UPDATE autos SET offender = '{offender}', proposal = '{}' WHERE {at}",
            proposal.replace('\'', "''")
        ),
    )
    .await;
    intact(&store, "the auto put back").await;

    // 5. A row inserted outside outorga.
    admin(
        url,
        "INSERT INTO people (jurisdiction, document, kind, name) VALUES ('cangucu', '52998224725', 'person', 'Fantasma')".into(),
    )
    .await;
    let problem = first_problem(&store).await;
    assert!(
        problem.contains("people") && problem.contains("por fora"),
        "{problem}"
    );
    admin(
        url,
        "DELETE FROM people WHERE document = '52998224725'".into(),
    )
    .await;
    intact(&store, "the row removed").await;

    // 6. The index of row images edited so that an older image looks like
    //    the latest (what a row rolled back would need): the index no longer
    //    agrees with the entry, and the row no longer with its latest image.
    let key = format!("[\"cangucu\",\"{year}\",\"{number}\"]");
    let newest = one(
        url,
        &format!("SELECT seq FROM audit_rows WHERE tbl = 'autos' AND key = '{key}' ORDER BY seq DESC LIMIT 1"),
    )
    .await;
    let digest = one(
        url,
        &format!(
            "SELECT digest FROM audit_rows WHERE tbl = 'autos' AND key = '{key}' AND seq = {newest}"
        ),
    )
    .await;
    admin(
        url,
        format!("DELETE FROM audit_rows WHERE tbl = 'autos' AND key = '{key}' AND seq = {newest}"),
    )
    .await;
    let found = report(&store).await;
    let newest: i64 = newest.parse().expect("seq");
    assert!(
        found
            .problems
            .iter()
            .any(|p| p.seq == Some(newest) && p.reason.contains("audit_rows")),
        "{:#?}",
        found.problems
    );
    admin(
        url,
        format!("INSERT INTO audit_rows (tbl, key, seq, digest) VALUES ('autos', '{key}', {newest}, '{digest}')"),
    )
    .await;
    intact(&store, "the index put back").await;

    // 7. Another key cannot open the database.
    let other = AuditKeys::new(AuditKey::from_hex(&"77".repeat(32)).expect("key"));
    let refused = Store::open(url, other).await.expect_err("another key");
    assert!(
        refused.to_string().contains("foi selado com a chave"),
        "{refused}"
    );

    // 8. The last 100 entries deleted and the head moved back: the head's
    //    seal tells, and so does the checkpoint.
    let back = head - 100;
    let back_hash = one(
        url,
        &format!("SELECT hash FROM audit_log WHERE seq = {back}"),
    )
    .await;
    admin(url, format!("DELETE FROM audit_rows WHERE seq > {back}")).await;
    admin(url, format!("DELETE FROM audit_log WHERE seq > {back}")).await;
    admin(
        url,
        format!("UPDATE audit_head SET seq = {back}, hash = '{back_hash}' WHERE id = 1"),
    )
    .await;
    let found = report(&store).await;
    assert!(
        found.problems.iter().any(|p| p.reason.contains("cabeça")),
        "{:#?}",
        found.problems
    );
    assert_eq!(
        store.check_checkpoint(&checkpoint).await.expect("check"),
        CheckpointCheck::Removed { last: back }
    );
    let forged_checkpoint = Checkpoint {
        seq: back,
        hash: back_hash,
        ..checkpoint.clone()
    };
    assert_eq!(
        store
            .check_checkpoint(&forged_checkpoint)
            .await
            .expect("check"),
        CheckpointCheck::BadSignature
    );
}

#[tokio::test]
async fn tampering_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = sqlite_url(dir.path()).expect("url");
    tampering(&url).await;
}

#[tokio::test]
async fn tampering_on_postgresql() {
    let (schema, url) = pg_schema("tamper").await;
    tampering(&url).await;
    drop_schema(&schema).await;
}

/// A log written before the key existed is sealed when first opened with
/// one (its chain checked first), and the tables described once; a log
/// whose chain is broken is not sealed.
async fn sealing(url: &str) {
    let store = with_demo(url).await;
    drop(store);
    admin(url, "UPDATE audit_log SET mac = ''".into()).await;
    admin(url, "UPDATE audit_head SET mac = '', key_id = ''".into()).await;
    let store = Store::open(url, keys()).await.expect("open");
    // Never sealed on its own: clearing the seal is what an attacker would
    // do to have the server seal their edits.
    let refused = store.seal(&by()).await.expect_err("not automatic");
    assert!(
        refused.to_string().contains("outorga audit seal"),
        "{refused}"
    );
    let written = store.register(&by(), "cangucu", "52998224725", "X").await;
    assert!(written.is_err(), "no write on an unsealed log");
    let sealed = store.seal_earlier_log(&by()).await.expect("seal");
    assert!(sealed.sealed > 100, "{sealed:?}");
    intact(&store, "sealed").await;
    assert_eq!(
        store.seal(&by()).await.expect("again"),
        Default::default(),
        "nothing left to do"
    );

    // A migration that adds a column: rows are described again, except one
    // edited outside outorga before it, which stays reported.
    admin(
        url,
        "UPDATE vehicles SET colour = 'Roxo' WHERE plate = (SELECT MIN(plate) FROM vehicles)"
            .into(),
    )
    .await;
    admin(
        url,
        "ALTER TABLE vehicles ADD COLUMN note TEXT NOT NULL DEFAULT ''".into(),
    )
    .await;
    let store = Store::open(url, keys()).await.expect("open");
    let described = store.seal(&by()).await.expect("seal");
    assert_eq!(described.tables, ["vehicles"], "{described:?}");
    let found = report(&store).await;
    assert_eq!(found.problems.len(), 1, "{:#?}", found.problems);
    assert!(
        found.problems[0]
            .record
            .as_deref()
            .is_some_and(|r| r.starts_with("vehicles"))
    );

    // Rotation: sealed again with a new key, the old one kept for the
    // checkpoints it signed.
    admin(url, "ALTER TABLE vehicles DROP COLUMN note".into()).await;
    let store = Store::open(url, keys()).await.expect("open");
    let checkpoint = store.checkpoint(&by()).await.expect("checkpoint");
    let new = keys().rotated(AuditKey::from_hex(&"99".repeat(32)).expect("key"));
    let entries = store.rotate_audit_key(&by(), &new).await.expect("rotate");
    assert!(entries > 100);
    assert!(
        Store::open(url, keys()).await.is_err(),
        "the old key is refused"
    );
    let store = Store::open(url, new).await.expect("the new key");
    assert_eq!(
        store.check_checkpoint(&checkpoint).await.expect("check"),
        CheckpointCheck::Holds
    );

    // A record edited, and the log's record of the tables' columns removed
    // so the table looks new: the chain breaks, and its rows are compared,
    // not described again.
    admin(
        url,
        "UPDATE vehicles SET colour = 'Verde' WHERE plate = (SELECT MAX(plate) FROM vehicles)"
            .into(),
    )
    .await;
    admin(
        url,
        "UPDATE audit_log SET detail = '{}' WHERE action = 'audit.schema'".into(),
    )
    .await;
    let again = Store::open(url, new_keys()).await.expect("open");
    again.seal(&by()).await.expect("seal");
    let found = report(&again).await;
    assert!(
        found
            .problems
            .iter()
            .any(|p| p.reason.contains("colour: registrado")
                && p.reason.contains("no banco \"Verde\"")),
        "{:#?}",
        found.problems
    );
    drop((store, again));

    // A broken chain is not sealed, even when asked.
    admin(
        url,
        "UPDATE audit_log SET mac = '', reason = 'x' WHERE seq = 5".into(),
    )
    .await;
    admin(url, "UPDATE audit_head SET key_id = ''".into()).await;
    let store = Store::open(url, keys()).await.expect("open");
    let refused = store.seal_earlier_log(&by()).await.expect_err("broken");
    assert!(
        refused.to_string().contains("está quebrado na entrada"),
        "{refused}"
    );

    // The whole log wiped and the head reset: not a new database.
    for sql in ["DELETE FROM audit_rows", "DELETE FROM audit_log"] {
        admin(url, sql.into()).await;
    }
    admin(
        url,
        format!(
            "UPDATE audit_head SET seq = 0, hash = '{}', mac = '', key_id = ''",
            "0".repeat(64)
        ),
    )
    .await;
    let wiped = Store::open(url, keys()).await.expect("open");
    for refused in [
        wiped.seal(&by()).await.expect_err("wiped"),
        wiped.seal_earlier_log(&by()).await.expect_err("wiped"),
    ] {
        assert!(
            refused
                .to_string()
                .contains("o registro de auditoria está vazio"),
            "{refused}"
        );
    }
}

fn new_keys() -> AuditKeys {
    keys().rotated(AuditKey::from_hex(&"99".repeat(32)).expect("key"))
}

#[tokio::test]
async fn sealing_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = sqlite_url(dir.path()).expect("url");
    sealing(&url).await;
}

#[tokio::test]
async fn sealing_on_postgresql() {
    let (schema, url) = pg_schema("seal").await;
    sealing(&url).await;
    drop_schema(&schema).await;
}

/// A payment at the counter on `on` of `cents` (none: what is due).
fn at_counter(on: chrono::NaiveDate, cents: Option<i64>) -> PaymentInput {
    PaymentInput {
        on,
        means: Means::Caixa,
        cents,
        receipt: None,
    }
}
