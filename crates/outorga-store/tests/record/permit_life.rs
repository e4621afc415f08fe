//! A permit's life applied by the record, as the law shapes it: Teófilo
//! Otoni's reserve (art. 20) up to its 365 days and the abandonment after
//! it (§ 5º), its age limit (art. 11, m); Amapá's single extension (art. 8º),
//! its caducity after a notice to correct (art. 18, §§ 3º–4º) and the
//! transfer with consent (art. 16); Canguçu's delegation neither renewed
//! (art. 37, parágrafo único) nor transferred (art. 30). On both backends,
//! with the audit log intact at the end.

use crate::common::{by, d, drop_schema, on, pg_schema, rulebook_named};
use chrono::NaiveDate;
use outorga_core::engine::permit_life::LifeStep;
use outorga_core::model::{EndGround, PermitStatus, Rulebook};
use outorga_store::{
    GrantRequest, Jurisdiction, PermitChange, PermitRecord, Profile, Store, StoreError, Window,
    sqlite_url,
};
use rust_decimal::Decimal;

const TO: &str = "teofilo-otoni";
const AP: &str = "amapa";
const CG: &str = "cangucu";
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";
const CARRIER: &str = "36002518000101";
const OTHER_CARRIER: &str = "11222333000181";

fn change(step: LifeStep) -> PermitChange {
    PermitChange { step, to: None }
}

async fn jurisdiction(store: &Store, id: &str, rulebook: &Rulebook) {
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: id.into(),
                name: id.into(),
                state: "XX".into(),
                rulebooks: vec![rulebook.id.clone()],
            }],
        )
        .await
        .expect("sync");
}

/// The refusal's reason and articles.
fn refused(result: Result<PermitRecord, StoreError>) -> (String, Vec<String>) {
    match result {
        Err(StoreError::Refused { reason, articles }) => (reason, articles),
        other => panic!("expected the law's refusal, got {other:?}"),
    }
}

async fn step(
    store: &Store,
    rb: &Rulebook,
    (j, service): (&str, &str),
    asked: PermitChange,
    day: NaiveDate,
) -> Result<PermitRecord, StoreError> {
    store
        .change_permit(&on(day), rb, j, (service, 1), &asked, day)
        .await
}

