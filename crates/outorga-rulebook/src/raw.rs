//! The rulebook files as written (TOML). Every struct refuses unknown fields; the
//! meaning of each field is documented in `docs/rulebook-format.md`.

use chrono::NaiveDate;
use rust_decimal::Decimal;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use std::collections::BTreeMap;
use std::fmt;

/// `jurisdiction.toml`
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JurisdictionFile {
    pub jurisdiction: RawJurisdiction,
    #[serde(default)]
    pub holidays: Vec<Spanned<RawHoliday>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawJurisdiction {
    pub id: Spanned<String>,
    pub name: String,
    pub state: Spanned<String>,
    /// IANA name, e.g. `America/Sao_Paulo`.
    pub time_zone: Spanned<String>,
    /// The organ that issues the papers, as it heads them.
    #[serde(default)]
    pub authority: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawHoliday {
    pub name: String,
    /// `MM-DD`, for a holiday on the same day every year.
    pub date: Option<String>,
    /// Days after Easter Sunday (negative: before).
    pub easter_offset: Option<i64>,
    pub from_year: Option<i32>,
    pub until_year: Option<i32>,
    pub source: String,
}

/// `catalog.toml`: groups and infractions (with their ladders) shared by the
/// rulebooks of a jurisdiction that name it.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CatalogFile {
    #[serde(default)]
    pub groups: Vec<Spanned<RawGroup>>,
    #[serde(default)]
    pub infractions: Vec<Spanned<RawInfraction>>,
}

/// `<service>.toml`
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RulebookFile {
    /// A catalog file in the same folder whose groups and infractions this
    /// rulebook also has (those of its services).
    pub catalog: Option<Spanned<String>>,
    pub act: RawAct,
    /// In a later version's file (`<service>@<valid-from>.toml`): the act
    /// that amended the law into this version.
    pub amendment: Option<Spanned<RawAmendment>>,
    #[serde(default)]
    pub parameters: BTreeMap<String, Spanned<RawParameter>>,
    #[serde(default)]
    pub units: BTreeMap<String, Spanned<RawUnit>>,
    #[serde(default)]
    pub groups: Vec<Spanned<RawGroup>>,
    #[serde(default)]
    pub infractions: Vec<Spanned<RawInfraction>>,
    pub liability: Spanned<RawLiability>,
    pub repeat: Option<Spanned<RawCount>>,
    #[serde(default)]
    pub sanction_rules: Vec<Spanned<RawSanctionRule>>,
    pub points: Option<Spanned<RawPoints>>,
    #[serde(default)]
    pub thresholds: Vec<Spanned<RawThreshold>>,
    pub process: Option<Spanned<RawProcess>>,
    pub procedure: Option<Spanned<RawProcedure>>,
    #[serde(default)]
    pub deadlines: Vec<Spanned<RawDeadline>>,
    pub fine_multiplier: Option<Spanned<RawFineMultiplier>>,
    #[serde(default)]
    pub late_payment: Vec<Spanned<RawLateTier>>,
    pub installments: Option<Spanned<RawInstallments>>,
    #[serde(default)]
    pub caps: Vec<Spanned<RawCap>>,
    #[serde(default)]
    pub requirements: Vec<Spanned<RawRequirement>>,
    #[serde(default)]
    pub vehicles: RawVehicles,
    pub permit_suspension: Option<Spanned<RawSuspension>>,
    pub permit_life: Option<Spanned<RawPermitLife>>,
    #[serde(default)]
    pub change_limits: Vec<Spanned<RawChangeLimit>>,
    pub downtime: Option<Spanned<RawDowntime>>,
    pub stands: Option<Spanned<RawStands>>,
    pub public_call: Option<Spanned<RawPublicCall>>,
    #[serde(default)]
    pub registrations: Vec<Spanned<RawRegistration>>,
    #[serde(default)]
    pub forbidden_acts: Vec<RawForbiddenAct>,
    #[serde(default)]
    pub grounds: Vec<RawGround>,
    pub bus: Option<Spanned<RawBus>>,
    pub fare: Option<Spanned<RawFare>>,
    #[serde(default)]
    pub fees: Vec<Spanned<RawFee>>,
    #[serde(default)]
    pub transitional: Vec<Spanned<RawTransitional>>,
}

/// `[[transitional]]`: a rule of the law's final articles on what was in
/// force on `on`; `kind` says which, and which fields it takes.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTransitional {
    pub kind: Spanned<String>,
    pub on: RawDate,
    pub doc: String,
    pub citation: Spanned<String>,
    pub years: Option<u32>,
    pub older_than_years: Option<u32>,
    pub within_days: Option<u32>,
    pub within_months: Option<u32>,
    pub replacement_max_years: Option<u32>,
    pub duty: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAct {
    pub name: String,
    pub number: String,
    pub date: RawDate,
    pub in_force: RawDate,
    #[schemars(schema_with = "crate::vocab_schema::services")]
    pub services: Vec<Spanned<String>>,
    /// The law's text as published, in the same folder (`lei.txt`): every
    /// citation must find its article in it.
    pub text: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAmendment {
    pub name: String,
    pub number: String,
    pub date: RawDate,
    /// The day this version is in force from: the date in the file's name.
    pub in_force: RawDate,
    pub summary: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawParameter {
    pub doc: String,
    pub citation: Spanned<String>,
    #[serde(default)]
    pub decree_default: RawDecreeDefault,
    /// A value in force for every date.
    pub value: Option<RawQuantity>,
    /// Values in force from a date on.
    #[serde(default)]
    pub values: Vec<RawDated>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDated {
    pub from: RawDate,
    pub value: RawQuantity,
    pub source: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawUnit {
    pub name: String,
    pub citation: Spanned<String>,
    #[serde(default)]
    pub values: Vec<RawDated>,
    /// The unit is the mean of the bus lines' tariff coefficients in force
    /// (Amapá art. 21): its value is worked out from the record, never set.
    pub from_lines: Option<Spanned<bool>>,
    /// The article saying an amount is converted at the value in force when
    /// it is paid (Amapá art. 68, parágrafo único), cited with what is owed.
    pub paid_at_value_of: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCited {
    pub value: RawQuantity,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAmount {
    pub unit: Spanned<String>,
    pub quantity: RawQuantity,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGroup {
    pub id: Spanned<String>,
    pub name: String,
    pub points: Option<RawCited>,
    pub fine: Option<RawAmount>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawInfraction {
    pub code: Spanned<String>,
    pub description: String,
    pub group: Option<Spanned<String>>,
    /// Committed outside any permit (clandestine transport).
    #[serde(default)]
    pub outside_permit: bool,
    /// Who commits it: `driver` (a condutor, holder or auxiliary) or `holder`.
    pub offender: Option<Spanned<String>>,
    /// Points of its own, whatever the group or outcome.
    pub points: Option<RawCited>,
    /// The services it exists in (default: all of the rulebook's).
    #[serde(default)]
    #[schemars(schema_with = "crate::vocab_schema::services")]
    pub services: Vec<Spanned<String>>,
    /// The ladder printed under the code: sanctions by incidence of this code.
    #[serde(default)]
    pub ladder: Vec<Spanned<RawLadderStep>>,
    /// Administrative measures applied at every incidence.
    #[serde(default)]
    pub measures: Vec<Spanned<RawSanction>>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLadderStep {
    /// Which offence of the code the step is for (as `[[sanction_rules]]`'s
    /// `offence`); `incidence`, its former name, still loads.
    #[serde(alias = "incidence")]
    #[schemars(schema_with = "crate::vocab_schema::offence")]
    pub offence: Spanned<String>,
    /// As `[[sanction_rules]]`'s `irregularity`; `cure`, its former name,
    /// still loads.
    #[serde(alias = "cure")]
    #[schemars(schema_with = "crate::vocab_schema::irregularity")]
    #[serde(default)]
    pub irregularity: Option<Spanned<String>>,
    /// Defaults to the infraction's citation.
    pub citation: Option<Spanned<String>>,
    pub sanctions: Vec<Spanned<RawSanction>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLiability {
    pub fine_payer: RawParty,
    pub citation: Spanned<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawParty {
    Offender,
    Holder,
}

#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawRole {
    Any,
    Holder,
    Auxiliary,
}

/// How prior infractions are counted.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCount {
    /// `code`, `group` or `codes` (with `codes = [...]`).
    pub by: Spanned<String>,
    #[serde(default)]
    pub codes: Vec<Spanned<String>>,
    pub window: RawPeriod,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPeriod {
    pub days: Option<RawQuantity>,
    pub months: Option<RawQuantity>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSanctionRule {
    #[serde(default)]
    pub groups: Vec<Spanned<String>>,
    #[serde(default)]
    pub codes: Vec<Spanned<String>>,
    /// Which offence of the code (or group) the rule is for, counted as
    /// `[repeat]` says: `any` (default), `first` (the first), `repeat` (a
    /// reincidência: the second or later), `N` (exactly the Nth), `N+` (the
    /// Nth and later), `every N`. `incidence`, its former name, still loads.
    #[serde(alias = "incidence")]
    #[schemars(schema_with = "crate::vocab_schema::offence")]
    #[serde(default)]
    pub offence: Option<Spanned<String>>,
    pub count: Option<Spanned<RawCount>>,
    /// For a law that first notifies an irregularity with time to correct
    /// it: `any` (default), `found` (the irregularity as found: the notice)
    /// or `not_corrected` (the notice's time ran out without the
    /// correction). `cure` (with `uncured`), its former spelling, still loads.
    #[serde(alias = "cure")]
    #[schemars(schema_with = "crate::vocab_schema::irregularity")]
    #[serde(default)]
    pub irregularity: Option<Spanned<String>>,
    pub sanctions: Vec<Spanned<RawSanction>>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSanction {
    #[schemars(schema_with = "crate::vocab_schema::sanction_kind")]
    pub kind: Spanned<String>,
    pub target: Option<RawParty>,
    pub when_offender: Option<RawRole>,
    /// For fines: a fixed amount; without it, the fine of the infraction's group.
    pub amount: Option<RawAmount>,
    pub days: Option<RawQuantity>,
    pub min_days: Option<RawQuantity>,
    pub max_days: Option<RawQuantity>,
    pub years: Option<RawQuantity>,
    pub months: Option<RawQuantity>,
    pub min_hours: Option<RawQuantity>,
    /// With `days`: they are business days.
    #[serde(default)]
    pub business_days: bool,
    pub document: Option<Spanned<String>>,
    #[serde(default)]
    pub places: Vec<Spanned<String>>,
    /// Multiplies the fine.
    pub factor: Option<RawQuantity>,
    pub scale: Option<RawScale>,
    pub citation: Option<Spanned<String>>,
    /// The deciding authority may impose it or not.
    #[serde(default)]
    pub optional: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawScale {
    /// Each prior of the same code within this period of the one after it
    /// multiplies by `factor`.
    pub chain: RawPeriod,
    pub factor: RawQuantity,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPoints {
    pub citation: Spanned<String>,
    /// `group` (default) or `outcome`.
    pub basis: Option<Spanned<String>>,
    pub warning: Option<RawCited>,
    #[serde(default)]
    pub windows_months: Vec<u32>,
    pub holder_share: Option<RawCited>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawThreshold {
    pub window_months: u32,
    pub over: RawQuantity,
    /// `anyone` (default), `auxiliary`, `holder` or `company`.
    pub applies_to: Option<Spanned<String>>,
    #[serde(default)]
    pub per_permit: bool,
    pub sanctions: Vec<Spanned<RawSanction>>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawProcess {
    #[schemars(schema_with = "crate::vocab_schema::sanction_kinds")]
    pub kinds: Vec<Spanned<String>>,
    pub citation: Spanned<String>,
}

/// `[procedure]`: the procedure of an auto.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawProcedure {
    /// The article that gives the right to a defense.
    pub citation: Spanned<String>,
    /// Who judges in the first instance.
    pub judge: RawInstance,
    /// The appeals, in order.
    #[serde(default)]
    pub appeals: Vec<Spanned<RawAppeal>>,
    /// An article that asks for a deposit to appeal (never demanded).
    pub deposit: Option<Spanned<String>>,
    /// Measures applied on the spot, from the auto on.
    #[serde(default)]
    pub at_once: Vec<RawMeasure>,
    /// The custody of a measure applied on the spot: its release
    /// conditions and the expenses its owner bears.
    #[serde(default)]
    pub custody: Vec<Spanned<RawCustody>>,
    #[serde(default)]
    pub choices: Vec<Spanned<RawChoice>>,
    #[serde(default)]
    pub reserved: Vec<Spanned<RawReserved>>,
}

/// An authority that decides the autos proposing `kinds`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReserved {
    pub key: Spanned<String>,
    pub by: String,
    #[schemars(schema_with = "crate::vocab_schema::sanction_kinds")]
    pub kinds: Vec<Spanned<String>>,
    pub citation: Spanned<String>,
}

/// Where the penalty is one of `instead_of`, the authority decides among
/// `options` (the proposal is one of them).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawChoice {
    pub instead_of: Vec<Spanned<String>>,
    pub options: Vec<RawOption>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOption {
    pub sanctions: Vec<Spanned<RawSanction>>,
    pub citation: Spanned<String>,
    /// The infraction code the decision is recorded as, whose points it
    /// puts on the record (Teófilo Otoni art. 85: `85-a`, 4 points).
    #[serde(default)]
    pub record_as: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawMeasure {
    #[schemars(schema_with = "crate::vocab_schema::measure_kind")]
    pub kind: Spanned<String>,
    pub citation: Spanned<String>,
}

/// A measure's custody.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCustody {
    #[schemars(schema_with = "crate::vocab_schema::sanction_kind")]
    pub kind: Spanned<String>,
    #[serde(default)]
    pub release: Vec<RawCondition>,
    #[serde(default)]
    pub expenses: Vec<RawMeasure>,
}

/// A condition of a release, with its article.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCondition {
    #[schemars(schema_with = "crate::vocab_schema::release_condition")]
    pub when: Spanned<String>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawInstance {
    pub by: String,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAppeal {
    pub to: String,
    /// The deadline kind that bounds it, from the notice of the decision.
    #[schemars(schema_with = "crate::vocab_schema::deadline_kind")]
    pub limit: Spanned<String>,
    pub citation: Spanned<String>,
    /// The penalties this body hears appeals against (none: all).
    #[serde(default)]
    #[schemars(schema_with = "crate::vocab_schema::sanction_kinds")]
    pub hears: Vec<Spanned<String>>,
    /// Who hears the appeal against the other penalties.
    pub otherwise: Option<Spanned<RawOtherwise>>,
}

/// The body that hears an appeal against the penalties `hears` leaves out.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOtherwise {
    pub to: String,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDeadline {
    #[schemars(schema_with = "crate::vocab_schema::deadline_kind")]
    pub kind: Spanned<String>,
    pub days: Option<RawQuantity>,
    pub months: Option<RawQuantity>,
    pub years: Option<RawQuantity>,
    /// A span of hours from a moment (a minimum notice).
    pub hours: Option<RawQuantity>,
    /// With `days`: `business_days`, `calendar_days` or
    /// `calendar_days_from_next_business_day`.
    pub counting: Option<Spanned<String>>,
    #[serde(default)]
    pub decree_default: RawDecreeDefault,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFineMultiplier {
    /// Incidences of the same code within this period that led to a fine.
    pub window: RawPeriod,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLateTier {
    pub after_days: RawQuantity,
    pub percent: RawQuantity,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawInstallments {
    pub max: RawQuantity,
    pub min_quantity: RawQuantity,
    pub first_due: RawPeriod,
    pub every: RawPeriod,
    /// The article that excludes fines decided in an administrative process.
    pub not_for_process_fines: Option<Spanned<String>>,
    /// A parcel unpaid longer than this makes the balance due at once.
    pub acceleration: Option<RawAcceleration>,
    /// The article that sets `min_quantity` (cited when a fine is below it).
    pub min_quantity_citation: Option<Spanned<String>>,
    /// The article that sets the parcels' due dates (cited with them).
    pub schedule_citation: Option<Spanned<String>>,
    pub citation: Spanned<String>,
}

/// `acceleration = { after = { days = 30 }, citation = "…" }`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAcceleration {
    pub after: RawPeriod,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCap {
    #[schemars(schema_with = "crate::vocab_schema::service")]
    pub service: Spanned<String>,
    /// Services whose permits count with `service`'s against the cap.
    #[serde(default)]
    #[schemars(schema_with = "crate::vocab_schema::services")]
    pub with: Vec<Spanned<String>>,
    pub inhabitants_per_permit: RawQuantity,
    #[serde(default)]
    pub keep_current: bool,
    pub citation: Spanned<String>,
    #[serde(default)]
    pub reserved: Vec<Spanned<RawQuota>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawQuota {
    pub key: String,
    pub percent: RawQuantity,
    /// The share is the permits of this service (one of the cap's).
    #[schemars(schema_with = "crate::vocab_schema::service")]
    #[serde(default)]
    pub service: Option<Spanned<String>>,
    /// The article that releases its unfilled places to the others.
    pub release: Option<Spanned<String>>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRequirement {
    pub id: Spanned<String>,
    pub description: String,
    pub applicants: Vec<RawApplicant>,
    pub check: RawCheck,
    pub citation: Spanned<String>,
    /// Other articles that state the same rule.
    #[serde(default)]
    pub see_also: Vec<Spanned<String>>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawApplicant {
    Holder,
    Driver,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RawCheck {
    NaturalPerson,
    LicenseCategory {
        any_of: Vec<String>,
        #[serde(default)]
        paid_activity_for: Vec<String>,
    },
    LicenseValid,
    LicenseNotSuspended,
    NoSuspensionWithin(RawPeriod),
    LicenseYears(RawQuantity),
    ResidentYears(RawQuantity),
    MinAge(RawQuantity),
    UnderAge(RawQuantity),
    MinEducation(String),
    NotPublicEmployee,
    NotTransportOperator,
    Document(String),
    NoInterdependence {
        percent: RawQuantity,
    },
    NoFinalConviction,
    NoOtherPermit,
    CompanyPermits(RawQuantity),
    CompanyShare(RawQuantity),
    NoOverdueDebts,
    DriversPerPermit {
        max: RawQuantity,
        #[serde(default)]
        companies_only: bool,
    },
    PrepostoGrounds {
        vacation_days: RawQuantity,
    },
    WaitingPeriod {
        after: String,
        period: RawPeriod,
    },
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawVehicles {
    #[serde(default)]
    pub requirements: Vec<Spanned<RawVehicleRequirement>>,
    pub inclusion: Option<Spanned<RawAgeLimit>>,
    #[serde(default)]
    pub substitution: Vec<Spanned<RawSubstitution>>,
    pub replacement: Option<Spanned<RawReplacement>>,
    pub transition: Option<Spanned<RawTransition>>,
    pub inspection: Option<Spanned<RawInspection>>,
    #[serde(default)]
    pub inspections: Vec<Spanned<RawPeriodicInspection>>,
    pub fleet: Option<RawFleet>,
}

/// A delegation served by a fleet.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFleet {
    pub citation: Spanned<String>,
}

/// An inspection of its own kind, besides the regular one (Canguçu art. 11,
/// VIII: NBR 14.040 every 2 years for vehicles over 5; art. 14, § 4º).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPeriodicInspection {
    pub kind: Spanned<String>,
    pub description: String,
    pub every: RawPeriod,
    pub older_than: Option<RawQuantity>,
    #[serde(default)]
    pub only_aftermarket_adaptation: bool,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawVehicleRequirement {
    pub id: Spanned<String>,
    pub description: String,
    pub check: RawVehicleCheck,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum RawVehicleCheck {
    Doors {
        min: RawQuantity,
        #[serde(default)]
        max: Option<RawQuantity>,
    },
    MaxCapacity(RawQuantity),
    AirConditioning,
    Colour(String),
    MinTrunkLitres(RawQuantity),
    Insured,
    MinEngineCc(RawQuantity),
    FourStroke,
    Category(Vec<String>),
    Document(String),
    Equipment {
        #[serde(default)]
        all_of: Vec<String>,
        #[serde(default)]
        any_of: Vec<String>,
    },
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAgeLimit {
    pub max_age: RawQuantity,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSubstitution {
    pub replaced_min_age: Option<RawQuantity>,
    #[serde(default)]
    pub decree_default: RawDecreeDefault,
    pub replaced_max_age: Option<RawQuantity>,
    pub max_age: RawQuantity,
    pub min_years_newer: Option<RawQuantity>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReplacement {
    pub at_age: RawQuantity,
    /// `end_of_year` or `last_business_day_of_february_next_year`.
    pub by: Spanned<String>,
    pub extension: Option<RawReplacementExtension>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReplacementExtension {
    pub years: RawQuantity,
    pub inspect_every: RawPeriod,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTransition {
    pub over_age: RawQuantity,
    pub within: RawPeriod,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawInspection {
    pub every: RawPeriod,
    pub then: Option<RawLaterInspections>,
    pub citation: Spanned<String>,
    #[serde(default)]
    pub see_also: Vec<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLaterInspections {
    /// Counted from the vehicle's inclusion.
    pub after: RawPeriod,
    /// Or from this age, by the year of manufacture.
    pub from_age: Option<u32>,
    pub every: RawPeriod,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStands {
    pub citation: Spanned<String>,
    pub relocation: Spanned<String>,
    /// The notice before a relocation; the rulebook then declares the
    /// `stand_relocation_response` deadline.
    pub relocation_notice: Option<Spanned<String>>,
    pub holder_request: Option<Spanned<String>>,
    pub swap_consent: Option<Spanned<String>>,
    pub lottery: Option<Spanned<String>>,
    pub dropoff_anywhere: Option<Spanned<String>>,
    pub own_stand: Spanned<String>,
    /// Exactly one of `other_stands` and `common_use`.
    pub other_stands: Option<Spanned<String>>,
    pub common_use: Option<Spanned<String>>,
    pub free_stands: Option<Spanned<String>>,
    pub event_stands: Option<Spanned<String>>,
    pub other_towns: Option<Spanned<String>>,
}

/// `[public_call]`: how new permits are given; exactly one of `criteria`
/// (the edital's criteria, ranked by the engine) or `bid` (the article that
/// judges proposals, which the engine does not rank).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPublicCall {
    /// `chamamento_publico` or `licitacao`.
    #[schemars(schema_with = "crate::vocab_schema::call_procedure")]
    pub procedure: Spanned<String>,
    pub citation: Spanned<String>,
    #[serde(default)]
    pub see_also: Vec<Spanned<String>>,
    pub criteria: Option<RawCallCriteria>,
    pub bid: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCallCriteria {
    pub citation: Spanned<String>,
    pub proof: Spanned<String>,
    pub tie_break: RawTieBreak,
    #[serde(default)]
    pub shares: Vec<Spanned<RawCallShare>>,
}

/// The public draw that breaks ties.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTieBreak {
    pub citation: Spanned<String>,
    #[serde(default)]
    pub decree_default: RawDecreeDefault,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCallShare {
    /// The key of a reserved share of the rulebook's cap.
    pub share: Spanned<String>,
    pub conditions: Vec<RawShareCondition>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawShareCondition {
    pub key: Spanned<String>,
    pub description: String,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBus {
    pub ctm: Spanned<String>,
    pub refund: RawCitedQuantity,
    pub baggage: RawBaggage,
    pub indemnities: Vec<RawIndemnity>,
    pub one_ticket_per_seat: Spanned<String>,
    pub standing_only_semi_urban: Spanned<String>,
    pub supervision_percent: RawCitedQuantity,
    pub ticket_fields: RawTicketFields,
    /// The article under which a carrier asks to change a line's operation.
    pub operation_changes: Option<Spanned<String>>,
    pub compliance: Option<RawCompliance>,
    pub charters: Option<RawCharters>,
    pub passengers: Option<RawPassengers>,
}

/// What passengers' complaints about a trip are weighed by.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPassengers {
    pub claims: Vec<RawClaim>,
    pub indemnity_payment_days: RawCitedQuantity,
}

/// A kind of complaint: the articles of the right, the infraction breached.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawClaim {
    #[schemars(schema_with = "crate::vocab_schema::claim_kind")]
    pub kind: Spanned<String>,
    pub infraction: Spanned<String>,
    pub citations: Vec<Spanned<String>>,
}

/// The articles of the services by authorization.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCharters {
    pub prior: Spanned<String>,
    pub continuous: Spanned<String>,
    pub eventual: Spanned<String>,
    pub emergency: Spanned<String>,
    pub closed_circuit: Spanned<String>,
    pub seats: Spanned<String>,
    pub copy_on_board: Spanned<String>,
    pub registration: Option<RawCarrierRegistration>,
}

/// The register of the carriers authorized for special services.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCarrierRegistration {
    pub register: Spanned<String>,
    pub on_board: Spanned<String>,
    /// `{ months = N }` or `{ days = N }`, a number or a parameter.
    pub valid: RawPeriod,
    pub valid_citation: Spanned<String>,
    pub cancellation: Spanned<String>,
}

/// What the agency checks in the carriers' own data.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCompliance {
    pub seat_sold_twice: RawFinding,
    pub over_capacity: RawFinding,
    pub ticket_fields: RawFinding,
    pub below_minimum_frequency: RawFinding,
    pub late_statistics: RawFinding,
    pub statistics_due_day: RawCitedQuantity,
    pub late_after_days: RawCitedQuantity,
}

/// A kind of finding: the infraction it is, the article it breaks.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFinding {
    pub infraction: Spanned<String>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTicketFields {
    pub names: Vec<String>,
    pub citation: Spanned<String>,
    pub simplified_on_semi_urban: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawCitedQuantity {
    pub value: RawQuantity,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBaggage {
    pub hold_kg: RawQuantity,
    pub hand_kg: RawQuantity,
    pub percent_per_kg: RawQuantity,
    pub citation: Spanned<String>,
    pub excess_citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawIndemnity {
    pub kind: String,
    pub max: RawAmount,
}

/// One of a law's listed grounds for a measure (refusal of boarding, caducity…).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawGround {
    pub set: Spanned<String>,
    pub key: Spanned<String>,
    pub description: String,
    pub citation: Spanned<String>,
}

/// Something the law forbids doing with a permit (Canguçu art. 30, 37, 38).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawForbiddenAct {
    pub act: Spanned<String>,
    pub description: String,
    pub citation: Spanned<String>,
}

/// How long a registration lasts (Canguçu art. 8º, §§ 2º–3º).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRegistration {
    pub role: RawApplicant,
    pub valid: RawPeriod,
    /// Ends earlier when the CNH expires first.
    #[serde(default)]
    pub until_license_expires: bool,
    pub citation: Spanned<String>,
}

/// How long a vehicle may be off the road, and what a longer time is
/// (Canguçu art. 36).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDowntime {
    /// The article that makes the days up to the first band free of charge.
    pub free_citation: Spanned<String>,
    pub bands: Vec<RawDowntimeBand>,
    #[serde(default)]
    pub excuses: Vec<RawDowntimeExcuse>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDowntimeBand {
    pub from_day: RawQuantity,
    pub infraction: Spanned<String>,
    #[serde(default)]
    pub loses_stand: bool,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDowntimeExcuse {
    pub key: Spanned<String>,
    pub description: String,
    pub max_days_per_year: Option<RawQuantity>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSuspension {
    pub max_days: RawQuantity,
    pub extension_days: RawQuantity,
    pub extension_citation: Option<Spanned<String>>,
    pub citation: Spanned<String>,
    pub reasons: Vec<RawReason>,
}

/// `[permit_life]`: how a permit ends, is renewed and may change hands.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawPermitLife {
    pub citation: Spanned<String>,
    pub ends: Vec<Spanned<RawEnd>>,
    pub renewal: Option<RawRenewal>,
    pub transfer: RawTransfer,
    pub earlier_from_act: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawEnd {
    #[schemars(schema_with = "crate::vocab_schema::end_ground")]
    pub ground: Spanned<String>,
    /// `term`, `notice` or `reserve`: what must have run out first.
    pub after: Option<Spanned<String>>,
    /// For `age_limit`: the age.
    pub age: Option<u32>,
    /// `person` or `company`: the only kind of holder the ground reaches.
    pub holder: Option<Spanned<String>>,
    /// Caducity grounds that need no notice.
    #[serde(default)]
    pub direct: Vec<Spanned<String>>,
    /// The article that offers the vacancy to the runners-up.
    pub vacancy: Option<Spanned<String>>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawRenewal {
    pub max: Option<u32>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTransfer {
    /// `forbidden` or `with_consent`.
    pub rule: Spanned<String>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawChangeLimit {
    pub change: Spanned<String>,
    pub max: RawQuantity,
    pub within: RawPeriod,
    #[serde(default)]
    pub excuses: Vec<RawReason>,
    pub citation: Spanned<String>,
    #[serde(default)]
    pub decree_default: RawDecreeDefault,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawReason {
    pub key: String,
    pub description: String,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFee {
    pub kind: Spanned<String>,
    pub description: String,
    pub unit: Spanned<String>,
    pub quantity: RawQuantity,
    pub citation: Spanned<String>,
    #[serde(default)]
    pub reductions: Vec<RawFeeReduction>,
    /// The event that charges it (`grant`, `second_copy`, …).
    #[schemars(schema_with = "crate::vocab_schema::fee_event")]
    #[serde(default)]
    pub event: Option<Spanned<String>>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFeeReduction {
    pub from_months: u32,
    pub to_months: Option<u32>,
    pub quantity: RawQuantity,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFare {
    /// The bandeira outside the windows (1 or 2).
    pub default_bandeira: u8,
    #[serde(default)]
    pub windows: Vec<Spanned<RawFareWindow>>,
    pub bandeira_2_increase: Option<RawCited>,
    #[serde(default)]
    pub discounts: Vec<Spanned<RawDiscount>>,
    /// The article that forbids charging extra for mobility aids or a guide dog.
    pub no_extra_for_aids: Option<Spanned<String>>,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawFareWindow {
    /// weekday, saturday, sunday or holiday.
    pub on: Spanned<String>,
    /// `HH:MM`
    pub from: Spanned<String>,
    pub to: Spanned<String>,
    #[serde(default)]
    pub next_day: bool,
    pub citation: Spanned<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawDiscount {
    /// age_at_least (with `age`), student or disabled.
    pub who: Spanned<String>,
    pub age: Option<RawQuantity>,
    pub percent: RawQuantity,
    pub citation: Spanned<String>,
}

/// A number (integer, or decimal written as a string) or `{ param = "name" }`.
#[derive(Debug, Clone, PartialEq)]
pub enum RawQuantity {
    Fixed(Decimal),
    Param(String),
}

impl<'de> Deserialize<'de> for RawQuantity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct QuantityVisitor;
        impl<'de> Visitor<'de> for QuantityVisitor {
            type Value = RawQuantity;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "an integer, a decimal written as a string (\"0.5\"), or { param = \"name\" }",
                )
            }

            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RawQuantity, E> {
                Ok(RawQuantity::Fixed(Decimal::from(v)))
            }

            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RawQuantity, E> {
                Ok(RawQuantity::Fixed(Decimal::from(v)))
            }

            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RawQuantity, E> {
                Err(E::custom(format!(
                    "{v} is a floating-point number; write decimals as strings (\"{v}\") so they stay exact"
                )))
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<RawQuantity, E> {
                v.trim()
                    .parse::<Decimal>()
                    .map(RawQuantity::Fixed)
                    .map_err(|_| E::custom(format!("\"{v}\" is not a decimal number")))
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawQuantity, A::Error> {
                let mut name = None;
                while let Some(key) = map.next_key::<String>()? {
                    if key != "param" || name.is_some() {
                        return Err(de::Error::custom(format!(
                            "unknown key `{key}`: a parameter reference is {{ param = \"name\" }}"
                        )));
                    }
                    name = Some(map.next_value::<String>()?);
                }
                name.map(RawQuantity::Param)
                    .ok_or_else(|| de::Error::custom("a parameter reference needs `param`"))
            }
        }
        deserializer.deserialize_any(QuantityVisitor)
    }
}

/// A TOML local date (`2024-08-01`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawDate(pub NaiveDate);

impl<'de> Deserialize<'de> for RawDate {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let datetime = toml::value::Datetime::deserialize(deserializer)?;
        match (datetime.date, datetime.time, datetime.offset) {
            (Some(date), None, None) => NaiveDate::from_ymd_opt(
                i32::from(date.year),
                u32::from(date.month),
                u32::from(date.day),
            )
            .map(RawDate)
            .ok_or_else(|| de::Error::custom(format!("{datetime} is not a calendar date"))),
            _ => Err(de::Error::custom(format!(
                "{datetime} is not a plain date; write YYYY-MM-DD"
            ))),
        }
    }
}

/// A value with the place in its file it was read from (its span), for
/// errors that name the line; in the schema, just the value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spanned<T>(toml::Spanned<T>);

impl<T> Spanned<T> {
    pub fn get_ref(&self) -> &T {
        self.0.get_ref()
    }

    pub fn span(&self) -> std::ops::Range<usize> {
        self.0.span()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Spanned<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        toml::Spanned::<T>::deserialize(deserializer).map(Spanned)
    }
}

impl<T: JsonSchema> JsonSchema for Spanned<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }

    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

impl JsonSchema for RawQuantity {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Quantity".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A number: an integer, a decimal written as a string (\"0.5\"), or { param = \"name\" } naming a parameter.",
            "oneOf": [
                { "type": "integer" },
                { "type": "string", "pattern": "^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$" },
                {
                    "type": "object",
                    "properties": { "param": { "type": "string" } },
                    "required": ["param"],
                    "additionalProperties": false
                }
            ]
        })
    }
}

impl JsonSchema for RawDate {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Date".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A TOML local date: 2024-08-01.",
            "type": "string",
            "format": "date"
        })
    }
}

/// `decree_default = { by = "decreto", basis = "Art. 67" }`: a value the
/// law leaves open, taken by default, with who fills it (a decree, a
/// portaria, the edital) and the article that leaves it to them.
#[derive(Debug, Default)]
pub struct RawDecreeDefault(pub Option<RawOpenTerm>);

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawOpenTerm {
    /// Who fills the open term: `decreto`, `portaria` or `edital`.
    #[schemars(schema_with = "crate::vocab_schema::filled_by")]
    pub by: Spanned<String>,
    /// The article of the law that leaves it open or delegates it.
    pub basis: Spanned<String>,
}

impl<'de> Deserialize<'de> for RawDecreeDefault {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct OpenTermVisitor;
        impl<'de> Visitor<'de> for OpenTermVisitor {
            type Value = RawDecreeDefault;

            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(OPEN_TERM_FORM)
            }

            fn visit_bool<E: de::Error>(self, v: bool) -> Result<RawDecreeDefault, E> {
                if v {
                    Err(E::custom(format!(
                        "say who fills this open term and which article leaves it open: {OPEN_TERM_FORM}"
                    )))
                } else {
                    Ok(RawDecreeDefault(None))
                }
            }

            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<RawDecreeDefault, A::Error> {
                RawOpenTerm::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|term| RawDecreeDefault(Some(term)))
            }
        }
        deserializer.deserialize_any(OpenTermVisitor)
    }
}

const OPEN_TERM_FORM: &str =
    "decree_default = { by = \"decreto\" | \"portaria\" | \"edital\", basis = \"Art. N\" }";

impl JsonSchema for RawDecreeDefault {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        RawOpenTerm::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        RawOpenTerm::json_schema(generator)
    }
}
