//! A public call for new permits in the record (`engine::public_call`):
//! the edital — its act, the places it offers (what the cap leaves,
//! computed when it opens, the reserved shares first: SMJ art. 2º, § 4º;
//! Canguçu art. 3º, § 1º), the application period, the documents it asks
//! and its ranking criteria, each with its item — and the applications
//! received in the period. What follows the period (screening, the tie
//! draw, the provisional and final results, appeals, grants) is
//! `call_results`. Every change audited; refused, nothing written.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, next_number};
use crate::dates::{day, optional_day};
use crate::draws::{AppealStatus, Draw};
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::permits::{bound, cap_permits, counted};
use crate::text::{TextKind, required};
use crate::world::{self, Scope};
use crate::{Store, StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use outorga_core::Context;
use outorga_core::engine::cap::occupancy;
use outorga_core::engine::public_call::{
    self as engine_call, Application, Claim, Criterion, Document, Edital,
};
use outorga_core::facts::Facts;
use outorga_core::model::{Quota, Rulebook, Service};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use sqlx::Row;

worded! {
    /// Where a public call stands.
    pub enum CallStatus {
        Open = "open" => "inscrições abertas",
        Screened = "screened" => "inscrições encerradas e triadas",
        Provisional = "provisional" => "resultado provisório publicado",
        Final = "final" => "resultado final publicado",
    }
}

/// A ranking criterion of the edital: points per unit shown, up to a
/// maximum, with the edital's item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallCriterion {
    pub key: String,
    pub description: String,
    pub points_per_unit: Decimal,
    pub max: Option<Decimal>,
    pub citation: String,
}

/// A document the edital asks of every applicant, with its item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallDocument {
    pub name: String,
    pub citation: String,
}

/// The places a call offers: open competition, and per reserved share.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallPlaces {
    pub open: u64,
    pub reserved: Vec<(String, u64)>,
    pub articles: Vec<String>,
}

/// An edital to record.
#[derive(Debug, Clone)]
pub struct CallInput {
    pub service: String,
    /// The act that publishes it ("Edital de Chamamento Público nº 1/2026").
    pub act: String,
    pub offered: u32,
    pub opens_on: NaiveDate,
    pub closes_on: NaiveDate,
    pub criteria: Vec<CallCriterion>,
    pub tie_breaks: Vec<String>,
    pub documents: Vec<CallDocument>,
}

/// What an applicant shows: the quantity for each criterion, the edital's
/// documents presented, the reserved share claimed and its conditions
/// proved.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shown {
    pub quantities: Vec<(String, Decimal)>,
    pub documents: Vec<String>,
    pub claim: Option<String>,
    pub proved: Vec<String>,
}

/// An application to record: the person (CPF or CNPJ) and what they show.
#[derive(Debug, Clone)]
pub struct ApplicationInput {
    pub who: String,
    pub shown: Shown,
}

/// A requirement unmet or not shown, as published.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Missing {
    pub key: String,
    pub description: String,
    pub articles: Vec<String>,
}

/// A criterion's points for an applicant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriterionPoints {
    pub criterion: String,
    pub quantity: Decimal,
    pub points: Decimal,
}

/// A claim to a reserved share as screened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimResult {
    pub share: String,
    pub admitted: bool,
    pub missing: Vec<Missing>,
}

/// An application as the engine screened it, on `on`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreeningResult {
    pub on: NaiveDate,
    pub eligible: bool,
    pub unmet: Vec<Missing>,
    pub not_shown: Vec<Missing>,
    pub score: Decimal,
    pub points: Vec<CriterionPoints>,
    pub claim: Option<ClaimResult>,
}

/// The kind of place a result gives an applicant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallPlace {
    Reserved(String),
    Open,
    /// A reserved share's place released to open competition (SMJ art. 2º,
    /// § 6º).
    Released(String),
}

impl CallPlace {
    /// The spelling in the record and the API.
    pub fn name(&self) -> String {
        match self {
            CallPlace::Reserved(share) => format!("reserved:{share}"),
            CallPlace::Open => "open".into(),
            CallPlace::Released(share) => format!("released:{share}"),
        }
    }

