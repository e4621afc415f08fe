//! The agenda asks the one rule of what is in service (`engine::in_service`)
//! with what the public checks read, on both backends, with the Santa
//! Maria de Jetibá taxi law: a vehicle whose only inspection failed, and
//! the vehicle and the auxiliary of a permit suspended as a penalty, are
//! listed as out of service with why (in Portuguese) and the articles; a
//! vehicle and a driver in service are not; the suspension over, neither
//! are its vehicle and driver. Read a page of one item at a time, the
//! agenda is the same.

use crate::common::{by, d, drop_schema, on, pg_schema, rulebook_named};
use chrono::NaiveDate;
use outorga_core::engine::permit_life::LifeStep;
use outorga_core::model::Rulebook;
use outorga_store::{
    AgendaItem, Cnh, Cursor, GrantRequest, Jurisdiction, PermitChange, Profile, Store, Vehicle,
    Window, sqlite_url,
};
use rust_decimal::Decimal;

const SMJ: &str = "santa-maria-de-jetiba";
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";
const CAIO: &str = "18609139034";
const DANI: &str = "99603082430";
const EDU: &str = "62819482112";
/// Granted, included and linked on this day; inspected the next.
fn start() -> NaiveDate {
    d(2026, 11, 30)
}

/// The agenda's day: the suspension of Caio's permit runs through the 16th.
fn today() -> NaiveDate {
    d(2026, 12, 5)
}

/// Someone who meets every recorded requirement of the law.
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

fn car(plate: &str, renavam: &str) -> Vehicle {
    Vehicle {
        plate: plate.into(),
        renavam: renavam.into(),
        manufactured: 2022,
        colour: "branca".into(),
        doors: Some(4),
        capacity: Some(4),
        equipment: vec!["taximetro".into()],
        ..Vehicle::default()
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
    for doc in [ANA, BETO, CAIO, DANI, EDU] {
        store
            .register(&by(), SMJ, doc, "Pessoa")
            .await
            .expect("register");
        store
            .update_profile(&by(), SMJ, doc, &fit())
            .await
            .expect("profile");
    }
    // 4 000 inhabitants: five permits.
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
}

/// A permit for `holder` (numbered in order), serving `plate`, inspected
/// the day after with `approved`; `auxiliary` linked to it. Its driver's
/// registration.
async fn permit(
    store: &Store,
    rb: &Rulebook,
    (holder, auxiliary): (&str, Option<&str>),
    (plate, renavam, approved): (&str, &str, bool),
) -> Option<String> {
    let grant = GrantRequest {
        service: "taxi".into(),
        holder: holder.into(),
        on: start(),
        quota: None,
        line: None,
    };
    let number = store
        .grant_permit(&on(start()), rb, SMJ, &grant)
        .await
        .expect("grant")
        .permit
        .number;
    store
        .register_vehicle(&by(), SMJ, &car(plate, renavam), 2026)
        .await
        .expect("vehicle");
    store
        .put_vehicle(
            &on(start()),
            rb,
            SMJ,
            ("taxi", number),
            plate,
            (start(), None),
        )
        .await
        .expect("inclusion");
    let inspected = start().succ_opt().expect("day");
    let findings = if approved { "" } else { "freios gastos" };
    store
        .record_inspection(
            &on(inspected),
            rb,
            SMJ,
            (plate, "periodic"),
            inspected,
            (approved, findings),
        )
        .await
        .expect("inspection");
    let mut registration = None;
    if let Some(driver) = auxiliary {
        let added = store
            .add_driver(
                &on(start()),
                rb,
                SMJ,
                ("taxi", number),
                (driver, "auxiliary"),
                (start(), None),
            )
            .await
            .expect("auxiliary");
        registration = Some(added.driver.registration);
    }
    registration
}

/// The agenda's `out_of_service` items on `day`, read a page of `limit`
/// at a time (each page must move on: there are fewer than 50 items).
async fn out_of_service(
    store: &Store,
    rb: &Rulebook,
    day: NaiveDate,
    limit: u32,
) -> Vec<AgendaItem> {
    let mut items = Vec::new();
    let mut after: Option<Cursor> = None;
    for _ in 0..50 {
        let page = store
            .agenda(
                SMJ,
                &[rb],
                (day, 30),
                Window {
                    limit,
                    after: after.as_ref(),
                },
            )
            .await
            .expect("agenda");
        items.extend(page.items);
        match page.next {
            Some(next) => after = Some(next),
            None => {
                items.retain(|i| i.kind == "out_of_service");
                return items;
            }
        }
    }
    panic!("the agenda's pages of {limit} do not end: {items:#?}");
}

fn find<'a>(items: &'a [AgendaItem], subject: &str) -> &'a AgendaItem {
    items
        .iter()
        .find(|i| i.subject == subject)
        .unwrap_or_else(|| panic!("{subject} out of service in {items:#?}"))
}

