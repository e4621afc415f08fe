//! Public calls for new permits weighed by the engine with the rulebooks as
//! written: Santa Maria de Jetibá's chamamento público (art. 2º, §§ 2º,
//! 4º–6º; 6º; 11; 18), Canguçu's licitação with its accessible share (art.
//! 3º, § 1º; 14; 37), Teófilo Otoni's licitação (art. 1º; 9º; 19) and
//! Amapá's, judged by proposals (art. 11), which the engine does not rank.

use chrono::NaiveDate;
use outorga_core::EngineError;
use outorga_core::context::{Context, Overrides};
use outorga_core::engine::cap::{self, Counted};
use outorga_core::engine::public_call::{
    self, Application, Claim, Criterion, Document, Edital, Place, Screening,
};
use outorga_core::engine::{deadline, draw};
use outorga_core::facts::{Facts, License, Permit, PermitStatus, Person, PersonId, PersonKind};
use outorga_core::model::{DeadlineKind, Education, Rulebook, Service};
use rust_decimal::Decimal;
use std::path::PathBuf;
use std::str::FromStr;

fn rulebook(id: &str) -> Rulebook {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let library = outorga_rulebook::load(&dir).expect("the rulebooks load");
    library
        .rulebooks()
        .find(|r| r.id == id)
        .expect("the rulebook")
        .clone()
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::from_str(text).expect("a day")
}

fn dec(text: &str) -> Decimal {
    Decimal::from_str(text).expect("a number")
}

fn with_population(rulebook: &Rulebook, population: u32) -> Context<'_> {
    let mut overrides = Overrides::default();
    overrides.set("population", Decimal::from(population));
    Context::new(rulebook, overrides)
}

/// A person who meets every requirement both taxi laws ask of a holder.
fn qualified() -> Person {
    Person {
        kind: PersonKind::Person,
        birth_date: Some(day("1980-05-10")),
        resident_since: Some(day("2010-01-01")),
        education: Some(Education::Medio),
        public_employee: Some(false),
        transport_operator: Some(false),
        documents: Some(
            [
                "curso_taxista",
                "certificacao_profissional",
                "inss",
                "bons_antecedentes",
                "alvara",
                "quitacao_eleitoral",
            ]
            .map(String::from)
            .to_vec(),
        ),
        convictions: Some(Vec::new()),
        license: Some(License {
            categories: Some(vec!["B".into()]),
            paid_activity: Some(true),
            first_issued: Some(day("2005-01-01")),
            expires: Some(day("2030-01-01")),
            suspended_until: Some(None),
        }),
        past_permits: Some(Vec::new()),
        overdue_debts: Some(false),
        ..Person::default()
    }
}

/// The edital of Santa Maria de Jetibá's call 01/2026: a point per year of
/// driving (at most 10), half a point per course (at most 2).
fn edital_smj() -> Edital<'static> {
    Edital {
        criteria: vec![
            Criterion {
                key: "anos_habilitacao",
                description: "Anos de habilitação",
                points_per_unit: dec("1"),
                max: Some(dec("10")),
                citation: "Edital 01/2026, item 5.2.1",
            },
            Criterion {
                key: "cursos",
                description: "Cursos de aperfeiçoamento",
                points_per_unit: dec("0.5"),
                max: Some(dec("2")),
                citation: "Edital 01/2026, item 5.2.2",
            },
        ],
        tie_breaks: Vec::new(),
        documents: vec![Document {
            name: "declaracao_disponibilidade",
            citation: "Edital 01/2026, item 4.1, c",
        }],
    }
}

const DISABLED: &str = "disabled_drivers";

/// Santa Maria de Jetibá's 25 applicants: r01–r21, d1–d3 with a disability
/// (d2 without an adapted vehicle, § 5º, II; d3 resident for 3 years only,
/// art. 11, I, f) and h, who already holds a credential (art. 2º, § 2º).
/// Years of driving and courses make the scores: r01 12, r02 11.5, r03 and
/// d2 11, r04 10 … r16 4, r17 r18 r19 3, r20 and d1 2, r21 0.
struct Smj {
    facts: Facts,
    applications: Vec<Application<'static>>,
}

