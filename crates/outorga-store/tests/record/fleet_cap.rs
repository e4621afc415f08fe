//! Canguçu's fleet is one (art. 3º, §§ 1º–2º): taxis padrão and acessível
//! count against one cap of one taxi per 1 000 inhabitants, and the
//! accessible taxis are the 3 % share the other grants leave free. On both
//! backends.

use crate::common::{by, cpf, d, drop_schema, on, pg_schema, rulebook_named};
use outorga_store::{GrantRequest, Jurisdiction, Store, StoreError, sqlite_url};
use rust_decimal::Decimal;

const CG: &str = "cangucu";
const PEOPLE: [&str; 3] = ["52601815906", "08301661305", "18609139034"];

fn grant(service: &str, holder: &str) -> GrantRequest {
    GrantRequest {
        service: service.into(),
        holder: holder.into(),
        on: d(2026, 7, 1),
        quota: None,
        line: None,
    }
}

async fn exercise(url: &str) {
    let store: Store = crate::common::open(url).await;
    let rb = rulebook_named("cangucu/taxi");
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: CG.into(),
                name: "Canguçu".into(),
                state: "RS".into(),
                rulebooks: vec![rb.id.clone()],
            }],
        )
        .await
        .expect("sync");
    for doc in PEOPLE {
        store
            .register(&by(), CG, doc, "Pessoa")
            .await
            .expect("person");
    }
    // 2 000 inhabitants: 2 taxis in all, 1 of them accessible (3 %, up).
    store
        .set_parameter(
            &by(),
            &rb,
            CG,
            ("population", Decimal::from(2000)),
            &crate::common::decree(&rb),
        )
        .await
        .expect("population");
    // The deployment's values, as the table keeps them; none elsewhere.
    let values = store.parameter_values(CG).await.expect("values");
    let kept: Vec<_> = values
        .into_iter()
        .flat_map(|(name, dated)| {
            dated
                .into_iter()
                .map(move |d| (name.clone(), d.value, d.from, d.source))
        })
        .collect();
    assert_eq!(
        kept,
        [(
            "population".to_string(),
            Decimal::from(2000),
            rb.first_version().version.valid_from,
            Some("Decreto de teste".to_string())
        )]
    );
    assert!(matches!(
        store.parameter_values("nenhures").await,
        Err(StoreError::Invalid { .. })
    ));
    let when = on(d(2026, 7, 1));
    store
        .grant_permit(&when, &rb, CG, &grant("taxi", PEOPLE[0]))
        .await
        .expect("the free place");
    let refused = |r: Result<outorga_store::Granted, StoreError>| match r {
        Err(StoreError::Refused { reason, articles }) => (reason, articles),
        other => panic!("expected a refusal, got {other:?}"),
    };
    let (reason, articles) = refused(
        store
            .grant_permit(&when, &rb, CG, &grant("taxi", PEOPLE[1]))
            .await,
    );
    assert!(reason.contains("livre concorrência"), "{reason}");
    assert!(
        articles.contains(&"Art. 3º, § 1º".to_string()),
        "{articles:?}"
    );
    store
        .grant_permit(&when, &rb, CG, &grant("taxi_acessivel", PEOPLE[1]))
        .await
        .expect("the accessible share");
    let (reason, _) = refused(
        store
            .grant_permit(&when, &rb, CG, &grant("taxi_acessivel", PEOPLE[2]))
            .await,
    );
    assert!(reason.contains("limite de 2 permissões"), "{reason}");
}

/// Santa Maria de Jetibá art. 2º, §§ 4º, 6º: 8 000 inhabitants, 10 places,
/// 1 reserved for a driver with a disability. The 9 free places taken, an
/// open grant waits while the reserved one is unfilled; once the board
/// releases it (a call found no eligible applicant), the open grant fits.
async fn released_quota(url: &str) {
    let store: Store = crate::common::open(url).await;
    let rb = rulebook_named("santa-maria-de-jetiba/taxi");
    let j = "santa-maria-de-jetiba";
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: j.into(),
                name: "Santa Maria de Jetibá".into(),
                state: "ES".into(),
                rulebooks: vec![rb.id.clone()],
            }],
        )
        .await
        .expect("sync");
    store
        .set_parameter(
            &by(),
            &rb,
            j,
            ("population", Decimal::from(8000)),
            &crate::common::decree(&rb),
        )
        .await
        .expect("population");
    let when = on(d(2026, 7, 1));
    let grant = |holder: &str| GrantRequest {
        service: "taxi".into(),
        holder: holder.into(),
        on: d(2026, 7, 1),
        quota: None,
        line: None,
    };
    // Valid CPFs from a seed: the demo's way.
    let people: Vec<String> = (0..10).map(cpf).collect();
    for doc in &people {
        store
            .register(&by(), j, doc, "Pessoa")
            .await
            .expect("person");
    }
    for doc in &people[..9] {
        store
            .grant_permit(&when, &rb, j, &grant(doc))
            .await
            .expect("a free place");
    }
    match store.grant_permit(&when, &rb, j, &grant(&people[9])).await {
        Err(StoreError::Refused { reason, .. }) => {
            assert!(reason.contains("livre concorrência"), "{reason}");
        }
        other => panic!("expected the reserved place to hold, got {other:?}"),
    }
    let (places, article) = store
        .release_quota(&when, &rb, j, ("taxi", "disabled_drivers"), d(2026, 7, 1))
        .await
        .expect("release");
    assert_eq!((places, article.as_str()), (1, "Art. 2º, § 6º"));
    // Nothing more to release: the share named as users write it.
    match store
        .release_quota(&when, &rb, j, ("taxi", "disabled_drivers"), d(2026, 7, 1))
        .await
    {
        Err(StoreError::Refused { reason, .. }) => assert_eq!(
            reason,
            "não há vagas da reserva `condutores_com_deficiencia` por preencher"
        ),
        other => panic!("expected nothing more to release, got {other:?}"),
    }
    store
        .grant_permit(&when, &rb, j, &grant(&people[9]))
        .await
        .expect("the released place");
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn released_quota_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    released_quota(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn released_quota_on_postgresql() {
    let (schema, url) = pg_schema("released_quota").await;
    released_quota(&url).await;
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_fleet_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_fleet_on_postgresql() {
    let (schema, url) = pg_schema("fleet_cap").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}