async fn teofilo_otoni(store: &Store) {
    let rb = rulebook_named("teofilo-otoni/mototaxi");
    jurisdiction(store, TO, &rb).await;
    store.register(&by(), TO, ANA, "Ana").await.expect("ana");
    store
        .update_profile(
            &by(),
            TO,
            ANA,
            &Profile {
                birth_date: Some(d(1961, 3, 15)),
                ..Profile::default()
            },
        )
        .await
        .expect("profile");
    store
        .set_parameter(
            &by(),
            &rb,
            TO,
            ("population", Decimal::from(100_000)),
            &crate::common::decree(&rb),
        )
        .await
        .expect("population");
    let grant = GrantRequest {
        service: "mototaxi".into(),
        holder: ANA.into(),
        on: d(2025, 1, 10),
        quota: None,
        line: None,
    };
    store
        .grant_permit(&on(d(2025, 1, 10)), &rb, TO, &grant)
        .await
        .expect("grant");
    let at = (TO, "mototaxi");
    // Nothing is dated before the grant.
    let (reason, articles) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::Reserve {
                ground: "theft".into(),
                days: 30,
            }),
            d(2025, 1, 9),
        )
        .await,
    );
    assert!(reason.contains("anterior à outorga"), "{reason}");
    assert_eq!(articles, ["Art. 11"]);
    // A reserve for a reason art. 20 does not list is refused.
    let (reason, articles) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::Reserve {
                ground: "holidays".into(),
                days: 30,
            }),
            d(2025, 2, 1),
        )
        .await,
    );
    assert!(reason.contains("não é motivo"), "{reason}");
    assert_eq!(articles, ["Art. 20"]);
    // 90 days at most, then extended to 365 in all, and not one day more.
    refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::Reserve {
                ground: "theft".into(),
                days: 91,
            }),
            d(2025, 2, 1),
        )
        .await,
    );
    let reserved = step(
        store,
        &rb,
        at,
        change(LifeStep::Reserve {
            ground: "theft".into(),
            days: 90,
        }),
        d(2025, 2, 1),
    )
    .await
    .expect("reserve");
    assert_eq!(reserved.status, "reserved");
    let (reason, articles) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::ExtendReserve { days: 276 }),
            d(2025, 5, 1),
        )
        .await,
    );
    assert!(reason.contains("275"), "{reason}");
    assert_eq!(articles, ["Art. 20, § 3º"]);
    step(
        store,
        &rb,
        at,
        change(LifeStep::ExtendReserve { days: 275 }),
        d(2025, 5, 1),
    )
    .await
    .expect("extended to 365 days");
    // The reserve runs 2025-02-01..2026-01-31: abandonment only after it.
    let (reason, articles) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::End {
                ground: EndGround::Abandonment,
            }),
            d(2026, 1, 31),
        )
        .await,
    );
    assert!(reason.contains("2026-01-31"), "{reason}");
    assert_eq!(articles, ["Art. 20, § 5º"]);
    // The agenda shows the reserve's end, with the abandonment it may lead to.
    let agenda = store
        .agenda(TO, &[&rb], (d(2026, 1, 20), 30), Window::first(200))
        .await
        .expect("agenda");
    let item = agenda
        .items
        .iter()
        .find(|i| i.kind == "reserve_end")
        .expect("the reserve's end on the agenda");
    assert_eq!(
        (item.due, item.subject.as_str()),
        (d(2026, 1, 31), "permit:mototaxi:1")
    );
    assert!(
        item.description.contains("abandono"),
        "{}",
        item.description
    );
    assert_eq!(item.articles, ["Art. 20", "Art. 20, § 5º"]);
    // Read on a day, the status follows the law: in reserve through its
    // last day, back in operation after it (until abandonment is declared).
    for (day, status) in [
        (d(2026, 1, 31), PermitStatus::Reserved),
        (d(2026, 2, 1), PermitStatus::Granted),
    ] {
        let read = store
            .permit_status(TO, ("mototaxi", 1), day)
            .await
            .expect("status");
        assert_eq!(read, Some(status), "{day}");
    }
    // The age limit: 65 on 2026-03-15.
    let (reason, articles) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::End {
                ground: EndGround::AgeLimit,
            }),
            d(2026, 2, 1),
        )
        .await,
    );
    assert!(reason.contains("2026-03-15"), "{reason}");
    assert_eq!(articles, ["Art. 11, m"]);
    let ended = step(
        store,
        &rb,
        at,
        change(LifeStep::End {
            ground: EndGround::Abandonment,
        }),
        d(2026, 2, 1),
    )
    .await
    .expect("abandonment");
    assert_eq!(ended.status, "extinct");
    let (_, history) = store.permit(TO, "mototaxi", 1).await.expect("permit");
    let events: Vec<&str> = history.iter().map(|h| h.event.as_str()).collect();
    assert_eq!(
        events,
        ["grant", "reserve", "reserve_extension", "extinction"]
    );
    assert!(
        history[3].articles.iter().any(|a| a == "Art. 20, § 5º"),
        "{:?}",
        history[3].articles
    );
    // Nothing more once it ended.
    let (reason, _) =
        refused(step(store, &rb, at, change(LifeStep::Reinstate), d(2026, 2, 2)).await);
    assert!(reason.contains("extinta"), "{reason}");
}

