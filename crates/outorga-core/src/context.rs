//! A rulebook together with the deployment's (or a scenario's) parameter
//! overrides and the business-day calendar they make.

use crate::calendar::{self, Calendar};
use crate::engine::points::PointsTable;
use crate::model::{Period, Quantity, Rulebook, value_on};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use std::collections::BTreeMap;

/// Values that replace the rulebook's for every date.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// Named parameters (`population`, `tariff.bandeirada`, …).
    pub values: BTreeMap<String, Decimal>,
    /// BRL value of fiscal units.
    pub units: BTreeMap<String, Decimal>,
    /// Extra non-business dates.
    pub holidays: Vec<NaiveDate>,
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    #[error("parameter `{name}` has no value on {on}; give it in the rulebook or as a parameter")]
    MissingParameter { name: String, on: NaiveDate },
    #[error("parameter `{name}` must be a whole number of {what}, got {value}")]
    NotWhole {
        name: String,
        what: &'static str,
        value: Decimal,
    },
    #[error("{0} is not in this rulebook")]
    NotInRulebook(String),
    #[error("{0}")]
    InvalidQuestion(String),
}

#[derive(Debug, Clone)]
pub struct Context<'r> {
    pub rulebook: &'r Rulebook,
    pub overrides: Overrides,
    pub calendar: Calendar,
    pub points: PointsTable,
}

impl<'r> Context<'r> {
    pub fn new(rulebook: &'r Rulebook, overrides: Overrides) -> Self {
        let calendar = Calendar::new(&rulebook.holidays, overrides.holidays.iter().copied());
        Self {
            rulebook,
            overrides,
            calendar,
            points: PointsTable::new(rulebook),
        }
    }

    /// The value of a named parameter on a date.
    pub fn parameter(&self, name: &str, on: NaiveDate) -> Result<Decimal, EngineError> {
        if let Some(value) = self.overrides.values.get(name) {
            return Ok(*value);
        }
        self.rulebook
            .parameters
            .get(name)
            .and_then(|p| value_on(&p.values, on))
            .copied()
            .ok_or_else(|| EngineError::MissingParameter {
                name: name.to_string(),
                on,
            })
    }

    pub fn quantity(&self, quantity: &Quantity, on: NaiveDate) -> Result<Decimal, EngineError> {
        match quantity {
            Quantity::Fixed(value) => Ok(*value),
            Quantity::Param(name) => self.parameter(name, on),
        }
    }

    /// A quantity that must be a whole, non-negative number (days, months, years).
    pub fn whole(
        &self,
        quantity: &Quantity,
        on: NaiveDate,
        what: &'static str,
    ) -> Result<u32, EngineError> {
        let value = self.quantity(quantity, on)?;
        if value.fract().is_zero()
            && let Some(whole) = value.to_u32()
        {
            return Ok(whole);
        }
        Err(EngineError::NotWhole {
            name: match quantity {
                Quantity::Param(name) => name.clone(),
                Quantity::Fixed(_) => "(literal)".to_string(),
            },
            what,
            value,
        })
    }

    /// The earliest date still inside a window of `period` that ends on `end`.
    pub fn window_start(&self, period: &Period, end: NaiveDate) -> Result<NaiveDate, EngineError> {
        Ok(match period {
            Period::Days(days) => {
                calendar::sub_days(end, u64::from(self.whole(days, end, "days")?))
            }
            Period::Months(months) => calendar::sub_months(end, self.whole(months, end, "months")?),
        })
    }

    /// The last date of a period that starts after `start`, date to date.
    pub fn period_end(&self, period: &Period, start: NaiveDate) -> Result<NaiveDate, EngineError> {
        Ok(match period {
            Period::Days(days) => {
                calendar::add_days(start, i64::from(self.whole(days, start, "days")?))
            }
            Period::Months(months) => {
                calendar::add_months(start, self.whole(months, start, "months")?)
            }
        })
    }

    /// BRL value of one fiscal unit on a date, when known.
    pub fn unit_value(&self, unit: &str, on: NaiveDate) -> Option<Decimal> {
        if unit == "BRL" {
            return Some(Decimal::ONE);
        }
        if let Some(value) = self.overrides.units.get(unit) {
            return Some(*value);
        }
        self.rulebook
            .units
            .get(unit)
            .and_then(|u| value_on(&u.values, on))
            .copied()
    }
}

/// Rounds a BRL amount half-up to the centavo (done once, at the final step).
pub fn round_brl(value: Decimal) -> Decimal {
    value.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
}
