//! The rulebook: one law as data. Built and validated by `outorga-rulebook`;
//! read by the engine. Every rule carries the citation it rests on.

use crate::calendar::{Counting, HolidayRule};
use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;
use std::collections::{BTreeMap, HashMap};

/// A citation of the act, e.g. `Art. 52, III, a` (validated when loaded).
pub type Citation = String;

/// Index of an infraction in [`Rulebook::infractions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InfractionId(pub u32);

/// Index of a group in [`Rulebook::groups`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GroupId(pub u32);

#[derive(Debug, Clone)]
pub struct Rulebook {
    /// `<jurisdiction>/<service>`, e.g. `santa-maria-de-jetiba/taxi`.
    pub id: String,
    pub jurisdiction: Jurisdiction,
    pub act: Act,
    pub services: Vec<Service>,
    /// Named, dated numbers, sorted by name ([`ParamId`] indexes them); the
    /// ones a decree may change are flagged.
    pub parameters: Vec<Parameter>,
    /// Fiscal units (VRTM, UPFTO, CTM) with their dated BRL values.
    pub units: BTreeMap<String, FiscalUnit>,
    /// State and municipal holidays (national ones are built in).
    pub holidays: Vec<HolidayRule>,
    pub groups: Vec<Group>,
    pub infractions: Vec<Infraction>,
    pub infraction_index: HashMap<String, InfractionId>,
    pub liability: Liability,
    /// The default way to count prior infractions (reincidência); none when
    /// the law knows no reincidência.
    pub repeat: Option<CountRule>,
    pub sanction_rules: Vec<SanctionRule>,
    pub points: Option<PointRule>,
    pub thresholds: Vec<Threshold>,
    pub process: Option<ProcessRule>,
    /// The procedure of an auto: who judges, which appeals lie.
    pub procedure: Option<Procedure>,
    pub deadlines: Vec<DeadlineRule>,
    /// A fine multiplied by the number of fined incidences of its code.
    pub fine_multiplier: Option<FineMultiplier>,
    pub late_payment: Vec<LateTier>,
    pub installments: Option<InstallmentRule>,
    pub caps: Vec<CapRule>,
    pub requirements: Vec<Requirement>,
    pub vehicles: VehicleRules,
    pub permit_suspension: Option<SuspensionOnRequest>,
    pub permit_life: Option<PermitLife>,
    pub downtime: Option<DowntimeRule>,
    pub stands: Option<StandRules>,
    /// How new permits are given: the chamamento público or licitação the
    /// law requires, and how its applicants are judged.
    pub public_call: Option<PublicCall>,
    pub registrations: Vec<RegistrationRule>,
    pub forbidden_acts: Vec<ForbiddenAct>,
    /// Listed grounds for a measure, by set (boarding_refusal, caducity…).
    pub grounds: Vec<Ground>,
    pub bus: Option<BusRules>,
    pub fare: Option<FareRule>,
    /// What the department charges for its services.
    pub fees: Vec<Fee>,
    /// How many times a change may be made within a period.
    pub change_limits: Vec<ChangeLimit>,
    /// The final articles on what existed before the law (permits, vehicles
    /// and holders in force on its publication), read when a department's
    /// existing records are imported.
    pub transitional: Vec<Transitional>,
    /// Which version of the law this is: from when it is in force, and the
    /// act that amended the law into it (none for the law as first enacted).
    pub version: Version,
    /// The law's own words, article by article, as this version prints
    /// them (empty when the rulebook names no text).
    pub text: crate::law_text::LawText,
    /// The law's earlier versions, oldest first; only the latest version,
    /// the one a library holds, has them.
    pub earlier: Vec<Rulebook>,
}

crate::vocab::vocabulary! {
    /// Who fills what a law leaves open.
    pub enum FilledBy {
        /// A decree of the Executive (the law's regulamento).
        Decree = "decreto",
        /// An act of the department or its head (normas complementares).
        Portaria = "portaria",
        /// The public call's edital.
        Edital = "edital",
    }
}

/// A value the law leaves open, which the rulebook takes by default: who
/// fills it and the article that leaves it to them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenTerm {
    pub by: FilledBy,
    pub basis: Citation,
}

/// A version of a law: the law as in force from a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    pub valid_from: NaiveDate,
    /// The act that gave the law this text; `None` for the law as enacted.
    pub amendment: Option<Amendment>,
}

/// An act amending a law (a later law, or a decree where the law lets a
/// decree change it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Amendment {
    pub name: String,
    pub number: String,
    pub date: NaiveDate,
    /// What it changed, in a sentence, as the act's summary says it.
    pub summary: String,
}

/// A day before the first version of a law: the law does not judge it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{day} é anterior à entrada em vigor da lei de {jurisdiction} ({first}): esta lei não rege o que aconteceu antes"
)]
pub struct BeforeTheLaw {
    pub day: String,
    pub jurisdiction: String,
    pub first: String,
}

impl Version {
    /// The act that gave the law this text: the amending act's number, or
    /// the law's own for the law as enacted.
    pub fn act_number<'a>(&'a self, act: &'a Act) -> &'a str {
        self.amendment.as_ref().map_or(&act.number, |a| &a.number)
    }

    /// How a reader names this version: the act that made it and the day it
    /// is in force from.
    pub fn label(&self, act: &Act) -> String {
        let from = self.valid_from.format("%d/%m/%Y");
        match &self.amendment {
            None => format!("{} — texto original, em vigor desde {from}", act.number),
            Some(a) => format!(
                "{} — texto dado por {}, em vigor desde {from}",
                act.number, a.number
            ),
        }
    }
}

impl Rulebook {
    /// The version of this law in force on `day`: the latest whose
    /// valid-from is not after it. A day before the first version is
    /// refused — a case is judged by the law of its day.
    pub fn in_force_on(&self, day: NaiveDate) -> Result<&Rulebook, BeforeTheLaw> {
        self.versions()
            .rev()
            .find(|v| v.version.valid_from <= day)
            .ok_or_else(|| BeforeTheLaw {
                day: day.format("%d/%m/%Y").to_string(),
                jurisdiction: self.jurisdiction.name.clone(),
                first: self
                    .first_version()
                    .version
                    .valid_from
                    .format("%d/%m/%Y")
                    .to_string(),
            })
    }

    /// Every version of the law, oldest first (this one last).
    pub fn versions(&self) -> impl DoubleEndedIterator<Item = &Rulebook> {
        self.earlier.iter().chain(std::iter::once(self))
    }

    /// The law as first enacted.
    pub fn first_version(&self) -> &Rulebook {
        self.earlier.first().unwrap_or(self)
    }

    pub fn infraction(&self, id: InfractionId) -> &Infraction {
        &self.infractions[id.0 as usize]
    }

    pub fn group(&self, id: GroupId) -> &Group {
        &self.groups[id.0 as usize]
    }

    /// The law's limit of `kind`, when it sets one.
    pub fn deadline(&self, kind: DeadlineKind) -> Option<&DeadlineRule> {
        self.deadlines.iter().find(|rule| rule.kind == kind)
    }

    pub fn infraction_by_code(&self, code: &str) -> Option<InfractionId> {
        self.infraction_index.get(code).copied()
    }

    pub fn parameter_id(&self, name: &str) -> Option<ParamId> {
        self.parameters
            .binary_search_by(|p| p.name.as_str().cmp(name))
            .ok()
            .map(|i| ParamId(i as u32))
    }

    pub fn parameter(&self, id: ParamId) -> &Parameter {
        &self.parameters[id.0 as usize]
    }
}

#[derive(Debug, Clone)]
pub struct Jurisdiction {
    pub id: String,
    pub name: String,
    /// Two-letter state code (ES, MG, RS, AP).
    pub state: String,
    /// Where "today" is reckoned (IANA name in `jurisdiction.toml`).
    pub time_zone: chrono_tz::Tz,
    /// The organ that issues the papers, as the law names it ("Prefeitura
    /// Municipal de Teófilo Otoni — TEOTRANS"); none: the papers are
    /// headed with the jurisdiction's name.
    pub authority: Option<String>,
}

impl Jurisdiction {
    /// The jurisdiction's local date and time at the UTC moment `utc`.
    pub fn local(&self, utc: NaiveDateTime) -> NaiveDateTime {
        use chrono::TimeZone;
        self.time_zone.from_utc_datetime(&utc).naive_local()
    }

    /// The UTC moment of the jurisdiction's local date and time `local`
    /// (the earlier of two, when a clock went back; as given, when none).
    pub fn utc(&self, local: NaiveDateTime) -> NaiveDateTime {
        use chrono::TimeZone;
        self.time_zone
            .from_local_datetime(&local)
            .earliest()
            .map_or(local, |at| at.naive_utc())
    }

    /// The jurisdiction's "today" at the UTC moment `utc`: after 21:00 in
    /// Brasília the UTC date is already tomorrow's.
    pub fn today(&self, utc: NaiveDateTime) -> NaiveDate {
        self.local(utc).date()
    }
}

#[derive(Debug, Clone)]
pub struct Act {
    pub name: String,
    pub number: String,
    pub date: NaiveDate,
    /// The day the act came into force (transitional rules count from it).
    pub in_force: NaiveDate,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Service {
    Taxi,
    TaxiAcessivel,
    Mototaxi,
    Motofrete,
    Onibus,
}

impl Service {
    pub const ALL: [Service; 5] = [
        Service::Taxi,
        Service::TaxiAcessivel,
        Service::Mototaxi,
        Service::Motofrete,
        Service::Onibus,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Service::Taxi => "taxi",
            Service::TaxiAcessivel => "taxi_acessivel",
            Service::Mototaxi => "mototaxi",
            Service::Motofrete => "motofrete",
            Service::Onibus => "onibus",
        }
    }

