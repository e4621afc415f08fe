//! Row images: what an audit entry says a record became. Each write names
//! the rows it touched ([`RowRef`]); the entry keeps each row as it was read
//! back at the end of the write (every column, secrets as their SHA-256), or
//! `null` when the write deleted it, so the current rows can be checked
//! against the log and re-derived from it.

use super::schema::Table;
use crate::{StoreError, Tx};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use sqlx::any::{AnyRow, AnyTypeInfoKind};
use sqlx::{Row, ValueRef as _};
use std::collections::HashMap;

/// One part of a primary key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum KeyPart {
    Text(String),
    Int(i64),
}

impl KeyPart {
    pub(crate) fn text(&self) -> String {
        match self {
            KeyPart::Text(t) => t.clone(),
            KeyPart::Int(i) => i.to_string(),
        }
    }
}

impl From<&str> for KeyPart {
    fn from(text: &str) -> KeyPart {
        KeyPart::Text(text.to_string())
    }
}

impl From<&String> for KeyPart {
    fn from(text: &String) -> KeyPart {
        KeyPart::Text(text.clone())
    }
}

impl From<String> for KeyPart {
    fn from(text: String) -> KeyPart {
        KeyPart::Text(text)
    }
}

impl From<i64> for KeyPart {
    fn from(n: i64) -> KeyPart {
        KeyPart::Int(n)
    }
}

impl From<i32> for KeyPart {
    fn from(n: i32) -> KeyPart {
        KeyPart::Int(n.into())
    }
}

/// A row a write touched: its table and primary key, in the key's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RowRef {
    pub table: String,
    pub key: Vec<KeyPart>,
}

impl RowRef {
    pub fn new<const N: usize>(table: &str, key: [KeyPart; N]) -> RowRef {
        RowRef {
            table: table.to_string(),
            key: key.into(),
        }
    }
}

/// A key as the log writes it: a JSON array of its parts as text.
pub(crate) fn key_text(parts: &[String]) -> String {
    serde_json::json!(parts).to_string()
}

/// The SHA-256 of an image (a row as a JSON object), in hex.
pub(crate) fn digest(row: &Map<String, Value>) -> String {
    format!(
        "{:x}",
        Sha256::digest(Value::Object(row.clone()).to_string())
    )
}

/// A value of one column as JSON: numbers, text, booleans, `null`; a blob as
/// `{ "blob": hex }`; a secret column as `sha256:<hex>` of its text.
fn column_value(row: &AnyRow, index: usize, secret: bool) -> Result<Value, StoreError> {
    let raw = row.try_get_raw(index)?;
    if raw.is_null() {
        return Ok(Value::Null);
    }
    let value = match raw.type_info().kind() {
        AnyTypeInfoKind::Null => Value::Null,
        AnyTypeInfoKind::Bool => Value::Bool(row.try_get(index)?),
        AnyTypeInfoKind::SmallInt | AnyTypeInfoKind::Integer | AnyTypeInfoKind::BigInt => {
            Value::from(row.try_get::<i64, _>(index)?)
        }
        AnyTypeInfoKind::Real | AnyTypeInfoKind::Double => {
            Value::from(row.try_get::<f64, _>(index)?)
        }
        AnyTypeInfoKind::Text => Value::String(row.try_get(index)?),
        // A blob is no text: `{ "blob": "<hex>" }`, never read as one.
        AnyTypeInfoKind::Blob => {
            let bytes: Vec<u8> = row.try_get(index)?;
            serde_json::json!({ "blob": bytes.iter().map(|b| format!("{b:02x}")).collect::<String>() })
        }
    };
    Ok(match (secret, value) {
        (true, Value::String(text)) => {
            Value::String(format!("sha256:{:x}", Sha256::digest(text.as_bytes())))
        }
        (_, value) => value,
    })
}

/// A row read with `table.column_list()`, as its image.
pub(crate) fn image_of(table: &Table, row: &AnyRow) -> Result<Map<String, Value>, StoreError> {
    let mut image = Map::new();
    for (i, column) in table.columns.iter().enumerate() {
        image.insert(column.name.clone(), column_value(row, i, column.secret)?);
    }
    Ok(image)
}

/// The key of an image, as text parts.
pub(crate) fn key_of(table: &Table, image: &Map<String, Value>) -> Vec<String> {
    table
        .key
        .iter()
        .map(|&c| match image.get(&table.columns[c].name) {
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
            None => String::new(),
        })
        .collect()
}

