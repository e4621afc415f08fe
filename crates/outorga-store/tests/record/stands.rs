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
    CameBy, DebtFilter, Designation, DrawInput, DrawStatus, GrantRequest, HolderRequest,
    Jurisdiction, LeftBy, NoticeInput, Stand, Store, StoreError, SwapRequest, SwapStatus, Window,
    sqlite_url,
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
        .set_parameter(
            &by(),
            &rb,
            CG,
            ("population", Decimal::from(100_000)),
            &crate::common::decree(&rb),
        )
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

// ---------------------------------------------------------------- other laws

const SMJ: &str = "santa-maria-de-jetiba";
const TO: &str = "teofilo-otoni";

/// `jurisdiction` with `rulebooks`, its population and `holders`, each
/// granted a permit of the rulebook's service on 2 March 2026 (numbered
/// in order within the service).
async fn other_law(
    store: &Store,
    (jurisdiction, name, state): (&str, &str, &str),
    rulebooks: &[&Rulebook],
    holders: &[(&str, &Rulebook, &str)],
) {
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: jurisdiction.into(),
                name: name.into(),
                state: state.into(),
                rulebooks: rulebooks.iter().map(|r| r.id.clone()).collect(),
            }],
        )
        .await
        .expect("sync");
    for rb in rulebooks {
        store
            .set_parameter(
                &by(),
                rb,
                jurisdiction,
                ("population", Decimal::from(100_000)),
                &crate::common::decree(rb),
            )
            .await
            .expect("population");
    }
    for (holder, rb, service) in holders {
        store
            .register(&by(), jurisdiction, holder, "Titular")
            .await
            .expect("person");
        store
            .update_profile(
                &by(),
                jurisdiction,
                holder,
                &outorga_store::Profile {
                    birth_date: Some(d(1980, 5, 1)),
                    resident_since: Some(d(2010, 1, 1)),
                    ..outorga_store::Profile::default()
                },
            )
            .await
            .expect("profile");
        store
            .grant_permit(
                &on(d(2026, 3, 2)),
                rb,
                jurisdiction,
                &GrantRequest {
                    service: (*service).into(),
                    holder: (*holder).into(),
                    on: d(2026, 3, 2),
                    quota: None,
                    line: None,
                },
            )
            .await
            .expect("grant");
    }
    for (code, places) in [("PRACA", 2), ("RODO", 2), ("HOSP", 2)] {
        let mut stand = Stand::new(code, &format!("Ponto {code}"), Some(places));
        stand.act = Some("Decreto 7/2026".into());
        store
            .register_stand(&by(), jurisdiction, &stand)
            .await
            .expect("stand");
    }
}

fn moved(service: &str, number: i64, stand: &str, grounds: &str) -> Designation {
    Designation {
        service: service.into(),
        number,
        stand: stand.into(),
        act: "Portaria 30/2026".into(),
        grounds: grounds.into(),
        request: None,
    }
}

/// The refusal of what the law of `place` does not provide, named.
fn not_in_law(result: Result<impl std::fmt::Debug, StoreError>, place: &str, what: &str) {
    let (reason, _) = refused(result);
    assert!(
        reason.contains(&format!("a lei de {place}")) && reason.contains(what),
        "{reason}"
    );
}

async fn at_in(store: &Store, j: &str, stand: &str, day: chrono::NaiveDate) -> Vec<i64> {
    let mut numbers: Vec<i64> = store
        .stand_occupancy(j, stand, day)
        .await
        .expect("occupancy")
        .occupants
        .iter()
        .map(|p| p.number)
        .collect();
    numbers.sort_unstable();
    numbers
}