const REGULAR: [(&str, u32, u32); 21] = [
    ("r01", 10, 4),
    ("r02", 10, 3),
    ("r03", 10, 2),
    ("r04", 9, 2),
    ("r05", 9, 1),
    ("r06", 9, 0),
    ("r07", 8, 1),
    ("r08", 8, 0),
    ("r09", 7, 1),
    ("r10", 7, 0),
    ("r11", 6, 1),
    ("r12", 6, 0),
    ("r13", 5, 1),
    ("r14", 5, 0),
    ("r15", 4, 1),
    ("r16", 4, 0),
    ("r17", 3, 0),
    ("r18", 2, 2),
    ("r19", 1, 4),
    ("r20", 2, 0),
    ("r21", 0, 0),
];

fn application(
    name: &'static str,
    person: u32,
    years: u32,
    courses: u32,
    claim: Option<Vec<&'static str>>,
) -> Application<'static> {
    Application {
        name,
        person: PersonId(person),
        quantities: vec![
            ("anos_habilitacao", Decimal::from(years)),
            ("cursos", Decimal::from(courses)),
        ],
        documents: vec!["declaracao_disponibilidade"],
        claim: claim.map(|proved| Claim {
            share: DISABLED,
            proved,
        }),
    }
}

fn smj(ctx: &Context<'_>) -> Smj {
    let mut people: Vec<Person> = (0..25).map(|_| qualified()).collect();
    // d3 (person 23) moved to the municipality three years ago.
    people[23].resident_since = Some(day("2023-01-01"));
    // h (person 24) holds a credential already.
    let permits = vec![Permit {
        holder: PersonId(24),
        service: Service::Taxi,
        granted: Some(day("2025-01-10")),
        status: PermitStatus::Active,
        drivers: Vec::new(),
        vehicle: None,
        line: None,
    }];
    let facts = Facts::new(ctx, people, permits, Vec::new(), Vec::new()).expect("facts");
    let all = vec!["disability", "own_vehicle", "adapted_vehicle"];
    let mut applications: Vec<Application<'static>> = REGULAR
        .iter()
        .zip(0..)
        .map(|((name, years, courses), i)| application(name, i, *years, *courses, None))
        .collect();
    applications.push(application("d1", 21, 2, 0, Some(all.clone())));
    applications.push(application(
        "d2",
        22,
        12,
        2,
        Some(vec!["disability", "own_vehicle"]),
    ));
    applications.push(application("d3", 23, 10, 4, Some(all)));
    applications.push(application("h", 24, 10, 4, None));
    Smj {
        facts,
        applications,
    }
}

const ON: &str = "2026-03-02";
const SEED: &str = "DOE SMJ 2026-03-02 sorteio chamamento 01/2026";

fn screened<'a>(ctx: &Context<'a>, case: &Smj, edital: &Edital<'a>) -> Screening<'a> {
    public_call::screen(
        ctx,
        &case.facts,
        Service::Taxi,
        edital,
        &case.applications,
        day(ON),
    )
    .expect("screened")
}

fn names(list: &[public_call::Ranked<'_>]) -> Vec<String> {
    list.iter().map(|r| r.name.to_string()).collect()
}

#[test]
fn smj_screens_the_applicants_against_the_law_and_the_edital() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let case = smj(&ctx);
    let edital = edital_smj();
    let screening = screened(&ctx, &case, &edital);
    assert_eq!(screening.applicants.len(), 25);
    let ineligible: Vec<(&str, Vec<&str>)> = screening
        .applicants
        .iter()
        .filter(|a| !a.eligible)
        .map(|a| (a.name, a.unmet.iter().map(|f| f.requirement).collect()))
        .collect();
    assert_eq!(
        ineligible,
        vec![("d3", vec!["residence_5_years"]), ("h", vec!["one_permit"])]
    );
    let h = &screening.applicants[24];
    assert_eq!(
        h.unmet[0].citations,
        vec!["Art. 18, § 3º", "Art. 2º, § 2º"],
        "one credential per person"
    );
    // The points: 12 years of driving count 10; 2 courses, 1.
    let d2 = &screening.applicants[22];
    assert_eq!(d2.score, dec("11"));
    assert_eq!(d2.points[0].points, dec("10"));
    assert_eq!(d2.points[1].points, dec("1"));
    // d2 has no adapted vehicle: not admitted to the reserved places.
    let claim = d2.claim.as_ref().expect("d2 claims the share");
    assert!(!claim.admitted);
    assert_eq!(claim.missing.len(), 1);
    assert_eq!(claim.missing[0].requirement, "adapted_vehicle");
    assert_eq!(claim.missing[0].citations, vec!["Art. 2º, § 5º, II"]);
    assert!(
        screening.applicants[21]
            .claim
            .as_ref()
            .is_some_and(|c| c.admitted)
    );
}

