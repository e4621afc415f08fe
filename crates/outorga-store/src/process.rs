//! The process of an auto, applied. The store locks the auto, reads the
//! state it is in, asks the core's procedure (`outorga_core::engine::process`)
//! whether the step may be taken on that day, and writes the state it
//! returns, the step and its audit entry; when the decision becomes final,
//! the penalties it imposed are applied to the records: points count,
//! suspensions get their start and end, cassations end permits and
//! credentials, fines become debts. The law's order, time limits and choices
//! are the machine's; none of them is decided here.

use crate::audit::guard::unchanged_where;
use crate::audit::images::{KeyPart, RowRef};
use crate::audit::{Audit, Change, Entry};
use crate::auto_record::{
    Auto, ProposedSanction, auto_step, decision_text, from_process, read_auto,
};
use crate::permits::lock_permit;
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::permit_life::LifeStep;
use outorga_core::engine::process::{Limit, Machine, State, Status, Step, StepKind};
use outorga_core::model::{DeadlineKind, Rulebook, SanctionKind};
use sqlx::Row;

/// A step of the process asked for, with its text: the defense, the appeal,
/// or the grounds of a decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessStep {
    pub step: Step,
    pub text: String,
}

impl ProcessStep {
    pub fn new(step: Step) -> Self {
        ProcessStep {
            step,
            text: String::new(),
        }
    }

    pub fn with_text(step: Step, text: impl Into<String>) -> Self {
        ProcessStep {
            step,
            text: text.into(),
        }
    }
}

/// An auto's status in Portuguese.
pub fn status_pt(status: Status) -> &'static str {
    status.portuguese()
}

/// The machine's state of an auto as recorded; `last` is the day of its
/// last step.
pub(crate) fn state_of(auto: &Auto, last: NaiveDate) -> State {
    let day = auto.committed_at.date();
    State {
        status: auto.status,
        issued: auto.issued_on.unwrap_or(day),
        last,
        notified: auto.notified_on,
        defended: auto.defense_on,
        decision_notified: auto.decision_notified_on,
        appealed: auto.appealed_on,
        instance: auto.instance,
        decision: auto.decision.clone(),
        closed: auto
            .status
            .is_closed()
            .then(|| auto.final_on.unwrap_or(last)),
        uncured: auto.uncured,
        released: auto.released_on,
        cure_days: auto.cure_days,
        verification: auto.verification_at,
    }
}

/// The day of the auto's last step (its day when none was taken).
pub(crate) async fn last_step(
    tx: &mut Tx,
    jurisdiction: &str,
    auto: &Auto,
) -> Result<NaiveDate, StoreError> {
    let last = sqlx::query(
        "SELECT MAX(on_date) AS last FROM auto_steps WHERE jurisdiction = $1 AND year = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(auto.year)
    .bind(auto.number)
    .fetch_one(&mut **tx)
    .await?;
    let last: Option<String> = last.try_get("last")?;
    Ok(last
        .as_deref()
        .map(crate::dates::day)
        .transpose()?
        .unwrap_or(auto.committed_at.date()))
}

impl Store {
    /// An auto and where its procedure stands, as `process_auto` weighs a
    /// step (the machine's state; with `auto.proposal.stakes()`, what is at
    /// stake).
    pub async fn auto_state(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
    ) -> Result<(Auto, State), StoreError> {
        let mut tx = self.pool.begin().await?;
        let auto = read_auto(&mut tx, jurisdiction, (year, number)).await?;
        let last = last_step(&mut tx, jurisdiction, &auto).await?;
        tx.commit().await?;
        let state = state_of(&auto, last);
        Ok((auto, state))
    }
}

/// The field a step's text is checked as.
fn text_field(step: StepKind) -> &'static str {
    if step.decides() {
        "fundamentos"
    } else {
        "texto"
    }
}

