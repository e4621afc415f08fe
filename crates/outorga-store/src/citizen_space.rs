//! What a holder's or driver's own space reads besides the registers'
//! lists (permits, autos, debts, documents, each by its person's index):
//! where the person is registered, the permits they drive under, and
//! their points per window beside the limits the law sets — the core's
//! standing and limits, never a second copy of the rule.

use crate::world::{self, Scope};
use crate::{Store, StoreError};
use chrono::NaiveDate;
use outorga_core::engine::points::limits;
use outorga_core::engine::standing::standing;
use outorga_core::model::Rulebook;
use rust_decimal::Decimal;
use sqlx::Row;

/// A limit of points over a window, and what crossing it brings.
#[derive(Debug, Clone, PartialEq)]
pub struct PointLimit {
    pub months: u32,
    /// Points beyond this bring the sanctions.
    pub over: Decimal,
    /// The sanctions' kinds, in Portuguese.
    pub sanctions: Vec<&'static str>,
    pub citation: String,
}

/// A person's points under one rulebook on a day.
#[derive(Debug, Clone, PartialEq)]
pub struct PointsStanding {
    pub rulebook: String,
    /// Points per window, by the window's length in months.
    pub windows: Vec<(u32, Decimal)>,
    pub limits: Vec<PointLimit>,
    /// Sanctions due now because a limit is crossed, in Portuguese.
    pub due: Vec<&'static str>,
    pub citations: Vec<String>,
}

impl Store {
    /// The jurisdictions whose register holds `document`, with the name
    /// recorded there, by jurisdiction.
    pub async fn registered_in(&self, document: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT jurisdiction, name FROM people WHERE document = $1 ORDER BY jurisdiction",
        )
        .bind(document)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("jurisdiction")?, row.try_get("name")?)))
            .collect()
    }

    /// The permits `document` drives under now (service, number).
    pub async fn driving(
        &self,
        jurisdiction: &str,
        document: &str,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT service, number FROM permit_drivers \
             WHERE jurisdiction = $1 AND driver = $2 AND until IS NULL ORDER BY service, number",
        )
        .bind(jurisdiction)
        .bind(document)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("service")?, row.try_get("number")?)))
            .collect()
    }

    /// `document`'s points under `rulebook` in `jurisdiction` on `today`,
    /// beside the limits that judge their record.
    pub async fn points_standing(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        document: &str,
        today: NaiveDate,
    ) -> Result<PointsStanding, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let people = [document];
        let scope = Scope {
            all_permits: false,
            people: &people,
            records_only: true,
        };
        let world = world::load(&mut tx, &ctx, jurisdiction, scope, today).await?;
        tx.commit().await?;
        let person = world
            .person(document)
            .ok_or_else(|| StoreError::NotFound(format!("{document} não está cadastrado")))?;
        let now = standing(&ctx, &world.facts, person, today)?;
        let limits = limits(&ctx, &world.facts, person, today)?
            .into_iter()
            .map(|(threshold, over)| PointLimit {
                months: threshold.window_months,
                over,
                sanctions: threshold
                    .sanctions
                    .iter()
                    .map(|s| s.kind.portuguese())
                    .collect(),
                citation: threshold.citation.to_string(),
            })
            .collect();
        Ok(PointsStanding {
            rulebook: rulebook.id.clone(),
            windows: now.points.to_vec(),
            limits,
            due: now.triggers.iter().map(|t| t.kind.portuguese()).collect(),
            citations: now.citations().iter().map(|c| c.to_string()).collect(),
        })
    }
}
