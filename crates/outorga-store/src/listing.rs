//! Lists read one page at a time, by keyset: every list has a unique order
//! (its key columns, all ascending or all descending) served by an index,
//! and a page is the first `limit` rows after the key of the previous
//! page's last row — never an `OFFSET`, so a page costs the same on the
//! first day and at a million rows. The [`Cursor`] carries that key and the
//! list it belongs to.

use crate::StoreError;
use sqlx::Row;
use sqlx::any::AnyRow;

/// One value of a list's order key, as a cursor carries it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum KeyValue {
    Int(i64),
    Text(String),
}

/// Where a page ended: the list and the key of its last item. Opaque to
/// clients (the API sends it encoded); handed back to read the next page.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Cursor {
    pub(crate) list: String,
    pub(crate) key: Vec<KeyValue>,
}

/// One page of a list: its items in order, and the cursor of the next page
/// (`None` on the last one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    pub items: Vec<T>,
    pub next: Option<Cursor>,
}

/// Which page to read: up to `limit` items after `after` (the first page
/// when `None`).
#[derive(Debug, Clone, Copy)]
pub struct Window<'a> {
    pub limit: u32,
    pub after: Option<&'a Cursor>,
}

impl Window<'_> {
    /// The first page of `limit` items.
    pub fn first(limit: u32) -> Window<'static> {
        Window { limit, after: None }
    }
}

/// The type of a key column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Int,
    Text,
}

/// A list: where its rows come from and its order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct List {
    /// The name a cursor carries, so one list's cursor is refused by another.
    pub name: &'static str,
    pub table: &'static str,
    /// The columns read, the key columns among them.
    pub columns: &'static str,
    /// The order: unique, and the tail of an index for every filter.
    pub key: &'static [(&'static str, Kind)],
    pub descending: bool,
}

/// The rows a list reads: conditions (SQL with `$?` where the value goes)
/// and, optionally, one condition that may take any of several values
/// (read as one index range per value, merged in order).
#[derive(Debug, Default)]
pub(crate) struct Filter {
    conditions: Vec<(String, Option<KeyValue>)>,
    any_of: Option<(&'static str, Vec<KeyValue>)>,
}

impl Filter {
    /// Adds `sql` (with `$?` for the value) when there is a value.
    pub fn when(mut self, sql: &'static str, value: Option<KeyValue>) -> Filter {
        if value.is_some() {
            self.conditions.push((sql.to_string(), value));
        }
        self
    }

    /// Adds `sql`, a condition without a value.
    pub fn fixed(mut self, sql: &'static str) -> Filter {
        self.conditions.push((sql.to_string(), None));
        self
    }

    /// Equality filters on `columns` (most selective first): the first
    /// given is an index condition, unless `led` (another already is); the
    /// others are checked on its rows — `column || '' = $n` is no index
    /// condition on either backend, so the plan does not hang on what the
    /// planner guesses of their selectivity.
    pub fn ranked(mut self, mut led: bool, columns: &[(&'static str, Option<KeyValue>)]) -> Filter {
        for (column, value) in columns {
            let Some(value) = value else { continue };
            let sql = if led {
                format!("{column} || '' = $?")
            } else {
                format!("{column} = $?")
            };
            led = true;
            self.conditions.push((sql, Some(value.clone())));
        }
        self
    }

    /// Adds `sql` with `value`.
    pub fn always(self, sql: &'static str, value: KeyValue) -> Filter {
        self.when(sql, Some(value))
    }

    /// Rows that meet `sql` for one of `values` (none: no row at all).
    pub fn any_of(mut self, sql: &'static str, values: Vec<KeyValue>) -> Filter {
        self.any_of = Some((sql, values));
        self
    }
}

pub(crate) fn text(value: impl Into<String>) -> KeyValue {
    KeyValue::Text(value.into())
}

/// The cursor's key for `list`, checked against the list's key columns.
fn key_of<'a>(
    list: &List,
    after: Option<&'a Cursor>,
) -> Result<Option<&'a [KeyValue]>, StoreError> {
    let Some(cursor) = after else {
        return Ok(None);
    };
    let fits = cursor.list == list.name
        && cursor.key.len() == list.key.len()
        && cursor.key.iter().zip(list.key).all(|(value, (_, kind))| {
            matches!(
                (value, kind),
                (KeyValue::Int(_), Kind::Int) | (KeyValue::Text(_), Kind::Text)
            )
        });
    if fits {
        Ok(Some(&cursor.key))
    } else {
        Err(StoreError::Invalid {
            field: "cursor",
            reason: "o cursor não é desta lista: peça a primeira página de novo, sem cursor".into(),
        })
    }
}

/// The SQL of one index range: `conditions` and the keyset condition, in
/// order, `limit` rows. `$n` placeholders are numbered from `binds.len()`.
fn range_sql(
    list: &List,
    conditions: &[(String, Option<KeyValue>)],
    after: Option<&[KeyValue]>,
    limit: u32,
    binds: &mut Vec<KeyValue>,
) -> String {
    let mut clauses = Vec::new();
    for (sql, value) in conditions {
        match value {
            Some(value) => {
                binds.push(value.clone());
                clauses.push(sql.replace("$?", &format!("${}", binds.len())));
            }
            None => clauses.push(sql.clone()),
        }
    }
    let names: Vec<&str> = list.key.iter().map(|(name, _)| *name).collect();
    if let Some(key) = after {
        let mut marks = Vec::new();
        for value in key {
            binds.push(value.clone());
            marks.push(format!("${}", binds.len()));
        }
        clauses.push(format!(
            "({}) {} ({})",
            names.join(", "),
            if list.descending { "<" } else { ">" },
            marks.join(", ")
        ));
    }
    let direction = if list.descending { " DESC" } else { "" };
    let order: Vec<String> = names.iter().map(|n| format!("{n}{direction}")).collect();
    let filter = if clauses.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", clauses.join(" AND "))
    };
    format!(
        "SELECT {} FROM {}{filter} ORDER BY {} LIMIT {limit}",
        list.columns,
        list.table,
        order.join(", ")
    )
}

