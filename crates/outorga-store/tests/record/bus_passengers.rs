//! Amapá's passengers and held buses in the record, tested from the law: a
//! complaint about a trip keeps the facts and the law's answer (a refund
//! asked 3 hours ahead is owed, art. 48; baggage lost is indemnified up to
//! 6 000 × CTM within 30 days, art. 53); a seized bus is kept at least 72
//! hours, to the hour, and released by an act once the expenses of art. 64,
//! §§ 1º–2º are paid (§ 3º); a retained one once the irregularity is
//! corrected (art. 69, parágrafo único). Nothing is half written when
//! refused.

use crate::bus_operation::{AP, BUS, CARRIER, LINE, setup};
use crate::common::{d, drop_schema, open, pg_schema};
use chrono::{NaiveDate, NaiveDateTime};
use outorga_core::engine::process::Step;
use outorga_core::model::{ExpenseKind, Rulebook};
use outorga_store::{
    AutoInput, Change, ClaimVerdict, ComplaintInput, ComplaintKind, CustodyInput, ExpenseInput,
    ProcessStep, Store, StoreError, TripFacts, sqlite_url,
};
use rust_decimal::Decimal;
use std::str::FromStr;

fn at(text: &str) -> NaiveDateTime {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M").expect("moment")
}

/// A change made at `local` Amapá time (UTC−3).
fn at_local(text: &str) -> Change<'static> {
    Change {
        by: "fiscal",
        at: at(text) + chrono::TimeDelta::hours(3),
        why: "teste automatizado",
    }
}

fn brl(text: &str) -> Decimal {
    Decimal::from_str(text).expect("number")
}

