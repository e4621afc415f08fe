//! What the department charges for one of its services.

use crate::context::{Context, EngineError, exact, round_brl};
use crate::model::Amount;
use chrono::NaiveDate;
use rust_decimal::Decimal;

#[derive(Debug, Clone, PartialEq)]
pub struct FeeDue<'r> {
    pub amount: Amount,
    /// In BRL, at the unit's value on the day, when known.
    pub brl: Option<Decimal>,
    pub citations: Vec<&'r str>,
}

/// The fee of `kind` on `on`; `months_worked` (completed months of continuous
/// work) selects a reduction where the law grants one.
pub fn fee<'r>(
    ctx: &Context<'r>,
    kind: &str,
    months_worked: Option<u32>,
    on: NaiveDate,
) -> Result<FeeDue<'r>, EngineError> {
    let fee = ctx
        .rulebook
        .fees
        .iter()
        .find(|fee| fee.kind == kind)
        .ok_or_else(|| {
            EngineError::NotInRulebook(format!(
                "a taxa `{kind}` (taxas do regulamento: {})",
                ctx.rulebook
                    .fees
                    .iter()
                    .map(|f| f.kind.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    let mut citations = vec![fee.amount.citation.as_str()];
    let mut amount = &fee.amount.value;
    if let Some(months) = months_worked
        && let Some(reduction) = fee
            .reductions
            .iter()
            .find(|r| months >= r.from_months && r.to_months.is_none_or(|to| months <= to))
    {
        amount = &reduction.amount.value;
        citations.push(&reduction.amount.citation);
    }
    let brl = ctx
        .unit_value(&amount.unit, on)
        .map(|value| exact(value.checked_mul(amount.quantity)).map(round_brl))
        .transpose()?;
    Ok(FeeDue {
        amount: amount.clone(),
        brl,
        citations,
    })
}
