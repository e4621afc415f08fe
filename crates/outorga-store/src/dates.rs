//! Days, moments and months as the record keeps them (ISO text), read back: text
//! that does not read as one is a corrupt record.

use crate::StoreError;
use chrono::{NaiveDate, NaiveDateTime};

/// A day kept as `YYYY-MM-DD`.
pub(crate) fn day(text: &str) -> Result<NaiveDate, StoreError> {
    text.parse()
        .map_err(|_| StoreError::Corrupt(format!("`{text}` is not a date")))
}

/// A moment as the record keeps it, `YYYY-MM-DDTHH:MM:SS`.
pub(crate) fn moment_text(at: NaiveDateTime) -> String {
    at.format("%Y-%m-%dT%H:%M:%S").to_string()
}

/// A moment kept as `YYYY-MM-DDTHH:MM:SS`.
pub(crate) fn moment(text: &str) -> Result<NaiveDateTime, StoreError> {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S")
        .map_err(|_| StoreError::Corrupt(format!("`{text}` is not a date-time")))
}

/// The month a text names (`AAAA-MM`), as its first day.
pub fn parse_month(text: &str) -> Result<NaiveDate, StoreError> {
    NaiveDate::parse_from_str(&format!("{}-01", text.trim()), "%Y-%m-%d").map_err(|_| {
        StoreError::Invalid {
            field: "mês",
            reason: format!("`{text}`: escreva o mês como 2026-11"),
        }
    })
}

/// The first day of the month after the one beginning `first`.
pub(crate) fn month_end(first: NaiveDate) -> NaiveDate {
    first
        .checked_add_months(chrono::Months::new(1))
        .unwrap_or(NaiveDate::MAX)
}

/// The day in the column `name` of `row`, when there is one.
pub(crate) fn optional_day(
    row: &sqlx::any::AnyRow,
    name: &str,
) -> Result<Option<NaiveDate>, StoreError> {
    use sqlx::Row;
    let value: Option<String> = row.try_get(name)?;
    value.as_deref().map(day).transpose()
}
