//! Whether a vehicle may enter or replace another in service, and until when it
//! may serve.

use crate::context::{Context, EngineError};
use crate::engine::assessment::{Assessment, Outcome};
use crate::facts::Vehicle;
use crate::model::{PeriodicInspection, ReplaceBy, VehicleCheck};
use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;

/// Checks the rulebook's vehicle requirements (doors, capacity, equipment,
/// colour, insurance) on the facts of `vehicle`; a fact not given is unknown.
fn check_requirements<'r>(
    ctx: &Context<'r>,
    vehicle: &Vehicle,
    today: NaiveDate,
    answer: &mut Assessment<'r>,
) -> Result<(), EngineError> {
    for requirement in &ctx.rulebook.vehicles.requirements {
        let known = |value: Option<u32>, test: &dyn Fn(Decimal) -> bool| {
            Outcome::from_known(value.map(|v| test(Decimal::from(v))))
        };
        let outcome = match &requirement.check {
            VehicleCheck::Doors { min, max } => {
                let min = ctx.quantity(min, today)?;
                let max = max
                    .as_ref()
                    .map(|max| ctx.quantity(max, today))
                    .transpose()?;
                known(vehicle.doors, &|doors| {
                    doors >= min && max.is_none_or(|max| doors <= max)
                })
            }
            VehicleCheck::MaxCapacity(limit) => {
                let limit = ctx.quantity(limit, today)?;
                known(vehicle.capacity, &|capacity| capacity <= limit)
            }
            VehicleCheck::AirConditioning => Outcome::from_known(vehicle.air_conditioning),
            VehicleCheck::Colour(colour) => Outcome::from_known(
                vehicle
                    .colour
                    .as_ref()
                    .map(|c| c.trim().to_lowercase() == *colour),
            ),
            VehicleCheck::MinTrunkLitres(litres) => {
                let litres = ctx.quantity(litres, today)?;
                known(vehicle.trunk_litres, &|trunk| trunk >= litres)
            }
            VehicleCheck::Insured => Outcome::from_known(vehicle.insured),
            VehicleCheck::MinEngineCc(cc) => {
                let cc = ctx.quantity(cc, today)?;
                known(vehicle.engine_cc, &|engine| engine >= cc)
            }
            VehicleCheck::FourStroke => Outcome::from_known(vehicle.four_stroke),
            VehicleCheck::Category(any_of) => Outcome::from_known(
                vehicle
                    .category
                    .as_ref()
                    .map(|c| any_of.contains(&c.trim().to_lowercase())),
            ),
            VehicleCheck::Document(name) => {
                Outcome::from_known(vehicle.documents.as_ref().map(|d| d.contains(name)))
            }
            VehicleCheck::Equipment { all_of, any_of } => {
                Outcome::from_known(vehicle.equipment.as_ref().map(|fitted| {
                    all_of.iter().all(|item| fitted.contains(item))
                        && (any_of.is_empty() || any_of.iter().any(|item| fitted.contains(item)))
                }))
            }
        };
        answer.record(
            &requirement.id,
            &requirement.description,
            vec![&requirement.citation],
            outcome,
        );
    }
    Ok(())
}

/// A vehicle's age in the year of `on`: that year minus its year of manufacture.
pub fn vehicle_age(vehicle: &Vehicle, on: NaiveDate) -> Option<i32> {
    vehicle.manufactured.map(|year| on.year() - year)
}

fn at_most(age: Option<i32>, limit: Decimal) -> Outcome {
    match age {
        None => Outcome::Unknown,
        Some(age) if Decimal::from(age) <= limit => Outcome::Met,
        Some(_) => Outcome::Unmet,
    }
}

/// May `vehicle` enter the service?
pub fn inclusion<'r>(
    ctx: &Context<'r>,
    vehicle: &Vehicle,
    today: NaiveDate,
) -> Result<Assessment<'r>, EngineError> {
    let rule = ctx.rulebook.vehicles.inclusion.as_ref().ok_or_else(|| {
        EngineError::NotInRulebook("idade máxima para a inclusão de veículo".into())
    })?;
    let mut answer = Assessment::default();
    let limit = ctx.quantity(&rule.max_age, today)?;
    answer.record(
        "inclusion_max_age",
        "veículo incluído no sistema dentro da idade máxima",
        vec![&rule.citation],
        at_most(vehicle_age(vehicle, today), limit),
    );
    check_requirements(ctx, vehicle, today, &mut answer)?;
    Ok(answer)
}

