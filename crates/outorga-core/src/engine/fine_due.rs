//! What is owed for a fine on a given day: surcharges and installments.

use crate::calendar::Counting;
use crate::context::{Context, EngineError, exact, round_brl};
use crate::model::{Amount, DeadlineKind};
use chrono::NaiveDate;
use rust_decimal::Decimal;

#[derive(Debug, Clone, PartialEq)]
pub struct FineDue<'r> {
    /// In the fine's unit, surcharges included.
    pub quantity: Decimal,
    pub surcharge_percent: Decimal,
    /// In BRL, at the unit's value on the day of payment, when known.
    pub brl: Option<Decimal>,
    pub installments: Option<InstallmentPlan>,
    pub citations: Vec<&'r str>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct InstallmentPlan {
    pub allowed: bool,
    pub parcels: Vec<Parcel>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Parcel {
    pub due: NaiveDate,
    pub quantity: Decimal,
}

/// The amount of a fine issued on `issued` and paid on `paid`; with `installments`,
/// whether it may be split in that many monthly parcels, and their due dates.
/// `from_process`: the fine was decided in an administrative process.
pub fn fine_due<'r>(
    ctx: &Context<'r>,
    amount: &Amount,
    issued: NaiveDate,
    paid: NaiveDate,
    installments: Option<u32>,
    from_process: bool,
) -> Result<FineDue<'r>, EngineError> {
    if paid < issued {
        return Err(EngineError::InvalidQuestion(format!(
            "o pagamento ({paid}) é anterior à emissão da multa ({issued}): confira as duas datas"
        )));
    }
    if amount.quantity.is_sign_negative() {
        return Err(EngineError::InvalidQuestion(format!(
            "uma multa de {} {} é negativa: o valor de uma multa é zero ou mais",
            amount.quantity, amount.unit
        )));
    }
    let rulebook = ctx.rulebook;
    let mut surcharge = Decimal::ZERO;
    let mut surcharge_citation = None;
    for tier in &rulebook.late_payment {
        // "After N days from issue": a limit in days, which ends on the next
        // business day when day N is not one (Lei 9.784, art. 66).
        let after = ctx.whole(&tier.after_days, paid, "dias")?;
        let limit = ctx.calendar.count(issued, after, Counting::CalendarDays);
        let percent = ctx.quantity(&tier.percent, paid)?;
        if paid > limit && percent > surcharge {
            surcharge = percent;
            surcharge_citation = Some(tier.citation.as_str());
        }
    }
    // The unit's article; the surcharge applied, or else the law's rule on
    // paying (its surcharges, or its payment term when it has none).
    let unit = rulebook.units.get(&amount.unit);
    let mut citations: Vec<&'r str> = unit
        .map(|unit| unit.citation.as_str())
        .into_iter()
        .chain(unit.and_then(|u| u.paid_at_value_of.as_deref()))
        .collect();
    match surcharge_citation {
        Some(citation) => citations.push(citation),
        None => match rulebook.late_payment.first() {
            Some(tier) => citations.push(&tier.citation),
            None => citations.extend(
                rulebook
                    .deadlines
                    .iter()
                    .filter(|d| d.kind == DeadlineKind::Payment)
                    .map(|d| d.citation.as_str()),
            ),
        },
    }
    let quantity = (exact(
        amount
            .quantity
            .checked_mul(Decimal::ONE_HUNDRED + surcharge),
    )? / Decimal::ONE_HUNDRED)
        .normalize();
    let brl = ctx
        .unit_value(&amount.unit, paid)
        .map(|value| exact(value.checked_mul(quantity)).map(round_brl))
        .transpose()?;
    let installments = installments
        .map(|count| {
            plan(
                ctx,
                amount,
                quantity,
                issued,
                count,
                from_process,
                &mut citations,
            )
        })
        .transpose()?;
    Ok(FineDue {
        quantity,
        surcharge_percent: surcharge.normalize(),
        brl,
        installments,
        citations,
    })
}

fn plan<'r>(
    ctx: &Context<'r>,
    amount: &Amount,
    quantity: Decimal,
    issued: NaiveDate,
    count: u32,
    from_process: bool,
    citations: &mut Vec<&'r str>,
) -> Result<InstallmentPlan, EngineError> {
    let Some(rule) = &ctx.rulebook.installments else {
        return Ok(InstallmentPlan {
            allowed: false,
            parcels: Vec::new(),
        });
    };
    citations.push(&rule.citation);
    if from_process && let Some(citation) = &rule.not_for_process_fines {
        citations.push(citation);
        return Ok(InstallmentPlan {
            allowed: false,
            parcels: Vec::new(),
        });
    }
    let max = ctx.whole(&rule.max, issued, "parcelas")?;
    let min = ctx.quantity(&rule.min_quantity, issued)?;
    if amount.quantity < min
        && let Some(citation) = &rule.min_quantity_citation
    {
        citations.push(citation);
    }
    if count == 0 || count > max || amount.quantity < min {
        return Ok(InstallmentPlan {
            allowed: false,
            parcels: Vec::new(),
        });
    }
    if let Some(citation) = &rule.schedule_citation {
        citations.push(citation);
    }
    // Equal parcels; the last takes what rounding left. The first is due
    // `first_due` after issue, each next one `every` after the one before,
    // counted from the first's limit as moved to a business day (TO art.
    // 98, § 2º: "contados da data limite do primeiro pagamento"; Lei 9.784
    // art. 66, § 1º: that limit "considera-se prorrogado").
    let share = (quantity / Decimal::from(count)).round_dp(4);
    let first = ctx
        .calendar
        .on_or_next_business_day(ctx.period_end(&rule.first_due, issued)?);
    let mut parcels = Vec::new();
    let mut assigned = Decimal::ZERO;
    let mut due = first;
    for number in 1..=count {
        let quantity = if number == count {
            quantity - assigned
        } else {
            share
        };
        assigned += quantity;
        parcels.push(Parcel {
            due: ctx.calendar.on_or_next_business_day(due),
            quantity: quantity.normalize(),
        });
        due = ctx.period_end(&rule.every, due)?;
    }
    Ok(InstallmentPlan {
        allowed: true,
        parcels,
    })
}

/// The day the balance of a plan fell due at once, with the article, when
/// on `on` its first unpaid parcel (after `paid` parcels) is unpaid longer
/// than the law allows (Teófilo Otoni art. 98, § 3º: "por período superior
/// a trinta dias"); `None` while every parcel is within it, or the law has
/// no such rule.
pub fn accelerated<'r>(
    ctx: &Context<'r>,
    plan: &InstallmentPlan,
    paid: usize,
    on: NaiveDate,
) -> Result<Option<(NaiveDate, &'r str)>, EngineError> {
    let Some(rule) = ctx
        .rulebook
        .installments
        .as_ref()
        .and_then(|r| r.acceleration.as_ref())
    else {
        return Ok(None);
    };
    let Some(parcel) = plan.parcels.get(paid) else {
        return Ok(None);
    };
    // More than the period late: from the day after its last day on.
    let last = ctx.period_end(&rule.after, parcel.due)?;
    Ok(last
        .succ_opt()
        .filter(|fell_due| *fell_due <= on)
        .map(|fell_due| (fell_due, rule.citation.as_str())))
}
