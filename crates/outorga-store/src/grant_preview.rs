//! What a grant would meet before it is asked for: the cap of the service
//! with its reserved shares and the places filled, and the applicant's
//! checklist — each requirement met, unmet or to be checked, with its
//! articles and what to record to clear it. Read only: the same engine
//! questions the grant asks (`cap::occupancy`, `eligibility`), nothing
//! written, nothing locked.

use crate::permits::{bound, cap_permits, counted, eligible};
use crate::{Registered, Store, StoreError, articles};
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::assessment::{Assessment, Finding};
use outorga_core::engine::cap::occupancy;
use outorga_core::model::{Quota, Rulebook, Service};

/// A reserved share of the cap as the grant form shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShareView {
    /// The share in Portuguese.
    pub name: String,
    pub held: u64,
    pub filled: u64,
}

/// How the cap of a service stands on a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CapView {
    pub max_permits: u64,
    pub shares: Vec<ShareView>,
    /// Places of open competition, and how many are filled.
    pub open: u64,
    pub open_filled: u64,
    pub articles: Vec<String>,
}

/// Where a requirement stands on what the record holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckState {
    Met,
    Unmet,
    /// A fact it reads is not recorded: the clerk checks it.
    ToCheck,
}

impl CheckState {
    /// As staff read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            CheckState::Met => "atendido",
            CheckState::Unmet => "não atendido",
            CheckState::ToCheck => "a verificar",
        }
    }
}

/// One line of the applicant's checklist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecklistItem {
    pub description: String,
    pub articles: Vec<String>,
    pub state: CheckState,
    /// What to record to clear it (empty when met).
    pub to_record: String,
}

/// The cap of a service as a preview knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CapState {
    /// The law sets no cap on the service.
    None,
    Known(CapView),
    /// The engine cannot compute it (a parameter without a value): why, in
    /// Portuguese. A grant would be refused for the same reason.
    Unknown(String),
}

/// The applicant of a preview: registered, with their checklist; or why
/// there is none (a document that is no CPF or CNPJ, or one not registered).
pub type Applicant = Result<(Registered, Vec<ChecklistItem>), String>;

/// What a grant of `service` to `holder` would meet on `on`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrantPreview {
    pub cap: CapState,
    /// The applicant, when one was named.
    pub applicant: Option<Applicant>,
}

fn items<'a>(
    findings: &'a [Finding<'_>],
    state: CheckState,
    evidence: &'a dyn Fn(&str) -> String,
) -> impl Iterator<Item = ChecklistItem> + 'a {
    findings.iter().map(move |f| ChecklistItem {
        description: f.description.to_string(),
        articles: articles(&f.citations),
        state,
        to_record: match state {
            CheckState::Met => String::new(),
            _ => evidence(f.requirement),
        },
    })
}

/// An assessment as a checklist: unmet first, then to check, then met.
fn checklist_of(
    assessment: &Assessment<'_>,
    evidence: &dyn Fn(&str) -> String,
) -> Vec<ChecklistItem> {
    items(&assessment.unmet, CheckState::Unmet, evidence)
        .chain(items(&assessment.unknown, CheckState::ToCheck, evidence))
        .chain(items(&assessment.met, CheckState::Met, evidence))
        .collect()
}

/// A vehicle's checklist before it is put in service under a permit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VehiclePreview {
    /// The plate of the vehicle it would replace (none: an inclusion).
    pub replaces: Option<String>,
    pub items: Vec<ChecklistItem>,
}

