//! Amapá's passengers' complaints about a trip and the custody of a bus
//! held on the spot, weighed by the engine with the rulebook as written:
//! each rule at its boundary (art. 48's three hours, art. 49's franchise,
//! art. 53's limits and thirty days, art. 64 and 69's release).

use chrono::{NaiveDate, NaiveDateTime};
use outorga_core::context::{Context, Overrides};
use outorga_core::engine::custody::{self, Held, Standing};
use outorga_core::engine::trip_claim::{Answer, Facts, Verdict, answer};
use outorga_core::model::{Dated, ExpenseKind, Rulebook, SanctionKind};
use rust_decimal::Decimal;
use std::path::PathBuf;
use std::str::FromStr;

fn amapa() -> Rulebook {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let library = outorga_rulebook::load(&dir).expect("the rulebooks load");
    library
        .rulebooks()
        .find(|r| r.id == "amapa/onibus-intermunicipal")
        .expect("the Amapá rulebook")
        .clone()
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::from_str(text).expect("a day")
}

fn at(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").expect("a moment")
}

fn brl(text: &str) -> Decimal {
    Decimal::from_str(text).expect("a number")
}

/// A CTM of R$ 0,20 from 2026-01-01, as a deployment computes it from its
/// lines.
fn with_ctm(rulebook: &Rulebook) -> Context<'_> {
    let mut overrides = Overrides::default();
    overrides.units.insert(
        "CTM".into(),
        vec![Dated {
            from: day("2026-01-01"),
            value: brl("0.20"),
            source: None,
        }],
    );
    Context::new(rulebook, overrides)
}

fn ask<'r>(rulebook: &'r Rulebook, facts: Facts, trip: &str, today: &str) -> Answer<'r> {
    let ctx = with_ctm(rulebook);
    answer(&ctx, &facts, day(trip), day(today)).expect("an answer")
}

#[test]
fn a_refund_asked_three_hours_ahead_is_owed_and_one_minute_later_is_not() {
    let rulebook = amapa();
    let departs = at("2026-03-10 14:00");
    let owed = ask(
        &rulebook,
        Facts::Refund {
            departs,
            requested: at("2026-03-10 11:00"),
        },
        "2026-03-10",
        "2026-03-11",
    );
    assert_eq!(owed.verdict, Verdict::Breach);
    assert!(owed.citations.contains(&"Art. 48"), "{:?}", owed.citations);
    assert_eq!(rulebook.infraction(owed.infraction).code, "62");
    let late = ask(
        &rulebook,
        Facts::Refund {
            departs,
            requested: at("2026-03-10 11:01"),
        },
        "2026-03-10",
        "2026-03-11",
    );
    assert_eq!(late.verdict, Verdict::NoBreach);
    assert!(late.findings[0].contains("2h59"), "{:?}", late.findings);
}

#[test]
fn a_refund_asked_after_the_departure_is_a_question_put_wrong() {
    let rulebook = amapa();
    let ctx = with_ctm(&rulebook);
    let refused = answer(
        &ctx,
        &Facts::Refund {
            departs: at("2026-03-10 14:00"),
            requested: at("2026-03-10 14:30"),
        },
        day("2026-03-10"),
        day("2026-03-11"),
    )
    .expect_err("a refusal");
    assert!(
        refused.to_string().contains("depois da partida"),
        "{refused}"
    );
}

#[test]
fn excess_baggage_may_cost_half_a_percent_of_the_fare_per_kilogram() {
    let rulebook = amapa();
    // 34 kg in the hold (4 over 30) and 6 in the cabin (1 over 5): 5 kg ×
    // 0.5 % × R$ 80,00 = R$ 2,00.
    let facts = |charged: &str| Facts::Excess {
        fare: brl("80.00"),
        hold_kg: brl("34"),
        hand_kg: brl("6"),
        charged: brl(charged),
    };
    let at_limit = ask(&rulebook, facts("2.00"), "2026-03-10", "2026-03-10");
    assert_eq!(at_limit.limit, Some(brl("2.00")));
    assert_eq!(at_limit.verdict, Verdict::NoBreach);
    assert!(at_limit.citations.contains(&"Art. 49, Parágrafo único"));
    let over = ask(&rulebook, facts("2.01"), "2026-03-10", "2026-03-10");
    assert_eq!(over.verdict, Verdict::Breach);
    assert_eq!(rulebook.infraction(over.infraction).code, "61-III-c");
    // Within the franchise (30 kg and 5 kg exactly), nothing may be charged.
    let free = ask(
        &rulebook,
        Facts::Excess {
            fare: brl("80.00"),
            hold_kg: brl("30"),
            hand_kg: brl("5"),
            charged: brl("0.01"),
        },
        "2026-03-10",
        "2026-03-10",
    );
    assert_eq!(
        (free.limit, free.verdict),
        (Some(brl("0.00")), Verdict::Breach)
    );
}

