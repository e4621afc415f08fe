//! Intercity bus questions: the mean tariff coefficient, refunds, baggage and
//! indemnities (Amapá).

use crate::context::{Context, EngineError, round_brl};
use crate::model::BusRules;
use chrono::{NaiveDate, NaiveDateTime, TimeDelta};
use rust_decimal::Decimal;

fn rules<'r>(ctx: &Context<'r>, what: &str) -> Result<&'r BusRules, EngineError> {
    ctx.rulebook
        .bus
        .as_ref()
        .ok_or_else(|| EngineError::NotInRulebook(format!("regras de {what}")))
}

/// A line's tariff coefficient, and whether it is semi-urban.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub coefficient: Decimal,
    pub semi_urban: bool,
}

/// The Coeficiente Tarifário Médio: the arithmetic mean of the coefficients
/// of the lines, semi-urban lines left out.
pub fn ctm<'r>(ctx: &Context<'r>, lines: &[Line]) -> Result<(Decimal, &'r str), EngineError> {
    let rules = rules(ctx, "coeficiente tarifário médio")?;
    let counted: Vec<Decimal> = lines
        .iter()
        .filter(|l| !l.semi_urban)
        .map(|l| l.coefficient)
        .collect();
    if counted.is_empty() {
        return Err(EngineError::InvalidQuestion(
            "o coeficiente tarifário médio precisa de ao menos uma linha que não seja semiurbana"
                .into(),
        ));
    }
    let mut sum = Decimal::ZERO;
    for c in &counted {
        sum = sum.checked_add(*c).ok_or(EngineError::TooLarge)?;
    }
    let mean = sum
        .checked_div(Decimal::from(counted.len()))
        .ok_or(EngineError::TooLarge)?;
    Ok((mean.normalize(), &rules.ctm))
}

/// Whether a ticket is refunded or revalidated when asked at `requested` for
/// a trip departing at `departs`: at least the rule's hours ahead.
pub fn refund<'r>(
    ctx: &Context<'r>,
    departs: NaiveDateTime,
    requested: NaiveDateTime,
) -> Result<(bool, &'r str), EngineError> {
    let rules = rules(ctx, "reembolso")?;
    let hours = ctx.whole(&rules.refund.value, departs.date(), "horas")?;
    let latest = departs
        .checked_sub_signed(TimeDelta::hours(i64::from(hours)))
        .ok_or(EngineError::TooLarge)?;
    Ok((requested <= latest, &rules.refund.citation))
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Baggage<'r> {
    /// Kilograms over the franchises, each franchise on its own.
    pub excess_kg: Decimal,
    /// The most the passenger may be charged for them, in BRL.
    pub max_fee: Decimal,
    pub citations: Vec<&'r str>,
}

/// The excess over the hold and cabin franchises and the most it may cost:
/// a percentage of the conventional fare per kilogram.
pub fn baggage<'r>(
    ctx: &Context<'r>,
    fare: Decimal,
    hold_kg: Decimal,
    hand_kg: Decimal,
    on: NaiveDate,
) -> Result<Baggage<'r>, EngineError> {
    let rules = rules(ctx, "bagagem")?;
    let b = &rules.baggage;
    let hold_free = ctx.quantity(&b.hold_kg, on)?;
    let hand_free = ctx.quantity(&b.hand_kg, on)?;
    let percent = ctx.quantity(&b.percent_per_kg, on)?;
    let over = |kg: Decimal, free: Decimal| (kg - free).max(Decimal::ZERO);
    let excess_kg = over(hold_kg, hold_free) + over(hand_kg, hand_free);
    let max_fee = excess_kg
        .checked_mul(fare)
        .and_then(|v| v.checked_mul(percent))
        .and_then(|v| v.checked_div(Decimal::ONE_HUNDRED))
        .ok_or(EngineError::TooLarge)?;
    let mut citations = vec![b.citation.as_str()];
    if excess_kg > Decimal::ZERO {
        citations.push(&b.excess_citation);
    }
    Ok(Baggage {
        excess_kg: excess_kg.normalize(),
        max_fee: round_brl(max_fee),
        citations,
    })
}

