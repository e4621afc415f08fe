//! The procedure applied by the record, on both backends: Canguçu's notice
//! of irregularity (cured, or found not cured and fined: Anexo I art. 7º–9º;
//! the time to cure it sets and the verification told 24 hours before),
//! the board's choice within the law's range and among its penalties (art.
//! 19, III), and Santa Maria de Jetibá's seizure of a clandestine vehicle at
//! once, which ends when the auto is annulled (art. 54, § 2º; 55), as the
//! public check sees it (with a failed inspection).

use crate::common::{by, d, drop_schema, on, pg_schema, rulebook_named as rulebook};
use chrono::NaiveDate;
use outorga_core::engine::in_service::{self, Bar};
use outorga_core::engine::process::{Decision, Status, Step};
use outorga_core::model::{Rulebook, SanctionKind};
use outorga_store::{
    AutoInput, DebtFilter, Jurisdiction, ProcessStep, Store, StoreError, Vehicle, Window,
    sqlite_url,
};

const CG: &str = "cangucu";
const SMJ: &str = "santa-maria-de-jetiba";
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";

fn auto(infraction: &str, offender: &str, rulebook: &Rulebook, day: NaiveDate) -> AutoInput {
    AutoInput {
        infraction: infraction.into(),
        offender: offender.into(),
        permit: None,
        plate: Some("MTX1A22".into()),
        committed_at: day.and_hms_opt(9, 0, 0).expect("time"),
        place: format!("fiscalização de {}", rulebook.id),
        description: "constatado pelo fiscal".into(),
    }
}

fn refused(result: Result<outorga_store::Auto, StoreError>) -> Vec<String> {
    match result {
        Err(StoreError::Refused { articles, .. }) => articles,
        other => panic!("expected a refusal by the law, got {other:?}"),
    }
}

async fn setup(store: &Store) {
    store
        .sync_jurisdictions(
            &by(),
            &[
                Jurisdiction {
                    id: CG.into(),
                    name: "Canguçu".into(),
                    state: "RS".into(),
                    rulebooks: vec!["cangucu/taxi".into()],
                },
                Jurisdiction {
                    id: SMJ.into(),
                    name: "Santa Maria de Jetibá".into(),
                    state: "ES".into(),
                    rulebooks: vec!["santa-maria-de-jetiba/taxi".into()],
                },
            ],
        )
        .await
        .expect("sync");
    for j in [CG, SMJ] {
        for doc in [ANA, BETO] {
            store
                .register(&by(), j, doc, "Pessoa")
                .await
                .expect("person");
        }
    }
}

/// Takes one step of a Canguçu auto's process on `day`.
async fn cangucu_step(
    store: &Store,
    key: (i32, i64),
    step: Step,
    day: NaiveDate,
) -> Result<outorga_store::Auto, StoreError> {
    let rb = rulebook("cangucu/taxi");
    store
        .process_auto(&on(day), &rb, CG, key, &ProcessStep::new(step), day)
        .await
}

