//! The process of an auto: notification (archived when its deadline lapses),
//! defense, judgement, appeal and the final decision, each within the law's
//! deadline. Penalties wait for the final decision (the defense and the
//! appeal suspend them); then they are applied to the records: points count,
//! suspensions get their start and end, cassations end permits and
//! credentials, fines become debts.

use crate::audit::guard::unchanged_where;
use crate::audit::images::{KeyPart, RowRef};
use crate::audit::{Audit, Change, Entry};
use crate::autos::{Auto, ProposedSanction, auto_step, from_process, read_auto};
use crate::parameters::{deadline_article, optional_deadline};
use crate::permits::{PermitStep, end_links, step};
use crate::{Store, StoreError, Tx};
use chrono::{Days, Months, NaiveDate};
use outorga_core::model::{DeadlineKind, Rulebook};
use sqlx::Row;

/// A step of the process asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProcessStep {
    /// The offender was notified on this day.
    Notify,
    /// The offender was notified of the judgement: the appeal's time starts.
    NotifyDecision,
    /// The defense was filed.
    Defend {
        text: String,
    },
    /// The judgement: upheld (penalty stands) or not (the auto is annulled).
    Judge {
        upheld: bool,
        grounds: String,
    },
    Appeal {
        text: String,
    },
    /// The decision on the appeal.
    DecideAppeal {
        upheld: bool,
        grounds: String,
    },
    /// No appeal was filed within its deadline: the decision becomes final.
    Finalize,
    /// Not notified within the deadline: archived.
    Archive,
}

/// A refusal that rests on the process's own order, not on an article.
fn refused(reason: String) -> StoreError {
    StoreError::Refused {
        reason,
        articles: Vec::new(),
    }
}

/// Refuses a step taken after `by`, the last day of the law's `kind` limit,
/// naming the article that sets it.
fn in_time(
    rulebook: &Rulebook,
    (kind, by): (DeadlineKind, Option<NaiveDate>),
    on: NaiveDate,
    late: impl FnOnce(NaiveDate) -> String,
) -> Result<(), StoreError> {
    match by {
        Some(by) if on > by => Err(StoreError::Refused {
            reason: late(by),
            articles: deadline_article(rulebook, &[kind]),
        }),
        _ => Ok(()),
    }
}

fn wrong_status(auto: &Auto, wanted: &str) -> StoreError {
    StoreError::Invalid {
        field: "situação",
        reason: format!(
            "o auto nº {}/{} está {}: {wanted}",
            auto.number,
            auto.year,
            status_pt(&auto.status)
        ),
    }
}

/// An auto's status in Portuguese.
pub fn status_pt(status: &str) -> &'static str {
    match status {
        "issued" => "lavrado, aguardando notificação",
        "notified" => "notificado, aguardando defesa e julgamento",
        "archived" => "arquivado",
        "judged" => "julgado, no prazo de recurso",
        "appealed" => "em recurso",
        "final" => "com decisão definitiva",
        "annulled" => "anulado",
        _ => "em situação desconhecida",
    }
}