/// May `substitute` replace `replaced`?
pub fn substitution<'r>(
    ctx: &Context<'r>,
    substitute: &Vehicle,
    replaced: &Vehicle,
    today: NaiveDate,
) -> Result<Assessment<'r>, EngineError> {
    let rules = &ctx.rulebook.vehicles.substitution;
    // A law that sets no rule of its own for a substitute admits it as it
    // admits any vehicle entering the service (Canguçu: art. 11 for every
    // vehicle in service; art. 36, XIII names the "processo de inclusão ou
    // substituição" together).
    if rules.is_empty() {
        return inclusion(ctx, substitute, today);
    }
    let mut answer = Assessment::default();
    check_requirements(ctx, substitute, today, &mut answer)?;
    let substitute_age = vehicle_age(substitute, today);
    let Some(replaced_age) = vehicle_age(replaced, today) else {
        for rule in rules {
            answer.record(
                "substitute_age",
                "idade do veículo substituto conforme a idade do substituído",
                vec![&rule.citation],
                Outcome::Unknown,
            );
        }
        return Ok(answer);
    };
    for rule in rules {
        let above_min = match &rule.replaced_min_age {
            Some(min) => Decimal::from(replaced_age) >= ctx.quantity(min, today)?,
            None => true,
        };
        let below_max = match &rule.replaced_max_age {
            Some(max) => Decimal::from(replaced_age) <= ctx.quantity(max, today)?,
            None => true,
        };
        if !(above_min && below_max) {
            continue;
        }
        let limit = ctx.quantity(&rule.max_age, today)?;
        answer.record(
            "substitute_max_age",
            "veículo substituto dentro da idade máxima",
            vec![&rule.citation],
            at_most(substitute_age, limit),
        );
        if let Some(newer) = &rule.min_years_newer {
            let newer = ctx.quantity(newer, today)?;
            let outcome = match substitute_age {
                None => Outcome::Unknown,
                Some(age) if Decimal::from(replaced_age - age) >= newer => Outcome::Met,
                Some(_) => Outcome::Unmet,
            };
            answer.record(
                "substitute_newer",
                "veículo substituto mais novo que o substituído no mínimo exigido",
                vec![&rule.citation],
                outcome,
            );
        }
    }
    Ok(answer)
}

