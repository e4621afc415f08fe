//! A person's record on a day: points per window and the sanctions they make due.

use crate::context::{Context, EngineError};
use crate::engine::points::{record, threshold_sanctions};
use crate::engine::sanctions::{Sanction, add_process, all_citations};
use crate::facts::{Facts, PersonId};
use crate::model::Role;
use chrono::NaiveDate;
use rust_decimal::Decimal;

#[derive(Debug, Clone, PartialEq)]
pub struct Standing<'r> {
    /// Points per window, keyed by the window's length in months.
    pub points: Vec<(u32, Decimal)>,
    pub triggers: Vec<Sanction<'r>>,
    pub citations: Vec<&'r str>,
}

/// `person`'s standing on `today`: final infractions dated within each window
/// (which ends on `today`) count.
pub fn standing<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    person: PersonId,
    today: NaiveDate,
) -> Result<Standing<'r>, EngineError> {
    let points = record(ctx, facts, person, today, None);
    let role = if facts.holds_a_permit(person) {
        Role::Holder
    } else {
        Role::Auxiliary
    };
    let mut triggers = threshold_sanctions(ctx, (person, role), today, &points)?;
    add_process(ctx, &mut triggers);
    let mut citations = all_citations(&triggers, &[]);
    if let Some(rule) = &ctx.rulebook.points
        && !citations.contains(&rule.citation.as_str())
    {
        citations.push(&rule.citation);
    }
    Ok(Standing {
        points,
        triggers,
        citations,
    })
}