impl Store {
    /// What a grant of `service` (to `holder`, when named; on a bus `line`)
    /// would meet on `on`: the cap and its shares, the checklist.
    pub async fn grant_preview(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, holder, line): (&str, Option<&str>, Option<&str>),
        on: NaiveDate,
    ) -> Result<GrantPreview, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let kind = bound(&mut tx, jurisdiction, rulebook, service).await?;
        let cap = match ctx
            .rulebook
            .caps
            .iter()
            .find(|c| c.services.contains(&kind))
        {
            None => CapState::None,
            Some(rule) => {
                let record = cap_permits(&mut tx, rule, jurisdiction).await?;
                let (permits, released) = counted(&record);
                match occupancy(&ctx, kind, &permits, &released, on) {
                    Err(why) => CapState::Unknown(why.to_string()),
                    Ok(places) => CapState::Known(CapView {
                        max_permits: places.max_permits,
                        shares: places
                            .shares
                            .iter()
                            .map(|s| ShareView {
                                name: Quota::label(s.key).to_string(),
                                held: s.held,
                                filled: s.filled,
                            })
                            .collect(),
                        open: places.open,
                        open_filled: places.open_filled,
                        articles: articles(&places.citations),
                    }),
                }
            }
        };
        let applicant = match holder {
            None => None,
            Some(holder) => Some(
                match checklist(&mut tx, &ctx, jurisdiction, (holder, kind, line), on).await {
                    Ok(found) => Ok(found),
                    Err(StoreError::NotFound(why)) => Err(why),
                    Err(StoreError::Invalid { reason, .. }) => Err(reason),
                    Err(error) => return Err(error),
                },
            ),
        };
        tx.commit().await?;
        Ok(GrantPreview { cap, applicant })
    }

    /// The registered `holder` and their checklist for `service` (on a bus
    /// `line`) on `on`, as a grant would weigh it.
    pub async fn checklist(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, holder, line): (&str, &str, Option<&str>),
        on: NaiveDate,
    ) -> Result<(Registered, Vec<ChecklistItem>), StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let kind = bound(&mut tx, jurisdiction, rulebook, service).await?;
        let found = checklist(&mut tx, &ctx, jurisdiction, (holder, kind, line), on).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// What putting the vehicle `plate` in service under the permit would
    /// meet on `on` — the same assessment `put_vehicle` makes (inclusion,
    /// or substitution of the vehicle serving it), nothing written.
    pub async fn vehicle_preview(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        permit: (&str, i64),
        plate: &str,
        on: NaiveDate,
    ) -> Result<VehiclePreview, StoreError> {
        let vehicle = self.vehicle(jurisdiction, plate).await?.ok_or_else(|| {
            StoreError::NotFound(format!(
                "o veículo {plate} não está cadastrado em {jurisdiction}"
            ))
        })?;
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        bound(&mut tx, jurisdiction, rulebook, permit.0).await?;
        let (current, how, assessment) = self
            .vehicle_assessment(&mut tx, &ctx, jurisdiction, permit, &vehicle, on)
            .await?;
        tx.commit().await?;
        let evidence = |id: &str| {
            if id == "inclusion_max_age" || id.starts_with("substitute") {
                return "Conferir o ano de fabricação no CRLV; a lei limita a idade do veículo."
                    .into();
            }
            rulebook
                .vehicles
                .requirements
                .iter()
                .find(|r| r.id == id)
                .map(|r| r.check.evidence())
                .unwrap_or_default()
        };
        Ok(VehiclePreview {
            replaces: current
                .map(|(plate, _)| plate)
                .filter(|_| how == "substitution"),
            items: checklist_of(&assessment, &evidence),
        })
    }
}

/// The registered applicant and their checklist: unmet requirements
/// first, then those to check, then those met.
async fn checklist(
    tx: &mut crate::Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    (holder, service, line): (&str, Service, Option<&str>),
    on: NaiveDate,
) -> Result<(Registered, Vec<ChecklistItem>), StoreError> {
    let (document, _) = crate::parse_document(holder)?;
    let assessment = eligible(tx, ctx, jurisdiction, (&document, service, line), on).await?;
    let registered = crate::people::read(&mut **tx, jurisdiction, &document)
        .await?
        .ok_or_else(|| {
            StoreError::NotFound(format!("{document} não está cadastrado em {jurisdiction}"))
        })?;
    let rulebook = ctx.rulebook;
    let evidence = |id: &str| {
        rulebook
            .requirements
            .iter()
            .find(|r| r.id == id)
            .map(|r| r.check.evidence())
            .unwrap_or_default()
    };
    Ok((registered, checklist_of(&assessment, &evidence)))
}
