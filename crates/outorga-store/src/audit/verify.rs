//! Verifying the log and the records it describes, in constant memory: the
//! log is read in chunks of [`CHUNK`] entries, then every audited table in
//! chunks of rows, all in one read-only transaction (one snapshot).
//!
//! 1. **The chain**: entries follow one another from 1; each names the
//!    previous hash, hashes to what it records, and carries a valid MAC; its
//!    row images agree with the `audit_rows` index; the head names the last
//!    entry and carries a valid MAC (so a deleted tail is found).
//! 2. **The records**: every row of every audited table is the latest image
//!    the log holds for its key (an edited amount, an offender changed, a
//!    row inserted outside outorga are named with what differs), and no
//!    record the log says exists is missing.

use super::images::{Image, bind_key, digest, image_of, key_of, key_text, latest_images};
use super::key::Purpose;
use super::schema::Table;
use super::{AuditEntry, COLUMNS, GENESIS, entry_hash, entry_of};
use crate::{Backend, Store, StoreError};
use serde_json::{Map, Value};
use sqlx::Row;
use std::collections::{BTreeMap, HashMap};

/// How many entries are read at a time (an entry holds its rows' images:
/// a baseline entry up to `seal::BASELINE_ROWS` of them).
const ENTRIES: i64 = 200;
/// How many rows of a table are read at a time.
const CHUNK: i64 = 500;
/// How many problems are listed (the rest are counted).
const MAX_PROBLEMS: usize = 100;

/// One thing that does not agree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditProblem {
    /// The entry at fault, when the problem is in the log.
    pub seq: Option<i64>,
    /// The record at fault (`table [key…]`), when it is in the tables.
    pub record: Option<String>,
    /// The jurisdiction the entry or record belongs to, if any.
    pub jurisdiction: Option<String>,
    pub reason: String,
}

/// What verifying found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditReport {
    /// Entries read.
    pub entries: i64,
    /// Current rows checked against the log.
    pub rows: i64,
    /// Entries and rows per jurisdiction (`""`: none, as users' entries).
    pub by_jurisdiction: BTreeMap<String, (i64, i64)>,
    /// The first problems found, in order (the log first, then the tables).
    pub problems: Vec<AuditProblem>,
    /// Problems found past the ones listed.
    pub more_problems: i64,
}

impl AuditReport {
    pub fn intact(&self) -> bool {
        self.problems.is_empty()
    }

    fn problem(&mut self, problem: AuditProblem) {
        if self.problems.len() < MAX_PROBLEMS {
            self.problems.push(problem);
        } else {
            self.more_problems += 1;
        }
    }

    fn in_log(&mut self, entry: &AuditEntry, reason: impl Into<String>) {
        self.problem(AuditProblem {
            seq: Some(entry.seq),
            record: None,
            jurisdiction: entry.jurisdiction.clone(),
            reason: reason.into(),
        });
    }

    fn count(&mut self, jurisdiction: Option<&str>, entries: i64, rows: i64) {
        let counts = self
            .by_jurisdiction
            .entry(jurisdiction.unwrap_or_default().to_string())
            .or_default();
        counts.0 += entries;
        counts.1 += rows;
    }
}