    pub fn parse(text: &str) -> Option<CallPlace> {
        match text.split_once(':') {
            None if text == "open" => Some(CallPlace::Open),
            Some(("reserved", share)) => Some(CallPlace::Reserved(share.into())),
            Some(("released", share)) => Some(CallPlace::Released(share.into())),
            _ => None,
        }
    }

    /// As people read it.
    pub fn portuguese(&self) -> String {
        match self {
            CallPlace::Reserved(share) => format!("vaga reservada ({})", Quota::label(share)),
            CallPlace::Open => "ampla concorrência".into(),
            CallPlace::Released(share) => format!(
                "vaga da reserva ({}) liberada à ampla concorrência",
                Quota::label(share)
            ),
        }
    }

    /// The share a grant of this place is made under.
    pub fn quota(&self) -> Option<&str> {
        match self {
            CallPlace::Reserved(share) => Some(share),
            CallPlace::Open | CallPlace::Released(_) => None,
        }
    }
}

/// An application as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallApplication {
    pub seq: i64,
    /// What the published lists and a tie draw's tickets read.
    pub label: String,
    pub who: String,
    pub name: String,
    pub applied_on: NaiveDate,
    pub shown: Shown,
    pub screening: Option<ScreeningResult>,
    /// The ranking position of the eligible (1 the first).
    pub position: Option<u32>,
    pub place: Option<CallPlace>,
    /// Its turn among the result's grants (1 the first).
    pub place_order: Option<u32>,
    pub permit: Option<(String, i64)>,
    pub granted_on: Option<NaiveDate>,
}

/// An appeal against a call's provisional result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallAppeal {
    pub seq: i64,
    pub application: i64,
    pub filed_on: NaiveDate,
    pub grounds: String,
    pub status: AppealStatus,
    pub decided_on: Option<NaiveDate>,
    pub decision: Option<String>,
    pub decided_by: Option<String>,
    /// What a granted appeal corrected in the application.
    pub amendment: Option<Shown>,
}

/// The places a published result left unfilled: each share's places
/// released to open competition or vacant (with the article), and the
/// open places no one was left to fill.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub released: Vec<(String, u64, String)>,
    pub vacant: Vec<(String, u64, String)>,
    pub open_vacant: u64,
    pub articles: Vec<String>,
}

/// A public call as recorded, with its applications, appeals and tie
/// draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub jurisdiction: String,
    pub year: i32,
    pub number: i64,
    pub service: String,
    pub rulebook: String,
    pub act: String,
    pub offered: u32,
    pub places: CallPlaces,
    pub opens_on: NaiveDate,
    pub closes_on: NaiveDate,
    pub criteria: Vec<CallCriterion>,
    pub tie_breaks: Vec<String>,
    pub documents: Vec<CallDocument>,
    pub status: CallStatus,
    pub screened_on: Option<NaiveDate>,
    pub provisional_on: Option<NaiveDate>,
    pub appeal_until: Option<NaiveDate>,
    pub final_on: Option<NaiveDate>,
    pub outcome: Option<Outcome>,
    pub articles: Vec<String>,
    pub recorded_by: String,
    pub applications: Vec<CallApplication>,
    pub appeals: Vec<CallAppeal>,
    pub draws: Vec<Draw>,
}

impl Call {
    /// Its number as people read it ("1/2026").
    pub fn label(&self) -> String {
        format!("{}/{}", self.number, self.year)
    }

    /// What a tie draw of this call names as its subject.
    pub fn subject(&self) -> String {
        format!("call:{}:{}", self.year, self.number)
    }

