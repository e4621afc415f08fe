//! Canguçu's fixed stands in the record, tested from the law on both
//! backends: places designated up to the decree's number (art. 15, § 5º),
//! the authority's relocation only with grounds (§ 3º, III), a swap only
//! with the class entity's consent and then a R$ 500,00 fee for each
//! holder (§ 3º, I–II; § 6º), a vacancy filled by a public draw among the
//! interested (§ 4º) — list closed and hashed before the seed's day, drawn
//! from it, never drawn again, appealed by a participant —, the stand lost
//! after more than 90 days off the road (art. 36, III), a permit's end
//! freeing its place, provisional stands of an event (art. 16), and the
//! occupancy of any past day.

use crate::common::{by, d, drop_schema, on, open, pg_schema, rulebook_named};
use outorga_core::engine::downtime::Excused;
use outorga_core::model::{EndGround, Rulebook};
use outorga_store::{
    CameBy, DebtFilter, Designation, DrawInput, DrawStatus, GrantRequest, Jurisdiction, LeftBy,
    Stand, Store, StoreError, SwapRequest, SwapStatus, Window, sqlite_url,
};
use rust_decimal::Decimal;

const CG: &str = "cangucu";
const HOLDERS: [&str; 5] = [
    "52601815906",
    "08301661305",
    "12345678909",
    "23456789173",
    "34567891228",
];

fn invalid(result: Result<impl std::fmt::Debug, StoreError>, expected: &str) -> String {
    match result {
        Err(StoreError::Invalid { field, reason } | StoreError::Taken { field, reason }) => {
            assert_eq!(field, expected, "{reason}");
            reason
        }
        other => panic!("expected a refusal of `{expected}`, got {other:?}"),
    }
}

fn refused(result: Result<impl std::fmt::Debug, StoreError>) -> (String, Vec<String>) {
    match result {
        Err(StoreError::Refused { reason, articles }) => (reason, articles),
        other => panic!("expected the law's refusal, got {other:?}"),
    }
}

async fn setup(store: &Store) -> Rulebook {
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
    store
        .set_parameter(&by(), &rb, CG, ("population", Decimal::from(100_000)))
        .await
        .expect("population");
    for (i, holder) in HOLDERS.iter().enumerate() {
        store
            .register(&by(), CG, holder, &format!("Delegatário {}", i + 1))
            .await
            .expect("person");
        store
            .grant_permit(
                &on(d(2026, 3, 2)),
                &rb,
                CG,
                &GrantRequest {
                    service: "taxi".into(),
                    holder: (*holder).into(),
                    on: d(2026, 3, 2),
                    quota: None,
                    line: None,
                },
            )
            .await
            .expect("grant");
    }
    rb
}

fn designation(number: i64, stand: &str, grounds: &str) -> Designation {
    Designation {
        service: "taxi".into(),
        number,
        stand: stand.into(),
        act: "Portaria 12/2026".into(),
        grounds: grounds.into(),
        request: None,
    }
}

/// The permits at `stand` on `day`, by number.
async fn at(store: &Store, stand: &str, day: chrono::NaiveDate) -> Vec<i64> {
    let mut numbers: Vec<i64> = store
        .stand_occupancy(CG, stand, day)
        .await
        .expect("occupancy")
        .occupants
        .iter()
        .map(|p| p.number)
        .collect();
    numbers.sort_unstable();
    numbers
}