    pub fn parse(text: &str) -> Option<Service> {
        Service::ALL.into_iter().find(|s| s.name() == text)
    }

    /// The service as staff and the public read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            Service::Taxi => "táxi",
            Service::TaxiAcessivel => "táxi acessível",
            Service::Mototaxi => "mototáxi",
            Service::Motofrete => "motofrete",
            Service::Onibus => "ônibus intermunicipal",
        }
    }
}

/// A value in force from a date on.
#[derive(Debug, Clone, PartialEq)]
pub struct Dated<T> {
    pub from: NaiveDate,
    pub value: T,
    /// Where the value comes from (a census, a decree), when not the act itself.
    pub source: Option<String>,
}

/// The value in force on `on`: the latest entry starting on or before it.
pub fn value_on<T>(values: &[Dated<T>], on: NaiveDate) -> Option<&T> {
    dated_on(values, on).map(|dated| &dated.value)
}

/// The entry in force on `on`, with its day and source.
pub fn dated_on<T>(values: &[Dated<T>], on: NaiveDate) -> Option<&Dated<T>> {
    values
        .iter()
        .filter(|dated| dated.from <= on)
        .max_by_key(|dated| dated.from)
}

#[derive(Debug, Clone)]
pub struct Parameter {
    pub name: String,
    pub doc: String,
    pub citation: Citation,
    /// True when the value is the product's default for something the law leaves
    /// to a decree (`shared/spec/decree-defaults.md`), not the law's own words.
    pub decree_default: Option<OpenTerm>,
    pub values: Vec<Dated<Decimal>>,
}

#[derive(Debug, Clone)]
pub struct FiscalUnit {
    pub code: String,
    pub name: String,
    pub citation: Citation,
    pub values: Vec<Dated<Decimal>>,
    /// Worked out as the mean tariff coefficient of the bus lines in force
    /// (`engine::bus::ctm`), never set by an act of its own.
    pub from_lines: bool,
    /// The article saying what is owed takes the value in force when paid
    /// (Amapá art. 68, parágrafo único).
    pub paid_at_value_of: Option<Citation>,
}

/// Index of a parameter in [`Rulebook::parameters`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParamId(pub u32);

/// A number written in the rulebook, or the parameter that holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Quantity {
    Fixed(Decimal),
    Param(ParamId),
}

impl From<Decimal> for Quantity {
    fn from(value: Decimal) -> Self {
        Quantity::Fixed(value)
    }
}

/// A length of time in the rulebook.
#[derive(Debug, Clone, PartialEq)]
pub enum Period {
    Days(Quantity),
    Months(Quantity),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Amount {
    pub unit: String,
    pub quantity: Decimal,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Cited<T> {
    pub value: T,
    pub citation: Citation,
}

/// A group or nature of infractions (grupo 1–4, leve…gravíssima, grupo I–VI).
#[derive(Debug, Clone)]
pub struct Group {
    pub id: String,
    pub name: String,
    /// Points every auto of this group adds, whatever its penalty.
    pub points: Option<Cited<Decimal>>,
    /// The fine of the group.
    pub fine: Option<Cited<Amount>>,
}

#[derive(Debug, Clone)]
pub struct Infraction {
    pub code: String,
    pub description: String,
    pub group: Option<GroupId>,
    /// Committed outside any permit (clandestine transport): never attached to
    /// the permit the offender happens to drive under.
    pub outside_permit: bool,
    /// Who the law says commits it, when it says.
    pub committed_by: Option<Applicant>,
    /// Points of its own, whatever the group or the outcome (the penalties of
    /// an administrative process: Teófilo Otoni art. 85).
    pub points: Option<Cited<Decimal>>,
    pub citation: Citation,
}

/// Who answers for what when an auxiliary commits an infraction.
#[derive(Debug, Clone)]
pub struct Liability {
    /// Who pays fines of infractions committed under a permit.
    pub fine_payer: Party,
    pub citation: Citation,
}

/// A party to an infraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    /// The person or company that committed it.
    Offender,
    /// The holder of the permit it was committed under (the offender when none).
    Holder,
}

/// The role the offender has under the permit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Any,
    Holder,
    Auxiliary,
}

impl Role {
    pub fn admits(self, actual: Role) -> bool {
        self == Role::Any || self == actual
    }
}

/// How prior infractions are counted to find the incidence of a new one.
#[derive(Debug, Clone, PartialEq)]
pub struct CountRule {
    pub by: CountBy,
    /// How far back from the new infraction's date priors count.
    pub window: Period,
    pub citation: Citation,
}

#[derive(Debug, Clone, PartialEq)]
pub enum CountBy {
    /// Prior infractions of the same code.
    Code,
    /// Prior infractions of the same group.
    Group,
    /// Prior infractions among a set of codes.
    Codes(Vec<InfractionId>),
}

/// Which incidence a rule applies at (1 = first offence).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Incidence {
    Any,
    First,
    Repeat,
    Nth(u32),
    From(u32),
    Every(u32),
}

impl Incidence {
    pub fn matches(self, n: u32) -> bool {
        match self {
            Incidence::Any => true,
            Incidence::First => n == 1,
            Incidence::Repeat => n >= 2,
            Incidence::Nth(k) => n == k,
            Incidence::From(k) => n >= k,
            Incidence::Every(k) => k > 0 && n.is_multiple_of(k),
        }
    }
}

/// Which infractions a rule applies to: any listed group or code.
#[derive(Debug, Clone, Default)]
pub struct Selector {
    pub groups: Vec<GroupId>,
    pub codes: Vec<InfractionId>,
}

impl Selector {
    pub fn selects(&self, id: InfractionId, group: Option<GroupId>) -> bool {
        self.codes.contains(&id) || group.is_some_and(|g| self.groups.contains(&g))
    }
}

/// "Infractions of these kinds at this incidence carry these sanctions."
#[derive(Debug, Clone)]
pub struct SanctionRule {
    pub applies_to: Selector,
    pub incidence: Incidence,
    /// How priors are counted; `None` uses [`Rulebook::repeat`] (a rulebook
    /// whose rules count incidences without their own count must have one).
    pub count: Option<CountRule>,
    /// Whether it applies to an irregularity just found, or to one whose notice
    /// to cure went unheeded (Canguçu Anexo I art. 7º, 9º).
    pub cure: Cure,
    pub sanctions: Vec<SanctionSpec>,
    pub citation: Citation,
}

/// Where an infraction stands with respect to a notice to cure it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Cure {
    /// Applies in either case.
    #[default]
    Any,
    /// Only when just found (a notice with a deadline to cure may follow).
    Found,
    /// Only when the deadline of the notice passed without the cure.
    Uncured,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SanctionKind {
    Warning,
    NoticeOfIrregularity,
    Fine,
    Suspension,
    PermitSuspension,
    VehicleImpediment,
    DriverCassation,
    PermitCassation,
    Ineligibility,
    VehicleSeizure,
    VehicleRetention,
    DocumentSeizure,
    AdministrativeProcess,
    Inidoneidade,
}

impl SanctionKind {
    pub const ALL: [SanctionKind; 14] = [
        SanctionKind::Warning,
        SanctionKind::NoticeOfIrregularity,
        SanctionKind::Fine,
        SanctionKind::Suspension,
        SanctionKind::PermitSuspension,
        SanctionKind::VehicleImpediment,
        SanctionKind::DriverCassation,
        SanctionKind::PermitCassation,
        SanctionKind::Ineligibility,
        SanctionKind::VehicleSeizure,
        SanctionKind::VehicleRetention,
        SanctionKind::DocumentSeizure,
        SanctionKind::AdministrativeProcess,
        SanctionKind::Inidoneidade,
    ];

