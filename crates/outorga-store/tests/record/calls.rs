//! A public call of Santa Maria de Jetibá, from the edital to the grants,
//! tested from the law on both backends.
//!
//! 24 000 inhabitants give a cap of 30 taxis (one per 800, art. 18, § 1º),
//! 10 % of them — 3 — reserved for drivers with a disability (art. 2º,
//! § 4º), who prove the conditions of § 5º. The edital offers 10 places:
//! the 3 reserved and 7 open. 25 apply: 20 drivers, 3 with a disability
//! (two prove every condition; one lacks the adapted vehicle and competes
//! in open places) and 2 ineligible (one without the edital's certificate,
//! one whose CNH does not allow paid activity, art. 11, I, b). The two
//! admitted claimants take two reserved places; the third reserved place,
//! with no eligible claimant for it, goes to the other applicants (§ 6º);
//! the 8 places left go down the ranking, where three drivers tie on the
//! 8th place and a public draw, its tickets SHA-256 of seed and label,
//! decides which one. Appeals within 3 business days of the provisional
//! result (art. 8º, decree default): one on the last day, one the day after
//! refused; a granted appeal corrects an application and it is screened
//! again. The grants follow the final result's order, through the normal
//! grant.

use crate::common::{by, cpf, d, drop_schema, on, open, pg_schema, rulebook_named};
use outorga_core::model::Rulebook;
use outorga_store::{
    ApplicationInput, CallCriterion, CallDocument, CallInput, CallPlace, CallStatus, Cnh,
    Jurisdiction, Profile, Shown, Store, StoreError, sqlite_url,
};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

const SMJ: &str = "santa-maria-de-jetiba";
const SEED: &str = "12345 67890 13579 24680 11223";

fn invalid(result: Result<impl std::fmt::Debug, StoreError>, expected: &str) -> String {
    match result {
        Err(StoreError::Invalid { field, reason } | StoreError::Taken { field, reason }) => {
            assert_eq!(field, expected, "{reason}");
            reason
        }
        other => panic!("expected a refusal of `{expected}`, got {other:?}"),
    }
}

/// Someone who meets and shows every requirement of the law; `paid`:
/// whether the CNH allows paid activity.
fn profile(paid: bool, disabled: bool) -> Profile {
    Profile {
        birth_date: Some(d(1980, 5, 1)),
        resident_since: Some(d(2010, 1, 1)),
        final_conviction: Some(false),
        public_employee: Some(false),
        transport_operator: Some(false),
        disabled: Some(disabled),
        education: Some("medio".into()),
        cnh: Some(Cnh {
            number: "02650306461".into(),
            categories: vec!["B".into()],
            paid_activity: paid,
            first_issued: Some(d(2000, 1, 1)),
            expires: d(2030, 1, 1),
            suspended_until: None,
        }),
        ..Profile::default()
    }
}

fn edital() -> CallInput {
    CallInput {
        service: "taxi".into(),
        act: "Edital de Chamamento Público nº 1/2026 (Decreto nº 100/2026)".into(),
        offered: 10,
        opens_on: d(2026, 3, 2),
        closes_on: d(2026, 3, 13),
        criteria: vec![
            CallCriterion {
                key: "anos_habilitacao".into(),
                description: "Anos de habilitação".into(),
                points_per_unit: Decimal::ONE,
                max: Some(Decimal::from(20)),
                citation: "Edital, item 7.1, a".into(),
            },
            CallCriterion {
                key: "anos_auxiliar".into(),
                description: "Anos como motorista auxiliar".into(),
                points_per_unit: Decimal::from(2),
                max: Some(Decimal::from(10)),
                citation: "Edital, item 7.1, b".into(),
            },
        ],
        tie_breaks: vec!["anos_auxiliar".into()],
        documents: vec![
            CallDocument {
                name: "certidao_negativa".into(),
                citation: "Edital, item 5.1, c".into(),
            },
            CallDocument {
                name: "comprovante_residencia".into(),
                citation: "Edital, item 5.1, d".into(),
            },
        ],
    }
}