/// The statement of a page: one index range, or one per value of the
/// `any_of` condition, merged in order.
fn page_sql(
    list: &List,
    filter: &Filter,
    after: Option<&[KeyValue]>,
    limit: u32,
) -> (String, Vec<KeyValue>) {
    let mut binds = Vec::new();
    let Some((sql, values)) = &filter.any_of else {
        let one = range_sql(list, &filter.conditions, after, limit, &mut binds);
        return (one, binds);
    };
    let ranges: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let mut conditions = filter.conditions.clone();
            conditions.push((sql.to_string(), Some(value.clone())));
            let range = range_sql(list, &conditions, after, limit, &mut binds);
            format!("SELECT {} FROM ({range}) AS range{i}", list.columns)
        })
        .collect();
    let direction = if list.descending { " DESC" } else { "" };
    let order: Vec<String> = list
        .key
        .iter()
        .map(|(name, _)| format!("{name}{direction}"))
        .collect();
    let merged = format!(
        "{} ORDER BY {} LIMIT {limit}",
        ranges.join(" UNION ALL "),
        order.join(", ")
    );
    (merged, binds)
}

/// Reads one page of `list`: the rows `filter` admits after the window's
/// cursor, `convert`ed, and the cursor of the next page.
pub(crate) async fn page<T>(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    list: &List,
    filter: &Filter,
    window: Window<'_>,
    convert: impl Fn(&AnyRow) -> Result<T, StoreError>,
) -> Result<Page<T>, StoreError> {
    let after = key_of(list, window.after)?;
    let limit = window.limit.max(1);
    if filter
        .any_of
        .as_ref()
        .is_some_and(|(_, values)| values.is_empty())
    {
        return Ok(Page {
            items: Vec::new(),
            next: None,
        });
    }
    let (sql, binds) = page_sql(list, filter, after, limit + 1);
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
    for value in binds {
        query = match value {
            KeyValue::Int(n) => query.bind(n),
            KeyValue::Text(t) => query.bind(t),
        };
    }
    let mut rows = query.fetch_all(executor).await?;
    let more = rows.len() > limit as usize;
    rows.truncate(limit as usize);
    let next = match rows.last() {
        Some(last) if more => Some(Cursor {
            list: list.name.to_string(),
            key: key_values(last, list.key)?,
        }),
        _ => None,
    };
    let items = rows.iter().map(convert).collect::<Result<_, _>>()?;
    Ok(Page { items, next })
}

/// The values of `key`'s columns in `row`.
pub(crate) fn key_values(
    row: &AnyRow,
    key: &[(&'static str, Kind)],
) -> Result<Vec<KeyValue>, StoreError> {
    Ok(key
        .iter()
        .map(|(name, kind)| {
            Ok(match kind {
                Kind::Int => KeyValue::Int(row.try_get(*name)?),
                Kind::Text => KeyValue::Text(row.try_get(*name)?),
            })
        })
        .collect::<Result<_, sqlx::Error>>()?)
}

/// `result` with its refusal naming `field` (the filter's name).
pub(crate) fn renamed<T>(
    field: &'static str,
    result: Result<T, StoreError>,
) -> Result<T, StoreError> {
    result.map_err(|error| match error {
        StoreError::Invalid { reason, .. } => StoreError::Invalid { field, reason },
        other => other,
    })
}

/// `value` if it is one of `accepted`, else a refusal naming `field`.
pub(crate) fn one_of(
    field: &'static str,
    value: &str,
    accepted: &[&str],
) -> Result<KeyValue, StoreError> {
    let value = value.trim();
    if accepted.contains(&value) {
        Ok(text(value))
    } else {
        Err(StoreError::Invalid {
            field,
            reason: format!(
                "`{value}` não é aceito; os aceitos são: {}",
                accepted.join(", ")
            ),
        })
    }
}

/// The bounds of the days `from` to `to` (both included) as text to compare
/// with a column of days or moments (`AAAA-MM-DD[THH:MM:SS]`): `>= from`
/// and `<` the day after `to`.
pub(crate) fn day_range(
    from: Option<chrono::NaiveDate>,
    to: Option<chrono::NaiveDate>,
) -> Result<(Option<KeyValue>, Option<KeyValue>), StoreError> {
    if let (Some(from), Some(to)) = (from, to)
        && from > to
    {
        return Err(StoreError::Invalid {
            field: "ate",
            reason: format!("{to} é antes de {from} (de): troque as datas"),
        });
    }
    let after = to
        .map(|to| {
            to.succ_opt().ok_or_else(|| StoreError::Invalid {
                field: "ate",
                reason: format!("{to} não é uma data aceita"),
            })
        })
        .transpose()?;
    Ok((
        from.map(|d| text(d.to_string())),
        after.map(|d| text(d.to_string())),
    ))
}
