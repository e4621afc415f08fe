//! When a time limit of the procedure ends.

use crate::context::{Context, EngineError};
use crate::model::{DeadlineKind, DeadlineRule, LimitUnit};
use chrono::{NaiveDate, NaiveDateTime, TimeDelta};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline<'r> {
    pub due: NaiveDate,
    pub citations: Vec<&'r str>,
}

/// The rulebook's limit of `kind`.
fn rule<'r>(ctx: &Context<'r>, kind: DeadlineKind) -> Result<&'r DeadlineRule, EngineError> {
    ctx.rulebook
        .deadline(kind)
        .ok_or_else(|| EngineError::NotInRulebook(format!("o prazo `{kind}`")))
}

/// The last day of the limit of `kind` (notification, defense, appeal, payment,
/// judgement, …) that starts on `from`, counted as the rulebook says.
pub fn deadline<'r>(
    ctx: &Context<'r>,
    kind: DeadlineKind,
    from: NaiveDate,
) -> Result<Deadline<'r>, EngineError> {
    let length = ctx.whole(&rule(ctx, kind)?.length, from, "dias")?;
    deadline_lasting(ctx, kind, from, length)
}

/// The last day of the limit of `kind` that starts on `from` when the act
/// that opens it sets its length (`length` days: the time to cure a notice
/// of irregularity sets), counted as the rulebook counts that limit.
pub fn deadline_lasting<'r>(
    ctx: &Context<'r>,
    kind: DeadlineKind,
    from: NaiveDate,
    length: u32,
) -> Result<Deadline<'r>, EngineError> {
    let rule = rule(ctx, kind)?;
    let LimitUnit::Counted(counting) = rule.unit else {
        return Err(EngineError::InvalidQuestion(format!(
            "o prazo `{kind}` conta horas: informe o momento em que começa (`at`), não uma data"
        )));
    };
    Ok(Deadline {
        due: ctx.calendar.count(from, length, counting),
        citations: vec![&rule.citation],
    })
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moment<'r> {
    pub due: NaiveDateTime,
    pub citations: Vec<&'r str>,
}

/// The moment a limit of `kind` counted in hours runs out, from `at` (the
/// earliest a verification may take place after its notice): hours of the
/// clock, whatever the day.
pub fn moment<'r>(
    ctx: &Context<'r>,
    kind: DeadlineKind,
    at: NaiveDateTime,
) -> Result<Moment<'r>, EngineError> {
    let rule = rule(ctx, kind)?;
    if rule.unit != LimitUnit::Hours {
        return Err(EngineError::InvalidQuestion(format!(
            "o prazo `{kind}` conta dias: informe a data em que começa (`from`), não um momento"
        )));
    }
    let hours = ctx.whole(&rule.length, at.date(), "horas")?;
    let due = at
        .checked_add_signed(TimeDelta::hours(i64::from(hours)))
        .ok_or(EngineError::TooLarge)?;
    Ok(Moment {
        due,
        citations: vec![&rule.citation],
    })
}