/// An applicant: their CPF, years of driving and as auxiliary, the
/// documents presented, the share's conditions proved.
struct Applicant {
    who: String,
    driving: i64,
    auxiliary: i64,
    documents: Vec<&'static str>,
    proved: Option<Vec<&'static str>>,
    paid: bool,
}

const BOTH: [&str; 2] = ["certidao_negativa", "comprovante_residencia"];
const ALL_CONDITIONS: [&str; 3] = ["disability", "own_vehicle", "adapted_vehicle"];

/// The 25 applicants in the order they apply (their labels
/// `inscricao-1` … `inscricao-25`).
fn applicants() -> Vec<Applicant> {
    let regular = [
        20, 19, 18, 17, 16, 15, 14, 14, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3,
    ];
    let mut all: Vec<Applicant> = regular
        .iter()
        .enumerate()
        .map(|(i, years)| Applicant {
            who: cpf(500 + u32::try_from(i).unwrap_or(0)),
            driving: *years,
            auxiliary: 0,
            documents: BOTH.to_vec(),
            proved: None,
            paid: true,
        })
        .collect();
    // With a disability: two prove every condition, one lacks the adapted
    // vehicle (§ 5º, II) and competes in open places with 15 + 2 × 3 = 21.
    all.push(Applicant {
        who: cpf(600),
        driving: 2,
        auxiliary: 0,
        documents: BOTH.to_vec(),
        proved: Some(ALL_CONDITIONS.to_vec()),
        paid: true,
    });
    all.push(Applicant {
        who: cpf(601),
        driving: 1,
        auxiliary: 0,
        documents: BOTH.to_vec(),
        proved: Some(ALL_CONDITIONS.to_vec()),
        paid: true,
    });
    all.push(Applicant {
        who: cpf(602),
        driving: 15,
        auxiliary: 3,
        documents: BOTH.to_vec(),
        proved: Some(vec!["disability", "own_vehicle"]),
        paid: true,
    });
    // Ineligible: without the certificate; with a CNH not for paid work.
    all.push(Applicant {
        who: cpf(700),
        driving: 20,
        auxiliary: 5,
        documents: vec!["comprovante_residencia"],
        proved: None,
        paid: true,
    });
    all.push(Applicant {
        who: cpf(701),
        driving: 20,
        auxiliary: 2,
        documents: BOTH.to_vec(),
        proved: None,
        paid: false,
    });
    all
}

fn shown(a: &Applicant) -> Shown {
    Shown {
        quantities: vec![
            ("anos_habilitacao".into(), Decimal::from(a.driving)),
            ("anos_auxiliar".into(), Decimal::from(a.auxiliary)),
        ],
        documents: a.documents.iter().map(|s| (*s).to_string()).collect(),
        claim: a.proved.as_ref().map(|_| "disabled_drivers".to_string()),
        proved: a
            .proved
            .iter()
            .flatten()
            .map(|s| (*s).to_string())
            .collect(),
    }
}

async fn setup(store: &Store) -> Rulebook {
    let rb = rulebook_named("santa-maria-de-jetiba/taxi");
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
    store
        .set_parameter(
            &by(),
            &rb,
            SMJ,
            ("population", Decimal::from(24_000)),
            &crate::common::decree(&rb),
        )
        .await
        .expect("population");
    for (i, a) in applicants().iter().enumerate() {
        store
            .register(&by(), SMJ, &a.who, &format!("Candidato {}", i + 1))
            .await
            .expect("person");
        store
            .update_profile(&by(), SMJ, &a.who, &profile(a.paid, a.proved.is_some()))
            .await
            .expect("profile");
    }
    rb
}