#[test]
fn an_applicant_who_does_not_show_a_requirement_or_a_document_is_excluded() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let mut people = vec![qualified(), qualified()];
    people[1].convictions = None;
    let facts = Facts::new(&ctx, people, Vec::new(), Vec::new(), Vec::new()).expect("facts");
    let edital = edital_smj();
    let mut without_document = application("a", 0, 3, 0, None);
    without_document.documents.clear();
    let applications = vec![without_document, application("b", 1, 3, 0, None)];
    let screening =
        public_call::screen(&ctx, &facts, Service::Taxi, &edital, &applications, day(ON))
            .expect("screened");
    let a = &screening.applicants[0];
    assert!(!a.eligible);
    assert!(a.unmet.is_empty());
    assert_eq!(a.not_shown[0].requirement, "declaracao_disponibilidade");
    assert_eq!(
        a.not_shown[0].citations,
        vec!["Edital 01/2026, item 4.1, c"]
    );
    let b = &screening.applicants[1];
    assert!(!b.eligible);
    assert_eq!(b.not_shown[0].requirement, "no_criminal_conviction");
    assert_eq!(b.not_shown[0].citations, vec!["Art. 11, I, e", "Art. 11"]);
}

#[test]
fn smj_ties_go_to_one_public_draw_and_a_tie_without_it_is_refused() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let case = smj(&ctx);
    let edital = edital_smj();
    let screening = screened(&ctx, &case, &edital);
    let ties = public_call::ties(&ctx, &screening).expect("ties");
    assert_eq!(
        ties.groups,
        vec![
            vec!["r03", "d2"],
            vec!["r17", "r18", "r19"],
            vec!["r20", "d1"]
        ]
    );
    assert_eq!(
        ties.participants,
        vec!["r03", "d2", "r17", "r18", "r19", "r20", "d1"]
    );
    assert_eq!(ties.citations, vec!["Art. 6º, § 2º"]);
    // printf '%s\n' r03 d2 r17 r18 r19 r20 d1 | sha256sum
    assert_eq!(
        draw::list_hash(&ties.participants),
        "202cb204669d5800f0b0fff626c406bdf3ea732f52b8781dc01133473f795d3d"
    );

    let refused = public_call::rank(&ctx, &screening, &[]).expect_err("a tie needs the draw");
    let EngineError::InvalidQuestion(message) = refused else {
        panic!("a refusal of the question: {refused:?}");
    };
    assert!(
        message.contains("precisa do sorteio público (Art. 6º, § 2º)"),
        "{message}"
    );
    assert!(message.contains("r03, d2"), "{message}");

    // A draw that leaves one of the tied out, or brings someone untied in.
    let partial = ["r20", "r17", "d2", "r03", "r18", "d1"];
    assert!(public_call::rank(&ctx, &screening, &partial).is_err());
    let extra = ["r20", "r17", "d2", "r03", "r18", "d1", "r19", "r01"];
    assert!(public_call::rank(&ctx, &screening, &extra).is_err());
}

/// The draw's order, each ticket recomputed with
/// printf '%s\n%s' "$SEED" "$NAME" | sha256sum:
/// r20 247cdfbe…, r17 3cd1d7d5…, d2 7217461a…, r03 8f6c8ef0…,
/// r18 a2599a33…, d1 ae050ea0…, r19 ccc4c964….
const DRAWN: [&str; 7] = ["r20", "r17", "d2", "r03", "r18", "d1", "r19"];

#[test]
fn smj_ranks_by_points_then_by_the_draw() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let case = smj(&ctx);
    let edital = edital_smj();
    let screening = screened(&ctx, &case, &edital);
    let ties = public_call::ties(&ctx, &screening).expect("ties");
    let drawn = draw::order(SEED, &ties.participants).expect("drawn");
    let order: Vec<&str> = drawn.iter().map(|(name, _)| *name).collect();
    assert_eq!(order, DRAWN);
    assert!(drawn[0].1.starts_with("247cdfbe"));

    let ranking = public_call::rank(&ctx, &screening, &order).expect("ranked");
    assert_eq!(ranking.order.len(), 23);
    assert_eq!(
        names(&ranking.order),
        [
            "r01", "r02", "d2", "r03", "r04", "r05", "r06", "r07", "r08", "r09", "r10", "r11",
            "r12", "r13", "r14", "r15", "r16", "r17", "r18", "r19", "r20", "d1", "r21"
        ]
    );
    assert_eq!(ranking.order[2].drawn, Some(3), "d2 third drawn");
    assert_eq!(ranking.order[0].drawn, None);
    assert_eq!(ranking.order[21].score, dec("2"));
    assert!(ranking.citations.contains(&"Art. 6º, § 2º"));
}

