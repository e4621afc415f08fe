//! The workflows that apply a rulebook, on both backends, with the Santa
//! Maria de Jetibá taxi law (Lei 2.133/2024 as encoded in `rulebooks/`):
//! grants under the cap and its reserved share, drivers, vehicles,
//! inspections, documents, autos and their process, debts, the agenda.

use crate::common::{by, d, drop_schema, on, pg_schema, rulebook_named};
use chrono::NaiveDate;
use outorga_core::engine::in_service;
use outorga_core::engine::permit_life::LifeStep;
use outorga_core::engine::process::{Decision, Status, Step};
use outorga_core::model::{EndGround, Rulebook, SanctionKind};
use outorga_store::{
    AutoInput, Cnh, DebtFilter, DocumentFilter, GrantRequest, Jurisdiction, Means, PaymentInput,
    PermitChange, PermitFilter, ProcessStep, Profile, Store, StoreError, Vehicle, Window,
    sqlite_url,
};
use rust_decimal::Decimal;

const SMJ: &str = "santa-maria-de-jetiba";

fn change(step: LifeStep) -> PermitChange {
    PermitChange { step, to: None }
}
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";
const CAIO: &str = "18609139034";
const DANI: &str = "99603082430";
const EDU: &str = "62819482112";
/// Applicants for the concurrent grants.
const MANY: [&str; 8] = [
    "99351819019",
    "93786579741",
    "54323194897",
    "75749118606",
    "25276018987",
    "55597971115",
    "47104974601",
    "50752917080",
];

/// The debts of one debtor.
fn of_debtor(debtor: &str) -> DebtFilter {
    DebtFilter {
        debtor: Some(debtor.into()),
        ..DebtFilter::default()
    }
}

/// The documents about one record.
fn about(subject: &str) -> DocumentFilter {
    DocumentFilter {
        subject: Some(subject.into()),
        ..DocumentFilter::default()
    }
}

fn rulebook() -> Rulebook {
    rulebook_named("santa-maria-de-jetiba/taxi")
}

/// Teófilo Otoni: a fine of 48 UPFTO split in four parcels (art. 97); while
/// its next parcel is not late the debt blocks nothing, and once a parcel is
/// late it blocks any request (art. 101).
async fn late_parcel(store: &Store) {
    let rb = rulebook_named("teofilo-otoni/mototaxi");
    const TO: &str = "teofilo-otoni";
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
    store.register(&by(), TO, EDU, "Edu").await.expect("person");
    store
        .update_profile(&by(), TO, EDU, &fit())
        .await
        .expect("profile");
    let input = AutoInput {
        infraction: "72301".into(),
        permit: None,
        plate: None,
        ..smoking(EDU, d(2027, 1, 4))
    };
    let auto = store
        .issue_auto(&on(d(2027, 1, 5)), &rb, TO, &input)
        .await
        .expect("auto");
    assert_eq!(auto.proposal.sanctions[0].kind, "fine");
    let key = (auto.year, auto.number);
    let step = |s: ProcessStep, day: NaiveDate| {
        let rb = rb.clone();
        async move { store.process_auto(&on(day), &rb, TO, key, &s, day).await }
    };
    let notified = step(
        ProcessStep::new(Step::Notify { cure_days: None }),
        d(2027, 1, 6),
    )
    .await
    .expect("notify");
    let judged_on = notified
        .defense_by
        .expect("deadline")
        .succ_opt()
        .expect("day");
    step(
        ProcessStep::with_text(
            Step::Judge(Decision {
                upheld: true,
                ..Decision::default()
            }),
            "mantido",
        ),
        judged_on,
    )
    .await
    .expect("judged");
    // An appeal lies to a second instance (TO art. 96, § 2º): final once
    // its limit runs out.
    let noticed = step(ProcessStep::new(Step::NotifyDecision), judged_on)
        .await
        .expect("decision notified");
    // Finalized on a day whose 30th day after is a Saturday.
    let final_on = d(2027, 4, 8);
    assert!(noticed.appeal_by.expect("appeal limit") < final_on);
    let last = step(ProcessStep::new(Step::Finalize), final_on)
        .await
        .expect("final");
    assert_eq!(last.status, Status::Final);
    let debt = store
        .debts(TO, &of_debtor(EDU), Window::first(200))
        .await
        .expect("debts")
        .items
        .remove(0);
    let debt_key = (debt.year, debt.number, debt.seq);
    let split_on = final_on;
    store
        .split_debt(&on(split_on), &rb, TO, debt_key, (4, split_on))
        .await
        .expect("four parcels");
    let grant_on = |day: NaiveDate| GrantRequest {
        service: "mototaxi".into(),
        holder: EDU.into(),
        on: day,
        quota: None,
        line: None,
    };
    let blocked_by_debt = |result: Result<outorga_store::Granted, StoreError>| match result {
        Err(StoreError::Refused { reason, .. }) => reason.contains("débitos vencidos"),
        _ => false,
    };
    // The first parcel is due 30 days after the notice (art. 97).
    let first_due = split_on
        .checked_add_days(chrono::Days::new(30))
        .expect("day");
    assert!(!blocked_by_debt(
        store
            .grant_permit(&on(first_due), &rb, TO, &grant_on(first_due))
            .await
    ));
    // 8 May 2027 is a Saturday: the parcel is due on Monday the 10th
    // (art. 93); on the 11th it is late.
    assert_eq!(first_due, d(2027, 5, 8));
    assert!(!blocked_by_debt(
        store
            .grant_permit(&on(d(2027, 5, 10)), &rb, TO, &grant_on(d(2027, 5, 10)))
            .await
    ));
    let late = d(2027, 5, 11);
    assert!(blocked_by_debt(
        store
            .grant_permit(&on(late), &rb, TO, &grant_on(late))
            .await
    ));
    store
        .pay_debt(&on(late), &rb, TO, debt_key, &at_counter(late, None))
        .await
        .expect("first parcel");
    assert!(!blocked_by_debt(
        store
            .grant_permit(&on(late), &rb, TO, &grant_on(late))
            .await
    ));
    // The plan's parcels are recorded, each due on a business day (art.
    // 98, § 2º: 30, 60 and 90 days after the first's limit, as moved to a
    // business day: Monday 10 May), and the next
    // unpaid one is on the agenda.
    let debt = store.debt(TO, debt_key).await.expect("debt");
    let dues: Vec<NaiveDate> = debt.schedule.iter().map(|p| p.due_on).collect();
    assert_eq!(
        dues,
        [d(2027, 5, 10), d(2027, 6, 9), d(2027, 7, 9), d(2027, 8, 9)]
    );
    let agenda = store
        .agenda(TO, &[&rb], (d(2027, 6, 1), 10), Window::first(200))
        .await
        .expect("agenda")
        .items;
    assert!(
        agenda.iter().any(|i| i.kind == "parcel"
            && i.due == d(2027, 6, 9)
            && i.description.contains("parcela 2")),
        "{agenda:?}"
    );
    // A parcel unpaid "por período superior a trinta dias" makes the
    // balance due at once (art. 98, § 3º): on the 30th day after the second
    // parcel's day it is still the parcel; on the 31st, the three left.
    let parcel = store
        .debt_due(&rb, TO, debt_key, d(2027, 7, 9))
        .await
        .expect("due on the 30th day");
    assert_eq!((parcel.parcel, parcel.balance_since), (2, None));
    let balance = store
        .debt_due(&rb, TO, debt_key, d(2027, 7, 10))
        .await
        .expect("due on the 31st day");
    assert_eq!(balance.balance_since, Some(d(2027, 7, 10)));
    assert!(
        balance.articles.iter().any(|a| a == "Art. 98, § 3º"),
        "{balance:?}"
    );
    // The three parcels left (12 UPFTO each), with the surcharge of a
    // payment more than 60 days after the notice (art. 93: +10 %).
    let left: Decimal = debt.schedule[1..]
        .iter()
        .map(|p| p.quantity.parse::<Decimal>().expect("quantity"))
        .sum();
    assert_eq!(left, Decimal::from(36));
    assert_eq!(balance.surcharge_percent, "10");
    assert_eq!(
        balance.quantity.parse::<Decimal>().expect("quantity"),
        Decimal::new(396, 1)
    );
    store
        .pay_debt(
            &on(d(2027, 7, 10)),
            &rb,
            TO,
            debt_key,
            &at_counter(d(2027, 7, 10), None),
        )
        .await
        .expect("the balance");
    let debt = store.debt(TO, debt_key).await.expect("debt");
    assert!(debt.settled());
    assert_eq!(debt.accelerated_on, Some(d(2027, 7, 10)));
}

