//! The carriers' own data in the record: the tickets they sold (CSV or BP-e
//! XML) and their monthly statistics (the trips made), handed in as files.
//! A file is kept by its SHA-256 and imported once: the same file again adds
//! nothing, and a ticket or trip already recorded (from another file) is
//! counted as repeated, not added twice. Every row refused is reported with
//! the file's line, the field and the reason; what was accepted is written
//! in one transaction.
//!
//! The tickets and trips are the carrier's data as it handed them in: not
//! audited row by row (`audit::schema::NOT_AUDITED`); the file's entry, with
//! its SHA-256 and counts, is.

mod month;
mod rows;
pub mod statistics;
pub mod tickets;

pub use month::{FindingRow, LineMonth, MonthView};
pub use rows::Refusal;

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::{day, month_end, parse_month};
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::{Store, StoreError, Tx};
use chrono::{Datelike, NaiveDate, NaiveDateTime};
use outorga_core::engine::bus_compliance::missing_fields;
use outorga_core::model::Rulebook;
use sqlx::Row;
use std::collections::BTreeMap;

worded! {
    /// What a carrier's file holds.
    pub enum CarrierFileKind {
        TicketsCsv = "tickets_csv" => "bilhetes de passagem (CSV)",
        TicketsBpe = "tickets_bpe" => "bilhetes de passagem (BP-e, XML modelo 63)",
        StatisticsCsv = "statistics_csv" => "estatísticas mensais (CSV)",
    }
}

/// A file as recorded, with what it added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarrierFile {
    pub id: i64,
    pub carrier: String,
    pub kind: CarrierFileKind,
    /// The first day of the month it covers.
    pub month: NaiveDate,
    pub name: String,
    pub sha256: String,
    pub received_on: NaiveDate,
    /// Tickets or trips added.
    pub accepted: i64,
    /// Tickets or trips already recorded, not added again.
    pub repeated: i64,
    pub refused: Vec<Refusal>,
    /// The same file was imported before: this is that import, and nothing
    /// was added now.
    pub earlier: bool,
}

/// The largest file taken (a month of a large carrier's BP-e is about this).
pub const MAX_FILE_BYTES: usize = 256 * 1024 * 1024;

const COLUMNS: &str =
    "id, carrier, kind, month, name, sha256, received_on, accepted, repeated, refused";

const FILES: List = List {
    name: "carrier_files",
    table: "carrier_files",
    columns: COLUMNS,
    key: &[("id", KeyKind::Int)],
    descending: true,
};

fn file_of(row: &sqlx::any::AnyRow) -> Result<CarrierFile, StoreError> {
    let kind: String = row.try_get("kind")?;
    let month: String = row.try_get("month")?;
    let received: String = row.try_get("received_on")?;
    let refused: String = row.try_get("refused")?;
    Ok(CarrierFile {
        id: row.try_get("id")?,
        carrier: row.try_get("carrier")?,
        kind: CarrierFileKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("carrier file kind {kind}")))?,
        month: parse_month(&month)?,
        name: row.try_get("name")?,
        sha256: row.try_get("sha256")?,
        received_on: day(&received)?,
        accepted: row.try_get("accepted")?,
        repeated: row.try_get("repeated")?,
        refused: serde_json::from_str(&refused).map_err(|e| StoreError::Corrupt(e.to_string()))?,
        earlier: false,
    })
}

async fn earlier(
    tx: &mut Tx,
    jurisdiction: &str,
    sha256: &str,
) -> Result<Option<CarrierFile>, StoreError> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM carrier_files WHERE jurisdiction = $1 AND sha256 = $2"
    )))
    .bind(jurisdiction)
    .bind(sha256)
    .fetch_optional(&mut **tx)
    .await?
    .map(|row| file_of(&row).map(|f| CarrierFile { earlier: true, ..f }))
    .transpose()
}