/// Binds `parts` (text) to `query` as the key columns' types need.
pub(crate) fn bind_key<'q>(
    table: &Table,
    parts: &[String],
    mut query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>,
) -> Result<sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments>, StoreError> {
    if parts.len() != table.key.len() {
        return Err(StoreError::Corrupt(format!(
            "a key of `{}` has {} parts, not {}",
            table.name,
            parts.len(),
            table.key.len()
        )));
    }
    for (&c, part) in table.key.iter().zip(parts) {
        query = if table.columns[c].integer {
            let n: i64 = part.parse().map_err(|_| {
                StoreError::Corrupt(format!(
                    "`{part}` is not a number (key of `{}`)",
                    table.name
                ))
            })?;
            query.bind(n)
        } else {
            query.bind(part.clone())
        };
    }
    Ok(query)
}

/// A row as a write left it: its key and image (`None`: deleted).
#[derive(Debug, Clone)]
pub(crate) struct Image {
    pub table: String,
    pub key: Vec<String>,
    pub row: Option<Map<String, Value>>,
}

impl Image {
    /// As the log keeps it: `{ "table", "key", "row" }`.
    pub fn to_json(&self) -> Value {
        serde_json::json!({ "table": self.table, "key": self.key, "row": self.row })
    }

    pub fn digest(&self) -> Option<String> {
        self.row.as_ref().map(digest)
    }

    /// The images of an entry, as stored (`[]` for none).
    pub fn parse_all(text: &str) -> Result<Vec<Image>, String> {
        let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let list = value.as_array().ok_or("not a list")?;
        list.iter()
            .map(|item| {
                let table = item["table"].as_str().ok_or("no table")?.to_string();
                let key = item["key"]
                    .as_array()
                    .ok_or("no key")?
                    .iter()
                    .map(|part| {
                        part.as_str()
                            .map(str::to_string)
                            .ok_or("a key part not text")
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                let row = match &item["row"] {
                    Value::Null => None,
                    Value::Object(map) => Some(map.clone()),
                    _ => return Err("a row that is not an object".to_string()),
                };
                Ok(Image { table, key, row })
            })
            .collect()
    }
}

/// Reads `row` as it stands now in `tx`.
pub(crate) async fn capture(tx: &mut Tx, table: &Table, row: &RowRef) -> Result<Image, StoreError> {
    let parts: Vec<String> = row.key.iter().map(KeyPart::text).collect();
    let sql = format!(
        "SELECT {} FROM {} WHERE {}",
        table.column_list(),
        table.name,
        table.key_match(1)
    );
    let query = bind_key(table, &parts, sqlx::query(sqlx::AssertSqlSafe(sql)))?;
    let found = query.fetch_optional(&mut **tx).await?;
    let row = found.as_ref().map(|r| image_of(table, r)).transpose()?;
    Ok(Image {
        table: table.name.clone(),
        // The key as the row holds it, so it reads the same when the rows
        // are checked.
        key: row.as_ref().map_or(parts, |image| key_of(table, image)),
        row,
    })
}

/// The latest image the log holds for each key of `keys` in `table`: its
/// digest (`None`: deleted) and entry.
pub(crate) async fn latest_images<'c>(
    executor: impl sqlx::Executor<'c, Database = sqlx::Any>,
    table: &Table,
    keys: &[String],
) -> Result<HashMap<String, (Option<String>, i64)>, StoreError> {
    if keys.is_empty() {
        return Ok(HashMap::new());
    }
    let placeholders: Vec<String> = (0..keys.len()).map(|i| format!("${}", i + 2)).collect();
    let sql = format!(
        "SELECT r.key, r.digest, r.seq FROM audit_rows r WHERE r.tbl = $1 AND r.key IN ({}) \
         AND NOT EXISTS (SELECT 1 FROM audit_rows l WHERE l.tbl = r.tbl AND l.key = r.key \
         AND l.seq > r.seq)",
        placeholders.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(&table.name);
    for key in keys {
        query = query.bind(key);
    }
    let mut found = HashMap::new();
    for row in query.fetch_all(executor).await? {
        found.insert(
            row.try_get("key")?,
            (row.try_get("digest")?, row.try_get("seq")?),
        );
    }
    Ok(found)
}
