//! Days and moments as the record keeps them (ISO text), read back: text
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
