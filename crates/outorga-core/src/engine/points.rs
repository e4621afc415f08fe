//! Points: what each infraction adds to whose record, and totals over windows.

use crate::context::{Context, EngineError};
use crate::engine::sanctions::{Occasion, Parties, Sanction, instantiate, push_merged};
use crate::facts::{Event, Facts, PersonId};
use crate::model::Role;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// The points one event adds: to its offender, and the holder's share when the
/// offender is an auxiliary of someone else's permit. Empty when the rulebook has
/// no points or the infraction's group carries none.
pub fn event_points<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    event: &Event,
) -> Option<EventPoints<'r>> {
    let rulebook = ctx.rulebook;
    let rule = rulebook.points.as_ref()?;
    let group = rulebook.group(rulebook.infraction(event.infraction).group?);
    let points = group.points.as_ref()?;
    let mut result = EventPoints {
        offender: (event.by, points.value),
        holder: None,
        citations: vec![points.citation.as_str(), rule.citation.as_str()],
    };
    if let Some(permit) = event.permit {
        let holder = facts.permit(permit).holder;
        if holder != event.by
            && let Some(share) = &rule.holder_share
        {
            result.holder = Some((holder, (points.value * share.value).normalize()));
            result.citations.push(&share.citation);
        }
    }
    Some(result)
}

#[derive(Debug, Clone)]
pub struct EventPoints<'r> {
    pub offender: (PersonId, Decimal),
    pub holder: Option<(PersonId, Decimal)>,
    pub citations: Vec<&'r str>,
}

impl EventPoints<'_> {
    /// Points this event adds to `person`'s record.
    pub fn for_person(&self, person: PersonId) -> Decimal {
        let mut total = Decimal::ZERO;
        if self.offender.0 == person {
            total += self.offender.1;
        }
        if let Some((holder, points)) = self.holder
            && holder == person
        {
            total += points;
        }
        total
    }
}

/// Points on `person`'s record from final events dated within `[from, to]` that
/// `include` admits.
pub fn points_between(
    ctx: &Context<'_>,
    facts: &Facts,
    person: PersonId,
    from: NaiveDate,
    to: NaiveDate,
    include: impl Fn(&Event) -> bool,
) -> Decimal {
    facts
        .events_of(person)
        .filter(|e| e.is_final && include(e) && (from..=to).contains(&e.date()))
        .filter_map(|e| event_points(ctx, facts, e))
        .map(|p| p.for_person(person))
        .sum()
}

/// The sanctions due because `person`'s points over a threshold's window exceed
/// its limit. `extra` is added to every window (the points of an infraction being
/// decided), `include` filters the history, `role` is the person's role.
pub fn threshold_sanctions<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    (person, role): (PersonId, Role),
    on: NaiveDate,
    extra: Decimal,
    include: impl Fn(&Event) -> bool + Copy,
) -> Result<Vec<Sanction<'r>>, EngineError> {
    let mut out = Vec::new();
    for threshold in &ctx.rulebook.thresholds {
        let from = crate::calendar::sub_months(on, threshold.window_months);
        let total = points_between(ctx, facts, person, from, on, include) + extra;
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
            if let Some(sanction) =
                instantiate(ctx, spec, &threshold.citation, &parties, &occasion)?
            {
                push_merged(&mut out, sanction);
            }
        }
    }
    Ok(out)
}
