//! A passenger's complaint about an intercity bus trip (Amapá art. 22, 32,
//! 48, 49, 53): the facts told beside the complaint's own and the engine's
//! answer (`engine::trip_claim`) — what the passenger is owed, up to how
//! much and by when, and whether the facts already show the carrier's
//! infraction — kept with the complaint for the inspectors.

use crate::StoreError;
use chrono::{NaiveDate, NaiveDateTime};
use outorga_core::context::Context;
use outorga_core::engine::trip_claim::{Facts, Verdict, answer};
use outorga_core::model::ClaimKind;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

worded! {
    /// Whether the facts told show the carrier's infraction.
    pub enum ClaimVerdict {
        Breach = "breach" => "os fatos, como relatados, mostram a infração",
        NoBreach = "no_breach" => "os fatos, como relatados, não mostram infração",
        ToVerify = "to_verify" => "a fiscalização precisa apurar os fatos",
    }
}

/// What the passenger tells of the trip, besides what every complaint
/// tells (when, where, the line, the plate).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripFacts {
    /// The trip's departure, as the ticket shows it.
    pub departs: Option<NaiveDateTime>,
    pub ticket: Option<String>,
    pub seat: Option<u32>,
    /// A refund: when the passenger asked for it.
    pub requested_at: Option<NaiveDateTime>,
    /// Baggage: the day it was claimed from the carrier, and the day the
    /// indemnity was paid, if it was.
    pub claimed_on: Option<NaiveDate>,
    pub paid_on: Option<NaiveDate>,
    /// Excess baggage: the conventional fare, the kilograms in the hold and
    /// in the cabin, and what was charged (R$).
    pub fare: Option<Decimal>,
    pub hold_kg: Option<Decimal>,
    pub hand_kg: Option<Decimal>,
    pub charged: Option<Decimal>,
}

/// The engine's answer as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripAnswer {
    pub findings: Vec<String>,
    pub limit: Option<Decimal>,
    pub due: Option<NaiveDate>,
    pub verdict: String,
    /// The infraction a breach is: its code and description.
    pub infraction: String,
    pub infraction_text: String,
    pub citations: Vec<String>,
}

impl TripAnswer {
    pub fn verdict(&self) -> Option<ClaimVerdict> {
        ClaimVerdict::parse(&self.verdict)
    }
}

/// A trip complaint's facts and answer (the `trip` column).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripComplaint {
    pub facts: TripFacts,
    pub answer: TripAnswer,
}

fn missing(field: &'static str, what: &str) -> StoreError {
    StoreError::Invalid {
        field,
        reason: format!("informe {what}"),
    }
}

/// The facts the engine weighs for `kind`, each one asked for by its field
/// when missing.
fn engine_facts(
    kind: ClaimKind,
    trip: &TripFacts,
    departs: NaiveDateTime,
) -> Result<Facts, StoreError> {
    Ok(match kind {
        ClaimKind::TripDelay => Facts::Delay,
        ClaimKind::SeatSoldTwice => Facts::SeatSoldTwice,
        ClaimKind::RefundRefused => Facts::Refund {
            departs,
            requested: trip.requested_at.ok_or_else(|| {
                missing(
                    "pedido_em",
                    "quando o passageiro pediu a devolução ou a revalidação",
                )
            })?,
        },
        ClaimKind::BaggageDamaged | ClaimKind::BaggageLost => Facts::Baggage {
            lost: kind == ClaimKind::BaggageLost,
            claimed_on: trip.claimed_on.ok_or_else(|| {
                missing(
                    "reclamada_em",
                    "o dia em que a bagagem foi reclamada à transportadora",
                )
            })?,
            paid_on: trip.paid_on,
        },
        ClaimKind::ExcessBaggage => Facts::Excess {
            fare: trip
                .fare
                .ok_or_else(|| missing("tarifa", "a tarifa do serviço convencional, em reais"))?,
            hold_kg: trip
                .hold_kg
                .ok_or_else(|| missing("kg_bagageiro", "os quilos no bagageiro"))?,
            hand_kg: trip.hand_kg.unwrap_or_default(),
            charged: trip
                .charged
                .ok_or_else(|| missing("cobrado", "quanto foi cobrado pelo excesso, em reais"))?,
        },
    })
}

/// Weighs the complaint of `kind` about a trip under the jurisdiction's
/// law, as the record stands `today`.
pub(crate) fn weigh(
    ctx: &Context<'_>,
    kind: ClaimKind,
    trip: &TripFacts,
    today: NaiveDate,
) -> Result<TripComplaint, StoreError> {
    let departs = trip
        .departs
        .ok_or_else(|| missing("partida", "o dia e a hora da partida da viagem"))?;
    let facts = engine_facts(kind, trip, departs)?;
    let told = answer(ctx, &facts, departs.date(), today).map_err(|e| StoreError::Invalid {
        field: "viagem",
        reason: e.to_string(),
    })?;
    let infraction = ctx.rulebook.infraction(told.infraction);
    Ok(TripComplaint {
        facts: trip.clone(),
        answer: TripAnswer {
            findings: told.findings,
            limit: told.limit,
            due: told.due,
            verdict: match told.verdict {
                Verdict::Breach => ClaimVerdict::Breach,
                Verdict::NoBreach => ClaimVerdict::NoBreach,
                Verdict::ToVerify => ClaimVerdict::ToVerify,
            }
            .name()
            .into(),
            infraction: infraction.code.clone(),
            infraction_text: infraction.description.clone(),
            citations: told.citations.into_iter().map(str::to_string).collect(),
        },
    })
}
