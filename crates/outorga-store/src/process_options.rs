//! What an auto's procedure admits on a day, asked without writing: for
//! each step, whether the law's machine (`engine::process::Machine`) would
//! take it, or why not with the articles; the time limits that run; who
//! hears the appeal that lies now. The same question `process_auto` asks
//! when a step is taken, so the JSON API and the pages offer only what the
//! law allows, from one place. And the steps already taken, in order.

use crate::auto_record::{Auto, read_auto};
use crate::process::{last_step, state_of};
use crate::{Store, StoreError};
use chrono::NaiveDate;
use outorga_core::engine::process::{Machine, Step, StepFields, StepKind};
use outorga_core::model::{DeadlineKind, Rulebook, SanctionKind};
use sqlx::Row;

/// One step of the procedure on the day asked.
#[derive(Debug, Clone)]
pub struct StepOption {
    pub kind: StepKind,
    /// A judgement the law reserves to another authority (Santa Maria de
    /// Jetibá art. 8º, § 2º: the cassation, the mayor): its key and its
    /// name in the law.
    pub authority: Option<(String, String)>,
    /// Why the law does not admit it that day, and the articles; none when
    /// it does (what a judgement decides is weighed when it is taken).
    pub refusal: Option<(String, Vec<String>)>,
}

/// A time limit that runs on the day asked.
#[derive(Debug, Clone)]
pub struct RunningLimit {
    pub kind: DeadlineKind,
    pub due: NaiveDate,
    pub article: String,
}

/// Who hears the appeal that lies now, against which penalties (Amapá
/// art. 71: the CTC the fines, the hierarchy the rest).
#[derive(Debug, Clone)]
pub struct AppealTo {
    pub body: String,
    pub against: Vec<SanctionKind>,
    pub article: String,
}

/// The auto and what its procedure admits on `on`.
#[derive(Debug, Clone)]
pub struct ProcessOptions {
    pub auto: Auto,
    pub on: NaiveDate,
    pub steps: Vec<StepOption>,
    pub limits: Vec<RunningLimit>,
    pub appeal_to: Vec<AppealTo>,
}

impl ProcessOptions {
    /// The steps the law admits that day.
    pub fn allowed(&self) -> impl Iterator<Item = &StepOption> {
        self.steps.iter().filter(|s| s.refusal.is_none())
    }
}

/// A step taken: its order, kind, day, text and the articles it rests on.
#[derive(Debug, Clone)]
pub struct TakenStep {
    pub seq: i64,
    /// The step's name as stored (`issued`, `notify`, `judge`…).
    pub step: String,
    pub on: NaiveDate,
    pub detail: String,
    pub articles: Vec<String>,
}

/// The step of `kind` as the machine is asked it: a decision asked as an
/// annulment, which any judgement may be (what else it decides is weighed
/// when it is taken). A verification is asked as told on the day for the
/// earliest day the law would allow (two days on, past any notice counted
/// in hours of a day).
fn probe(kind: StepKind, on: NaiveDate) -> Option<Step> {
    let told = on.and_hms_opt(0, 0, 0);
    let verification = kind == StepKind::ScheduleVerification;
    let fields = StepFields {
        upheld: kind.decides().then_some(false),
        told: told.filter(|_| verification),
        inspection: told
            .and_then(|t| t.checked_add_days(chrono::Days::new(2)))
            .filter(|_| verification),
        ..StepFields::default()
    };
    Step::build(kind, fields).ok()
}

impl Store {
    /// The steps of the auto's procedure the law admits on `on`, each with
    /// who may take it or why not; the limits that run; the appeal bodies.
    pub async fn process_options(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        on: NaiveDate,
    ) -> Result<ProcessOptions, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let auto = read_auto(&mut tx, jurisdiction, key).await?;
        let last = last_step(&mut tx, jurisdiction, &auto).await?;
        tx.commit().await?;
        let now = state_of(&auto, last);
        let machine = Machine::of(&ctx)?;
        let stakes = auto.proposal.stakes()?;
        let mut steps = Vec::new();
        for kind in StepKind::ALL {
            let Some(step) = probe(*kind, on) else {
                continue;
            };
            let mut outcome = machine.take(&stakes, &now, &step, on)?;
            let mut authority = None;
            // A judgement the law reserves to another authority is theirs.
            if outcome.is_err() && kind.decides() {
                for reserved in &machine.procedure.reserved {
                    let Some(theirs) = step.clone().decided_by(Some(reserved.key.clone())) else {
                        continue;
                    };
                    let tried = machine.take(&stakes, &now, &theirs, on)?;
                    if tried.is_ok() {
                        outcome = tried;
                        authority = Some((reserved.key.clone(), reserved.by.clone()));
                        break;
                    }
                }
            }
            steps.push(StepOption {
                kind: *kind,
                authority,
                refusal: outcome.err().map(|r| (r.reason, r.citations)),
            });
        }
        let limits = machine
            .open(&stakes, &now, on)?
            .into_iter()
            .map(|limit| RunningLimit {
                kind: limit.kind,
                due: limit.due,
                article: limit.citation.to_string(),
            })
            .collect();
        let appeal_to = machine
            .appeal_bodies(&stakes, &now)
            .into_iter()
            .map(|body| AppealTo {
                body: body.to.to_string(),
                against: body.kinds,
                article: body.citation.to_string(),
            })
            .collect();
        drop(stakes);
        Ok(ProcessOptions {
            auto,
            on,
            steps,
            limits,
            appeal_to,
        })
    }

    /// The steps taken on an auto, in order (an auto has a few: the
    /// procedure bounds them).
    pub async fn auto_steps(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
    ) -> Result<Vec<TakenStep>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, step, on_date, detail, citations FROM auto_steps \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 ORDER BY seq",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let citations: String = row.try_get("citations")?;
                Ok(TakenStep {
                    seq: row.try_get("seq")?,
                    step: row.try_get("step")?,
                    on: crate::dates::day(&row.try_get::<String, _>("on_date")?)?,
                    detail: row.try_get("detail")?,
                    articles: serde_json::from_str(&citations)
                        .map_err(|e| StoreError::Corrupt(format!("auto_steps.citations: {e}")))?,
                })
            })
            .collect()
    }
}