async fn amapa(store: &Store) {
    let rb = rulebook_named("amapa/onibus-intermunicipal");
    jurisdiction(store, AP, &rb).await;
    for (doc, name) in [
        (CARRIER, "Expresso Tucuju"),
        (OTHER_CARRIER, "Viação Oiapoque"),
    ] {
        store.register(&by(), AP, doc, name).await.expect("carrier");
    }
    let line = outorga_store::Line {
        code: "MCP-FGO".into(),
        name: "Macapá–Ferreira Gomes".into(),
        coefficient: outorga_store::parse_coefficient("0.2175").expect("coefficient"),
        itinerary: vec!["Macapá".into(), "Ferreira Gomes".into()],
        ..outorga_store::Line::default()
    };
    store.register_line(&by(), AP, &line).await.expect("line");
    let grant = GrantRequest {
        service: "onibus".into(),
        holder: CARRIER.into(),
        on: d(2020, 1, 10),
        quota: None,
        line: Some("MCP-FGO".into()),
    };
    let granted = store
        .grant_permit(&on(d(2020, 1, 10)), &rb, AP, &grant)
        .await
        .expect("delegation");
    assert_eq!(granted.permit.expires_on, Some(d(2025, 1, 10)));
    let at = (AP, "onibus");
    let renewed = step(store, &rb, at, change(LifeStep::Renew), d(2024, 12, 1))
        .await
        .expect("the single extension");
    assert_eq!(renewed.expires_on, Some(d(2030, 1, 10)));
    let (reason, articles) =
        refused(step(store, &rb, at, change(LifeStep::Renew), d(2029, 12, 1)).await);
    assert!(reason.contains("única prorrogação"), "{reason}");
    assert_eq!(articles, ["Art. 8º"]);
    // Transfer: only with the prior consent, to a registered carrier.
    let (reason, articles) = refused(
        store
            .change_permit(
                &on(d(2026, 3, 1)),
                &rb,
                AP,
                ("onibus", 1),
                &PermitChange {
                    step: LifeStep::Transfer { consent: false },
                    to: Some(OTHER_CARRIER.into()),
                },
                d(2026, 3, 1),
            )
            .await,
    );
    assert!(reason.contains("anuência"), "{reason}");
    assert_eq!(articles, ["Art. 16"]);
    let moved = store
        .change_permit(
            &on(d(2026, 3, 1)),
            &rb,
            AP,
            ("onibus", 1),
            &PermitChange {
                step: LifeStep::Transfer { consent: true },
                to: Some(OTHER_CARRIER.into()),
            },
            d(2026, 3, 1),
        )
        .await
        .expect("transfer with consent");
    assert_eq!(moved.holder, OTHER_CARRIER);
    // Caducity: a notice with 15 days to correct comes first.
    let (reason, _) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::End {
                ground: EndGround::Caducity,
            }),
            d(2026, 4, 1),
        )
        .await,
    );
    assert!(reason.contains("precedida de notificação"), "{reason}");
    // A ground no notice corrects is named as the law names it.
    let (reason, articles) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::CaducityNotice {
                ground: "economic_abuse".into(),
            }),
            d(2026, 4, 1),
        )
        .await,
    );
    assert!(
        reason.starts_with("Declaração de inidoneidade por abuso do poder econômico"),
        "{reason}"
    );
    assert!(!reason.contains("economic_abuse"), "{reason}");
    assert_eq!(articles, ["Art. 65, Parágrafo único"]);
    step(
        store,
        &rb,
        at,
        change(LifeStep::CaducityNotice {
            ground: "paralysis".into(),
        }),
        d(2026, 4, 1),
    )
    .await
    .expect("notice");
    let agenda = store
        .agenda(AP, &[&rb], (d(2026, 4, 1), 30), Window::first(200))
        .await
        .expect("agenda");
    let cure: Vec<_> = agenda
        .items
        .iter()
        .filter(|i| i.kind == "caducity_cure")
        .map(|i| (i.due, i.articles.clone()))
        .collect();
    assert_eq!(cure, [(d(2026, 4, 16), vec!["Art. 18, § 3º".to_string()])]);
    let (reason, articles) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::End {
                ground: EndGround::Caducity,
            }),
            d(2026, 4, 16),
        )
        .await,
    );
    assert!(reason.contains("2026-04-16"), "{reason}");
    assert_eq!(articles, ["Art. 18, § 4º", "Art. 18, § 3º"]);
    let ended = step(
        store,
        &rb,
        at,
        change(LifeStep::End {
            ground: EndGround::Caducity,
        }),
        d(2026, 4, 17),
    )
    .await
    .expect("caducity");
    // Ended, the permit's notice leaves the agenda.
    let agenda = store
        .agenda(AP, &[&rb], (d(2026, 4, 1), 30), Window::first(200))
        .await
        .expect("agenda");
    assert!(!agenda.items.iter().any(|i| i.kind == "caducity_cure"));
    assert_eq!(ended.status, "extinct");
    let (_, history) = store.permit(AP, "onibus", 1).await.expect("permit");
    let events: Vec<&str> = history.iter().map(|h| h.event.as_str()).collect();
    assert_eq!(
        events,
        [
            "grant",
            "renewal",
            "transfer",
            "caducity_notice",
            "caducity"
        ]
    );
    assert_eq!(history[3].until, Some(d(2026, 4, 16)));
    // The history keeps each step's ground as the record spells it.
    let grounds: Vec<Option<&str>> = history.iter().map(|h| h.ground.as_deref()).collect();
    assert_eq!(
        grounds,
        [None, None, None, Some("paralysis"), Some("caducity")]
    );
    // The carrier whose delegation lapsed takes no new one for 24 months
    // (art. 18, § 6º): refused on the last day of the bar, granted the day after.
    let again = |day| GrantRequest {
        service: "onibus".into(),
        holder: OTHER_CARRIER.into(),
        on: day,
        quota: None,
        line: Some("MCP-FGO".into()),
    };
    match store
        .grant_permit(&on(d(2028, 4, 17)), &rb, AP, &again(d(2028, 4, 17)))
        .await
    {
        Err(outorga_store::StoreError::Refused { reason, articles }) => {
            assert!(reason.contains("17/04/2028"), "{reason}");
            assert_eq!(articles, ["Art. 18, § 6º"]);
        }
        other => panic!("expected the bar, got {other:?}"),
    }
    store
        .grant_permit(&on(d(2028, 4, 18)), &rb, AP, &again(d(2028, 4, 18)))
        .await
        .expect("the bar has run out");
}

