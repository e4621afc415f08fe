//! Engine benchmarks (divan). Run with `cargo bench -p outorga-bench --bench engine`;
//! what is measured and the latest figures are in `docs/benchmarks.md`.
//!
//! The rulebook is the real one, `rulebooks/santa-maria-de-jetiba` (taxi), loaded
//! through `outorga-rulebook` (this crate exists so the engine crate stays pure).
//! Facts come from a fixed linear congruential generator, so every run decides
//! the same cases. Building the facts is setup and is not measured.

// Benchmarks are test code: a failure to set up should stop the run loudly.
#![allow(clippy::expect_used, clippy::unwrap_used)]

use chrono::{NaiveDate, NaiveDateTime, TimeDelta};
use divan::Bencher;
use divan::counter::ItemsCount;
use outorga_core::engine::{penalty::penalty, standing::standing};
use outorga_core::facts::{Event, Facts, Permit, PermitId, PermitStatus, Person, PersonId};
use outorga_core::model::{InfractionId, Rulebook, Service};
use outorga_core::{Context, Overrides};
use std::path::PathBuf;
use std::sync::LazyLock;

const RULEBOOK: &str = "santa-maria-de-jetiba/taxi";

/// The 22 infractions of art. 51 (groups 1 to 4).
const ART_51: [&str; 22] = [
    "51-I-a", "51-I-b", "51-I-c", "51-I-d", "51-I-e", "51-II-a", "51-II-b", "51-II-c", "51-III-a",
    "51-III-b", "51-III-c", "51-III-d", "51-III-e", "51-III-f", "51-III-g", "51-III-h", "51-IV-a",
    "51-IV-b", "51-IV-c", "51-IV-d", "51-IV-e", "51-IV-f",
];

/// Past infractions of the one auxiliary in the penalty benchmark.
const PENALTY_HISTORY: usize = 200;
/// How far back that history goes, in minutes (three years).
const PENALTY_SPAN_MINUTES: u64 = 3 * 365 * 24 * 60;

/// People in the standing benchmark: one holder and one auxiliary per permit.
const PEOPLE: u32 = 100_000;
const PERMITS: u32 = PEOPLE / 2;
/// Past infractions over all of them.
const EVENTS: usize = 1_000_000;
/// How far back they go, in minutes (four years).
const STANDING_SPAN_MINUTES: u64 = 4 * 365 * 24 * 60;

static LIBRARY: LazyLock<outorga_rulebook::Library> = LazyLock::new(|| {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks/santa-maria-de-jetiba");
    outorga_rulebook::load(&path).expect("the Santa Maria de Jetibá rulebook loads")
});

fn rulebook() -> &'static Rulebook {
    LIBRARY
        .get(RULEBOOK)
        .expect("santa-maria-de-jetiba/taxi is in the library")
}

static CONTEXT: LazyLock<Context<'static>> =
    LazyLock::new(|| Context::new(rulebook(), Overrides::default()));

fn art_51() -> Vec<InfractionId> {
    ART_51
        .iter()
        .map(|code| {
            rulebook()
                .infraction_by_code(code)
                .expect("every art. 51 code is in the rulebook")
        })
        .collect()
}

/// The day decisions are made on, and the time of the infraction decided.
fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2025, 6, 30).expect("a valid date")
}

fn now() -> NaiveDateTime {
    today().and_hms_opt(12, 0, 0).expect("a valid time")
}

/// A 64-bit linear congruential generator (Knuth's MMIX constants); the high
/// bits are returned, the low ones being weak.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    /// A number in `0..n` (the slight modulo bias does not matter here).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn holder_permit(holder: PersonId, auxiliary: PersonId) -> Permit {
    Permit {
        holder,
        service: Service::Taxi,
        granted: NaiveDate::from_ymd_opt(2020, 1, 15),
        status: PermitStatus::Active,
        drivers: vec![auxiliary],
        vehicle: None,
        line: None,
    }
}

/// A final infraction by `by` under `permit`, up to `span_minutes` before now.
fn past_event(
    rng: &mut Lcg,
    codes: &[InfractionId],
    by: PersonId,
    permit: PermitId,
    span_minutes: u64,
) -> Event {
    let code = codes[rng.below(codes.len() as u64) as usize];
    let ago = 1 + rng.below(span_minutes);
    Event {
        infraction: code,
        by,
        permit: Some(permit),
        at: now() - TimeDelta::minutes(i64::try_from(ago).expect("fits")),
        is_final: true,
        uncured: false,
    }
}

