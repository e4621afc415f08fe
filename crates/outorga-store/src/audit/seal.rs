//! Sealing the log, describing the tables it does not yet describe, and
//! rotating the key.
//!
//! [`Store::seal`] runs when a command opens the database: a log written
//! before the key existed is checked (its chain must be intact) and each of
//! its entries gets its MAC; then every audited table whose columns the log
//! has not recorded (a new table, or one a migration changed) is described
//! again in `audit.baseline` entries. A row of a changed table is described
//! again only if it still agrees with its latest image on the columns that
//! image had — a row edited outside outorga stays reported, not laundered.

use super::images::{KeyPart, RowRef, digest, image_of, key_of, key_text, latest_images};
use super::key::{AuditKeys, Purpose};
use super::schema::Table;
use super::{Audit, COLUMNS, Change, Entry, GENESIS, append, entry_hash, entry_of, head_mac};
use crate::{Store, StoreError, Tx};
use serde_json::{Map, Value};
use sqlx::Row;
use std::collections::HashMap;

/// Entries read at a time (each with its images), and rows of a table.
const ENTRIES: i64 = 200;
const CHUNK: i64 = 500;
/// Rows described per baseline entry.
pub(crate) const BASELINE_ROWS: usize = 50;

/// What sealing did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SealReport {
    /// Entries written before the key that were sealed now.
    pub sealed: i64,
    /// Rows described again in baseline entries.
    pub described: i64,
    /// Tables whose columns were recorded anew.
    pub tables: Vec<String>,
}

fn broken(seq: i64, why: &str) -> StoreError {
    StoreError::Corrupt(format!(
        "o registro de auditoria está quebrado na entrada {seq} ({why}) e não pode ser selado; \
         restaure uma cópia íntegra (outorga restore)"
    ))
}

/// Walks the whole log in `tx`, checking the chain with `check` and
/// handing each entry's sequence and hash to `reseal`.
async fn walk(
    tx: &mut Tx,
    check_mac: Option<&AuditKeys>,
    mut reseal: impl FnMut(i64, &str) -> String,
) -> Result<(i64, String), StoreError> {
    let (mut last, mut prev) = (0i64, GENESIS.to_string());
    loop {
        let entries: Vec<_> = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM audit_log WHERE seq > $1 ORDER BY seq LIMIT {ENTRIES}"
        )))
        .bind(last)
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(entry_of)
        .collect::<Result<_, _>>()?;
        if entries.is_empty() {
            return Ok((last, prev));
        }
        for entry in entries {
            if entry.seq != last + 1 {
                return Err(broken(last + 1, "há entradas faltando"));
            }
            if entry.prev_hash != prev || entry_hash(&entry) != entry.hash {
                return Err(broken(entry.seq, "o conteúdo não confere com o hash"));
            }
            if let Some(keys) = check_mac
                && !keys
                    .current()
                    .verifies(Purpose::Entry, &[&entry.hash], &entry.mac)
            {
                return Err(broken(entry.seq, "o selo não confere com a chave atual"));
            }
            sqlx::query("UPDATE audit_log SET mac = $1 WHERE seq = $2")
                .bind(reseal(entry.seq, &entry.hash))
                .bind(entry.seq)
                .execute(&mut **tx)
                .await?;
            last = entry.seq;
            prev = entry.hash;
        }
    }
}

/// Checks that the head names the last entry walked.
async fn head_names(tx: &mut Tx, last: i64, prev: &str) -> Result<(), StoreError> {
    let head = sqlx::query("SELECT seq, hash FROM audit_head WHERE id = 1")
        .fetch_one(&mut **tx)
        .await?;
    let (seq, hash): (i64, String) = (head.try_get("seq")?, head.try_get("hash")?);
    if seq != last || hash != prev {
        return Err(broken(
            last + 1,
            "a cabeça não aponta para a última entrada",
        ));
    }
    Ok(())
}