/// Santa Maria de Jetibá (art. 28–29): a credenciado's stand is moved only
/// with grounds of public interest, after a notice and the 15 business
/// days to answer it (§ 1º) — counted by the core's deadline engine over
/// Good Friday and the weekend —, refused on the last day and the day
/// before, naming the article and the day the time ends; no swap, no
/// vacancy draw, no stand lost for days off the road, no move at the
/// holder's request: each refused naming the law.
async fn santa_maria_stands(url: &str) {
    let store = open(url).await;
    let rb = rulebook_named("santa-maria-de-jetiba/taxi");
    other_law(
        &store,
        (SMJ, "Santa Maria de Jetibá", "ES"),
        &[&rb],
        &[
            (HOLDERS[0], &rb, "taxi"),
            (HOLDERS[1], &rb, "taxi"),
            (HOLDERS[2], &rb, "taxi"),
        ],
    )
    .await;
    let march = on(d(2026, 3, 9));
    for (n, stand) in [(1, "PRACA"), (2, "PRACA"), (3, "RODO")] {
        let place = store
            .designate_stand(&march, &rb, SMJ, &moved("taxi", n, stand, ""))
            .await
            .expect("designated");
        assert_eq!(place.articles, ["Art. 28"]);
    }
    // Without a notice, no move, grounds or not.
    let grounds = "Obras de drenagem fecham a praça por seis meses";
    let (reason, articles) = refused(
        store
            .designate_stand(
                &on(d(2026, 3, 10)),
                &rb,
                SMJ,
                &moved("taxi", 1, "RODO", grounds),
            )
            .await,
    );
    assert!(reason.contains("notificação"), "{reason}");
    assert_eq!(articles, ["Art. 28, § 1º"]);
    invalid(
        store
            .designate_stand(
                &on(d(2026, 3, 10)),
                &rb,
                SMJ,
                &moved("taxi", 1, "RODO", "obras"),
            )
            .await,
        "fundamentos",
    );
    // What the law does not provide.
    not_in_law(
        store
            .request_stand_swap(
                &march,
                &rb,
                SMJ,
                &SwapRequest {
                    service: "taxi".into(),
                    a: 1,
                    b: 3,
                    consent: None,
                },
            )
            .await,
        "Santa Maria de Jetibá",
        "permuta",
    );
    let seed = DrawInput {
        stand: "RODO".into(),
        seed_source: "Loteria Federal, extração de 14/03/2026".into(),
        seed_on: d(2026, 3, 14),
    };
    not_in_law(
        store.open_stand_draw(&march, &rb, SMJ, &seed).await,
        "Santa Maria de Jetibá",
        "sorteio",
    );
    not_in_law(
        store
            .lose_stand_for_downtime(
                &on(d(2026, 9, 1)),
                &rb,
                SMJ,
                ("taxi", 1),
                (d(2026, 5, 5), d(2026, 8, 30)),
                &[],
            )
            .await,
        "Santa Maria de Jetibá",
        "veículo parado",
    );
    let mut asked = moved("taxi", 1, "RODO", "");
    asked.request = Some(HolderRequest {
        protocol: "123/2026".into(),
        study: "Estudo 1/2026".into(),
    });
    not_in_law(
        store.designate_stand(&march, &rb, SMJ, &asked).await,
        "Santa Maria de Jetibá",
        "a pedido do titular",
    );

    // The notice: grounds, a stand to move to that is not its own, a day
    // not before the permit came to its stand.
    let notice = |destination: &str, grounds: &str, notified_on| NoticeInput {
        service: "taxi".into(),
        number: 1,
        destination: destination.into(),
        act: "Notificação 4/2026".into(),
        grounds: grounds.into(),
        notified_on,
    };
    let friday = on(d(2026, 3, 13));
    invalid(
        store
            .notify_stand_relocation(&friday, &rb, SMJ, &notice("RODO", "obras", d(2026, 3, 13)))
            .await,
        "fundamentos",
    );
    invalid(
        store
            .notify_stand_relocation(&friday, &rb, SMJ, &notice("PRACA", grounds, d(2026, 3, 13)))
            .await,
        "ponto",
    );
    invalid(
        store
            .notify_stand_relocation(&friday, &rb, SMJ, &notice("RODO", grounds, d(2026, 3, 6)))
            .await,
        "notificado_em",
    );
    // Notified on Friday 13 March 2026: day 1 is Monday 16; Good Friday
    // (3 April) is skipped; the 15th business day is Monday 6 April.
    let sent = store
        .notify_stand_relocation(&friday, &rb, SMJ, &notice("RODO", grounds, d(2026, 3, 13)))
        .await
        .expect("notified");
    assert_eq!(
        (sent.seq, sent.stand.as_str(), sent.answer_until),
        (1, "PRACA", d(2026, 4, 6))
    );
    assert_eq!(sent.articles, ["Art. 28, § 1º"]);
    // The holder answers within the time; once.
    invalid(
        store
            .answer_stand_notice(
                &on(d(2026, 3, 20)),
                &rb,
                SMJ,
                (("taxi", 1), 1),
                (d(2026, 3, 20), "curta"),
            )
            .await,
        "resposta",
    );
    let answered = store
        .answer_stand_notice(
            &on(d(2026, 3, 20)),
            &rb,
            SMJ,
            (("taxi", 1), 1),
            (
                d(2026, 3, 19),
                "A praça é o único ponto perto da rodoviária antiga",
            ),
        )
        .await
        .expect("answered");
    assert_eq!(answered.answer.as_ref().map(|a| a.0), Some(d(2026, 3, 19)));
    invalid(
        store
            .answer_stand_notice(
                &on(d(2026, 3, 20)),
                &rb,
                SMJ,
                (("taxi", 1), 1),
                (d(2026, 3, 20), "Outra resposta do titular"),
            )
            .await,
        "resposta",
    );
    // The 14th and the 15th business day: refused, the day the time ends
    // named; the answer given does not shorten it.
    for day in [d(2026, 4, 2), d(2026, 4, 6)] {
        let (reason, articles) = refused(
            store
                .designate_stand(&on(day), &rb, SMJ, &moved("taxi", 1, "RODO", grounds))
                .await,
        );
        assert!(
            reason.contains("termina em 06/04/2026") && reason.contains("a partir de 07/04/2026"),
            "{reason}"
        );
        assert!(
            articles.contains(&"Art. 28, § 1º".to_string()),
            "{articles:?}"
        );
    }
    assert_eq!(at_in(&store, SMJ, "PRACA", d(2026, 4, 6)).await, [1, 2]);
    // The notice is of a move to the bus station, not to the hospital.
    refused(
        store
            .designate_stand(
                &on(d(2026, 4, 7)),
                &rb,
                SMJ,
                &moved("taxi", 1, "HOSP", grounds),
            )
            .await,
    );
    // The day after the time ended, with grounds: moved, the notice used.
    let placed = store
        .designate_stand(
            &on(d(2026, 4, 7)),
            &rb,
            SMJ,
            &moved("taxi", 1, "RODO", grounds),
        )
        .await
        .expect("relocated");
    assert_eq!(
        (placed.came_by, placed.stand.as_str(), placed.from),
        (CameBy::Relocation, "RODO", d(2026, 4, 7))
    );
    assert_eq!(placed.articles, ["Art. 28, § 1º"]);
    assert_eq!(at_in(&store, SMJ, "PRACA", d(2026, 4, 7)).await, [2]);
    assert_eq!(at_in(&store, SMJ, "RODO", d(2026, 4, 7)).await, [1, 3]);
    let notices = store
        .stand_notices(SMJ, ("taxi", 1), Window::first(10))
        .await
        .expect("notices")
        .items;
    assert_eq!(notices[0].relocated_on, Some(d(2026, 4, 7)));
    // A notice serves one move: going back needs another.
    let (reason, _) = refused(
        store
            .designate_stand(
                &on(d(2026, 4, 8)),
                &rb,
                SMJ,
                &moved("taxi", 1, "PRACA", grounds),
            )
            .await,
    );
    assert!(reason.contains("registre a notificação"), "{reason}");
    // An answer after the time is late.
    let second = store
        .notify_stand_relocation(
            &on(d(2026, 4, 8)),
            &rb,
            SMJ,
            &notice("PRACA", grounds, d(2026, 4, 8)),
        )
        .await
        .expect("notified again");
    // From Wednesday 8 April: Penha (13 April), Tiradentes (21 April) and
    // 1 May are skipped; the 15th business day is Monday 4 May.
    assert_eq!(second.answer_until, d(2026, 5, 4));
    invalid(
        store
            .answer_stand_notice(
                &on(d(2026, 5, 5)),
                &rb,
                SMJ,
                (("taxi", 1), second.seq),
                (d(2026, 5, 5), "Resposta fora do prazo legal"),
            )
            .await,
        "respondida_em",
    );

    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

/// Teófilo Otoni (art. 23–26): TEOTRANS moves a permit at any time with
/// its grounds, no notice before (art. 26); a move the holder asks for is
/// made with its protocol and the feasibility study (parágrafo único); the
/// stands serve mototaxi and motofrete alike; no notice, swap, vacancy draw
/// or stand lost for days off the road: each refused naming the law.
async fn teofilo_otoni_stands(url: &str) {
    let store = open(url).await;
    let mototaxi = rulebook_named("teofilo-otoni/mototaxi");
    let motofrete = rulebook_named("teofilo-otoni/motofrete");
    other_law(
        &store,
        (TO, "Teófilo Otoni", "MG"),
        &[&mototaxi, &motofrete],
        &[
            (HOLDERS[0], &mototaxi, "mototaxi"),
            (HOLDERS[1], &mototaxi, "mototaxi"),
            (HOLDERS[2], &motofrete, "motofrete"),
        ],
    )
    .await;
    let march = on(d(2026, 3, 9));
    for (rb, service, n, stand) in [
        (&mototaxi, "mototaxi", 1, "PRACA"),
        (&mototaxi, "mototaxi", 2, "RODO"),
        (&motofrete, "motofrete", 1, "PRACA"),
    ] {
        let place = store
            .designate_stand(&march, rb, TO, &moved(service, n, stand, ""))
            .await
            .expect("designated");
        assert_eq!(place.articles, ["Art. 23"]);
    }
    assert_eq!(at_in(&store, TO, "PRACA", d(2026, 3, 9)).await, [1, 1]);
    // TEOTRANS's move: with grounds, at once, on a Saturday.
    invalid(
        store
            .designate_stand(
                &on(d(2026, 3, 14)),
                &mototaxi,
                TO,
                &moved("mototaxi", 1, "HOSP", ""),
            )
            .await,
        "fundamentos",
    );
    let grounds = "Conveniência técnico-operacional: novo terminal";
    let placed = store
        .designate_stand(
            &on(d(2026, 3, 14)),
            &mototaxi,
            TO,
            &moved("mototaxi", 1, "HOSP", grounds),
        )
        .await
        .expect("moved by TEOTRANS");
    assert_eq!(
        (placed.came_by, placed.articles.clone()),
        (CameBy::Relocation, vec!["Art. 26".to_string()])
    );
    // The holder's request: its protocol and the feasibility study.
    let request = |protocol: &str, study: &str| {
        let mut asked = moved("mototaxi", 2, "PRACA", "");
        asked.request = Some(HolderRequest {
            protocol: protocol.into(),
            study: study.into(),
        });
        asked
    };
    let monday = on(d(2026, 3, 16));
    let why = invalid(
        store
            .designate_stand(
                &monday,
                &mototaxi,
                TO,
                &request("", "Estudo TEOTRANS 2/2026"),
            )
            .await,
        "protocolo",
    );
    assert!(why.contains("Art. 26, Parágrafo único"), "{why}");
    invalid(
        store
            .designate_stand(&monday, &mototaxi, TO, &request("4521/2026", " "))
            .await,
        "estudo",
    );
    let asked = store
        .designate_stand(
            &monday,
            &mototaxi,
            TO,
            &request("4521/2026", "Estudo TEOTRANS 2/2026"),
        )
        .await
        .expect("moved at the holder's request");
    assert_eq!(asked.articles, ["Art. 26, Parágrafo único"]);
    assert!(asked.grounds.contains("4521/2026"), "{}", asked.grounds);
    assert_eq!(at_in(&store, TO, "PRACA", d(2026, 3, 16)).await, [1, 2]);
    // What the law does not provide.
    let notice = NoticeInput {
        service: "mototaxi".into(),
        number: 2,
        destination: "RODO".into(),
        act: "Ofício 1/2026".into(),
        grounds: grounds.into(),
        notified_on: d(2026, 3, 16),
    };
    not_in_law(
        store
            .notify_stand_relocation(&monday, &mototaxi, TO, &notice)
            .await,
        "Teófilo Otoni",
        "notificação prévia",
    );
    not_in_law(
        store
            .request_stand_swap(
                &monday,
                &motofrete,
                TO,
                &SwapRequest {
                    service: "mototaxi".into(),
                    a: 1,
                    b: 2,
                    consent: Some(("Associação dos Mototaxistas".into(), d(2026, 3, 16))),
                },
            )
            .await,
        "Teófilo Otoni",
        "permuta",
    );
    let seed = DrawInput {
        stand: "RODO".into(),
        seed_source: "Loteria Federal, extração de 21/03/2026".into(),
        seed_on: d(2026, 3, 21),
    };
    not_in_law(
        store.open_stand_draw(&monday, &mototaxi, TO, &seed).await,
        "Teófilo Otoni",
        "sorteio",
    );
    not_in_law(
        store
            .lose_stand_for_downtime(
                &on(d(2026, 9, 1)),
                &mototaxi,
                TO,
                ("mototaxi", 2),
                (d(2026, 5, 5), d(2026, 8, 30)),
                &[],
            )
            .await,
        "Teófilo Otoni",
        "veículo parado",
    );

    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test]
async fn other_laws_stands_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    santa_maria_stands(&sqlite_url(dir.path()).expect("url")).await;
    let dir = tempfile::tempdir().expect("temp dir");
    teofilo_otoni_stands(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn other_laws_stands_on_postgresql() {
    let (schema, url) = pg_schema("stands_smj").await;
    santa_maria_stands(&url).await;
    drop_schema(&schema).await;
    let (schema, url) = pg_schema("stands_to").await;
    teofilo_otoni_stands(&url).await;
    drop_schema(&schema).await;
}