impl Store {
    /// Takes one step of an auto's process on `on`, as the law's procedure
    /// allows it.
    pub async fn process_auto(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (year, number): (i32, i64),
        process: &ProcessStep,
        on: NaiveDate,
    ) -> Result<Auto, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let auto = self
            .take_step(
                &mut tx,
                change,
                rulebook,
                jurisdiction,
                (year, number),
                process,
                on,
            )
            .await?;
        tx.commit().await?;
        Ok(auto)
    }

    /// [`Store::process_auto`] in `tx` (a write transaction the caller
    /// commits): what a holder's online defense or appeal records with its
    /// petition (`petitions.rs`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) async fn take_step(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (year, number): (i32, i64),
        process: &ProcessStep,
        on: NaiveDate,
    ) -> Result<Auto, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let kind = process.step.kind();
        crate::text::checked(text_field(kind), &process.text, crate::TextKind::Long)?;
        let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
        // The auto's row lock (PostgreSQL): concurrent steps on one auto are
        // taken one after the other, each seeing the status the other left.
        sqlx::query("UPDATE autos SET status = status WHERE jurisdiction = $1 AND year = $2 AND number = $3")
            .bind(jurisdiction)
            .bind(year)
            .bind(number)
            .execute(&mut **tx)
            .await?;
        crate::audit::guard::unchanged(
            tx,
            &self.audit.schema,
            &[RowRef::new(
                "autos",
                [jurisdiction.into(), year.into(), number.into()],
            )],
        )
        .await?;
        let auto = read_auto(tx, jurisdiction, (year, number)).await?;
        if auto.rulebook != rulebook.id {
            return Err(StoreError::Invalid {
                field: "regulamento",
                reason: format!("o auto foi lavrado sob {}", auto.rulebook),
            });
        }
        let last = last_step(tx, jurisdiction, &auto).await?;
        if on < last {
            return Err(StoreError::Invalid {
                field: "data",
                reason: format!("{on} é antes do último ato do processo ({last})"),
            });
        }
        let machine = Machine::of(&ctx)?;
        let stakes = auto.proposal.stakes()?;
        let state = state_of(&auto, last);
        let next = machine.take(&stakes, &state, &process.step, on)??;
        // A vehicle held on the spot is released as its custody allows
        // (its hours, the conditions the law sets), and the act recorded.
        if kind == StepKind::Release {
            let at = crate::custody::release_moment(rulebook, change, on);
            crate::custody::check_release(tx, rulebook, jurisdiction, &auto, at).await?;
            crate::custody::mark_released(
                tx,
                (&self.audit, change),
                jurisdiction,
                (year, number),
                (at, &process.text),
            )
            .await?;
        }
        let limits = machine.limits(&stakes, &next)?;
        let key = (year, number);
        // What a final decision imposes, and the infraction it is recorded as.
        let selection = match (&next.status, &next.decision) {
            (Status::Final, Some(d)) => Some(machine.selection(&stakes, &next, d)?),
            _ => None,
        };
        let recorded_as = selection
            .as_ref()
            .and_then(|s| s.option)
            .and_then(|i| auto.proposal.options.get(i))
            .and_then(|o| o.record_as.as_deref());
        write_state(
            tx,
            jurisdiction,
            (&auto, &next, recorded_as),
            &limits,
            (kind, on),
        )
        .await?;
        let cited: Vec<String> = limits.iter().map(|l| l.citation.to_string()).collect();
        auto_step(
            tx,
            &self.audit,
            change,
            jurisdiction,
            key,
            (kind.name(), on),
            (&process.text, &cited),
        )
        .await?;
        if kind == StepKind::Release
            || matches!(
                next.status,
                Status::Archived | Status::Annulled | Status::Cured
            )
        {
            let why = if kind == StepKind::Release {
                "liberado"
            } else {
                "o auto não subsiste"
            };
            end_measures(tx, (&self.audit, change, why), jurisdiction, key, on).await?;
        }
        if next.status == Status::Final {
            let set = match selection.as_ref().and_then(|s| s.option) {
                Some(i) => &auto.proposal.options[i].sanctions,
                None if next.uncured => &auto.proposal.uncured,
                None => &auto.proposal.sanctions,
            };
            let decided: Vec<ProposedSanction> = selection
                .map(|s| s.stakes)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|i| set.get(i))
                .filter(|p| p.at_once.is_none())
                .map(|p| {
                    let mut p = p.clone();
                    if p.days.is_none() && p.max_days.is_some() {
                        p.days = next.decision.as_ref().and_then(|d| d.days);
                    }
                    p
                })
                .collect();
            let payment = limits
                .iter()
                .find(|l| l.kind == DeadlineKind::Payment)
                .map(|l| l.due);
            finalize(
                tx,
                (&self.audit, &ctx),
                change,
                jurisdiction,
                &auto,
                (&decided, payment),
                on,
            )
            .await?;
        }
        read_auto(tx, jurisdiction, key).await
    }
}

