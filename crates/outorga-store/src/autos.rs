//! Autos de infração: issued with the fields the law requires, numbered per
//! jurisdiction and year without gaps, with the engine's penalty proposal.
//! The process that follows (notification, defense, judgement, appeal,
//! final decision) is in `process.rs`.

use crate::TextKind;
use crate::audit::{Change, next_number};
use crate::auto_record::{
    Auto, COLUMNS, Proposal, ProposedOption, ProposedSanction, auto_of, auto_step, read_auto,
};
use crate::listing::{
    self, Filter, KeyValue, Kind, List, Page, Window, day_range, one_of, renamed, text,
};
use crate::parameters::optional_deadline;
use crate::permits::{bound, read_permit};
use crate::world::{self, Scope, World};
use crate::{Store, StoreError, articles};
use chrono::{Datelike, NaiveDate, NaiveDateTime};
use outorga_core::engine::penalty::penalty;
use outorga_core::engine::process::Status;
use outorga_core::engine::sanctions::Sanction;
use outorga_core::facts::Event;
use outorga_core::model::{DeadlineKind, Rulebook, SanctionKind};

/// What an inspector writes on an auto.
#[derive(Debug, Clone, Default)]
pub struct AutoInput {
    /// The infraction's code in the rulebook (e.g. `51-I-a`).
    pub infraction: String,
    /// CPF or CNPJ of the offender (registered).
    pub offender: String,
    /// The permit it was committed under, when known.
    pub permit: Option<(String, i64)>,
    pub plate: Option<String>,
    pub committed_at: NaiveDateTime,
    pub place: String,
    pub description: String,
}

/// An auto checked and weighed, not yet written.
pub(crate) struct Proposed<'r> {
    pub(crate) ctx: outorga_core::Context<'r>,
    pub(crate) issued_on: NaiveDate,
    pub(crate) offender: String,
    pub(crate) plate: Option<String>,
    pub(crate) holder: Option<String>,
    pub(crate) proposal: Proposal,
    pub(crate) notify: Option<(NaiveDate, String)>,
}

/// The engine's sanction, in documents and plain numbers.
fn proposed(world: &World, s: &Sanction<'_>) -> ProposedSanction {
    ProposedSanction {
        kind: s.kind.name().to_string(),
        target: s.target.map(|p| world.document(p).to_string()),
        payer: s.payer.map(|p| world.document(p).to_string()),
        unit: s.amount.as_ref().map(|a| a.unit.to_string()),
        quantity: s
            .amount
            .as_ref()
            .map(|a| a.quantity.normalize().to_string()),
        brl: s.brl.map(|b| b.to_string()),
        days: s.days,
        min_days: s.min_days,
        max_days: s.max_days,
        years: s.years,
        months: s.months,
        min_hours: s.min_hours,
        business_days: s.business_days,
        at_once: s.at_once.map(str::to_string),
        optional: s.optional,
        articles: articles(&s.citations),
    }
}

/// An auto's own fields: a fact of the past under the law in force, its
/// place and description. The version of the law in force when it was
/// committed, which judges it.
fn check_input<'r>(
    input: &AutoInput,
    change: &Change<'_>,
    rulebook: &'r Rulebook,
) -> Result<&'r Rulebook, StoreError> {
    let rulebook = crate::under_law("cometida_em", input.committed_at.date(), change, rulebook)?;
    let now = rulebook.jurisdiction.local(change.at);
    if input.committed_at > now {
        return Err(StoreError::Invalid {
            field: "cometida_em",
            reason: format!(
                "{} é depois de agora ({}, na hora de {}): registre o que já aconteceu",
                input.committed_at.format("%d/%m/%Y %H:%M"),
                now.format("%d/%m/%Y %H:%M"),
                rulebook.jurisdiction.name
            ),
        });
    }
    crate::text::checked("infração", &input.infraction, TextKind::Code)?;
    for (field, value, kind) in [
        ("local", &input.place, TextKind::Line),
        ("descrição", &input.description, TextKind::Long),
    ] {
        if crate::text::checked(field, value, kind)?.is_empty() {
            return Err(StoreError::Invalid {
                field,
                reason: "o auto de infração precisa deste campo".into(),
            });
        }
    }
    Ok(rulebook)
}

