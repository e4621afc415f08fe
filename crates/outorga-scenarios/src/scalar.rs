//! Scalars of the scenario format: dates, date-times, exact decimals and `null`.
//!
//! Every YAML scalar reaches serde as text (marked_yaml keeps them as written),
//! so decimals stay exact: `"0.25"` and `0.25` read the same.

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;
use serde::Deserialize;
use serde::de::{self, Deserializer};
use std::str::FromStr;

pub fn is_null(text: &str) -> bool {
    matches!(text.trim(), "" | "~" | "null" | "Null" | "NULL")
}

/// `YYYY-MM-DD`
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Date(pub NaiveDate);

impl FromStr for Date {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        NaiveDate::parse_from_str(text.trim(), "%Y-%m-%d")
            .map(Date)
            .map_err(|_| format!("`{text}` is not a date; write YYYY-MM-DD"))
    }
}

/// `YYYY-MM-DDTHH:MM` (seconds optional), local time of the jurisdiction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DateTime(pub NaiveDateTime);

impl FromStr for DateTime {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]
            .iter()
            .find_map(|format| NaiveDateTime::parse_from_str(text, format).ok())
            .map(DateTime)
            .ok_or_else(|| format!("`{text}` is not a date-time; write YYYY-MM-DDTHH:MM"))
    }
}

/// An exact decimal, written as a number or a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dec(pub Decimal);

impl FromStr for Dec {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        Decimal::from_str(text)
            .or_else(|_| Decimal::from_scientific(text))
            .map(Dec)
            .map_err(|_| format!("`{text}` is not a decimal number"))
    }
}

/// A whole, non-negative number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Whole(pub u32);

impl FromStr for Whole {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        text.trim()
            .parse()
            .map(Whole)
            .map_err(|_| format!("`{text}` is not a whole number"))
    }
}

/// A value that may be written `null` (known to be absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nullable<T> {
    Null,
    Value(T),
}

impl<T> Nullable<T> {
    pub fn into_option(self) -> Option<T> {
        match self {
            Nullable::Null => None,
            Nullable::Value(v) => Some(v),
        }
    }
}

macro_rules! from_text {
    ($($ty:ty),*) => {$(
        impl<'de> Deserialize<'de> for $ty {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                text.parse().map_err(de::Error::custom)
            }
        }
        impl<'de> Deserialize<'de> for Nullable<$ty> {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = String::deserialize(deserializer)?;
                if is_null(&text) {
                    Ok(Nullable::Null)
                } else {
                    text.parse().map(Nullable::Value).map_err(de::Error::custom)
                }
            }
        }
    )*};
}

from_text!(Date, DateTime, Dec, Whole);