/// Writes the state the machine returned, with the limits that govern it
/// (kept for the agenda and the lists).
async fn write_state(
    tx: &mut Tx,
    jurisdiction: &str,
    (auto, next, recorded_as): (&Auto, &State, Option<&str>),
    limits: &[Limit<'_>],
    (kind, on): (StepKind, NaiveDate),
) -> Result<(), StoreError> {
    let limit = |wanted: &[DeadlineKind]| {
        limits
            .iter()
            .find(|l| wanted.contains(&l.kind))
            .map(|l| l.due)
    };
    let text = |day: Option<NaiveDate>| day.map(|d| d.to_string());
    let judged_on = if kind.decides() {
        Some(on)
    } else {
        auto.judged_on
    };
    let final_on = if next.status == Status::Final {
        next.closed
    } else {
        auto.final_on
    };
    sqlx::query(
        "UPDATE autos SET status = $4, issued_on = $5, uncured = $6, notify_by = $7, cure_by = $8, \
         notified_on = $9, defense_by = $10, defense_on = $11, judged_on = $12, \
         decision_notified_on = $13, appeal_by = $14, appealed_on = $15, instance = $16, \
         decision = $17, final_on = $18, released_on = $19, cure_days = $20, verification_at = $21, \
         verification_on = $22, recorded_as = COALESCE($23, recorded_as) \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(auto.year)
    .bind(auto.number)
    .bind(next.status.name())
    .bind(next.issued.to_string())
    .bind(i32::from(next.uncured))
    .bind(text(
        limit(&[DeadlineKind::Notification]).or(auto.notify_by),
    ))
    .bind(text(limit(&[DeadlineKind::Cure]).or(auto.cure_by)))
    .bind(text(next.notified))
    .bind(text(limit(&[DeadlineKind::Defense]).or(auto.defense_by)))
    .bind(text(next.defended))
    .bind(text(judged_on))
    .bind(text(next.decision_notified))
    .bind(text(
        limit(&[DeadlineKind::Appeal, DeadlineKind::SecondAppeal]).or(auto.appeal_by),
    ))
    .bind(text(next.appealed))
    .bind(i32::try_from(next.instance).unwrap_or(i32::MAX))
    .bind(next.decision.as_ref().map(decision_text))
    .bind(text(final_on))
    .bind(text(next.released))
    .bind(next.cure_days.map(|d| i32::try_from(d).unwrap_or(i32::MAX)))
    .bind(next.verification.map(crate::dates::moment_text))
    .bind(text(next.verification.map(|at| at.date())))
    .bind(recorded_as)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The measures applied on the spot end when the auto falls (archived,
/// annulled, cured) or what they hold is released: their last day is the
/// day before.
async fn end_measures(
    tx: &mut Tx,
    (audit, change, why): (&Audit, &Change<'_>, &str),
    jurisdiction: &str,
    (year, number): (i32, i64),
    on: NaiveDate,
) -> Result<(), StoreError> {
    let last = on.pred_opt().unwrap_or(on).to_string();
    unchanged_where(
        tx,
        &audit.schema,
        "applied_sanctions",
        "jurisdiction = $1 AND year = $2 AND number = $3",
        &[jurisdiction.into(), year.into(), number.into()],
    )
    .await?;
    let ended = sqlx::query(
        "UPDATE applied_sanctions SET ends = $4 WHERE jurisdiction = $1 AND year = $2 AND number = $3 \
         AND (ends IS NULL OR ends > $4) RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .bind(&last)
    .fetch_all(&mut **tx)
    .await?;
    if ended.is_empty() {
        return Ok(());
    }
    let rows = ended
        .iter()
        .map(|row| {
            let seq: i64 = row.try_get("seq")?;
            Ok(RowRef::new(
                "applied_sanctions",
                [jurisdiction.into(), year.into(), number.into(), seq.into()],
            ))
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    crate::audit::append(
        tx,
        audit,
        change,
        Entry {
            action: "sanction.end",
            jurisdiction: Some(jurisdiction),
            subject: &format!("auto:{year}:{number}"),
            detail: serde_json::json!({ "ends": last, "why": why }),
            rows,
        },
    )
    .await?;
    Ok(())
}

/// Makes the decision final on `on` and applies the penalties decided: fines
/// become debts due on the law's payment limit (`payment`; none: on `on`),
/// the others are applied to the records.
async fn finalize(
    tx: &mut Tx,
    (audit, ctx): (&Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    auto: &Auto,
    (decided, payment): (&[ProposedSanction], Option<NaiveDate>),
    on: NaiveDate,
) -> Result<(), StoreError> {
    for sanction in decided {
        if sanction.kind == SanctionKind::Fine.name() {
            fine_debt(
                tx,
                (audit, ctx),
                change,
                jurisdiction,
                auto,
                sanction,
                (on, payment.unwrap_or(on)),
            )
            .await?;
            continue;
        }
        apply(tx, (audit, ctx), change, jurisdiction, auto, sanction, on).await?;
    }
    auto_step(
        tx,
        audit,
        change,
        jurisdiction,
        (auto.year, auto.number),
        ("final", on),
        ("penalidades aplicadas", &auto.proposal.articles),
    )
    .await
}

/// A fine decided becomes a debt of its payer (the offender when the
/// sanction names none), issued on `issued` and due on `due`, with its audit
/// entry.
pub(crate) async fn fine_debt(
    tx: &mut Tx,
    (audit, ctx): (&Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    auto: &Auto,
    sanction: &ProposedSanction,
    (on, due): (NaiveDate, NaiveDate),
) -> Result<i64, StoreError> {
    let debtor = sanction
        .payer
        .clone()
        .unwrap_or_else(|| auto.offender.clone());
    let quantity = sanction.quantity.as_deref().unwrap_or("0");
    let amount = outorga_core::model::Amount {
        unit: sanction.unit.clone().unwrap_or_else(|| "BRL".into()),
        quantity: quantity
            .parse()
            .map_err(|_| StoreError::Corrupt(format!("fine quantity `{quantity}`")))?,
    };
    let new = crate::debts::NewDebt {
        origin: crate::debts::Origin::Auto,
        key: (auto.year, auto.number),
        rulebook: &auto.rulebook,
        fee: None,
        article: sanction.articles.first().map(String::as_str),
        purpose: format!("Multa do auto nº {}/{}", auto.number, auto.year),
        permit: auto.permit.as_ref().map(|p| p.1),
        debtor: &debtor,
        amount: &amount,
        issued_on: on,
        due_on: due,
        from_process: from_process(&auto.proposal),
    };
    let (_, _, seq) =
        crate::debts::insert_debt(tx, (audit, ctx), change, jurisdiction, &new).await?;
    Ok(seq)
}

/// Records a sanction in force from `on` (a penalty decided, or a measure
/// applied on the spot) and what it does to the records.
pub(crate) async fn apply(
    tx: &mut Tx,
    (audit, ctx): (&Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    auto: &Auto,
    sanction: &ProposedSanction,
    on: NaiveDate,
) -> Result<(), StoreError> {
    let ends = Machine::of(ctx)?.last_day(&sanction.stake()?, on, sanction.days);
    let seq: i64 = sqlx::query(
        "INSERT INTO applied_sanctions (jurisdiction, year, number, seq, kind, target, starts, ends, citations) \
         SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, $4, $5, $6, $7, $8 FROM applied_sanctions \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(auto.year)
    .bind(auto.number)
    .bind(&sanction.kind)
    .bind(sanction.target.clone())
    .bind(on.to_string())
    .bind(ends.map(|e| e.to_string()))
    .bind(serde_json::json!(sanction.articles).to_string())
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    let mut rows = on_records(
        tx,
        (audit, ctx),
        change,
        jurisdiction,
        auto,
        sanction,
        (on, ends),
    )
    .await?;
    rows.push(RowRef::new(
        "applied_sanctions",
        [
            jurisdiction.into(),
            auto.year.into(),
            auto.number.into(),
            seq.into(),
        ],
    ));
    crate::audit::append(
        tx,
        audit,
        change,
        Entry {
            action: "sanction.apply",
            jurisdiction: Some(jurisdiction),
            subject: &format!("auto:{}:{}", auto.year, auto.number),
            detail: serde_json::json!({ "kind": sanction.kind, "target": sanction.target, "starts": on,
                            "ends": ends, "articles": sanction.articles }),
            rows,
        },
    )
    .await?;
    Ok(())
}

/// What a final sanction does to the records: a suspension of the holder or
/// of the permit suspends the permit until its last day; a cassation ends
/// the permit (and its links); a driver's cassation ends their links and
/// registrations wherever they serve (the cassation itself, in
/// `applied_sanctions`, bars them as eligibility reads it). Returns the rows
/// it wrote outside a permit's step, for the sanction's audit entry.
async fn on_records(
    tx: &mut Tx,
    (audit, ctx): (&Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    auto: &Auto,
    sanction: &ProposedSanction,
    (on, ends): (NaiveDate, Option<NaiveDate>),
) -> Result<Vec<RowRef>, StoreError> {
    let registrations = |rows: Vec<sqlx::any::AnyRow>| -> Result<Vec<RowRef>, StoreError> {
        rows.iter()
            .map(|row| {
                Ok(RowRef::new(
                    "permit_drivers",
                    [
                        jurisdiction.into(),
                        row.try_get::<String, _>("registration")?.into(),
                    ],
                ))
            })
            .collect()
    };
    if sanction.kind == "driver_cassation" {
        let target = sanction
            .target
            .clone()
            .unwrap_or_else(|| auto.offender.clone());
        let of_target: [KeyPart; 2] = [jurisdiction.into(), (&target).into()];
        unchanged_where(
            tx,
            &audit.schema,
            "documents",
            "jurisdiction = $1 AND kind = 'driver_registration' AND holder = $2 AND cancelled_on IS NULL",
            &of_target,
        )
        .await?;
        unchanged_where(
            tx,
            &audit.schema,
            "permit_drivers",
            "jurisdiction = $1 AND driver = $2 AND until IS NULL",
            &of_target,
        )
        .await?;
        let mut rows = crate::documents::cancelled_codes(
            sqlx::query(
                "UPDATE documents SET cancelled_on = $3 WHERE jurisdiction = $1 \
                 AND kind = 'driver_registration' AND holder = $2 AND cancelled_on IS NULL \
                 RETURNING code",
            )
            .bind(jurisdiction)
            .bind(&target)
            .bind(on.to_string())
            .fetch_all(&mut **tx)
            .await?,
        )?;
        rows.extend(registrations(
            sqlx::query(
                "UPDATE permit_drivers SET until = $3 WHERE jurisdiction = $1 AND driver = $2 \
                 AND until IS NULL RETURNING registration",
            )
            .bind(jurisdiction)
            .bind(&target)
            .bind(on.to_string())
            .fetch_all(&mut **tx)
            .await?,
        )?);
        return Ok(rows);
    }
    let mut rows = Vec::new();
    if sanction.kind == "suspension"
        && let Some(target) = &sanction.target
    {
        // A driver's own suspension suspends their credential wherever they
        // serve; the holder's suspends the permit (below).
        unchanged_where(
            tx,
            &audit.schema,
            "permit_drivers",
            "jurisdiction = $1 AND driver = $2 AND until IS NULL",
            &[jurisdiction.into(), target.into()],
        )
        .await?;
        rows = registrations(
            sqlx::query(
                "UPDATE permit_drivers SET suspended_until = $3 WHERE jurisdiction = $1 \
                 AND driver = $2 AND until IS NULL RETURNING registration",
            )
            .bind(jurisdiction)
            .bind(target)
            .bind(ends.map(|e| e.to_string()))
            .fetch_all(&mut **tx)
            .await?,
        )?;
    }
    let Some((service, number)) = &auto.permit else {
        return Ok(rows);
    };
    let holder: String = sqlx::query(
        "SELECT holder FROM permits WHERE jurisdiction = $1 AND service = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .fetch_one(&mut **tx)
    .await?
    .try_get("holder")?;
    let of_holder = sanction.target.as_deref().is_none_or(|t| t == holder);
    let step = match (sanction.kind.as_str(), ends) {
        ("permit_suspension" | "suspension", Some(until)) if of_holder => {
            LifeStep::Suspend { until }
        }
        ("permit_cassation", _) => LifeStep::Cassate,
        _ => return Ok(rows),
    };
    let permit = lock_permit(tx, audit, jurisdiction, (service, *number)).await?;
    match crate::permit_life::apply(
        tx,
        audit,
        (change, ctx),
        jurisdiction,
        &permit,
        (&step, on),
        (&sanction.articles, Vec::new()),
    )
    .await
    {
        // A permit the law no longer lets the penalty reach (already ended):
        // the sanction stands in the auto's record, the permit is untouched.
        Ok(_) | Err(StoreError::Refused { .. }) => Ok(rows),
        Err(e) => Err(e),
    }
}

impl Store {
    /// What migration 0023 leaves to an audited write: an auto judged whose
    /// decision was notified (the day its `decision_notified` step records)
    /// is `decision_notified`. Returns how many autos it moved.
    pub async fn upgrade_records(&self, change: &Change<'_>) -> Result<usize, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let rows = sqlx::query(
            "SELECT a.jurisdiction, a.year, a.number, MAX(s.on_date) AS noticed FROM autos a \
             JOIN auto_steps s ON s.jurisdiction = a.jurisdiction AND s.year = a.year AND s.number = a.number \
             AND s.step = 'decision_notified' \
             WHERE a.status = 'judged' AND a.appeal_by IS NOT NULL AND a.decision_notified_on IS NULL \
             GROUP BY a.jurisdiction, a.year, a.number",
        )
        .fetch_all(&mut *tx)
        .await?;
        for row in &rows {
            let jurisdiction: String = row.try_get("jurisdiction")?;
            let year: i64 = row.try_get("year")?;
            let number: i64 = row.try_get("number")?;
            let noticed: String = row.try_get("noticed")?;
            let auto = RowRef::new(
                "autos",
                [jurisdiction.as_str().into(), year.into(), number.into()],
            );
            crate::audit::guard::unchanged(
                &mut tx,
                &self.audit.schema,
                std::slice::from_ref(&auto),
            )
            .await?;
            sqlx::query(
                "UPDATE autos SET status = 'decision_notified', decision_notified_on = $4 \
                 WHERE jurisdiction = $1 AND year = $2 AND number = $3",
            )
            .bind(&jurisdiction)
            .bind(year)
            .bind(number)
            .bind(&noticed)
            .execute(&mut *tx)
            .await?;
            crate::audit::append(
                &mut tx,
                &self.audit,
                change,
                Entry {
                    action: "auto.upgrade",
                    jurisdiction: Some(&jurisdiction),
                    subject: &format!("auto:{year}:{number}"),
                    detail: serde_json::json!({ "status": "decision_notified", "decision_notified_on": noticed,
                                                "why": "migração 0023: a situação do auto com a decisão notificada" }),
                    rows: vec![auto],
                },
            )
            .await?;
        }
        tx.commit().await?;
        Ok(rows.len())
    }
}