/// Rows inserted a hundred at a time (one statement shape, prepared once;
/// SQLite takes at most 32 766 values in a statement): `ON CONFLICT DO
/// NOTHING`, so a row already there is counted as repeated. Returns how many
/// were added.
async fn insert_all(
    tx: &mut Tx,
    head: &str,
    conflict: &str,
    rows: &[Vec<Value>],
) -> Result<u64, StoreError> {
    let Some(width) = rows.first().map(Vec::len) else {
        return Ok(0);
    };
    let per_chunk = ROWS_PER_STATEMENT.min(30_000 / width).max(1);
    let mut added = 0;
    for chunk in rows.chunks(per_chunk) {
        let mut sql = String::with_capacity(chunk.len() * width * 5 + head.len() + 64);
        sql.push_str(head);
        sql.push_str(" VALUES ");
        for (r, _) in chunk.iter().enumerate() {
            if r > 0 {
                sql.push(',');
            }
            sql.push('(');
            for c in 0..width {
                if c > 0 {
                    sql.push(',');
                }
                sql.push('$');
                sql.push_str(&(r * width + c + 1).to_string());
            }
            sql.push(')');
        }
        sql.push_str(" ON CONFLICT ");
        sql.push_str(conflict);
        sql.push_str(" DO NOTHING");
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for row in chunk {
            for value in row {
                query = match value {
                    Value::Text(t) => query.bind(t.clone()),
                    Value::Int(i) => query.bind(*i),
                    Value::OptInt(i) => query.bind(*i),
                };
            }
        }
        added += query.execute(&mut **tx).await?.rows_affected();
    }
    Ok(added)
}

/// How many rows one insert statement carries.
const ROWS_PER_STATEMENT: usize = 100;

/// A value of a row to insert.
#[derive(Debug, Clone)]
enum Value {
    Text(String),
    Int(i64),
    OptInt(Option<i64>),
}

/// What a file's rows became: those to insert, and those refused.
struct Checked {
    rows: Vec<Vec<Value>>,
    refused: Vec<Refusal>,
}

/// The lines of `jurisdiction` with whether each is semi-urban.
async fn lines(tx: &mut Tx, jurisdiction: &str) -> Result<BTreeMap<String, bool>, StoreError> {
    let mut out = BTreeMap::new();
    for row in sqlx::query("SELECT code, semi_urban FROM lines WHERE jurisdiction = $1")
        .bind(jurisdiction)
        .fetch_all(&mut **tx)
        .await?
    {
        let semi: i32 = row.try_get("semi_urban")?;
        out.insert(row.try_get::<String, _>("code")?, semi == 1);
    }
    Ok(out)
}

/// Whether a row's moment is in the month, and its line is recorded.
fn placed(
    (line, departs): (&str, NaiveDateTime),
    month: NaiveDate,
    known: &BTreeMap<String, bool>,
) -> Result<bool, (&'static str, String)> {
    let semi = known.get(line).copied().ok_or_else(|| {
        (
            "linha",
            format!("a linha {line} não está cadastrada nesta jurisdição"),
        )
    })?;
    if departs.date() < month || departs.date() >= month_end(month) {
        return Err((
            "partida",
            format!(
                "a viagem de {} não é do mês {}",
                departs.format("%d/%m/%Y"),
                month.format("%m/%Y")
            ),
        ));
    }
    Ok(semi)
}