impl Store {
    /// Issues an auto de infração as `propose` weighs it, numbered in the
    /// jurisdiction's sequence of the year of issue, and applies what the
    /// law applies on the spot. The inspector is `change.by`.
    pub async fn issue_auto(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        input: &AutoInput,
    ) -> Result<Auto, StoreError> {
        let proposed = self.propose(change, rulebook, jurisdiction, input).await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let auto = self
            .write_auto(&mut tx, change, (rulebook, jurisdiction), input, proposed)
            .await?;
        tx.commit().await?;
        Ok(auto)
    }

    /// Writes an auto `propose` weighed, in the caller's transaction, with
    /// what the law applies on the spot.
    pub(crate) async fn write_auto(
        &self,
        tx: &mut crate::Tx,
        change: &Change<'_>,
        (rulebook, jurisdiction): (&Rulebook, &str),
        input: &AutoInput,
        Proposed {
            ctx,
            issued_on,
            offender,
            plate,
            holder,
            proposal,
            notify,
        }: Proposed<'_>,
    ) -> Result<Auto, StoreError> {
        let year = issued_on.year();
        let number = next_number(tx, jurisdiction, "auto", year).await?;
        let points_of = |doc: &str| {
            proposal
                .points
                .iter()
                .find(|(d, _)| d == doc)
                .map_or("0".to_string(), |(_, n)| n.clone())
        };
        sqlx::query(
            "INSERT INTO autos (jurisdiction, year, number, rulebook, infraction, offender, service, permit_number, \
             plate, committed_at, place, description, inspector, status, proposal, notify_by, points_offender, \
             points_holder, holder, issued_on) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'issued', $14, $15, $16, $17, $18, $19)",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(&rulebook.id)
        .bind(input.infraction.trim())
        .bind(&offender)
        .bind(input.permit.as_ref().map(|p| p.0.clone()))
        .bind(input.permit.as_ref().map(|p| p.1))
        .bind(plate.clone())
        .bind(crate::dates::moment_text(input.committed_at))
        .bind(input.place.trim())
        .bind(input.description.trim())
        .bind(change.by)
        .bind(serde_json::to_string(&proposal).map_err(|e| StoreError::Corrupt(e.to_string()))?)
        .bind(notify.as_ref().map(|(d, _)| d.to_string()))
        .bind(points_of(&offender))
        .bind(holder.as_deref().map_or("0".to_string(), points_of))
        .bind(holder.clone())
        .bind(issued_on.to_string())
        .execute(&mut **tx)
        .await?;
        let mut cited = proposal.articles.clone();
        cited.extend(notify.iter().map(|(_, a)| a.clone()));
        auto_step(
            tx,
            &self.audit,
            change,
            jurisdiction,
            (year, number),
            ("issued", issued_on),
            (input.description.trim(), &cited),
        )
        .await?;
        let auto = Auto {
            year,
            number,
            rulebook: rulebook.id.clone(),
            infraction: input.infraction.trim().to_string(),
            offender,
            permit: input.permit.clone(),
            plate,
            committed_at: input.committed_at,
            place: input.place.trim().to_string(),
            description: input.description.trim().to_string(),
            inspector: change.by.to_string(),
            status: Status::Issued,
            proposal,
            notify_by: notify.map(|(d, _)| d),
            notified_on: None,
            defense_by: None,
            defense_on: None,
            judged_on: None,
            appeal_by: None,
            appealed_on: None,
            final_on: None,
            issued_on: Some(issued_on),
            uncured: false,
            cure_by: None,
            decision_notified_on: None,
            instance: 0,
            decision: None,
            released_on: None,
            cure_days: None,
            verification_at: None,
            recorded_as: None,
        };
        // What the law applies on the spot is in force from the auto on.
        for measure in auto
            .proposal
            .sanctions
            .iter()
            .filter(|s| s.at_once.is_some())
        {
            crate::process::apply(
                tx,
                (&self.audit, &ctx),
                change,
                jurisdiction,
                &auto,
                measure,
                issued_on,
            )
            .await?;
        }
        Ok(auto)
    }

    /// The engine's proposal for an auto as it would be issued now, without
    /// issuing it: what the inspector reads before saving.
    pub async fn auto_proposal(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        input: &AutoInput,
    ) -> Result<Proposal, StoreError> {
        Ok(self
            .propose(change, rulebook, jurisdiction, input)
            .await?
            .proposal)
    }

    /// Checks an auto's fields and asks the engine for the penalty the law
    /// attaches (the offender's final record counts), and the deadline to
    /// notify. The decision is read in a transaction of its own, before any
    /// write lock is taken: the lock covers only numbering and writing, so
    /// autos are issued at the pace of their writes. (A decision that
    /// became final meanwhile on another auto of the same offender is not
    /// in this proposal; the board judges it with the record of then.)
    pub(crate) async fn propose<'r>(
        &self,
        change: &Change<'_>,
        rulebook: &'r Rulebook,
        jurisdiction: &str,
        input: &AutoInput,
    ) -> Result<Proposed<'r>, StoreError> {
        // The day the auto is issued, in the jurisdiction's time.
        let issued_on = rulebook.jurisdiction.today(change.at);
        let rulebook = check_input(input, change, rulebook)?;
        let mut tx = self.pool.begin().await?;
        let proposed = propose_in(&mut tx, rulebook, jurisdiction, input, issued_on).await?;
        tx.commit().await?;
        Ok(proposed)
    }
}