    /// The edital as the engine reads it.
    pub fn edital(&self) -> Edital<'_> {
        Edital {
            criteria: self
                .criteria
                .iter()
                .map(|c| Criterion {
                    key: &c.key,
                    description: &c.description,
                    points_per_unit: c.points_per_unit,
                    max: c.max,
                    citation: &c.citation,
                })
                .collect(),
            tie_breaks: self.tie_breaks.iter().map(String::as_str).collect(),
            documents: self
                .documents
                .iter()
                .map(|d| Document {
                    name: &d.name,
                    citation: &d.citation,
                })
                .collect(),
        }
    }

    /// The applications in ranking order (the ranked ones).
    pub fn ranking(&self) -> Vec<&CallApplication> {
        let mut ranked: Vec<&CallApplication> = self
            .applications
            .iter()
            .filter(|a| a.position.is_some())
            .collect();
        ranked.sort_by_key(|a| a.position);
        ranked
    }

    /// The result's grants in their turn.
    pub fn grants(&self) -> Vec<&CallApplication> {
        let mut placed: Vec<&CallApplication> = self
            .applications
            .iter()
            .filter(|a| a.place_order.is_some())
            .collect();
        placed.sort_by_key(|a| a.place_order);
        placed
    }
}

/// An application as the engine reads it: `shown` for `person`.
pub(crate) fn engine_application<'a>(
    label: &'a str,
    person: outorga_core::facts::PersonId,
    shown: &'a Shown,
) -> Application<'a> {
    Application {
        name: label,
        person,
        quantities: shown
            .quantities
            .iter()
            .map(|(k, q)| (k.as_str(), *q))
            .collect(),
        documents: shown.documents.iter().map(String::as_str).collect(),
        claim: shown.claim.as_deref().map(|share| Claim {
            share,
            proved: shown.proved.iter().map(String::as_str).collect(),
        }),
    }
}

/// The applicants `people` as the engine knows them on `on` (every permit
/// of the jurisdiction counted: one permit per person).
pub(crate) async fn world_of(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    people: &[&str],
    on: NaiveDate,
) -> Result<world::World, StoreError> {
    let scope = Scope {
        all_permits: true,
        people,
        records_only: false,
    };
    world::load(tx, ctx, jurisdiction, scope, on).await
}

