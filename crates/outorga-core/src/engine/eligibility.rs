//! Whether a person may hold a permit or drive under one.

use crate::calendar::{add_months, age_in_years};
use crate::context::{Context, EngineError};
use crate::engine::assessment::{Assessment, Outcome};
use crate::engine::cap::permit_cap;
use crate::engine::interdependence;
use crate::facts::{Facts, PermitId, Person, PersonId, PersonKind};
use crate::model::{Applicant, Check, Requirement, Service};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// What is asked: as holder or driver; `under`, the permit a driver asks to
/// drive under, and `line`, the bus line a carrier asks for, when named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request<'q> {
    pub applicant: Applicant,
    pub under: Option<PermitId>,
    pub line: Option<&'q str>,
}

pub fn eligibility<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    person: PersonId,
    Request {
        applicant,
        under,
        line,
    }: Request<'_>,
    service: Service,
    today: NaiveDate,
) -> Result<Assessment<'r>, EngineError> {
    if !ctx.rulebook.services.contains(&service) {
        return Err(EngineError::NotInRulebook(format!(
            "o serviço `{}`",
            service.name()
        )));
    }
    let mut answer = Assessment::default();
    let company = facts.person(person).kind == PersonKind::Company;
    for requirement in ctx
        .rulebook
        .requirements
        .iter()
        .filter(|r| r.applicants.contains(&applicant))
        .filter(|r| {
            if company {
                !of_natural_persons(&r.check)
            } else {
                !of_companies(&r.check)
            }
        })
    {
        let outcome = check(
            ctx,
            facts,
            (person, under, line),
            requirement,
            service,
            today,
        )?;
        let cited = std::iter::once(&requirement.citation)
            .chain(&requirement.see_also)
            .map(String::as_str)
            .collect();
        answer.record(&requirement.id, &requirement.description, cited, outcome);
    }
    Ok(answer)
}

/// Whether a check concerns only natural persons (age, licence, residence,
/// record, public office, one permit each): a company is not judged by it.
fn of_natural_persons(check: &Check) -> bool {
    !matches!(
        check,
        Check::NaturalPerson
            | Check::NotTransportOperator
            | Check::Document(_)
            | Check::NoInterdependence { .. }
            | Check::WaitingPeriod { .. }
            | Check::NoOverdueDebts
            | Check::CompanyPermits(_)
            | Check::CompanyShare(_)
    )
}

/// Whether a check concerns only companies.
fn of_companies(check: &Check) -> bool {
    matches!(check, Check::CompanyPermits(_) | Check::CompanyShare(_))
}

/// `years` whole years after `date`, date to date.
fn years_after(
    ctx: &Context<'_>,
    date: NaiveDate,
    years: Decimal,
) -> Result<NaiveDate, EngineError> {
    let years = ctx.whole(&years.into(), date, "anos")?;
    Ok(add_months(date, years.saturating_mul(12)))
}