/// A bus carrier gets the delegation of a line (Amapá): the permit of service
/// `onibus` names the line; a second delegation of the same line to the same
/// carrier is refused by the law.
async fn delegation(store: &Store) {
    let rb = rulebook_named("amapa/onibus-intermunicipal");
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: "amapa".into(),
                name: "Amapá".into(),
                state: "AP".into(),
                rulebooks: vec![rb.id.clone()],
            }],
        )
        .await
        .expect("sync");
    store
        .register(&by(), "amapa", "36.002.518/0001-01", "Expresso Tucuju Ltda")
        .await
        .expect("carrier");
    let line = outorga_store::Line {
        code: "MCP-FGO".into(),
        name: "Macapá–Ferreira Gomes".into(),
        coefficient: outorga_store::parse_coefficient("0.2175").expect("coefficient"),
        itinerary: vec!["Macapá".into(), "Ferreira Gomes".into()],
        ..outorga_store::Line::default()
    };
    store
        .register_line(&by(), "amapa", &line)
        .await
        .expect("line");
    let request = GrantRequest {
        service: "onibus".into(),
        holder: "36002518000101".into(),
        on: d(2026, 11, 30),
        quota: None,
        line: Some("MCP-FGO".into()),
    };
    let granted = store
        .grant_permit(&by(), &rb, "amapa", &request)
        .await
        .expect("delegation");
    assert_eq!(granted.permit.line.as_deref(), Some("MCP-FGO"));
    let term = granted.document.expect("a delegation term");
    assert_eq!(
        (term.kind.as_str(), term.subject.as_str()),
        ("delegation_term", "permit:onibus:1")
    );
    assert!(
        store
            .document(&term.code)
            .await
            .expect("read")
            .is_some_and(|t| t.valid_on(d(2026, 12, 1)))
    );
    let (_, articles) = refusal(store.grant_permit(&by(), &rb, "amapa", &request).await);
    assert!(!articles.is_empty());
}

/// A driver who meets every recorded requirement of the law.
fn fit() -> Profile {
    Profile {
        birth_date: Some(d(1980, 5, 1)),
        resident_since: Some(d(2010, 1, 1)),
        final_conviction: Some(false),
        cnh: Some(Cnh {
            number: "02650306461".into(),
            categories: vec!["B".into()],
            paid_activity: true,
            first_issued: Some(d(2000, 1, 1)),
            expires: d(2030, 1, 1),
            suspended_until: None,
        }),
        ..Profile::default()
    }
}

fn refusal<T: std::fmt::Debug>(result: Result<T, StoreError>) -> (String, Vec<String>) {
    match result {
        Err(StoreError::Refused { reason, articles }) => (reason, articles),
        other => panic!("expected a refusal by the law, got {other:?}"),
    }
}

