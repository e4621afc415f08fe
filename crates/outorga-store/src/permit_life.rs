//! A permit's life in the record: its row and history become the core's
//! `LifeState`, a step is asked of the machine (`engine::permit_life`), and
//! what it decides is written with its audit entry. No rule of law here:
//! which steps the law allows, when, and with what limits is the core's.

use crate::audit::images::RowRef;
use crate::audit::{Audit, Change};
use crate::dates::day;
use crate::permit_status::{ended_how, event_of};
use crate::permits::{
    PermitRecord, PermitStep, bound, eligible, end_links, lock_permit, read_permit, step,
};
use crate::requirements::refuse_unmet;
use crate::{Store, StoreError, Tx, articles};
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::permit_life::{Holder, Life, LifeState, LifeStep, Notice, Reserve};
use outorga_core::model::{EndGround, EndedHow, PermitStatus, Rulebook};
use sqlx::Row;

/// A change of a permit's life asked for: the step, and for a transfer the
/// new holder (CPF or CNPJ).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PermitChange {
    pub step: LifeStep,
    pub to: Option<String>,
}

/// The permit's life as the machine sees it: the row's status, grant and
/// term, and what its history says of renewals, a reserve, a penalty
/// suspension, a notice to correct and its end.
pub(crate) async fn load(
    tx: &mut Tx,
    jurisdiction: &str,
    permit: &PermitRecord,
) -> Result<LifeState, StoreError> {
    let status = PermitStatus::parse(&permit.status)
        .ok_or_else(|| StoreError::Corrupt(format!("situação da permissão `{}`", permit.status)))?;
    let mut state = LifeState::new(status, permit.granted_on, permit.expires_on);
    let rows = sqlx::query(
        "SELECT event, since, until, ground FROM permit_history \
         WHERE jurisdiction = $1 AND service = $2 AND number = $3 ORDER BY seq",
    )
    .bind(jurisdiction)
    .bind(&permit.service)
    .bind(permit.number)
    .fetch_all(&mut **tx)
    .await?;
    for row in rows {
        let event: String = row.try_get("event")?;
        let since = day(&row.try_get::<String, _>("since")?)?;
        let until = row
            .try_get::<Option<String>, _>("until")?
            .as_deref()
            .map(day)
            .transpose()?;
        let ground: Option<String> = row.try_get("ground")?;
        state.last = state.last.max(since);
        match event.as_str() {
            "renewal" => state.renewals += 1,
            // `suspension`: a suspension on request recorded before the
            // reserve had its own step.
            "reserve" | "suspension" => {
                state.reserve = Some(Reserve {
                    ground: ground.unwrap_or_default(),
                    since,
                    until: until.unwrap_or(since),
                });
            }
            "reserve_extension" => {
                if let (Some(reserve), Some(until)) = (state.reserve.as_mut(), until) {
                    reserve.until = until;
                }
            }
            "reinstatement" => {
                state.reserve = None;
                state.suspended_until = None;
            }
            "penalty_suspension" => {
                state.reserve = None;
                state.suspended_until = until;
            }
            "caducity_notice" => {
                state.notice = Some(Notice {
                    ground: ground.unwrap_or_default(),
                    on: since,
                    cure_by: until.unwrap_or(since),
                });
            }
            "cure" => state.notice = None,
            other => {
                if let Some(how) = ended_how(other) {
                    state.ended = ground.as_deref().and_then(EndGround::parse).or(match how {
                        EndedHow::Renounced => Some(EndGround::Renunciation),
                        EndedHow::Cassated => Some(EndGround::Cassation),
                        EndedHow::Revoked => Some(EndGround::Revocation),
                        EndedHow::Caducity => Some(EndGround::Caducity),
                        EndedHow::Extinct => None,
                    });
                }
            }
        }
    }
    // A reserve recorded as a suspension on request reads as a reserve.
    if state.status == PermitStatus::Suspended
        && state.suspended_until.is_none()
        && state.reserve.is_some()
    {
        state.status = PermitStatus::Reserved;
    }
    Ok(state)
}

