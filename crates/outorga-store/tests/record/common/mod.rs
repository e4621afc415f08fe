//! Helpers shared by the store's tests: the acting clerk, and a PostgreSQL
//! schema per test (database `test`, trust auth; unreachable = failure).
#![allow(dead_code)]

use outorga_store::{AuditKey, AuditKeys, Change, Store};
use sqlx::any::AnyPoolOptions;
use std::time::{SystemTime, UNIX_EPOCH};

const PG: &str = "postgres://postgres@127.0.0.1:5432/test";

/// The clerk every change in these tests is made by, on a day after every
/// date the tests record (a record of a future day is refused).
/// The act that sets a parameter in a test: a decree in force from the
/// law's first day.
pub fn decree(rulebook: &outorga_core::model::Rulebook) -> outorga_store::ParameterAct {
    outorga_store::ParameterAct {
        from: rulebook.first_version().version.valid_from,
        act: "Decreto de teste".into(),
    }
}

pub fn by() -> Change<'static> {
    Change {
        by: "teste",
        at: chrono::NaiveDate::from_ymd_opt(2030, 1, 2)
            .and_then(|d| d.and_hms_opt(9, 0, 0))
            .expect("date"),
        why: "teste automatizado",
    }
}

pub fn pg_base() -> String {
    std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string())
}

/// Runs one statement on `url` outside the store (schemas, pragmas).
pub async fn admin(url: &str, sql: String) -> Vec<sqlx::any::AnyRow> {
    sqlx::any::install_default_drivers();
    let pool = AnyPoolOptions::new()
        .max_connections(1)
        .connect(url)
        .await
        .expect("database reachable");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .fetch_all(&pool)
        .await
        .expect("statement")
}

/// A fresh PostgreSQL schema for one test, and the URL that works in it.
pub async fn pg_schema(tag: &str) -> (String, String) {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("t_{tag}_{}_{nanos}", std::process::id());
    admin(&pg_base(), format!("CREATE SCHEMA {schema}")).await;
    let url = format!("{}?options=-c%20search_path%3D{schema}", pg_base());
    (schema, url)
}

pub async fn drop_schema(schema: &str) {
    admin(&pg_base(), format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// The audit key of these tests (fixed, so a database can be reopened).
pub fn keys() -> AuditKeys {
    AuditKeys::new(AuditKey::from_hex(&"5e".repeat(32)).expect("test key"))
}

/// The store at `url`, opened and sealed as the CLI does.
pub async fn open(url: &str) -> Store {
    let store = Store::open(url, keys()).await.expect("open");
    store.seal(&by()).await.expect("seal");
    store
}

/// A calendar day.
pub fn d(y: i32, m: u32, day: u32) -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(y, m, day).expect("date")
}

/// The clerk's change at 22:00 UTC (19:00 in Brasília) of `date`: after the day's events.
pub fn on(date: chrono::NaiveDate) -> Change<'static> {
    Change {
        at: date.and_hms_opt(22, 0, 0).expect("time"),
        ..by()
    }
}

/// The rulebook `id` of the repository's `rulebooks/`.
pub fn rulebook_named(id: &str) -> outorga_core::model::Rulebook {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let library = outorga_rulebook::load(&root).expect("rulebooks load");
    library.get(id).expect("rulebook").clone()
}

/// The rulebooks of the repository.
pub fn library() -> outorga_rulebook::Library {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    outorga_rulebook::load(&root).expect("rulebooks load")
}

/// A store with every jurisdiction and the demo's records.
pub async fn with_demo(url: &str, library: &outorga_rulebook::Library) -> outorga_store::Store {
    let store = open(url).await;
    let mut jurisdictions: Vec<outorga_store::Jurisdiction> = Vec::new();
    for rulebook in library.rulebooks() {
        let j = &rulebook.jurisdiction;
        match jurisdictions.iter_mut().find(|known| known.id == j.id) {
            Some(known) => known.rulebooks.push(rulebook.id.clone()),
            None => jurisdictions.push(outorga_store::Jurisdiction {
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
    store
        .load_demo(&rulebooks, by().at.date(), by().at)
        .await
        .expect("demo");
    store
}

/// A valid CPF from a seed (its two check digits computed).
pub fn cpf(seed: u32) -> String {
    let base: Vec<u32> = format!("{:09}", 123_456_000 + seed * 7)
        .chars()
        .filter_map(|c| c.to_digit(10))
        .collect();
    let digit = |digits: &[u32]| {
        let n = digits.len() as u32 + 1;
        let sum: u32 = digits
            .iter()
            .enumerate()
            .map(|(i, d)| d * (n - i as u32))
            .sum();
        let r = (sum * 10) % 11;
        if r == 10 { 0 } else { r }
    };
    let mut all = base.clone();
    all.push(digit(&all));
    all.push(digit(&all));
    all.iter()
        .map(|d| char::from_digit(*d, 10).unwrap_or('0'))
        .collect()
}
