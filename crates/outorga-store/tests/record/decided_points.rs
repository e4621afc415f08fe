//! Teófilo Otoni art. 85: after the process of a cassation, the Director may
//! decide instead a fine with 4 points (a), a suspension with 8 (b), or both
//! with 12 (§ 1º). The record counts the points of the option decided, not
//! the infraction's: on both backends, a third 73409 (4 points each) decided
//! as b puts 4 + 4 + 8 = 16 points on the record, over a threshold of 14 that
//! the infraction's own 12 would not cross.

use crate::common::{by, d, drop_schema, on, pg_schema, rulebook_named};
use chrono::NaiveDate;
use outorga_core::engine::process::{Decision, Status, Step};
use outorga_core::model::{Rulebook, SanctionKind};
use outorga_store::{AutoInput, Jurisdiction, ProcessStep, Store, Window, sqlite_url};
use rust_decimal::Decimal;

const TO: &str = "teofilo-otoni";
const ANA: &str = "52601815906";

fn auto(day: NaiveDate) -> AutoInput {
    AutoInput {
        infraction: "73409".into(),
        offender: ANA.into(),
        permit: None,
        plate: None,
        committed_at: day.and_hms_opt(9, 0, 0).expect("time"),
        place: "Centro".into(),
        description: "itinerário não autorizado".into(),
    }
}

async fn take(store: &Store, rb: &Rulebook, key: (i32, i64), step: Step, day: NaiveDate) {
    store
        .process_auto(&on(day), rb, TO, key, &ProcessStep::new(step), day)
        .await
        .unwrap_or_else(|e| panic!("{day}: {e:?}"));
}

/// An auto made final without a defense, on the day after its limit.
async fn final_without_defense(store: &Store, rb: &Rulebook, day: NaiveDate) {
    let issued = store
        .issue_auto(&on(day), rb, TO, &auto(day))
        .await
        .expect("auto");
    let key = (issued.year, issued.number);
    let notified = store
        .process_auto(
            &on(day),
            rb,
            TO,
            key,
            &ProcessStep::new(Step::Notify { cure_days: None }),
            day,
        )
        .await
        .expect("notified");
    let after = notified.defense_by.and_then(|d| d.succ_opt()).expect("day");
    take(store, rb, key, Step::Finalize, after).await;
}

async fn exercise(url: &str) {
    let store = crate::common::open(url).await;
    let rb = rulebook_named("teofilo-otoni/mototaxi");
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: TO.into(),
                name: "Teófilo Otoni".into(),
                state: "MG".into(),
                rulebooks: vec![rb.id.clone()],
            }],
        )
        .await
        .expect("sync");
    store.register(&by(), TO, ANA, "Ana").await.expect("ana");
    for name in ["auxiliary_cassation_points", "holder_cassation_points"] {
        store
            .set_parameter(
                &by(),
                &rb,
                TO,
                (name, Decimal::from(14)),
                &crate::common::decree(&rb),
            )
            .await
            .expect("threshold");
    }
    final_without_defense(&store, &rb, d(2026, 1, 5)).await;
    final_without_defense(&store, &rb, d(2026, 3, 2)).await;
    let third = store
        .issue_auto(&on(d(2026, 5, 4)), &rb, TO, &auto(d(2026, 5, 4)))
        .await
        .expect("third");
    let key = (third.year, third.number);
    assert!(
        third
            .proposal
            .sanctions
            .iter()
            .any(|s| s.kind == "driver_cassation"),
        "{:?}",
        third.proposal
    );
    let b = third
        .proposal
        .options
        .iter()
        .find(|o| o.record_as.as_deref() == Some("85-b"))
        .expect("option b");
    let kinds: Vec<SanctionKind> = b
        .sanctions
        .iter()
        .filter_map(|s| SanctionKind::parse(&s.kind))
        .collect();
    take(
        &store,
        &rb,
        key,
        Step::Notify { cure_days: None },
        d(2026, 5, 5),
    )
    .await;
    take(&store, &rb, key, Step::Defend, d(2026, 5, 6)).await;
    let judge = Step::Judge(Decision {
        upheld: true,
        days: Some(10),
        sanctions: Some(kinds),
        by: Some("diretor".into()),
        ..Decision::default()
    });
    take(&store, &rb, key, judge, d(2026, 5, 20)).await;
    take(&store, &rb, key, Step::NotifyDecision, d(2026, 5, 21)).await;
    let (judged, _) = store.auto_state(TO, key).await.expect("state");
    let after = judged.appeal_by.and_then(|d| d.succ_opt()).expect("day");
    take(&store, &rb, key, Step::Finalize, after).await;
    let (last, _) = store.auto_state(TO, key).await.expect("state");
    assert_eq!(last.status, Status::Final);
    assert_eq!(last.recorded_as.as_deref(), Some("85-b"));
    let agenda = store
        .agenda(TO, &[&rb], (after, 1), Window::first(200))
        .await
        .expect("agenda")
        .items;
    let crossed: Vec<_> = agenda
        .iter()
        .filter(|i| i.kind == "threshold" && i.subject == format!("person:{ANA}"))
        .collect();
    assert_eq!(crossed.len(), 1, "{agenda:#?}");
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decided_points_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = sqlite_url(dir.path()).expect("url");
    exercise(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decided_points_on_postgresql() {
    let (schema, url) = pg_schema("decided_points").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}