/// A first leve infraction is a notice of irregularity: notified, it waits
/// for the cure (15 days, the product's default for what the notice sets);
/// cured in time it ends; found not cured after that, it becomes the auto
/// with the fine of art. 9º, notified anew, final without a defense.
async fn notice_of_irregularity(store: &Store) {
    let rb = rulebook("cangucu/taxi");
    let step = |key, step, day| cangucu_step(store, key, step, day);
    let first = store
        .issue_auto(
            &on(d(2026, 6, 8)),
            &rb,
            CG,
            &auto("A16-I", ANA, &rb, d(2026, 6, 8)),
        )
        .await
        .expect("notice");
    assert_eq!(first.status, Status::Issued);
    assert_eq!(first.proposal.sanctions[0].kind, "notice_of_irregularity");
    assert_eq!(first.proposal.uncured[0].kind, "fine");
    let key = (first.year, first.number);
    let notified = step(key, Step::Notify { cure_days: None }, d(2026, 6, 9))
        .await
        .expect("notified");
    assert_eq!(notified.status, Status::AwaitingCure);
    // 15 calendar days from Tue 9 June: Wed 24 June.
    assert_eq!(notified.cure_by, Some(d(2026, 6, 24)));
    // The agenda lists the time to cure.
    let agenda = store
        .agenda(CG, &[&rb], (d(2026, 6, 10), 30), Window::first(200))
        .await
        .expect("agenda")
        .items;
    let subject = format!("auto:{}:{}", key.0, key.1);
    let cure = agenda
        .iter()
        .find(|i| i.kind == "cure" && i.subject == subject)
        .unwrap_or_else(|| panic!("the time to cure in {agenda:#?}"));
    assert_eq!(cure.due, d(2026, 6, 24));
    assert!(cure.description.contains("sanar"), "{}", cure.description);
    // The verification comes after the time to cure, never before.
    let articles = refused(step(key, Step::NotCured, d(2026, 6, 24)).await);
    assert_eq!(articles, ["Anexo I, Art. 7º, § 1º"]);
    let cured = step(key, Step::Cure, d(2026, 6, 24)).await.expect("cured");
    assert_eq!(cured.status, Status::Cured);

    let second = store
        .issue_auto(
            &on(d(2026, 6, 8)),
            &rb,
            CG,
            &auto("A16-I", BETO, &rb, d(2026, 6, 8)),
        )
        .await
        .expect("notice");
    let key = (second.year, second.number);
    step(key, Step::Notify { cure_days: None }, d(2026, 6, 9))
        .await
        .expect("notified");
    let articles = refused(step(key, Step::Cure, d(2026, 6, 25)).await);
    assert_eq!(articles, ["Anexo I, Art. 7º, § 1º"]);
    let found = step(key, Step::NotCured, d(2026, 6, 25))
        .await
        .expect("not cured");
    assert_eq!((found.status, found.uncured), (Status::Issued, true));
    assert_eq!(found.issued_on, Some(d(2026, 6, 25)));
    let noticed = step(key, Step::Notify { cure_days: None }, d(2026, 6, 26))
        .await
        .expect("auto notified");
    assert_eq!(noticed.status, Status::Notified);
    let after = noticed
        .defense_by
        .expect("defense")
        .succ_opt()
        .expect("day");
    let last = step(key, Step::Finalize, after).await.expect("final");
    assert_eq!(last.status, Status::Final);
    let debts = store
        .debts(
            CG,
            &DebtFilter {
                debtor: Some(BETO.into()),
                ..DebtFilter::default()
            },
            Window::first(10),
        )
        .await
        .expect("debts")
        .items;
    assert_eq!(debts.len(), 1);
    assert_eq!(
        (debts[0].unit.as_str(), debts[0].quantity.as_str()),
        ("BRL", "150")
    );
}

/// A grave infraction: the board fixes the suspension within 5–30 days and
/// may leave it out (art. 19: "alternativamente"); a cassation is not among
/// the penalties of a grave one.
async fn the_boards_choice(store: &Store) {
    let rb = rulebook("cangucu/taxi");
    let grave = store
        .issue_auto(
            &on(d(2026, 7, 1)),
            &rb,
            CG,
            &auto("A18-V", ANA, &rb, d(2026, 7, 1)),
        )
        .await
        .expect("auto");
    let key = (grave.year, grave.number);
    let take = |step: ProcessStep, day: NaiveDate| {
        let rb = rb.clone();
        async move { store.process_auto(&on(day), &rb, CG, key, &step, day).await }
    };
    take(
        ProcessStep::new(Step::Notify { cure_days: None }),
        d(2026, 7, 2),
    )
    .await
    .expect("notified");
    take(
        ProcessStep::with_text(Step::Defend, "não houve"),
        d(2026, 7, 3),
    )
    .await
    .expect("defense");
    let judge = |days: Option<u32>, sanctions: &[SanctionKind]| {
        ProcessStep::with_text(
            Step::Judge(Decision {
                upheld: true,
                days,
                sanctions: Some(sanctions.to_vec()),
                not_admitted: None,
                by: None,
                heard: false,
            }),
            "mantido",
        )
    };
    let both = [SanctionKind::Fine, SanctionKind::PermitSuspension];
    let articles = refused(take(judge(Some(31), &both), d(2026, 7, 10)).await);
    assert!(
        articles.contains(&"Art. 19, III".to_string()),
        "{articles:?}"
    );
    let articles = refused(
        take(
            judge(None, &[SanctionKind::PermitCassation]),
            d(2026, 7, 10),
        )
        .await,
    );
    assert_eq!(articles, ["Anexo I, Art. 5º, § 5º"]);
    let judged = take(judge(Some(12), &both), d(2026, 7, 10))
        .await
        .expect("judged");
    assert_eq!(judged.status, Status::Judged);
    assert_eq!(judged.decision.as_ref().and_then(|d| d.days), Some(12));
}

