//! The holder's own space, on both backends, read from the laws.
//!
//! First access: a code a clerk prints for a registered CPF, valid for
//! `CODE_DAYS` (30 days, the department's practice: no law sets it), used
//! once, replaced by a newer one, refused once it expires; the guesses at it
//! limited as the staff's sign-ins are (`sign_ins.rs`: 5 failures of a name
//! from one network within 60 s); then signing in with the password set,
//! and the session's end.
//!
//! Petitions: Canguçu's defense is filed "em até 15 (quinze) dias contados a
//! partir do primeiro dia útil seguinte ao dia do recebimento" of the auto
//! (Lei de Canguçu, Anexo I, art. 21): on the last day it is recorded, the day
//! after it is refused naming that article; only the one who answers for the
//! auto may file; attachments are PDF, JPEG or PNG, 5 at most, 10 MB in all.
//! A renewal is asked only where the law grants it: Canguçu's delegation
//! lasts 420 months "não prorrogável" (art. 37, parágrafo único); Santa
//! Maria de Jetibá's credential "será sucessivamente renovado" (art. 7º).
//!
//! Points: Santa Maria de Jetibá cassates over 20 points in the last 12
//! months and over 50 in the last 36 (art. 52, V, c and d), a group 3
//! infraction weighing 4 (art. 49, III); Teófilo Otoni over 45 points for a
//! holder and 30 for an auxiliary (art. 84, VI and V), points valid 3 years
//! (art. 89, § 2º).

use crate::common::{by, d, drop_schema, on, pg_schema, rulebook_named};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use outorga_core::engine::process::{Status, Step};
use outorga_core::model::Rulebook;
use outorga_store::{
    AccessCode, Attachment, AutoInput, CODE_DAYS, Change, Cnh, FirstAccess, GrantRequest,
    Jurisdiction, PetitionInput, PetitionKind, PetitionStatus, ProcessStep, Profile, SignIn, Store,
    StoreError, sqlite_url,
};
use rust_decimal::Decimal;
use std::net::IpAddr;

const CG: &str = "cangucu";
const SMJ: &str = "santa-maria-de-jetiba";
const TO: &str = "teofilo-otoni";
const ANA: &str = "52601815906";
const BETO: &str = "08301661305";
const CAIO: &str = "18609139034";
const DANI: &str = "99603082430";
/// Registered nowhere.
const EDU: &str = "62819482112";
const CARRIER: &str = "36002518000101";

/// A password the policy accepts (long, no CPF in it, not a common word).
const PASSWORD: &str = "Jacaranda-Roxo-Ventania-77";
const OTHER_PASSWORD: &str = "Pitanga-Serena-Orvalho-31";

// ------------------------------------------------------------------ fixtures

fn at(day: NaiveDate, h: u32, m: u32, s: u32) -> NaiveDateTime {
    day.and_hms_opt(h, m, s).expect("time")
}

fn ip(text: &str) -> IpAddr {
    text.parse().expect("address")
}

/// The clerk's change at the moment `when`.
fn clerk(when: NaiveDateTime) -> Change<'static> {
    Change { at: when, ..by() }
}

/// Someone who meets every recorded requirement of the laws.
fn fit() -> Profile {
    Profile {
        birth_date: Some(d(1980, 5, 1)),
        resident_since: Some(d(2010, 1, 1)),
        final_conviction: Some(false),
        cnh: Some(Cnh {
            number: "02650306461".into(),
            categories: vec!["A".into(), "B".into()],
            paid_activity: true,
            first_issued: Some(d(2000, 1, 1)),
            expires: d(2030, 1, 1),
            suspended_until: None,
        }),
        ..Profile::default()
    }
}

