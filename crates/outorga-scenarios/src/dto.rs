//! The scenario file as written. Unknown keys are errors, so typos fail loudly.

use crate::scalar::{Date, DateTime, Dec, Nullable, Whole};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Overrides of rulebook parameters. Keys other than the named ones are checked
/// against the rulebook's parameters when the case runs.
#[derive(Debug, Default, Deserialize)]
pub struct Parameters {
    pub population: Option<Dec>,
    #[serde(default)]
    pub units: BTreeMap<String, Dec>,
    #[serde(default)]
    pub holidays: Vec<Date>,
    #[serde(default)]
    pub tariff: BTreeMap<String, Dec>,
    /// Any other parameter the rulebook names (checked when the case runs, so
    /// an unknown name is reported as such, whatever its value).
    #[serde(flatten)]
    pub other: BTreeMap<String, Loose>,
}

/// A value read as written, judged later: text, or something else (a list, a
/// mapping) that is not a number.
#[derive(Debug)]
pub enum Loose {
    Text(String),
    NotScalar,
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct LooseVisitor;
        impl<'de> serde::de::Visitor<'de> for LooseVisitor {
            type Value = Loose;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a value")
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Loose, E> {
                Ok(Loose::Text(v.to_string()))
            }

            fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<Loose, E> {
                Ok(Loose::Text(v.to_string()))
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Loose, A::Error> {
                while map
                    .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
                    .is_some()
                {}
                Ok(Loose::NotScalar)
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<Loose, A::Error> {
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Loose::NotScalar)
            }
        }
        deserializer.deserialize_any(LooseVisitor)
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Facts {
    #[serde(default)]
    pub people: Vec<Person>,
    #[serde(default)]
    pub permits: Vec<Permit>,
    #[serde(default)]
    pub vehicles: Vec<Vehicle>,
    #[serde(default)]
    pub history: Vec<HistoryEntry>,
    /// Extension: taxi stands (Canguçu art. 15–16).
    #[serde(default)]
    pub stands: Vec<Stand>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Stand {
    pub id: String,
    #[serde(default)]
    pub capacity: Option<Whole>,
    #[serde(default)]
    pub free: bool,
    /// A provisional stand created for an event (free: no places).
    #[serde(default)]
    pub event: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Person {
    pub id: String,
    pub kind: Option<String>,
    pub birth_date: Option<Nullable<Date>>,
    pub disabled: Option<bool>,
    pub resident_since: Option<Nullable<Date>>,
    pub education: Option<String>,
    pub public_employee: Option<bool>,
    pub transport_operator: Option<bool>,
    pub documents: Option<Vec<String>>,
    /// Extensions (Amapá art. 9º): a company's voting capital, directors and
    /// group; a person's spouse and relatives up to the third degree.
    pub shareholders: Option<Vec<Shareholder>>,
    pub directors: Option<Vec<String>>,
    pub business_group: Option<String>,
    pub relatives: Option<Vec<String>>,
    pub convictions: Option<Vec<Conviction>>,
    pub license: Option<License>,
    pub past_permits: Option<Vec<PastPermit>>,
    /// Extension (docs/scenarios.md): overdue debts to the department.
    pub overdue_debts: Option<bool>,
    /// Extension: a radio-dispatch company or cooperative.
    pub radio_dispatch: Option<bool>,
    /// Extensions: on sick leave; days of vacation in the current 365 days.
    pub sick_leave: Option<bool>,
    pub vacation_days: Option<Whole>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Conviction {
    pub date: Option<Nullable<Date>>,
    #[serde(rename = "final")]
    pub is_final: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shareholder {
    pub who: String,
    pub percent: Dec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct License {
    pub categories: Option<Vec<String>>,
    pub paid_activity: Option<bool>,
    pub first_issued: Option<Nullable<Date>>,
    pub expires: Option<Nullable<Date>>,
    pub suspended_until: Option<Nullable<Date>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PastPermit {
    pub ended: Date,
    pub how: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Permit {
    pub id: String,
    pub holder: String,
    pub service: String,
    pub granted: Option<Nullable<Date>>,
    pub status: Option<String>,
    #[serde(default)]
    pub drivers: Vec<String>,
    pub vehicle: Option<String>,
    /// Extension: the holder's fixed stand.
    pub stand: Option<String>,
    /// Extension: the bus line the permit serves.
    pub line: Option<String>,
    /// Extension: the reserved share (a quota key of the cap) it was
    /// granted under.
    pub quota: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vehicle {
    pub id: String,
    pub plate: Option<String>,
    pub manufactured: Option<Whole>,
    pub included: Option<Nullable<Date>>,
    pub last_inspection: Option<Nullable<Date>>,
    pub adapted: Option<bool>,
    pub adaptation_original: Option<bool>,
    /// The last inspection of each kind the rulebook names.
    #[serde(default)]
    pub inspections: BTreeMap<String, Date>,
    /// Extensions (docs/scenarios.md): what vehicle requirements check.
    pub doors: Option<Whole>,
    pub capacity: Option<Whole>,
    pub air_conditioning: Option<bool>,
    pub colour: Option<String>,
    pub trunk_litres: Option<Whole>,
    pub insured: Option<bool>,
    pub engine_cc: Option<Whole>,
    pub four_stroke: Option<bool>,
    pub equipment: Option<Vec<String>>,
    pub category: Option<String>,
    pub documents: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HistoryEntry {
    pub infraction: String,
    pub by: String,
    pub permit: Option<String>,
    pub at: DateTime,
    #[serde(rename = "final", default = "yes")]
    pub is_final: bool,
    /// Extension: its notice to cure went unheeded.
    #[serde(default)]
    pub uncured: bool,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Query {
    Penalty(PenaltyQuery),
    Standing(StandingQuery),
    Deadline(DeadlineQuery),
    FineDue(FineDueQuery),
    PermitCap(PermitCapQuery),
    Eligibility(EligibilityQuery),
    Vehicle(VehicleQuery),
    Fare(FareQuery),
    Ctm(CtmQuery),
    Baggage(BaggageQuery),
    Indemnity(IndemnityQuery),
    Refund(RefundQuery),
    Ticket(TicketQuery),
    SuspensionRequest(SuspensionRequestQuery),
    ChangeLimit(ChangeLimitQuery),
    Fee(FeeQuery),
    Downtime(DowntimeQuery),
    StandLottery(StandLotteryQuery),
    PublicCall(PublicCallQuery),
    StandSwap(StandSwapQuery),
    StandUse(StandUseQuery),
    StandRelocation(StandRelocationQuery),
    Registration(RegistrationQuery),
    PermitAct(PermitActQuery),
    SupervisionShare(SupervisionShareQuery),
    Grounds(GroundsQuery),
    Process(ProcessQuery),
    PermitLife(PermitLifeQuery),
}

impl Query {
    pub fn name(&self) -> &'static str {
        match self {
            Query::Penalty(_) => "penalty",
            Query::Standing(_) => "standing",
            Query::Deadline(_) => "deadline",
            Query::FineDue(_) => "fine_due",
            Query::PermitCap(_) => "permit_cap",
            Query::Eligibility(_) => "eligibility",
            Query::Vehicle(_) => "vehicle",
            Query::Fare(_) => "fare",
            Query::Ctm(_) => "ctm",
            Query::Baggage(_) => "baggage",
            Query::Indemnity(_) => "indemnity",
            Query::Refund(_) => "refund",
            Query::Ticket(_) => "ticket",
            Query::SuspensionRequest(_) => "suspension_request",
            Query::ChangeLimit(_) => "change_limit",
            Query::Fee(_) => "fee",
            Query::Downtime(_) => "downtime",
            Query::StandLottery(_) => "stand_lottery",
            Query::PublicCall(_) => "public_call",
            Query::StandSwap(_) => "stand_swap",
            Query::StandUse(_) => "stand_use",
            Query::StandRelocation(_) => "stand_relocation",
            Query::Registration(_) => "registration",
            Query::PermitAct(_) => "permit_act",
            Query::SupervisionShare(_) => "supervision_share",
            Query::Grounds(_) => "grounds",
            Query::Process(_) => "process",
            Query::PermitLife(_) => "permit_life",
        }
    }

    /// The day whose law judges the question: the infraction's for a
    /// penalty or an auto's procedure, the start of a time limit, the
    /// fine's issue; the case's `today` for every other question.
    pub fn governing_day(&self, today: chrono::NaiveDate) -> chrono::NaiveDate {
        match self {
            Query::Penalty(q) => q.at.0.date(),
            Query::Process(q) => q.auto.at.0.date(),
            Query::Deadline(q) => match (&q.from, &q.at) {
                (Some(from), _) => from.0,
                (None, Some(at)) => at.0.date(),
                (None, None) => today,
            },
            Query::FineDue(q) => q.issued.0,
            _ => today,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PenaltyQuery {
    pub infraction: String,
    pub by: String,
    pub permit: Option<String>,
    pub at: DateTime,
    /// Extension: the deadline of the notice to cure passed without the cure.
    #[serde(default)]
    pub uncured: bool,
}

/// Where an auto's procedure stands after `steps`, and whether `next` may
/// be taken.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProcessQuery {
    pub auto: PenaltyQuery,
    #[serde(default)]
    pub steps: Vec<ProcessStep>,
    pub next: Option<ProcessStep>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProcessStep {
    pub step: String,
    pub day: Date,
    /// `judge`, `decide_appeal`: the auto stands.
    pub upheld: Option<bool>,
    /// `judge`, `decide_appeal`: days fixed within the law's range.
    pub days: Option<u32>,
    /// `judge`, `decide_appeal`: penalties chosen among the law's.
    pub sanctions: Option<Vec<String>>,
    /// `appeal`: a deposit was made.
    pub deposit: Option<bool>,
    /// `judge`, `decide_appeal`: the defense or appeal is not admitted, on
    /// this ground (`[[grounds]]` of set `not_admitted`).
    pub not_admitted: Option<String>,
    /// `judge`: the authority the law reserves the decision to (the key of
    /// `[[procedure.reserved]]`).
    pub by: Option<String>,
    /// Extension. `decide_appeal`: the appellant was told the decision may
    /// worsen the penalty and could argue (Lei 9.784/1999, art. 64,
    /// parágrafo único).
    pub heard: Option<bool>,
    /// Extension. `notify` of a notice of irregularity: the days to cure
    /// the notice sets (none: the rulebook's `cure` limit).
    pub cure_days: Option<u32>,
    /// Extension. `schedule_verification`: when the holder was told (on
    /// `day`) and when the verification inspection takes place.
    pub told: Option<DateTime>,
    pub inspection: Option<DateTime>,
}

/// Where a permit's life stands after `steps`, and whether `next` may be taken.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PermitLifeQuery {
    pub permit: String,
    #[serde(default)]
    pub steps: Vec<LifeStepInput>,
    pub next: Option<LifeStepInput>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LifeStepInput {
    pub step: String,
    pub day: Date,
    /// `reserve`: the reason; `caducity_notice`: the caducity ground;
    /// `end`: the ground of extinction.
    pub ground: Option<String>,
    /// `reserve`, `extend_reserve`.
    pub days: Option<u32>,
    /// `suspend`: the penalty's last day.
    pub until: Option<Date>,
    /// `transfer`: the authority consented beforehand.
    pub consent: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandingQuery {
    pub person: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeadlineQuery {
    pub kind: String,
    /// The day a limit in days, months or years starts.
    pub from: Option<Date>,
    /// Extension: the moment a limit in hours starts.
    pub at: Option<DateTime>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Amount {
    pub unit: String,
    pub quantity: Dec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FineDueQuery {
    pub amount: Amount,
    pub issued: Date,
    pub paid: Date,
    pub installments: Option<Whole>,
    /// Extension: the fine was decided in an administrative process.
    #[serde(default)]
    pub from_process: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PermitCapQuery {
    pub service: String,
    /// Extension: one more grant tried — under this quota, or none.
    pub grant: Option<CapGrant>,
    /// Extension: places of a share already released to the others.
    #[serde(default)]
    pub released: std::collections::BTreeMap<String, Whole>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapGrant {
    pub quota: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EligibilityQuery {
    pub person: String,
    pub role: String,
    pub service: String,
    /// Extension: the permit a driver asks to drive under.
    pub permit: Option<String>,
    /// Extension: the bus line a carrier asks for.
    pub line: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleQuery {
    pub vehicle: String,
    pub action: String,
    pub replacing: Option<String>,
    /// Extension: with `deadlines`, the replacement deadline was extended.
    #[serde(default)]
    pub extended: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FareQuery {
    pub start: DateTime,
    pub km: Dec,
    #[serde(default)]
    pub stopped_minutes: Option<Dec>,
    pub passenger: Option<Passenger>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Passenger {
    pub age: Option<Whole>,
    pub student: Option<bool>,
    pub disabled: Option<bool>,
    /// Extensions: travels with mobility equipment, or with a guide dog.
    #[serde(default)]
    pub mobility_equipment: bool,
    #[serde(default)]
    pub guide_dog: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CtmQuery {
    pub lines: Vec<Line>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Line {
    pub id: String,
    pub coefficient: Dec,
    pub semi_urban: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaggageQuery {
    pub fare: Dec,
    pub hold_kg: Dec,
    pub hand_kg: Dec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndemnityQuery {
    pub kind: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RefundQuery {
    pub departs: DateTime,
    pub requested: DateTime,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TicketQuery {
    pub trip: Trip,
    pub seat: Whole,
    #[serde(default)]
    pub sold: Vec<Whole>,
    /// Extension: the fields the ticket shows (Amapá art. 44).
    pub fields: Option<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trip {
    pub id: String,
    pub departs: DateTime,
    pub semi_urban: bool,
}

/// Extension: which of a set's grounds the facts found.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroundsQuery {
    pub set: String,
    #[serde(default)]
    pub found: Vec<String>,
}

/// Extension: the fares collected, in BRL.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupervisionShareQuery {
    pub fares: Dec,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PermitActQuery {
    pub act: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegistrationQuery {
    pub person: String,
    pub role: String,
    pub issued: Date,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandLotteryQuery {
    pub stand: String,
    pub seed: String,
    pub candidates: Vec<String>,
}

/// A public call for new permits of `service` offering `places`, published
/// on the case's day: the edital, the applicants and, where some are tied,
/// the seed of the public draw among them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicCallQuery {
    pub service: String,
    pub places: Whole,
    #[serde(default)]
    pub edital: EditalDto,
    pub applicants: Vec<ApplicantDto>,
    pub seed: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditalDto {
    #[serde(default)]
    pub criteria: Vec<CriterionDto>,
    #[serde(default)]
    pub tie_breaks: Vec<String>,
    #[serde(default)]
    pub documents: Vec<EditalDocumentDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CriterionDto {
    pub key: String,
    pub description: String,
    pub points_per_unit: Dec,
    pub max: Option<Dec>,
    pub citation: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditalDocumentDto {
    pub name: String,
    pub citation: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ApplicantDto {
    pub person: String,
    /// Per criterion key, the quantity shown.
    #[serde(default)]
    pub shown: BTreeMap<String, Dec>,
    #[serde(default)]
    pub documents: Vec<String>,
    pub claim: Option<ClaimDto>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimDto {
    pub share: String,
    #[serde(default)]
    pub proved: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandSwapQuery {
    pub permits: Vec<String>,
    pub class_consent: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandUseQuery {
    /// The taxi's permit (its fixed stand from the facts); or
    pub permit: Option<String>,
    /// a taxi licensed by another town.
    #[serde(default)]
    pub other_town: bool,
    pub stand: String,
    pub purpose: String,
}

/// A permit moved to another fixed stand on the case's day: by the
/// authority (`grounds` written — by default —, `notified` the day the
/// holder was notified, if any) or at the holder's request (`protocol`,
/// `feasibility_study`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StandRelocationQuery {
    /// `authority` or `holder`.
    pub by: String,
    pub grounds: Option<bool>,
    pub notified: Option<Date>,
    pub protocol: Option<bool>,
    pub feasibility_study: Option<bool>,
}

/// A vehicle off the road from `from` to `to` (both days included).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DowntimeQuery {
    pub from: Date,
    pub to: Date,
    #[serde(default)]
    pub excused: Vec<ExcusedPeriod>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExcusedPeriod {
    pub reason: String,
    pub from: Date,
    pub to: Date,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SuspensionRequestQuery {
    pub reason: String,
    pub days: Whole,
    #[serde(default)]
    pub extension: bool,
}

/// One more change of a kind the law limits per period, on the case's day.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChangeLimitQuery {
    /// `driver_swap` or `vehicle_substitution`.
    pub change: String,
    /// The days of the earlier changes that count (excused ones left out).
    #[serde(default)]
    pub past: Vec<Date>,
    /// The law's excuse for this change, if any.
    pub excuse: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FeeQuery {
    pub kind: String,
    pub months_worked: Option<Whole>,
}
