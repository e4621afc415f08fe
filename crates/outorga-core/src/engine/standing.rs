//! A person's record on a day: points per window and the sanctions they make due.

use crate::context::{Context, EngineError};
use crate::engine::points::{Record, record, threshold_sanctions};
use crate::engine::sanctions::{Sanction, add_process, all_citations};
use crate::facts::{Facts, PersonId};
use crate::model::Role;
use chrono::NaiveDate;

#[derive(Debug, Clone, PartialEq)]
pub struct Standing<'r> {
    /// Points per window, keyed by the window's length in months.
    pub points: Record,
    pub triggers: Vec<Sanction<'r>>,
    /// The article the points rest on.
    pub point_citation: Option<&'r str>,
}

impl<'r> Standing<'r> {
    /// Every article the standing rests on, in order, each once.
    pub fn citations(&self) -> Vec<&'r str> {
        all_citations(&self.triggers, self.point_citation.as_slice())
    }
}

/// `person`'s standing on `today`: final infractions dated within each window
/// (which ends on `today`) count.
pub fn standing<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    person: PersonId,
    today: NaiveDate,
) -> Result<Standing<'r>, EngineError> {
    let points = record(facts, person, today, None);
    let role = if facts.holds_a_permit(person) {
        Role::Holder
    } else {
        Role::Auxiliary
    };
    let mut triggers = Vec::new();
    threshold_sanctions(ctx, facts, (person, role), today, &points, &mut triggers)?;
    add_process(ctx, &mut triggers);
    Ok(Standing {
        points,
        triggers,
        point_citation: ctx
            .rulebook
            .points
            .as_ref()
            .map(|rule| rule.citation.as_str()),
    })
}
