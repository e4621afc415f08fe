//! How many permits may exist, and the shares reserved within them.

use crate::context::{Context, EngineError, exact};
use crate::model::Service;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

#[derive(Debug, Clone, PartialEq)]
pub struct PermitCap<'r> {
    pub max_permits: u64,
    pub reserved: Vec<(&'r str, u64)>,
    pub citations: Vec<&'r str>,
}

/// One permit per N inhabitants, rounded down; each reserved share rounded up.
///
/// `current` is the number of permits already granted of the services the cap
/// counts together; where the law keeps them, the cap is never below it.
pub fn permit_cap<'r>(
    ctx: &Context<'r>,
    service: Service,
    current: u64,
    on: NaiveDate,
) -> Result<PermitCap<'r>, EngineError> {
    let rule = ctx
        .rulebook
        .caps
        .iter()
        .find(|cap| cap.services.contains(&service))
        .ok_or_else(|| EngineError::NotInRulebook(format!("a cap for `{}`", service.name())))?;
    let population = ctx.parameter("population", on)?;
    let per = ctx.quantity(&rule.inhabitants_per_permit, on)?;
    if per <= Decimal::ZERO {
        return Err(EngineError::InvalidQuestion(
            "inhabitants per permit must be positive".into(),
        ));
    }
    let mut max = exact(population.checked_div(per))?.floor();
    if rule.keep_current {
        max = max.max(Decimal::from(current));
    }
    let mut citations = vec![rule.citation.as_str()];
    let mut reserved = Vec::new();
    for quota in &rule.reserved {
        let percent = ctx.quantity(&quota.percent, on)?;
        let share = exact(max.checked_mul(percent))?
            .checked_div(Decimal::ONE_HUNDRED)
            .map(|s| s.ceil());
        let share = exact(share)?;
        reserved.push((quota.key.as_str(), share.to_u64().unwrap_or(0)));
        citations.push(&quota.citation);
    }
    Ok(PermitCap {
        max_permits: max.to_u64().unwrap_or(0),
        reserved,
        citations,
    })
}
