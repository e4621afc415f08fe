//! Before a write changes a row, the row must still be what the log last
//! recorded of it: the write's image records the row as the write leaves
//! it, so an edit made outside outorga in between would otherwise be sealed
//! by the next legitimate write. The same check stands before a session,
//! an API token or a user is trusted to authenticate a request.

use super::images::{KeyPart, RowRef, bind_key, digest, image_of, key_of, key_text, latest_images};
use super::schema::{Schema, Table};
use crate::{StoreError, Tx};
use serde_json::{Map, Value};

/// The refusal when a row disagrees with the log.
fn tampered(table: &Table, key: &str) -> StoreError {
    StoreError::Tampered(format!(
        "o registro {} {key} foi alterado por fora do outorga (não é o que o registro de \
         auditoria descreve): nada foi gravado; confira com `outorga audit verify` e restaure \
         o registro antes de alterá-lo",
        table.name
    ))
}

/// Whether each image (rows of `table` as they are now) is the latest the
/// log holds for its key; the first that is not is refused.
pub(crate) async fn agree<'c>(
    executor: impl sqlx::Executor<'c, Database = sqlx::Any>,
    table: &Table,
    images: &[Map<String, Value>],
) -> Result<(), StoreError> {
    let keys: Vec<String> = images.iter().map(|i| key_text(&key_of(table, i))).collect();
    let latest = latest_images(executor, table, &keys).await?;
    for (image, key) in images.iter().zip(&keys) {
        match latest.get(key) {
            Some((Some(recorded), _)) if *recorded == digest(image) => {}
            _ => return Err(tampered(table, key)),
        }
    }
    Ok(())
}

/// The rows of `table` that `condition` (SQL, `$1`… bound to `binds`)
/// selects, as they are now in `tx`.
async fn rows_where(
    tx: &mut Tx,
    table: &Table,
    condition: &str,
    binds: &[KeyPart],
) -> Result<Vec<Map<String, Value>>, StoreError> {
    let sql = format!(
        "SELECT {} FROM {} WHERE {condition}",
        table.column_list(),
        table.name
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for bind in binds {
        query = match bind {
            KeyPart::Text(t) => query.bind(t.clone()),
            KeyPart::Int(n) => query.bind(*n),
        };
    }
    query
        .fetch_all(&mut **tx)
        .await?
        .iter()
        .map(|row| image_of(table, row))
        .collect()
}

/// Refuses the write if a row it is about to change (`rows`, those that
/// exist) is not what the log last recorded of it. Call it before the
/// write's first change to them.
pub(crate) async fn unchanged(
    tx: &mut Tx,
    schema: &Schema,
    rows: &[RowRef],
) -> Result<(), StoreError> {
    for row in rows {
        let table = schema.table(&row.table)?;
        let parts: Vec<String> = row.key.iter().map(KeyPart::text).collect();
        let sql = format!(
            "SELECT {} FROM {} WHERE {}",
            table.column_list(),
            table.name,
            table.key_match(1)
        );
        let found = bind_key(table, &parts, sqlx::query(sqlx::AssertSqlSafe(sql)))?
            .fetch_optional(&mut **tx)
            .await?;
        if let Some(found) = found {
            agree(&mut **tx, table, &[image_of(table, &found)?]).await?;
        }
    }
    Ok(())
}

/// Like [`unchanged`], for the rows of `table` that an `UPDATE … WHERE
/// condition` is about to change.
pub(crate) async fn unchanged_where(
    tx: &mut Tx,
    schema: &Schema,
    table: &str,
    condition: &str,
    binds: &[KeyPart],
) -> Result<(), StoreError> {
    let table = schema.table(table)?;
    let images = rows_where(tx, table, condition, binds).await?;
    for chunk in images.chunks(200) {
        agree(&mut **tx, table, chunk).await?;
    }
    Ok(())
}