impl Store {
    /// Seals a new database with the key (its log and its tables empty),
    /// and describes the tables the log does not describe yet (see the
    /// module's documentation). Does nothing when there is nothing to do;
    /// safe to run from several servers. A log that is not sealed but holds
    /// entries, or tables that hold rows no entry wrote, are refused: sealing
    /// them is an operator's decision ([`Store::seal_earlier_log`]), never
    /// automatic — else someone who cleared the seal would have the server
    /// seal their edits.
    pub async fn seal(&self, change: &Change<'_>) -> Result<SealReport, StoreError> {
        self.seal_with(change, false).await
    }

    /// Seals a log written before the key existed (`outorga audit seal`),
    /// once its chain is checked: for a database from a version of outorga
    /// without the audit key, after the operator has made sure it is the
    /// genuine one.
    pub async fn seal_earlier_log(&self, change: &Change<'_>) -> Result<SealReport, StoreError> {
        self.seal_with(change, true).await
    }

    async fn seal_with(
        &self,
        change: &Change<'_>,
        earlier_log: bool,
    ) -> Result<SealReport, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let mut report = SealReport::default();
        let head = sqlx::query("SELECT seq, key_id FROM audit_head WHERE id = 1")
            .fetch_one(&mut *tx)
            .await?;
        let (seq, key_id): (i64, String) = (head.try_get("seq")?, head.try_get("key_id")?);
        let key = self.audit.keys.current();
        if key_id.is_empty() {
            let entries: i64 = sqlx::query("SELECT COUNT(*) AS n FROM audit_log")
                .fetch_one(&mut *tx)
                .await?
                .try_get("n")?;
            if (seq > 0 || entries > 0) && !earlier_log {
                return Err(unsealed(
                    "o registro de auditoria tem entradas mas não está selado: se este banco vem \
                     de uma versão do outorga sem a chave de auditoria, confira que é o banco \
                     verdadeiro e sele-o com `outorga audit seal`; se já foi selado, a selagem foi \
                     apagada: restaure uma cópia íntegra",
                ));
            }
            if seq == 0 && entries == 0 {
                for table in &self.audit.schema.tables {
                    let any = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "SELECT 1 AS one FROM {} LIMIT 1",
                        table.name
                    )))
                    .fetch_optional(&mut *tx)
                    .await?;
                    if any.is_some() {
                        return Err(unsealed(&format!(
                            "o registro de auditoria está vazio, mas a tabela {} tem registros: \
                             o registro foi apagado, ou os registros gravados por fora do \
                             outorga; restaure uma cópia íntegra",
                            table.name
                        )));
                    }
                }
            }
            let (last, prev) =
                walk(&mut tx, None, |_, hash| key.mac(Purpose::Entry, &[hash])).await?;
            head_names(&mut tx, last, &prev).await?;
            sqlx::query("UPDATE audit_head SET key_id = $1, mac = $2 WHERE id = 1")
                .bind(key.id())
                .bind(head_mac(&self.audit.keys, last, &prev))
                .execute(&mut *tx)
                .await?;
            report.sealed = last;
        } else if key_id != key.id() {
            return Err(wrong_key(&key_id, &key.id()));
        } else if seq == 0 {
            // A sealed log always holds its first `audit.schema` entry.
            return Err(unsealed(
                "o registro de auditoria foi selado mas está vazio: foi apagado; restaure uma \
                 cópia íntegra",
            ));
        }
        self.describe_changed_tables(&mut tx, change, &mut report)
            .await?;
        if report.sealed > 0 {
            append(
                &mut tx,
                &self.audit,
                change,
                Entry {
                    action: "audit.seal",
                    jurisdiction: None,
                    subject: "audit",
                    detail: serde_json::json!({ "sealed": report.sealed, "key_id": key.id() }),
                    rows: Vec::new(),
                },
            )
            .await?;
        }
        tx.commit().await?;
        Ok(report)
    }

    async fn describe_changed_tables(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        report: &mut SealReport,
    ) -> Result<(), StoreError> {
        let recorded = recorded_tables(tx, &self.audit.keys).await?;
        let changed: Vec<&Table> = self
            .audit
            .schema
            .tables
            .iter()
            .filter(|t| {
                recorded
                    .get(&t.name)
                    .map(|c| serde_json::json!(c).to_string())
                    != Some(t.fingerprint())
            })
            .collect();
        if changed.is_empty() {
            return Ok(());
        }
        let columns: Map<String, Value> = changed
            .iter()
            .map(|t| {
                (
                    t.name.clone(),
                    serde_json::from_str(&t.fingerprint()).unwrap_or_default(),
                )
            })
            .collect();
        append(
            tx,
            &self.audit,
            change,
            Entry {
                action: "audit.schema",
                jurisdiction: None,
                subject: "audit",
                detail: Value::Object(columns),
                rows: Vec::new(),
            },
        )
        .await?;
        for table in changed {
            // A table the log has images of but no record of its columns:
            // its rows are compared with their images as they are now, never
            // described again unchecked.
            let current: Vec<String> = table.columns.iter().map(|c| c.name.clone()).collect();
            let imaged = sqlx::query("SELECT 1 AS one FROM audit_rows WHERE tbl = $1 LIMIT 1")
                .bind(&table.name)
                .fetch_optional(&mut **tx)
                .await?
                .is_some();
            let before = recorded
                .get(&table.name)
                .or(if imaged { Some(&current) } else { None });
            report.described += self.describe_table(tx, change, table, before).await?;
            report.tables.push(table.name.clone());
        }
        Ok(())
    }

    /// Describes the rows of `table` in baseline entries: every row of a
    /// table the log never described (`before` is `None`), or the rows that
    /// agree with their latest image on the columns it had (`before`).
    async fn describe_table(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        table: &Table,
        before: Option<&Vec<String>>,
    ) -> Result<i64, StoreError> {
        let order = table.key_columns();
        let mut described = 0;
        let mut batch: Vec<RowRef> = Vec::new();
        let mut offset_key: Option<Vec<String>> = None;
        loop {
            let condition = match &offset_key {
                Some(_) => {
                    let p: Vec<String> = (1..=table.key.len()).map(|i| format!("${i}")).collect();
                    format!("WHERE ({order}) > ({})", p.join(", "))
                }
                None => String::new(),
            };
            let sql = format!(
                "SELECT {} FROM {} {condition} ORDER BY {order} LIMIT {CHUNK}",
                table.column_list(),
                table.name
            );
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
            if let Some(key) = &offset_key {
                query = super::images::bind_key(table, key, query)?;
            }
            let rows = query.fetch_all(&mut **tx).await?;
            if rows.is_empty() {
                break;
            }
            let images: Vec<Map<String, Value>> = rows
                .iter()
                .map(|r| image_of(table, r))
                .collect::<Result<_, _>>()?;
            let keys: Vec<Vec<String>> = images.iter().map(|i| key_of(table, i)).collect();
            let latest = match before {
                Some(_) => {
                    let texts: Vec<String> = keys.iter().map(|k| key_text(k)).collect();
                    latest_images(&mut **tx, table, &texts).await?
                }
                None => HashMap::new(),
            };
            for (image, key) in images.iter().zip(&keys) {
                let agrees = match before {
                    None => true,
                    Some(columns) => latest
                        .get(&key_text(key))
                        .and_then(|(digest, _)| digest.as_ref())
                        .is_some_and(|recorded| {
                            projection(image, columns).is_some_and(|p| digest(&p) == *recorded)
                        }),
                };
                if agrees {
                    batch.push(RowRef {
                        table: table.name.clone(),
                        key: key.iter().cloned().map(KeyPart::Text).collect(),
                    });
                }
                if batch.len() == BASELINE_ROWS {
                    described += self.baseline(tx, change, table, &mut batch).await?;
                }
            }
            if keys.last() == offset_key.as_ref() {
                // A key that does not select its own row (written outside
                // outorga): the rest is left for verification to report.
                break;
            }
            offset_key = keys.last().cloned();
        }
        described += self.baseline(tx, change, table, &mut batch).await?;
        Ok(described)
    }

    async fn baseline(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        table: &Table,
        batch: &mut Vec<RowRef>,
    ) -> Result<i64, StoreError> {
        if batch.is_empty() {
            return Ok(0);
        }
        let rows = std::mem::take(batch);
        let n = rows.len() as i64;
        append(
            tx,
            &self.audit,
            change,
            Entry {
                action: "audit.baseline",
                jurisdiction: None,
                subject: &format!("table:{}", table.name),
                detail: serde_json::json!({ "table": table.name, "rows": n }),
                rows,
            },
        )
        .await?;
        Ok(n)
    }

    /// Seals the whole log again with `new` (the current key kept among the
    /// earlier ones) and records the rotation; every entry must verify with
    /// the current key first. Run it with the servers stopped, then start
    /// them with the new keys. Returns how many entries were sealed again.
    pub async fn rotate_audit_key(
        &self,
        change: &Change<'_>,
        new: &AuditKeys,
    ) -> Result<i64, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let (last, prev) = walk(&mut tx, Some(&self.audit.keys), |_, hash| {
            new.current().mac(Purpose::Entry, &[hash])
        })
        .await?;
        head_names(&mut tx, last, &prev).await?;
        sqlx::query("UPDATE audit_head SET key_id = $1, mac = $2 WHERE id = 1")
            .bind(new.current().id())
            .bind(head_mac(new, last, &prev))
            .execute(&mut *tx)
            .await?;
        let audit = Audit {
            keys: new.clone(),
            schema: self.audit.schema.clone(),
        };
        append(
            &mut tx,
            &audit,
            change,
            Entry {
                action: "audit.key_rotated",
                jurisdiction: None,
                subject: "audit",
                detail: serde_json::json!({
                    "from": self.audit.keys.current().id(),
                    "to": new.current().id(),
                }),
                rows: Vec::new(),
            },
        )
        .await?;
        tx.commit().await?;
        Ok(last)
    }
}