fn grant(holder: &str, quota: Option<&str>) -> GrantRequest {
    GrantRequest {
        service: "taxi".into(),
        holder: holder.into(),
        on: d(2026, 11, 30),
        quota: quota.map(str::to_string),
        line: None,
    }
}

async fn setup(store: &Store, rb: &Rulebook) {
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: SMJ.into(),
                name: "Santa Maria de Jetibá".into(),
                state: "ES".into(),
                rulebooks: vec![rb.id.clone()],
            }],
        )
        .await
        .expect("sync");
    for (i, doc) in [ANA, BETO, CAIO, DANI, EDU].iter().chain(&MANY).enumerate() {
        store
            .register(&by(), SMJ, doc, &format!("Pessoa {i}"))
            .await
            .expect("register");
        store
            .update_profile(&by(), SMJ, doc, &fit())
            .await
            .expect("profile");
    }
    // 1 600 inhabitants: 2 permits, 1 of them reserved (10 %, rounded up).
    store
        .set_parameter(
            &by(),
            rb,
            SMJ,
            ("population", Decimal::from(1600)),
            &crate::common::decree(rb),
        )
        .await
        .expect("population");
}

async fn exercise(url: &str) {
    let store = crate::common::open(url).await;
    let rb = rulebook();
    setup(&store, &rb).await;
    permits(&store, &rb).await;
    autos(&store, &rb).await;
    limits(&store, &rb).await;
    penalties_on_records(&store, &rb).await;
    auxiliary_suspension(&store, &rb).await;
    concurrency(&store, &rb).await;
    delegation(&store).await;
    late_parcel(&store).await;
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
    assert!(report.rows > 50, "{} rows checked", report.rows);
}