/// Clandestine transport: the vehicle is seized at once for 30 days and may
/// be kept until all is paid (art. 54, § 2º; 55, I and § 3º), before any
/// decision; annulled, the measures end the day before.
async fn seized_at_once(store: &Store) {
    let rb = rulebook("santa-maria-de-jetiba/taxi");
    let car = Vehicle {
        plate: "MTX1A22".into(),
        renavam: "29485839707".into(),
        manufactured: 2022,
        colour: "branca".into(),
        doors: Some(4),
        capacity: Some(4),
        equipment: vec!["taximetro".into()],
        ..Vehicle::default()
    };
    store
        .register_vehicle(&by(), SMJ, &car, 2026)
        .await
        .expect("vehicle");
    // Its only inspection failed: not in service, whatever else it has.
    store
        .record_inspection(
            &on(d(2026, 8, 1)),
            &rb,
            SMJ,
            ("MTX1A22", "periodic"),
            d(2026, 8, 1),
            (false, "pneus carecas"),
        )
        .await
        .expect("inspection");
    let bars = |check: Option<outorga_store::PlateCheck>, day: NaiveDate| {
        in_service::vehicle(&check.expect("plate").record(), day)
    };
    let before = bars(
        store
            .plate_check(SMJ, "MTX1A22", d(2026, 8, 2))
            .await
            .expect("check"),
        d(2026, 8, 2),
    );
    assert!(
        before.contains(&Bar::InspectionFailed(d(2026, 8, 1))),
        "{before:?}"
    );
    let issued = store
        .issue_auto(
            &on(d(2026, 8, 3)),
            &rb,
            SMJ,
            &auto("55", BETO, &rb, d(2026, 8, 3)),
        )
        .await
        .expect("auto");
    let measures = |agenda: Vec<outorga_store::AgendaItem>| -> Vec<NaiveDate> {
        agenda
            .into_iter()
            .filter(|i| i.subject == format!("auto:{}:{}", issued.year, issued.number))
            .map(|i| i.due)
            .collect()
    };
    let agenda = store
        .agenda(SMJ, &[&rb], (d(2026, 8, 1), 60), Window::first(200))
        .await
        .expect("agenda")
        .items;
    // The seizure's 30 days from 3 August end on 1 September.
    assert!(measures(agenda).contains(&d(2026, 9, 1)));
    // The public check sees it seized, and retained until released.
    let seized = bars(
        store
            .plate_check(SMJ, "MTX1A22", d(2026, 8, 3))
            .await
            .expect("check"),
        d(2026, 8, 3),
    );
    assert!(
        seized.contains(&Bar::Held(
            SanctionKind::VehicleSeizure,
            Some(d(2026, 9, 1))
        )) && seized.contains(&Bar::Held(SanctionKind::VehicleRetention, None)),
        "{seized:?}"
    );
    let key = (issued.year, issued.number);
    let take = |step: ProcessStep, day: NaiveDate| {
        let rb = rb.clone();
        async move {
            store
                .process_auto(&on(day), &rb, SMJ, key, &step, day)
                .await
        }
    };
    take(
        ProcessStep::new(Step::Notify { cure_days: None }),
        d(2026, 8, 4),
    )
    .await
    .expect("notified");
    take(
        ProcessStep::with_text(Step::Defend, "não era clandestino"),
        d(2026, 8, 5),
    )
    .await
    .expect("defense");
    let annulled = take(
        ProcessStep::with_text(
            Step::Judge(Decision {
                upheld: false,
                ..Decision::default()
            }),
            "inconsistente",
        ),
        d(2026, 8, 10),
    )
    .await
    .expect("annulled");
    assert_eq!(annulled.status, Status::Annulled);
    let agenda = store
        .agenda(SMJ, &[&rb], (d(2026, 8, 1), 60), Window::first(200))
        .await
        .expect("agenda")
        .items;
    let ends = measures(agenda);
    assert!(!ends.contains(&d(2026, 9, 1)), "{ends:?}");
    assert!(ends.contains(&d(2026, 8, 9)), "{ends:?}");
    let released = bars(
        store
            .plate_check(SMJ, "MTX1A22", d(2026, 8, 10))
            .await
            .expect("check"),
        d(2026, 8, 10),
    );
    assert!(
        !released.iter().any(|b| matches!(b, Bar::Held(..))),
        "{released:?}"
    );

    // Seized again: released only once its 30 days from 11 August have run
    // (the first free day, 10 September), and then nothing holds it.
    let again = store
        .issue_auto(
            &on(d(2026, 8, 11)),
            &rb,
            SMJ,
            &auto("55", BETO, &rb, d(2026, 8, 11)),
        )
        .await
        .expect("auto");
    let key = (again.year, again.number);
    let release = |day: NaiveDate| {
        let rb = rb.clone();
        async move {
            store
                .process_auto(
                    &on(day),
                    &rb,
                    SMJ,
                    key,
                    &ProcessStep::new(Step::Release),
                    day,
                )
                .await
        }
    };
    let articles = refused(release(d(2026, 9, 9)).await);
    assert!(articles.contains(&"Art. 55, I".to_string()), "{articles:?}");
    let freed = release(d(2026, 9, 10)).await.expect("released");
    assert_eq!(freed.released_on, Some(d(2026, 9, 10)));
    let after = bars(
        store
            .plate_check(SMJ, "MTX1A22", d(2026, 9, 10))
            .await
            .expect("check"),
        d(2026, 9, 10),
    );
    assert!(
        !after.iter().any(|b| matches!(b, Bar::Held(..))),
        "{after:?}"
    );
}

