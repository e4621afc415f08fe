//! The agenda: for a jurisdiction and a day, everything that falls due within
//! a horizon or is overdue — permits and documents expiring, inspections due,
//! vehicles to replace, procedural deadlines, point thresholds crossed,
//! suspensions ending, debts overdue — each with the articles behind it.

use crate::fleet::engine_vehicle;
use crate::parameters::deadline_article;
use crate::permits::{articles, engine_error};
use crate::vehicles::read_vehicle;
use crate::world::{self, ACTIVE, Scope, day};
use crate::{Store, StoreError, Tx};
use chrono::{Days, NaiveDate};
use outorga_core::Context;
use outorga_core::engine::standing::standing;
use outorga_core::engine::vehicle::deadlines;
use outorga_core::model::Rulebook;
use sqlx::Row;

/// One thing that falls due.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct AgendaItem {
    /// permit_expiry, document_expiry, inspection, vehicle_replacement,
    /// notification, defense, appeal, threshold, suspension_end, debt.
    pub kind: String,
    pub due: NaiveDate,
    pub overdue: bool,
    /// The record it concerns (`permit:taxi:3`, `auto:2026:15`, …).
    pub subject: String,
    /// What to do, in Portuguese.
    pub description: String,
    pub articles: Vec<String>,
}

struct Collector {
    today: NaiveDate,
    until: NaiveDate,
    items: Vec<AgendaItem>,
}

impl Collector {
    fn add(
        &mut self,
        kind: &str,
        due: NaiveDate,
        subject: String,
        description: String,
        cited: Vec<String>,
    ) {
        if due <= self.until {
            self.items.push(AgendaItem {
                kind: kind.to_string(),
                due,
                overdue: due < self.today,
                subject,
                description,
                articles: cited,
            });
        }
    }
}

async fn rows(
    tx: &mut Tx,
    sql: String,
    jurisdiction: &str,
) -> Result<Vec<sqlx::any::AnyRow>, StoreError> {
    Ok(sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(jurisdiction)
        .fetch_all(&mut **tx)
        .await?)
}