#[test]
fn smj_gives_the_reserved_places_first_and_releases_the_unfilled_one() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let case = smj(&ctx);
    // 16 000 / 800 = 20 credentials; 10 % of them, 2, reserved (art. 2º,
    // § 4º; 18, § 1º). h's credential fills one open place: 19 are free.
    let counted = [Counted {
        service: Service::Taxi,
        quota: None,
    }];
    let occupancy = cap::occupancy(&ctx, Service::Taxi, &counted, &[], day(ON)).expect("occupancy");
    let too_many = public_call::call_places(&occupancy, 20).expect_err("only 19 free");
    assert!(too_many.to_string().contains("tem 19 livres"), "{too_many}");
    let places = public_call::call_places(&occupancy, 19).expect("places");
    assert_eq!(places.reserved, vec![(DISABLED, 2)]);
    assert_eq!(places.open, 17);

    let edital = edital_smj();
    let screening = screened(&ctx, &case, &edital);
    let ranking = public_call::rank(&ctx, &screening, &DRAWN).expect("ranked");
    let result =
        public_call::allocate(&ctx, &screening, &ranking, &places, day(ON)).expect("allocated");

    // Only d1 is eligible and admitted to the share: one reserved place.
    assert_eq!(result.grants[0].name, "d1");
    assert_eq!(result.grants[0].position, 22);
    assert_eq!(result.grants[0].place, Place::Reserved(DISABLED));
    assert_eq!(result.grants[0].service, Service::Taxi);
    assert!(result.grants[0].citations.contains(&"Art. 2º, § 4º"));
    // The other goes to the other applicants (§ 6º).
    assert_eq!(result.released.len(), 1);
    assert_eq!(result.released[0].share, DISABLED);
    assert_eq!(result.released[0].places, 1);
    assert_eq!(result.released[0].citation, "Art. 2º, § 6º");
    assert!(result.vacant.is_empty());

    // 17 open places to the first 17 not placed, d2 among them (a claimant
    // not admitted competes in the open places); the released one to r17,
    // first drawn of the tie at 3 points.
    let open: Vec<&str> = result.grants[1..18].iter().map(|g| g.name).collect();
    assert_eq!(
        open,
        [
            "r01", "r02", "d2", "r03", "r04", "r05", "r06", "r07", "r08", "r09", "r10", "r11",
            "r12", "r13", "r14", "r15", "r16"
        ]
    );
    assert!(result.grants[1..18].iter().all(|g| g.place == Place::Open));
    assert_eq!(result.grants.len(), 19);
    assert_eq!(result.grants[18].name, "r17");
    assert_eq!(result.grants[18].place, Place::Released(DISABLED));
    assert_eq!(result.grants[18].citations[0], "Art. 2º, § 6º");
    assert_eq!(result.open_vacant, 0);

    assert_eq!(names(&result.waiting), ["r18", "r19", "r20", "r21"]);
    assert_eq!(result.waiting[0].position, 19);
    let ineligible: Vec<&str> = result.ineligible.iter().map(|a| a.name).collect();
    assert_eq!(ineligible, ["d3", "h"]);
    // Three business days from Monday 2 March 2026 (decree default: the
    // edital's, art. 8º).
    assert_eq!(result.appeal.due, day("2026-03-05"));
    assert_eq!(result.appeal.citations, vec!["Art. 8º"]);
}

#[test]
fn the_editals_tie_break_criteria_come_before_the_draw() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let case = smj(&ctx);
    let mut edital = edital_smj();
    edital.tie_breaks = vec!["anos_habilitacao"];
    let screening = screened(&ctx, &case, &edital);
    let ties = public_call::ties(&ctx, &screening).expect("ties");
    // r03 and d2 both count 10 years; r17, r18, r19 differ in years; so do
    // r20 and d1 not (2 years each).
    assert_eq!(ties.groups, vec![vec!["r03", "d2"], vec!["r20", "d1"]]);
    let ranking = public_call::rank(&ctx, &screening, &["r20", "d2", "r03", "d1"]).expect("ranked");
    let tail: Vec<&str> = ranking.order[17..20].iter().map(|r| r.name).collect();
    assert_eq!(tail, ["r17", "r18", "r19"]);
    assert_eq!(ranking.order[17].drawn, None);
}