/// Screens `applications` (label, who, shown) of `call` on `on`: each
/// one's result, in the order given.
pub(crate) async fn screen(
    tx: &mut Tx,
    ctx: &Context<'_>,
    call: &Call,
    applications: &[(&str, &str, &Shown)],
    on: NaiveDate,
) -> Result<Vec<ScreeningResult>, StoreError> {
    let service = service_of(call)?;
    let people: Vec<&str> = applications.iter().map(|(_, who, _)| *who).collect();
    let world = world_of(tx, ctx, &call.jurisdiction, &people, on).await?;
    let engine_applications = applications
        .iter()
        .map(|(label, who, shown)| {
            let person = world.person(who).ok_or_else(|| {
                StoreError::NotFound(format!(
                    "{} não está cadastrado em {}",
                    crate::words::document(who),
                    call.jurisdiction
                ))
            })?;
            Ok(engine_application(label, person, shown))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let edital = call.edital();
    let screening = engine_call::screen(
        ctx,
        &world.facts,
        service,
        &edital,
        &engine_applications,
        on,
    )
    .map_err(refusal("inscricao"))?;
    let missing = |findings: &[outorga_core::engine::assessment::Finding<'_>]| -> Vec<Missing> {
        findings
            .iter()
            .map(|f| Missing {
                key: f.requirement.to_string(),
                description: f.description.to_string(),
                articles: crate::articles(&f.citations),
            })
            .collect()
    };
    Ok(screening
        .applicants
        .iter()
        .map(|a| ScreeningResult {
            on,
            eligible: a.eligible,
            unmet: missing(&a.unmet),
            not_shown: missing(&a.not_shown),
            score: a.score,
            points: a
                .points
                .iter()
                .map(|p| CriterionPoints {
                    criterion: p.criterion.to_string(),
                    quantity: p.quantity,
                    points: p.points,
                })
                .collect(),
            claim: a.claim.as_ref().map(|c| ClaimResult {
                share: c.share.to_string(),
                admitted: c.admitted,
                missing: missing(&c.missing),
            }),
        })
        .collect())
}

/// The service of the call.
pub(crate) fn service_of(call: &Call) -> Result<Service, StoreError> {
    Service::parse(&call.service)
        .ok_or_else(|| StoreError::Corrupt(format!("call service {}", call.service)))
}

const COLUMNS: &str = "jurisdiction, year, number, service, rulebook, act, offered, places, \
     opens_on, closes_on, criteria, tie_breaks, documents, status, screened_on, provisional_on, \
     appeal_until, final_on, outcome, citations, recorded_by";

const LISTED: List = List {
    name: "calls",
    table: "calls",
    columns: COLUMNS,
    key: &[("year", KeyKind::Int), ("number", KeyKind::Int)],
    descending: true,
};

fn json<T: serde::de::DeserializeOwned>(value: &str, what: &str) -> Result<T, StoreError> {
    serde_json::from_str(value).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

/// `value` as the JSON a column keeps.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T, what: &str) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(format!("{what}: {e}")))
}

fn call_of(row: &sqlx::any::AnyRow) -> Result<Call, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let year: i64 = row.try_get("year")?;
    let offered: i64 = row.try_get("offered")?;
    let status = text("status")?;
    let outcome: Option<String> = row.try_get("outcome")?;
    Ok(Call {
        jurisdiction: text("jurisdiction")?,
        year: i32::try_from(year).map_err(|_| StoreError::Corrupt(format!("call year {year}")))?,
        number: row.try_get("number")?,
        service: text("service")?,
        rulebook: text("rulebook")?,
        act: text("act")?,
        offered: u32::try_from(offered).unwrap_or(0),
        places: json(&text("places")?, "call places")?,
        opens_on: day(&text("opens_on")?)?,
        closes_on: day(&text("closes_on")?)?,
        criteria: json(&text("criteria")?, "call criteria")?,
        tie_breaks: json(&text("tie_breaks")?, "call tie breaks")?,
        documents: json(&text("documents")?, "call documents")?,
        status: CallStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("call status {status}")))?,
        screened_on: optional_day(row, "screened_on")?,
        provisional_on: optional_day(row, "provisional_on")?,
        appeal_until: optional_day(row, "appeal_until")?,
        final_on: optional_day(row, "final_on")?,
        outcome: outcome
            .as_deref()
            .map(|o| json(o, "call outcome"))
            .transpose()?,
        articles: json(&text("citations")?, "call citations")?,
        recorded_by: text("recorded_by")?,
        applications: Vec::new(),
        appeals: Vec::new(),
        draws: Vec::new(),
    })
}

fn application_of(row: &sqlx::any::AnyRow) -> Result<CallApplication, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let claim: Option<String> = row.try_get("claim")?;
    let screening: Option<String> = row.try_get("screening")?;
    let position: Option<i64> = row.try_get("position")?;
    let place: Option<String> = row.try_get("place")?;
    let place_order: Option<i64> = row.try_get("place_order")?;
    let service: Option<String> = row.try_get("permit_service")?;
    let permit: Option<i64> = row.try_get("permit_number")?;
    Ok(CallApplication {
        seq: row.try_get("seq")?,
        label: text("label")?,
        who: text("who")?,
        name: text("name")?,
        applied_on: day(&text("applied_on")?)?,
        shown: Shown {
            quantities: json(&text("quantities")?, "application quantities")?,
            documents: json(&text("documents")?, "application documents")?,
            claim,
            proved: json(&text("proved")?, "application proved")?,
        },
        screening: screening
            .as_deref()
            .map(|s| json(s, "application screening"))
            .transpose()?,
        position: position.and_then(|p| u32::try_from(p).ok()),
        place: place
            .as_deref()
            .map(|p| CallPlace::parse(p).ok_or_else(|| StoreError::Corrupt(format!("place {p}"))))
            .transpose()?,
        place_order: place_order.and_then(|p| u32::try_from(p).ok()),
        permit: service.zip(permit),
        granted_on: optional_day(row, "granted_on")?,
    })
}