impl Store {
    /// What falls due in `jurisdiction` from `today` to `today + horizon_days`
    /// (and what is overdue), soonest first. `rulebooks` are the
    /// jurisdiction's.
    pub async fn agenda(
        &self,
        jurisdiction: &str,
        rulebooks: &[&Rulebook],
        today: NaiveDate,
        horizon_days: u32,
    ) -> Result<Vec<AgendaItem>, StoreError> {
        let until = today
            .checked_add_days(Days::new(u64::from(horizon_days)))
            .unwrap_or(today);
        let mut out = Collector {
            today,
            until,
            items: Vec::new(),
        };
        let mut tx = self.pool.begin().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        // Each rulebook's context, read once.
        let mut laws = Vec::with_capacity(rulebooks.len());
        for rulebook in rulebooks {
            laws.push(crate::parameters::law(&mut tx, jurisdiction, rulebook).await?);
        }
        let law_of = |id: &str| laws.iter().find(|ctx| ctx.rulebook.id == id);
        let by_id = |id: &str| law_of(id).map(|ctx| ctx.rulebook);

        for row in rows(
            &mut tx,
            format!(
                "SELECT service, number, rulebook, expires_on, status FROM permits WHERE jurisdiction = $1 \
             AND status IN {ACTIVE} AND expires_on IS NOT NULL"
            ),
            jurisdiction,
        )
        .await?
        {
            let (service, number): (String, i64) =
                (row.try_get("service")?, row.try_get("number")?);
            let expires: String = row.try_get("expires_on")?;
            let rulebook: String = row.try_get("rulebook")?;
            let cited = by_id(&rulebook)
                .map(|r| deadline_article(r, &["permit_term", "delegation_term"]))
                .unwrap_or_default();
            out.add(
                "permit_expiry",
                day(&expires)?,
                format!("permit:{service}:{number}"),
                format!("prazo da permissão {service} nº {number} termina: renovar ou extinguir"),
                cited,
            );
        }
        for row in rows(
            &mut tx,
            "SELECT code, kind, subject, valid_until FROM documents WHERE jurisdiction = $1 \
             AND cancelled_on IS NULL AND valid_until IS NOT NULL"
                .into(),
            jurisdiction,
        )
        .await?
        {
            let (code, kind, subject): (String, String, String) = (
                row.try_get("code")?,
                row.try_get("kind")?,
                row.try_get("subject")?,
            );
            let valid: String = row.try_get("valid_until")?;
            out.add(
                "document_expiry",
                day(&valid)?,
                subject,
                format!("documento {kind} {code} vence: renovar"),
                Vec::new(),
            );
        }
        for row in rows(&mut tx, format!(
            "SELECT p.rulebook, p.service, p.number, pv.plate, pv.since FROM permits p JOIN permit_vehicles pv \
             ON pv.jurisdiction = p.jurisdiction AND pv.service = p.service AND pv.number = p.number \
             WHERE p.jurisdiction = $1 AND p.status IN {ACTIVE} AND pv.until IS NULL"), jurisdiction).await?
        {
            let rulebook: String = row.try_get("rulebook")?;
            let Some(ctx) = law_of(&rulebook) else { continue };
            let plate: String = row.try_get("plate")?;
            let since: String = row.try_get("since")?;
            let Some(vehicle) = read_vehicle(&mut tx, jurisdiction, &plate).await? else { continue };
            let seen = engine_vehicle(&mut tx, jurisdiction, &vehicle, Some(day(&since)?)).await?;
            let due = deadlines(ctx, &seen, today, false).map_err(engine_error)?;
            let cited = articles(&due.citations);
            let subject = format!("vehicle:{plate}");
            if let Some(next) = due.next_inspection {
                out.add("inspection", next, subject.clone(),
                    format!("vistoria periódica do veículo {plate}"), cited.clone());
            }
            for (kind, next) in &due.inspections {
                if let Some(next) = next {
                    out.add("inspection", *next, subject.clone(),
                        format!("vistoria ({kind}) do veículo {plate}"), cited.clone());
                }
            }
            if let Some(replace) = due.replace_by {
                out.add("vehicle_replacement", replace, subject,
                    format!("veículo {plate} atinge a idade máxima: substituir"), cited);
            }
        }
        for row in rows(
            &mut tx,
            "SELECT year, number, rulebook, status, notify_by, defense_by, defense_on, judged_on, appeal_by FROM autos \
             WHERE jurisdiction = $1 AND status IN ('issued', 'notified', 'judged')"
                .into(),
            jurisdiction,
        )
        .await?
        {
            let (year, number): (i64, i64) = (row.try_get("year")?, row.try_get("number")?);
            let status: String = row.try_get("status")?;
            let subject = format!("auto:{year}:{number}");
            let appeal_by: Option<String> = row.try_get("appeal_by")?;
            let (kind, column, what) = match status.as_str() {
                "issued" => (
                    "notification",
                    "notify_by",
                    "notificar o autuado (ou arquivar, vencido o prazo)",
                ),
                "notified" => ("defense", "defense_by", "prazo de defesa: após ele, julgar"),
                _ if appeal_by.is_none() => (
                    "decision_notification",
                    "judged_on",
                    "notificar o autuado da decisão (abre o prazo de recurso)",
                ),
                _ => (
                    "appeal",
                    "appeal_by",
                    "prazo de recurso: após ele, a decisão se torna definitiva",
                ),
            };
            let date: Option<String> = row.try_get(column)?;
            // The article of the deadline, from the auto's rulebook.
            let rulebook: String = row.try_get("rulebook")?;
            let cited = by_id(&rulebook)
                .map(|r| deadline_article(r, &[kind]))
                .unwrap_or_default();
            if let Some(date) = date {
                out.add(
                    kind,
                    day(&date)?,
                    subject,
                    format!("auto nº {number}/{year}: {what}"),
                    cited,
                );
            }
        }
        for row in rows(
            &mut tx,
            "SELECT year, number, kind, target, ends, citations FROM applied_sanctions \
             WHERE jurisdiction = $1 AND ends IS NOT NULL"
                .into(),
            jurisdiction,
        )
        .await?
        {
            let ends: String = row.try_get("ends")?;
            let ends = day(&ends)?;
            if ends < today {
                continue;
            }
            let kind: String = row.try_get("kind")?;
            let target: Option<String> = row.try_get("target")?;
            let (year, number): (i64, i64) = (row.try_get("year")?, row.try_get("number")?);
            let cited: String = row.try_get("citations")?;
            out.add(
                "suspension_end",
                ends,
                format!("auto:{year}:{number}"),
                format!("{kind} de {} termina", target.unwrap_or_default()),
                serde_json::from_str(&cited).unwrap_or_default(),
            );
        }
        for row in rows(&mut tx,
            "SELECT d.year, d.number, d.seq, d.debtor, d.due_on FROM debts d WHERE d.jurisdiction = $1 \
             AND d.installments IS NULL AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.jurisdiction = d.jurisdiction \
             AND p.year = d.year AND p.number = d.number AND p.seq = d.seq)".into(), jurisdiction).await?
        {
            let (year, number, seq): (i64, i64, i64) = (row.try_get("year")?, row.try_get("number")?, row.try_get("seq")?);
            let due: String = row.try_get("due_on")?;
            let debtor: String = row.try_get("debtor")?;
            out.add("debt", day(&due)?, format!("debt:{year}:{number}:{seq}"),
                format!("multa do auto nº {number}/{year} devida por {debtor}"), Vec::new());
        }
        for ctx in &laws {
            thresholds(&mut tx, &mut out, jurisdiction, ctx).await?;
        }
        tx.commit().await?;
        out.items
            .sort_by(|a, b| a.due.cmp(&b.due).then_with(|| a.subject.cmp(&b.subject)));
        Ok(out.items)
    }
}