/// The read-only transaction every check reads in (one snapshot).
pub(crate) async fn snapshot(store: &Store) -> Result<crate::Tx, StoreError> {
    Ok(match store.backend {
        Backend::Sqlite => store.pool.begin_with("BEGIN").await?,
        Backend::Postgres => {
            store
                .pool
                .begin_with("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .await?
        }
    })
}

impl Store {
    /// Verifies the log and every audited record against it (see the
    /// module's documentation).
    pub async fn verify_audit(&self) -> Result<AuditReport, StoreError> {
        let mut tx = snapshot(self).await?;
        let mut report = AuditReport::default();
        self.verify_chain(&mut tx, &mut report).await?;
        for table in &self.audit.schema.tables {
            verify_table(&mut tx, table, &mut report).await?;
        }
        let recorded = super::seal::recorded_tables(&mut tx, &self.audit.keys).await?;
        let mut vanished: Vec<&String> = recorded
            .keys()
            .filter(|name| self.audit.schema.table(name).is_err())
            .collect();
        vanished.sort();
        for name in vanished {
            report.problem(AuditProblem {
                seq: None,
                record: Some(name.clone()),
                jurisdiction: None,
                reason: "o registro descreve esta tabela, que não existe mais como tabela: foi \
                         apagada ou trocada (por uma visão, por exemplo) por fora do outorga"
                    .into(),
            });
        }
        tx.rollback().await?;
        Ok(report)
    }

    async fn verify_chain(
        &self,
        tx: &mut crate::Tx,
        report: &mut AuditReport,
    ) -> Result<(), StoreError> {
        let key = self.audit.keys.current();
        // Entries and images numbered below 1 are never part of the chain.
        for (table, what) in [
            ("audit_log", "entrada"),
            ("audit_rows", "registro indexado"),
        ] {
            let below: i64 = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT COUNT(*) AS n FROM {table} WHERE seq < 1"
            )))
            .fetch_one(&mut **tx)
            .await?
            .try_get("n")?;
            if below > 0 {
                report.problem(AuditProblem {
                    seq: Some(0),
                    record: None,
                    jurisdiction: None,
                    reason: format!(
                        "{below} {what}(s) numerada(s) abaixo de 1 em {table}: não fazem parte do \
                         registro e foram gravadas por fora do outorga"
                    ),
                });
            }
        }
        let mut prev = GENESIS.to_string();
        let mut expected = 1;
        let mut last = 0;
        loop {
            let entries: Vec<AuditEntry> = sqlx::query(sqlx::AssertSqlSafe(format!(
                "SELECT {COLUMNS} FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT {ENTRIES}"
            )))
            .bind(last)
            .fetch_all(&mut **tx)
            .await?
            .iter()
            .map(entry_of)
            .collect::<Result<_, _>>()?;
            let Some(chunk_end) = entries.last().map(|e| e.seq) else {
                break;
            };
            let mut indexed: HashMap<i64, Vec<(String, String, Option<String>)>> = HashMap::new();
            for row in sqlx::query(
                "SELECT seq, tbl, key, digest FROM audit_rows WHERE seq > $1 AND seq <= $2",
            )
            .bind(last)
            .bind(chunk_end)
            .fetch_all(&mut **tx)
            .await?
            {
                indexed.entry(row.try_get("seq")?).or_default().push((
                    row.try_get("tbl")?,
                    row.try_get("key")?,
                    row.try_get("digest")?,
                ));
            }
            for entry in &entries {
                if entry.seq != expected {
                    report.in_log(
                        entry,
                        format!(
                            "esperava a entrada {expected}: faltam as entradas {expected} a {}",
                            entry.seq - 1
                        ),
                    );
                }
                if entry.prev_hash != prev {
                    report.in_log(entry, "não aponta para o hash da entrada anterior");
                }
                if entry_hash(entry) != entry.hash {
                    report.in_log(entry, "o conteúdo não confere com o hash registrado");
                }
                if !key.verifies(Purpose::Entry, &[&entry.hash], &entry.mac) {
                    report.in_log(
                        entry,
                        "o selo (HMAC) não confere: a entrada foi alterada, ou escrita sem a \
                         chave de auditoria",
                    );
                }
                match Image::parse_all(&entry.images) {
                    Ok(images) => {
                        let mut described: Vec<(String, String, Option<String>)> = images
                            .iter()
                            .map(|i| (i.table.clone(), key_text(&i.key), i.digest()))
                            .collect();
                        let mut index = indexed.remove(&entry.seq).unwrap_or_default();
                        described.sort();
                        index.sort();
                        if described != index {
                            report.in_log(
                                entry,
                                "o índice de registros (audit_rows) não confere com os \
                                 registros que a entrada descreve",
                            );
                        }
                    }
                    Err(why) => {
                        report.in_log(entry, format!("os registros descritos não se leem ({why})"))
                    }
                }
                report.count(entry.jurisdiction.as_deref(), 1, 0);
                report.entries += 1;
                prev = entry.hash.clone();
                expected = entry.seq + 1;
            }
            for seq in indexed.keys() {
                report.problem(AuditProblem {
                    seq: Some(*seq),
                    record: None,
                    jurisdiction: None,
                    reason: "o índice de registros (audit_rows) cita uma entrada que não existe"
                        .into(),
                });
            }
            last = chunk_end;
        }
        let orphans: i64 = sqlx::query("SELECT COUNT(*) AS n FROM audit_rows WHERE seq > $1")
            .bind(last)
            .fetch_one(&mut **tx)
            .await?
            .try_get("n")?;
        if orphans > 0 {
            report.problem(AuditProblem {
                seq: Some(last + 1),
                record: None,
                jurisdiction: None,
                reason: format!(
                    "o índice de registros (audit_rows) cita {orphans} registro(s) de entradas \
                     depois da última"
                ),
            });
        }
        let head = sqlx::query("SELECT seq, hash, mac, key_id FROM audit_head WHERE id = 1")
            .fetch_one(&mut **tx)
            .await?;
        let (seq, hash, mac, key_id): (i64, String, String, String) = (
            head.try_get("seq")?,
            head.try_get("hash")?,
            head.try_get("mac")?,
            head.try_get("key_id")?,
        );
        let head_problem = if key_id.is_empty() || (seq == 0 && last == 0) {
            Some(
                "o registro de auditoria não está selado, ou foi esvaziado: restaure uma cópia \
                 íntegra"
                    .to_string(),
            )
        } else if seq != last || hash != prev {
            Some(format!(
                "o registro deveria terminar na entrada {seq}, mas a última é a {last}: \
                 entradas removidas do fim, ou a cabeça do registro foi alterada"
            ))
        } else if !key.verifies(Purpose::Head, &[&seq.to_string(), &hash], &mac) {
            Some(
                "o selo (HMAC) da cabeça do registro não confere: ela foi movida ou alterada \
                 sem a chave de auditoria"
                    .to_string(),
            )
        } else {
            None
        };
        if let Some(reason) = head_problem {
            report.problem(AuditProblem {
                seq: Some(last + 1),
                record: None,
                jurisdiction: None,
                reason,
            });
        }
        Ok(())
    }
}

