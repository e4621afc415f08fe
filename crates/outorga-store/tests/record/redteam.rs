//! Red team: attacks on the audit log by someone who can write to the
//! database (SQL, DDL) but does not hold the audit key, on both backends.
//!
//! Each test replays one attack and asserts what a sound log would do
//! (verification, or the seal at open, notices). A test that fails here is
//! a finding: the attack goes unnoticed. See the red-team report.

use crate::common::{admin, by, drop_schema, keys, open, pg_schema};
use outorga_store::{Change, CheckpointCheck, Jurisdiction, Role, Scope, Store};
use rust_decimal::Decimal;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use sqlx::any::AnyTypeInfoKind;
use sqlx::{Row, ValueRef as _};
use std::path::Path;

const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";
const PASSWORD: &str = "cavalo-grampo-bateria-certo";

/// Runs `$case(url)` on SQLite (`$case::sqlite`) and PostgreSQL
/// (`$case::postgres`).
macro_rules! on_both_backends {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            #[tokio::test]
            async fn sqlite() {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = outorga_store::sqlite_url(dir.path()).expect("url");
                super::$case(&url, false).await;
            }

            #[tokio::test]
            async fn postgres() {
                let (schema, url) = super::pg_schema(stringify!($case)).await;
                super::$case(&url, true).await;
                super::drop_schema(&schema).await;
            }
        }
    )*};
}

fn library() -> outorga_rulebook::Library {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    outorga_rulebook::load(&root).expect("rulebooks load")
}

/// A small record: the jurisdictions, an unlimited administrator `root`, a
/// clerk `ana` and a person in Canguçu.
async fn small_record(url: &str) -> Store {
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
    store
        .create_user(&by(), "root", Role::Admin, PASSWORD, &Scope::All)
        .await
        .expect("root");
    store
        .create_user(
            &by(),
            "ana",
            Role::Clerk,
            PASSWORD,
            &Scope::Only(vec!["cangucu".into()]),
        )
        .await
        .expect("ana");
    store
        .register(&by(), "cangucu", "52998224725", "Maria Silva")
        .await
        .expect("person");
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "the record: {:#?}", report.problems);
    store
}

async fn one(url: &str, sql: &str) -> String {
    let rows = admin(url, sql.to_string()).await;
    let row = rows.first().expect("a row");
    row.try_get::<String, _>(0)
        .or_else(|_| row.try_get::<i64, _>(0).map(|n| n.to_string()))
        .expect("a value")
}

fn sha256(text: &str) -> String {
    format!("{:x}", Sha256::digest(text.as_bytes()))
}

/// A row as the log's images describe it (every column in the table's
/// order; secret columns as `sha256:` of their text), computed from the
/// public formula: what the attacker needs to vouch for a row.
async fn image(url: &str, table: &str, condition: &str, secret: &[&str]) -> Map<String, Value> {
    let rows = admin(url, format!("SELECT * FROM {table} WHERE {condition}")).await;
    let row = rows.first().expect("the row");
    let mut image = Map::new();
    for (i, column) in row.columns().iter().enumerate() {
        let name = sqlx::Column::name(column).to_string();
        let raw = row.try_get_raw(i).expect("raw");
        let value = if raw.is_null() {
            Value::Null
        } else {
            match raw.type_info().kind() {
                AnyTypeInfoKind::SmallInt | AnyTypeInfoKind::Integer | AnyTypeInfoKind::BigInt => {
                    Value::from(row.try_get::<i64, _>(i).expect("int"))
                }
                AnyTypeInfoKind::Bool => Value::Bool(row.try_get(i).expect("bool")),
                AnyTypeInfoKind::Real | AnyTypeInfoKind::Double => {
                    Value::from(row.try_get::<f64, _>(i).expect("real"))
                }
                _ => Value::String(row.try_get(i).expect("text")),
            }
        };
        let value = match value {
            Value::String(text) if secret.contains(&name.as_str()) => {
                Value::String(format!("sha256:{}", sha256(&text)))
            }
            other => other,
        };
        image.insert(name, value);
    }
    image
}

