//! When a time limit of the procedure ends.

use crate::context::{Context, EngineError};
use chrono::NaiveDate;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline<'r> {
    pub due: NaiveDate,
    pub citations: Vec<&'r str>,
}

/// The last day of the limit of `kind` (notification, defense, appeal, payment,
/// judgement, …) that starts on `from`, counted as the rulebook says.
pub fn deadline<'r>(
    ctx: &Context<'r>,
    kind: &str,
    from: NaiveDate,
) -> Result<Deadline<'r>, EngineError> {
    let rule = ctx
        .rulebook
        .deadlines
        .iter()
        .find(|rule| rule.kind == kind)
        .ok_or_else(|| EngineError::NotInRulebook(format!("a `{kind}` deadline")))?;
    let length = ctx.whole(&rule.length, from, "days")?;
    Ok(Deadline {
        due: ctx.calendar.count(from, length, rule.counting),
        citations: vec![&rule.citation],
    })
}
