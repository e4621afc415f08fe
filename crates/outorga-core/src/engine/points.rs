//! Points: what each infraction adds to whose record, and totals over windows.

use crate::calendar::sub_months;
use crate::context::{Context, EngineError};
use crate::engine::sanctions::{Occasion, Parties, Sanction, instantiate, push_merged};
use crate::facts::{Event, Facts, PersonId};
use crate::model::{Role, Rulebook};
use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

/// The points of every infraction of a rulebook, worked out once: to the
/// offender, and to the permit holder when the offender is someone else's
/// auxiliary. Kept as integers at a common decimal scale so totals over long
/// records are plain additions (exact: the scale is the largest the values use).
#[derive(Debug, Clone, Default)]
pub struct PointsTable {
    per_infraction: Vec<(i64, i64)>,
    scale: u32,
    /// The windows (months) a record is reported and judged over, sorted.
    windows: Vec<u32>,
}

impl PointsTable {
    pub fn new(rulebook: &Rulebook) -> Self {
        let share = rulebook
            .points
            .as_ref()
            .and_then(|rule| rule.holder_share.as_ref())
            .map_or(Decimal::ZERO, |share| share.value);
        let values: Vec<(Decimal, Decimal)> = rulebook
            .infractions
            .iter()
            .map(|infraction| {
                let points = rulebook
                    .points
                    .as_ref()
                    .and(infraction.group)
                    .and_then(|group| rulebook.group(group).points.as_ref())
                    .map_or(Decimal::ZERO, |points| points.value);
                (points.normalize(), (points * share).normalize())
            })
            .collect();
        let scale = values
            .iter()
            .map(|(own, held)| own.scale().max(held.scale()))
            .max()
            .unwrap_or(0);
        let scaled = |mut value: Decimal| {
            value.rescale(scale);
            i64::try_from(value.mantissa()).unwrap_or(i64::MAX)
        };
        let mut windows: Vec<u32> = rulebook
            .points
            .iter()
            .flat_map(|rule| rule.windows_months.iter().copied())
            .chain(rulebook.thresholds.iter().map(|t| t.window_months))
            .collect();
        windows.sort_unstable();
        windows.dedup();
        Self {
            per_infraction: values
                .into_iter()
                .map(|(own, held)| (scaled(own), scaled(held)))
                .collect(),
            scale,
            windows,
        }
    }

    /// The windows, in months, that `standing` reports and thresholds judge.
    pub fn windows(&self) -> &[u32] {
        &self.windows
    }

    /// Points `event` puts on `person`'s record, scaled.
    fn scaled_for(&self, facts: &Facts, event: &Event, person: PersonId) -> i64 {
        let (own, held) = self
            .per_infraction
            .get(event.infraction.0 as usize)
            .copied()
            .unwrap_or_default();
        if event.by == person {
            own
        } else if event.permit.is_some_and(|p| facts.permit(p).holder == person) {
            held
        } else {
            0
        }
    }

    fn decimal(&self, scaled: i64) -> Decimal {
        Decimal::new(scaled, self.scale).normalize()
    }
}

/// The points one event adds to each record, with the articles they rest on.
/// Empty when the rulebook has no points or the infraction's group carries none.
pub fn event_points<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    event: &Event,
) -> (Vec<(PersonId, Decimal)>, Vec<&'r str>) {
    let rulebook = ctx.rulebook;
    let (Some(rule), Some(group)) = (
        rulebook.points.as_ref(),
        rulebook.infraction(event.infraction).group,
    ) else {
        return (Vec::new(), Vec::new());
    };
    let Some(points) = rulebook.group(group).points.as_ref() else {
        return (Vec::new(), Vec::new());
    };
    let table = &ctx.points;
    let mut added = vec![(event.by, table.decimal(table.scaled_for(facts, event, event.by)))];
    let mut citations = vec![points.citation.as_str(), rule.citation.as_str()];
    if let Some(permit) = event.permit {
        let holder = facts.permit(permit).holder;
        if holder != event.by
            && let Some(share) = &rule.holder_share
        {
            added.push((holder, table.decimal(table.scaled_for(facts, event, holder))));
            citations.push(&share.citation);
        }
    }
    (added, citations)
}

/// Points on `person`'s record over each window of [`PointsTable::windows`],
/// all ending on `on`: final events dated within `[on − window, on]`, and, when
/// `before` is given, committed before it. One pass over the record.
pub fn record(
    ctx: &Context<'_>,
    facts: &Facts,
    person: PersonId,
    on: NaiveDate,
    before: Option<NaiveDateTime>,
) -> Vec<(u32, Decimal)> {
    let table = &ctx.points;
    let starts: Vec<NaiveDate> = table.windows.iter().map(|&m| sub_months(on, m)).collect();
    let mut totals = vec![0i64; starts.len()];
    let earliest = starts.iter().min().copied().unwrap_or(on);
    for event in facts.events_since(person, earliest) {
        let date = event.date();
        if date > on || before.is_some_and(|limit| event.at >= limit) {
            break;
        }
        if !event.is_final {
            continue;
        }
        let points = table.scaled_for(facts, event, person);
        for (total, start) in totals.iter_mut().zip(&starts) {
            if date >= *start {
                *total += points;
            }
        }
    }
    table
        .windows
        .iter()
        .zip(totals)
        .map(|(&months, total)| (months, table.decimal(total)))
        .collect()
}

/// The sanctions due because `person`'s points (`record`, by window) exceed a
/// threshold's limit; `role` is the person's role.
pub fn threshold_sanctions<'r>(
    ctx: &Context<'r>,
    (person, role): (PersonId, Role),
    on: NaiveDate,
    record: &[(u32, Decimal)],
) -> Result<Vec<Sanction<'r>>, EngineError> {
    let mut out = Vec::new();
    for threshold in &ctx.rulebook.thresholds {
        let total = record
            .iter()
            .find(|(months, _)| *months == threshold.window_months)
            .map_or(Decimal::ZERO, |(_, total)| *total);
        if total <= ctx.quantity(&threshold.over, on)? {
            continue;
        }
        let parties = Parties {
            offender: person,
            holder: person,
            role,
            payer: person,
        };
        let occasion = Occasion {
            on,
            group: None,
            multiplier: Decimal::ONE,
        };
        for spec in &threshold.sanctions {
            if let Some(sanction) = instantiate(ctx, spec, &threshold.citation, &parties, &occasion)? {
                push_merged(&mut out, sanction);
            }
        }
    }
    Ok(out)
}