async fn exercise(url: &str) {
    let store = crate::common::open(url).await;
    let rb = rulebook_named("santa-maria-de-jetiba/taxi");
    setup(&store, &rb).await;
    let dani = permit(
        &store,
        &rb,
        (ANA, Some(DANI)),
        ("MTX1A22", "29485839707", true),
    )
    .await
    .expect("Dani's registration");
    permit(&store, &rb, (BETO, None), ("MTX2B25", "12345678900", false)).await;
    let edu = permit(
        &store,
        &rb,
        (CAIO, Some(EDU)),
        ("MTX3C37", "23456789013", true),
    )
    .await
    .expect("Edu's registration");
    // Caio's permit suspended for 15 days (art. 52, III, a), from the 2nd.
    let suspended_on = d(2026, 12, 2);
    store
        .change_permit(
            &on(suspended_on),
            &rb,
            SMJ,
            ("taxi", 3),
            &PermitChange {
                step: LifeStep::Suspend {
                    until: d(2026, 12, 16),
                },
                to: None,
            },
            suspended_on,
        )
        .await
        .expect("suspension");

    let items = out_of_service(&store, &rb, today(), 200).await;
    let subjects: Vec<&str> = items.iter().map(|i| i.subject.as_str()).collect();
    let edu_subject = format!("driver:{edu}");
    // Drivers first, then vehicles: the record keys' order.
    assert_eq!(
        subjects,
        [edu_subject.as_str(), "vehicle:MTX2B25", "vehicle:MTX3C37"],
        "{items:#?}"
    );
    assert!(
        items
            .iter()
            .all(|i| i.due == today() && !i.overdue && !i.articles.is_empty())
    );
    // The vehicle whose only inspection failed: why, and the article of the
    // inspections.
    let failed = find(&items, "vehicle:MTX2B25");
    assert_eq!(
        failed.description,
        "veículo MTX2B25 fora de serviço: reprovado na vistoria de 2026-12-01"
    );
    let inspections = rb.vehicles.inspection.as_ref().expect("inspections");
    assert_eq!(failed.articles, [inspections.citation.as_str()]);
    // The driver and the vehicle of the suspended permit: the articles the
    // suspension was recorded with.
    let (_, history) = store.permit(SMJ, "taxi", 3).await.expect("permit");
    let suspension = history.last().expect("the suspension");
    assert_eq!(suspension.event, "penalty_suspension");
    let driver = find(&items, &edu_subject);
    assert_eq!(
        driver.description,
        format!(
            "condutor de matrícula {edu} (permissão taxi nº 3) fora de serviço: permissão suspensa"
        )
    );
    assert_eq!(driver.articles, suspension.articles);
    let vehicle = find(&items, "vehicle:MTX3C37");
    assert_eq!(
        vehicle.description,
        "veículo MTX3C37 fora de serviço: permissão suspensa"
    );
    assert_eq!(vehicle.articles, suspension.articles);
    // In service: Ana's vehicle and Dani, her auxiliary.
    assert!(!subjects.contains(&"vehicle:MTX1A22"));
    assert!(!subjects.contains(&format!("driver:{dani}").as_str()));

    // Read a page of one or two items at a time, each resuming from the
    // cursor (within the kind and across kinds), the agenda is the same.
    for limit in [1, 2] {
        assert_eq!(
            out_of_service(&store, &rb, today(), limit).await,
            items,
            "{limit}"
        );
    }

    // The day after the suspension's last day, the permit is in force
    // again: only the failed vehicle is out of service.
    let after = d(2026, 12, 17);
    let later = out_of_service(&store, &rb, after, 200).await;
    let subjects: Vec<&str> = later.iter().map(|i| i.subject.as_str()).collect();
    assert_eq!(subjects, ["vehicle:MTX2B25"], "{later:#?}");

    // Approved on a second inspection, it is in service too.
    store
        .record_inspection(
            &on(after),
            &rb,
            SMJ,
            ("MTX2B25", "periodic"),
            after,
            (true, ""),
        )
        .await
        .expect("inspection");
    assert_eq!(out_of_service(&store, &rb, after, 200).await, []);

    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_service_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn out_of_service_on_postgresql() {
    let (schema, url) = pg_schema("out_of_service").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}