async fn setup(store: &Store) {
    let jurisdictions = [
        (CG, "Canguçu", "RS", "cangucu/taxi"),
        (
            SMJ,
            "Santa Maria de Jetibá",
            "ES",
            "santa-maria-de-jetiba/taxi",
        ),
        (TO, "Teófilo Otoni", "MG", "teofilo-otoni/mototaxi"),
    ]
    .map(|(id, name, state, rulebook)| Jurisdiction {
        id: id.into(),
        name: name.into(),
        state: state.into(),
        rulebooks: vec![rulebook.into()],
    });
    store
        .sync_jurisdictions(&by(), &jurisdictions)
        .await
        .expect("sync");
    for j in [CG, SMJ, TO] {
        for doc in [ANA, BETO, CAIO, DANI] {
            store
                .register(&by(), j, doc, "Pessoa")
                .await
                .expect("person");
            store
                .update_profile(&by(), j, doc, &fit())
                .await
                .expect("profile");
        }
    }
    store
        .register(&by(), CG, CARRIER, "Táxi Ltda")
        .await
        .expect("company");
    for (j, rulebook, population) in [
        (CG, "cangucu/taxi", 10_000),
        (SMJ, "santa-maria-de-jetiba/taxi", 4_000),
        (TO, "teofilo-otoni/mototaxi", 100_000),
    ] {
        store
            .set_parameter(
                &by(),
                &rulebook_named(rulebook),
                j,
                ("population", Decimal::from(population)),
                &crate::common::decree(&rulebook_named(rulebook)),
            )
            .await
            .expect("population");
    }
}

/// A permit of `service` granted to `holder` on `day`: its number.
async fn grant(
    store: &Store,
    (rb, j, service): (&Rulebook, &str, &str),
    holder: &str,
    day: NaiveDate,
) -> i64 {
    let request = GrantRequest {
        service: service.into(),
        holder: holder.into(),
        on: day,
        quota: None,
        line: None,
    };
    store
        .grant_permit(&on(day), rb, j, &request)
        .await
        .expect("grant")
        .permit
        .number
}

/// An auto of `infraction` against `offender`, issued on `day`.
async fn issue(
    store: &Store,
    (rb, j): (&Rulebook, &str),
    (infraction, offender, permit): (&str, &str, Option<(String, i64)>),
    day: NaiveDate,
) -> (i32, i64) {
    let input = AutoInput {
        infraction: infraction.into(),
        offender: offender.into(),
        permit,
        plate: None,
        committed_at: at(day, 9, 0, 0),
        place: "Centro".into(),
        description: "constatado pelo fiscal".into(),
    };
    let auto = store
        .issue_auto(&on(day), rb, j, &input)
        .await
        .expect("auto");
    (auto.year, auto.number)
}

async fn take(
    store: &Store,
    (rb, j): (&Rulebook, &str),
    key: (i32, i64),
    step: Step,
    day: NaiveDate,
) -> outorga_store::Auto {
    store
        .process_auto(&on(day), rb, j, key, &ProcessStep::new(step), day)
        .await
        .unwrap_or_else(|e| panic!("{day}: {e:?}"))
}

fn pdf(size: usize) -> Attachment {
    let mut bytes = b"%PDF-1.7\n".to_vec();
    bytes.resize(size, b'x');
    Attachment {
        name: "defesa.pdf".into(),
        bytes,
    }
}

fn jpeg(size: usize) -> Attachment {
    let mut bytes = vec![0xFF, 0xD8, 0xFF, 0xE0];
    bytes.resize(size, 0);
    Attachment {
        name: "foto.jpg".into(),
        bytes,
    }
}

fn png(size: usize) -> Attachment {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.resize(size, 0);
    Attachment {
        name: "placa.png".into(),
        bytes,
    }
}

fn defense(document: &str, key: (i32, i64), files: Vec<Attachment>) -> PetitionInput {
    PetitionInput {
        kind: PetitionKind::Defense,
        document: document.into(),
        auto: Some(key),
        permit: None,
        text: "Não cometi a infração: o veículo estava na oficina.".into(),
        files,
    }
}

fn renewal(document: &str, permit: (&str, i64)) -> PetitionInput {
    PetitionInput {
        kind: PetitionKind::Renewal,
        document: document.into(),
        auto: None,
        permit: Some((permit.0.into(), permit.1)),
        text: "Peço a renovação da minha permissão, cujos requisitos mantenho.".into(),
        files: Vec::new(),
    }
}

/// The articles of the law's refusal.
fn refused<T: std::fmt::Debug>(result: Result<T, StoreError>) -> Vec<String> {
    match result {
        Err(StoreError::Refused { articles, .. }) => articles,
        other => panic!("expected a refusal by the law, got {other:?}"),
    }
}

fn invalid<T: std::fmt::Debug>(result: Result<T, StoreError>) -> (&'static str, String) {
    match result {
        Err(StoreError::Invalid { field, reason }) => (field, reason),
        other => panic!("expected invalid input, got {other:?}"),
    }
}