/// Person 0 holds permit 0; person 1 drives under it and has `priors` final
/// infractions of art. 51 over the last three years.
fn penalty_facts(priors: usize) -> Facts {
    let codes = art_51();
    let mut rng = Lcg(0x5eed_0051);
    let (holder, auxiliary, permit) = (PersonId(0), PersonId(1), PermitId(0));
    let history = (0..priors)
        .map(|_| past_event(&mut rng, &codes, auxiliary, permit, PENALTY_SPAN_MINUTES))
        .collect();
    Facts::new(
        &CONTEXT,
        vec![Person::default(), Person::default()],
        vec![holder_permit(holder, auxiliary)],
        Vec::new(),
        history,
    )
    .expect("the facts are read under the rulebook")
}

static PENALTY_FACTS: LazyLock<Facts> = LazyLock::new(|| penalty_facts(PENALTY_HISTORY));

/// A new infraction by the auxiliary under the holder's permit, now.
fn offence(code: &str) -> Event {
    Event {
        infraction: rulebook()
            .infraction_by_code(code)
            .expect("the code is in the rulebook"),
        by: PersonId(1),
        permit: Some(PermitId(0)),
        at: now(),
        is_final: false,
        uncured: false,
    }
}

/// Person `2k` holds permit `k` and person `2k + 1` drives under it; one million
/// final infractions of art. 51, each by a random person under their permit,
/// over the last four years (about 10 committed per person, 15 on a holder's
/// record counting those of their auxiliary).
static STANDING_FACTS: LazyLock<Facts> = LazyLock::new(|| {
    let codes = art_51();
    let mut rng = Lcg(0x5eed_0052);
    let people = vec![Person::default(); PEOPLE as usize];
    let permits = (0..PERMITS)
        .map(|k| holder_permit(PersonId(2 * k), PersonId(2 * k + 1)))
        .collect();
    let history = (0..EVENTS)
        .map(|_| {
            let by = u32::try_from(rng.below(u64::from(PEOPLE))).expect("fits");
            past_event(
                &mut rng,
                &codes,
                PersonId(by),
                PermitId(by / 2),
                STANDING_SPAN_MINUTES,
            )
        })
        .collect();
    Facts::new(&CONTEXT, people, permits, Vec::new(), history)
        .expect("the facts are read under the rulebook")
});

fn main() {
    divan::main();
}

/// One penalty decision for a new infraction by the auxiliary with a
/// 200-infraction history (group 1, group 3 with vehicle impediment, and a
/// group 4 code counted by its own list of codes). Items/s = decisions/s.
#[divan::bench(args = ["51-I-a", "51-III-a", "51-IV-c"], sample_count = 200, sample_size = 200)]
fn penalty_with_200_priors(bencher: Bencher, code: &str) {
    let ctx = &*CONTEXT;
    let facts = &*PENALTY_FACTS;
    let offence = offence(code);
    bencher.counter(ItemsCount::new(1u32)).bench(|| {
        penalty(divan::black_box(ctx), facts, divan::black_box(&offence))
            .expect("the penalty is decided")
    });
}

/// The same decision (51-III-a) against histories of other lengths, to tell the
/// fixed cost of a decision from the cost of each prior.
#[divan::bench(args = [0, 50, 800], sample_count = 200, sample_size = 100)]
fn penalty_by_history_length(bencher: Bencher, priors: usize) {
    let ctx = &*CONTEXT;
    let facts = penalty_facts(priors);
    let offence = offence("51-III-a");
    bencher.counter(ItemsCount::new(1u32)).bench(|| {
        penalty(divan::black_box(ctx), &facts, divan::black_box(&offence))
            .expect("the penalty is decided")
    });
}

/// The standing of all 100 000 people (1 000 000 infractions in all) on one day,
/// in one iteration. Items/s = people/s.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn standing_of_100k_people(bencher: Bencher) {
    let ctx = &*CONTEXT;
    let facts = &*STANDING_FACTS;
    let today = today();
    bencher.counter(ItemsCount::new(PEOPLE)).bench(|| {
        for person in 0..PEOPLE {
            let standing = standing(ctx, facts, PersonId(person), divan::black_box(today))
                .expect("the standing is computed");
            divan::black_box(standing);
        }
    });
}