/// The holder's kind and birth date, when recorded (an age limit reads it).
async fn holder(tx: &mut Tx, jurisdiction: &str, document: &str) -> Result<Holder, StoreError> {
    let (kind, profile) = crate::profile::read_profile(tx, jurisdiction, document)
        .await?
        .ok_or_else(|| StoreError::Corrupt(format!("o titular {document} não está cadastrado")))?;
    let person = crate::profile::engine_person(&kind, &profile);
    Ok(Holder {
        born: person.birth_date,
        kind: person.kind,
    })
}

/// Asks the machine for `step` on `on` and writes what it decides: the
/// status, the history step (with its days and ground), the term renewed
/// and its documents, the links a permit that ends takes with it. The law's
/// refusal is `StoreError::Refused`, before anything is written.
pub(crate) async fn apply(
    tx: &mut Tx,
    audit: &Audit,
    (change, ctx): (&Change<'_>, &Context<'_>),
    jurisdiction: &str,
    permit: &PermitRecord,
    (step_taken, on): (&LifeStep, NaiveDate),
    (cited, also): (&[String], Vec<RowRef>),
) -> Result<LifeState, StoreError> {
    let next = decide(tx, ctx, jurisdiction, permit, (step_taken, on)).await?;
    record(
        tx,
        audit,
        (change, ctx),
        jurisdiction,
        permit,
        (step_taken, on, &next),
        (cited, also),
    )
    .await?;
    Ok(next)
}

/// What the machine decides of `step` on `on` for the permit as recorded;
/// the law's refusal is `StoreError::Refused`. Also what a holder's
/// renewal request is weighed with before it reaches the clerks
/// (`petitions.rs`).
pub(crate) async fn decide(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    permit: &PermitRecord,
    (step, on): (&LifeStep, NaiveDate),
) -> Result<LifeState, StoreError> {
    let life = Life::of(ctx)?;
    let state = load(tx, jurisdiction, permit).await?;
    let born = holder(tx, jurisdiction, &permit.holder).await?;
    Ok(life.take(&state, step, on, born)??)
}

