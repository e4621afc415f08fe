//! A rulebook together with the deployment's (or a scenario's) parameter
//! overrides and the business-day calendar they make.

use crate::calendar::{self, Calendar};
use crate::model::{Dated, ParamId, Period, Quantity, Rulebook, dated_on, value_on};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::collections::BTreeMap;

/// Values that replace the rulebook's, each from its day.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// Named parameters (`population`, `tariff.bandeirada`, …), each from
    /// its day with the act that set it (a scenario's from the earliest
    /// day; a deployment's as its acts set them): on a day one of these is
    /// in force, it is the value; before the first, the rulebook's.
    pub values: BTreeMap<String, Vec<Dated<Decimal>>>,
    /// BRL value of fiscal units, each from its day (a scenario's from the
    /// earliest day; a deployment's as its acts set them): on a day one of
    /// these is in force, it is the value; before the first, the rulebook's.
    pub units: BTreeMap<String, Vec<Dated<Decimal>>>,
    /// Extra non-business dates.
    pub holidays: Vec<NaiveDate>,
}

/// Why the engine could not answer, in Portuguese: these messages reach
/// the API's users (through the store) and the scenario runner's output.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    #[error(
        "o parâmetro `{name}` não tem valor em {on}: defina-o no regulamento ou nos parâmetros da implantação"
    )]
    MissingParameter { name: String, on: NaiveDate },
    /// `name`: the number, as a sentence names it ("o parâmetro
    /// `cure_days`"); `what`: the unit it counts, in Portuguese (`dias`…).
    #[error("{name} deve ser um número inteiro de {what}, mas vale {value}")]
    NotWhole {
        name: String,
        what: &'static str,
        value: Decimal,
    },
    #[error(
        "um número desta pergunta é grande demais para ser calculado com exatidão: confira os valores, as unidades e os parâmetros"
    )]
    TooLarge,
    /// What the rulebook lacks, in Portuguese with its article ("a
    /// suspensão a pedido").
    #[error("o regulamento não prevê {0}")]
    NotInRulebook(String),
    /// What is wrong with the question and how to put it, in Portuguese.
    #[error("{0}")]
    InvalidQuestion(String),
    /// A day before the law's first version.
    #[error(transparent)]
    BeforeTheLaw(#[from] crate::model::BeforeTheLaw),
}

impl Overrides {
    /// `name` worth `value` on every day (a scenario's parameter).
    pub fn set(&mut self, name: impl Into<String>, value: Decimal) {
        self.values.insert(
            name.into(),
            vec![Dated {
                from: NaiveDate::MIN,
                value,
                source: None,
            }],
        );
    }

    /// The value of `name` in force on `on`, with its day and act.
    pub fn in_force(&self, name: &str, on: NaiveDate) -> Option<&Dated<Decimal>> {
        self.values.get(name).and_then(|v| dated_on(v, on))
    }
}

/// A deployment's value a decision used instead of the rulebook's: the
/// parameter, its value, the day it is in force from and the act.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Applied {
    pub name: String,
    pub from: NaiveDate,
    pub value: Decimal,
    pub act: Option<String>,
}

#[derive(Debug)]
pub struct Context<'r> {
    pub rulebook: &'r Rulebook,
    pub overrides: Overrides,
    pub calendar: Calendar,
    /// Per parameter: its value when the same on every date (undated in
    /// the rulebook, not overridden), so most lookups are an index.
    constant: Vec<Option<Decimal>>,
    /// The overrides the answers asked so far used (`applied`).
    used: std::sync::Mutex<std::collections::BTreeSet<Applied>>,
}

impl Clone for Context<'_> {
    fn clone(&self) -> Self {
        Context {
            rulebook: self.rulebook,
            overrides: self.overrides.clone(),
            calendar: self.calendar.clone(),
            constant: self.constant.clone(),
            used: std::sync::Mutex::new(self.applied().into_iter().collect()),
        }
    }
}

impl<'r> Context<'r> {
    pub fn new(rulebook: &'r Rulebook, overrides: Overrides) -> Self {
        let calendar = Calendar::new(&rulebook.holidays, overrides.holidays.iter().copied());
        let constant = rulebook
            .parameters
            .iter()
            .map(
                |p| match (overrides.values.contains_key(&p.name), p.values.as_slice()) {
                    (false, [only]) if only.from == NaiveDate::MIN => Some(only.value),
                    _ => None,
                },
            )
            .collect();
        Self {
            rulebook,
            overrides,
            calendar,
            constant,
            used: std::sync::Mutex::default(),
        }
    }