async fn cangucu(store: &Store) {
    let rb = rulebook_named("cangucu/taxi");
    jurisdiction(store, CG, &rb).await;
    for doc in [ANA, BETO] {
        store
            .register(&by(), CG, doc, "Pessoa")
            .await
            .expect("person");
    }
    store
        .set_parameter(
            &by(),
            &rb,
            CG,
            ("population", Decimal::from(10_000)),
            &crate::common::decree(&rb),
        )
        .await
        .expect("population");
    let grant = GrantRequest {
        service: "taxi".into(),
        holder: ANA.into(),
        on: d(2026, 7, 1),
        quota: None,
        line: None,
    };
    store
        .grant_permit(&on(d(2026, 7, 1)), &rb, CG, &grant)
        .await
        .expect("grant");
    let at = (CG, "taxi");
    let (reason, articles) =
        refused(step(store, &rb, at, change(LifeStep::Renew), d(2026, 8, 1)).await);
    assert!(reason.contains("veda a prorrogação"), "{reason}");
    assert_eq!(articles, ["Art. 37, Parágrafo único"]);
    let (_, articles) = refused(
        store
            .change_permit(
                &on(d(2026, 8, 1)),
                &rb,
                CG,
                ("taxi", 1),
                &PermitChange {
                    step: LifeStep::Transfer { consent: true },
                    to: Some(BETO.into()),
                },
                d(2026, 8, 1),
            )
            .await,
    );
    assert_eq!(articles, ["Art. 30"]);
    // A cassation is a penalty, never a change asked for.
    let (reason, _) = refused(
        step(
            store,
            &rb,
            at,
            change(LifeStep::End {
                ground: EndGround::Cassation,
            }),
            d(2026, 8, 1),
        )
        .await,
    );
    assert!(reason.contains("penalidade"), "{reason}");
    let (permit, _) = store.permit(CG, "taxi", 1).await.expect("permit");
    assert_eq!(
        (permit.status.as_str(), permit.holder.as_str()),
        ("granted", ANA)
    );
}

async fn exercise(url: &str) {
    let store = crate::common::open(url).await;
    teofilo_otoni(&store).await;
    amapa(&store).await;
    cangucu(&store).await;
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn permit_life_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn permit_life_on_postgresql() {
    let (schema, url) = pg_schema("permit_life").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}