    pub fn name(self) -> &'static str {
        match self {
            SanctionKind::Warning => "warning",
            SanctionKind::NoticeOfIrregularity => "notice_of_irregularity",
            SanctionKind::Fine => "fine",
            SanctionKind::Suspension => "suspension",
            SanctionKind::PermitSuspension => "permit_suspension",
            SanctionKind::VehicleImpediment => "vehicle_impediment",
            SanctionKind::DriverCassation => "driver_cassation",
            SanctionKind::PermitCassation => "permit_cassation",
            SanctionKind::Ineligibility => "ineligibility",
            SanctionKind::VehicleSeizure => "vehicle_seizure",
            SanctionKind::VehicleRetention => "vehicle_retention",
            SanctionKind::DocumentSeizure => "document_seizure",
            SanctionKind::AdministrativeProcess => "administrative_process",
            SanctionKind::Inidoneidade => "inidoneidade",
        }
    }

    pub fn parse(text: &str) -> Option<SanctionKind> {
        SanctionKind::ALL.into_iter().find(|k| k.name() == text)
    }

    /// A step of the procedure rather than a penalty a decision imposes
    /// (a notice to cure, the opening of an administrative process).
    pub fn is_procedural(self) -> bool {
        matches!(
            self,
            SanctionKind::NoticeOfIrregularity | SanctionKind::AdministrativeProcess
        )
    }

    /// The penalty or measure as staff and the public read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            SanctionKind::Warning => "advertência",
            SanctionKind::NoticeOfIrregularity => "notificação de irregularidade",
            SanctionKind::Fine => "multa",
            SanctionKind::Suspension => "suspensão do condutor",
            SanctionKind::PermitSuspension => "suspensão da permissão",
            SanctionKind::VehicleImpediment => "impedimento do veículo",
            SanctionKind::DriverCassation => "cassação do registro do condutor",
            SanctionKind::PermitCassation => "cassação da permissão",
            SanctionKind::Ineligibility => "impedimento de nova outorga",
            SanctionKind::VehicleSeizure => "apreensão do veículo",
            SanctionKind::VehicleRetention => "retenção do veículo",
            SanctionKind::DocumentSeizure => "apreensão do documento",
            SanctionKind::AdministrativeProcess => "processo administrativo",
            SanctionKind::Inidoneidade => "declaração de inidoneidade",
        }
    }

    /// Whether the law may apply it on the spot, before any decision.
    pub fn applies_at_once(self) -> bool {
        matches!(
            self,
            SanctionKind::VehicleSeizure
                | SanctionKind::VehicleRetention
                | SanctionKind::DocumentSeizure
                | SanctionKind::VehicleImpediment
        )
    }

    /// Whether the sanction falls on a person (and so has a `target`).
    pub fn has_target(self) -> bool {
        !matches!(
            self,
            SanctionKind::Fine
                | SanctionKind::VehicleImpediment
                | SanctionKind::VehicleSeizure
                | SanctionKind::VehicleRetention
                | SanctionKind::DocumentSeizure
                | SanctionKind::AdministrativeProcess
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DocumentKind {
    TrafficAuthorization,
    DriverRegistration,
    Other,
}

impl DocumentKind {
    pub fn name(self) -> &'static str {
        match self {
            DocumentKind::TrafficAuthorization => "traffic_authorization",
            DocumentKind::DriverRegistration => "driver_registration",
            DocumentKind::Other => "other",
        }
    }
}

/// The fine a sanction imposes.
#[derive(Debug, Clone, PartialEq)]
pub enum FineSpec {
    /// The fine of the infraction's group.
    OfGroup,
    Fixed(Cited<Amount>),
}

/// Growth of a sanction with the offender's record.
#[derive(Debug, Clone, PartialEq)]
pub enum Scale {
    None,
    /// Multiplied by `factor` for each prior infraction of the same code that
    /// followed the one before it within `window` (a chain of repeats); the
    /// citation is added when it multiplies.
    Chain {
        window: Period,
        factor: Decimal,
        citation: Citation,
    },
}

/// One sanction a rule imposes.
#[derive(Debug, Clone, PartialEq)]
pub struct SanctionSpec {
    pub kind: SanctionKind,
    pub target: Party,
    /// Applies only when the offender has this role under the permit.
    pub when_offender: Role,
    pub fine: Option<FineSpec>,
    pub days: Option<Quantity>,
    pub min_days: Option<Quantity>,
    pub max_days: Option<Quantity>,
    pub years: Option<Quantity>,
    pub months: Option<Quantity>,
    pub min_hours: Option<Quantity>,
    /// `days` are business days, counted from the day after it starts
    /// (TO art. 86, § 1º: custody of 3 dias úteis).
    pub business_days: bool,
    pub document: Option<DocumentKind>,
    /// Where the measure may be carried out (a retention: Amapá art. 63, § ú).
    pub places: Vec<Place>,
    /// Multiplies the fine (a doubled fine on reincidência).
    pub factor: Option<Quantity>,
    pub scale: Scale,
    /// A citation of its own, added to the rule's.
    pub citation: Option<Citation>,
    /// The deciding authority may impose it or not (Canguçu art. 19:
    /// "alternativamente"); the others stand when the auto is upheld.
    pub optional: bool,
}

/// Where a measure on a vehicle may be carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    BeforeDeparture,
    SupportPoints,
    EnRoute,
}

impl Place {
    pub fn parse(text: &str) -> Option<Place> {
        Some(match text {
            "before_departure" => Place::BeforeDeparture,
            "support_points" => Place::SupportPoints,
            "en_route" => Place::EnRoute,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Place::BeforeDeparture => "before_departure",
            Place::SupportPoints => "support_points",
            Place::EnRoute => "en_route",
        }
    }
}

/// Points: how many, to whom, over which windows.
#[derive(Debug, Clone)]
pub struct PointRule {
    /// What earns points: the group of the infraction, or its outcome.
    pub basis: PointBasis,
    /// Points of a warning (with basis `Outcome`).
    pub warning: Option<Cited<Decimal>>,
    /// Share of the auxiliary's points recorded against the permit holder.
    pub holder_share: Option<Cited<Decimal>>,
    /// Point windows reported by `standing`, in months.
    pub windows_months: Vec<u32>,
    pub citation: Citation,
}

/// What an infraction's points depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PointBasis {
    /// Every auto of a group earns the group's points, whatever its penalty
    /// (Santa Maria de Jetibá art. 49).
    #[default]
    Group,
    /// A warning earns the warning's points, a fine its group's points,
    /// anything else none (Teófilo Otoni art. 89).
    Outcome,
}

/// "More than `over` points within `window` months" makes these sanctions due.
#[derive(Debug, Clone)]
pub struct Threshold {
    pub window_months: u32,
    pub over: Quantity,
    /// Whose record it judges.
    pub applies_to: Subject,
    /// The limit is `over` times the number of permits the person holds.
    pub per_permit: bool,
    pub sanctions: Vec<SanctionSpec>,
    pub citation: Citation,
}

/// Whose record a threshold judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Subject {
    Anyone,
    /// A driver who holds no permit (auxiliary, collaborator, preposto).
    Auxiliary,
    /// A natural person who holds a permit.
    Holder,
    /// A company that holds permits.
    Company,
    /// A radio-dispatch company or cooperative, credentialed to dispatch rides.
    RadioDispatch,
}

/// Sanctions that need an administrative process first.
#[derive(Debug, Clone)]
pub struct ProcessRule {
    pub kinds: Vec<SanctionKind>,
    pub citation: Citation,
}

crate::vocab::vocabulary! {
    /// Where a permit (permissão, autorização, delegação) stands.
    pub enum PermitStatus {
        Granted = "granted",
        Suspended = "suspended",
        Reserved = "reserved",
        Renounced = "renounced",
        /// Cassated or revoked.
        Revoked = "revoked",
        Extinct = "extinct",
    }
}

impl PermitStatus {
    /// The status as staff and the public read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            PermitStatus::Granted => "em vigor",
            PermitStatus::Suspended => "suspensa",
            PermitStatus::Reserved => "em reserva",
            PermitStatus::Renounced => "renunciada",
            PermitStatus::Revoked => "cassada ou revogada",
            PermitStatus::Extinct => "extinta",
        }
    }
}

crate::vocab::vocabulary! {
    /// What a time limit of the law is for.
    pub enum DeadlineKind {
        /// To notify the offender of an auto, or it is archived.
        Notification = "notification",
        /// To file a defense (impugnação) after the notification.
        Defense = "defense",
        /// For the authority to judge (a limit on the administration).
        Judgement = "judgement",
        /// To appeal after the notice of the decision.
        Appeal = "appeal",
        /// To appeal to a second instance after the notice of the decision
        /// on the first appeal.
        SecondAppeal = "second_appeal",
        /// To correct what a notice of irregularity names.
        Cure = "cure",
        /// The notice of a verification inspection, in hours.
        VerificationInspectionNotice = "verification_inspection_notice",
        /// To pay a fine.
        Payment = "payment",
        /// To pay a fee, from the event that charges it.
        FeePayment = "fee_payment",
        /// How long a permit lasts.
        PermitTerm = "permit_term",
        /// How long a traffic authorization lasts before it is renewed.
        TrafficAuthorizationTerm = "traffic_authorization_term",
        /// How long a delegation lasts, and its extension.
        DelegationTerm = "delegation_term",
        DelegationTermExtended = "delegation_term_extended",
        /// For holders licensed before the law to sign their term.
        DelegationFormalization = "delegation_formalization",
        /// To correct failures before a caducity process; the bar after caducity.
        CaducityCure = "caducity_cure",
        CaducityBar = "caducity_bar",
        /// To answer a notice that a stand will move.
        StandRelocationResponse = "stand_relocation_response",
        /// To tell the department of a vehicle seized by court order.
        CourtSeizureNotice = "court_seizure_notice",
        /// To report an accident.
        AccidentReport = "accident_report",
        /// A continuous charter's term.
        ContinuousCharter = "continuous_charter",
        /// An emergency authorization's term.
        EmergencyAuthorization = "emergency_authorization",
        /// The earliest next fare readjustment after the last.
        FareReadjustment = "fare_readjustment",
        /// To pay an indemnity.
        IndemnityPayment = "indemnity_payment",
        /// How long an open ticket keeps its price.
        OpenTicketPrice = "open_ticket_price",
        /// To tender lines run precariously.
        PrecariousLinesTender = "precarious_lines_tender",
        /// To refund a ticket.
        Refund = "refund",
        /// The latest day ticket sales may open before a trip.
        SalesOpening = "sales_opening",
        /// A temporary vehicle's term and its extensions.
        TemporaryVehicle = "temporary_vehicle",
        TemporaryVehicleExtension = "temporary_vehicle_extension",
        TemporaryVehicleTotalLossExtension = "temporary_vehicle_total_loss_extension",
        /// To publish the tender notice after an emergency authorization.
        TenderNotice = "tender_notice",
        /// To appeal against the provisional result of a public call or
        /// licitação for new permits, from its publication.
        CallAppeal = "call_appeal",
    }
}

