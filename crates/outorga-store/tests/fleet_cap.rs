//! Canguçu's fleet is one (art. 3º, §§ 1º–2º): taxis padrão and acessível
//! count against one cap of one taxi per 1 000 inhabitants, and the
//! accessible taxis are the 3 % share the other grants leave free. On both
//! backends.

mod common;

use common::{by, d, drop_schema, on, pg_schema, rulebook_named};
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
    let store: Store = common::open(url).await;
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
        .set_parameter(&by(), &rb, CG, ("population", Decimal::from(2000)))
        .await
        .expect("population");
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