#[test]
fn with_no_criteria_everyone_eligible_is_tied_and_drawn() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let case = smj(&ctx);
    let edital = Edital::default();
    let applications: Vec<Application<'static>> = case
        .applications
        .iter()
        .map(|a| Application {
            quantities: Vec::new(),
            documents: Vec::new(),
            ..a.clone()
        })
        .collect();
    let screening = public_call::screen(
        &ctx,
        &case.facts,
        Service::Taxi,
        &edital,
        &applications,
        day(ON),
    )
    .expect("screened");
    let ties = public_call::ties(&ctx, &screening).expect("ties");
    assert_eq!(ties.groups.len(), 1);
    assert_eq!(ties.participants.len(), 23);
    let drawn = draw::order(SEED, &ties.participants).expect("drawn");
    let order: Vec<&str> = drawn.iter().map(|(n, _)| *n).collect();
    let ranking = public_call::rank(&ctx, &screening, &order).expect("ranked");
    let ranked: Vec<&str> = ranking.order.iter().map(|r| r.name).collect();
    assert_eq!(ranked, order, "the ranking is the draw");
}

#[test]
fn a_person_applies_once() {
    let law = rulebook("santa-maria-de-jetiba/taxi");
    let ctx = with_population(&law, 16_000);
    let case = smj(&ctx);
    let edital = edital_smj();
    let mut applications = case.applications.clone();
    applications[1].person = PersonId(0);
    let refused = public_call::screen(
        &ctx,
        &case.facts,
        Service::Taxi,
        &edital,
        &applications,
        day(ON),
    )
    .expect_err("one application each");
    assert_eq!(
        refused.to_string(),
        "`r01` e `r02` são a mesma pessoa: cada interessado se inscreve uma vez (Art. 18, § 3º)"
    );
}

#[test]
fn cangucu_keeps_the_accessible_place_vacant_when_no_one_qualifies_for_it() {
    let law = rulebook("cangucu/taxi");
    // 10 000 / 1 000 = 10 taxis; 3 % of them, 0.3, rounded up: 1 adapted.
    let ctx = with_population(&law, 10_000);
    let occupancy =
        cap::occupancy(&ctx, Service::Taxi, &[], &[], day("2026-11-18")).expect("occupancy");
    let places = public_call::call_places(&occupancy, 10).expect("places");
    assert_eq!(places.reserved, vec![("accessible_vehicles", 1)]);
    assert_eq!(places.open, 9);

    let facts = Facts::new(
        &ctx,
        vec![qualified(), qualified(), qualified()],
        Vec::new(),
        Vec::new(),
        Vec::new(),
    )
    .expect("facts");
    let edital = Edital {
        criteria: vec![Criterion {
            key: "anos_habilitacao",
            description: "Anos de habilitação",
            points_per_unit: dec("1"),
            max: None,
            citation: "Edital de Concorrência 3/2026, item 8.1",
        }],
        ..Edital::default()
    };
    let applicant = |name, person, years, proved: Option<Vec<&'static str>>| Application {
        name,
        person: PersonId(person),
        quantities: vec![("anos_habilitacao", Decimal::from(years))],
        documents: Vec::new(),
        claim: proved.map(|proved| Claim {
            share: "accessible_vehicles",
            proved,
        }),
    };
    // The adaptation is not in the CRLV (art. 14, § 5º).
    let applications = vec![
        applicant("ana", 0, 8, Some(vec!["adapted_vehicle"])),
        applicant("beto", 1, 5, None),
        applicant("caio", 2, 3, None),
    ];
    let on = day("2026-11-18");
    let screening = public_call::screen(&ctx, &facts, Service::Taxi, &edital, &applications, on)
        .expect("screened");
    let ana = screening.applicants[0].claim.as_ref().expect("a claim");
    assert_eq!(ana.missing[0].citations, vec!["Art. 14, § 5º"]);
    let ranking = public_call::rank(&ctx, &screening, &[]).expect("no tie");
    let result = public_call::allocate(&ctx, &screening, &ranking, &places, on).expect("result");
    let open: Vec<(&str, Place<'_>, Service)> = result
        .grants
        .iter()
        .map(|g| (g.name, g.place, g.service))
        .collect();
    assert_eq!(
        open,
        [
            ("ana", Place::Open, Service::Taxi),
            ("beto", Place::Open, Service::Taxi),
            ("caio", Place::Open, Service::Taxi),
        ]
    );
    assert!(result.released.is_empty());
    assert_eq!(result.vacant.len(), 1);
    assert_eq!(result.vacant[0].places, 1);
    assert_eq!(result.vacant[0].citation, "Art. 3º, § 1º");
    assert_eq!(result.open_vacant, 6);
    // Thursday 19, Monday 23 (Friday 20 is Consciência Negra), Tuesday 24.
    assert_eq!(result.appeal.due, day("2026-11-24"));
    assert_eq!(result.appeal.citations, vec!["Art. 37, II"]);
}

