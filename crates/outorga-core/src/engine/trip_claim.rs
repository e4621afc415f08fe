//! A passenger's complaint about a trip, weighed by the law (Amapá): what
//! the passenger is owed, up to how much and by when, and whether the facts
//! told already show the carrier's infraction or leave it to the inspectors
//! to verify. The rulebook's `[bus.passengers]` gives each kind its
//! articles and infraction; the amounts come from `engine::bus`.

use crate::context::{Context, EngineError, round_brl};
use crate::engine::bus;
use crate::model::{ClaimKind, InfractionId, PassengerRules};
use chrono::{NaiveDate, NaiveDateTime, TimeDelta};
use rust_decimal::Decimal;

/// What the passenger tells, per kind of complaint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Facts {
    /// The trip was late or interrupted.
    Delay,
    /// A refund or revalidation refused: the trip's departure and when the
    /// passenger asked.
    Refund {
        departs: NaiveDateTime,
        requested: NaiveDateTime,
    },
    /// Baggage damaged (`lost`: lost), claimed from the carrier on
    /// `claimed_on`, and paid on `paid_on` if it was.
    Baggage {
        lost: bool,
        claimed_on: NaiveDate,
        paid_on: Option<NaiveDate>,
    },
    /// Excess baggage charged: the conventional fare, the kilograms in the
    /// hold and in the cabin, what was charged (R$).
    Excess {
        fare: Decimal,
        hold_kg: Decimal,
        hand_kg: Decimal,
        charged: Decimal,
    },
    /// The passenger's seat was sold to another.
    SeatSoldTwice,
}

impl Facts {
    pub fn kind(&self) -> ClaimKind {
        match self {
            Facts::Delay => ClaimKind::TripDelay,
            Facts::Refund { .. } => ClaimKind::RefundRefused,
            Facts::Baggage { lost: false, .. } => ClaimKind::BaggageDamaged,
            Facts::Baggage { lost: true, .. } => ClaimKind::BaggageLost,
            Facts::Excess { .. } => ClaimKind::ExcessBaggage,
            Facts::SeatSoldTwice => ClaimKind::SeatSoldTwice,
        }
    }
}

/// Whether the facts told show the infraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// As told, the carrier broke the law.
    Breach,
    /// As told, the law was kept.
    NoBreach,
    /// The inspectors must verify it (the facts told cannot settle it).
    ToVerify,
}

/// The law's answer to a complaint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer<'r> {
    pub kind: ClaimKind,
    /// What the passenger is owed and what the facts show, in Portuguese.
    pub findings: Vec<String>,
    /// The most owed or charged, in R$ (an indemnity's limit, the most an
    /// excess may cost), when it is known.
    pub limit: Option<Decimal>,
    /// The day the carrier must pay by.
    pub due: Option<NaiveDate>,
    pub verdict: Verdict,
    /// The infraction a breach is.
    pub infraction: InfractionId,
    pub citations: Vec<&'r str>,
}

fn rules<'r>(ctx: &Context<'r>) -> Result<&'r PassengerRules, EngineError> {
    ctx.rulebook
        .bus
        .as_ref()
        .and_then(|b| b.passengers.as_ref())
        .ok_or_else(|| {
            EngineError::NotInRulebook("reclamações de passageiros sobre uma viagem".into())
        })
}

fn reais(value: Decimal) -> String {
    crate::brl::money(&round_brl(value).to_string())
}

fn day(value: NaiveDate) -> String {
    value.format("%d/%m/%Y").to_string()
}