fn digest(image: &Map<String, Value>) -> String {
    sha256(&Value::Object(image.clone()).to_string())
}

/// The hash of an entry, by the log's public formula.
#[allow(clippy::too_many_arguments)]
fn entry_hash(
    seq: i64,
    at: &str,
    actor: &str,
    action: &str,
    jurisdiction: Option<&str>,
    subject: &str,
    detail: &str,
    reason: &str,
    prev: &str,
    images: &str,
) -> String {
    let mut preimage = serde_json::json!([
        seq,
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
            .push(Value::String(images.to_string()));
    }
    sha256(&preimage.to_string())
}

/// Appends, without the key, an entry describing `rows` (table, key parts,
/// image) and moves the head to it; the MAC is junk. Returns its sequence.
async fn forge_entry(
    url: &str,
    action: &str,
    rows: &[(&str, Vec<String>, Map<String, Value>)],
) -> i64 {
    let seq: i64 = one(url, "SELECT seq FROM audit_head WHERE id = 1")
        .await
        .parse()
        .expect("seq");
    let prev = one(url, "SELECT hash FROM audit_head WHERE id = 1").await;
    let seq = seq + 1;
    let images = Value::Array(
        rows.iter()
            .map(|(table, key, row)| serde_json::json!({ "table": table, "key": key, "row": row }))
            .collect(),
    )
    .to_string();
    let at = "2030-01-02T10:00:00.000000Z";
    let hash = entry_hash(
        seq, at, "root", action, None, "user:ana", "{}", "ajuste", &prev, &images,
    );
    admin(
        url,
        format!(
            "INSERT INTO audit_log (seq, at, actor, action, jurisdiction, subject, detail, reason, \
             prev_hash, images, hash, mac) VALUES ({seq}, '{at}', 'root', '{action}', NULL, \
             'user:ana', '{{}}', 'ajuste', '{prev}', '{}', '{hash}', '{}')",
            images.replace('\'', "''"),
            "ab".repeat(32)
        ),
    )
    .await;
    for (table, key, row) in rows {
        admin(
            url,
            format!(
                "INSERT INTO audit_rows (tbl, key, seq, digest) VALUES ('{table}', '{}', {seq}, '{}')",
                serde_json::json!(key),
                digest(row)
            ),
        )
        .await;
    }
    admin(
        url,
        format!("UPDATE audit_head SET seq = {seq}, hash = '{hash}' WHERE id = 1"),
    )
    .await;
    seq
}

/// Reopens the store as every CLI command does (`open` seals) and
/// verifies: the problems found, or the reason sealing refused.
async fn reopen_and_verify(url: &str) -> Result<Vec<String>, String> {
    let store = Store::open(url, keys()).await.map_err(|e| e.to_string())?;
    store.seal(&by()).await.map_err(|e| e.to_string())?;
    let report = store.verify_audit().await.map_err(|e| e.to_string())?;
    Ok(report
        .problems
        .iter()
        .map(|p| format!("{:?} {:?} {}", p.seq, p.record, p.reason))
        .collect())
}

/// The attack is noticed: sealing refuses, or verification names a problem.
fn noticed(found: &Result<Vec<String>, String>) -> bool {
    match found {
        Err(_) => true,
        Ok(problems) => !problems.is_empty(),
    }
}

async fn role_of(url: &str, name: &str) -> Role {
    let store = Store::open(url, keys()).await.expect("open");
    store.user(name).await.expect("user").expect("active").role
}

/// R1. `audit_head.key_id` set to '' makes the next open seal the whole log
/// again without checking a single MAC: an entry forged without the key
/// (here: the clerk `ana` made an unlimited administrator) becomes
/// authentic, and a checkpoint issued before it still holds.
async fn blank_key_id_seals_a_forged_entry(url: &str, _pg: bool) {
    let store = small_record(url).await;
    let checkpoint = store.checkpoint(&by()).await.expect("checkpoint");
    drop(store);
    admin(
        url,
        "UPDATE users SET role = 'admin', jurisdictions = '*' WHERE name = 'ana'".into(),
    )
    .await;
    let row = image(url, "users", "name = 'ana'", &["password_hash"]).await;
    forge_entry(url, "user.create", &[("users", vec!["ana".into()], row)]).await;
    admin(url, "UPDATE audit_head SET key_id = ''".into()).await;

    let found = reopen_and_verify(url).await;
    let store = Store::open(url, keys()).await.expect("open");
    let since = store.check_checkpoint(&checkpoint).await.expect("check");
    assert!(
        noticed(&found) || since != CheckpointCheck::Holds,
        "a forged entry was sealed with the real key (verify: {found:?}, --since: {since:?}); \
         ana is now {:?}",
        role_of(url, "ana").await
    );
}

/// R2. Emptying the log, its index and `audit_schema`, and putting the head
/// back at the genesis (seq 0 needs no MAC), makes the next open describe
/// every row anew as it is now: every edit made meanwhile is laundered.
async fn emptied_log_is_rebuilt_from_edited_rows(url: &str, _pg: bool) {
    drop(small_record(url).await);
    admin(
        url,
        "UPDATE users SET role = 'admin', jurisdictions = '*' WHERE name = 'ana'".into(),
    )
    .await;
    for sql in [
        "DELETE FROM audit_rows".to_string(),
        "DELETE FROM audit_log".to_string(),
        format!("UPDATE audit_head SET seq = 0, hash = '{GENESIS}', mac = '' WHERE id = 1"),
    ] {
        admin(url, sql).await;
    }
    let found = reopen_and_verify(url).await;
    assert!(
        noticed(&found),
        "the log was emptied and rebuilt at open; verify is clean and ana is {:?}",
        role_of(url, "ana").await
    );
}

/// R3. Erasing the log's record of a table's columns made the next open
/// describe all that table's rows as they are now (as a table the log never
/// described), so an edit made outside outorga is laundered.
async fn deleted_schema_row_launders_an_edit(url: &str, _pg: bool) {
    drop(small_record(url).await);
    admin(
        url,
        "UPDATE users SET role = 'admin', jurisdictions = '*' WHERE name = 'ana'".into(),
    )
    .await;
    let before = reopen_and_verify(url).await;
    assert!(noticed(&before), "the edit alone is found");
    admin(
        url,
        "UPDATE audit_log SET detail = '{}' WHERE action = 'audit.schema'".into(),
    )
    .await;
    let found = reopen_and_verify(url).await;
    assert!(
        noticed(&found),
        "after DELETE FROM audit_schema the edit is laundered; ana is {:?}",
        role_of(url, "ana").await
    );
}

/// R4. An `audit_rows` line numbered 0 (or below) is never compared with any
/// entry, yet it counts as the latest image of its key: a row inserted by
/// SQL with such a line passes. Here: an API token for `root`.
async fn index_line_numbered_zero_vouches_for_a_forged_row(url: &str, _pg: bool) {
    drop(small_record(url).await);
    let token = "otg_backdoor";
    admin(
        url,
        format!(
            "INSERT INTO api_tokens (user_name, label, hash, created_at) \
             VALUES ('root', 'integracao', '{}', '2030-01-02T09:00:00.000000Z')",
            sha256(token)
        ),
    )
    .await;
    let row = image(
        url,
        "api_tokens",
        "user_name = 'root' AND label = 'integracao'",
        &["hash"],
    )
    .await;
    admin(
        url,
        format!(
            "INSERT INTO audit_rows (tbl, key, seq, digest) VALUES ('api_tokens', \
             '[\"root\",\"integracao\"]', 0, '{}')",
            digest(&row)
        ),
    )
    .await;
    let store = Store::open(url, keys()).await.expect("open");
    let who = store
        .authenticate(token, by().at)
        .await
        .expect("authenticate");
    let found = reopen_and_verify(url).await;
    assert!(
        noticed(&found),
        "a token inserted by SQL passes verification and authenticates as {:?}",
        who.map(|u| u.name)
    );
}

/// R5. Entries numbered 0 or below are listed with the log
/// (`GET /api/audit`) but never verified.
async fn entries_below_one_are_listed_but_not_verified(url: &str, _pg: bool) {
    drop(small_record(url).await);
    admin(
        url,
        "INSERT INTO audit_log (seq, at, actor, action, jurisdiction, subject, detail, reason, \
         prev_hash, images, hash, mac) VALUES (-1, '2030-01-01T08:00:00.000000Z', 'root', \
         'debt.payment', 'cangucu', 'debt:2029:1:1', '{}', 'pago em dinheiro', 'x', '[]', 'x', 'x')"
            .into(),
    )
    .await;
    let store = Store::open(url, keys()).await.expect("open");
    let listed = store.audit_entries(None).await.expect("entries");
    assert_eq!(listed[0].seq, -1, "the forged entry is listed first");
    let found = reopen_and_verify(url).await;
    assert!(
        noticed(&found),
        "an entry numbered -1 is shown in the log and verification is clean"
    );
}

/// R6. A write captures the whole row as it stands, so an edit made by SQL
/// before the next legitimate write on that row is sealed by it: here `ana`
/// made administrator by SQL, then her password changed through outorga.
async fn the_next_write_launders_an_edit(url: &str, _pg: bool) {
    drop(small_record(url).await);
    admin(
        url,
        "UPDATE users SET role = 'admin', jurisdictions = '*' WHERE name = 'ana'".into(),
    )
    .await;
    let before = reopen_and_verify(url).await;
    assert!(noticed(&before), "the edit alone is found");
    let store = Store::open(url, keys()).await.expect("open");
    // The write is refused (the row is not what the log recorded), or made.
    let refused = store
        .set_password(
            &Change { by: "root", ..by() },
            "ana",
            "outra-frase-bem-comprida-7",
        )
        .await
        .is_err();
    let found = reopen_and_verify(url).await;
    assert!(
        refused || noticed(&found) || role_of(url, "ana").await != Role::Admin,
        "the password change sealed ana's role edited by SQL: verify is clean, ana is admin"
    );
}

/// R7. `sessions` is not audited: a session row inserted by SQL signs in as
/// any user (here the unlimited administrator), and everything done with it
/// is then sealed as that user's.
async fn a_forged_session_goes_unnoticed(url: &str, _pg: bool) {
    drop(small_record(url).await);
    let token = "otg_sessao_forjada";
    admin(
        url,
        format!(
            "INSERT INTO sessions (hash, user_name, created_at, expires_at) VALUES ('{}', 'root', \
             '2030-01-02T09:00:00.000000Z', '2099-01-01T00:00:00.000000Z')",
            sha256(token)
        ),
    )
    .await;
    let store = Store::open(url, keys()).await.expect("open");
    // Refused outright (the row is no session the log recorded), or let in.
    let who = store
        .authenticate(token, by().at)
        .await
        .ok()
        .flatten()
        .map(|u| u.name);
    let found = reopen_and_verify(url).await;
    assert!(
        who.is_none() || noticed(&found),
        "a session inserted by SQL authenticates as {who:?} and verification is clean"
    );
}

/// R8. Verification checks the tables the catalog lists now, not the tables
/// the log describes: an audited table dropped and replaced by a view of
/// made-up rows (here Canguçu's population, which sets the permit cap) is
/// read by outorga and never checked.
async fn a_table_replaced_by_a_view_is_not_checked(url: &str, _pg: bool) {
    let store = small_record(url).await;
    let library = library();
    let rulebook = library.get("cangucu/taxi").expect("rulebook");
    store
        .set_parameter(
            &by(),
            rulebook,
            "cangucu",
            ("population", Decimal::from(50_000)),
            &crate::common::decree(rulebook),
        )
        .await
        .expect("population");
    drop(store);
    admin(url, "DROP TABLE jurisdiction_parameters".into()).await;
    admin(
        url,
        "CREATE VIEW jurisdiction_parameters AS SELECT 'cangucu' AS jurisdiction, \
         'population' AS name, '9000000' AS value"
            .into(),
    )
    .await;
    let read = one(
        url,
        "SELECT value FROM jurisdiction_parameters WHERE jurisdiction = 'cangucu'",
    )
    .await;
    assert_eq!(read, "9000000", "what the permit cap now reads");
    let found = reopen_and_verify(url).await;
    assert!(
        noticed(&found),
        "the population recorded as 50000 now reads 9000000 and verification is clean"
    );
}

/// R9. SQLite stores a blob in a TEXT key column: the keyset read of
/// verification then binds the blob's hex as text, and since every blob
/// sorts after every text the same chunk is read again forever
/// (`outorga audit verify` never ends). On PostgreSQL the bytes become
/// text on the way in, and verification ends naming the row (held).
async fn a_blob_key_stalls_verification(url: &str, pg: bool) {
    drop(small_record(url).await);
    let name = if pg {
        "decode('7a7a', 'hex')"
    } else {
        "X'7a7a'"
    };
    admin(
        url,
        format!(
            "INSERT INTO users (name, role, password_hash, jurisdictions, created_at) \
             VALUES ({name}, 'admin', 'x', '*', '2030-01-02')"
        ),
    )
    .await;
    let store = Store::open(url, keys()).await.expect("open");
    // Not a timing assertion: the read either ends or loops forever.
    let ended =
        tokio::time::timeout(std::time::Duration::from_secs(60), store.verify_audit()).await;
    let report = ended
        .expect("verification did not end in a minute (it reads the same chunk forever)")
        .expect("verify");
    assert!(!report.intact(), "the row inserted by SQL is named");
}

// R10 (a head read once put back over a cut tail) is consistent within the
// database: it is refused against what the installation saw of the log
// (`audit.seen` in the data folder), in crates/outorga-cli/tests/audit.rs.

/// R11. On SQLite a row whose key is a blob reads as the hex of its bytes,
/// the same as a text key of those digits: a copy of a company (CNPJ: 14
/// digits, valid hex) with its document stored as a blob matches the
/// company's image, and counts as a live row, so one row deleted from the
/// same table is no longer missed (`missing_rows` runs only when the counts
/// differ). PostgreSQL turns the bytes into other text (held).
async fn a_blob_twin_hides_a_deleted_row(url: &str, pg: bool) {
    let store = small_record(url).await;
    store
        .register(&by(), "amapa", "11222333000181", "Transportes Ltda")
        .await
        .expect("company");
    store
        .register(&by(), "teofilo-otoni", "11144477735", "Edu Tavares")
        .await
        .expect("person");
    drop(store);
    let bytes = if pg {
        "decode('11222333000181', 'hex')"
    } else {
        "X'11222333000181'"
    };
    admin(
        url,
        format!(
            "INSERT INTO people (jurisdiction, document, kind, name) SELECT jurisdiction, {bytes}, \
             kind, name FROM people WHERE document = '11222333000181'"
        ),
    )
    .await;
    admin(
        url,
        "DELETE FROM people WHERE document = '52998224725'".into(),
    )
    .await;
    let found = reopen_and_verify(url).await;
    assert!(
        noticed(&found),
        "Maria Silva deleted from the register, a blob twin added: verification is clean"
    );
}

on_both_backends!(
    blank_key_id_seals_a_forged_entry,
    emptied_log_is_rebuilt_from_edited_rows,
    deleted_schema_row_launders_an_edit,
    index_line_numbered_zero_vouches_for_a_forged_row,
    entries_below_one_are_listed_but_not_verified,
    the_next_write_launders_an_edit,
    a_forged_session_goes_unnoticed,
    a_table_replaced_by_a_view_is_not_checked,
    a_blob_key_stalls_verification,
    a_blob_twin_hides_a_deleted_row,
);