fn appeal_of(row: &sqlx::any::AnyRow) -> Result<CallAppeal, StoreError> {
    let status: String = row.try_get("status")?;
    let amendment: Option<String> = row.try_get("amendment")?;
    Ok(CallAppeal {
        seq: row.try_get("seq")?,
        application: row.try_get("application")?,
        filed_on: day(&row.try_get::<String, _>("filed_on")?)?,
        grounds: row.try_get("grounds")?,
        status: AppealStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("appeal status {status}")))?,
        decided_on: optional_day(row, "decided_on")?,
        decision: row.try_get("decision")?,
        decided_by: row.try_get("decided_by")?,
        amendment: amendment
            .as_deref()
            .map(|a| json(a, "appeal amendment"))
            .transpose()?,
    })
}

/// The call of `key` with its applications, appeals and tie draws.
pub(crate) async fn read(
    tx: &mut Tx,
    jurisdiction: &str,
    key: (i32, i64),
) -> Result<Call, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM calls WHERE jurisdiction = $1 AND year = $2 AND number = $3"
    )))
    .bind(jurisdiction)
    .bind(i64::from(key.0))
    .bind(key.1)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| {
        StoreError::NotFound(format!(
            "não há chamamento público nº {}/{} em {jurisdiction}",
            key.1, key.0
        ))
    })?;
    let mut call = call_of(&row)?;
    let rows = sqlx::query(
        "SELECT a.seq, a.label, a.who, p.name, a.applied_on, a.quantities, a.documents, a.claim, \
         a.proved, a.screening, a.position, a.place, a.place_order, a.permit_service, \
         a.permit_number, a.granted_on FROM call_applications a JOIN people p \
         ON p.jurisdiction = a.jurisdiction AND p.document = a.who \
         WHERE a.jurisdiction = $1 AND a.year = $2 AND a.number = $3 ORDER BY a.seq",
    )
    .bind(jurisdiction)
    .bind(i64::from(key.0))
    .bind(key.1)
    .fetch_all(&mut **tx)
    .await?;
    call.applications = rows.iter().map(application_of).collect::<Result<_, _>>()?;
    let rows = sqlx::query(
        "SELECT seq, application, filed_on, grounds, status, decided_on, decision, decided_by, \
         amendment FROM call_appeals WHERE jurisdiction = $1 AND year = $2 AND number = $3 \
         ORDER BY seq",
    )
    .bind(jurisdiction)
    .bind(i64::from(key.0))
    .bind(key.1)
    .fetch_all(&mut **tx)
    .await?;
    call.appeals = rows.iter().map(appeal_of).collect::<Result<_, _>>()?;
    call.draws = crate::draws::subject_draws(tx, jurisdiction, &call.subject()).await?;
    Ok(call)
}

pub(crate) fn call_row(jurisdiction: &str, (year, number): (i32, i64)) -> RowRef {
    RowRef::new("calls", [jurisdiction.into(), year.into(), number.into()])
}

pub(crate) fn application_row(jurisdiction: &str, (year, number): (i32, i64), seq: i64) -> RowRef {
    RowRef::new(
        "call_applications",
        [jurisdiction.into(), year.into(), number.into(), seq.into()],
    )
}

/// What a change writes to the log: its action, detail and rows.
pub(crate) type Written = (&'static str, serde_json::Value, Vec<RowRef>);

impl Store {
    /// Appends a change's audit entry to a call, commits, and returns the
    /// call as it now is.
    pub(crate) async fn finish_call(
        &self,
        mut tx: Tx,
        change: &Change<'_>,
        (jurisdiction, key): (&str, (i32, i64)),
        (action, detail, rows): Written,
    ) -> Result<Call, StoreError> {
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action,
                jurisdiction: Some(jurisdiction),
                subject: &format!("call:{}:{}", key.0, key.1),
                detail,
                rows,
            },
        )
        .await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(call)
    }
}

