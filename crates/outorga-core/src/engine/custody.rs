//! The custody of a vehicle held on the spot (retained or seized): what
//! must hold before it is released, each condition met or not with its
//! article, and which expenses its owner bears. Amapá: a retained bus goes
//! on once the irregularity is corrected (art. 69, parágrafo único); a
//! seized one is kept at least 72 hours (art. 64) and released once the
//! fines and the expenses are paid (art. 64, § 3º).

use crate::context::EngineError;
use crate::model::{CustodyRule, ExpenseKind, ReleaseCondition, SanctionKind};
use chrono::{NaiveDateTime, TimeDelta};
use rust_decimal::Decimal;

/// A vehicle held: the measure, since when, and its minimum time in hours
/// with the article that sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Held<'a> {
    pub kind: SanctionKind,
    pub since: NaiveDateTime,
    pub minimum: Option<(u32, &'a str)>,
}

/// What the record shows on the day of the release.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Standing {
    /// When the irregularity was corrected, if it was.
    pub corrected: Option<NaiveDateTime>,
    /// How many of the auto's fines are owed and not paid.
    pub fines_unpaid: usize,
    /// Whether a fine of the auto still awaits its decision.
    pub fine_pending: bool,
    /// The expenses recorded and not paid.
    pub expenses_unpaid: Vec<(ExpenseKind, Decimal)>,
}

/// What is checked before a release.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requirement {
    MinimumTime,
    Condition(ReleaseCondition),
}

/// One requirement of a release, met or not, told in Portuguese.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check<'a> {
    pub requirement: Requirement,
    pub met: bool,
    pub detail: String,
    pub citation: &'a str,
}

/// Whether every requirement is met.
pub fn releasable(checks: &[Check<'_>]) -> bool {
    checks.iter().all(|c| c.met)
}

fn brl(value: Decimal) -> String {
    crate::brl::money(&crate::context::round_brl(value).to_string())
}

/// The requirements of releasing `held` at `at`: its minimum time, and the
/// conditions of its custody rule (none: the minimum time alone).
pub fn release<'a>(
    rule: Option<&'a CustodyRule>,
    held: &Held<'a>,
    standing: &Standing,
    at: NaiveDateTime,
) -> Result<Vec<Check<'a>>, EngineError> {
    let mut checks = Vec::new();
    if let Some((hours, citation)) = held.minimum {
        let from = held
            .since
            .checked_add_signed(TimeDelta::hours(i64::from(hours)))
            .ok_or(EngineError::TooLarge)?;
        let from_text = from.format("%d/%m/%Y %H:%M");
        checks.push(Check {
            requirement: Requirement::MinimumTime,
            met: at >= from,
            detail: if at >= from {
                format!("o prazo mínimo de {hours} horas terminou em {from_text}")
            } else {
                format!("o prazo mínimo de {hours} horas só termina em {from_text}")
            },
            citation,
        });
    }
    for condition in rule.map_or(&[][..], |r| r.release.as_slice()) {
        let (met, detail) =
            match condition.value {
                ReleaseCondition::FaultCorrected => match standing.corrected {
                    Some(when) if when <= at => (
                        true,
                        format!(
                            "a irregularidade foi sanada em {}",
                            when.format("%d/%m/%Y %H:%M")
                        ),
                    ),
                    _ => (
                        false,
                        "a irregularidade que motivou a medida ainda não foi sanada".to_string(),
                    ),
                },
                ReleaseCondition::FinesPaid => {
                    match (standing.fines_unpaid, standing.fine_pending) {
                    (1, _) => (false, "falta pagar a multa deste auto".to_string()),
                    (n @ 2.., _) => (false, format!("falta pagar {n} multas deste auto")),
                    (0, true) => (
                        true,
                        "a multa deste auto ainda não foi aplicada: a defesa corre (art. 67) e não retém o veículo"
                            .to_string(),
                    ),
                    (0, false) => (true, "nenhuma multa deste auto está por pagar".to_string()),
                }
                }
                ReleaseCondition::ExpensesPaid => {
                    if standing.expenses_unpaid.is_empty() {
                        (true, "não há despesa a pagar".to_string())
                    } else {
                        let owed: Decimal = standing.expenses_unpaid.iter().map(|(_, v)| *v).sum();
                        let kinds: Vec<&str> = standing
                            .expenses_unpaid
                            .iter()
                            .map(|(k, _)| k.portuguese())
                            .collect();
                        (
                            false,
                            format!(
                                "falta pagar {} de despesas: {}",
                                brl(owed),
                                kinds.join("; ")
                            ),
                        )
                    }
                }
            };
        checks.push(Check {
            requirement: Requirement::Condition(condition.value),
            met,
            detail,
            citation: &condition.citation,
        });
    }
    Ok(checks)
}