/// A code of the right form that is not `code`.
fn other_code(code: &str, n: usize) -> String {
    let alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut wrong: String = code.to_string();
    let last = wrong.pop().expect("a code");
    let replacement = alphabet
        .chars()
        .filter(|c| *c != last)
        .nth(n)
        .expect("another letter");
    wrong.push(replacement);
    wrong
}

// --------------------------------------------------------- first access

async fn issue_code(store: &Store, document: &str, when: NaiveDateTime) -> AccessCode {
    store
        .issue_access_code(&clerk(when), CG, document)
        .await
        .expect("code")
}

async fn first(
    store: &Store,
    (document, code): (&str, &str),
    client: &str,
    when: NaiveDateTime,
) -> FirstAccess {
    store
        .first_access(document, code, PASSWORD, (ip(client), when))
        .await
        .expect("first access")
}

/// A code is valid 30 days, used once, replaced by a newer one.
async fn access_codes(store: &Store) {
    let t0 = at(d(2026, 7, 1), 9, 0, 0);
    let code = issue_code(store, ANA, t0).await;
    assert_eq!(CODE_DAYS, 30, "the department's practice: 30 days");
    assert_eq!(code.expires_at, t0 + Duration::days(30));
    assert_eq!(code.document, ANA);
    assert_eq!(code.name, "Pessoa");
    assert!(!store.has_citizen_account(ANA).await.expect("account"));

    // A wrong code is refused; the right one sets the password, once.
    let t = t0 + Duration::hours(1);
    let wrong = other_code(&code.code, 0);
    assert_eq!(
        first(store, (ANA, &wrong), "198.51.100.1", t).await,
        FirstAccess::Refused
    );
    assert!(!store.has_citizen_account(ANA).await.expect("account"));
    assert_eq!(
        first(store, (ANA, &code.code), "198.51.100.1", t).await,
        FirstAccess::Set
    );
    assert!(store.has_citizen_account(ANA).await.expect("account"));
    assert_eq!(
        first(
            store,
            (ANA, &code.code),
            "198.51.100.1",
            t + Duration::minutes(5)
        )
        .await,
        FirstAccess::Refused,
        "a code is used once"
    );

    // Another's code is not theirs: Beto's code does not serve Caio.
    let t1 = at(d(2026, 7, 2), 9, 0, 0);
    let betos = issue_code(store, BETO, t1).await;
    assert_eq!(
        first(store, (CAIO, &betos.code), "198.51.100.2", t1).await,
        FirstAccess::Refused
    );

    // A newer code replaces the older.
    let older = issue_code(store, CAIO, t1).await;
    let newer = issue_code(store, CAIO, t1 + Duration::minutes(10)).await;
    let t = t1 + Duration::minutes(20);
    assert_eq!(
        first(store, (CAIO, &older.code), "198.51.100.2", t).await,
        FirstAccess::Refused,
        "the older code ended when the newer was printed"
    );
    assert_eq!(
        first(store, (CAIO, &newer.code), "198.51.100.2", t).await,
        FirstAccess::Set
    );

    // Expiry: at `expires_at` and after it, refused; a second before, set.
    let t2 = at(d(2026, 7, 3), 9, 0, 0);
    let code = issue_code(store, DANI, t2).await;
    let ends = t2 + Duration::days(30);
    assert_eq!(code.expires_at, ends);
    assert_eq!(
        first(store, (DANI, &code.code), "198.51.100.3", ends).await,
        FirstAccess::Refused,
        "expired at its 30th day's moment"
    );
    assert_eq!(
        first(
            store,
            (DANI, &code.code),
            "198.51.100.3",
            ends + Duration::days(1)
        )
        .await,
        FirstAccess::Refused
    );
    assert_eq!(
        first(
            store,
            (DANI, &code.code),
            "198.51.100.4",
            ends - Duration::seconds(1)
        )
        .await,
        FirstAccess::Set
    );

    // Only a CPF registered in the jurisdiction gets a code.
    let company = store.issue_access_code(&clerk(t2), CG, CARRIER).await;
    let (field, _) = invalid(company);
    assert_eq!(field, "cpf");
    let nobody = store.issue_access_code(&clerk(t2), CG, EDU).await;
    assert!(matches!(nobody, Err(StoreError::NotFound(_))), "{nobody:?}");
    let malformed = store.issue_access_code(&clerk(t2), CG, "52601815907").await;
    assert!(malformed.is_err(), "{malformed:?}");
}

