//! What a taxi or mototaxi trip costs.

use crate::context::{Context, EngineError, exact, round_brl};
use crate::model::{Beneficiary, DayKind, FareRule, FareWindow};
use chrono::{Datelike, NaiveDateTime, TimeDelta, Weekday};
use rust_decimal::Decimal;

/// The passenger, as far as the fare is concerned; `None` is unknown (no discount).
#[derive(Debug, Clone, Copy, Default)]
pub struct Passenger {
    pub age: Option<u32>,
    pub student: Option<bool>,
    pub disabled: Option<bool>,
    /// Travels with mobility equipment or a guide dog (never charged extra).
    pub with_aids: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Fare<'r> {
    pub bandeira: u8,
    pub total: Decimal,
    pub discount_percent: Decimal,
    pub citations: Vec<&'r str>,
}

pub fn fare<'r>(
    ctx: &Context<'r>,
    start: NaiveDateTime,
    km: Decimal,
    stopped_minutes: Decimal,
    passenger: &Passenger,
) -> Result<Fare<'r>, EngineError> {
    let rule = ctx
        .rulebook
        .fare
        .as_ref()
        .ok_or_else(|| EngineError::NotInRulebook("regras de tarifa".into()))?;
    if km.is_sign_negative() || stopped_minutes.is_sign_negative() {
        return Err(EngineError::InvalidQuestion(
            "os quilômetros e os minutos parados não podem ser negativos".into(),
        ));
    }
    let on = start.date();
    let mut citations = vec![rule.citation.as_str()];
    let (bandeira, window) = bandeira(ctx, rule, start);
    citations.extend(window.map(|w| w.citation.as_str()));
    let tariff = |name: &str| ctx.parameter(&format!("tariff.{name}"), on);
    let rate_1 = tariff("km_bandeira_1")?;
    let rate = if bandeira == 1 {
        rate_1
    } else {
        match (tariff("km_bandeira_2"), &rule.bandeira_2_increase) {
            (stated, Some(increase)) => {
                // The law derives bandeira 2: a stated rate must agree with it.
                citations.push(&increase.citation);
                let percent = ctx.quantity(&increase.value, on)?;
                let derived = exact(rate_1.checked_mul(Decimal::ONE_HUNDRED + percent))?
                    / Decimal::ONE_HUNDRED;
                if let Ok(stated) = stated
                    && stated != derived
                {
                    return Err(EngineError::InvalidQuestion(format!(
                        "tariff.km_bandeira_2 {stated} contraria o {}: a bandeira 1 ({rate_1}) mais {percent} % é {}",
                        increase.citation,
                        derived.normalize()
                    )));
                }
                derived
            }
            (Ok(rate), None) => rate,
            (Err(missing), None) => return Err(missing),
        }
    };
    let distance = exact(km.checked_mul(rate))?;
    let waiting = exact((stopped_minutes / Decimal::from(60)).checked_mul(tariff("hora_parada")?))?;
    let gross = exact(
        tariff("bandeirada")?
            .checked_add(distance)
            .and_then(|sum| sum.checked_add(waiting)),
    )?;
    let mut discount = Decimal::ZERO;
    let mut discount_citation = None;
    for offer in &rule.discounts {
        let applies = match &offer.who {
            Beneficiary::AgeAtLeast(age) => {
                let min = ctx.quantity(age, on)?;
                passenger.age.is_some_and(|a| Decimal::from(a) >= min)
            }
            Beneficiary::Student => passenger.student == Some(true),
            Beneficiary::Disabled => passenger.disabled == Some(true),
        };
        let percent = ctx.quantity(&offer.percent, on)?;
        if applies && percent > discount {
            discount = percent;
            discount_citation = Some(offer.citation.as_str());
        }
    }
    citations.extend(discount_citation);
    if passenger.with_aids
        && let Some(citation) = &rule.no_extra_for_aids
    {
        citations.push(citation);
    }
    let total = round_brl(
        exact(gross.checked_mul(Decimal::ONE_HUNDRED - discount))? / Decimal::ONE_HUNDRED,
    );
    Ok(Fare {
        bandeira,
        total,
        discount_percent: discount.normalize(),
        citations,
    })
}

/// The bandeira in force at `at`, and the window that made it the other one.
fn bandeira<'r>(
    ctx: &Context<'r>,
    rule: &'r FareRule,
    at: NaiveDateTime,
) -> (u8, Option<&'r FareWindow>) {
    let other = if rule.default_bandeira == 1 { 2 } else { 1 };
    for window in &rule.windows {
        // A window may have started the day before and run past midnight.
        for days_back in [0, 1] {
            let Some(day) = at.date().checked_sub_signed(TimeDelta::days(days_back)) else {
                continue;
            };
            if !day_is(ctx, window.on, day) {
                continue;
            }
            let begins = day.and_time(window.from);
            let ends = if window.next_day {
                day.and_time(window.to) + TimeDelta::days(1)
            } else {
                day.and_time(window.to)
            };
            if begins <= at && at < ends {
                return (other, Some(window));
            }
        }
    }
    (rule.default_bandeira, None)
}

fn day_is(ctx: &Context<'_>, kind: DayKind, day: chrono::NaiveDate) -> bool {
    let holiday = ctx.calendar.is_holiday(day);
    match kind {
        DayKind::Weekday => !holiday && !matches!(day.weekday(), Weekday::Sat | Weekday::Sun),
        DayKind::Saturday => day.weekday() == Weekday::Sat,
        DayKind::Sunday => day.weekday() == Weekday::Sun,
        DayKind::Holiday => holiday,
    }
}