async fn stands_in_the_record(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;
    // The decree's stands: the square with 2 places, the bus station with 2,
    // and a free stand for the town's festival, 10 to 12 April (art. 16).
    for (code, places) in [("PRACA", 2), ("RODO", 2)] {
        let mut stand = Stand::new(code, &format!("Ponto {code}"), Some(places));
        stand.act = Some("Decreto 100/2026".into());
        store
            .register_stand(&by(), CG, &stand)
            .await
            .expect("stand");
    }
    let mut festa = Stand::new("FESTA", "Festa do Colono", None);
    festa.opens_on = Some(d(2026, 4, 10));
    festa.closes_on = Some(d(2026, 4, 12));
    store
        .register_stand(&by(), CG, &festa)
        .await
        .expect("event stand");
    let mut inverted = Stand::new("FESTA2", "Festa", None);
    inverted.opens_on = Some(d(2026, 4, 12));
    inverted.closes_on = Some(d(2026, 4, 10));
    invalid(store.register_stand(&by(), CG, &inverted).await, "ate");
    let mut placed = Stand::new("FESTA3", "Festa", Some(3));
    placed.opens_on = Some(d(2026, 4, 10));
    placed.closes_on = Some(d(2026, 4, 12));
    invalid(store.register_stand(&by(), CG, &placed).await, "vagas");

    // Designations up to the stand's places.
    let march = on(d(2026, 3, 9));
    for (n, stand) in [(1, "PRACA"), (2, "PRACA"), (3, "RODO")] {
        let place = store
            .designate_stand(&march, &rb, CG, &designation(n, stand, ""))
            .await
            .expect("designated");
        assert_eq!(place.came_by, CameBy::Designation);
        assert_eq!(place.articles, ["Art. 15"]);
    }
    let full = invalid(
        store
            .designate_stand(&march, &rb, CG, &designation(4, "PRACA", ""))
            .await,
        "ponto",
    );
    assert!(full.contains("2 vagas"), "{full}");
    invalid(
        store
            .designate_stand(&march, &rb, CG, &designation(4, "FESTA", ""))
            .await,
        "ponto",
    );
    // The authority moves permit 2 to the bus station: with grounds only.
    let april = on(d(2026, 4, 1));
    let why = invalid(
        store
            .designate_stand(&april, &rb, CG, &designation(2, "RODO", "obras"))
            .await,
        "fundamentos",
    );
    assert!(why.contains("Art. 15, § 3º, III"), "{why}");
    let moved = store
        .designate_stand(
            &april,
            &rb,
            CG,
            &designation(2, "RODO", "Obras na praça reduzem o ponto por seis meses"),
        )
        .await
        .expect("relocated");
    assert_eq!(moved.came_by, CameBy::Relocation);
    assert_eq!(moved.articles, ["Art. 15, § 3º, III"]);
    // The occupancy of a past day is what it was then.
    assert_eq!(at(&store, "PRACA", d(2026, 3, 31)).await, [1, 2]);
    assert_eq!(at(&store, "PRACA", d(2026, 4, 1)).await, [1]);
    assert_eq!(at(&store, "RODO", d(2026, 4, 1)).await, [2, 3]);
    assert_eq!(at(&store, "RODO", d(2026, 3, 8)).await, Vec::<i64>::new());
    let praca = store
        .stand_occupancy(CG, "PRACA", d(2026, 4, 1))
        .await
        .expect("occupancy");
    assert_eq!(praca.vacancies, Some(1));
    assert_eq!(praca.stand.act.as_deref(), Some("Decreto 100/2026"));

    // A swap between 1 (square) and 3 (station): without the class
    // entity's consent it cannot be authorized, and nothing moves.
    let ask = |consent: Option<(String, chrono::NaiveDate)>| SwapRequest {
        service: "taxi".into(),
        a: 1,
        b: 3,
        consent,
    };
    let may = on(d(2026, 5, 4));
    let bare = store
        .request_stand_swap(&may, &rb, CG, &ask(None))
        .await
        .expect("requested");
    let (reason, articles) = refused(
        store
            .decide_stand_swap(&may, &rb, CG, (bare.year, bare.number), (true, ""))
            .await,
    );
    assert!(reason.contains("anuência"), "{reason}");
    assert!(
        articles.contains(&"Art. 15, § 3º, I".to_string()),
        "{articles:?}"
    );
    invalid(
        store
            .decide_stand_swap(&may, &rb, CG, (bare.year, bare.number), (false, "sem"))
            .await,
        "decisao",
    );
    let refused_swap = store
        .decide_stand_swap(
            &may,
            &rb,
            CG,
            (bare.year, bare.number),
            (false, "Falta a anuência do sindicato dos taxistas"),
        )
        .await
        .expect("refused");
    assert_eq!(refused_swap.status, SwapStatus::Refused);
    assert!(refused_swap.debts.is_empty());
    assert_eq!(at(&store, "PRACA", d(2026, 5, 4)).await, [1]);
    // With the consent: authorized, each takes the other's place, and each
    // holder owes R$ 500,00 (art. 15, § 3º, II).
    let consented = store
        .request_stand_swap(
            &may,
            &rb,
            CG,
            &ask(Some((
                "Sindicato dos Taxistas de Canguçu".into(),
                d(2026, 5, 2),
            ))),
        )
        .await
        .expect("requested");
    let done = store
        .decide_stand_swap(
            &may,
            &rb,
            CG,
            (consented.year, consented.number),
            (true, "Autorizada"),
        )
        .await
        .expect("approved");
    assert_eq!(done.status, SwapStatus::Approved);
    assert_eq!(done.debts.len(), 2);
    assert!(
        done.articles.contains(&"Art. 15, § 3º, II".to_string()),
        "{:?}",
        done.articles
    );
    assert_eq!(at(&store, "PRACA", d(2026, 5, 4)).await, [3]);
    assert_eq!(at(&store, "RODO", d(2026, 5, 4)).await, [1, 2]);
    for holder in [HOLDERS[0], HOLDERS[2]] {
        let debts = store
            .debts(
                CG,
                &DebtFilter {
                    debtor: Some(holder.into()),
                    ..DebtFilter::default()
                },
                Window::first(10),
            )
            .await
            .expect("debts")
            .items;
        assert_eq!(debts.len(), 1, "{debts:#?}");
        assert_eq!(
            (debts[0].unit.as_str(), debts[0].quantity.as_str()),
            ("BRL", "500")
        );
        assert_eq!(debts[0].article.as_deref(), Some("Art. 15, § 3º, II"));
    }
    // A request already decided is not decided again.
    invalid(
        store
            .decide_stand_swap(&may, &rb, CG, (done.year, done.number), (true, ""))
            .await,
        "permuta",
    );

    // The square's vacancy, filled by a public draw among those who want
    // to move there (art. 15, § 4º): the seed from the federal lottery of
    // Saturday 16 May, announced on 11 May.
    let monday = on(d(2026, 5, 11));
    let input = |seed_on| DrawInput {
        stand: "PRACA".into(),
        seed_source: "Loteria Federal, extração de 16/05/2026, os cinco prêmios".into(),
        seed_on,
    };
    invalid(
        store
            .open_stand_draw(&monday, &rb, CG, &input(d(2026, 5, 9)))
            .await,
        "data_semente",
    );
    let draw = store
        .open_stand_draw(&monday, &rb, CG, &input(d(2026, 5, 16)))
        .await
        .expect("opened");
    assert_eq!((draw.places, draw.status), (1, DrawStatus::Open));
    assert_eq!(draw.articles, ["Art. 15, § 4º"]);
    let key = (draw.year, draw.number);
    invalid(
        store
            .open_stand_draw(&monday, &rb, CG, &input(d(2026, 5, 16)))
            .await,
        "ponto",
    );
    // While the draw is under way no one is designated to the vacancy.
    invalid(
        store
            .designate_stand(&monday, &rb, CG, &designation(4, "PRACA", ""))
            .await,
        "ponto",
    );
    invalid(store.close_draw(&monday, &rb, CG, key).await, "sorteio");
    for n in [4, 2, 5] {
        store
            .enter_draw(&monday, &rb, CG, key, ("taxi", n))
            .await
            .expect("entered");
    }
    invalid(
        store.enter_draw(&monday, &rb, CG, key, ("taxi", 4)).await,
        "permissao",
    );
    invalid(
        store.enter_draw(&monday, &rb, CG, key, ("taxi", 3)).await,
        "permissao",
    );
    invalid(store.run_draw(&monday, &rb, CG, key, "1").await, "sorteio");
    let closed = store
        .close_draw(&on(d(2026, 5, 15)), &rb, CG, key)
        .await
        .expect("closed");
    // printf '%s\n' taxi-4 taxi-2 taxi-5 | sha256sum
    assert_eq!(
        closed.list_hash.as_deref(),
        Some("33757604a3361281270a97f9bcc7bcfe743040c5b6b93e93327b852408b890d8")
    );
    invalid(
        store
            .enter_draw(&on(d(2026, 5, 15)), &rb, CG, key, ("taxi", 1))
            .await,
        "sorteio",
    );
    let seed = "12345 67890 11111 22222 33333";
    invalid(
        store
            .run_draw(&on(d(2026, 5, 15)), &rb, CG, key, seed)
            .await,
        "semente",
    );
    let drawn = store
        .run_draw(&on(d(2026, 5, 16)), &rb, CG, key, seed)
        .await
        .expect("drawn");
    assert_eq!(drawn.status, DrawStatus::Drawn);
    let order: Vec<&str> = drawn.in_order().iter().map(|p| p.label.as_str()).collect();
    let expected: Vec<&str> =
        outorga_core::engine::draw::order(seed, &["taxi-4", "taxi-2", "taxi-5"])
            .expect("order")
            .into_iter()
            .map(|(p, _)| p)
            .collect();
    assert_eq!(order, expected);
    let winner: i64 = order[0]
        .strip_prefix("taxi-")
        .and_then(|n| n.parse().ok())
        .expect("a permit");
    assert_eq!(at(&store, "PRACA", d(2026, 5, 16)).await, {
        let mut v = vec![3, winner];
        v.sort_unstable();
        v
    });
    let history = store
        .permit_stands(CG, ("taxi", winner), Window::first(50))
        .await
        .expect("history")
        .items;
    let last = history.last().expect("a place");
    assert_eq!((last.came_by, last.stand.as_str()), (CameBy::Draw, "PRACA"));
    if winner == 2 {
        assert_eq!(
            history[history.len() - 2].left,
            Some((d(2026, 5, 16), LeftBy::Draw))
        );
    }
    // Published, it is never drawn again.
    let again = invalid(
        store
            .run_draw(&on(d(2026, 5, 18)), &rb, CG, key, "outra semente")
            .await,
        "sorteio",
    );
    assert!(again.contains("não se refaz"), "{again}");
    // An appeal by one who did not take part is refused; a participant's is
    // recorded and decided.
    invalid(
        store
            .appeal_draw(
                &on(d(2026, 5, 18)),
                &rb,
                CG,
                key,
                (HOLDERS[0], "Não fui chamado para o sorteio"),
            )
            .await,
        "recorrente",
    );
    let loser = drawn.in_order()[1].who.clone();
    let appealed = store
        .appeal_draw(
            &on(d(2026, 5, 18)),
            &rb,
            CG,
            key,
            (&loser, "A semente não corresponde à extração publicada"),
        )
        .await
        .expect("appealed");
    assert_eq!(appealed.appeals.len(), 1);
    let decided = store
        .decide_draw_appeal(
            &on(d(2026, 5, 20)),
            &rb,
            CG,
            (key, 1),
            (
                false,
                "A semente confere com a extração 5.862 da Loteria Federal",
            ),
        )
        .await
        .expect("decided");
    assert_eq!(decided.appeals[0].decided_on, Some(d(2026, 5, 20)));
    assert_eq!(decided.seed.as_deref(), Some(seed));

    // Off the road 90 days: an infraction, but the stand stays (art. 36,
    // II); 91 days and more, the stand is lost (III). The days of an
    // excuse do not count.
    let june = on(d(2026, 9, 1));
    let (reason, articles) = refused(
        store
            .lose_stand_for_downtime(
                &june,
                &rb,
                CG,
                ("taxi", 1),
                (d(2026, 5, 5), d(2026, 8, 2)),
                &[],
            )
            .await,
    );
    assert!(reason.contains("90 dias"), "{reason}");
    assert!(
        articles.contains(&"Art. 36, II".to_string()),
        "{articles:?}"
    );
    // 106 days less the 16 of an illness proved: 90 count.
    let excused = [Excused {
        reason: "health".into(),
        from: d(2026, 5, 5),
        to: d(2026, 5, 20),
    }];
    refused(
        store
            .lose_stand_for_downtime(
                &june,
                &rb,
                CG,
                ("taxi", 1),
                (d(2026, 5, 5), d(2026, 8, 18)),
                &excused,
            )
            .await,
    );
    let lost = store
        .lose_stand_for_downtime(
            &june,
            &rb,
            CG,
            ("taxi", 1),
            (d(2026, 5, 5), d(2026, 8, 3)),
            &[],
        )
        .await
        .expect("lost");
    assert_eq!(
        (lost.stand.as_str(), lost.left),
        ("RODO", Some((d(2026, 9, 1), LeftBy::Downtime)))
    );
    assert!(!at(&store, "RODO", d(2026, 9, 1)).await.contains(&1));
    assert!(at(&store, "RODO", d(2026, 8, 31)).await.contains(&1));

    // A permit that ends leaves its place free from that day.
    let holder3 = at(&store, "PRACA", d(2026, 9, 1)).await;
    assert!(holder3.contains(&3));
    store
        .change_permit(
            &on(d(2026, 9, 2)),
            &rb,
            CG,
            ("taxi", 3),
            &outorga_store::PermitChange {
                step: outorga_core::engine::permit_life::LifeStep::End {
                    ground: EndGround::Renunciation,
                },
                to: None,
            },
            d(2026, 9, 2),
        )
        .await
        .expect("renounced");
    assert!(!at(&store, "PRACA", d(2026, 9, 2)).await.contains(&3));
    assert!(at(&store, "PRACA", d(2026, 9, 1)).await.contains(&3));

    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test]
async fn stands_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    stands_in_the_record(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn stands_on_postgresql() {
    let (schema, url) = pg_schema("stands").await;
    stands_in_the_record(&url).await;
    drop_schema(&schema).await;
}