/// 5 failures of a name from one network within 60 s stop its next attempt
/// (`sign_ins.rs`: FAILURES_PER_NAME, WINDOW_SECONDS), even with the right
/// code; another network is not stopped; after the window it passes.
async fn guessing_limited(store: &Store) {
    assert_eq!(outorga_store::FAILURES_PER_NAME, 5);
    assert_eq!(outorga_store::WINDOW_SECONDS, 60);
    let t0 = at(d(2026, 7, 6), 10, 0, 0);
    // Ana sets another password with a new code.
    let code = issue_code(store, ANA, t0).await;
    let guesser = "203.0.113.7";
    let start = t0 + Duration::minutes(5);
    for n in 0..5 {
        let wrong = other_code(&code.code, n);
        let when = start + Duration::seconds(n as i64);
        assert_eq!(
            first(store, (ANA, &wrong), guesser, when).await,
            FirstAccess::Refused,
            "guess {n}"
        );
    }
    // The 6th, 5 s after the first failure: the oldest of the 5 leaves the
    // window 55 s later.
    assert_eq!(
        first(
            store,
            (ANA, &code.code),
            guesser,
            start + Duration::seconds(5)
        )
        .await,
        FirstAccess::TooMany { seconds: 55 }
    );
    // Another network is not kept out: its guess is checked (and wrong).
    assert_eq!(
        first(
            store,
            (ANA, &other_code(&code.code, 9)),
            "192.0.2.50",
            start + Duration::seconds(6)
        )
        .await,
        FirstAccess::Refused
    );
    // A second before the first failure leaves the window, still stopped.
    assert_eq!(
        first(
            store,
            (ANA, &code.code),
            guesser,
            start + Duration::seconds(59)
        )
        .await,
        FirstAccess::TooMany { seconds: 1 }
    );
    // 60 s after the first failure it is out of the window: the code works.
    assert_eq!(
        store
            .first_access(
                ANA,
                &code.code,
                OTHER_PASSWORD,
                (ip(guesser), start + Duration::seconds(60))
            )
            .await
            .expect("first access"),
        FirstAccess::Set
    );
    let signed = store
        .citizen_sign_in(
            ANA,
            OTHER_PASSWORD,
            (ip("192.0.2.51"), start + Duration::minutes(2)),
            start + Duration::hours(1),
        )
        .await
        .expect("sign in");
    assert!(signed.is_ok(), "the new password: {signed:?}");
}

/// Signing in with the password set; the session until its end, or until
/// signed out, or until a new password is set.
async fn sessions(store: &Store) {
    let t0 = at(d(2026, 7, 8), 9, 0, 0);
    let ends = t0 + Duration::hours(8);
    let client = (ip("198.51.100.20"), t0);
    let wrong = store
        .citizen_sign_in(BETO, OTHER_PASSWORD, client, ends)
        .await
        .expect("sign in");
    assert!(
        matches!(wrong, Err(SignIn::Refused)),
        "no account yet: {wrong:?}"
    );
    let code = issue_code(store, BETO, t0).await;
    assert_eq!(
        first(store, (BETO, &code.code), "198.51.100.20", t0).await,
        FirstAccess::Set
    );
    let wrong = store
        .citizen_sign_in(BETO, OTHER_PASSWORD, client, ends)
        .await
        .expect("sign in");
    assert!(matches!(wrong, Err(SignIn::Refused)), "{wrong:?}");
    let session = store
        .citizen_sign_in(BETO, PASSWORD, client, ends)
        .await
        .expect("sign in")
        .expect("the password set opens a session");
    assert_eq!(
        (session.document.as_str(), session.expires_at),
        (BETO, ends)
    );
    let who = |now| store.citizen(&session.token, now);
    assert_eq!(who(t0).await.expect("who"), Some(BETO.to_string()));
    assert_eq!(
        who(ends - Duration::seconds(1)).await.expect("who"),
        Some(BETO.to_string())
    );
    assert_eq!(who(ends).await.expect("who"), None, "ended at expires_at");
    assert_eq!(who(ends + Duration::days(1)).await.expect("who"), None);
    assert_eq!(
        store.citizen("otc_not_a_token", t0).await.expect("who"),
        None
    );

    // Signed out, the session ends before its time.
    store
        .close_citizen_session(&session.token, t0 + Duration::hours(1))
        .await
        .expect("sign out");
    assert_eq!(
        store
            .citizen(&session.token, t0 + Duration::hours(1))
            .await
            .expect("who"),
        None
    );

    // A new password set with a new code ends the sessions open.
    let t1 = t0 + Duration::hours(2);
    let open = store
        .citizen_sign_in(
            BETO,
            PASSWORD,
            (ip("198.51.100.20"), t1),
            t1 + Duration::hours(8),
        )
        .await
        .expect("sign in")
        .expect("session");
    assert!(store.citizen(&open.token, t1).await.expect("who").is_some());
    let code = issue_code(store, BETO, t1).await;
    let set = store
        .first_access(
            BETO,
            &code.code,
            OTHER_PASSWORD,
            (ip("198.51.100.20"), t1 + Duration::minutes(1)),
        )
        .await
        .expect("first access");
    assert_eq!(set, FirstAccess::Set);
    assert_eq!(
        store
            .citizen(&open.token, t1 + Duration::minutes(2))
            .await
            .expect("who"),
        None
    );
    let old = store
        .citizen_sign_in(
            BETO,
            PASSWORD,
            (ip("198.51.100.20"), t1 + Duration::minutes(3)),
            t1 + Duration::hours(8),
        )
        .await
        .expect("sign in");
    assert!(matches!(old, Err(SignIn::Refused)), "{old:?}");
}