/// `propose` within the caller's transaction, the record read as it is on
/// `issued_on` (an imported auto: the day it was committed).
pub(crate) async fn propose_in<'r>(
    tx: &mut crate::Tx,
    rulebook: &'r Rulebook,
    jurisdiction: &str,
    input: &AutoInput,
    issued_on: NaiveDate,
) -> Result<Proposed<'r>, StoreError> {
    let (offender, _) = crate::parse_document(&input.offender)?;
    let plate = input
        .plate
        .as_deref()
        .filter(|p| !p.trim().is_empty())
        .map(crate::parse_plate)
        .transpose()?;
    let Some(infraction) = rulebook.infraction_by_code(input.infraction.trim()) else {
        return Err(StoreError::Invalid {
            field: "infração",
            reason: format!("`{}` não é infração de {}", input.infraction, rulebook.id),
        });
    };
    let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
    let mut people = vec![offender.as_str()];
    let permit = match &input.permit {
        Some((service, number)) => {
            bound(tx, jurisdiction, rulebook, service).await?;
            Some(read_permit(tx, jurisdiction, service, *number).await?)
        }
        None => {
            let row = sqlx::query(
                    "SELECT 1 AS one FROM jurisdiction_rulebooks WHERE jurisdiction = $1 AND rulebook = $2",
                )
                .bind(jurisdiction)
                .bind(&rulebook.id)
                .fetch_optional(&mut **tx)
                .await?;
            if row.is_none() {
                return Err(StoreError::Invalid {
                    field: "jurisdição",
                    reason: format!("{jurisdiction} não aplica o regulamento {}", rulebook.id),
                });
            }
            None
        }
    };
    if let Some(p) = &permit {
        people.push(&p.holder);
    }
    let scope = Scope {
        all_permits: false,
        people: &people,
        records_only: true,
    };
    let world = world::load(tx, &ctx, jurisdiction, scope, issued_on).await?;
    let Some(by) = world.person(&offender) else {
        return Err(StoreError::NotFound(format!(
            "{offender} não está cadastrado em {jurisdiction}"
        )));
    };
    let event = Event {
        infraction,
        by,
        permit: permit
            .as_ref()
            .and_then(|p| world.permit(&p.service, p.number)),
        at: input.committed_at,
        is_final: false,
        uncured: false,
    };
    let decided = penalty(&ctx, &world.facts, &event)?;
    let uncured = if decided
        .sanctions
        .iter()
        .any(|s| s.kind == SanctionKind::NoticeOfIrregularity)
    {
        let event = Event {
            uncured: true,
            ..event
        };
        penalty(&ctx, &world.facts, &event)?.sanctions
    } else {
        Vec::new()
    };
    let mut proposal = Proposal {
        sanctions: decided
            .sanctions
            .iter()
            .map(|s| proposed(&world, s))
            .collect(),
        uncured: uncured.iter().map(|s| proposed(&world, s)).collect(),
        options: decided
            .options
            .iter()
            .zip(&decided.record_as)
            .map(|((set, article), record_as)| ProposedOption {
                sanctions: set.iter().map(|s| proposed(&world, s)).collect(),
                article: article.to_string(),
                record_as: record_as.map(str::to_string),
            })
            .collect(),
        points: decided
            .points
            .iter()
            .map(|(p, n)| (world.document(*p).to_string(), n.normalize().to_string()))
            .collect(),
        articles: articles(&decided.citations()),
        law_version: Some(crate::applied_law::LawVersion::of(rulebook)),
        law_words: Vec::new(),
        applied_acts: Vec::new(),
    };
    proposal.law_words = crate::applied_law::cited_words(rulebook, proposal.cited());
    let notify = optional_deadline(&ctx, DeadlineKind::Notification, issued_on)?;
    proposal.applied_acts = crate::applied_law::applied_acts(&ctx);
    Ok(Proposed {
        ctx,
        issued_on,
        holder: permit.map(|p| p.holder),
        offender,
        plate,
        proposal,
        notify,
    })
}