/// When an inspection of `rule`'s kind is next due: `every` after the last one,
/// and not before the vehicle is old enough to need it (1 January of the year
/// its age passes `older_than`), moved to a business day. `None` when the rule
/// does not concern the vehicle; `Some(None)` when the facts do not tell.
fn periodic_inspection(
    ctx: &Context<'_>,
    rule: &PeriodicInspection,
    vehicle: &Vehicle,
    today: NaiveDate,
) -> Result<Option<Option<NaiveDate>>, EngineError> {
    if rule.only_aftermarket_adaptation
        && !(vehicle.adapted == Some(true) && vehicle.adaptation_original == Some(false))
    {
        return Ok(None);
    }
    let from_age = match &rule.older_than {
        None => None,
        Some(older_than) => {
            let Some(made) = vehicle.manufactured else {
                return Ok(Some(None));
            };
            let years = i32::try_from(ctx.whole(older_than, today, "anos")?).unwrap_or(i32::MAX);
            NaiveDate::from_ymd_opt(made.saturating_add(years).saturating_add(1), 1, 1)
        }
    };
    let last = vehicle
        .inspections
        .iter()
        .filter(|(kind, _)| *kind == rule.kind)
        .map(|&(_, date)| date)
        .max();
    let after_last = match last {
        Some(last) => Some(ctx.period_end(&rule.every, last)?),
        None => vehicle.included,
    };
    let due = match (after_last, from_age) {
        (Some(a), Some(b)) => Some(a.max(b)),
        (a, b) => a.or(b),
    };
    Ok(Some(due.map(|d| ctx.calendar.on_or_next_business_day(d))))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VehicleDeadlines<'r> {
    /// The last day the vehicle may serve.
    pub replace_by: Option<NaiveDate>,
    pub next_inspection: Option<NaiveDate>,
    /// Inspections of their own kinds that concern this vehicle, with the day
    /// each is due (unknown when the facts it rests on are not given).
    pub inspections: Vec<(&'r str, Option<NaiveDate>)>,
    pub citations: Vec<&'r str>,
}

/// `extended`: the authority granted the extension of the replacement deadline
/// the law allows (later replacement, closer inspections).
pub fn deadlines<'r>(
    ctx: &Context<'r>,
    vehicle: &Vehicle,
    today: NaiveDate,
    extended: bool,
) -> Result<VehicleDeadlines<'r>, EngineError> {
    let rules = &ctx.rulebook.vehicles;
    let mut answer = VehicleDeadlines {
        replace_by: None,
        next_inspection: None,
        inspections: Vec::new(),
        citations: Vec::new(),
    };
    let extension = rules
        .replacement
        .as_ref()
        .and_then(|rule| rule.extension.as_ref())
        .filter(|_| extended);
    if extended && extension.is_none() {
        return Err(EngineError::NotInRulebook(
            "a prorrogação do prazo de substituição do veículo".into(),
        ));
    }
    if let (Some(rule), Some(made)) = (&rules.replacement, vehicle.manufactured) {
        let mut at_age = ctx.whole(&rule.at_age, today, "anos")?;
        if let Some(extension) = extension {
            at_age += ctx.whole(&extension.years, today, "anos")?;
            answer.citations.push(&extension.citation);
        }
        let year = made.saturating_add(i32::try_from(at_age).unwrap_or(i32::MAX));
        answer.replace_by = match rule.by {
            ReplaceBy::EndOfYear => NaiveDate::from_ymd_opt(year, 12, 31),
            ReplaceBy::LastBusinessDayOfFebruaryNextYear => {
                ctx.calendar.last_business_day_of_month(year + 1, 2)
            }
        };
        answer.citations.push(&rule.citation);
    }
    if let (Some(rule), Some(made)) = (&rules.transition, vehicle.manufactured) {
        let in_force = ctx.rulebook.act.in_force;
        let over = ctx.quantity(&rule.over_age, in_force)?;
        if Decimal::from(in_force.year() - made) > over {
            let end = ctx
                .calendar
                .on_or_next_business_day(ctx.period_end(&rule.within, in_force)?);
            answer.replace_by = Some(answer.replace_by.map_or(end, |by| by.max(end)));
            answer.citations.push(&rule.citation);
        }
    }
    if let Some(rule) = &rules.inspection {
        if let Some(last) = vehicle.last_inspection.or(vehicle.included) {
            // The later interval applies once the vehicle has served `after`
            // since its inclusion (when the inclusion is known), or has
            // reached `from_age` by its year of manufacture.
            let mut every = &rule.every;
            if let Some(later) = &rule.then {
                let served = match vehicle.included {
                    Some(included) => last >= ctx.period_end(&later.after, included)?,
                    None => false,
                };
                let aged = match (later.from_age, vehicle.manufactured) {
                    (Some(age), Some(made)) => {
                        last.year() - made >= i32::try_from(age).unwrap_or(i32::MAX)
                    }
                    _ => false,
                };
                if served || aged {
                    every = &later.every;
                    answer.citations.push(&later.citation);
                }
            }
            if let Some(extension) = extension {
                every = &extension.inspect_every;
            }
            let due = ctx.period_end(every, last)?;
            answer.next_inspection = Some(ctx.calendar.on_or_next_business_day(due));
        }
        answer.citations.push(&rule.citation);
        answer
            .citations
            .extend(rule.see_also.iter().map(String::as_str));
    }
    for rule in &rules.inspections {
        if let Some(due) = periodic_inspection(ctx, rule, vehicle, today)? {
            answer.inspections.push((&rule.kind, due));
            answer.citations.push(&rule.citation);
        }
    }
    if answer.citations.is_empty() {
        return Err(EngineError::NotInRulebook("prazos de veículo".into()));
    }
    Ok(answer)
}