fn check(
    ctx: &Context<'_>,
    facts: &Facts,
    (person_id, under, line): (PersonId, Option<PermitId>, Option<&str>),
    requirement: &Requirement,
    service: Service,
    today: NaiveDate,
) -> Result<Outcome, EngineError> {
    let person: &Person = facts.person(person_id);
    let license = person.license.as_ref();
    Ok(match &requirement.check {
        Check::NaturalPerson => Outcome::from_known(Some(person.kind == PersonKind::Person)),
        Check::LicenseCategory {
            any_of,
            paid_activity_for,
        } => {
            let Some(categories) = license.and_then(|l| l.categories.as_ref()) else {
                return Ok(Outcome::Unknown);
            };
            let paid = license.and_then(|l| l.paid_activity);
            let outcomes = categories.iter().filter(|c| any_of.contains(c)).map(|c| {
                if paid_activity_for.contains(c) {
                    Outcome::from_known(paid)
                } else {
                    Outcome::Met
                }
            });
            best(outcomes)
        }
        Check::LicenseValid => Outcome::from_known(
            license
                .and_then(|l| l.expires)
                .map(|expires| expires >= today),
        ),
        Check::LicenseNotSuspended => Outcome::from_known(
            license
                .and_then(|l| l.suspended_until)
                .map(|until| until.is_none_or(|until| until < today)),
        ),
        Check::NoSuspensionWithin(period) => match license.and_then(|l| l.suspended_until) {
            None => Outcome::Unknown,
            Some(None) => Outcome::Met,
            Some(Some(ended)) => Outcome::from_known(Some(ctx.period_end(period, ended)? < today)),
        },
        Check::LicenseYears(years) => match license.and_then(|l| l.first_issued) {
            None => Outcome::Unknown,
            Some(first) => Outcome::from_known(Some(
                years_after(ctx, first, ctx.quantity(years, today)?)? <= today,
            )),
        },
        Check::ResidentYears(years) => match person.resident_since {
            None => Outcome::Unknown,
            Some(since) => Outcome::from_known(Some(
                years_after(ctx, since, ctx.quantity(years, today)?)? <= today,
            )),
        },
        Check::MinAge(age) => {
            let min = ctx.quantity(age, today)?;
            Outcome::from_known(
                person
                    .birth_date
                    .map(|born| Decimal::from(age_in_years(born, today)) >= min),
            )
        }
        Check::UnderAge(age) => {
            let limit = ctx.quantity(age, today)?;
            Outcome::from_known(
                person
                    .birth_date
                    .map(|born| Decimal::from(age_in_years(born, today)) < limit),
            )
        }
        Check::MinEducation(min) => Outcome::from_known(person.education.map(|e| e >= *min)),
        Check::NotPublicEmployee => Outcome::from_known(person.public_employee.map(|p| !p)),
        Check::NotTransportOperator => Outcome::from_known(person.transport_operator.map(|p| !p)),
        Check::NoInterdependence { percent } => match line {
            None => Outcome::Unknown,
            Some(line) => {
                interdependence::check(facts, person_id, line, ctx.quantity(percent, today)?)
            }
        },
        Check::Document(name) => {
            Outcome::from_known(person.documents.as_ref().map(|d| d.contains(name)))
        }
        Check::NoFinalConviction => match &person.convictions {
            None => Outcome::Unknown,
            Some(convictions) if convictions.iter().any(|c| c.is_final) => Outcome::Unmet,
            Some(convictions) if convictions.is_empty() => Outcome::Met,
            Some(_) => Outcome::Unknown,
        },
        Check::NoOtherPermit => Outcome::from_known(Some(!facts.holds_a_permit(person_id))),
        Check::CompanyPermits(max) => {
            let max = ctx.quantity(max, today)?;
            Outcome::from_known(Some(
                Decimal::from(facts.permits_held(person_id) as u64) < max,
            ))
        }
        Check::CompanyShare(percent) => {
            // The permits the department delegates are the cap of the service;
            // with one more, companies' permits may not exceed the percentage.
            let percent = ctx.quantity(percent, today)?;
            let of_service = facts.permits().iter().filter(|p| p.service == service);
            let current = of_service.clone().count() as u64;
            let held_by_companies = of_service
                .filter(|p| facts.person(p.holder).kind == PersonKind::Company)
                .count() as u64;
            let cap = permit_cap(ctx, service, current, today)?.max_permits;
            let share = Decimal::from(held_by_companies + 1) * Decimal::ONE_HUNDRED;
            Outcome::from_known(Some(share <= percent * Decimal::from(cap)))
        }
        Check::NoOverdueDebts => Outcome::from_known(person.overdue_debts.map(|owes| !owes)),
        Check::PrepostoGrounds { vacation_days } => match under {
            None => Outcome::Unknown,
            Some(permit) => {
                let holder = facts.person(facts.permit(permit).holder);
                if holder.kind == PersonKind::Company {
                    Outcome::Met
                } else {
                    let limit = ctx.quantity(vacation_days, today)?;
                    let on_vacation = holder
                        .vacation_days
                        .map(|days| days > 0 && Decimal::from(days) <= limit);
                    match (holder.sick_leave, on_vacation) {
                        (Some(true), _) | (_, Some(true)) => Outcome::Met,
                        (Some(false), Some(false)) => Outcome::Unmet,
                        _ => Outcome::Unknown,
                    }
                }
            }
        },
        Check::DriversPerPermit {
            max,
            companies_only,
        } => match under {
            None => Outcome::Unknown,
            Some(permit) => {
                let holder = facts.permit(permit).holder;
                if *companies_only && !facts.is_company(holder) {
                    Outcome::Met
                } else {
                    let max = ctx.quantity(max, today)?;
                    let held = facts.permits().iter().filter(|p| p.holder == holder);
                    let permits = held.clone().count() as u64;
                    let mut drivers: Vec<PersonId> = held
                        .flat_map(|p| p.drivers.iter().copied())
                        .filter(|d| *d != person_id)
                        .collect();
                    drivers.sort_unstable();
                    drivers.dedup();
                    let with_this = Decimal::from(drivers.len() as u64 + 1);
                    Outcome::from_known(Some(with_this <= max * Decimal::from(permits)))
                }
            }
        },
        Check::WaitingPeriod { after, period } => match &person.past_permits {
            None => Outcome::Unknown,
            Some(past) => {
                let mut barred = false;
                for ended in past.iter().filter(|p| p.how == *after) {
                    barred |= today <= ctx.period_end(period, ended.ended)?;
                }
                Outcome::from_known(Some(!barred))
            }
        },
    })
}

/// Met if any is met, else unknown if any is unknown, else unmet.
fn best(outcomes: impl Iterator<Item = Outcome>) -> Outcome {
    let mut result = Outcome::Unmet;
    for outcome in outcomes {
        match outcome {
            Outcome::Met => return Outcome::Met,
            Outcome::Unknown => result = Outcome::Unknown,
            Outcome::Unmet => {}
        }
    }
    result
}