async fn permits(store: &Store, rb: &Rulebook) {
    let granted = store
        .grant_permit(&by(), rb, SMJ, &grant(ANA, None))
        .await
        .expect("Ana's grant");
    assert_eq!(granted.permit.number, 1);
    assert_eq!(granted.permit.status, "granted");
    assert!(
        granted.articles.iter().any(|a| a == "Art. 18, § 1º"),
        "{:?}",
        granted.articles
    );
    // The free-competition place is taken; the reserved one is not for Beto
    // unless he asks under the quota.
    let (reason, articles) = refusal(store.grant_permit(&by(), rb, SMJ, &grant(BETO, None)).await);
    assert!(reason.contains("livre concorrência"), "{reason}");
    assert!(articles.iter().any(|a| a == "Art. 18, § 1º"));
    let beto = store
        .grant_permit(&by(), rb, SMJ, &grant(BETO, Some("disabled_drivers")))
        .await
        .expect("reserved place");
    assert_eq!(beto.permit.quota.as_deref(), Some("disabled_drivers"));
    // One permit each (the law's check comes before the cap's).
    let (_, articles) = refusal(store.grant_permit(&by(), rb, SMJ, &grant(ANA, None)).await);
    assert!(
        articles
            .iter()
            .any(|a| a.starts_with("Art. 3º") || a.starts_with("Art. 1")),
        "{articles:?}"
    );
    // An expired CNH is an unmet requirement, named with its article.
    let mut expired = fit();
    if let Some(cnh) = expired.cnh.as_mut() {
        cnh.expires = d(2025, 1, 1);
    }
    store
        .update_profile(&by(), SMJ, CAIO, &expired)
        .await
        .expect("profile");
    let (reason, _) = refusal(store.grant_permit(&by(), rb, SMJ, &grant(CAIO, None)).await);
    assert!(reason.contains("requisito não atendido"), "{reason}");
    // A service the rulebook does not have is bad input.
    let bus = GrantRequest {
        service: "onibus".into(),
        ..grant(CAIO, None)
    };
    assert!(matches!(
        store.grant_permit(&by(), rb, SMJ, &bus).await,
        Err(StoreError::Invalid {
            field: "serviço",
            ..
        })
    ));

    // Drivers: one auxiliary per permit.
    let added = store
        .add_driver(
            &by(),
            rb,
            SMJ,
            ("taxi", 1),
            (DANI, "auxiliary"),
            (d(2026, 11, 30), None),
        )
        .await
        .expect("auxiliary");
    assert_eq!(added.driver.registration, "2026-00001");
    assert_eq!(added.document.kind, "driver_registration");
    let (_, articles) = refusal(
        store
            .add_driver(
                &by(),
                rb,
                SMJ,
                ("taxi", 1),
                (EDU, "auxiliary"),
                (d(2026, 11, 30), None),
            )
            .await,
    );
    assert!(!articles.is_empty());
    let verified = store
        .document(&added.document.code.to_lowercase().replace('-', ""))
        .await
        .expect("read")
        .expect("found by code");
    assert!(verified.valid_on(d(2026, 12, 1)));
    // The auxiliary's credential lasts a year and is renewed (art. 22, § 1º):
    // a new document, the old one cancelled.
    let first_until = added.driver.valid_until.expect("a year");
    assert!(
        first_until > d(2027, 11, 1) && first_until <= d(2027, 11, 30),
        "{first_until}"
    );
    let renewed = store
        .renew_registration(
            &on(d(2027, 1, 10)),
            rb,
            SMJ,
            &added.driver.registration,
            d(2027, 1, 10),
        )
        .await
        .expect("renewal");
    assert!(renewed.driver.valid_until > Some(first_until));
    assert!(
        renewed.articles.iter().any(|a| a == "Art. 22, § 1º"),
        "{:?}",
        renewed.articles
    );
    let old = store
        .document(&added.document.code)
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(old.cancelled_on, Some(d(2027, 1, 10)));

    // Vehicles: a 2022 white four-door with a taximeter is admitted; one
    // made in 2015 is too old for inclusion (art. 13, § 1º, I).
    let car = |plate: &str, renavam: &str, year: i32| Vehicle {
        plate: plate.into(),
        renavam: renavam.into(),
        manufactured: year,
        colour: "branca".into(),
        doors: Some(4),
        capacity: Some(4),
        equipment: vec!["taximetro".into()],
        ..Vehicle::default()
    };
    store
        .register_vehicle(&by(), SMJ, &car("MTX1A22", "29485839707", 2022), 2026)
        .await
        .expect("vehicle");
    store
        .register_vehicle(&by(), SMJ, &car("MTX1A15", "73160207962", 2015), 2026)
        .await
        .expect("old vehicle");
    let (_, articles) = refusal(
        store
            .put_vehicle(
                &by(),
                rb,
                SMJ,
                ("taxi", 2),
                "MTX1A15",
                (d(2026, 11, 30), None),
            )
            .await,
    );
    assert!(
        articles.iter().any(|a| a == "Art. 13, § 1º, I"),
        "{articles:?}"
    );
    let included = store
        .put_vehicle(
            &by(),
            rb,
            SMJ,
            ("taxi", 1),
            "MTX1A22",
            (d(2026, 11, 30), None),
        )
        .await
        .expect("inclusion");
    assert_eq!(included.authorization.kind, "traffic_authorization");
    // Renewing the permit (art. 7º) renews the vehicle's authorization with
    // the new term; the old one is cancelled.
    let renewed = store
        .change_permit(
            &by(),
            rb,
            SMJ,
            ("taxi", 1),
            &change(LifeStep::Renew),
            d(2026, 12, 10),
        )
        .await
        .expect("renewal");
    assert!(renewed.expires_on > granted.permit.expires_on);
    let authorizations = store
        .documents(SMJ, &about("vehicle:MTX1A22"), Window::first(200))
        .await
        .expect("documents")
        .items;
    let in_force: Vec<_> = authorizations
        .iter()
        .filter(|a| a.cancelled_on.is_none())
        .collect();
    assert_eq!(in_force.len(), 1);
    // The DIV lasts a year (art. 15), within the credential's term.
    assert_eq!(in_force[0].valid_until, Some(d(2027, 12, 10)));
    assert!(renewed.expires_on > in_force[0].valid_until);
    // Its yearly renewal (art. 16) replaces it with another year.
    let div = store
        .renew_authorization(&on(d(2027, 12, 9)), rb, SMJ, "MTX1A22", d(2027, 12, 9))
        .await
        .expect("DIV renewed");
    assert_eq!(div.valid_until, Some(d(2028, 12, 11)));
    let authorizations = store
        .documents(SMJ, &about("vehicle:MTX1A22"), Window::first(200))
        .await
        .expect("documents")
        .items;
    assert_eq!(
        authorizations
            .iter()
            .filter(|a| a.kind == "traffic_authorization" && a.cancelled_on.is_none())
            .count(),
        1
    );
    // Yearly inspection (art. 15): approved on 1 Dec 2026, next a year on.
    let inspection = store
        .record_inspection(
            &by(),
            rb,
            SMJ,
            ("MTX1A22", "periodic"),
            d(2026, 12, 1),
            (true, ""),
        )
        .await
        .expect("inspection");
    assert_eq!(inspection.next_due, Some(d(2027, 12, 1)));
    assert!(inspection.seal.is_some());
    assert!(matches!(
        store
            .record_inspection(
                &by(),
                rb,
                SMJ,
                ("MTX1A22", "periodic"),
                d(2026, 12, 2),
                (false, " ")
            )
            .await,
        Err(StoreError::Invalid {
            field: "constatações",
            ..
        })
    ));

    // Suspension on request: up to 120 days for a reason of art. 20.
    let (reason, _) = refusal(
        store
            .change_permit(
                &by(),
                rb,
                SMJ,
                ("taxi", 2),
                &change(LifeStep::Reserve {
                    ground: "theft".into(),
                    days: 121,
                }),
                d(2026, 12, 1),
            )
            .await,
    );
    assert!(reason.contains("120"), "{reason}");
    let suspended = store
        .change_permit(
            &by(),
            rb,
            SMJ,
            ("taxi", 2),
            &change(LifeStep::Reserve {
                ground: "theft".into(),
                days: 120,
            }),
            d(2026, 12, 1),
        )
        .await
        .expect("suspension");
    assert_eq!(suspended.status, "reserved");
    let renounced = store
        .change_permit(
            &by(),
            rb,
            SMJ,
            ("taxi", 2),
            &change(LifeStep::End {
                ground: EndGround::Renunciation,
            }),
            d(2026, 12, 2),
        )
        .await
        .expect("renounce");
    assert_eq!(renounced.status, "renounced");
    assert!(matches!(
        store
            .change_permit(
                &by(),
                rb,
                SMJ,
                ("taxi", 2),
                &change(LifeStep::Reinstate),
                d(2026, 12, 3)
            )
            .await,
        Err(StoreError::Refused { .. })
    ));
    let (_, history) = store.permit(SMJ, "taxi", 2).await.expect("history");
    let events: Vec<&str> = history.iter().map(|h| h.event.as_str()).collect();
    assert_eq!(events, ["grant", "reserve", "renunciation"]);
    // 120 days with 1 Dec 2026 the first: the last is 30 Mar 2027.
    assert_eq!(history[1].until, Some(d(2027, 3, 30)));
    // Renouncing bars a new permit for 24 months (decree reading of the law).
    let again = GrantRequest {
        on: d(2026, 12, 3),
        quota: Some("disabled_drivers".into()),
        ..grant(BETO, None)
    };
    let (reason, _) = refusal(store.grant_permit(&by(), rb, SMJ, &again).await);
    assert!(reason.contains("requisito não atendido"), "{reason}");
}

