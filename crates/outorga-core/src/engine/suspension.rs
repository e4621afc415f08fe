//! A holder's request to suspend the permit for a time.

use crate::context::{Context, EngineError};
use chrono::NaiveDate;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuspensionAnswer<'r> {
    pub allowed: bool,
    /// The longest suspension this request may get (with the extension, if asked).
    pub max_days: u32,
    pub reasons: Vec<String>,
    pub citations: Vec<&'r str>,
}

/// Whether a suspension of `days` for `reason` may be granted; `extension` asks
/// for the prorogation by an equal period (left to the authority's discretion).
pub fn suspension_request<'r>(
    ctx: &Context<'r>,
    reason: &str,
    days: u32,
    extension: bool,
    on: NaiveDate,
) -> Result<SuspensionAnswer<'r>, EngineError> {
    let rule = ctx
        .rulebook
        .permit_suspension
        .as_ref()
        .ok_or_else(|| EngineError::NotInRulebook("a suspensão a pedido".into()))?;
    let mut max_days = ctx.whole(&rule.max_days, on, "dias")?;
    if extension {
        max_days += ctx.whole(&rule.extension_days, on, "dias")?;
    }
    let mut citations = vec![rule.citation.as_str()];
    let mut reasons = Vec::new();
    match rule.reasons.iter().find(|r| r.key == reason) {
        Some(known) => citations.push(&known.citation),
        None => reasons.push(format!(
            "`{reason}` is not a reason the law admits (known: {})",
            rule.reasons
                .iter()
                .map(|r| r.key.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
    if days == 0 {
        reasons.push("a suspension needs at least one day".into());
    }
    if days > max_days {
        reasons.push(format!("{days} days exceed the maximum of {max_days}"));
    }
    Ok(SuspensionAnswer {
        allowed: reasons.is_empty(),
        max_days,
        reasons,
        citations,
    })
}