/// Weighs a complaint about a trip on `trip_day`, as the record stands
/// `today`.
pub fn answer<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    trip_day: NaiveDate,
    today: NaiveDate,
) -> Result<Answer<'r>, EngineError> {
    let passengers = rules(ctx)?;
    let kind = facts.kind();
    let rule = passengers.rule(kind).ok_or_else(|| {
        EngineError::NotInRulebook(format!("a reclamação de tipo `{}`", kind.name()))
    })?;
    let mut citations: Vec<&'r str> = rule.citations.iter().map(String::as_str).collect();
    let mut findings = Vec::new();
    let (mut limit, mut due, verdict) = (None, None, Verdict::ToVerify);
    let verdict = match *facts {
        Facts::Delay => {
            findings.push(
                "a transportadora deve providenciar outro veículo para concluir a viagem (art. 32)"
                    .into(),
            );
            findings.push(
                "se o atraso ou a interrupção se deve à transportadora, ela paga a alimentação e a pousada enquanto durar (art. 22, XII)"
                    .into(),
            );
            verdict
        }
        Facts::SeatSoldTwice => {
            findings
                .push("o passageiro tem garantida a poltrona do seu bilhete (art. 22, V)".into());
            findings.push(
                "enquanto a situação durar, a transportadora paga a alimentação e a pousada (art. 22, XII)"
                    .into(),
            );
            verdict
        }
        Facts::Refund { departs, requested } => {
            if requested > departs {
                return Err(EngineError::InvalidQuestion(
                    "o pedido de devolução foi feito depois da partida: informe quando o passageiro pediu"
                        .into(),
                ));
            }
            let (owed, citation) = bus::refund(ctx, departs, requested)?;
            if !citations.contains(&citation) {
                citations.push(citation);
            }
            let ahead = departs - requested;
            let told = format!(
                "pedido {}h{:02} antes da partida",
                ahead.num_hours(),
                ahead.num_minutes() % 60
            );
            if owed {
                findings.push(format!(
                    "{told}: a transportadora devia devolver o valor pago ou revalidar a passagem (art. 48)"
                ));
                Verdict::Breach
            } else {
                findings.push(format!(
                    "{told}: a lei só obriga a devolução ou a revalidação pedida com a antecedência do art. 48"
                ));
                Verdict::NoBreach
            }
        }
        Facts::Baggage {
            lost,
            claimed_on,
            paid_on,
        } => {
            if claimed_on < trip_day {
                return Err(EngineError::InvalidQuestion(
                    "a reclamação da bagagem não pode ser anterior à viagem".into(),
                ));
            }
            if claimed_on > trip_day {
                findings.push(format!(
                    "a lei pede a reclamação ao término da viagem (art. 53); esta foi feita em {}, depois da viagem de {}",
                    day(claimed_on),
                    day(trip_day)
                ));
            }
            let which = if lost { "loss" } else { "damage" };
            match bus::indemnity(ctx, which, claimed_on) {
                Ok((max, citation)) => {
                    citations.push(citation);
                    findings.push(format!(
                        "a indenização pelo {} vai até {} (art. 53, § 2º)",
                        if lost { "extravio" } else { "dano" },
                        reais(max)
                    ));
                    limit = Some(max);
                }
                Err(EngineError::InvalidQuestion(why)) => findings.push(why),
                Err(other) => return Err(other),
            }
            let days = ctx.whole(&passengers.indemnity_payment_days.value, claimed_on, "dias")?;
            let by = claimed_on
                .checked_add_signed(TimeDelta::days(i64::from(days)))
                .ok_or(EngineError::TooLarge)?;
            citations.push(&passengers.indemnity_payment_days.citation);
            due = Some(by);
            match paid_on {
                Some(paid) if paid <= by => {
                    findings.push(format!("paga em {}, dentro do prazo", day(paid)));
                    Verdict::NoBreach
                }
                Some(paid) => {
                    findings.push(format!(
                        "paga em {}, depois do prazo que terminou em {}",
                        day(paid),
                        day(by)
                    ));
                    Verdict::Breach
                }
                None if today > by => {
                    findings.push(format!(
                        "o prazo para indenizar terminou em {} e a indenização não foi paga",
                        day(by)
                    ));
                    Verdict::Breach
                }
                None => {
                    findings.push(format!(
                        "a transportadora tem até {} para indenizar, com o comprovante da bagagem (art. 53, § 1º)",
                        day(by)
                    ));
                    Verdict::ToVerify
                }
            }
        }
        Facts::Excess {
            fare,
            hold_kg,
            hand_kg,
            charged,
        } => {
            if [fare, hold_kg, hand_kg, charged]
                .iter()
                .any(|v| v.is_sign_negative())
            {
                return Err(EngineError::InvalidQuestion(
                    "a tarifa, os quilos e o valor cobrado não podem ser negativos".into(),
                ));
            }
            let baggage = bus::baggage(ctx, fare, hold_kg, hand_kg, trip_day)?;
            for c in baggage.citations {
                if !citations.contains(&c) {
                    citations.push(c);
                }
            }
            limit = Some(baggage.max_fee);
            findings.push(format!(
                "{} kg além da franquia: a lei permite cobrar até {}",
                baggage.excess_kg,
                reais(baggage.max_fee)
            ));
            if charged > baggage.max_fee {
                findings.push(format!(
                    "foram cobrados {}, {} acima do permitido",
                    reais(charged),
                    reais(charged - baggage.max_fee)
                ));
                Verdict::Breach
            } else {
                findings.push(format!(
                    "foram cobrados {}, dentro do permitido",
                    reais(charged)
                ));
                Verdict::NoBreach
            }
        }
    };
    Ok(Answer {
        kind,
        findings,
        limit,
        due,
        verdict,
        infraction: rule.infraction,
        citations,
    })
}