/// The places `offered` on `on`: from how the cap stands (its shares'
/// unfilled places first), or all open where the law sets no cap.
async fn places(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    (service, offered): (Service, u32),
    on: NaiveDate,
) -> Result<CallPlaces, StoreError> {
    let Some(rule) = ctx
        .rulebook
        .caps
        .iter()
        .find(|c| c.services.contains(&service))
    else {
        if offered == 0 {
            return Err(StoreError::invalid(
                "vagas",
                "o chamamento precisa oferecer ao menos uma vaga",
            ));
        }
        return Ok(CallPlaces {
            open: u64::from(offered),
            reserved: Vec::new(),
            articles: Vec::new(),
        });
    };
    let record = cap_permits(tx, rule, jurisdiction).await?;
    let (permits, released) = counted(&record);
    let occupancy = occupancy(ctx, service, &permits, &released, on)?;
    let places = engine_call::call_places(&occupancy, u64::from(offered))
        .map_err(|e| StoreError::invalid("vagas", e.to_string()))?;
    Ok(CallPlaces {
        open: places.open,
        reserved: places
            .reserved
            .iter()
            .map(|(k, n)| ((*k).to_string(), *n))
            .collect(),
        articles: crate::articles(&places.citations),
    })
}

/// An engine refusal of the edital or an application, named by its field.
fn refusal(field: &'static str) -> impl Fn(outorga_core::EngineError) -> StoreError {
    move |e| match e {
        outorga_core::EngineError::InvalidQuestion(reason) => StoreError::invalid(field, reason),
        other => other.into(),
    }
}