async fn citizens_exercise(url: &str) {
    let store = crate::common::open(url).await;
    setup(&store).await;
    access_codes(&store).await;
    guessing_limited(&store).await;
    sessions(&store).await;
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

// ------------------------------------------------------------ petitions

/// Canguçu, Anexo I, art. 21: the defense within 15 days counted from the
/// first business day after the auto is received.
async fn defense_in_time(store: &Store) {
    let rb = rulebook_named("cangucu/taxi");
    let law = (&rb, CG);
    // A grave infraction (art. 19), issued on Wed 1 July 2026.
    let first = issue(store, law, ("A18-V", ANA, None), d(2026, 7, 1)).await;
    let second = issue(store, law, ("A18-V", ANA, None), d(2026, 7, 1)).await;
    // Received on Fri 3 July: the first business day after is Mon 6 July,
    // day 1 of 15; the 15th is Mon 20 July (Anexo I, art. 21).
    let mut last_day = None;
    for key in [first, second] {
        let notified = take(
            store,
            law,
            key,
            Step::Notify { cure_days: None },
            d(2026, 7, 3),
        )
        .await;
        assert_eq!(notified.status, Status::Notified);
        last_day = notified.defense_by;
    }
    assert_eq!(last_day, Some(d(2026, 7, 20)), "Anexo I, art. 21");
    // Half past midnight of the last day in Canguçu (03:30 UTC): still the
    // last day, in the jurisdiction's time.
    let last = at(d(2026, 7, 20), 0, 30, 0);
    let after = at(d(2026, 7, 21), 14, 0, 0);

    // Another person's auto is not theirs to defend.
    let foreign = store
        .file_petition(Some(&rb), CG, &defense(BETO, first, vec![]), last)
        .await;
    assert!(
        matches!(foreign, Err(StoreError::NotFound(_))),
        "{foreign:?}"
    );

    // Attachments refused, nothing recorded: an executable named as a PDF,
    // six files, 10 MB and one byte.
    let exe = Attachment {
        name: "defesa.pdf".into(),
        bytes: b"MZ\x90\0\x03\0\0\0".to_vec(),
    };
    let cases: [(&str, Vec<Attachment>); 4] = [
        ("not PDF/JPEG/PNG", vec![pdf(100), exe]),
        (
            "html",
            vec![Attachment {
                name: "foto.png".into(),
                bytes: b"<html>%PDF-".to_vec(),
            }],
        ),
        ("six files", (0..6).map(|_| pdf(100)).collect()),
        (
            "10 MB and one byte",
            vec![pdf(6 * 1024 * 1024), png(4 * 1024 * 1024 + 1)],
        ),
    ];
    for (case, files) in cases {
        let result = store
            .file_petition(Some(&rb), CG, &defense(ANA, first, files), last)
            .await;
        let (field, _) = invalid(result);
        assert_eq!(field, "anexos", "{case}");
        let auto = store.auto(CG, first).await.expect("auto");
        assert_eq!(auto.defense_on, None, "{case}: no defense recorded");
        assert_eq!(auto.status, Status::Notified, "{case}");
        assert!(
            store
                .petitions_of_auto(CG, first)
                .await
                .expect("petitions")
                .is_empty(),
            "{case}: no petition recorded"
        );
    }

    // On the last day, with five files of 10 MB in all, it is recorded.
    let ten_mb = 10 * 1024 * 1024;
    let files = vec![
        pdf(ten_mb - 4 * 1000),
        jpeg(1000),
        png(1000),
        pdf(1000),
        jpeg(1000),
    ];
    let filed = store
        .file_petition(Some(&rb), CG, &defense(ANA, first, files.clone()), last)
        .await
        .expect("the defense on its last day");
    assert_eq!(
        (filed.kind, filed.status, filed.auto),
        (PetitionKind::Defense, PetitionStatus::Received, Some(first))
    );
    assert_eq!(filed.document, ANA);
    let types: Vec<&str> = filed
        .files
        .iter()
        .map(|f| f.content_type.as_str())
        .collect();
    assert_eq!(
        types,
        [
            "application/pdf",
            "image/jpeg",
            "image/png",
            "application/pdf",
            "image/jpeg"
        ]
    );
    let total: i64 = filed.files.iter().map(|f| f.size).sum();
    assert_eq!(total, ten_mb as i64);
    let (name, kind, bytes) = store
        .petition_file(&filed.protocol, 2)
        .await
        .expect("file")
        .expect("the second file");
    assert_eq!((name.as_str(), kind.as_str()), ("foto.jpg", "image/jpeg"));
    assert_eq!(bytes, files[1].bytes);
    let auto = store.auto(CG, first).await.expect("auto");
    assert_eq!(auto.defense_on, Some(d(2026, 7, 20)));
    let listed = store.petitions_of_auto(CG, first).await.expect("petitions");
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].protocol, filed.protocol);
    assert_eq!(listed[0].files.len(), 5);
    let found = store
        .petition(&filed.protocol.to_lowercase())
        .await
        .expect("by protocol")
        .expect("found");
    assert_eq!(found.protocol, filed.protocol);

    // The day after the last, refused by art. 21, and nothing recorded.
    let late = store
        .file_petition(Some(&rb), CG, &defense(ANA, second, vec![pdf(100)]), after)
        .await;
    let articles = refused(late);
    assert!(
        articles.iter().any(|a| a == "Anexo I, Art. 21"),
        "{articles:?}"
    );
    let auto = store.auto(CG, second).await.expect("auto");
    assert_eq!(auto.defense_on, None);
    assert!(
        store
            .petitions_of_auto(CG, second)
            .await
            .expect("petitions")
            .is_empty()
    );

    // "Primeiro dia útil seguinte": received on Fri 4 September 2026, the
    // Monday after is Independence Day (Lei 662/1949), so day 1 is Tue 8
    // September and day 15 Tue 22 September (Anexo I, art. 21).
    let third = issue(store, law, ("A18-V", ANA, None), d(2026, 9, 1)).await;
    let fourth = issue(store, law, ("A18-V", ANA, None), d(2026, 9, 1)).await;
    for key in [third, fourth] {
        let notified = take(
            store,
            law,
            key,
            Step::Notify { cure_days: None },
            d(2026, 9, 4),
        )
        .await;
        assert_eq!(
            notified.defense_by,
            Some(d(2026, 9, 22)),
            "Anexo I, art. 21"
        );
    }
    store
        .file_petition(
            Some(&rb),
            CG,
            &defense(ANA, third, vec![]),
            at(d(2026, 9, 22), 17, 30, 0),
        )
        .await
        .expect("the defense on its 15th day");
    assert_eq!(
        store.auto(CG, third).await.expect("auto").defense_on,
        Some(d(2026, 9, 22))
    );
    let late = store
        .file_petition(
            Some(&rb),
            CG,
            &defense(ANA, fourth, vec![]),
            at(d(2026, 9, 23), 9, 0, 0),
        )
        .await;
    assert!(
        refused(late).iter().any(|a| a == "Anexo I, Art. 21"),
        "the 16th day is late"
    );
}