#[test]
fn cangucus_accessible_share_is_an_accessible_taxi() {
    let law = rulebook("cangucu/taxi");
    // 34 000 / 1 000 = 34; 3 % is 1.02, rounded up: 2.
    let ctx = with_population(&law, 34_000);
    let on = day("2026-11-18");
    let occupancy = cap::occupancy(&ctx, Service::Taxi, &[], &[], on).expect("occupancy");
    let places = public_call::call_places(&occupancy, 34).expect("places");
    assert_eq!(places.reserved, vec![("accessible_vehicles", 2)]);
    assert_eq!(places.open, 32);
    // A call of 1 place: the unfilled share comes first.
    let one = public_call::call_places(&occupancy, 1).expect("places");
    assert_eq!(one.reserved, vec![("accessible_vehicles", 1)]);
    assert_eq!(one.open, 0);

    let facts =
        Facts::new(&ctx, vec![qualified()], Vec::new(), Vec::new(), Vec::new()).expect("facts");
    let applications = vec![Application {
        name: "ana",
        person: PersonId(0),
        quantities: Vec::new(),
        documents: Vec::new(),
        claim: Some(Claim {
            share: "accessible_vehicles",
            proved: vec!["adapted_vehicle", "adaptation_recorded"],
        }),
    }];
    let edital = Edital::default();
    let screening = public_call::screen(&ctx, &facts, Service::Taxi, &edital, &applications, on)
        .expect("screened");
    let ranking = public_call::rank(&ctx, &screening, &[]).expect("one alone is no tie");
    let result = public_call::allocate(&ctx, &screening, &ranking, &one, on).expect("result");
    assert_eq!(
        result.grants[0].place,
        Place::Reserved("accessible_vehicles")
    );
    assert_eq!(result.grants[0].service, Service::TaxiAcessivel);
}

#[test]
fn teofilo_otonis_licitacao_has_no_reserved_share_and_three_business_days_to_appeal() {
    let law = rulebook("teofilo-otoni/mototaxi");
    let call = law.public_call.as_ref().expect("a call");
    assert_eq!(call.procedure.name(), "licitacao");
    assert_eq!(call.citation, "Art. 1º");
    let ctx = Context::new(&law, Overrides::default());
    let facts =
        Facts::new(&ctx, vec![qualified()], Vec::new(), Vec::new(), Vec::new()).expect("facts");
    let applications = vec![Application {
        name: "ana",
        person: PersonId(0),
        quantities: Vec::new(),
        documents: Vec::new(),
        claim: Some(Claim {
            share: "disabled_drivers",
            proved: Vec::new(),
        }),
    }];
    let refused = public_call::screen(
        &ctx,
        &facts,
        Service::Mototaxi,
        &Edital::default(),
        &applications,
        day("2026-03-02"),
    )
    .expect_err("no reserved share in Teófilo Otoni");
    assert!(
        refused.to_string().contains("não é reserva de vagas"),
        "{refused}"
    );
    // Lei 14.133/2021, art. 165, I: from Monday 2 March, Thursday 5.
    let appeal = deadline::deadline(&ctx, DeadlineKind::CallAppeal, day("2026-03-02"))
        .expect("the law's limit");
    assert_eq!(appeal.due, day("2026-03-05"));
    assert_eq!(appeal.citations, vec!["Art. 19"]);
}

#[test]
fn amapas_licitacao_is_judged_by_proposals_the_engine_does_not_rank() {
    let law = rulebook("amapa/onibus-intermunicipal");
    let ctx = Context::new(&law, Overrides::default());
    let facts = Facts::new(&ctx, Vec::new(), Vec::new(), Vec::new(), Vec::new()).expect("facts");
    let refused = public_call::screen(
        &ctx,
        &facts,
        Service::Onibus,
        &Edital::default(),
        &[],
        day("2026-03-02"),
    )
    .expect_err("a bid is not ranked");
    assert_eq!(
        refused.to_string(),
        "a licitação deste regulamento é julgada por propostas (Art. 11): o motor não classifica propostas, a classificação é a da comissão de licitação"
    );
}
