//! An auto as the record keeps it: its row ([`Auto`]), the engine's
//! proposal as stored ([`Proposal`]) and what the procedure's machine weighs
//! of it, the decision column, reading an auto back, and the steps of its
//! process, each appended with its audit entry.

use crate::audit::images::RowRef;
use crate::audit::{Audit, Change, Entry, append};
use crate::dates::{day, moment};
use crate::{StoreError, Tx};
use chrono::{NaiveDate, NaiveDateTime};
use outorga_core::engine::process::{Decision, Stake, Stakes, Status};
use outorga_core::model::SanctionKind;
use sqlx::Row;

/// One sanction the engine proposes, in documents and plain numbers.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProposedSanction {
    pub kind: String,
    pub target: Option<String>,
    pub payer: Option<String>,
    pub unit: Option<String>,
    /// The fine in its unit (exact decimal text).
    pub quantity: Option<String>,
    pub brl: Option<String>,
    pub days: Option<u32>,
    #[serde(default)]
    pub min_days: Option<u32>,
    pub max_days: Option<u32>,
    pub years: Option<u32>,
    pub months: Option<u32>,
    /// At least this many hours (a measure's minimum).
    #[serde(default)]
    pub min_hours: Option<u32>,
    /// `days` are business days (TO art. 86, § 1º).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub business_days: bool,
    /// The article that applies it on the spot, from the auto on.
    #[serde(default)]
    pub at_once: Option<String>,
    /// The deciding authority may impose it or not.
    #[serde(default)]
    pub optional: bool,
    pub articles: Vec<String>,
}

/// What the deciding authority may decide instead of the proposal, and
/// the article that lets it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProposedOption {
    pub sanctions: Vec<ProposedSanction>,
    pub article: String,
    /// The infraction code a decision choosing it is recorded as (its
    /// points go on the record).
    #[serde(default)]
    pub record_as: Option<String>,
}

/// The engine's proposal: sanctions, points added per document, articles;
/// for a notice of irregularity, the penalty if it is not cured; the options
/// the procedure gives the deciding authority.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Proposal {
    pub sanctions: Vec<ProposedSanction>,
    pub points: Vec<(String, String)>,
    pub articles: Vec<String>,
    #[serde(default)]
    pub uncured: Vec<ProposedSanction>,
    #[serde(default)]
    pub options: Vec<ProposedOption>,
    /// The version of the law in force when the infraction was committed,
    /// which judged it (absent in proposals recorded before versions).
    #[serde(default)]
    pub law_version: Option<crate::applied_law::LawVersion>,
    /// What the articles it cites said in that version.
    #[serde(default)]
    pub law_words: Vec<crate::applied_law::CitedWords>,
    /// The deployment's values it was weighed with, and their acts.
    #[serde(default)]
    pub applied_acts: Vec<crate::applied_law::AppliedAct>,
}

impl Proposal {
    /// Every article the proposal cites: its own, each penalty's, each
    /// option's.
    pub fn cited(&self) -> impl Iterator<Item = &String> {
        let sanctions = self
            .sanctions
            .iter()
            .chain(&self.uncured)
            .chain(self.options.iter().flat_map(|o| &o.sanctions));
        self.articles
            .iter()
            .chain(self.options.iter().map(|o| &o.article))
            .chain(sanctions.flat_map(|s| &s.articles))
    }

    /// Each fine without its value in reais given it at the unit's value
    /// in force on `on` (the value the deployment recorded after the auto
    /// was issued shows on it): what the auto's readers are shown. What is
    /// owed is converted on the day of payment (`debts`).
    pub fn priced(mut self, ctx: &outorga_core::Context<'_>, on: NaiveDate) -> Proposal {
        let lists = [&mut self.sanctions, &mut self.uncured];
        let options = self.options.iter_mut().map(|o| &mut o.sanctions);
        for list in lists.into_iter().chain(options) {
            for s in list.iter_mut().filter(|s| s.brl.is_none()) {
                let (Some(unit), Some(quantity)) = (&s.unit, &s.quantity) else {
                    continue;
                };
                let Ok(quantity) = quantity.parse::<rust_decimal::Decimal>() else {
                    continue;
                };
                s.brl = ctx
                    .unit_value(unit, on)
                    .and_then(|v| v.checked_mul(quantity))
                    .map(|v| outorga_core::context::round_brl(v).to_string());
            }
        }
        self
    }

    /// What the procedure's machine weighs: the sanctions at stake, their
    /// kinds parsed (a stored kind the core does not know is a corrupt row).
    pub fn stakes(&self) -> Result<Stakes<'_>, StoreError> {
        fn all(list: &[ProposedSanction]) -> Result<Vec<Stake<'_>>, StoreError> {
            list.iter().map(ProposedSanction::stake).collect()
        }
        Ok(Stakes {
            found: all(&self.sanctions)?,
            uncured: all(&self.uncured)?,
            options: self
                .options
                .iter()
                .map(|o| Ok((all(&o.sanctions)?, o.article.as_str())))
                .collect::<Result<_, StoreError>>()?,
        })
    }
}