/// The draw's order of `labels` recomputed here: by SHA-256 of
/// `<seed>\n<label>`, hex, ascending.
fn recomputed(labels: &[&str]) -> Vec<String> {
    let mut tickets: Vec<(String, String)> = labels
        .iter()
        .map(|l| {
            let digest = Sha256::digest(format!("{SEED}\n{l}").as_bytes());
            let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
            (hex, (*l).to_string())
        })
        .collect();
    tickets.sort();
    tickets.into_iter().map(|(_, l)| l).collect()
}

async fn a_public_call_from_edital_to_grants(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;

    // The edital: 10 places, the share's 3 unfilled places first.
    let mut late = edital();
    late.closes_on = d(2026, 2, 27);
    invalid(
        store.open_call(&on(d(2026, 3, 2)), &rb, SMJ, &late).await,
        "fim_inscricoes",
    );
    let mut uncited = edital();
    uncited.criteria[0].citation = " ".into();
    invalid(
        store
            .open_call(&on(d(2026, 3, 2)), &rb, SMJ, &uncited)
            .await,
        "criterios",
    );
    let mut too_many = edital();
    too_many.offered = 31;
    let refused = invalid(
        store
            .open_call(&on(d(2026, 3, 2)), &rb, SMJ, &too_many)
            .await,
        "vagas",
    );
    assert!(refused.contains("30 livres"), "{refused}");
    let call = store
        .open_call(&on(d(2026, 3, 2)), &rb, SMJ, &edital())
        .await
        .expect("edital");
    let key = (call.year, call.number);
    assert_eq!(call.status, CallStatus::Open);
    assert_eq!(call.places.open, 7);
    assert_eq!(
        call.places.reserved,
        vec![("disabled_drivers".to_string(), 3)]
    );

    // Applications within the period, each once.
    let people = applicants();
    for a in &people {
        let input = ApplicationInput {
            who: a.who.clone(),
            shown: shown(a),
        };
        store
            .apply_to_call(&on(d(2026, 3, 5)), &rb, SMJ, key, &input)
            .await
            .expect("application");
    }
    let again = ApplicationInput {
        who: people[0].who.clone(),
        shown: shown(&people[0]),
    };
    invalid(
        store
            .apply_to_call(&on(d(2026, 3, 6)), &rb, SMJ, key, &again)
            .await,
        "inscrito",
    );
    let unknown = ApplicationInput {
        who: cpf(900),
        shown: Shown::default(),
    };
    store
        .register(&by(), SMJ, &unknown.who, "Candidato atrasado")
        .await
        .expect("person");
    let refused = invalid(
        store
            .apply_to_call(&on(d(2026, 3, 14)), &rb, SMJ, key, &unknown)
            .await,
        "chamamento",
    );
    assert!(refused.contains("13/03/2026"), "{refused}");
    let mut bad = shown(&people[0]);
    bad.documents = vec!["diploma".into()];
    invalid(
        store
            .apply_to_call(
                &on(d(2026, 3, 13)),
                &rb,
                SMJ,
                key,
                &ApplicationInput {
                    who: unknown.who.clone(),
                    shown: bad,
                },
            )
            .await,
        "inscricao",
    );

    // Screening after the period: 23 eligible, the two ineligible named.
    invalid(
        store.screen_call(&on(d(2026, 3, 13)), &rb, SMJ, key).await,
        "chamamento",
    );
    let call = store
        .screen_call(&on(d(2026, 3, 16)), &rb, SMJ, key)
        .await
        .expect("screening");
    let screened = |label: &str| {
        call.applications
            .iter()
            .find(|a| a.label == label)
            .and_then(|a| a.screening.clone())
            .expect("screened")
    };
    assert_eq!(
        call.applications
            .iter()
            .filter(|a| a.screening.as_ref().is_some_and(|s| s.eligible))
            .count(),
        23
    );
    let no_certificate = screened("inscricao-24");
    assert!(!no_certificate.eligible);
    assert_eq!(no_certificate.not_shown[0].key, "certidao_negativa");
    assert_eq!(
        no_certificate.not_shown[0].articles,
        ["Edital, item 5.1, c"]
    );
    let unpaid = screened("inscricao-25");
    assert!(!unpaid.eligible);
    assert!(
        unpaid.unmet.iter().any(|m| m.key == "license_category"),
        "{unpaid:?}"
    );
    let no_adapted = screened("inscricao-23");
    assert_eq!(no_adapted.score, Decimal::from(21));
    let claim = no_adapted.claim.expect("claim");
    assert!(!claim.admitted);
    assert_eq!(claim.missing[0].key, "adapted_vehicle");

    // The tie on 14 points (inscrições 7, 8, 9) needs its draw.
    let refused = invalid(
        store
            .publish_provisional_result(&on(d(2026, 3, 16)), &rb, SMJ, key)
            .await,
        "sorteio",
    );
    assert!(
        refused.contains("inscricao-7, inscricao-8, inscricao-9"),
        "{refused}"
    );
    invalid(
        store
            .open_call_tie_draw(
                &on(d(2026, 3, 19)),
                &rb,
                SMJ,
                key,
                ("Loteria Federal, extração de 18/03/2026", d(2026, 3, 18)),
            )
            .await,
        "data_semente",
    );
    let call = store
        .open_call_tie_draw(
            &on(d(2026, 3, 16)),
            &rb,
            SMJ,
            key,
            ("Loteria Federal, extração de 18/03/2026", d(2026, 3, 18)),
        )
        .await
        .expect("tie draw");
    let draw = call.draws.first().expect("draw").clone();
    let labels: Vec<&str> = draw.participants.iter().map(|p| p.label.as_str()).collect();
    assert_eq!(labels, ["inscricao-7", "inscricao-8", "inscricao-9"]);
    assert!(draw.list_hash.is_some());
    invalid(
        store
            .open_call_tie_draw(
                &on(d(2026, 3, 16)),
                &rb,
                SMJ,
                key,
                ("Loteria Federal", d(2026, 3, 18)),
            )
            .await,
        "sorteio",
    );
    let drawn = store
        .run_draw(
            &on(d(2026, 3, 18)),
            &rb,
            SMJ,
            (draw.year, draw.number),
            SEED,
        )
        .await
        .expect("drawn");
    let order: Vec<String> = drawn.in_order().iter().map(|p| p.label.clone()).collect();
    assert_eq!(order, recomputed(&labels));
    invalid(
        store
            .run_draw(
                &on(d(2026, 3, 19)),
                &rb,
                SMJ,
                (draw.year, draw.number),
                SEED,
            )
            .await,
        "sorteio",
    );

    // The provisional result: 2 reserved places, 1 released, 7 open.
    let call = store
        .publish_provisional_result(&on(d(2026, 3, 19)), &rb, SMJ, key)
        .await
        .expect("provisional");
    assert_eq!(call.status, CallStatus::Provisional);
    // 3 business days from Thursday 19/03: Fri 20, Mon 23, Tue 24.
    assert_eq!(call.appeal_until, Some(d(2026, 3, 24)));
    let mut expected: Vec<String> = [
        "inscricao-21",
        "inscricao-22",
        "inscricao-23",
        "inscricao-1",
        "inscricao-2",
        "inscricao-3",
        "inscricao-4",
        "inscricao-5",
        "inscricao-6",
    ]
    .map(String::from)
    .to_vec();
    expected.push(order[0].clone());
    let granted: Vec<String> = call.grants().iter().map(|a| a.label.clone()).collect();
    assert_eq!(granted, expected);
    let places: Vec<CallPlace> = call
        .grants()
        .iter()
        .filter_map(|a| a.place.clone())
        .collect();
    assert_eq!(
        places
            .iter()
            .filter(|p| matches!(p, CallPlace::Reserved(_)))
            .count(),
        2
    );
    assert_eq!(
        places
            .iter()
            .filter(|p| matches!(p, CallPlace::Released(_)))
            .count(),
        1
    );
    let outcome = call.outcome.clone().expect("outcome");
    assert_eq!(
        outcome.released,
        vec![(
            "disabled_drivers".to_string(),
            1,
            "Art. 2º, § 6º".to_string()
        )]
    );
    // The ranking: the claimant without the adapted vehicle first (21).
    assert_eq!(call.ranking()[0].label, "inscricao-23");
    assert_eq!(call.ranking().len(), 23);

    // Appeals until Tuesday 24/03; a granted one screens again.
    let refused = invalid(
        store
            .appeal_call(
                &on(d(2026, 3, 25)),
                &rb,
                SMJ,
                key,
                (&people[23].who, "Apresento agora a certidão negativa."),
            )
            .await,
        "chamamento",
    );
    assert!(refused.contains("24/03/2026"), "{refused}");
    let call = store
        .appeal_call(
            &on(d(2026, 3, 24)),
            &rb,
            SMJ,
            key,
            (&people[19].who, "Tenho 1 ano como auxiliar, não computado."),
        )
        .await
        .expect("appeal on the last day");
    let appeal = call.appeals[0].seq;
    invalid(
        store
            .publish_final_result(&on(d(2026, 3, 25)), &rb, SMJ, key)
            .await,
        "recurso",
    );
    let mut corrected = shown(&people[19]);
    corrected.quantities[1].1 = Decimal::ONE;
    let call = store
        .decide_call_appeal(
            &on(d(2026, 3, 25)),
            &rb,
            SMJ,
            (key, appeal),
            (
                true,
                "Provido: a declaração do permissionário comprova 1 ano como auxiliar.",
                Some(&corrected),
            ),
        )
        .await
        .expect("decision");
    let last = call
        .applications
        .iter()
        .find(|a| a.label == "inscricao-20")
        .expect("applicant");
    assert_eq!(
        last.screening.as_ref().map(|s| s.score),
        Some(Decimal::from(5))
    );

    // The final result, and the § 6º release recorded on the cap.
    let call = store
        .publish_final_result(&on(d(2026, 3, 25)), &rb, SMJ, key)
        .await
        .expect("final");
    assert_eq!(call.status, CallStatus::Final);
    let granted: Vec<String> = call.grants().iter().map(|a| a.label.clone()).collect();
    assert_eq!(granted, expected);

    // Grants in turn through the normal grant.
    let second = call.grants()[1].seq;
    let refused = invalid(
        store
            .grant_from_call(&on(d(2026, 3, 26)), &rb, SMJ, (key, second))
            .await,
        "inscricao",
    );
    assert!(refused.contains("inscricao-21"), "{refused}");
    let turns: Vec<i64> = call.grants().iter().map(|a| a.seq).collect();
    let mut call = call;
    for seq in turns {
        call = store
            .grant_from_call(&on(d(2026, 3, 26)), &rb, SMJ, (key, seq))
            .await
            .expect("grant");
    }
    let permits: Vec<_> = call.grants().iter().map(|a| a.permit.clone()).collect();
    assert!(permits.iter().all(Option::is_some), "{permits:?}");
    let first = call.grants()[0].permit.clone().expect("permit");
    let (permit, _) = store.permit(SMJ, &first.0, first.1).await.expect("permit");
    assert_eq!(permit.quota.as_deref(), Some("disabled_drivers"));
    invalid(
        store
            .grant_from_call(&on(d(2026, 3, 26)), &rb, SMJ, (key, second))
            .await,
        "inscricao",
    );
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test]
async fn calls_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    a_public_call_from_edital_to_grants(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn calls_on_postgresql() {
    let (schema, url) = pg_schema("calls").await;
    a_public_call_from_edital_to_grants(&url).await;
    drop_schema(&schema).await;
}
