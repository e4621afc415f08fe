//! Points: what each infraction adds to whose record, and totals over windows.

use crate::calendar::sub_months;
use crate::context::{Context, EngineError, exact};
use crate::engine::sanctions::{
    Citations, Occasion, Parties, Sanction, cites, instantiate, push_merged,
};
use crate::facts::{Event, Facts, PersonId, PersonKind};
use crate::model::{PointBasis, Role, SanctionSpec, Subject, Threshold};
use crate::record::{Outcome, day_start, instant};
use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;
use smallvec::{SmallVec, smallvec};

/// Points added to each record by one infraction (the offender's, the holder's).
pub type PointsAdded = SmallVec<[(PersonId, Decimal); 2]>;

/// Points on a record per window, keyed by the window's length in months.
pub type Record = SmallVec<[(u32, Decimal); 4]>;

/// The points one event adds to each record, with the articles they rest on.
/// Empty when the rulebook has no points or the infraction's group carries none.
pub fn event_points<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    event: &Event,
    outcome: Outcome,
) -> (PointsAdded, Citations<'r>) {
    let rulebook = ctx.rulebook;
    let table = facts.points();
    let Some(rule) = rulebook.points.as_ref() else {
        return (PointsAdded::new(), Citations::new());
    };
    let own = table.scaled(event.infraction, true, outcome);
    if own == 0 {
        return (PointsAdded::new(), Citations::new());
    }
    // The article that sets these points: the infraction's own, the
    // warning's, or the group's.
    let infraction = rulebook.infraction(event.infraction);
    let source = match (&infraction.points, rule.basis, outcome) {
        (Some(own), _, _) => Some(&own.citation),
        (None, PointBasis::Outcome, Outcome::Warning) => rule.warning.as_ref().map(|w| &w.citation),
        _ => infraction
            .group
            .and_then(|group| rulebook.group(group).points.as_ref())
            .map(|points| &points.citation),
    };
    let mut added: PointsAdded = smallvec![(event.by, table.decimal(own))];
    let mut citations: Citations<'r> = source.map(String::as_str).into_iter().collect();
    citations.push(&rule.citation);
    if let Some(permit) = facts.permit_for(rulebook, event) {
        let holder = facts.permit(permit).holder;
        if holder != event.by
            && let Some(share) = &rule.holder_share
        {
            let held = table.scaled(event.infraction, false, outcome);
            added.push((holder, table.decimal(held)));
            citations.push(&share.citation);
        }
    }
    (added, citations)
}

/// Points on `person`'s record over each window the rulebook reports or judges,
/// all ending on `on`: final events dated within `[on − window, on]`, and, when
/// `before` is given, committed before it. Two binary searches per window.
pub fn record(
    facts: &Facts,
    person: PersonId,
    on: NaiveDate,
    before: Option<NaiveDateTime>,
) -> Record {
    let table = facts.points();
    let record = facts.record(person);
    let total_before = |index: usize| index.checked_sub(1).map_or(0, |i| record[i].total);
    let end = day_start(on) + 86_400;
    let limit = before.map_or(end, |before| instant(before).min(end));
    let last = total_before(record.partition_point(|e| e.at < limit));
    table
        .windows()
        .iter()
        .map(|&months| {
            let start = day_start(sub_months(on, months));
            let first = total_before(record.partition_point(|e| e.at < start));
            (months, table.decimal(last - first))
        })
        .collect()
}

/// Whose record a threshold judges, for `person`.
fn subject_of(facts: &Facts, person: PersonId) -> Subject {
    if facts.person(person).radio_dispatch == Some(true) {
        Subject::RadioDispatch
    } else if facts.person(person).kind == PersonKind::Company {
        Subject::Company
    } else if facts.holds_a_permit(person) {
        Subject::Holder
    } else {
        Subject::Auxiliary
    }
}

/// The thresholds that judge `person`'s record on `on`, each with its
/// limit that day (times the permits they hold, where the law says so):
/// what the holder's space shows beside the points.
pub fn limits<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    person: PersonId,
    on: NaiveDate,
) -> Result<Vec<(&'r Threshold, Decimal)>, EngineError> {
    let subject = subject_of(facts, person);
    let mut out = Vec::new();
    for threshold in &ctx.rulebook.thresholds {
        if !matches!(threshold.applies_to, Subject::Anyone) && threshold.applies_to != subject {
            continue;
        }
        let mut limit = ctx.quantity(&threshold.over, on)?;
        if threshold.per_permit {
            limit = exact(limit.checked_mul(Decimal::from(facts.permits_held(person))))?;
        }
        out.push((threshold, limit));
    }
    Ok(out)
}

/// Adds to `out` the sanctions due because `person`'s points (`record`, by
/// window) exceed a threshold's limit; `role` is the person's role.
pub fn threshold_sanctions<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    (person, role): (PersonId, Role),
    on: NaiveDate,
    record: &[(u32, Decimal)],
    out: &mut Vec<Sanction<'r>>,
) -> Result<(), EngineError> {
    let subject = subject_of(facts, person);
    // Thresholds over different windows usually impose the same sanctions: a
    // spec already imposed here only adds its threshold's citation.
    let mut imposed: SmallVec<[(&SanctionSpec, usize); 4]> = SmallVec::new();
    for (threshold, limit) in limits(ctx, facts, person, on)? {
        let total = record
            .iter()
            .find(|(months, _)| *months == threshold.window_months)
            .map_or(Decimal::ZERO, |(_, total)| *total);
        if total <= limit {
            continue;
        }
        let company = matches!(subject, Subject::Company | Subject::RadioDispatch);
        let parties = Parties {
            offender: person,
            holder: person,
            role,
            payer: person,
            companies: (company, company),
        };
        let occasion = Occasion {
            on,
            group: None,
            multiplier: Decimal::ONE,
            fine_factor: Decimal::ONE,
        };
        for spec in &threshold.sanctions {
            if let Some((_, index)) = imposed.iter().find(|(earlier, _)| *earlier == spec) {
                let citations = &mut out[*index].citations;
                if !cites(citations, &threshold.citation) {
                    citations.push(&threshold.citation);
                }
                continue;
            }
            if let Some(sanction) =
                instantiate(ctx, spec, &threshold.citation, &parties, &occasion)?
            {
                let index = push_merged(out, sanction);
                imposed.push((spec, index));
            }
        }
    }
    Ok(())
}