impl Store {
    /// An auto by number and year.
    pub async fn auto(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
    ) -> Result<Auto, StoreError> {
        let mut tx = self.pool.begin().await?;
        let auto = read_auto(&mut tx, jurisdiction, (year, number)).await?;
        tx.commit().await?;
        Ok(auto)
    }

    /// A page of the autos of a jurisdiction that `filter` admits, the
    /// latest infraction first.
    pub async fn autos(
        &self,
        jurisdiction: &str,
        filter: &AutoFilter,
        window: Window<'_>,
    ) -> Result<Page<Auto>, StoreError> {
        let offender = filter
            .offender
            .as_deref()
            .map(|d| renamed("autuado", crate::parse_document(d)))
            .transpose()?
            .map(|(d, _)| text(d));
        let plate = filter
            .plate
            .as_deref()
            .map(|p| renamed("placa", crate::parse_plate(p)))
            .transpose()?
            .map(text);
        let status = filter
            .status
            .as_deref()
            .map(|s| one_of("situacao", s, STATUSES))
            .transpose()?;
        let (from, to) = day_range(filter.from, filter.to)?;
        let infraction = filter.infraction.as_deref().map(|i| text(i.trim()));
        let (service, permit) = filter
            .permit
            .as_ref()
            .map(|(s, n)| (text(s.as_str()), KeyValue::Int(*n)))
            .unzip();
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .when("service = $?", service)
            .when("permit_number = $?", permit.clone())
            .ranked(
                permit.is_some(),
                &[
                    ("offender", offender),
                    ("plate", plate),
                    ("infraction", infraction),
                    ("status", status),
                ],
            )
            .when("committed_at >= $?", from)
            .when("committed_at < $?", to);
        listing::page(&self.pool, &AUTOS, &rows, window, auto_of).await
    }
}

/// What staff search autos by; `None` admits any.
#[derive(Debug, Clone, Default)]
pub struct AutoFilter {
    /// CPF or CNPJ of the offender.
    pub offender: Option<String>,
    pub plate: Option<String>,
    /// issued, notified, archived, judged, appealed, final or annulled.
    pub status: Option<String>,
    /// The infraction's code in the rulebook.
    pub infraction: Option<String>,
    /// Committed on or after this day.
    pub from: Option<NaiveDate>,
    /// Committed on or before this day.
    pub to: Option<NaiveDate>,
    /// Under this permit (service, number).
    pub permit: Option<(String, i64)>,
}

/// The statuses of an auto.
const STATUSES: &[&str] = Status::NAMES;

/// Autos, the latest infraction first (the moment, then the number): each
/// filter has an index ending in this order (migration 0021).
const AUTOS: List = List {
    name: "autos",
    table: "autos",
    columns: COLUMNS,
    key: &[
        ("committed_at", Kind::Text),
        ("year", Kind::Int),
        ("number", Kind::Int),
    ],
    descending: true,
};