async fn set(
    tx: &mut Tx,
    jurisdiction: &str,
    auto: &Auto,
    assignments: &[(&str, Option<String>)],
) -> Result<(), StoreError> {
    let sets: Vec<String> = assignments
        .iter()
        .enumerate()
        .map(|(i, (column, _))| format!("{column} = ${}", i + 4))
        .collect();
    let sql = format!(
        "UPDATE autos SET {} WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        sets.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(jurisdiction)
        .bind(auto.year)
        .bind(auto.number);
    for (_, value) in assignments {
        query = query.bind(value.clone());
    }
    query.execute(&mut **tx).await?;
    Ok(())
}

impl Store {
    /// Takes one step of an auto's process on `on`, within the law's deadline.
    pub async fn process_auto(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (year, number): (i32, i64),
        process: &ProcessStep,
        on: NaiveDate,
    ) -> Result<Auto, StoreError> {
        crate::under_law("data", on, change, rulebook)?;
        match process {
            ProcessStep::Defend { text } | ProcessStep::Appeal { text } => {
                crate::text::checked("texto", text, crate::TextKind::Long)?;
            }
            ProcessStep::Judge { grounds, .. } | ProcessStep::DecideAppeal { grounds, .. } => {
                crate::text::checked("fundamentos", grounds, crate::TextKind::Long)?;
            }
            _ => {}
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        // The auto's row lock (PostgreSQL): concurrent steps on one auto are
        // taken one after the other, each seeing the status the other left.
        sqlx::query("UPDATE autos SET status = status WHERE jurisdiction = $1 AND year = $2 AND number = $3")
            .bind(jurisdiction)
            .bind(year)
            .bind(number)
            .execute(&mut *tx)
            .await?;
        crate::audit::guard::unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new(
                "autos",
                [jurisdiction.into(), year.into(), number.into()],
            )],
        )
        .await?;
        let auto = read_auto(&mut tx, jurisdiction, (year, number)).await?;
        let last = sqlx::query(
            "SELECT MAX(on_date) AS last FROM auto_steps WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .fetch_one(&mut *tx)
        .await?;
        let last: Option<String> = last.try_get("last")?;
        if let Some(last) = last.as_deref().map(crate::world::day).transpose()?
            && on < last
        {
            return Err(StoreError::Invalid {
                field: "data",
                reason: format!("{on} é antes do último ato do processo ({last})"),
            });
        }
        if auto.rulebook != rulebook.id {
            return Err(StoreError::Invalid {
                field: "regulamento",
                reason: format!("o auto foi lavrado sob {}", auto.rulebook),
            });
        }
        let key = (year, number);
        let day = Some(on.to_string());
        match process {
            ProcessStep::Notify => {
                if auto.status != "issued" {
                    return Err(wrong_status(&auto, "só um auto lavrado é notificado"));
                }
                in_time(
                    rulebook,
                    (DeadlineKind::Notification, auto.notify_by),
                    on,
                    |by| {
                        format!(
                            "o prazo para notificar terminou em {by}: o auto deve ser arquivado"
                        )
                    },
                )?;
                let defense = optional_deadline(&ctx, DeadlineKind::Defense, on)?;
                set(
                    &mut tx,
                    jurisdiction,
                    &auto,
                    &[
                        ("status", Some("notified".into())),
                        ("notified_on", day.clone()),
                        ("defense_by", defense.as_ref().map(|(d, _)| d.to_string())),
                    ],
                )
                .await?;
                let cited: Vec<String> = defense.into_iter().map(|(_, a)| a).collect();
                auto_step(
                    &mut tx,
                    &self.audit,
                    change,
                    jurisdiction,
                    key,
                    ("notified", on),
                    ("", &cited),
                )
                .await?;
            }
            ProcessStep::Defend { text } => {
                if auto.status != "notified" || auto.defense_on.is_some() {
                    return Err(wrong_status(
                        &auto,
                        "a defesa cabe uma vez, após a notificação",
                    ));
                }
                in_time(
                    rulebook,
                    (DeadlineKind::Defense, auto.defense_by),
                    on,
                    |by| format!("defesa fora do prazo, que terminou em {by}"),
                )?;
                set(&mut tx, jurisdiction, &auto, &[("defense_on", day.clone())]).await?;
                auto_step(
                    &mut tx,
                    &self.audit,
                    change,
                    jurisdiction,
                    key,
                    ("defense", on),
                    (text, &[]),
                )
                .await?;
            }
            ProcessStep::Judge { upheld, grounds } => {
                if auto.status != "notified" {
                    return Err(wrong_status(&auto, "julga-se um auto notificado"));
                }
                if let Some(by) = auto.defense_by
                    && on <= by
                    && auto.defense_on.is_none()
                {
                    return Err(refused(format!(
                        "o prazo de defesa corre até {by}: julgue depois dele ou da defesa"
                    )));
                }
                if *upheld {
                    set(
                        &mut tx,
                        jurisdiction,
                        &auto,
                        &[
                            ("status", Some("judged".into())),
                            ("judged_on", day.clone()),
                        ],
                    )
                    .await?;
                    auto_step(
                        &mut tx,
                        &self.audit,
                        change,
                        jurisdiction,
                        key,
                        ("judged", on),
                        (grounds, &[]),
                    )
                    .await?;
                    if ctx.rulebook.deadline(DeadlineKind::Appeal).is_none() {
                        // The law gives no appeal: the judgement is final.
                        finalize(
                            &mut tx,
                            &self.audit,
                            change,
                            rulebook,
                            jurisdiction,
                            &auto,
                            on,
                        )
                        .await?;
                    }
                } else {
                    set(
                        &mut tx,
                        jurisdiction,
                        &auto,
                        &[
                            ("status", Some("annulled".into())),
                            ("judged_on", day.clone()),
                        ],
                    )
                    .await?;
                    auto_step(
                        &mut tx,
                        &self.audit,
                        change,
                        jurisdiction,
                        key,
                        ("annulled", on),
                        (grounds, &[]),
                    )
                    .await?;
                }
            }
            ProcessStep::NotifyDecision => {
                if auto.status != "judged" || auto.appeal_by.is_some() {
                    return Err(wrong_status(
                        &auto,
                        "notifica-se uma vez a decisão de um auto julgado",
                    ));
                }
                // The appeal's time runs from the notice of the decision
                // (SMJ art. 60; Canguçu Anexo I art. 29).
                let appeal = optional_deadline(&ctx, DeadlineKind::Appeal, on)?;
                set(
                    &mut tx,
                    jurisdiction,
                    &auto,
                    &[("appeal_by", appeal.as_ref().map(|(d, _)| d.to_string()))],
                )
                .await?;
                let cited: Vec<String> = appeal.into_iter().map(|(_, a)| a).collect();
                auto_step(
                    &mut tx,
                    &self.audit,
                    change,
                    jurisdiction,
                    key,
                    ("decision_notified", on),
                    ("", &cited),
                )
                .await?;
            }
            ProcessStep::Appeal { text } => {
                if auto.status != "judged" || auto.appeal_by.is_none() {
                    return Err(wrong_status(
                        &auto,
                        "recorre-se de um auto julgado, depois de notificada a decisão",
                    ));
                }
                in_time(rulebook, (DeadlineKind::Appeal, auto.appeal_by), on, |by| {
                    format!("recurso fora do prazo, que terminou em {by}")
                })?;
                set(
                    &mut tx,
                    jurisdiction,
                    &auto,
                    &[
                        ("status", Some("appealed".into())),
                        ("appealed_on", day.clone()),
                    ],
                )
                .await?;
                auto_step(
                    &mut tx,
                    &self.audit,
                    change,
                    jurisdiction,
                    key,
                    ("appeal", on),
                    (text, &[]),
                )
                .await?;
            }
            ProcessStep::DecideAppeal { upheld, grounds } => {
                if auto.status != "appealed" {
                    return Err(wrong_status(&auto, "decide-se um recurso interposto"));
                }
                if *upheld {
                    auto_step(
                        &mut tx,
                        &self.audit,
                        change,
                        jurisdiction,
                        key,
                        ("appeal_denied", on),
                        (grounds, &[]),
                    )
                    .await?;
                    finalize(
                        &mut tx,
                        &self.audit,
                        change,
                        rulebook,
                        jurisdiction,
                        &auto,
                        on,
                    )
                    .await?;
                } else {
                    set(
                        &mut tx,
                        jurisdiction,
                        &auto,
                        &[("status", Some("annulled".into()))],
                    )
                    .await?;
                    auto_step(
                        &mut tx,
                        &self.audit,
                        change,
                        jurisdiction,
                        key,
                        ("annulled", on),
                        (grounds, &[]),
                    )
                    .await?;
                }
            }
            ProcessStep::Finalize => {
                let Some(by) = auto.appeal_by.filter(|_| auto.status == "judged") else {
                    return Err(wrong_status(
                        &auto,
                        "só um auto julgado, com a decisão notificada, se torna definitivo",
                    ));
                };
                if on <= by {
                    return Err(refused(format!("o prazo de recurso corre até {by}")));
                }
                finalize(
                    &mut tx,
                    &self.audit,
                    change,
                    rulebook,
                    jurisdiction,
                    &auto,
                    on,
                )
                .await?;
            }
            ProcessStep::Archive => {
                if auto.status != "issued" {
                    return Err(wrong_status(&auto, "arquiva-se um auto não notificado"));
                }
                match auto.notify_by {
                    Some(by) if on > by => {}
                    Some(by) => {
                        return Err(refused(format!("ainda é possível notificar até {by}")));
                    }
                    None => {
                        return Err(refused(format!(
                            "{} não fixa prazo de notificação",
                            rulebook.id
                        )));
                    }
                }
                let article = deadline_article(rulebook, &[DeadlineKind::Notification]);
                set(
                    &mut tx,
                    jurisdiction,
                    &auto,
                    &[("status", Some("archived".into()))],
                )
                .await?;
                auto_step(
                    &mut tx,
                    &self.audit,
                    change,
                    jurisdiction,
                    key,
                    ("archived", on),
                    ("não notificado no prazo", &article),
                )
                .await?;
            }
        }
        let auto = read_auto(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(auto)
    }
}

/// Makes the decision final on `on` and applies its penalties.
async fn finalize(
    tx: &mut Tx,
    audit: &Audit,
    change: &Change<'_>,
    rulebook: &Rulebook,
    jurisdiction: &str,
    auto: &Auto,
    on: NaiveDate,
) -> Result<(), StoreError> {
    let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
    set(
        tx,
        jurisdiction,
        auto,
        &[
            ("status", Some("final".into())),
            ("final_on", Some(on.to_string())),
        ],
    )
    .await?;
    let payment = optional_deadline(&ctx, DeadlineKind::Payment, on)?;
    let process = from_process(&auto.proposal);
    for (seq, sanction) in auto.proposal.sanctions.iter().enumerate() {
        let seq = seq as i64 + 1;
        if sanction.kind == "fine" {
            let debtor = sanction
                .payer
                .clone()
                .unwrap_or_else(|| auto.offender.clone());
            sqlx::query(
                "INSERT INTO debts (jurisdiction, year, number, seq, debtor, unit, quantity, issued_on, due_on, from_process) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            )
            .bind(jurisdiction)
            .bind(auto.year)
            .bind(auto.number)
            .bind(seq)
            .bind(&debtor)
            .bind(sanction.unit.clone().unwrap_or_else(|| "BRL".into()))
            .bind(sanction.quantity.clone().unwrap_or_else(|| "0".into()))
            .bind(on.to_string())
            .bind(payment.as_ref().map_or(on, |(d, _)| *d).to_string())
            .bind(i32::from(process))
            .execute(&mut **tx)
            .await?;
            crate::audit::append(
                tx,
                audit,
                change,
                Entry {
                    action: "debt.create",
                    jurisdiction: Some(jurisdiction),
                    subject: &format!("debt:{}:{}:{seq}", auto.year, auto.number),
                    detail: serde_json::json!({ "debtor": debtor, "unit": sanction.unit, "quantity": sanction.quantity,
                                    "issued_on": on, "articles": sanction.articles }),
                    rows: vec![RowRef::new(
                        "debts",
                        [jurisdiction.into(), auto.year.into(), auto.number.into(), seq.into()],
                    )],
                },
            )
            .await?;
            continue;
        }
        let ends = ends(sanction, on);
        sqlx::query(
            "INSERT INTO applied_sanctions (jurisdiction, year, number, seq, kind, target, starts, ends, citations) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(jurisdiction)
        .bind(auto.year)
        .bind(auto.number)
        .bind(seq)
        .bind(&sanction.kind)
        .bind(sanction.target.clone())
        .bind(on.to_string())
        .bind(ends.map(|e| e.to_string()))
        .bind(serde_json::json!(sanction.articles).to_string())
        .execute(&mut **tx)
        .await?;
        let mut rows =
            on_records(tx, audit, change, jurisdiction, auto, sanction, (on, ends)).await?;
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

/// The last day of a sanction that lasts N days (or months, or years)
/// starting on `on`, its first day: 15 days from 1 February end on 15 February.
fn ends(sanction: &ProposedSanction, on: NaiveDate) -> Option<NaiveDate> {
    let after = if let Some(days) = sanction.days.or(sanction.max_days) {
        on.checked_add_days(Days::new(u64::from(days)))
    } else if let Some(months) = sanction.months {
        on.checked_add_months(Months::new(months))
    } else {
        sanction
            .years
            .and_then(|y| on.checked_add_months(Months::new(y.saturating_mul(12))))
    };
    after.and_then(|d| d.pred_opt())
}

/// What a final sanction does to the records: a suspension of the holder or
/// of the permit suspends the permit until its last day; a cassation ends
/// the permit (and its links); a driver's cassation ends their links and
/// registrations wherever they serve (the cassation itself, in
/// `applied_sanctions`, bars them as eligibility reads it). Returns the rows
/// it wrote outside a permit's step, for the sanction's audit entry.
async fn on_records(
    tx: &mut Tx,
    audit: &Audit,
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
    let row = sqlx::query(
        "SELECT status, holder FROM permits WHERE jurisdiction = $1 AND service = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .fetch_one(&mut **tx)
    .await?;
    let status: String = row.try_get("status")?;
    let holder: String = row.try_get("holder")?;
    let live = status == "granted" || status == "suspended";
    let of_holder = sanction.target.as_deref().is_none_or(|t| t == holder);
    crate::audit::guard::unchanged(
        tx,
        &audit.schema,
        &[RowRef::new(
            "permits",
            [jurisdiction.into(), service.into(), (*number).into()],
        )],
    )
    .await?;
    let (event, status, until, also) = match sanction.kind.as_str() {
        "permit_suspension" | "suspension" if live && of_holder => {
            ("penalty_suspension", "suspended", ends, Vec::new())
        }
        "permit_cassation" if live => (
            "cassation",
            "revoked",
            None,
            end_links(tx, audit, jurisdiction, (service, *number), on).await?,
        ),
        _ => return Ok(rows),
    };
    step(
        tx,
        audit,
        change,
        jurisdiction,
        (service, *number),
        PermitStep {
            event,
            status,
            since: on,
            until,
            cited: &sanction.articles,
            also,
        },
    )
    .await?;
    Ok(rows)
}