fn smoking(offender: &str, day: NaiveDate) -> AutoInput {
    AutoInput {
        infraction: "51-I-a".into(),
        offender: offender.into(),
        permit: Some(("taxi".into(), 1)),
        plate: Some("MTX-1A22".into()),
        committed_at: day.and_hms_opt(14, 30, 0).expect("time"),
        place: "Praça Central".into(),
        description: "Condutor fumando no interior do veículo".into(),
    }
}

async fn autos(store: &Store, rb: &Rulebook) {
    let first = store
        .issue_auto(&on(d(2026, 12, 1)), rb, SMJ, &smoking(ANA, d(2026, 11, 28)))
        .await
        .expect("auto");
    assert_eq!((first.year, first.number), (2026, 1));
    assert!(first.proposal.articles.iter().any(|a| a == "Art. 51, I, a"));
    // 60 days to notify (art. 39, § 1º): the 60th day, 30 Jan 2027, is a
    // Saturday, so the limit ends on Monday (Lei 9.784, art. 66, § 1º).
    assert_eq!(first.notify_by, Some(d(2027, 2, 1)));
    let second = store
        .issue_auto(&on(d(2026, 12, 1)), rb, SMJ, &smoking(ANA, d(2026, 11, 29)))
        .await
        .expect("auto");
    assert_eq!(second.number, 2);
    // Bad input: unknown code, a date after today, an empty place.
    let bad = AutoInput {
        infraction: "99-Z".into(),
        ..smoking(ANA, d(2026, 11, 28))
    };
    assert!(matches!(
        store.issue_auto(&on(d(2026, 12, 1)), rb, SMJ, &bad).await,
        Err(StoreError::Invalid {
            field: "infração",
            ..
        })
    ));
    let future = smoking(ANA, d(2026, 12, 2));
    assert!(matches!(
        store
            .issue_auto(&on(d(2026, 12, 1)), rb, SMJ, &future)
            .await,
        Err(StoreError::Invalid {
            field: "cometida_em",
            ..
        })
    ));

    let step = |s: ProcessStep, day: NaiveDate, key: (i32, i64)| async move {
        store.process_auto(&on(day), rb, SMJ, key, &s, day).await
    };
    let notified = step(
        ProcessStep::new(Step::Notify { cure_days: None }),
        d(2026, 12, 2),
        (2026, 1),
    )
    .await
    .expect("notify");
    assert_eq!(notified.status, Status::Notified);
    let defense_by = notified.defense_by.expect("defense deadline");
    // Judging before the defense or its deadline is refused.
    refusal(
        step(
            ProcessStep::with_text(
                Step::Judge(Decision {
                    upheld: true,
                    ..Decision::default()
                }),
                "x",
            ),
            d(2026, 12, 3),
            (2026, 1),
        )
        .await,
    );
    step(
        ProcessStep::with_text(Step::Defend, "Não fumava"),
        defense_by,
        (2026, 1),
    )
    .await
    .expect("defense on the last day");
    let judged = step(
        ProcessStep::with_text(
            Step::Judge(Decision {
                upheld: true,
                ..Decision::default()
            }),
            "Auto mantido",
        ),
        defense_by,
        (2026, 1),
    )
    .await
    .expect("judgement");
    // The appeal's time runs from the notice of the decision (art. 60).
    assert_eq!(judged.appeal_by, None);
    assert!(matches!(
        step(ProcessStep::new(Step::Finalize), defense_by, (2026, 1)).await,
        Err(StoreError::Refused { .. })
    ));
    let notice = defense_by.succ_opt().expect("day");
    let noticed = step(ProcessStep::new(Step::NotifyDecision), notice, (2026, 1))
        .await
        .expect("notice");
    let appeal_by = noticed.appeal_by.expect("appeal deadline");
    refusal(step(ProcessStep::new(Step::Finalize), appeal_by, (2026, 1)).await);
    let next_day = appeal_by.succ_opt().expect("day");
    let last = step(ProcessStep::new(Step::Finalize), next_day, (2026, 1))
        .await
        .expect("final");
    assert_eq!(last.status, Status::Final);
    // A first offence of group 1 is a warning (art. 52, I): nothing owed.
    assert_eq!(last.proposal.sanctions[0].kind, "warning");
    assert!(
        store
            .debts(SMJ, &of_debtor(ANA), Window::first(200))
            .await
            .expect("debts")
            .items
            .is_empty()
    );
    // Now final, it makes the next group-1 offence within 12 months a
    // repeat: a fine (art. 52, II), owed once that auto is final too.
    let issued = d(2027, 3, 1);
    let repeat = store
        .issue_auto(
            &on(issued),
            rb,
            SMJ,
            &AutoInput {
                infraction: "51-I-b".into(),
                ..smoking(ANA, d(2027, 2, 26))
            },
        )
        .await
        .expect("repeat");
    assert_eq!(
        (repeat.year, repeat.number),
        (2027, 1),
        "numbering restarts each year"
    );
    assert_eq!(repeat.proposal.sanctions[0].kind, "fine");
    assert!(repeat.proposal.articles.iter().any(|a| a == "Art. 52, II"));
    let key = (2027, 1);
    let notified = step(
        ProcessStep::new(Step::Notify { cure_days: None }),
        issued,
        key,
    )
    .await
    .expect("notify");
    let after_defense = notified
        .defense_by
        .expect("deadline")
        .succ_opt()
        .expect("day");
    let judged = step(
        ProcessStep::with_text(
            Step::Judge(Decision {
                upheld: true,
                ..Decision::default()
            }),
            "revelia",
        ),
        after_defense,
        key,
    )
    .await
    .expect("judged without a defense");
    assert_eq!(judged.status, Status::Judged);
    let noticed = step(ProcessStep::new(Step::NotifyDecision), after_defense, key)
        .await
        .expect("notice");
    let final_day = noticed
        .appeal_by
        .expect("deadline")
        .succ_opt()
        .expect("day");
    step(ProcessStep::new(Step::Finalize), final_day, key)
        .await
        .expect("final");
    let debts = store
        .debts(SMJ, &of_debtor(ANA), Window::first(200))
        .await
        .expect("debts")
        .items;
    assert_eq!(debts.len(), 1);
    assert_eq!(debts[0].unit, "VRTM");
    let next_day = final_day;
    let due = store
        .pay_debt(
            &on(next_day),
            rb,
            SMJ,
            (2027, 1, debts[0].seq),
            // No VRTM value recorded: the clerk says what was received.
            &at_counter(next_day, Some(4_000)),
        )
        .await
        .expect("payment");
    assert_eq!(due.parcel, 1);
    assert!(
        store
            .debts(SMJ, &of_debtor(ANA), Window::first(200))
            .await
            .expect("debts")
            .items[0]
            .settled()
    );
    // The second auto was never notified: the agenda shows it due, and after
    // the deadline it is archived.
    let early = store
        .agenda(SMJ, &[rb], (d(2027, 1, 25), 10), Window::first(200))
        .await
        .expect("agenda")
        .items;
    assert!(
        early
            .iter()
            .any(|i| i.kind == "notification" && i.subject == "auto:2026:2" && !i.overdue),
        "{early:?}"
    );
    refusal(
        step(
            ProcessStep::new(Step::Notify { cure_days: None }),
            d(2027, 2, 2),
            (2026, 2),
        )
        .await,
    );
    refusal(step(ProcessStep::new(Step::Archive), d(2027, 2, 1), (2026, 2)).await);
    let archived = step(ProcessStep::new(Step::Archive), d(2027, 2, 2), (2026, 2))
        .await
        .expect("archive");
    assert_eq!(archived.status, Status::Archived);

    // The agenda of 1 Dec 2027: the inspection due that day, the permit's
    // documents, and nothing of the archived auto.
    let agenda = store
        .agenda(SMJ, &[rb], (d(2027, 11, 20), 30), Window::first(200))
        .await
        .expect("agenda")
        .items;
    assert!(
        agenda
            .iter()
            .any(|i| i.kind == "inspection" && i.due == d(2027, 12, 1)),
        "{agenda:?}"
    );
    assert!(!agenda.iter().any(|i| i.subject == "auto:2026:2"));
    assert!(
        agenda
            .iter()
            .any(|i| i.kind == "document_expiry" && i.subject == "vehicle:MTX1A22")
    );
}