/// The article that puts an expense on the owner of what `rule` holds; the
/// law's refusal, naming those it does, when it puts none of this kind.
pub fn expense(
    rule: Option<&CustodyRule>,
    kind: SanctionKind,
    expense: ExpenseKind,
) -> Result<&str, EngineError> {
    let expenses = rule.map_or(&[][..], |r| r.expenses.as_slice());
    expenses
        .iter()
        .find(|e| e.value == expense)
        .map(|e| e.citation.as_str())
        .ok_or_else(|| {
            let known: Vec<&str> = expenses.iter().map(|e| e.value.portuguese()).collect();
            EngineError::InvalidQuestion(if known.is_empty() {
                format!(
                    "a lei não põe despesas de custódia a cargo do dono na {}",
                    kind.portuguese()
                )
            } else {
                format!(
                    "a lei não põe \"{}\" a cargo do dono na {}: só {}",
                    expense.portuguese(),
                    kind.portuguese(),
                    known.join("; ")
                )
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cited;
    use chrono::NaiveDate;

    fn at(day: u32, hour: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 6, day)
            .and_then(|d| d.and_hms_opt(hour, 0, 0))
            .expect("moment")
    }

    fn seizure() -> CustodyRule {
        CustodyRule {
            kind: SanctionKind::VehicleSeizure,
            release: vec![
                Cited {
                    value: ReleaseCondition::FinesPaid,
                    citation: "Art. 64, § 3º".into(),
                },
                Cited {
                    value: ReleaseCondition::ExpensesPaid,
                    citation: "Art. 64, § 3º".into(),
                },
            ],
            expenses: vec![Cited {
                value: ExpenseKind::FoodLodging,
                citation: "Art. 64, § 2º".into(),
            }],
        }
    }

    fn held() -> Held<'static> {
        Held {
            kind: SanctionKind::VehicleSeizure,
            since: at(10, 14),
            minimum: Some((72, "Art. 64")),
        }
    }

    #[test]
    fn seventy_two_hours_are_counted_to_the_hour() {
        let rule = seizure();
        let before =
            release(Some(&rule), &held(), &Standing::default(), at(13, 13)).expect("an answer");
        assert!(!releasable(&before));
        assert_eq!(before[0].citation, "Art. 64");
        let on_time =
            release(Some(&rule), &held(), &Standing::default(), at(13, 14)).expect("an answer");
        assert!(releasable(&on_time), "{on_time:?}");
    }

    #[test]
    fn unpaid_fines_and_expenses_hold_the_bus() {
        let rule = seizure();
        let standing = Standing {
            fines_unpaid: 1,
            expenses_unpaid: vec![(ExpenseKind::FoodLodging, Decimal::new(35050, 2))],
            ..Standing::default()
        };
        let checks = release(Some(&rule), &held(), &standing, at(20, 9)).expect("an answer");
        let unmet: Vec<&str> = checks
            .iter()
            .filter(|c| !c.met)
            .map(|c| c.detail.as_str())
            .collect();
        assert_eq!(
            unmet,
            [
                "falta pagar a multa deste auto",
                "falta pagar R$ 350,50 de despesas: alimentação e pousada dos passageiros"
            ]
        );
    }

    #[test]
    fn a_fine_under_defense_does_not_hold_the_bus() {
        let rule = seizure();
        let standing = Standing {
            fine_pending: true,
            ..Standing::default()
        };
        let checks = release(Some(&rule), &held(), &standing, at(20, 9)).expect("an answer");
        assert!(releasable(&checks));
    }

    #[test]
    fn a_retention_waits_for_the_correction_only() {
        let rule = CustodyRule {
            kind: SanctionKind::VehicleRetention,
            release: vec![Cited {
                value: ReleaseCondition::FaultCorrected,
                citation: "Art. 69, Parágrafo único".into(),
            }],
            expenses: vec![],
        };
        let held = Held {
            kind: SanctionKind::VehicleRetention,
            since: at(10, 14),
            minimum: None,
        };
        let open =
            release(Some(&rule), &held, &Standing::default(), at(10, 15)).expect("an answer");
        assert!(!releasable(&open));
        let corrected = Standing {
            corrected: Some(at(10, 15)),
            ..Standing::default()
        };
        assert!(releasable(
            &release(Some(&rule), &held, &corrected, at(10, 15)).expect("an answer")
        ));
        // Corrected after the moment asked: not yet.
        assert!(!releasable(
            &release(Some(&rule), &held, &corrected, at(10, 14)).expect("an answer")
        ));
        assert!(expense(Some(&rule), rule.kind, ExpenseKind::FoodLodging).is_err());
    }

    #[test]
    fn only_the_laws_expenses_are_charged() {
        let rule = seizure();
        assert_eq!(
            expense(Some(&rule), rule.kind, ExpenseKind::FoodLodging).expect("an answer"),
            "Art. 64, § 2º"
        );
        let refused =
            expense(Some(&rule), rule.kind, ExpenseKind::RemovalStorage).expect_err("a refusal");
        assert!(
            refused.to_string().contains("alimentação e pousada"),
            "{refused}"
        );
    }
}