/// Canguçu forbids extending the 420 months (art. 37, parágrafo único);
/// Santa Maria de Jetibá renews them successively (art. 7º).
async fn renewals(store: &Store) {
    let cg = rulebook_named("cangucu/taxi");
    let smj = rulebook_named("santa-maria-de-jetiba/taxi");
    let taxi_cg = grant(store, (&cg, CG, "taxi"), ANA, d(2026, 7, 1)).await;
    let taxi_smj = grant(store, (&smj, SMJ, "taxi"), ANA, d(2026, 7, 1)).await;
    let when = at(d(2026, 8, 3), 14, 0, 0);

    let why = store
        .renewal_refused(&cg, CG, ("taxi", taxi_cg), when.date())
        .await
        .expect("asked");
    let why = why.expect("Canguçu's law forbids the renewal");
    assert!(why.contains("Art. 37, Parágrafo único"), "{why}");
    let before = store.petitions_of(ANA, 50).await.expect("petitions").len();
    let asked = store
        .file_petition(Some(&cg), CG, &renewal(ANA, ("taxi", taxi_cg)), when)
        .await;
    assert_eq!(refused(asked), ["Art. 37, Parágrafo único"]);
    assert_eq!(
        store.petitions_of(ANA, 50).await.expect("petitions").len(),
        before,
        "nothing queued"
    );

    // Only the holder asks.
    let foreign = store
        .file_petition(Some(&smj), SMJ, &renewal(BETO, ("taxi", taxi_smj)), when)
        .await;
    assert!(
        matches!(foreign, Err(StoreError::NotFound(_))),
        "{foreign:?}"
    );

    assert_eq!(
        store
            .renewal_refused(&smj, SMJ, ("taxi", taxi_smj), when.date())
            .await
            .expect("asked"),
        None,
        "art. 7º: renewed successively"
    );
    let filed = store
        .file_petition(Some(&smj), SMJ, &renewal(ANA, ("taxi", taxi_smj)), when)
        .await
        .expect("renewal asked");
    assert_eq!(
        (filed.kind, filed.status),
        (PetitionKind::Renewal, PetitionStatus::Received)
    );
    assert_eq!(filed.permit, Some(("taxi".to_string(), taxi_smj)));
    assert_eq!(filed.jurisdiction, SMJ);
    // Not another jurisdiction's to answer.
    let elsewhere = store
        .answer_petition(&on(d(2026, 8, 4)), CG, &filed.protocol, "deferido")
        .await;
    assert!(
        matches!(elsewhere, Err(StoreError::NotFound(_))),
        "{elsewhere:?}"
    );
    let answered = store
        .answer_petition(
            &on(d(2026, 8, 4)),
            SMJ,
            &filed.protocol,
            "Deferido: requisitos mantidos (art. 7º).",
        )
        .await
        .expect("answered");
    assert_eq!(answered.status, PetitionStatus::Handled);
    assert_eq!(answered.handled_by.as_deref(), Some("teste"));
    assert_eq!(
        answered.answer.as_deref(),
        Some("Deferido: requisitos mantidos (art. 7º).")
    );
    let again = store
        .answer_petition(&on(d(2026, 8, 5)), SMJ, &filed.protocol, "de novo")
        .await;
    let (field, reason) = invalid(again);
    assert_eq!(field, "situacao");
    assert!(reason.contains("já foi respondida"), "{reason}");
    let kept = store
        .petition(&filed.protocol)
        .await
        .expect("read")
        .expect("found");
    assert_eq!(kept.answer, answered.answer, "the first answer stays");
}