/// People whose points make a sanction due today (a threshold crossed).
async fn thresholds(
    tx: &mut Tx,
    out: &mut Collector,
    jurisdiction: &str,
    ctx: &Context<'_>,
) -> Result<(), StoreError> {
    let rulebook = ctx.rulebook;
    if rulebook.thresholds.is_empty() {
        return Ok(());
    }
    let offenders = sqlx::query(
        "SELECT DISTINCT offender FROM autos WHERE jurisdiction = $1 AND rulebook = $2 AND status = 'final'",
    )
    .bind(jurisdiction)
    .bind(&rulebook.id)
    .fetch_all(&mut **tx)
    .await?;
    let docs: Vec<String> = offenders
        .iter()
        .map(|r| r.try_get("offender"))
        .collect::<Result<_, _>>()?;
    if docs.is_empty() {
        return Ok(());
    }
    let refs: Vec<&str> = docs.iter().map(String::as_str).collect();
    let scope = Scope {
        all_permits: false,
        people: &refs,
        records_only: true,
    };
    let world = world::load(tx, ctx, jurisdiction, scope, out.today).await?;
    for doc in &docs {
        let Some(person) = world.person(doc) else {
            continue;
        };
        let now = standing(ctx, &world.facts, person, out.today).map_err(engine_error)?;
        if !now.triggers.is_empty() {
            let kinds: Vec<&str> = now.triggers.iter().map(|t| t.kind.name()).collect();
            out.add(
                "threshold",
                out.today,
                format!("person:{doc}"),
                format!(
                    "pontuação de {doc} atinge o limite: {} ({})",
                    kinds.join(", "),
                    rulebook.id
                ),
                articles(&now.citations()),
            );
        }
    }
    Ok(())
}