impl Store {
    /// Imports a carrier's file for `month` (its first day): tickets or
    /// statistics. The same file again returns the earlier import and adds
    /// nothing.
    #[allow(clippy::too_many_arguments)]
    pub async fn import_carrier_file(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        carrier: &str,
        (kind, month): (CarrierFileKind, NaiveDate),
        (name, bytes): (&str, &[u8]),
    ) -> Result<CarrierFile, StoreError> {
        let name = crate::text::required("nome", name, crate::TextKind::Line)?.to_string();
        if bytes.len() > MAX_FILE_BYTES {
            return Err(StoreError::Invalid {
                field: "arquivo",
                reason: format!(
                    "{name}: {} MB; o máximo é {} MB: envie um mês por arquivo",
                    bytes.len() / (1024 * 1024),
                    MAX_FILE_BYTES / (1024 * 1024)
                ),
            });
        }
        if month.day() != 1 {
            return Err(StoreError::Invalid {
                field: "mês",
                reason: format!("{month}: o mês começa no dia 1"),
            });
        }
        let rulebook = crate::under_law("mês", month, change, rulebook)?;
        let sha256 = crate::sha256_hex(bytes);
        {
            let mut tx = self.pool.begin().await?;
            if let Some(file) = earlier(&mut tx, jurisdiction, &sha256).await? {
                return Ok(file);
            }
        }
        enum Parsed {
            Tickets(Vec<tickets::TicketRow>),
            Trips(Vec<statistics::TripRow>),
        }
        let (parsed, mut refused) = match kind {
            CarrierFileKind::TicketsCsv => {
                let (t, r) = tickets::from_csv(&name, bytes)?;
                (Parsed::Tickets(t), r)
            }
            CarrierFileKind::TicketsBpe => {
                let (t, r) = tickets::from_bpe(&name, bytes)?;
                (Parsed::Tickets(t), r)
            }
            CarrierFileKind::StatisticsCsv => {
                let (t, r) = statistics::from_csv(&name, bytes)?;
                (Parsed::Trips(t), r)
            }
        };
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        if let Some(file) = earlier(&mut tx, jurisdiction, &sha256).await? {
            return Ok(file);
        }
        let registered =
            sqlx::query("SELECT 1 AS one FROM people WHERE jurisdiction = $1 AND document = $2")
                .bind(jurisdiction)
                .bind(carrier)
                .fetch_optional(&mut *tx)
                .await?;
        if registered.is_none() {
            return Err(StoreError::NotFound(format!(
                "a transportadora {carrier} não está cadastrada em {jurisdiction}"
            )));
        }
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let known = lines(&mut tx, jurisdiction).await?;
        let id: i64 = sqlx::query(
            "SELECT COALESCE(MAX(id), 0) AS id FROM carrier_files WHERE jurisdiction = $1",
        )
        .bind(jurisdiction)
        .fetch_one(&mut *tx)
        .await?
        .try_get::<i64, _>("id")?
            + 1;
        let checked = match parsed {
            Parsed::Tickets(rows) => {
                check_tickets(&ctx, (jurisdiction, carrier, id), month, &known, rows)
            }
            Parsed::Trips(rows) => {
                check_trips(&mut tx, (jurisdiction, carrier, id), month, &known, rows).await?
            }
        };
        refused.extend(checked.refused);
        refused.sort_by_key(|r| r.line);
        sqlx::query(
            "INSERT INTO carrier_files (jurisdiction, id, carrier, kind, month, name, sha256, \
             received_on, accepted, repeated, refused) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, '[]')",
        )
        .bind(jurisdiction)
        .bind(id)
        .bind(carrier)
        .bind(kind.name())
        .bind(month.format("%Y-%m").to_string())
        .bind(&name)
        .bind(&sha256)
        .bind(today.to_string())
        .execute(&mut *tx)
        .await?;
        let added =
            match kind {
                CarrierFileKind::TicketsCsv | CarrierFileKind::TicketsBpe => insert_all(
                    &mut tx,
                    "INSERT INTO carrier_tickets (jurisdiction, key, file, carrier, line, departs, \
                     origin, destination, seat, fare, discount, missing)",
                    "(jurisdiction, carrier, key)",
                    &checked.rows,
                )
                .await?,
                CarrierFileKind::StatisticsCsv => insert_all(
                    &mut tx,
                    "INSERT INTO carrier_trips (jurisdiction, carrier, line, departs, plate, file, \
                     sections, passengers)",
                    "(jurisdiction, carrier, line, departs)",
                    &checked.rows,
                )
                .await?,
            };
        let accepted = i64::try_from(added).unwrap_or(i64::MAX);
        let repeated = i64::try_from(checked.rows.len()).unwrap_or(i64::MAX) - accepted;
        let refused_json =
            serde_json::to_string(&refused).map_err(|e| StoreError::Corrupt(e.to_string()))?;
        sqlx::query(
            "UPDATE carrier_files SET accepted = $3, repeated = $4, refused = $5 \
             WHERE jurisdiction = $1 AND id = $2",
        )
        .bind(jurisdiction)
        .bind(id)
        .bind(accepted)
        .bind(repeated)
        .bind(&refused_json)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "carrier.file",
                jurisdiction: Some(jurisdiction),
                subject: &format!("carrier:{carrier}"),
                detail: serde_json::json!({
                    "id": id, "kind": kind.name(), "month": month.format("%Y-%m").to_string(),
                    "sha256": sha256, "accepted": accepted, "repeated": repeated,
                    "refused": refused.len(),
                }),
                rows: vec![RowRef::new(
                    "carrier_files",
                    [jurisdiction.into(), id.into()],
                )],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(CarrierFile {
            id,
            carrier: carrier.to_string(),
            kind,
            month,
            name,
            sha256,
            received_on: today,
            accepted,
            repeated,
            refused,
            earlier: false,
        })
    }