/// Writes what the machine decided (`next`).
async fn record(
    tx: &mut Tx,
    audit: &Audit,
    (change, ctx): (&Change<'_>, &Context<'_>),
    jurisdiction: &str,
    permit: &PermitRecord,
    (step_taken, on, next): (&LifeStep, NaiveDate, &LifeState),
    (cited, also): (&[String], Vec<RowRef>),
) -> Result<(), StoreError> {
    let life = Life::of(ctx)?;
    let (service, number) = (permit.service.as_str(), permit.number);
    let mut cited = cited.to_vec();
    let mut also = also;
    let (until, ground) = match step_taken {
        LifeStep::Reserve { ground, .. } => {
            (next.reserve.as_ref().map(|r| r.until), Some(ground.clone()))
        }
        LifeStep::ExtendReserve { .. } => (next.reserve.as_ref().map(|r| r.until), None),
        LifeStep::Suspend { until } => (Some(*until), None),
        LifeStep::CaducityNotice { ground } => (
            next.notice.as_ref().map(|n| n.cure_by),
            Some(ground.clone()),
        ),
        LifeStep::End { ground } => (None, Some(ground.name().to_string())),
        LifeStep::Cassate => (None, Some(EndGround::Cassation.name().to_string())),
        _ => (None, None),
    };
    cited.extend(life_citations(&life, step_taken));
    if let (LifeStep::Renew, Some(end)) = (step_taken, next.expires) {
        sqlx::query(
            "UPDATE permits SET expires_on = $4 WHERE jurisdiction = $1 AND service = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .bind(end.to_string())
        .execute(&mut **tx)
        .await?;
        crate::permits::renew_documents(tx, (audit, ctx), change, jurisdiction, (permit, on), end)
            .await?;
    }
    if next.is_ended() {
        also.extend(end_links(tx, audit, jurisdiction, (service, number), on).await?);
    }
    step(
        tx,
        audit,
        change,
        jurisdiction,
        (service, number),
        PermitStep {
            event: event_of(step_taken),
            status: next.status.name(),
            since: on,
            until,
            ground: ground.as_deref(),
            cited: &articles(&cited.iter().map(String::as_str).collect::<Vec<_>>()),
            also,
        },
    )
    .await
}

/// The articles a step rests on when the law allows it.
fn life_citations(life: &Life<'_, '_>, step: &LifeStep) -> Vec<String> {
    let rules = life.rules;
    let rulebook = life.ctx.rulebook;
    let found: Option<&str> = match step {
        LifeStep::Reserve { ground, .. } => rulebook.permit_suspension.as_ref().map(|r| {
            r.reasons
                .iter()
                .find(|known| known.key == *ground)
                .map_or(r.citation.as_str(), |known| known.citation.as_str())
        }),
        LifeStep::ExtendReserve { .. } => rulebook
            .permit_suspension
            .as_ref()
            .map(|r| r.citation.as_str()),
        LifeStep::Renew => rules.renewal.as_ref().map(|r| r.citation.as_str()),
        LifeStep::Transfer { .. } => Some(rules.transfer.citation.as_str()),
        LifeStep::End { ground } => rules
            .ends
            .iter()
            .find(|e| e.ground == *ground)
            .map(|e| e.citation.as_str()),
        _ => None,
    };
    let mut out = vec![rules.citation.clone()];
    out.extend(found.map(str::to_string));
    if let LifeStep::End { ground } = step
        && let Some(vacancy) = rules
            .ends
            .iter()
            .find(|e| e.ground == *ground)
            .and_then(|e| e.vacancy.as_ref())
    {
        out.push(vacancy.clone());
    }
    out
}

impl Store {
    /// Changes a permit's life as the law allows (the core decides),
    /// recording the step: reserve and its extension, return, renewal,
    /// transfer to a registered and eligible holder, notice to correct and
    /// its cure, and the end on a ground of the law.
    pub async fn change_permit(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, number): (&str, i64),
        asked: &PermitChange,
        on: NaiveDate,
    ) -> Result<PermitRecord, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let service_kind = bound(&mut tx, jurisdiction, rulebook, service).await?;
        let permit = lock_permit(&mut tx, &self.audit, jurisdiction, (service, number)).await?;
        let mut cited = Vec::new();
        let new_holder = match (&asked.step, &asked.to) {
            (LifeStep::Transfer { .. }, None) => {
                return Err(StoreError::Invalid {
                    field: "para",
                    reason: "a transferência nomeia o novo titular (CPF ou CNPJ cadastrado)".into(),
                });
            }
            (LifeStep::Transfer { .. }, Some(to)) => {
                let (to, _) = crate::parse_document(to)?;
                if to == permit.holder {
                    return Err(StoreError::Invalid {
                        field: "para",
                        reason: "o novo titular é o mesmo".into(),
                    });
                }
                Some(to)
            }
            (_, Some(_)) => {
                return Err(StoreError::Invalid {
                    field: "para",
                    reason: "só a transferência nomeia um novo titular".into(),
                });
            }
            (_, None) => None,
        };
        // The law decides first (a transfer it forbids is refused before
        // anyone's eligibility is weighed).
        let next = decide(&mut tx, &ctx, jurisdiction, &permit, (&asked.step, on)).await?;
        if let Some(to) = &new_holder {
            let assessment = eligible(
                &mut tx,
                &ctx,
                jurisdiction,
                (to, service_kind, permit.line.as_deref()),
                on,
            )
            .await?;
            refuse_unmet("transferência negada", &assessment)?;
            cited.extend(articles(&assessment.citations));
            // Written before the step, whose audit image holds the row.
            sqlx::query(
                "UPDATE permits SET holder = $4 WHERE jurisdiction = $1 AND service = $2 AND number = $3",
            )
            .bind(jurisdiction)
            .bind(service)
            .bind(number)
            .bind(to)
            .execute(&mut *tx)
            .await?;
        }
        record(
            &mut tx,
            &self.audit,
            (change, &ctx),
            jurisdiction,
            &permit,
            (&asked.step, on, &next),
            (&cited, Vec::new()),
        )
        .await?;
        let permit = read_permit(&mut tx, jurisdiction, service, number).await?;
        tx.commit().await?;
        Ok(permit)
    }
}
