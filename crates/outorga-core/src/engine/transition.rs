//! What the law's transitional rules (its final articles) say of a permit
//! that existed before it, as a department's records bring it in: the
//! validity the law gives it, the duties and time limits it sets on the
//! holder and the vehicle, each with its article. A rule that needs what
//! the record does not say refuses, naming the article.

use crate::engine::process::Refusal;
use crate::model::{Rulebook, TransitionalRule, Within};
use chrono::{Datelike, Months, NaiveDate};

/// A permit as the department's record has it.
#[derive(Debug, Clone, Copy)]
pub struct Existing {
    pub granted_on: NaiveDate,
    /// The validity the record gives it, if any.
    pub expires_on: Option<NaiveDate>,
    /// Whether it is in force (granted, suspended or in reserve).
    pub in_force: bool,
    /// The year of manufacture of the vehicle serving it.
    pub vehicle_manufactured: Option<i32>,
}

/// A duty or time limit a transitional rule sets, in Portuguese.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub text: String,
    pub until: Option<NaiveDate>,
    pub citation: String,
}

/// What the transitional rules give an existing permit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Reading {
    /// The validity the law gives it (replacing the record's), with the
    /// article.
    pub expires_on: Option<(NaiveDate, String)>,
    pub notes: Vec<Note>,
}

fn plus_months(day: NaiveDate, months: u32) -> NaiveDate {
    day.checked_add_months(Months::new(months))
        .unwrap_or(NaiveDate::MAX)
}

fn within(day: NaiveDate, limit: Within) -> NaiveDate {
    match limit {
        Within::Days(n) => day
            .checked_add_days(chrono::Days::new(u64::from(n)))
            .unwrap_or(NaiveDate::MAX),
        Within::Months(n) => plus_months(day, n),
    }
}

fn br(day: NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

/// The transitional rules of `rulebook` applied to `permit`: only a permit
/// in force that was granted on or before a rule's day is under it.
pub fn existing_permit(rulebook: &Rulebook, permit: &Existing) -> Result<Reading, Refusal> {
    let mut reading = Reading::default();
    for t in &rulebook.transitional {
        let before = permit.in_force && permit.granted_on <= t.on;
        match &t.rule {
            TransitionalRule::PermitValidity { years } if before => {
                let end = plus_months(t.on, years.saturating_mul(12));
                reading.expires_on = Some((end, t.citation.clone()));
            }
            TransitionalRule::PermitTermKept if before => {
                let Some(end) = permit.expires_on else {
                    return Err(Refusal {
                        reason: format!(
                            "a permissão vigente em {} é mantida pelo prazo do contrato: informe a \
                             validade prevista nele",
                            br(t.on)
                        ),
                        citations: vec![t.citation.clone()],
                    });
                };
                reading.notes.push(Note {
                    text: format!(
                        "mantida até {}, o prazo do contrato, vedada a prorrogação",
                        br(end)
                    ),
                    until: Some(end),
                    citation: t.citation.clone(),
                });
            }
            TransitionalRule::VehicleReplacement {
                older_than_years,
                within_months,
                replacement_max_years,
            } if before => {
                let Some(year) = permit.vehicle_manufactured else {
                    continue;
                };
                let age = t.on.year() - year;
                if age > i32::try_from(*older_than_years).unwrap_or(i32::MAX) {
                    let until = plus_months(t.on, *within_months);
                    reading.notes.push(Note {
                        text: format!(
                            "o veículo, fabricado em {year}, tinha mais de {older_than_years} anos \
                             em {}: deve ser substituído até {} por um de no máximo \
                             {replacement_max_years} anos de fabricação",
                            br(t.on),
                            br(until)
                        ),
                        until: Some(until),
                        citation: t.citation.clone(),
                    });
                }
            }
            TransitionalRule::HolderDuty {
                within: limit,
                duty,
            } if before => {
                let until = within(t.on, *limit);
                reading.notes.push(Note {
                    text: format!("o titular deve {duty} até {}", br(until)),
                    until: Some(until),
                    citation: t.citation.clone(),
                });
            }
            _ => {}
        }
    }
    Ok(reading)
}

/// The rule that keeps on the record the points and penalties imposed
/// before the law (its article), if the law has one.
pub fn record_kept(rulebook: &Rulebook) -> Option<&str> {
    rulebook
        .transitional
        .iter()
        .find_map(|t| matches!(t.rule, TransitionalRule::RecordKept).then_some(t.citation.as_str()))
}