impl DeadlineKind {
    /// The time limit as staff read it ("prazo de …").
    pub fn portuguese(self) -> &'static str {
        match self {
            DeadlineKind::Notification => "notificação do auto",
            DeadlineKind::Defense => "defesa",
            DeadlineKind::Judgement => "julgamento",
            DeadlineKind::Appeal => "recurso",
            DeadlineKind::SecondAppeal => "recurso em segunda instância",
            DeadlineKind::Cure => "sanar a irregularidade",
            DeadlineKind::VerificationInspectionNotice => "aviso da vistoria de verificação",
            DeadlineKind::Payment => "pagamento da multa",
            DeadlineKind::FeePayment => "pagamento da taxa",
            DeadlineKind::PermitTerm => "vigência da permissão",
            DeadlineKind::TrafficAuthorizationTerm => "vigência da autorização de tráfego",
            DeadlineKind::DelegationTerm => "vigência da delegação",
            DeadlineKind::DelegationTermExtended => "prorrogação da delegação",
            DeadlineKind::DelegationFormalization => "assinatura do termo de delegação",
            DeadlineKind::CaducityCure => "correção das falhas antes da caducidade",
            DeadlineKind::CaducityBar => "impedimento após a caducidade",
            DeadlineKind::StandRelocationResponse => "resposta à mudança de ponto",
            DeadlineKind::CourtSeizureNotice => "aviso de apreensão judicial",
            DeadlineKind::AccidentReport => "comunicação de acidente",
            DeadlineKind::ContinuousCharter => "fretamento contínuo",
            DeadlineKind::EmergencyAuthorization => "autorização emergencial",
            DeadlineKind::FareReadjustment => "próximo reajuste da tarifa",
            DeadlineKind::IndemnityPayment => "pagamento da indenização",
            DeadlineKind::OpenTicketPrice => "preço do bilhete em aberto",
            DeadlineKind::PrecariousLinesTender => "licitação das linhas precárias",
            DeadlineKind::Refund => "reembolso da passagem",
            DeadlineKind::SalesOpening => "abertura da venda de passagens",
            DeadlineKind::TemporaryVehicle => "veículo temporário",
            DeadlineKind::TemporaryVehicleExtension => "prorrogação do veículo temporário",
            DeadlineKind::TemporaryVehicleTotalLossExtension => {
                "prorrogação do veículo temporário por perda total"
            }
            DeadlineKind::TenderNotice => "publicação do edital",
            DeadlineKind::CallAppeal => "recurso contra o resultado do chamamento",
        }
    }
}

/// The procedure of an auto de infração; its time limits are the rulebook's
/// deadlines (notification, defense, judgement, appeals, cure, payment).
#[derive(Debug, Clone)]
pub struct Procedure {
    /// The article that gives the offender the right to a defense.
    pub citation: Citation,
    /// Who judges in the first instance.
    pub judge: Cited<String>,
    /// The appeals, in order, each to the next instance.
    pub appeals: Vec<AppealRule>,
    /// An article that asks for a deposit to appeal: recorded, never
    /// demanded (STF Súmula Vinculante 21).
    pub deposit: Option<Citation>,
    /// Measures the law applies on the spot, from the auto on, before any
    /// decision (seizure or retention of a vehicle or a document), each
    /// with the article that says so.
    pub at_once: Vec<Cited<SanctionKind>>,
    /// What keeping a vehicle held on the spot costs its owner and what
    /// must hold before it is released, per measure.
    pub custody: Vec<CustodyRule>,
    /// Where the deciding authority chooses the penalty among the law's.
    pub choices: Vec<Choice>,
    /// Autos whose proposal holds one of these penalties are decided by
    /// another authority than the judge (SMJ art. 8º, § 2º: a cassation by
    /// the Chefe do Poder Executivo; TO art. 85: by the Director).
    pub reserved: Vec<ReservedDecision>,
}

/// Who decides an auto that proposes one of `kinds`.
#[derive(Debug, Clone)]
pub struct ReservedDecision {
    /// How a decision names the authority (`by` of the step).
    pub key: String,
    /// The authority, as the law names it.
    pub by: String,
    pub kinds: Vec<SanctionKind>,
    pub citation: Citation,
}

/// "Where the penalty is one of `instead_of`, the authority decides among
/// these options" (Teófilo Otoni art. 85): the proposal is one option, each
/// of `options` another.
#[derive(Debug, Clone)]
pub struct Choice {
    pub instead_of: Vec<SanctionKind>,
    pub options: Vec<ChoiceOption>,
    pub citation: Citation,
}

#[derive(Debug, Clone)]
pub struct ChoiceOption {
    pub sanctions: Vec<SanctionSpec>,
    pub citation: Citation,
    /// The infraction the decision is recorded as: its points go on the
    /// record instead of the infraction's (Teófilo Otoni art. 85: a, 4
    /// points; b, 8; a and b, 12).
    pub record_as: Option<InfractionId>,
}

/// An appeal: to whom, within which limit (counted from the notice of the
/// decision appealed against).
#[derive(Debug, Clone)]
pub struct AppealRule {
    pub to: String,
    pub limit: DeadlineKind,
    pub citation: Citation,
    /// The penalties `to` hears appeals against (empty: all of them).
    pub hears: Vec<SanctionKind>,
    /// Who hears the appeal against the others (Amapá art. 71, § 1º: the
    /// CTC judges appeals against fines; § 2º: the others follow the
    /// administrative hierarchy).
    pub otherwise: Option<Cited<String>>,
}

#[derive(Debug, Clone)]
pub struct DeadlineRule {
    pub kind: DeadlineKind,
    pub length: Quantity,
    pub unit: LimitUnit,
    pub citation: Citation,
    pub decree_default: Option<OpenTerm>,
}

/// How a limit's length is measured: days, months or years counted on the
/// calendar from a date, or clock hours from a moment (a minimum notice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitUnit {
    Counted(Counting),
    Hours,
}

impl LimitUnit {
    /// A limit of `length` in this unit as the papers tell it to the
    /// person who must act: "15 dias", "10 dias úteis", "6 meses"…
    pub fn words(self, length: u32) -> String {
        let plural = length != 1;
        let unit = match self {
            LimitUnit::Hours => {
                if plural {
                    "horas"
                } else {
                    "hora"
                }
            }
            LimitUnit::Counted(Counting::BusinessDays | Counting::BusinessDaysBefore) => {
                if plural {
                    "dias úteis"
                } else {
                    "dia útil"
                }
            }
            LimitUnit::Counted(
                Counting::CalendarDays | Counting::CalendarDaysFromNextBusinessDay,
            ) => {
                if plural {
                    "dias"
                } else {
                    "dia"
                }
            }
            LimitUnit::Counted(Counting::Months) => {
                if plural {
                    "meses"
                } else {
                    "mês"
                }
            }
            LimitUnit::Counted(Counting::Years) => {
                if plural {
                    "anos"
                } else {
                    "ano"
                }
            }
        };
        let from = match self {
            LimitUnit::Counted(Counting::CalendarDaysFromNextBusinessDay) => {
                ", contados a partir do primeiro dia útil seguinte"
            }
            _ => "",
        };
        format!("{length} {unit}{from}")
    }
}

/// "A fine for an infraction committed more than once within `window` is its
/// original value times the number of incidences that led to a fine, this one
/// included" (Teófilo Otoni art. 91).
#[derive(Debug, Clone)]
pub struct FineMultiplier {
    pub window: Period,
    pub citation: Citation,
}

/// A late-payment surcharge: `percent` when paid more than `after_days` after issue.
#[derive(Debug, Clone)]
pub struct LateTier {
    pub after_days: Quantity,
    pub percent: Quantity,
    pub citation: Citation,
}

#[derive(Debug, Clone)]
pub struct InstallmentRule {
    pub max: Quantity,
    /// Minimum fine (in its unit) that may be paid in installments.
    pub min_quantity: Quantity,
    /// When the first parcel is due, counted from the notice's issue.
    pub first_due: Period,
    /// The time between parcels.
    pub every: Period,
    /// Fines decided in an administrative process may not be split (with the
    /// article that says so).
    pub not_for_process_fines: Option<Citation>,
    /// A parcel unpaid longer than `after` past its due day makes the
    /// balance due at once (Teófilo Otoni art. 98, § 3º).
    pub acceleration: Option<Acceleration>,
    /// The article that sets `min_quantity` (Teófilo Otoni art. 99).
    pub min_quantity_citation: Option<Citation>,
    /// The article that sets the parcels' due dates (art. 98, § 2º).
    pub schedule_citation: Option<Citation>,
    pub citation: Citation,
}

#[derive(Debug, Clone)]
pub struct Acceleration {
    pub after: Period,
    pub citation: Citation,
}

/// "One permit per N inhabitants", with reserved shares.
#[derive(Debug, Clone)]
pub struct CapRule {
    /// The services whose permits count together against the cap (the
    /// first is the one the rulebook names; Canguçu: taxi with taxi
    /// acessível, one fleet).
    pub services: Vec<Service>,
    pub inhabitants_per_permit: Quantity,
    /// When the permits already granted are more, they stay (no one loses one).
    pub keep_current: bool,
    pub citation: Citation,
    pub reserved: Vec<Quota>,
}

/// A share of the cap reserved for someone, rounded up.
#[derive(Debug, Clone)]
pub struct Quota {
    pub key: String,
    pub percent: Quantity,
    /// The share is the permits of this service (the accessible taxis of
    /// Canguçu art. 3º, § 1º); none: the permits granted under the key.
    pub service: Option<Service>,
    /// The article that releases the unfilled places to the other
    /// applicants (SMJ art. 2º, § 6º), where the law does.
    pub release: Option<Citation>,
    pub citation: Citation,
}

impl Quota {
    /// The reserved shares the rulebooks name, as users read and write
    /// them: (Portuguese, the rulebook's key). The one table of their
    /// names: the cap's refusals and the API's `cota` both read it.
    pub const PORTUGUESE: &'static [(&'static str, &'static str)] = &[
        ("condutores_com_deficiencia", "disabled_drivers"),
        ("veiculos_acessiveis", "accessible_vehicles"),
    ];

    /// The share `key` as users read it (a key the table does not know, as
    /// the rulebook writes it).
    pub fn portuguese(key: &str) -> &str {
        Self::PORTUGUESE
            .iter()
            .find(|(_, code)| *code == key)
            .map_or(key, |(portuguese, _)| portuguese)
    }

    /// The share `key` as staff read it on screen and paper.
    pub fn label(key: &str) -> &str {
        match key {
            "disabled_drivers" => "condutores com deficiência",
            "accessible_vehicles" => "veículos acessíveis",
            other => Self::portuguese(other),
        }
    }
}