async fn petitions_exercise(url: &str) {
    let store = crate::common::open(url).await;
    setup(&store).await;
    defense_in_time(&store).await;
    renewals(&store).await;
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

// --------------------------------------------------------------- points

/// The limits by window, as (months, over, citation).
fn limits_of(standing: &outorga_store::PointsStanding) -> Vec<(u32, Decimal, &str)> {
    standing
        .limits
        .iter()
        .map(|l| (l.months, l.over, l.citation.as_str()))
        .collect()
}

async fn santa_maria_points(store: &Store) {
    let rb = rulebook_named("santa-maria-de-jetiba/taxi");
    let law = (&rb, SMJ);
    let number = grant(store, (&rb, SMJ, "taxi"), CAIO, d(2026, 7, 1)).await;
    let standing = store
        .points_standing(&rb, SMJ, CAIO, d(2026, 7, 2))
        .await
        .expect("standing");
    assert_eq!(
        limits_of(&standing),
        [
            // Art. 52, V, c: over 20 points in the last 12 months.
            (12, Decimal::from(20), "Art. 52, V, c"),
            // Art. 52, V, d: over 50 points in the last 36 months.
            (36, Decimal::from(50), "Art. 52, V, d"),
        ]
    );
    for limit in &standing.limits {
        // Art. 52, V: cassação do credenciamento; § 2º: five years barred.
        assert!(
            limit.sanctions.contains(&"cassação da permissão"),
            "{:?}",
            limit.sanctions
        );
        assert!(
            limit.sanctions.contains(&"impedimento de nova outorga"),
            "{:?}",
            limit.sanctions
        );
    }
    assert_eq!(standing.windows, [(12, Decimal::ZERO), (36, Decimal::ZERO)]);
    assert!(standing.due.is_empty(), "{:?}", standing.due);

    // A group 3 infraction (art. 51, III, h) weighs 4 points (art. 49, III),
    // on the record of the driver identified (art. 43).
    let key = issue(
        store,
        law,
        ("51-III-h", CAIO, Some(("taxi".into(), number))),
        d(2026, 7, 10),
    )
    .await;
    let notified = take(
        store,
        law,
        key,
        Step::Notify { cure_days: None },
        d(2026, 7, 13),
    )
    .await;
    let after = notified
        .defense_by
        .and_then(|d| d.succ_opt())
        .expect("a defense limit");
    take(store, law, key, Step::Finalize, after).await;
    let standing = store
        .points_standing(&rb, SMJ, CAIO, d(2026, 10, 1))
        .await
        .expect("standing");
    assert_eq!(
        standing.windows,
        [(12, Decimal::from(4)), (36, Decimal::from(4))],
        "art. 49, III"
    );
    assert!(standing.due.is_empty(), "4 points cross no limit");
    // Fourteen months later the 12 months of art. 52, V, c hold none; the 36
    // of art. 52, V, d still do.
    let standing = store
        .points_standing(&rb, SMJ, CAIO, d(2027, 9, 10))
        .await
        .expect("standing");
    assert_eq!(
        standing.windows,
        [(12, Decimal::ZERO), (36, Decimal::from(4))]
    );
}

async fn teofilo_otoni_points(store: &Store) {
    let rb = rulebook_named("teofilo-otoni/mototaxi");
    grant(store, (&rb, TO, "mototaxi"), CAIO, d(2026, 7, 1)).await;
    let holder = store
        .points_standing(&rb, TO, CAIO, d(2026, 7, 2))
        .await
        .expect("standing");
    // Art. 84, VI: the holder over 45 points; art. 89, § 2º: points valid 3
    // years (36 months).
    assert_eq!(limits_of(&holder), [(36, Decimal::from(45), "Art. 84, VI")]);
    assert!(
        holder.limits[0]
            .sanctions
            .contains(&"cassação da permissão"),
        "{:?}",
        holder.limits[0].sanctions
    );
    assert_eq!(holder.windows, [(36, Decimal::ZERO)]);
    // Art. 84, V: an auxiliary driver (no permit) over 30 points.
    let auxiliary = store
        .points_standing(&rb, TO, DANI, d(2026, 7, 2))
        .await
        .expect("standing");
    assert_eq!(
        limits_of(&auxiliary),
        [(36, Decimal::from(30), "Art. 84, V")]
    );
    assert!(
        auxiliary.limits[0]
            .sanctions
            .contains(&"cassação do registro do condutor"),
        "{:?}",
        auxiliary.limits[0].sanctions
    );
    // Someone not registered has no standing.
    let nobody = store.points_standing(&rb, TO, EDU, d(2026, 7, 2)).await;
    assert!(matches!(nobody, Err(StoreError::NotFound(_))), "{nobody:?}");
}

async fn points_exercise(url: &str) {
    let store = crate::common::open(url).await;
    setup(&store).await;
    santa_maria_points(&store).await;
    teofilo_otoni_points(&store).await;
}

// ---------------------------------------------------------------- tests

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_access_and_sessions_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    citizens_exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_access_and_sessions_on_postgresql() {
    let (schema, url) = pg_schema("citizens").await;
    citizens_exercise(&url).await;
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn petitions_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    petitions_exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn petitions_on_postgresql() {
    let (schema, url) = pg_schema("petitions").await;
    petitions_exercise(&url).await;
    drop_schema(&schema).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn points_standing_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    points_exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn points_standing_on_postgresql() {
    let (schema, url) = pg_schema("points").await;
    points_exercise(&url).await;
    drop_schema(&schema).await;
}
