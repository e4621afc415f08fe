//! A person's record on a day: points per window and the sanctions they make due.

use crate::calendar::sub_months;
use crate::context::{Context, EngineError};
use crate::engine::points::{points_between, threshold_sanctions};
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

/// The point windows a rulebook reports: its own list and its thresholds', sorted.
pub fn point_windows(ctx: &Context<'_>) -> Vec<u32> {
    let mut windows: Vec<u32> = ctx
        .rulebook
        .points
        .iter()
        .flat_map(|p| p.windows_months.iter().copied())
        .chain(ctx.rulebook.thresholds.iter().map(|t| t.window_months))
        .collect();
    windows.sort_unstable();
    windows.dedup();
    windows
}

/// `person`'s standing on `today`: final infractions dated within each window
/// (which ends on `today`) count.
pub fn standing<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    person: PersonId,
    today: NaiveDate,
) -> Result<Standing<'r>, EngineError> {
    let all = |_: &crate::facts::Event| true;
    let points = point_windows(ctx)
        .into_iter()
        .map(|months| {
            let from = sub_months(today, months);
            (
                months,
                points_between(ctx, facts, person, from, today, all).normalize(),
            )
        })
        .collect();
    let role = if facts.holds_a_permit(person) {
        Role::Holder
    } else {
        Role::Auxiliary
    };
    let mut triggers = threshold_sanctions(ctx, facts, (person, role), today, Decimal::ZERO, all)?;
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