    /// The deployment's values the answers asked of this context used, each
    /// once, by name: what a decision records it was decided with.
    pub fn applied(&self) -> Vec<Applied> {
        self.used
            .lock()
            .map(|used| used.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The override of `name` in force on `on`, noted as used.
    fn overridden(&self, name: &str, on: NaiveDate) -> Option<Decimal> {
        let dated = self.overrides.in_force(name, on)?;
        if let Ok(mut used) = self.used.lock() {
            used.insert(Applied {
                name: name.to_string(),
                from: dated.from,
                value: dated.value,
                act: dated.source.clone(),
            });
        }
        Some(dated.value)
    }

    /// The value of a named parameter on a date (an override may name a
    /// parameter the rulebook does not declare, such as a tariff value).
    pub fn parameter(&self, name: &str, on: NaiveDate) -> Result<Decimal, EngineError> {
        if let Some(value) = self.overridden(name, on) {
            return Ok(value);
        }
        match self.rulebook.parameter_id(name) {
            Some(id) => self.value(id, on),
            None => Err(EngineError::MissingParameter {
                name: name.to_string(),
                on,
            }),
        }
    }

    fn value(&self, id: ParamId, on: NaiveDate) -> Result<Decimal, EngineError> {
        if let Some(Some(value)) = self.constant.get(id.0 as usize) {
            return Ok(*value);
        }
        let parameter = self.rulebook.parameter(id);
        if let Some(value) = self.overridden(&parameter.name, on) {
            return Ok(value);
        }
        value_on(&parameter.values, on)
            .copied()
            .ok_or_else(|| EngineError::MissingParameter {
                name: parameter.name.clone(),
                on,
            })
    }

    pub fn quantity(&self, quantity: &Quantity, on: NaiveDate) -> Result<Decimal, EngineError> {
        match quantity {
            Quantity::Fixed(value) => Ok(*value),
            Quantity::Param(id) => self.value(*id, on),
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
        if let Some(whole) = whole_u32(value) {
            return Ok(whole);
        }
        Err(EngineError::NotWhole {
            name: match quantity {
                Quantity::Param(id) => {
                    format!("o parâmetro `{}`", self.rulebook.parameter(*id).name)
                }
                Quantity::Fixed(_) => "o número fixado no regulamento".to_string(),
            },
            what,
            value,
        })
    }

    /// The earliest date still inside a window of `period` that ends on `end`.
    pub fn window_start(&self, period: &Period, end: NaiveDate) -> Result<NaiveDate, EngineError> {
        Ok(match period {
            Period::Days(days) => {
                calendar::sub_days(end, u64::from(self.whole(days, end, "dias")?))
            }
            Period::Months(months) => calendar::sub_months(end, self.whole(months, end, "meses")?),
        })
    }

    /// The last date of a period that starts after `start`, date to date.
    pub fn period_end(&self, period: &Period, start: NaiveDate) -> Result<NaiveDate, EngineError> {
        Ok(match period {
            Period::Days(days) => {
                calendar::add_days(start, i64::from(self.whole(days, start, "dias")?))
            }
            Period::Months(months) => {
                calendar::add_months(start, self.whole(months, start, "meses")?)
            }
        })
    }

    /// BRL value of one fiscal unit on a date, when known: the deployment's
    /// (or a scenario's) value in force that day, else the rulebook's.
    pub fn unit_value(&self, unit: &str, on: NaiveDate) -> Option<Decimal> {
        if unit == "BRL" {
            return Some(Decimal::ONE);
        }
        self.unit_in_force(unit, on).map(|dated| dated.value)
    }

    /// The value of a fiscal unit in force on a date, with the day it
    /// started and its source (the act).
    pub fn unit_in_force(&self, unit: &str, on: NaiveDate) -> Option<&Dated<Decimal>> {
        self.overrides
            .units
            .get(unit)
            .and_then(|v| dated_on(v, on))
            .or_else(|| {
                self.rulebook
                    .units
                    .get(unit)
                    .and_then(|u| dated_on(&u.values, on))
            })
    }
}

/// The result of a checked operation, or [`EngineError::TooLarge`].
pub fn exact(value: Option<Decimal>) -> Result<Decimal, EngineError> {
    value.ok_or(EngineError::TooLarge)
}

/// `value` as a whole number, when it is one and fits (cheaper than going
/// through `fract` and `to_u32`, which matters on the hot path of a decision).
pub fn whole_u32(value: Decimal) -> Option<u32> {
    if value.is_sign_negative() && !value.is_zero() {
        return None;
    }
    let mantissa = value.mantissa();
    let whole = match value.scale() {
        0 => mantissa,
        scale => {
            let unit = 10i128.checked_pow(scale)?;
            if mantissa % unit != 0 {
                return None;
            }
            mantissa / unit
        }
    };
    u32::try_from(whole).ok()
}

/// Rounds a BRL amount half-up to the centavo (done once, at the final step).
pub fn round_brl(value: Decimal) -> Decimal {
    let mut cents =
        value.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    // Always two places, as reais are written ("200.00", not "200.0").
    cents.rescale(2);
    cents
}

#[cfg(test)]
mod tests {
    use super::whole_u32;
    use rust_decimal::Decimal;
    use std::str::FromStr;

    #[test]
    fn whole_numbers_only() {
        let d = |s: &str| Decimal::from_str(s).expect("decimal");
        assert_eq!(whole_u32(d("12")), Some(12));
        assert_eq!(whole_u32(d("12.000")), Some(12));
        assert_eq!(whole_u32(d("0")), Some(0));
        assert_eq!(whole_u32(d("12.5")), None);
        assert_eq!(whole_u32(d("-3")), None);
        assert_eq!(whole_u32(d("4294967296")), None);
    }
}