/// The notice sets its own time to cure (Anexo I art. 7º, § 1º), kept on
/// the auto; the verification inspection is told at least 24 hours before
/// it (art. 7º, § 2º), and only it finds the irregularity not cured.
async fn the_verification(store: &Store) {
    let rb = rulebook("cangucu/taxi");
    let step = |key, step, day| cangucu_step(store, key, step, day);
    let at = |day: NaiveDate, h: u32, m: u32| day.and_hms_opt(h, m, 0).expect("time");
    let notice = store
        .issue_auto(
            &on(d(2026, 8, 3)),
            &rb,
            CG,
            &auto("A16-II", ANA, &rb, d(2026, 8, 3)),
        )
        .await
        .expect("notice");
    let key = (notice.year, notice.number);
    let notified = step(
        key,
        Step::Notify {
            cure_days: Some(10),
        },
        d(2026, 8, 4),
    )
    .await
    .expect("notified");
    // Ten calendar days from Tue 4 August: Fri 14 August.
    assert_eq!(
        (notified.cure_days, notified.cure_by),
        (Some(10), Some(d(2026, 8, 14)))
    );
    let schedule = |told, inspection| Step::ScheduleVerification { told, inspection };
    let short = step(
        key,
        schedule(at(d(2026, 8, 17), 9, 0), at(d(2026, 8, 18), 8, 59)),
        d(2026, 8, 17),
    )
    .await;
    assert_eq!(refused(short), ["Anexo I, Art. 7º, § 2º"]);
    let scheduled = step(
        key,
        schedule(at(d(2026, 8, 17), 9, 0), at(d(2026, 8, 18), 9, 0)),
        d(2026, 8, 17),
    )
    .await
    .expect("scheduled");
    assert_eq!(scheduled.status, Status::AwaitingCure);
    assert_eq!(scheduled.verification_at, Some(at(d(2026, 8, 18), 9, 0)));
    // The agenda shows the verification on its day, with the article.
    let agenda = store
        .agenda(CG, &[&rb], (d(2026, 8, 17), 3), Window::first(50))
        .await
        .expect("agenda")
        .items;
    let verification = agenda
        .iter()
        .find(|i| i.kind == "verification" && i.subject == format!("auto:{}:{}", key.0, key.1))
        .unwrap_or_else(|| panic!("no verification in {agenda:#?}"));
    assert_eq!(verification.due, d(2026, 8, 18));
    assert_eq!(verification.articles, ["Anexo I, Art. 7º, § 2º"]);
    // Past the time to cure, but before the verification it was told of.
    let early = step(key, Step::NotCured, d(2026, 8, 17)).await;
    assert_eq!(refused(early), ["Anexo I, Art. 7º, § 2º"]);
    let found = step(key, Step::NotCured, d(2026, 8, 18))
        .await
        .expect("not cured");
    assert_eq!((found.status, found.uncured), (Status::Issued, true));
    assert_eq!(found.verification_at, None);
}

async fn exercise(url: &str) {
    let store = crate::common::open(url).await;
    setup(&store).await;
    notice_of_irregularity(&store).await;
    the_verification(&store).await;
    the_boards_choice(&store).await;
    seized_at_once(&store).await;
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn procedure_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = sqlite_url(dir.path()).expect("url");
    exercise(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn procedure_on_postgresql() {
    let (schema, url) = pg_schema("procedure").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}