/// `image` with only `columns`, in their order (`None` if one is missing).
fn projection(image: &Map<String, Value>, columns: &[String]) -> Option<Map<String, Value>> {
    columns
        .iter()
        .map(|c| image.get(c).map(|v| (c.clone(), v.clone())))
        .collect()
}

/// The columns of each table as the log's sealed `audit.schema` entries
/// recorded them, the latest per table; an entry that does not verify is
/// left out (verification reports it).
pub(crate) async fn recorded_tables(
    tx: &mut Tx,
    keys: &AuditKeys,
) -> Result<HashMap<String, Vec<String>>, StoreError> {
    let mut recorded = HashMap::new();
    let entries = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM audit_log WHERE action = 'audit.schema' ORDER BY seq"
    )))
    .fetch_all(&mut **tx)
    .await?;
    for entry in entries.iter().map(entry_of) {
        let entry = entry?;
        let sealed = entry_hash(&entry) == entry.hash
            && keys
                .current()
                .verifies(Purpose::Entry, &[&entry.hash], &entry.mac);
        let detail: Map<String, Value> = serde_json::from_str(&entry.detail).unwrap_or_default();
        if !sealed {
            continue;
        }
        for (table, columns) in detail {
            let columns: Vec<String> = serde_json::from_value(columns).unwrap_or_default();
            recorded.insert(table, columns);
        }
    }
    Ok(recorded)
}

/// The log is not sealed and sealing it is not automatic.
fn unsealed(reason: &str) -> StoreError {
    StoreError::Invalid {
        field: "registro de auditoria",
        reason: reason.to_string(),
    }
}

/// The database was sealed with another key.
pub(crate) fn wrong_key(recorded: &str, given: &str) -> StoreError {
    StoreError::Invalid {
        field: "chave de auditoria",
        reason: format!(
            "este banco foi selado com a chave {recorded}, e a chave dada é a {given}: use a \
             chave com que o banco foi selado (OUTORGA_AUDIT_KEY ou o arquivo audit.key da \
             pasta de dados)"
        ),
    }
}