    /// A page of the files a carrier handed in, newest first.
    pub async fn carrier_files(
        &self,
        jurisdiction: &str,
        carrier: &str,
        window: Window<'_>,
    ) -> Result<Page<CarrierFile>, StoreError> {
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .always("carrier = $?", text(carrier));
        listing::page(&self.pool, &FILES, &rows, window, file_of).await
    }
}

/// The tickets to insert: each on a recorded line, in the month, with the
/// carrier's CNPJ when it gives one, and the items it lacks.
fn check_tickets(
    ctx: &outorga_core::Context<'_>,
    (jurisdiction, carrier, file): (&str, &str, i64),
    month: NaiveDate,
    known: &BTreeMap<String, bool>,
    rows: Vec<tickets::TicketRow>,
) -> Checked {
    let mut out = Checked {
        rows: Vec::with_capacity(rows.len()),
        refused: Vec::new(),
    };
    let mut seen = std::collections::HashSet::with_capacity(rows.len());
    for t in rows {
        let refuse = |field: &str, reason: String| Refusal {
            line: t.at,
            field: field.to_string(),
            reason,
        };
        let semi = match placed((&t.line, t.departs), month, known) {
            Ok(semi) => semi,
            Err((field, reason)) => {
                out.refused.push(refuse(field, reason));
                continue;
            }
        };
        if let Some(cnpj) = &t.cnpj
            && crate::parse_document(cnpj).ok().map(|d| d.0).as_deref() != Some(carrier)
        {
            out.refused.push(refuse(
                "cnpj",
                format!("{cnpj} não é a transportadora {carrier}, de quem é o arquivo"),
            ));
            continue;
        }
        if !seen.insert(t.key.clone()) {
            out.refused.push(refuse(
                "numero",
                format!("o bilhete {} aparece de novo no arquivo", t.key),
            ));
            continue;
        }
        let missing = missing_fields(ctx, &t.shown, semi);
        out.rows.push(vec![
            Value::Text(jurisdiction.to_string()),
            Value::Text(t.key),
            Value::Int(file),
            Value::Text(carrier.to_string()),
            Value::Text(t.line),
            Value::Text(crate::dates::moment_text(t.departs)),
            Value::Text(t.origin),
            Value::Text(t.destination),
            Value::OptInt(t.seat.map(i64::from)),
            Value::Text(t.fare.to_string()),
            Value::Text(t.discount),
            Value::Text(serde_json::json!(missing).to_string()),
        ]);
    }
    out
}

/// The trips to insert: each on a recorded line, in the month, by a
/// recorded vehicle.
async fn check_trips(
    tx: &mut Tx,
    (jurisdiction, carrier, file): (&str, &str, i64),
    month: NaiveDate,
    known: &BTreeMap<String, bool>,
    rows: Vec<statistics::TripRow>,
) -> Result<Checked, StoreError> {
    let mut out = Checked {
        rows: Vec::with_capacity(rows.len()),
        refused: Vec::new(),
    };
    let mut plates: BTreeMap<String, bool> = BTreeMap::new();
    for t in rows {
        let refuse = |field: &str, reason: String| Refusal {
            line: t.at,
            field: field.to_string(),
            reason,
        };
        if let Err((field, reason)) = placed((&t.line, t.departs), month, known) {
            out.refused.push(refuse(field, reason));
            continue;
        }
        let recorded = match plates.get(&t.plate) {
            Some(r) => *r,
            None => {
                let r = sqlx::query(
                    "SELECT 1 AS one FROM vehicles WHERE jurisdiction = $1 AND plate = $2",
                )
                .bind(jurisdiction)
                .bind(&t.plate)
                .fetch_optional(&mut **tx)
                .await?
                .is_some();
                plates.insert(t.plate.clone(), r);
                r
            }
        };
        if !recorded {
            out.refused.push(refuse(
                "placa",
                format!("o ônibus {} não está cadastrado: cadastre-o antes", t.plate),
            ));
            continue;
        }
        let passengers = i64::from(t.passengers());
        out.rows.push(vec![
            Value::Text(jurisdiction.to_string()),
            Value::Text(carrier.to_string()),
            Value::Text(t.line),
            Value::Text(crate::dates::moment_text(t.departs)),
            Value::Text(t.plate),
            Value::Int(file),
            Value::Text(serde_json::json!(t.sections).to_string()),
            Value::Int(passengers),
        ]);
    }
    Ok(out)
}