impl Store {
    /// Records the edital of a public call for permits of `input.service`
    /// (its act, period, documents and criteria) and the places it offers,
    /// computed from the cap today: refused when the law selects by
    /// proposals, not criteria (Amapá art. 11), when the cap has fewer
    /// places free, or when a criterion or document lacks its item.
    pub async fn open_call(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        input: &CallInput,
    ) -> Result<Call, StoreError> {
        let act = required("ato", &input.act, TextKind::Long)?.to_string();
        let today = rulebook.jurisdiction.today(change.at);
        if input.closes_on < input.opens_on {
            return Err(StoreError::invalid(
                "fim_inscricoes",
                "as inscrições terminam antes de começar: corrija as datas do período",
            ));
        }
        if input.closes_on < today {
            return Err(StoreError::invalid(
                "fim_inscricoes",
                format!(
                    "o período de inscrições terminaria em {}, antes de hoje ({})",
                    crate::words::day(input.closes_on),
                    crate::words::day(today)
                ),
            ));
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let service = bound(&mut tx, jurisdiction, rulebook, &input.service).await?;
        let draft = Call {
            jurisdiction: jurisdiction.into(),
            year: today.year(),
            number: 0,
            service: input.service.clone(),
            rulebook: rulebook.id.clone(),
            act: act.clone(),
            offered: input.offered,
            places: CallPlaces {
                open: 0,
                reserved: Vec::new(),
                articles: Vec::new(),
            },
            opens_on: input.opens_on,
            closes_on: input.closes_on,
            criteria: input.criteria.clone(),
            tie_breaks: input.tie_breaks.clone(),
            documents: input.documents.clone(),
            status: CallStatus::Open,
            screened_on: None,
            provisional_on: None,
            appeal_until: None,
            final_on: None,
            outcome: None,
            articles: Vec::new(),
            recorded_by: change.by.into(),
            applications: Vec::new(),
            appeals: Vec::new(),
            draws: Vec::new(),
        };
        // The engine checks the edital (and that the law ranks by
        // criteria) on a screening of no one.
        let screening = engine_call::screen(
            &ctx,
            &Facts::default(),
            service,
            &draft.edital(),
            &[],
            today,
        )
        .map_err(refusal("criterios"))?;
        let places = places(&mut tx, &ctx, jurisdiction, (service, input.offered), today).await?;
        let mut articles = crate::articles(&screening.citations);
        articles.extend(places.articles.iter().cloned());
        articles.dedup();
        let year = today.year();
        let number = next_number(&mut tx, jurisdiction, "call", year).await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO calls ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, \
             $12, $13, 'open', NULL, NULL, NULL, NULL, NULL, $14, $15)"
        )))
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(&input.service)
        .bind(&rulebook.id)
        .bind(&act)
        .bind(i64::from(input.offered))
        .bind(to_json(&places, "call")?)
        .bind(input.opens_on.to_string())
        .bind(input.closes_on.to_string())
        .bind(to_json(&input.criteria, "call")?)
        .bind(to_json(&input.tie_breaks, "call")?)
        .bind(to_json(&input.documents, "call")?)
        .bind(to_json(&articles, "call")?)
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        self.finish_call(
            tx,
            change,
            (jurisdiction, (year, number)),
            (
                "call.open",
                serde_json::json!({
                    "act": act, "service": input.service, "offered": input.offered,
                    "places": places, "opens_on": input.opens_on, "closes_on": input.closes_on,
                    "articles": articles,
                }),
                vec![call_row(jurisdiction, (year, number))],
            ),
        )
        .await
    }

    /// Records `input.who`'s application to the call of `key` within its
    /// period: what they show is checked against the edital (its criteria,
    /// documents, the share's conditions) now; screened after the period.
    pub async fn apply_to_call(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        input: &ApplicationInput,
    ) -> Result<Call, StoreError> {
        let (who, _) = crate::parse_document(&input.who)?;
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        if call.status != CallStatus::Open || today > call.closes_on {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "as inscrições do chamamento nº {} terminaram em {}",
                    call.label(),
                    crate::words::day(call.closes_on)
                ),
            ));
        }
        if today < call.opens_on {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "as inscrições do chamamento nº {} começam em {}",
                    call.label(),
                    crate::words::day(call.opens_on)
                ),
            ));
        }
        if let Some(other) = call.applications.iter().find(|a| a.who == who) {
            return Err(StoreError::invalid(
                "inscrito",
                format!(
                    "{} já se inscreveu neste chamamento ({}): cada interessado se inscreve uma vez",
                    crate::words::document(&who),
                    other.label
                ),
            ));
        }
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let seq = i64::try_from(call.applications.len()).unwrap_or(i64::MAX) + 1;
        let label = format!("inscricao-{seq}");
        screen(&mut tx, &ctx, &call, &[(&label, &who, &input.shown)], today)
            .await
            .map_err(|e| match e {
                StoreError::NotFound(reason) => StoreError::invalid("inscrito", reason),
                other => other,
            })?;
        let shown = &input.shown;
        sqlx::query(
            "INSERT INTO call_applications (jurisdiction, year, number, seq, label, who, \
             applied_on, quantities, documents, claim, proved, screening, position, place, \
             place_order, permit_service, permit_number, granted_on, recorded_by) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, NULL, NULL, NULL, NULL, NULL, \
             NULL, NULL, $12)",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(seq)
        .bind(&label)
        .bind(&who)
        .bind(today.to_string())
        .bind(to_json(&shown.quantities, "application")?)
        .bind(to_json(&shown.documents, "application")?)
        .bind(shown.claim.clone())
        .bind(to_json(&shown.proved, "application")?)
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.apply",
                serde_json::json!({ "label": label, "who": who, "shown": shown }),
                vec![application_row(jurisdiction, key, seq)],
            ),
        )
        .await
    }

    /// The call of `key`, with its applications, appeals and tie draws.
    pub async fn call(&self, jurisdiction: &str, key: (i32, i64)) -> Result<Call, StoreError> {
        let mut tx = self.pool.begin().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(call)
    }

    /// A page of the calls of `jurisdiction`, newest first (without their
    /// applications).
    pub async fn calls(
        &self,
        jurisdiction: &str,
        window: Window<'_>,
    ) -> Result<Page<Call>, StoreError> {
        let rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        listing::page(&self.pool, &LISTED, &rows, window, call_of).await
    }
}