fn invalid(result: Result<impl std::fmt::Debug, StoreError>) -> (String, String) {
    match result {
        Err(StoreError::Invalid { field, reason }) => (field.to_string(), reason),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn complaint(kind: ComplaintKind, trip: TripFacts) -> ComplaintInput {
    ComplaintInput {
        kind,
        description: "Aconteceu na viagem de Macapá a Ferreira Gomes.".into(),
        occurred_at: at("2026-11-10 09:00"),
        place: "Rodoviária de Macapá".into(),
        plate: Some(BUS.into()),
        line: Some(LINE.into()),
        contact: None,
        trip: Some(trip),
    }
}

async fn trip_complaints(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;
    let received = at("2026-11-12 10:00");
    let departs = at("2026-11-10 14:00");
    // Asked exactly 3 hours ahead: owed; refused, it is art. 62's infraction.
    let refund = store
        .file_complaint(
            &at_local("2026-11-12 10:00"),
            AP,
            &complaint(
                ComplaintKind::RefundRefused,
                TripFacts {
                    departs: Some(departs),
                    requested_at: Some(at("2026-11-10 11:00")),
                    ..TripFacts::default()
                },
            ),
            (received, Some(&rb)),
        )
        .await
        .expect("refund complaint");
    let answer = refund.trip.expect("trip").answer;
    assert_eq!(answer.verdict(), Some(ClaimVerdict::Breach));
    assert_eq!(answer.infraction, "62");
    assert!(answer.citations.contains(&"Art. 48".to_string()));
    // Read back, the queue carries it to the inspectors.
    let queue = store
        .complaints(AP, None, outorga_store::Window::first(10))
        .await
        .expect("queue");
    assert_eq!(queue.items.len(), 1);
    assert_eq!(
        queue.items[0].trip.as_ref().map(|t| &t.answer),
        Some(&answer)
    );
    // One minute later: not owed.
    let late = store
        .file_complaint(
            &at_local("2026-11-12 10:00"),
            AP,
            &complaint(
                ComplaintKind::RefundRefused,
                TripFacts {
                    departs: Some(departs),
                    requested_at: Some(at("2026-11-10 11:01")),
                    ..TripFacts::default()
                },
            ),
            (received, Some(&rb)),
        )
        .await
        .expect("late refund complaint");
    assert_eq!(
        late.trip.expect("trip").answer.verdict(),
        Some(ClaimVerdict::NoBreach)
    );
    // Baggage lost, claimed at the end of the trip: up to 6 000 × the CTM
    // of the lines (one line counts: 0,2175), due 30 days after the claim.
    let lost = store
        .file_complaint(
            &at_local("2026-11-12 10:00"),
            AP,
            &complaint(
                ComplaintKind::BaggageLost,
                TripFacts {
                    departs: Some(departs),
                    claimed_on: Some(d(2026, 11, 10)),
                    ..TripFacts::default()
                },
            ),
            (received, Some(&rb)),
        )
        .await
        .expect("baggage complaint");
    let answer = lost.trip.expect("trip").answer;
    assert_eq!(answer.limit, Some(brl("1305.00")), "{answer:?}");
    assert_eq!(answer.due, Some(d(2026, 12, 10)));
    assert_eq!(answer.verdict(), Some(ClaimVerdict::ToVerify));
    assert_eq!(answer.infraction, "61-IV-g");
    // What the law needs is asked for by its field; nothing is written.
    let (field, _) = invalid(
        store
            .file_complaint(
                &at_local("2026-11-12 10:00"),
                AP,
                &complaint(
                    ComplaintKind::ExcessBaggage,
                    TripFacts {
                        departs: Some(departs),
                        fare: Some(brl("80")),
                        hold_kg: Some(brl("34")),
                        ..TripFacts::default()
                    },
                ),
                (received, Some(&rb)),
            )
            .await,
    );
    assert_eq!(field, "cobrado");
    let (field, _) = invalid(
        store
            .file_complaint(
                &at_local("2026-11-12 10:00"),
                AP,
                &complaint(ComplaintKind::TripDelay, TripFacts::default()),
                (received, Some(&rb)),
            )
            .await,
    );
    assert_eq!(field, "partida");
    // A trip's kind where no bus law is: refused by its kind.
    let (field, reason) = invalid(
        store
            .file_complaint(
                &at_local("2026-11-12 10:00"),
                AP,
                &complaint(ComplaintKind::SeatSoldTwice, TripFacts::default()),
                (received, None),
            )
            .await,
    );
    assert_eq!(field, "tipo", "{reason}");
    let all = store
        .complaints(AP, None, outorga_store::Window::first(10))
        .await
        .expect("queue");
    assert_eq!(all.items.len(), 3, "the refused complaints left nothing");
}

/// A charter that picks people up along its route (64-I): the bus seized
/// for at least 72 hours, besides art. 62's fine.
async fn seize(store: &Store, rb: &Rulebook, committed: &str, code: &str) -> (i32, i64) {
    let auto = store
        .issue_auto(
            &at_local(committed),
            rb,
            AP,
            &AutoInput {
                infraction: code.into(),
                offender: CARRIER.into(),
                permit: None,
                plate: Some(BUS.into()),
                committed_at: at(committed),
                place: "BR-156, km 12".into(),
                description: "Constatado na fiscalização de rotina.".into(),
            },
        )
        .await
        .expect("auto");
    (auto.year, auto.number)
}

async fn release(
    store: &Store,
    rb: &Rulebook,
    key: (i32, i64),
    local: &str,
) -> Result<outorga_store::Auto, StoreError> {
    let step = ProcessStep {
        text: "Ato de liberação nº 3/2026".into(),
        ..ProcessStep::new(Step::Release)
    };
    let day: NaiveDate = at(local).date();
    store
        .process_auto(&at_local(local), rb, AP, key, &step, day)
        .await
}

async fn custody(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;
    let key = seize(&store, &rb, "2026-06-10 14:00", "64-I").await;
    // Before its custody is recorded, the bus is not released.
    let (field, reason) = invalid(release(&store, &rb, key, "2026-06-20 10:00").await);
    assert_eq!(field, "liberacao", "{reason}");
    let kept = CustodyInput {
        held_at: at("2026-06-10 14:00"),
        place: "Pátio da SETRAP, Macapá".into(),
        custodian: "Chefe do pátio".into(),
    };
    let opened = store
        .open_custody(&at_local("2026-06-10 15:00"), &rb, AP, key, &kept)
        .await
        .expect("custody");
    assert_eq!(opened.plate, BUS);
    assert!(
        store
            .open_custody(&at_local("2026-06-10 15:00"), &rb, AP, key, &kept)
            .await
            .is_err()
    );
    // Only what the law puts on the carrier is charged.
    let expense = |kind, amount: &str| ExpenseInput {
        kind,
        description: "Passageiros no Hotel Central".into(),
        amount: brl(amount),
        incurred_on: d(2026, 6, 10),
    };
    let (field, reason) = invalid(
        store
            .add_custody_expense(
                &at_local("2026-06-11 09:00"),
                &rb,
                AP,
                key,
                &expense(ExpenseKind::RemovalStorage, "100"),
            )
            .await,
    );
    assert_eq!(field, "tipo", "{reason}");
    for wrong in ["0", "12.345"] {
        let (field, _) = invalid(
            store
                .add_custody_expense(
                    &at_local("2026-06-11 09:00"),
                    &rb,
                    AP,
                    key,
                    &expense(ExpenseKind::FoodLodging, wrong),
                )
                .await,
        );
        assert_eq!(field, "valor");
    }
    let charged = store
        .add_custody_expense(
            &at_local("2026-06-11 09:00"),
            &rb,
            AP,
            key,
            &expense(ExpenseKind::FoodLodging, "350.50"),
        )
        .await
        .expect("expense");
    assert_eq!(charged.expenses.len(), 1);
    // 71 h 59 min later with the expense unpaid: two requirements unmet.
    let view = store
        .custody(&rb, AP, key, at("2026-06-13 13:59"))
        .await
        .expect("view")
        .expect("custody");
    let unmet: Vec<&str> = view
        .checks
        .iter()
        .filter(|c| !c.met)
        .map(|c| c.citation.as_str())
        .collect();
    assert_eq!(unmet, ["Art. 64", "Art. 64, § 3º"]);
    store
        .pay_custody_expense(
            &at_local("2026-06-12 09:00"),
            &rb,
            AP,
            (key, 1),
            (d(2026, 6, 12), "Recibo 881"),
        )
        .await
        .expect("paid");
    // Paid, but a minute short of the 72 hours: refused, to the hour.
    let (_, reason) = invalid(release(&store, &rb, key, "2026-06-13 13:59").await);
    assert!(reason.contains("72 horas"), "{reason}");
    let released = release(&store, &rb, key, "2026-06-13 14:00")
        .await
        .expect("released");
    assert_eq!(released.released_on, Some(d(2026, 6, 13)));
    let view = store
        .custody(&rb, AP, key, at("2026-06-13 14:00"))
        .await
        .expect("view")
        .expect("custody");
    assert_eq!(view.custody.released_at, Some(at("2026-06-13 14:00")));
    assert_eq!(
        view.custody.release_act.as_deref(),
        Some("Ato de liberação nº 3/2026")
    );
    assert!(
        store
            .add_custody_expense(
                &at_local("2026-06-14 09:00"),
                &rb,
                AP,
                key,
                &expense(ExpenseKind::FoodLodging, "1"),
            )
            .await
            .is_err(),
        "a released custody does not change"
    );

    // A retention (the price board missing, art. 63, I): no minimum time;
    // released once the irregularity is corrected (art. 69, § único).
    let key = seize(&store, &rb, "2026-07-01 08:00", "61-II-b").await;
    store
        .open_custody(
            &at_local("2026-07-01 08:10"),
            &rb,
            AP,
            key,
            &CustodyInput {
                held_at: at("2026-07-01 08:00"),
                place: "Rodoviária de Macapá, plataforma 3".into(),
                custodian: "Fiscal de plantão".into(),
            },
        )
        .await
        .expect("custody");
    let (_, reason) = invalid(release(&store, &rb, key, "2026-07-01 08:20").await);
    assert!(reason.contains("Art. 69, Parágrafo único"), "{reason}");
    store
        .correct_custody(
            &at_local("2026-07-01 08:30"),
            &rb,
            AP,
            key,
            (at("2026-07-01 08:30"), "Quadro de preços afixado na porta"),
        )
        .await
        .expect("corrected");
    release(&store, &rb, key, "2026-07-01 08:40")
        .await
        .expect("released");
    let held = store.vehicles_held(AP, 10).await.expect("held");
    assert!(held.is_empty(), "{held:?}");
}

#[tokio::test]
async fn trip_complaints_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    trip_complaints(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn trip_complaints_on_postgresql() {
    let (schema, url) = pg_schema("bus_trip_complaints").await;
    trip_complaints(&url).await;
    drop_schema(&schema).await;
}

#[tokio::test]
async fn custody_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    custody(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn custody_on_postgresql() {
    let (schema, url) = pg_schema("bus_custody").await;
    custody(&url).await;
    drop_schema(&schema).await;
}