/// Who asks: a permit holder, or a driver serving under someone's permit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applicant {
    Holder,
    Driver,
}

#[derive(Debug, Clone)]
pub struct Requirement {
    pub id: String,
    pub description: String,
    pub applicants: Vec<Applicant>,
    pub check: Check,
    pub citation: Citation,
    /// Other articles that state the same rule.
    pub see_also: Vec<Citation>,
}

crate::vocab::vocabulary! {
    /// How a permit ended (`past_permits`, the record's history).
    pub enum EndedHow {
        Renounced = "renounced",
        Cassated = "cassated",
        Revoked = "revoked",
        Caducity = "caducity",
        Extinct = "extinct",
    }
}

crate::vocab::vocabulary! {
    /// A ground on which the law ends a permit (`[[permit_life.ends]]`).
    pub enum EndGround {
        /// The term ran out (TO art. 11, a; Canguçu art. 31).
        Term = "term",
        Death = "death",
        /// Permanent invalidity.
        Disability = "disability",
        /// Incapacity declared by a court.
        Incapacity = "incapacity",
        Renunciation = "renunciation",
        /// Revocation in the public interest or for breach of the rules.
        Revocation = "revocation",
        Annulment = "annulment",
        Caducity = "caducity",
        /// A penalty: only through an auto's final decision.
        Cassation = "cassation",
        Insolvency = "insolvency",
        /// Bankruptcy or extinction of the company.
        Bankruptcy = "bankruptcy",
        /// A change of partners that takes out the one awarded the service.
        CorporateChange = "corporate_change",
        /// The age the law sets for a natural person (TO art. 11, m: 65).
        AgeLimit = "age_limit",
        /// The reserve ran out and the holder did not return (TO art. 20, § 5º).
        Abandonment = "abandonment",
        /// Rescission of the contract (Amapá art. 17, II).
        Rescission = "rescission",
        /// Encampação: taken back by the authority (Amapá art. 17, V).
        Encampment = "encampment",
    }
}

impl EndGround {
    /// How a permit that ends on this ground ended.
    pub fn ended_how(self) -> EndedHow {
        match self {
            EndGround::Renunciation => EndedHow::Renounced,
            EndGround::Cassation => EndedHow::Cassated,
            EndGround::Revocation => EndedHow::Revoked,
            EndGround::Caducity => EndedHow::Caducity,
            _ => EndedHow::Extinct,
        }
    }

    /// The record's status after it.
    pub fn status(self) -> PermitStatus {
        match self.ended_how() {
            EndedHow::Renounced => PermitStatus::Renounced,
            EndedHow::Cassated | EndedHow::Revoked => PermitStatus::Revoked,
            EndedHow::Caducity | EndedHow::Extinct => PermitStatus::Extinct,
        }
    }

    /// The ground as staff read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            EndGround::Term => "advento do termo",
            EndGround::Death => "falecimento do titular",
            EndGround::Disability => "invalidez permanente do titular",
            EndGround::Incapacity => "incapacidade declarada judicialmente",
            EndGround::Renunciation => "renúncia",
            EndGround::Revocation => "revogação",
            EndGround::Annulment => "anulação",
            EndGround::Caducity => "caducidade",
            EndGround::Cassation => "cassação",
            EndGround::Insolvency => "insolvência civil do titular",
            EndGround::Bankruptcy => "falência ou extinção da empresa",
            EndGround::CorporateChange => "alteração societária que retira o sócio adjudicatário",
            EndGround::AgeLimit => "idade-limite do titular",
            EndGround::Abandonment => "abandono da atividade (reserva vencida)",
            EndGround::Rescission => "rescisão",
            EndGround::Encampment => "encampação",
        }
    }
}

impl Rulebook {
    /// Every sanction of `kind` a rule, threshold or choice of the law can
    /// impose, with the article it rests on.
    pub fn specs_of(&self, kind: SanctionKind) -> Vec<(&SanctionSpec, &str)> {
        let rules = self
            .sanction_rules
            .iter()
            .map(|r| (r.sanctions.as_slice(), r.citation.as_str()));
        let thresholds = self
            .thresholds
            .iter()
            .map(|t| (t.sanctions.as_slice(), t.citation.as_str()));
        let choices = self
            .procedure
            .iter()
            .flat_map(|p| &p.choices)
            .flat_map(|c| &c.options)
            .map(|o| (o.sanctions.as_slice(), o.citation.as_str()));
        rules
            .chain(thresholds)
            .chain(choices)
            .flat_map(|(specs, rule)| {
                specs
                    .iter()
                    .filter(move |s| s.kind == kind)
                    .map(move |s| (s, s.citation.as_deref().unwrap_or(rule)))
            })
            .collect()
    }
}

/// The life of a permit as the law shapes it (`[permit_life]`): the
/// grounds on which it ends, whether and how often it is renewed, whether
/// it may pass to another holder.
#[derive(Debug, Clone)]
pub struct PermitLife {
    /// The article that lists how a permit ends.
    pub citation: Citation,
    pub ends: Vec<EndRule>,
    /// None: the law provides no renewal.
    pub renewal: Option<RenewalRule>,
    pub transfer: Cited<Transfer>,
    /// A permit granted before the act counts its term from the act's date
    /// (Santa Maria de Jetibá art. 7º, § 2º): the article.
    pub earlier_from_act: Option<Citation>,
}

/// A ground of the law's list and when it may be declared.
#[derive(Debug, Clone)]
pub struct EndRule {
    pub ground: EndGround,
    pub after: EndAfter,
    /// Only for a holder of this kind (TO art. 11, m: "quando permissionário
    /// pessoa física"; k: "falência da empresa permissionária").
    pub holder: Option<crate::vocab::PersonKind>,
    /// For a caducity after a notice: the keys of the `caducity` grounds
    /// that bring it without one (Amapá art. 65, § único: through the auto
    /// of the declaration of inidoneidade), for which no notice is given.
    pub direct: Vec<String>,
    /// Where the law offers the vacancy to the runners-up of the
    /// procurement (TO art. 11, §§ 4º, 6º): its article.
    pub vacancy: Option<Citation>,
    pub citation: Citation,
}

/// What must have happened before a ground may be declared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndAfter {
    /// At any time while the permit is in force.
    Any,
    /// Once the term has run out.
    Term,
    /// Once a notice to correct (its `caducity_cure` limit) ran out uncured.
    Notice,
    /// Once a reserve ran out without the holder's return.
    Reserve,
    /// From the holder's birthday of this age.
    Age(u32),
}

#[derive(Debug, Clone)]
pub struct RenewalRule {
    /// How many times (none: as often as the requirements are met).
    pub max: Option<u32>,
    pub citation: Citation,
}

/// Whether a permit may pass to another holder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transfer {
    Forbidden,
    /// Only with the authority's prior consent (Amapá art. 16).
    WithConsent,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Education {
    None,
    Fundamental,
    Medio,
    Superior,
}

impl Education {
    pub fn parse(text: &str) -> Option<Education> {
        Some(match text {
            "none" => Education::None,
            "fundamental" => Education::Fundamental,
            "medio" => Education::Medio,
            "superior" => Education::Superior,
            _ => return None,
        })
    }

    /// The schooling as staff read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            Education::None => "sem escolaridade formal",
            Education::Fundamental => "ensino fundamental completo",
            Education::Medio => "ensino médio completo",
            Education::Superior => "ensino superior completo",
        }
    }
}

/// The checks the engine knows how to make on the facts of a person.
#[derive(Debug, Clone)]
pub enum Check {
    /// Must be a natural person (not a company).
    NaturalPerson,
    /// Holds a CNH in one of these categories; those in `paid_activity_for` also
    /// need the "exerce atividade remunerada" remark.
    LicenseCategory {
        any_of: Vec<String>,
        paid_activity_for: Vec<String>,
    },
    /// The CNH has not expired.
    LicenseValid,
    /// The right to drive is not suspended.
    LicenseNotSuspended,
    /// No suspension of the right to drive ended within this period before today.
    NoSuspensionWithin(Period),
    /// At least this many years since the first licence.
    LicenseYears(Quantity),
    /// Resident in the jurisdiction for at least this many years.
    ResidentYears(Quantity),
    MinAge(Quantity),
    /// Younger than this age.
    UnderAge(Quantity),
    MinEducation(Education),
    NotPublicEmployee,
    /// Not a concessionaire, permit holder or authorized operator of public
    /// collective or school transport.
    NotTransportOperator,
    /// Has presented this document (certificate, course, registration…), by
    /// the name the rulebook uses.
    Document(String),
    /// No tie of economic interdependence with another carrier of the line
    /// asked for (capital, directors or partners, relatives over `percent` of
    /// the voting capital, the same group), nor a second delegation of the
    /// same line (checked when the question names the line).
    NoInterdependence {
        percent: Quantity,
    },
    /// No final criminal conviction (a non-final one leaves it for the clerk).
    NoFinalConviction,
    /// Holds no permit (of any service) already.
    NoOtherPermit,
    /// A company holds fewer than this many permits (so it may get one more).
    CompanyPermits(Quantity),
    /// With one more, the permits held by companies stay within this percentage
    /// of all permits.
    CompanyShare(Quantity),
    /// Owes nothing overdue to the department.
    NoOverdueDebts,
    /// With this driver, the holder of the permit asked about has at most `max`
    /// drivers per permit held (only company holders, when `companies_only`).
    DriversPerPermit {
        max: Quantity,
        companies_only: bool,
    },
    /// A natural-person holder may have a driver only while on sick leave, or
    /// on vacation of at most `vacation_days` in 365 days (checked when the
    /// question names the permit).
    PrepostoGrounds {
        vacation_days: Quantity,
    },
    /// Not within `period` after a permit that ended this way.
    WaitingPeriod {
        after: EndedHow,
        period: Period,
    },
}