impl ProposedSanction {
    pub(crate) fn sanction_kind(&self) -> Result<SanctionKind, StoreError> {
        SanctionKind::parse(&self.kind)
            .ok_or_else(|| StoreError::Corrupt(format!("proposta: penalidade `{}`", self.kind)))
    }

    pub(crate) fn stake(&self) -> Result<Stake<'_>, StoreError> {
        Ok(Stake {
            kind: self.sanction_kind()?,
            days: self.days,
            min_days: self.min_days,
            max_days: self.max_days,
            years: self.years,
            months: self.months,
            min_hours: self.min_hours,
            business_days: self.business_days,
            at_once: self.at_once.as_deref(),
            optional: self.optional,
            citations: self.articles.iter().map(String::as_str).collect(),
        })
    }
}

/// Whether a proposal was decided in an administrative process (its fines
/// may not be split where the law says so).
pub(crate) fn from_process(proposal: &Proposal) -> bool {
    proposal
        .sanctions
        .iter()
        .any(|s| s.kind == SanctionKind::AdministrativeProcess.name())
}

/// An auto as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Auto {
    pub year: i32,
    pub number: i64,
    pub rulebook: String,
    pub infraction: String,
    pub offender: String,
    pub permit: Option<(String, i64)>,
    pub plate: Option<String>,
    pub committed_at: NaiveDateTime,
    pub place: String,
    pub description: String,
    pub inspector: String,
    pub status: Status,
    pub proposal: Proposal,
    pub notify_by: Option<NaiveDate>,
    pub notified_on: Option<NaiveDate>,
    pub defense_by: Option<NaiveDate>,
    pub defense_on: Option<NaiveDate>,
    pub judged_on: Option<NaiveDate>,
    pub appeal_by: Option<NaiveDate>,
    pub appealed_on: Option<NaiveDate>,
    pub final_on: Option<NaiveDate>,
    /// The day it was issued (lavrado), or the day a notice of
    /// irregularity was found not cured and became the auto; none for an
    /// auto recorded before migration 0023 (then: the infraction's day).
    pub issued_on: Option<NaiveDate>,
    /// A notice of irregularity found not cured: the proposal's `uncured`
    /// penalty applies.
    pub uncured: bool,
    pub cure_by: Option<NaiveDate>,
    pub decision_notified_on: Option<NaiveDate>,
    /// Appeals decided so far.
    pub instance: usize,
    /// What the authority decided: upheld, days fixed, sanctions chosen.
    pub decision: Option<Decision>,
    /// The day what was held on the spot was released.
    pub released_on: Option<NaiveDate>,
    /// The days to cure a notice of irregularity set (none: the rulebook's).
    pub cure_days: Option<u32>,
    /// When the verification inspection of a notice of irregularity takes
    /// place, as the holder was told.
    pub verification_at: Option<NaiveDateTime>,
    /// The infraction a final decision is recorded as, where the option it
    /// chose carries its own points (Teófilo Otoni art. 85).
    pub recorded_as: Option<String>,
}

/// The columns an auto is read with ([`auto_of`]).
pub(crate) const COLUMNS: &str = "year, number, rulebook, infraction, offender, service, permit_number, plate, \
    committed_at, place, description, inspector, status, proposal, notify_by, notified_on, defense_by, \
    defense_on, judged_on, appeal_by, appealed_on, final_on, issued_on, uncured, cure_by, \
    decision_notified_on, instance, decision, released_on, cure_days, verification_at, recorded_as";

fn opt_day(row: &sqlx::any::AnyRow, column: &str) -> Result<Option<NaiveDate>, StoreError> {
    let text: Option<String> = row.try_get(column)?;
    text.as_deref().map(day).transpose()
}

