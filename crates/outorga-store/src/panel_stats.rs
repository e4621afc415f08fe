//! What the panel draws, per jurisdiction: autos per month by infraction,
//! permits by status, the fleet's ages against the law's limit and what
//! falls due per week. Each is one aggregate query over an index (autos by
//! the moment they were committed, migration 0033; permits by status; the
//! vehicles serving, bounded by the fleet; the agenda's own ranges by day),
//! so the database counts the rows and sends only the totals.

use crate::agenda::due_per_day;
use crate::world::ACTIVE;
use crate::{Store, StoreError};
use chrono::{Datelike, Days, NaiveDate};
use outorga_core::model::Rulebook;
use sqlx::Row;

/// Autos of one month (`YYYY-MM`), rulebook and infraction code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthCount {
    pub month: String,
    pub rulebook: String,
    pub infraction: String,
    pub count: u64,
}

/// The vehicles serving a rulebook's permits by their age this year, and
/// the age the law makes them be replaced at, with its article.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FleetAges {
    pub rulebook: String,
    /// The age at which the law has the vehicle replaced (by the end of
    /// that year, or as the rule says), when it sets one.
    pub limit: Option<(u32, String)>,
    /// (age in years, vehicles), youngest first.
    pub ages: Vec<(i32, u64)>,
}

/// What falls due in each week (Monday to Sunday) from today on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeekCount {
    /// The week's Monday (the first week may have begun before today).
    pub monday: NaiveDate,
    pub count: u64,
}

fn count(row: &sqlx::any::AnyRow) -> Result<u64, StoreError> {
    let n: i64 = row.try_get("n")?;
    Ok(u64::try_from(n).unwrap_or(0))
}

impl Store {
    /// The autos of `jurisdiction` committed on or after `from`, counted
    /// by month, rulebook and infraction code (the month as recorded,
    /// `YYYY-MM`), in that order.
    pub async fn autos_per_month(
        &self,
        jurisdiction: &str,
        from: NaiveDate,
    ) -> Result<Vec<MonthCount>, StoreError> {
        let rows = sqlx::query(
            "SELECT substr(committed_at, 1, 7) AS month, rulebook, infraction, COUNT(*) AS n \
             FROM autos WHERE jurisdiction = $1 AND committed_at >= $2 \
             GROUP BY substr(committed_at, 1, 7), rulebook, infraction \
             ORDER BY month, rulebook, infraction",
        )
        .bind(jurisdiction)
        .bind(from.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(MonthCount {
                    month: row.try_get("month")?,
                    rulebook: row.try_get("rulebook")?,
                    infraction: row.try_get("infraction")?,
                    count: count(row)?,
                })
            })
            .collect()
    }

    /// The permits of `jurisdiction` counted by the status recorded
    /// (`granted`, `suspended`…), in the order of the statuses' names.
    pub async fn permits_per_status(
        &self,
        jurisdiction: &str,
    ) -> Result<Vec<(String, u64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT status, COUNT(*) AS n FROM permits WHERE jurisdiction = $1 \
             GROUP BY status ORDER BY status",
        )
        .bind(jurisdiction)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get("status")?, count(row)?)))
            .collect()
    }

    /// The vehicles serving the permits of `jurisdiction` in force,
    /// suspended or in reserve, by their age in `today`'s year (the year
    /// minus the year of manufacture, as the engine counts it), per
    /// rulebook of `rulebooks`, with the age the rulebook's replacement
    /// rule sets (its quantity as the deployment's parameters resolve it).
    pub async fn fleet_ages(
        &self,
        jurisdiction: &str,
        rulebooks: &[&Rulebook],
        today: NaiveDate,
    ) -> Result<Vec<FleetAges>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT p.rulebook, v.manufactured, COUNT(*) AS n FROM permit_vehicles pv \
             JOIN permits p ON p.jurisdiction = pv.jurisdiction AND p.service = pv.service \
             AND p.number = pv.number \
             JOIN vehicles v ON v.jurisdiction = pv.jurisdiction AND v.plate = pv.plate \
             WHERE pv.jurisdiction = $1 AND pv.until IS NULL AND p.status IN {ACTIVE} \
             GROUP BY p.rulebook, v.manufactured"
        )))
        .bind(jurisdiction)
        .fetch_all(&mut *tx)
        .await?;
        let mut out = Vec::new();
        for rulebook in rulebooks {
            let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
            let limit = match &rulebook.vehicles.replacement {
                Some(rule) => Some((
                    ctx.whole(&rule.at_age, today, "anos")?,
                    rule.citation.clone(),
                )),
                None => None,
            };
            let mut ages: Vec<(i32, u64)> = Vec::new();
            for row in &rows {
                let id: String = row.try_get("rulebook")?;
                if id != rulebook.id {
                    continue;
                }
                let made: i64 = row.try_get("manufactured")?;
                let age = today.year() - i32::try_from(made).unwrap_or(today.year());
                match ages.iter_mut().find(|(a, _)| *a == age) {
                    Some((_, n)) => *n += count(row)?,
                    None => ages.push((age, count(row)?)),
                }
            }
            ages.sort_unstable();
            out.push(FleetAges {
                rulebook: rulebook.id.clone(),
                limit,
                ages,
            });
        }
        tx.commit().await?;
        Ok(out)
    }

    /// What the agenda has falling due in each of the `weeks` weeks
    /// (Monday to Sunday) from `today`'s on, from `today` (what is overdue
    /// left out), counted without reading the items: each kind over its
    /// index range by day, the vehicles' inspections and replacements as
    /// the agenda works them out (`agenda::due_per_day`). `rulebooks` are
    /// the jurisdiction's.
    pub async fn due_per_week(
        &self,
        jurisdiction: &str,
        rulebooks: &[&Rulebook],
        today: NaiveDate,
        weeks: u32,
    ) -> Result<Vec<WeekCount>, StoreError> {
        let monday = today
            .checked_sub_days(Days::new(u64::from(today.weekday().num_days_from_monday())))
            .unwrap_or(today);
        let mondays: Vec<NaiveDate> = (0..weeks)
            .filter_map(|w| monday.checked_add_days(Days::new(7 * u64::from(w))))
            .collect();
        let Some(last) = mondays.last() else {
            return Ok(Vec::new());
        };
        let until = last.checked_add_days(Days::new(6)).unwrap_or(*last);
        let mut tx = self.pool.begin().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let mut laws = Vec::with_capacity(rulebooks.len());
        for rulebook in rulebooks {
            laws.push(crate::parameters::law(&mut tx, jurisdiction, rulebook).await?);
        }
        let days = due_per_day(&mut tx, jurisdiction, &laws, (today, until)).await?;
        tx.commit().await?;
        Ok(mondays
            .iter()
            .map(|&monday| {
                let sunday = monday.checked_add_days(Days::new(6)).unwrap_or(monday);
                WeekCount {
                    monday,
                    count: days.range(monday..=sunday).map(|(_, n)| n).sum(),
                }
            })
            .collect())
    }
}