/// The most a carrier owes for baggage damaged (`damage`) or lost (`loss`):
/// a multiple of the mean tariff coefficient in force on `on`.
pub fn indemnity<'r>(
    ctx: &Context<'r>,
    kind: &str,
    on: NaiveDate,
) -> Result<(Decimal, &'r str), EngineError> {
    let rules = rules(ctx, "indenizações")?;
    let rule = rules
        .indemnities
        .iter()
        .find(|i| i.kind == kind)
        .ok_or_else(|| {
            EngineError::InvalidQuestion(format!(
                "`{kind}` não é indenização prevista nesta lei (indenizações: {})",
                rules
                    .indemnities
                    .iter()
                    .map(|i| i.kind.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
    let value = ctx.unit_value(&rule.max.value.unit, on).ok_or_else(|| {
        EngineError::InvalidQuestion(format!(
            "o valor de {} em {on} não é conhecido: informe `units.{}` (o valor da sua Portaria)",
            rule.max.value.unit, rule.max.value.unit
        ))
    })?;
    let max = rule
        .max
        .value
        .quantity
        .checked_mul(value)
        .ok_or(EngineError::TooLarge)?;
    Ok((round_brl(max), &rule.max.citation))
}

/// A ticket asked for `seat` (0: standing) on a trip: refused when the seat
/// is already sold, when a standing place is asked on a line that is not
/// semi-urban, or when the trip has left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketAnswer<'r> {
    pub allowed: bool,
    pub reasons: Vec<String>,
    pub citations: Vec<&'r str>,
}

/// The trip a ticket is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trip<'a> {
    pub id: &'a str,
    pub departs: NaiveDateTime,
    pub semi_urban: bool,
}

/// `fields`: what the ticket shows, when the question gives it; a missing
/// mandatory field refuses it, except the simplified ticket of a semi-urban
/// line.
pub fn ticket<'r>(
    ctx: &Context<'r>,
    Trip {
        id: trip,
        departs,
        semi_urban,
    }: Trip<'_>,
    (seat, sold): (u32, &[u32]),
    fields: Option<&[String]>,
    today: NaiveDate,
) -> Result<TicketAnswer<'r>, EngineError> {
    let rules = rules(ctx, "bilhetes de passagem")?;
    let mut reasons = Vec::new();
    let mut citations = Vec::new();
    if let Some(shown) = fields {
        let required = &rules.ticket_fields;
        if semi_urban {
            citations.push(required.simplified_on_semi_urban.as_str());
        } else {
            citations.push(required.citation.as_str());
            let missing: Vec<&str> = required
                .names
                .iter()
                .filter(|name| !shown.contains(name))
                .map(String::as_str)
                .collect();
            if !missing.is_empty() {
                reasons.push(format!("the ticket lacks: {}", missing.join(", ")));
            }
        }
    }
    if seat == 0 {
        citations.push(rules.standing_only_semi_urban.as_str());
        if !semi_urban {
            reasons.push(format!(
                "trip {trip} is not on a semi-urban line: no standing passengers"
            ));
        }
    } else {
        citations.push(rules.one_ticket_per_seat.as_str());
        if sold.contains(&seat) {
            reasons.push(format!("seat {seat} of trip {trip} is already sold"));
        }
    }
    if departs.date() < today {
        reasons.push(format!("trip {trip} left on {}", departs.date()));
    }
    Ok(TicketAnswer {
        allowed: reasons.is_empty(),
        reasons,
        citations,
    })
}

/// The share of `fares` (BRL collected from tickets) owed to the Poder
/// delegante for supervision, terminals and inspection.
pub fn supervision_share<'r>(
    ctx: &Context<'r>,
    fares: Decimal,
    on: NaiveDate,
) -> Result<(Decimal, &'r str), EngineError> {
    let rules = rules(ctx, "taxa de supervisão sobre as passagens")?;
    if fares.is_sign_negative() {
        return Err(EngineError::InvalidQuestion(
            "a receita das passagens não pode ser negativa".into(),
        ));
    }
    let percent = ctx.quantity(&rules.supervision_percent.value, on)?;
    let share = fares
        .checked_mul(percent)
        .and_then(|v| v.checked_div(Decimal::ONE_HUNDRED))
        .ok_or(EngineError::TooLarge)?;
    Ok((round_brl(share), &rules.supervision_percent.citation))
}