pub(crate) fn auto_of(row: &sqlx::any::AnyRow) -> Result<Auto, StoreError> {
    let service: Option<String> = row.try_get("service")?;
    let permit_number: Option<i64> = row.try_get("permit_number")?;
    let at: String = row.try_get("committed_at")?;
    let proposal: String = row.try_get("proposal")?;
    let year: i64 = row.try_get("year")?;
    Ok(Auto {
        year: i32::try_from(year).unwrap_or_default(),
        number: row.try_get("number")?,
        rulebook: row.try_get("rulebook")?,
        infraction: row.try_get("infraction")?,
        offender: row.try_get("offender")?,
        permit: service.zip(permit_number),
        plate: row.try_get("plate")?,
        committed_at: moment(&at)?,
        place: row.try_get("place")?,
        description: row.try_get("description")?,
        inspector: row.try_get("inspector")?,
        status: {
            let status: String = row.try_get("status")?;
            Status::parse(&status)
                .ok_or_else(|| StoreError::Corrupt(format!("situação do auto `{status}`")))?
        },
        proposal: serde_json::from_str(&proposal)
            .map_err(|e| StoreError::Corrupt(format!("proposal: {e}")))?,
        notify_by: opt_day(row, "notify_by")?,
        notified_on: opt_day(row, "notified_on")?,
        defense_by: opt_day(row, "defense_by")?,
        defense_on: opt_day(row, "defense_on")?,
        judged_on: opt_day(row, "judged_on")?,
        appeal_by: opt_day(row, "appeal_by")?,
        appealed_on: opt_day(row, "appealed_on")?,
        final_on: opt_day(row, "final_on")?,
        issued_on: opt_day(row, "issued_on")?,
        uncured: row.try_get::<i32, _>("uncured")? != 0,
        cure_by: opt_day(row, "cure_by")?,
        decision_notified_on: opt_day(row, "decision_notified_on")?,
        instance: usize::try_from(row.try_get::<i32, _>("instance")?).unwrap_or_default(),
        decision: row
            .try_get::<Option<String>, _>("decision")?
            .as_deref()
            .map(decision_of)
            .transpose()?,
        released_on: opt_day(row, "released_on")?,
        cure_days: row
            .try_get::<Option<i32>, _>("cure_days")?
            .map(|d| u32::try_from(d).map_err(|_| StoreError::Corrupt(format!("cure_days {d}"))))
            .transpose()?,
        verification_at: row
            .try_get::<Option<String>, _>("verification_at")?
            .as_deref()
            .map(moment)
            .transpose()?,
        recorded_as: row.try_get("recorded_as")?,
    })
}

pub(crate) async fn read_auto(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Auto, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM autos WHERE jurisdiction = $1 AND year = $2 AND number = $3"
    )))
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => auto_of(&row),
        None => Err(StoreError::NotFound(format!(
            "não há auto nº {number}/{year} em {jurisdiction}"
        ))),
    }
}

/// Appends a step to an auto's process; its audit entry also holds the
/// auto's row as the step left it.
pub(crate) async fn auto_step(
    tx: &mut Tx,
    audit: &Audit,
    change: &Change<'_>,
    jurisdiction: &str,
    (year, number): (i32, i64),
    (step, on): (&str, NaiveDate),
    (detail, cited): (&str, &[String]),
) -> Result<(), StoreError> {
    let seq: i64 = sqlx::query(
        "INSERT INTO auto_steps (jurisdiction, year, number, seq, step, on_date, detail, citations) \
         SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, $4, $5, $6, $7 FROM auto_steps \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .bind(step)
    .bind(on.to_string())
    .bind(detail)
    .bind(serde_json::json!(cited).to_string())
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    append(
        tx,
        audit,
        change,
        Entry {
            action: &format!("auto.{step}"),
            jurisdiction: Some(jurisdiction),
            subject: &format!("auto:{year}:{number}"),
            detail: serde_json::json!({ "on": on, "detail": detail, "articles": cited }),
            rows: vec![
                RowRef::new(
                    "auto_steps",
                    [jurisdiction.into(), year.into(), number.into(), seq.into()],
                ),
                RowRef::new("autos", [jurisdiction.into(), year.into(), number.into()]),
            ],
        },
    )
    .await?;
    Ok(())
}

/// The decision as the `decision` column keeps it.
pub(crate) fn decision_text(decision: &Decision) -> String {
    serde_json::json!({
        "upheld": decision.upheld,
        "days": decision.days,
        "sanctions": decision.sanctions.as_ref().map(|k| k.iter().map(|k| k.name()).collect::<Vec<_>>()),
        "not_admitted": decision.not_admitted,
        "by": decision.by,
        "heard": decision.heard,
    })
    .to_string()
}

/// The decision a `decision` column holds.
fn decision_of(text: &str) -> Result<Decision, StoreError> {
    #[derive(serde::Deserialize)]
    struct Stored {
        upheld: bool,
        days: Option<u32>,
        sanctions: Option<Vec<String>>,
        #[serde(default)]
        not_admitted: Option<String>,
        #[serde(default)]
        by: Option<String>,
        #[serde(default)]
        heard: bool,
    }
    let corrupt = |why: String| StoreError::Corrupt(format!("decisão do auto: {why}"));
    let stored: Stored = serde_json::from_str(text).map_err(|e| corrupt(e.to_string()))?;
    let sanctions = stored
        .sanctions
        .map(|list| {
            list.iter()
                .map(|k| SanctionKind::parse(k).ok_or_else(|| corrupt(format!("penalidade `{k}`"))))
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    Ok(Decision {
        upheld: stored.upheld,
        days: stored.days,
        sanctions,
        not_admitted: stored.not_admitted,
        by: stored.by,
        heard: stored.heard,
    })
}