/// Two swaps of auxiliary in 12 months (art. 22, § 2º) and two vehicle
/// substitutions in 24 months (art. 13, § 2º), excused ones not counted; a
/// change exactly one period before still counts.
async fn limits(store: &Store, rb: &Rulebook) {
    let swap = |driver: &'static str, day: NaiveDate, excuse: Option<&'static str>| async move {
        let current = store
            .drivers(SMJ, ("taxi", 1), Window::first(200))
            .await
            .expect("drivers")
            .items;
        for link in current.iter().filter(|l| l.until.is_none()) {
            store
                .remove_driver(&by(), SMJ, &link.registration, day)
                .await
                .expect("unlink");
        }
        store
            .add_driver(
                &by(),
                rb,
                SMJ,
                ("taxi", 1),
                (driver, "auxiliary"),
                (day, excuse),
            )
            .await
    };
    // Dani was the first auxiliary (not a swap); two swaps follow.
    swap(EDU, d(2027, 3, 10), None).await.expect("first swap");
    swap(DANI, d(2027, 4, 10), None).await.expect("second swap");
    let (_, articles) = refusal(swap(EDU, d(2027, 5, 10), None).await);
    assert_eq!(articles, ["Art. 22, § 2º"]);
    let excused = swap(EDU, d(2027, 5, 10), Some("resignation"))
        .await
        .expect("excused");
    assert!(excused.articles.iter().any(|a| a == "Art. 22, § 2º"));
    // 10 Mar 2028 is exactly 12 months after the first swap: it still counts.
    refusal(swap(DANI, d(2028, 3, 10), None).await);
    swap(DANI, d(2028, 3, 11), None)
        .await
        .expect("a year and a day later");
    assert!(matches!(
        swap(EDU, d(2028, 4, 1), Some("holiday")).await,
        Err(StoreError::Engine(_))
    ));

    let newer = |plate: &str, renavam: &str, year: i32| Vehicle {
        plate: plate.into(),
        renavam: renavam.into(),
        manufactured: year,
        colour: "branca".into(),
        doors: Some(4),
        capacity: Some(4),
        equipment: vec!["taximetro".into()],
        ..Vehicle::default()
    };
    for (plate, renavam) in [
        ("MTX2B23", "41931835361"),
        ("MTX2B24", "77080225118"),
        ("MTX2B25", "10256960027"),
    ] {
        store
            .register_vehicle(&by(), SMJ, &newer(plate, renavam, 2026), 2026)
            .await
            .expect("vehicle");
    }
    let put = |plate: &'static str, day: NaiveDate, excuse: Option<&'static str>| async move {
        store
            .put_vehicle(&by(), rb, SMJ, ("taxi", 1), plate, (day, excuse))
            .await
    };
    put("MTX2B23", d(2027, 6, 1), None)
        .await
        .expect("first substitution");
    put("MTX2B24", d(2027, 7, 1), None)
        .await
        .expect("second substitution");
    let (_, articles) = refusal(put("MTX2B25", d(2027, 8, 1), None).await);
    assert_eq!(articles, ["Art. 13, § 2º"]);
    // The replaced vehicle's authorization ended with its service.
    let old = store
        .documents(SMJ, &about("vehicle:MTX2B23"), Window::first(200))
        .await
        .expect("documents")
        .items;
    assert!(
        old.iter()
            .all(|doc| doc.cancelled_on == Some(d(2027, 7, 1))),
        "{old:?}"
    );
    let excused = put("MTX2B25", d(2027, 8, 1), Some("accident"))
        .await
        .expect("accident");
    assert!(excused.articles.iter().any(|a| a == "Art. 13, § 2º, I"));
}