impl Check {
    /// What a clerk records to clear this requirement when it is unmet or
    /// cannot be judged, in Portuguese (the profile's and the register's
    /// words).
    pub fn evidence(&self) -> String {
        match self {
            Check::NaturalPerson => "Cadastrar o titular pelo CPF (pessoa física).".into(),
            Check::LicenseCategory { any_of, .. } => format!(
                "Registrar no perfil a CNH com a categoria ({}) e, quando exigida, a observação \"exerce atividade remunerada\".",
                any_of.join(" ou ")
            ),
            Check::LicenseValid => "Registrar no perfil a validade da CNH.".into(),
            Check::LicenseNotSuspended | Check::NoSuspensionWithin(_) => {
                "Registrar no perfil se o direito de dirigir está ou esteve suspenso (suspensa até).".into()
            }
            Check::LicenseYears(_) => "Registrar no perfil a data da primeira habilitação.".into(),
            Check::ResidentYears(_) => "Registrar no perfil desde quando reside no município.".into(),
            Check::MinAge(_) | Check::UnderAge(_) => "Registrar no perfil a data de nascimento.".into(),
            Check::MinEducation(_) => "Registrar no perfil a escolaridade.".into(),
            Check::NotPublicEmployee => "Registrar no perfil se é servidor público.".into(),
            Check::NotTransportOperator => {
                "Registrar no perfil se opera transporte coletivo ou escolar.".into()
            }
            Check::Document(name) => {
                format!("Registrar no perfil o documento apresentado \"{name}\".")
            }
            Check::NoInterdependence { .. } => {
                "Verificar os sócios, dirigentes e delegações das demais transportadoras da linha.".into()
            }
            Check::NoFinalConviction => {
                "Registrar no perfil se há condenação criminal definitiva (certidão).".into()
            }
            Check::NoOtherPermit | Check::CompanyPermits(_) | Check::CompanyShare(_) => {
                "Conferir as permissões já outorgadas a quem pede.".into()
            }
            Check::NoOverdueDebts => "Quitar ou parcelar os débitos vencidos.".into(),
            Check::DriversPerPermit { .. } | Check::PrepostoGrounds { .. } => {
                "Conferir os condutores vinculados e o motivo do preposto.".into()
            }
            Check::WaitingPeriod { .. } => {
                "Conferir o fim das permissões anteriores de quem pede.".into()
            }
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct VehicleRules {
    /// What a vehicle must have to serve, checked on inclusion and on the
    /// substitute of a substitution.
    pub requirements: Vec<VehicleRequirement>,
    pub inclusion: Option<AgeLimit>,
    pub substitution: Vec<SubstitutionRule>,
    pub replacement: Option<ReplacementRule>,
    pub transition: Option<TransitionRule>,
    pub inspection: Option<InspectionRule>,
    /// Inspections of their own kinds, each with its own interval.
    pub inspections: Vec<PeriodicInspection>,
    /// A delegation is served by a fleet (many vehicles, each put in
    /// service and withdrawn on its own) rather than by one vehicle that
    /// another replaces: the article that says so.
    pub fleet: Option<Citation>,
}

/// An inspection of its own kind, due `every` after the last one of that kind:
/// only for vehicles more than `older_than` years old, or only for an
/// adaptation not made in the factory.
#[derive(Debug, Clone)]
pub struct PeriodicInspection {
    pub kind: String,
    pub description: String,
    pub every: Period,
    pub older_than: Option<Quantity>,
    pub only_aftermarket_adaptation: bool,
    pub citation: Citation,
}

impl VehicleCheck {
    /// What the clerk records on the vehicle to show the check met.
    pub fn evidence(&self) -> String {
        match self {
            VehicleCheck::Doors { .. } => "Registrar no veículo o número de portas.".into(),
            VehicleCheck::MaxCapacity(_) => "Registrar no veículo a lotação.".into(),
            VehicleCheck::AirConditioning => {
                "Registrar nos equipamentos do veículo o ar-condicionado.".into()
            }
            VehicleCheck::Colour(colour) => format!("Registrar a cor do veículo ({colour})."),
            VehicleCheck::MinTrunkLitres(_) => {
                "Conferir a capacidade do porta-malas no documento do veículo.".into()
            }
            VehicleCheck::Insured => {
                "Conferir a apólice de seguro do veículo e dos passageiros.".into()
            }
            VehicleCheck::MinEngineCc(_) => "Conferir a cilindrada no documento do veículo.".into(),
            VehicleCheck::FourStroke => {
                "Conferir no documento do veículo o motor de quatro tempos.".into()
            }
            VehicleCheck::Category(list) => {
                format!(
                    "Conferir a categoria do veículo no CRLV ({}).",
                    list.join(" ou ")
                )
            }
            VehicleCheck::Document(name) => format!("Conferir o documento \"{name}\" do veículo."),
            VehicleCheck::Equipment { .. } => {
                "Registrar nos equipamentos do veículo os itens exigidos, com os nomes do catálogo."
                    .into()
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct VehicleRequirement {
    pub id: String,
    pub description: String,
    pub check: VehicleCheck,
    pub citation: Citation,
}

/// The checks the engine knows how to make on the facts of a vehicle.
#[derive(Debug, Clone)]
pub enum VehicleCheck {
    /// At least `min` doors, and at most `max` when given.
    Doors {
        min: Quantity,
        max: Option<Quantity>,
    },
    /// At most this many occupants, driver included.
    MaxCapacity(Quantity),
    AirConditioning,
    /// The body colour (lower case, e.g. "branca").
    Colour(String),
    /// Boot of at least this many litres.
    MinTrunkLitres(Quantity),
    /// Insured for the vehicle and passengers.
    Insured,
    /// Engine of at least this many cubic centimetres.
    MinEngineCc(Quantity),
    /// A four-stroke engine.
    FourStroke,
    /// The vehicle's category (automóvel, camioneta…) is one of these.
    Category(Vec<String>),
    /// Has this document (registration in the municipality…).
    Document(String),
    /// Has every item of `all_of` and, when `any_of` is not empty, one of it.
    Equipment {
        all_of: Vec<String>,
        any_of: Vec<String>,
    },
}

#[derive(Debug, Clone)]
pub struct AgeLimit {
    pub max_age: Quantity,
    pub citation: Citation,
}

/// Substituting a vehicle whose age is within [`replaced_min_age`, `replaced_max_age`].
#[derive(Debug, Clone)]
pub struct SubstitutionRule {
    pub replaced_min_age: Option<Quantity>,
    pub replaced_max_age: Option<Quantity>,
    pub max_age: Quantity,
    /// The substitute must be at least this many years newer.
    pub min_years_newer: Option<Quantity>,
    pub citation: Citation,
    /// True when the bounds are the product's reading, not the law's words.
    pub decree_default: Option<OpenTerm>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplaceBy {
    /// 31 December of the year the vehicle reaches the age.
    EndOfYear,
    /// The last business day of February of the following year.
    LastBusinessDayOfFebruaryNextYear,
}

#[derive(Debug, Clone)]
pub struct ReplacementRule {
    pub at_age: Quantity,
    pub by: ReplaceBy,
    /// An extension the authority may grant, with closer inspections.
    pub extension: Option<ReplacementExtension>,
    pub citation: Citation,
}

/// "The deadline may be extended by at most `years`, with an inspection every
/// `inspect_every`" (Teófilo Otoni art. 52, § 1º).
#[derive(Debug, Clone)]
pub struct ReplacementExtension {
    pub years: Quantity,
    pub inspect_every: Period,
    pub citation: Citation,
}

/// Vehicles older than `over_age` when the act came into force get `within` to go.
#[derive(Debug, Clone)]
pub struct TransitionRule {
    pub over_age: Quantity,
    pub within: Period,
    pub citation: Citation,
}

#[derive(Debug, Clone)]
pub struct InspectionRule {
    pub every: Period,
    /// A later interval: from `after` the vehicle's inclusion on (or from
    /// `from_age`), inspections come every `every` (Teófilo Otoni art. 60:
    /// yearly for two years, then every six months).
    pub then: Option<LaterInspections>,
    pub citation: Citation,
    /// Other articles the schedule rests on.
    pub see_also: Vec<Citation>,
}

#[derive(Debug, Clone)]
pub struct LaterInspections {
    pub after: Period,
    /// Also once the vehicle is this many years old by its year of
    /// manufacture, however recently it was included (Teófilo Otoni
    /// art. 60, parágrafo único: vehicles of 2 to 5 years, every six months).
    pub from_age: Option<u32>,
    pub every: Period,
    pub citation: Citation,
}

/// A holder's request to suspend the permit for a time (SMJ art. 20).
#[derive(Debug, Clone)]
pub struct SuspensionOnRequest {
    pub max_days: Quantity,
    /// How long one extension may be (at the authority's discretion).
    pub extension_days: Quantity,
    /// The article of the extension, when not the reserve's.
    pub extension_citation: Option<Citation>,
    pub reasons: Vec<SuspensionReason>,
    pub citation: Citation,
}

/// Intercity bus rules on the mean tariff coefficient, refunds, baggage and
/// indemnities (Amapá art. 21, 48, 49, 53).
#[derive(Debug, Clone)]
pub struct BusRules {
    /// The CTM is the mean of the lines' coefficients, semi-urban ones excluded.
    pub ctm: Citation,
    /// Refund or revalidation when asked at least this many hours ahead.
    pub refund: Cited<Quantity>,
    pub baggage: BaggageRule,
    pub indemnities: Vec<IndemnityRule>,
    /// One ticket per seat per trip.
    pub one_ticket_per_seat: Citation,
    /// Standing passengers only on semi-urban lines.
    pub standing_only_semi_urban: Citation,
    /// The share of the fares collected for the Poder delegante (supervision,
    /// terminals, inspection), in percent.
    pub supervision_percent: Cited<Quantity>,
    pub ticket_fields: TicketFields,
    /// The article under which a carrier asks to change how a line is
    /// operated (its schedule, sections, itinerary, service level).
    pub operation_changes: Option<Citation>,
    /// What the agency checks in the carriers' own statistics and ticket
    /// sales, when the rulebook says.
    pub compliance: Option<BusCompliance>,
    /// Charters and emergency services by authorization.
    pub charters: Option<CharterRules>,
    /// What a passenger's complaint about a trip is weighed by.
    pub passengers: Option<PassengerRules>,
}

crate::vocab::vocabulary! {
    /// What a passenger complains of about a trip.
    pub enum ClaimKind {
        TripDelay = "trip_delay",
        RefundRefused = "refund_refused",
        BaggageDamaged = "baggage_damaged",
        BaggageLost = "baggage_lost",
        ExcessBaggage = "excess_baggage",
        SeatSoldTwice = "seat_sold_twice",
    }
}

/// Passengers' complaints about a trip: per kind, the rights the law gives
/// and the infraction the facts may show; and the days a carrier has to
/// pay an indemnity for baggage, from the claim.
#[derive(Debug, Clone)]
pub struct PassengerRules {
    pub claims: Vec<ClaimRule>,
    pub indemnity_payment_days: Cited<Quantity>,
}

impl PassengerRules {
    /// The rule of a kind of complaint, when the rulebook gives it.
    pub fn rule(&self, kind: ClaimKind) -> Option<&ClaimRule> {
        self.claims.iter().find(|c| c.kind == kind)
    }
}

/// A kind of complaint: the articles that give the passenger the right,
/// and the infraction the carrier commits when the facts show a breach.
#[derive(Debug, Clone)]
pub struct ClaimRule {
    pub kind: ClaimKind,
    pub infraction: InfractionId,
    pub citations: Vec<Citation>,
}

/// The articles of the services by authorization: the kinds, the prior
/// authorization, the closed circuit, the seats (their terms are the
/// `continuous_charter` and `emergency_authorization` deadlines).
#[derive(Debug, Clone)]
pub struct CharterRules {
    pub prior: Citation,
    pub continuous: Citation,
    pub eventual: Citation,
    pub emergency: Citation,
    pub closed_circuit: Citation,
    pub seats: Citation,
    /// The bus carries a copy of the authorization.
    pub copy_on_board: Citation,
    /// The register of the carriers authorized, where the law keeps one
    /// (Amapá art. 28, § 4º): a charter is authorized only to a carrier
    /// registered on every day of the service.
    pub registration: Option<CarrierRegistrationRules>,
}

/// The register of the carriers authorized for special services.
#[derive(Debug, Clone)]
pub struct CarrierRegistrationRules {
    /// The Poder delegante keeps the register.
    pub register: Citation,
    /// The bus carries a copy of the carrier's registration on the trip.
    pub on_board: Citation,
    /// How long a registration lasts, from the day it is granted (a
    /// renewal: from the day after the one it renews ends), date to date.
    pub valid: Cited<Period>,
    /// The registration cancelled at once (misuse of an authorization).
    pub cancellation: Citation,
}

/// The findings the carriers' own data may show, each the infraction it is
/// and the article it breaks, and when the monthly statistics are due.
#[derive(Debug, Clone)]
pub struct BusCompliance {
    pub seat_sold_twice: FindingRule,
    pub over_capacity: FindingRule,
    pub ticket_fields: FindingRule,
    pub below_minimum_frequency: FindingRule,
    pub late_statistics: FindingRule,
    /// The day of the month after the one they cover that the statistics
    /// are due on.
    pub statistics_due_day: Cited<Quantity>,
    /// Statistics delivered more than this many days after they were due
    /// are late.
    pub late_after_days: Cited<Quantity>,
}

impl BusCompliance {
    /// The rule of a kind of finding.
    pub fn rule(&self, kind: FindingKind) -> &FindingRule {
        match kind {
            FindingKind::SeatSoldTwice => &self.seat_sold_twice,
            FindingKind::OverCapacity => &self.over_capacity,
            FindingKind::TicketFields => &self.ticket_fields,
            FindingKind::BelowMinimumFrequency => &self.below_minimum_frequency,
            FindingKind::LateStatistics => &self.late_statistics,
        }
    }
}

crate::vocab::vocabulary! {
    /// What must hold, besides the measure's minimum time, before a vehicle
    /// held on the spot is released.
    pub enum ReleaseCondition {
        /// The irregularity that caused it is corrected.
        FaultCorrected = "fault_corrected",
        /// The fines owed for the auto are paid.
        FinesPaid = "fines_paid",
        /// The expenses of the custody are paid.
        ExpensesPaid = "expenses_paid",
    }
}

crate::vocab::vocabulary! {
    /// An expense the owner of a vehicle held on the spot bears.
    pub enum ExpenseKind {
        /// The passengers' journey continued by another bus.
        ContinuationTransport = "continuation_transport",
        /// The passengers' food and lodging while the trip is interrupted.
        FoodLodging = "food_lodging",
        /// The vehicle's removal and its stay in the yard.
        RemovalStorage = "removal_storage",
    }
}

impl ReleaseCondition {
    pub fn portuguese(self) -> &'static str {
        match self {
            ReleaseCondition::FaultCorrected => "irregularidade sanada",
            ReleaseCondition::FinesPaid => "multas pagas",
            ReleaseCondition::ExpensesPaid => "despesas pagas",
        }
    }
}

impl ExpenseKind {
    pub fn portuguese(self) -> &'static str {
        match self {
            ExpenseKind::ContinuationTransport => "transporte dos passageiros por outro ônibus",
            ExpenseKind::FoodLodging => "alimentação e pousada dos passageiros",
            ExpenseKind::RemovalStorage => "remoção e estadia do veículo",
        }
    }
}

/// A measure's custody: the conditions of its release and the expenses
/// its owner bears, each with its article.
#[derive(Debug, Clone)]
pub struct CustodyRule {
    pub kind: SanctionKind,
    pub release: Vec<Cited<ReleaseCondition>>,
    pub expenses: Vec<Cited<ExpenseKind>>,
}

crate::vocab::vocabulary! {
    /// What the carriers' own data (monthly statistics and ticket sales) may
    /// show against the law: the kinds of a compliance finding.
    pub enum FindingKind {
        SeatSoldTwice = "seat_sold_twice",
        OverCapacity = "over_capacity",
        TicketFields = "ticket_fields",
        BelowMinimumFrequency = "below_minimum_frequency",
        LateStatistics = "late_statistics",
    }
}

/// A kind of finding: the infraction it is and the article it breaks.
#[derive(Debug, Clone)]
pub struct FindingRule {
    pub infraction: InfractionId,
    pub citation: Citation,
}

/// What a ticket must show, except the simplified tickets of semi-urban lines.
#[derive(Debug, Clone)]
pub struct TicketFields {
    pub names: Vec<String>,
    pub citation: Citation,
    pub simplified_on_semi_urban: Citation,
}

#[derive(Debug, Clone)]
pub struct BaggageRule {
    pub hold_kg: Quantity,
    pub hand_kg: Quantity,
    /// At most this percentage of the conventional fare per kilogram of excess.
    pub percent_per_kg: Quantity,
    pub citation: Citation,
    pub excess_citation: Citation,
}

#[derive(Debug, Clone)]
pub struct IndemnityRule {
    /// damage, loss
    pub kind: String,
    pub max: Cited<Amount>,
}

/// One ground of a set the law lists for a measure (Amapá art. 18, § 1º: the
/// causes of caducity; art. 23: the refusals of boarding).
#[derive(Debug, Clone)]
pub struct Ground {
    pub set: String,
    pub key: String,
    pub description: String,
    pub citation: Citation,
}

/// Something the law forbids doing with a permit (transfer, rental, renewal…).
#[derive(Debug, Clone)]
pub struct ForbiddenAct {
    pub act: String,
    pub description: String,
    pub citation: Citation,
}

/// How long the registration of a holder or a driver lasts: `valid` from its
/// issue, or until the CNH expires when that comes first.
#[derive(Debug, Clone)]
pub struct RegistrationRule {
    pub role: Applicant,
    pub valid: Period,
    pub until_license_expires: bool,
    pub citation: Citation,
}

/// Taxi and mototaxi stands (Canguçu art. 4º, 15, 16; Santa Maria de
/// Jetibá art. 28–29; Teófilo Otoni art. 23–26): each rule is the article
/// that states it. What a law does not provide is `None`, and the record
/// refuses it naming the law (a swap, a vacancy's draw, a holder's request).
#[derive(Debug, Clone)]
pub struct StandRules {
    /// The stands and their places set by the authority's act; a permit
    /// designated to one.
    pub citation: Citation,
    /// A holder moved to another stand by the authority, with its grounds.
    pub relocation: Citation,
    /// The holder is notified before the authority moves the stand and
    /// may answer within the rulebook's `stand_relocation_response`
    /// limit; the move waits for it to end (SMJ art. 28, § 1º).
    pub relocation_notice: Option<Citation>,
    /// A move the holder asks for: filed by protocol and authorized only
    /// after the authority's feasibility study (TO art. 26, parágrafo único).
    pub holder_request: Option<Citation>,
    /// A swap needs the consent of the class entity (each holder pays the
    /// `[[fees]]` whose event is `stand_swap`, when the law sets one).
    pub swap_consent: Option<Citation>,
    /// A vacancy is filled by public lottery.
    pub lottery: Option<Citation>,
    /// Any stand may be used to let passengers out.
    pub dropoff_anywhere: Option<Citation>,
    /// A taxi waits for passengers at its own fixed stand.
    pub own_stand: Citation,
    /// Not at another fixed stand (exactly one of this and `common_use`).
    pub other_stands: Option<Citation>,
    /// No stand is any group's own: every operator may wait at any stand
    /// (TO art. 23, § 1º).
    pub common_use: Option<Citation>,
    /// Free stands, open to every taxi of the town.
    pub free_stands: Option<Citation>,
    /// Provisional stands created for an event.
    pub event_stands: Option<Citation>,
    /// Taxis of other towns may not stop or wait at the fixed stands (SMJ
    /// art. 29).
    pub other_towns: Option<Citation>,
}

crate::vocab::vocabulary! {
    /// The procedure a law requires before new permits are given.
    pub enum CallProcedure {
        /// Credenciamento after a chamamento público (SMJ art. 2º, 6º).
        PublicCall = "chamamento_publico",
        /// A licitação (Canguçu art. 37; TO art. 1º; Amapá art. 10–11).
        Tender = "licitacao",
    }
}

impl CallProcedure {
    /// The procedure as the law and the edital name it.
    pub fn portuguese(self) -> &'static str {
        match self {
            CallProcedure::PublicCall => "chamamento público",
            CallProcedure::Tender => "licitação",
        }
    }
}

/// How new permits are given (`[public_call]`): the procedure with its
/// article, and how its applicants are judged.
#[derive(Debug, Clone)]
pub struct PublicCall {
    pub procedure: CallProcedure,
    pub citation: Citation,
    pub see_also: Vec<Citation>,
    pub judgement: Judgement,
}

/// How the applicants of a call are judged.
#[derive(Debug, Clone)]
pub enum Judgement {
    /// By the objective criteria the edital sets, each worth points per
    /// unit: the engine screens, ranks and allocates
    /// (`engine::public_call`).
    Criteria(CallRanking),
    /// By proposals (Amapá art. 11: the lowest fare, the best offer for the
    /// grant, or both): a bid the engine does not rank; the article.
    Bid(Citation),
}

/// A call judged by the edital's criteria.
#[derive(Debug, Clone)]
pub struct CallRanking {
    /// The article that leaves the criteria to the edital.
    pub citation: Citation,
    /// The article that makes the applicant prove each requirement: one
    /// not shown excludes, as one unmet does.
    pub proof: Citation,
    /// Ties on the edital's criteria go to a public draw (`engine::draw`).
    pub tie_break: TieBreak,
    /// The reserved shares of the cap an applicant may claim, with what
    /// they must prove to compete for them.
    pub shares: Vec<CallShare>,
}

/// The public draw that breaks a tie: the article it rests on, and whether
/// it is the product's default where the law is silent.
#[derive(Debug, Clone)]
pub struct TieBreak {
    pub citation: Citation,
    pub decree_default: Option<OpenTerm>,
}

/// A reserved share of the cap (`CapRule::reserved`, by `key`) as a call
/// offers it: the conditions an applicant proves to compete for it.
#[derive(Debug, Clone)]
pub struct CallShare {
    pub share: String,
    pub conditions: Vec<ShareCondition>,
}

/// What an applicant to a reserved share proves (SMJ art. 2º, § 5º: a
/// vehicle of their own, driven by them, adapted to their needs).
#[derive(Debug, Clone)]
pub struct ShareCondition {
    pub key: String,
    pub description: String,
    pub citation: Citation,
}

/// Days a vehicle is off the road (baixado, or not working at its stand): up to
/// the first band free of charge; from a band's `from_day` on, its infraction;
/// the days of an excuse do not count (Canguçu art. 36).
#[derive(Debug, Clone)]
pub struct DowntimeRule {
    pub free_citation: Citation,
    /// In increasing `from_day`.
    pub bands: Vec<DowntimeBand>,
    pub excuses: Vec<DowntimeExcuse>,
    pub citation: Citation,
}

#[derive(Debug, Clone)]
pub struct DowntimeBand {
    pub from_day: Quantity,
    pub infraction: InfractionId,
    /// The holder loses the fixed stand he was assigned.
    pub loses_stand: bool,
    pub citation: Citation,
}

#[derive(Debug, Clone)]
pub struct DowntimeExcuse {
    pub key: String,
    pub description: String,
    /// At most this many days of the excuse in a civil year (vacation).
    pub max_days_per_year: Option<Quantity>,
    pub citation: Citation,
}

/// "Up to `max` changes of this kind within `within`, save for the excused
/// ones" (SMJ art. 13, § 2º: two vehicle substitutions in two years; art. 22,
/// § 2º: two swaps of auxiliary a year).
#[derive(Debug, Clone)]
pub struct ChangeLimit {
    /// `driver_swap` or `vehicle_substitution`.
    pub change: String,
    pub max: Quantity,
    pub within: Period,
    /// Reasons that make a change not count, each with its article.
    pub excuses: Vec<SuspensionReason>,
    pub citation: Citation,
    pub decree_default: Option<OpenTerm>,
}

#[derive(Debug, Clone)]
pub struct SuspensionReason {
    pub key: String,
    pub description: String,
    pub citation: Citation,
}

/// How a taximeter fare is computed: bandeirada + km × the rate of the bandeira
/// in force + stopped hours × hora parada, less the passenger's discount. The
/// BRL values are parameters `tariff.bandeirada`, `tariff.km_bandeira_1`,
/// `tariff.km_bandeira_2`, `tariff.hora_parada` (set by decree).
#[derive(Debug, Clone)]
pub struct FareRule {
    /// The bandeira outside the windows.
    pub default_bandeira: u8,
    /// When the other bandeira applies.
    pub windows: Vec<FareWindow>,
    /// When `tariff.km_bandeira_2` is not given: bandeira 1's rate plus this
    /// percentage.
    pub bandeira_2_increase: Option<Cited<Quantity>>,
    pub discounts: Vec<FareDiscount>,
    /// The article that forbids charging extra for mobility equipment or a
    /// guide dog, when the law has one.
    pub no_extra_for_aids: Option<Citation>,
    pub citation: Citation,
}

/// Which days a fare window starts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DayKind {
    /// Monday to Friday, not a holiday.
    Weekday,
    Saturday,
    Sunday,
    Holiday,
}

/// From `from` on a day of `on` until `to` (on the next day when `next_day`).
#[derive(Debug, Clone)]
pub struct FareWindow {
    pub on: DayKind,
    pub from: chrono::NaiveTime,
    pub to: chrono::NaiveTime,
    pub next_day: bool,
    pub citation: Citation,
}

/// Who gets a discount on the fare.
#[derive(Debug, Clone)]
pub enum Beneficiary {
    AgeAtLeast(Quantity),
    Student,
    Disabled,
}

#[derive(Debug, Clone)]
pub struct FareDiscount {
    pub who: Beneficiary,
    pub percent: Quantity,
    pub citation: Citation,
}

/// A charge for a service of the department (a yearly management cost, a
/// second copy, a transfer).
#[derive(Debug, Clone)]
pub struct Fee {
    pub kind: String,
    pub description: String,
    pub amount: Cited<Amount>,
    /// Lower amounts by completed months of work (a transfer to a long-serving
    /// auxiliary).
    pub reductions: Vec<FeeReduction>,
    /// The event that charges it; `None`: a clerk charges it when the law
    /// says (a conversion of a suspension, a radio company's yearly cost).
    pub event: Option<FeeEvent>,
}

crate::vocab::vocabulary! {
    /// What makes a fee due: the record charges it when it happens.
    pub enum FeeEvent {
        /// A permit granted.
        Grant = "grant",
        /// A second copy of a document issued.
        SecondCopy = "second_copy",
        /// A driver registered as an auxiliary for the first time (a
        /// novice: no earlier registration in the jurisdiction).
        AuxiliaryRegistration = "auxiliary_registration",
        /// Two holders' swap of fixed stands approved: each pays it.
        StandSwap = "stand_swap",
    }
}

/// The amount for whoever worked from `from_months` to `to_months` (inclusive;
/// open when `None`) completed months.
#[derive(Debug, Clone)]
pub struct FeeReduction {
    pub from_months: u32,
    pub to_months: Option<u32>,
    pub amount: Cited<Amount>,
}

/// A transitional rule of the law's final articles: what it says of the
/// records in force on `on` (the day of publication or entry into force
/// the article names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transitional {
    pub on: NaiveDate,
    pub rule: TransitionalRule,
    /// What the article says, in Portuguese.
    pub doc: String,
    pub citation: Citation,
}

/// What a transitional rule says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TransitionalRule {
    /// Permits in force on `on` are valid `years` from that day (SMJ art. 64).
    PermitValidity { years: u32 },
    /// Permits in force on `on` keep the term of their contract, never
    /// extended (Amapá art. 72): the term must be known.
    PermitTermKept,
    /// Vehicles more than `older_than_years` old on `on` are replaced
    /// within `within_months` by one at most `replacement_max_years` old
    /// (SMJ art. 65).
    VehicleReplacement {
        older_than_years: u32,
        within_months: u32,
        replacement_max_years: u32,
    },
    /// Holders in force on `on` must do `duty` (in Portuguese) within the
    /// time (SMJ art. 66, Canguçu art. 28).
    HolderDuty { within: Within, duty: String },
    /// Points and penalties imposed before the law stay on the record
    /// (Teófilo Otoni art. 110).
    RecordKept,
}

/// A transitional time limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Within {
    Days(u32),
    Months(u32),
}