/// The image of `key` in `table` that entry `seq` recorded.
async fn recorded_image(
    tx: &mut crate::Tx,
    table: &Table,
    key: &str,
    seq: i64,
) -> Result<Option<Map<String, Value>>, StoreError> {
    let row = sqlx::query("SELECT images FROM audit_log WHERE seq = $1")
        .bind(seq)
        .fetch_optional(&mut **tx)
        .await?;
    let Some(row) = row else { return Ok(None) };
    let images: String = row.try_get("images")?;
    Ok(Image::parse_all(&images)
        .unwrap_or_default()
        .into_iter()
        .find(|i| i.table == table.name && key_text(&i.key) == key)
        .and_then(|i| i.row))
}

/// What differs between the recorded image and the row: column names with
/// both values (shortened).
fn differences(recorded: &Map<String, Value>, current: &Map<String, Value>) -> String {
    let short = |v: Option<&Value>| {
        let text = v.map_or("(ausente)".to_string(), Value::to_string);
        if text.chars().count() > 60 {
            format!("{}…", text.chars().take(60).collect::<String>())
        } else {
            text
        }
    };
    let mut names: Vec<&String> = current.keys().collect();
    names.extend(recorded.keys().filter(|k| !current.contains_key(*k)));
    names
        .into_iter()
        .filter(|name| recorded.get(*name) != current.get(*name))
        .map(|name| {
            format!(
                "{name}: registrado {}, no banco {}",
                short(recorded.get(name)),
                short(current.get(name))
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn record_name(table: &Table, key: &str) -> String {
    format!("{} {key}", table.name)
}

fn jurisdiction_of(table: &Table, image: &Map<String, Value>) -> Option<String> {
    table
        .jurisdiction_column()
        .and_then(|c| image.get(c))
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// Checks every row of `table` against its latest image, then that no
/// record the log says exists is missing.
async fn verify_table(
    tx: &mut crate::Tx,
    table: &Table,
    report: &mut AuditReport,
) -> Result<(), StoreError> {
    let order = table.key_columns();
    let mut after: Option<Vec<String>> = None;
    let mut live_rows = 0i64;
    loop {
        let condition = match &after {
            Some(_) => {
                let placeholders: Vec<String> =
                    (1..=table.key.len()).map(|i| format!("${i}")).collect();
                format!("WHERE ({order}) > ({})", placeholders.join(", "))
            }
            None => String::new(),
        };
        let sql = format!(
            "SELECT {} FROM {} {condition} ORDER BY {order} LIMIT {CHUNK}",
            table.column_list(),
            table.name
        );
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        if let Some(key) = &after {
            query = bind_key(table, key, query)?;
        }
        let rows = query.fetch_all(&mut **tx).await?;
        if rows.is_empty() {
            break;
        }
        let images: Vec<Map<String, Value>> = rows
            .iter()
            .map(|r| image_of(table, r))
            .collect::<Result<_, _>>()?;
        let keys: Vec<String> = images.iter().map(|i| key_text(&key_of(table, i))).collect();
        let latest = latest_images(&mut **tx, table, &keys).await?;
        for (image, key) in images.iter().zip(&keys) {
            let jurisdiction = jurisdiction_of(table, image);
            report.rows += 1;
            report.count(jurisdiction.as_deref(), 0, 1);
            let reason = match latest.get(key) {
                None => Some(
                    "não consta do registro de auditoria: foi gravado por fora do outorga".into(),
                ),
                Some((None, seq)) => Some(format!(
                    "o registro de auditoria diz que foi apagado (entrada {seq}), mas está no banco"
                )),
                Some((Some(recorded), seq)) => {
                    live_rows += 1;
                    if *recorded == digest(image) {
                        None
                    } else {
                        let was = recorded_image(tx, table, key, *seq).await?;
                        Some(format!(
                            "difere do que a entrada {seq} registrou ({})",
                            was.map_or("registro não encontrado".into(), |was| differences(
                                &was, image
                            ))
                        ))
                    }
                }
            };
            if let Some(reason) = reason {
                report.problem(AuditProblem {
                    seq: latest.get(key).map(|(_, seq)| *seq),
                    record: Some(record_name(table, key)),
                    jurisdiction,
                    reason,
                });
            }
        }
        let next = images.last().map(|i| key_of(table, i));
        if next == after {
            // A key that reads back as a value that does not select it (a
            // blob where text was expected): reading on would never end.
            report.problem(AuditProblem {
                seq: None,
                record: Some(record_name(table, &keys[keys.len() - 1])),
                jurisdiction: None,
                reason: "a chave deste registro não se lê como a do seu tipo: foi gravado por \
                         fora do outorga"
                    .into(),
            });
            break;
        }
        after = next;
    }
    let live: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM audit_rows r WHERE r.tbl = $1 AND r.digest IS NOT NULL \
         AND NOT EXISTS (SELECT 1 FROM audit_rows l WHERE l.tbl = r.tbl AND l.key = r.key \
         AND l.seq > r.seq)",
    )
    .bind(&table.name)
    .fetch_one(&mut **tx)
    .await?
    .try_get("n")?;
    if live > live_rows {
        missing_rows(tx, table, report).await?;
    }
    Ok(())
}

/// Names the records the log says exist but the table lacks (rows deleted
/// outside outorga): only looked for when the counts differ.
async fn missing_rows(
    tx: &mut crate::Tx,
    table: &Table,
    report: &mut AuditReport,
) -> Result<(), StoreError> {
    let mut after = String::new();
    loop {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT r.key, r.seq FROM audit_rows r WHERE r.tbl = $1 AND r.digest IS NOT NULL \
             AND r.key > $2 AND NOT EXISTS (SELECT 1 FROM audit_rows l WHERE l.tbl = r.tbl \
             AND l.key = r.key AND l.seq > r.seq) ORDER BY r.key LIMIT {CHUNK}"
        )))
        .bind(&table.name)
        .bind(&after)
        .fetch_all(&mut **tx)
        .await?;
        if rows.is_empty() {
            return Ok(());
        }
        for row in &rows {
            let key: String = row.try_get("key")?;
            let seq: i64 = row.try_get("seq")?;
            let parts: Vec<String> = serde_json::from_str(&key).unwrap_or_default();
            let sql = format!(
                "SELECT 1 AS one FROM {} WHERE {}",
                table.name,
                table.key_match(1)
            );
            let exists = bind_key(table, &parts, sqlx::query(sqlx::AssertSqlSafe(sql)))?
                .fetch_optional(&mut **tx)
                .await?
                .is_some();
            if !exists {
                let jurisdiction = table
                    .jurisdiction_column()
                    .and_then(|c| table.key.iter().position(|&k| table.columns[k].name == c))
                    .and_then(|i| parts.get(i).cloned());
                report.problem(AuditProblem {
                    seq: Some(seq),
                    record: Some(record_name(table, &key)),
                    jurisdiction,
                    reason: format!(
                        "foi apagado por fora do outorga (a entrada {seq} o registrou e nenhuma \
                         o apagou)"
                    ),
                });
            }
            after = key;
        }
    }
}