/// A final auto's impediment shows on the plate; process dates follow one
/// another and never pass today; concurrent decisions on one auto do not
/// both stand; a cassation is never a clerk's status change.
async fn penalties_on_records(store: &Store, rb: &Rulebook) {
    let filthy = |day: NaiveDate| AutoInput {
        infraction: "51-III-a".into(),
        plate: Some("MTX2B25".into()),
        ..smoking(ANA, day)
    };
    let auto = store
        .issue_auto(&on(d(2028, 1, 11)), rb, SMJ, &filthy(d(2028, 1, 10)))
        .await
        .expect("auto");
    let kinds: Vec<&str> = auto
        .proposal
        .sanctions
        .iter()
        .map(|s| s.kind.as_str())
        .collect();
    assert!(kinds.contains(&"vehicle_impediment"), "{kinds:?}");
    let key = (auto.year, auto.number);
    let step = |s: ProcessStep, day: NaiveDate| async move {
        store.process_auto(&on(day), rb, SMJ, key, &s, day).await
    };
    // Before the auto was issued, or after today: refused.
    assert!(matches!(
        step(
            ProcessStep::new(Step::Notify { cure_days: None }),
            d(2028, 1, 5)
        )
        .await,
        Err(StoreError::Invalid { field: "data", .. })
    ));
    assert!(matches!(
        store
            .process_auto(
                &on(d(2028, 1, 12)),
                rb,
                SMJ,
                key,
                &ProcessStep::new(Step::Notify { cure_days: None }),
                d(2028, 1, 20)
            )
            .await,
        Err(StoreError::Invalid { field: "data", .. })
    ));
    // Two clerks notifying at once: one notice.
    let (a, b) = tokio::join!(
        step(
            ProcessStep::new(Step::Notify { cure_days: None }),
            d(2028, 1, 12)
        ),
        step(
            ProcessStep::new(Step::Notify { cure_days: None }),
            d(2028, 1, 12)
        )
    );
    assert!(a.is_ok() != b.is_ok(), "{a:?} {b:?}");
    let notified = a.or(b).expect("notified");
    let judge_day = notified
        .defense_by
        .expect("deadline")
        .succ_opt()
        .expect("day");
    // The board upholding and annulling at once: one decision stands.
    let (up, down) = tokio::join!(
        step(
            ProcessStep::with_text(
                Step::Judge(Decision {
                    upheld: true,
                    // The impediment is "up to 60 days" (art. 52, IV, a):
                    // the board fixes them.
                    days: Some(60),
                    ..Decision::default()
                }),
                "mantido"
            ),
            judge_day
        ),
        step(
            ProcessStep::with_text(
                Step::Judge(Decision {
                    upheld: false,
                    ..Decision::default()
                }),
                "anulado"
            ),
            judge_day
        )
    );
    assert!(up.is_ok() != down.is_ok(), "{up:?} {down:?}");
    if up.is_ok() {
        step(ProcessStep::new(Step::NotifyDecision), judge_day)
            .await
            .expect("notice");
        let appeal_by = store
            .auto(SMJ, key)
            .await
            .expect("auto")
            .appeal_by
            .expect("deadline");
        let final_day = appeal_by.succ_opt().expect("day");
        step(ProcessStep::new(Step::Finalize), final_day)
            .await
            .expect("final");
        // Impediment of at most 60 days (art. 52, IV, a) from the final day,
        // that day the first.
        let check = store
            .plate_check(SMJ, "MTX2B25", final_day)
            .await
            .expect("check")
            .expect("plate");
        let held = check
            .holds
            .iter()
            .find(|h| h.hold.kind == SanctionKind::VehicleImpediment)
            .expect("impediment");
        assert!(
            held.articles.iter().any(|a| a == "Art. 52, IV, a"),
            "{:?}",
            held.articles
        );
        let impediment = held.hold;
        assert_eq!(
            (impediment.from, impediment.until),
            (final_day, final_day.checked_add_days(chrono::Days::new(59)))
        );
        let bars = in_service::vehicle(&check.record(), final_day);
        assert!(
            bars.contains(&in_service::Bar::Held(
                SanctionKind::VehicleImpediment,
                impediment.until
            )),
            "{bars:?}"
        );
    }
    assert!(matches!(
        store
            .change_permit(
                &by(),
                rb,
                SMJ,
                ("taxi", 1),
                &change(LifeStep::End {
                    ground: EndGround::Cassation,
                }),
                d(2028, 6, 1)
            )
            .await,
        Err(StoreError::Refused { .. })
    ));
}