#[test]
fn baggage_is_indemnified_up_to_the_ctm_multiple_within_thirty_days() {
    let rulebook = amapa();
    let lost = |paid_on: Option<&str>, today: &str| {
        ask(
            &rulebook,
            Facts::Baggage {
                lost: true,
                claimed_on: day("2026-03-10"),
                paid_on: paid_on.map(day),
            },
            "2026-03-10",
            today,
        )
    };
    // Lost: up to 6 000 × R$ 0,20; due 30 calendar days after the claim.
    let waiting = lost(None, "2026-04-09");
    assert_eq!(waiting.limit, Some(brl("1200.00")));
    assert_eq!(waiting.due, Some(day("2026-04-09")));
    assert_eq!(waiting.verdict, Verdict::ToVerify);
    assert!(waiting.citations.contains(&"Art. 53, § 2º, II"));
    assert!(waiting.citations.contains(&"Art. 53, § 1º"));
    let overdue = lost(None, "2026-04-10");
    assert_eq!(overdue.verdict, Verdict::Breach);
    assert_eq!(rulebook.infraction(overdue.infraction).code, "61-IV-g");
    assert_eq!(
        lost(Some("2026-04-09"), "2026-05-01").verdict,
        Verdict::NoBreach
    );
    assert_eq!(
        lost(Some("2026-04-10"), "2026-05-01").verdict,
        Verdict::Breach
    );
    // Damaged: up to 3 000 × CTM.
    let damaged = ask(
        &rulebook,
        Facts::Baggage {
            lost: false,
            claimed_on: day("2026-03-10"),
            paid_on: None,
        },
        "2026-03-10",
        "2026-03-10",
    );
    assert_eq!(damaged.limit, Some(brl("600.00")));
    assert!(damaged.citations.contains(&"Art. 53, § 2º, I"));
}

#[test]
fn a_claim_made_after_the_trip_is_noted_and_a_ctm_unknown_is_said() {
    let rulebook = amapa();
    let ctx = Context::new(&rulebook, Overrides::default());
    let late = answer(
        &ctx,
        &Facts::Baggage {
            lost: false,
            claimed_on: day("2026-03-12"),
            paid_on: None,
        },
        day("2026-03-10"),
        day("2026-03-12"),
    )
    .expect("an answer");
    assert!(
        late.findings[0].contains("ao término da viagem"),
        "{:?}",
        late.findings
    );
    assert_eq!(late.limit, None, "no CTM in force: no limit in R$");
    assert!(
        late.findings.iter().any(|f| f.contains("CTM")),
        "{:?}",
        late.findings
    );
}

#[test]
fn a_delay_and_a_seat_sold_twice_go_to_the_inspectors_with_the_rights() {
    let rulebook = amapa();
    let delay = ask(&rulebook, Facts::Delay, "2026-03-10", "2026-03-10");
    assert_eq!(delay.verdict, Verdict::ToVerify);
    assert_eq!(delay.citations, ["Art. 22, IV", "Art. 32", "Art. 22, XII"]);
    assert_eq!(rulebook.infraction(delay.infraction).code, "61-III-b");
    let seat = ask(&rulebook, Facts::SeatSoldTwice, "2026-03-10", "2026-03-10");
    assert_eq!(rulebook.infraction(seat.infraction).code, "61-IV-b");
    assert_eq!(seat.citations, ["Art. 22, V", "Art. 22, XII"]);
}

#[test]
fn a_seized_bus_is_released_after_72_hours_with_fines_and_expenses_paid() {
    let rulebook = amapa();
    let procedure = rulebook.procedure.as_ref().expect("a procedure");
    let rule = procedure
        .custody
        .iter()
        .find(|c| c.kind == SanctionKind::VehicleSeizure);
    let held = Held {
        kind: SanctionKind::VehicleSeizure,
        since: at("2026-06-10 14:00"),
        minimum: Some((72, "Art. 64")),
    };
    let unpaid = Standing {
        expenses_unpaid: vec![(ExpenseKind::FoodLodging, brl("300"))],
        ..Standing::default()
    };
    let checks = custody::release(rule, &held, &unpaid, at("2026-06-13 13:59")).expect("checks");
    let unmet: Vec<&str> = checks
        .iter()
        .filter(|c| !c.met)
        .map(|c| c.citation)
        .collect();
    assert_eq!(unmet, ["Art. 64", "Art. 64, § 3º"]);
    let paid = custody::release(rule, &held, &Standing::default(), at("2026-06-13 14:00"))
        .expect("checks");
    assert!(custody::releasable(&paid), "{paid:?}");
    assert_eq!(
        custody::expense(rule, held.kind, ExpenseKind::ContinuationTransport).expect("§ 1º"),
        "Art. 64, § 1º"
    );
    assert!(custody::expense(rule, held.kind, ExpenseKind::RemovalStorage).is_err());
}

#[test]
fn a_retained_bus_goes_on_once_the_fault_is_corrected() {
    let rulebook = amapa();
    let procedure = rulebook.procedure.as_ref().expect("a procedure");
    let rule = procedure
        .custody
        .iter()
        .find(|c| c.kind == SanctionKind::VehicleRetention);
    let held = Held {
        kind: SanctionKind::VehicleRetention,
        since: at("2026-06-10 14:00"),
        minimum: None,
    };
    let open = custody::release(rule, &held, &Standing::default(), at("2026-06-10 15:00"))
        .expect("checks");
    assert!(!custody::releasable(&open));
    assert_eq!(open[0].citation, "Art. 69, Parágrafo único");
    let corrected = Standing {
        corrected: Some(at("2026-06-10 14:40")),
        ..Standing::default()
    };
    assert!(custody::releasable(
        &custody::release(rule, &held, &corrected, at("2026-06-10 15:00")).expect("checks")
    ));
}