/// The auxiliary repeats a group-3 infraction: 15 days of suspension of
/// their credential (art. 52, III, a) from the day the second auto is final.
async fn auxiliary_suspension(store: &Store, rb: &Rulebook) {
    let link = store
        .add_driver(
            &by(),
            rb,
            SMJ,
            ("taxi", 1),
            (DANI, "auxiliary"),
            (d(2028, 7, 1), None),
        )
        .await
        .expect("an auxiliary again")
        .driver;
    let to_final = |committed: NaiveDate| {
        let driver = link.driver.clone();
        async move {
            let input = AutoInput {
                infraction: "51-III-b".into(),
                plate: None,
                ..smoking(&driver, committed)
            };
            let issued = committed.succ_opt().expect("day");
            let auto = store
                .issue_auto(&on(issued), rb, SMJ, &input)
                .await
                .expect("auto");
            let key = (auto.year, auto.number);
            let step = |s: ProcessStep, day: NaiveDate| async move {
                store
                    .process_auto(&on(day), rb, SMJ, key, &s, day)
                    .await
                    .expect("step")
            };
            let notified = step(ProcessStep::new(Step::Notify { cure_days: None }), issued).await;
            let judge_day = notified
                .defense_by
                .expect("deadline")
                .succ_opt()
                .expect("day");
            step(
                ProcessStep::with_text(
                    Step::Judge(Decision {
                        upheld: true,
                        ..Decision::default()
                    }),
                    "mantido",
                ),
                judge_day,
            )
            .await;
            let noticed = step(ProcessStep::new(Step::NotifyDecision), judge_day).await;
            let final_day = noticed
                .appeal_by
                .expect("deadline")
                .succ_opt()
                .expect("day");
            (
                step(ProcessStep::new(Step::Finalize), final_day).await,
                final_day,
            )
        }
    };
    let (first, first_final) = to_final(d(2028, 8, 1)).await;
    assert!(
        !first
            .proposal
            .sanctions
            .iter()
            .any(|s| s.kind == "suspension")
    );
    let committed = first_final.succ_opt().expect("day");
    let (second, final_day) = to_final(committed).await;
    let suspension = second
        .proposal
        .sanctions
        .iter()
        .find(|s| s.kind == "suspension")
        .expect("a repeat suspends");
    assert_eq!(suspension.target.as_deref(), Some(link.driver.as_str()));
    let now = store
        .driver(SMJ, &link.registration)
        .await
        .expect("read")
        .expect("link");
    assert_eq!(
        now.suspended_until,
        final_day.checked_add_days(chrono::Days::new(14))
    );
    let after = final_day
        .checked_add_days(chrono::Days::new(15))
        .expect("day");
    for (day, valid) in [(final_day, false), (after, true)] {
        let permit = store
            .permit_status(SMJ, (&now.service, now.number), day)
            .await
            .expect("permit");
        // The day after its last day the credential is valid again.
        assert_eq!(
            in_service::driver(&now.record(permit), day).is_empty(),
            valid,
            "{day}"
        );
    }
}

/// Parallel autos keep their numbers gap-free; parallel grants never exceed
/// the cap.
async fn concurrency(store: &Store, rb: &Rulebook) {
    let mut tasks = Vec::new();
    for _ in 0..12 {
        let store = store.clone();
        let rb = rb.clone();
        tasks.push(tokio::spawn(async move {
            store
                .issue_auto(
                    &on(d(2026, 12, 1)),
                    &rb,
                    SMJ,
                    &smoking(ANA, d(2026, 11, 28)),
                )
                .await
                .map(|a| a.number)
        }));
    }
    let mut numbers = Vec::new();
    for task in tasks {
        numbers.push(task.await.expect("task").expect("auto"));
    }
    numbers.sort_unstable();
    assert_eq!(numbers, (3..15).collect::<Vec<i64>>());

    // 4 000 inhabitants: 5 permits, 1 reserved; Ana holds 1 of the 4 free.
    store
        .set_parameter(
            &by(),
            rb,
            SMJ,
            ("population", Decimal::from(4000)),
            &crate::common::decree(rb),
        )
        .await
        .expect("population");
    let mut tasks = Vec::new();
    for doc in MANY {
        let store = store.clone();
        let rb = rb.clone();
        tasks.push(tokio::spawn(async move {
            store.grant_permit(&by(), &rb, SMJ, &grant(doc, None)).await
        }));
    }
    let mut granted = 0;
    for task in tasks {
        match task.await.expect("task") {
            Ok(_) => granted += 1,
            Err(StoreError::Refused { .. }) => {}
            Err(other) => panic!("unexpected {other:?}"),
        }
    }
    assert_eq!(granted, 3);

    // One vehicle put in service under two permits at once: one succeeds.
    let fresh: Vec<i64> = store
        .permits(
            SMJ,
            &PermitFilter {
                service: Some("taxi".into()),
                ..PermitFilter::default()
            },
            Window::first(200),
        )
        .await
        .expect("permits")
        .items
        .into_iter()
        .filter(|p| p.status == "granted" && MANY.contains(&p.holder.as_str()))
        .map(|p| p.number)
        .collect();
    assert_eq!(fresh.len(), 3);
    let car = Vehicle {
        plate: "MTX3C33".into(),
        renavam: "83430942209".into(),
        manufactured: 2026,
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
    let put = |number: i64| {
        let store = store.clone();
        let rb = rb.clone();
        tokio::spawn(async move {
            store
                .put_vehicle(
                    &by(),
                    &rb,
                    SMJ,
                    ("taxi", number),
                    "MTX3C33",
                    (d(2026, 12, 2), None),
                )
                .await
        })
    };
    let (a, b) = (put(fresh[0]), put(fresh[1]));
    let (a, b) = (a.await.expect("task"), b.await.expect("task"));
    assert!(a.is_ok() != b.is_ok(), "{a:?} {b:?}");
    let refusal = a.err().or(b.err()).expect("one refused");
    assert!(
        refusal
            .bad_input()
            .is_some_and(|(field, _)| field == "placa"),
        "{refusal:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workflows_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = sqlite_url(dir.path()).expect("url");
    exercise(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workflows_on_postgresql() {
    let (schema, url) = pg_schema("workflows").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}

/// A payment at the counter on `on` of `cents` (none: what is due).
fn at_counter(on: chrono::NaiveDate, cents: Option<i64>) -> PaymentInput {
    PaymentInput {
        on,
        means: Means::Caixa,
        cents,
        receipt: None,
    }
}
