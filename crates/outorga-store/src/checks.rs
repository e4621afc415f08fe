//! What the record says of a vehicle and of a driver, as the core's one
//! rule of what is in service on a day (`engine::in_service`) reads it: the
//! public check of a plate and the agenda's `out_of_service` kind read a
//! vehicle with [`plate_check`]; the agenda reads the drivers serving with
//! the mappings the public check of a driver reads one with
//! (`crew::driver_of`, `status_in`, `Driver::record`). So both ask the
//! rule about the same facts.

use crate::crew::{self, Driver};
use crate::dates::day;
use crate::permit_status::{STATUS_UNTIL, status_in};
use crate::world::ACTIVE;
use crate::{Store, StoreError};
use chrono::NaiveDate;
use outorga_core::engine::in_service::{Hold, VehicleRecord};
use outorga_core::model::{PermitStatus, SanctionKind};
use sqlx::{AnyConnection, Row};

/// A measure on a vehicle from one of its autos (impediment, seizure,
/// retention), with the articles the auto applied it on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Held {
    pub hold: Hold,
    pub articles: Vec<String>,
}

/// What the public may know of a plate: the permit it serves (service,
/// number, status) and its documents' validity — nothing about the holder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlateCheck {
    pub plate: String,
    /// The permit it serves now: service, number and status.
    pub permit: Option<(String, i64, PermitStatus)>,
    /// The traffic authorization in force: `Some(None)` when it has no expiry.
    pub authorization: Option<Option<NaiveDate>>,
    /// The inspection seal in force, valid until.
    pub seal: Option<Option<NaiveDate>>,
    /// The latest inspection: its day and whether it passed.
    pub inspection: Option<(NaiveDate, bool)>,
    /// Impediments, seizures and retentions from its autos that had not
    /// ended before the day asked about.
    pub holds: Vec<Held>,
}

impl PlateCheck {
    /// The vehicle as the core's rule of what is in service reads it.
    pub fn record(&self) -> VehicleRecord {
        VehicleRecord {
            permit: self.permit.as_ref().map(|(_, _, status)| *status),
            authorization: self.authorization,
            seal: self.seal,
            inspection: self.inspection,
            holds: self.holds.iter().map(|h| h.hold).collect(),
        }
    }
}

impl Store {
    /// The public check of a plate, in one query (see [`plate_check`]).
    pub async fn plate_check(
        &self,
        jurisdiction: &str,
        plate: &str,
        on: NaiveDate,
    ) -> Result<Option<PlateCheck>, StoreError> {
        let mut conn = self.pool.acquire().await?;
        plate_check(&mut conn, jurisdiction, plate, on).await
    }
}

/// What the record says of a plate on `on`, in one query and the query of
/// its measures. Each part reads one index range whatever the planner
/// knows: the plate's documents by subject (the kind is not a condition, so
/// no index by kind competes), and its impediments from its autos by plate
/// (`CROSS JOIN` keeps SQLite from starting at every sanction of the
/// jurisdiction).
pub(crate) async fn plate_check(
    conn: &mut AnyConnection,
    jurisdiction: &str,
    plate: &str,
    on: NaiveDate,
) -> Result<Option<PlateCheck>, StoreError> {
    let plate = crate::parse_plate(plate)?;
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT pv.service, pv.number, p.status, p.expires_on, {STATUS_UNTIL} AS status_until, \
         (SELECT COUNT(CASE WHEN d.kind = 'traffic_authorization' THEN 1 END) FROM documents d \
          WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS authorizations, \
         (SELECT MAX(CASE WHEN d.kind = 'traffic_authorization' THEN d.valid_until END) FROM documents d \
          WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS authorization_until, \
         (SELECT COUNT(CASE WHEN d.kind = 'inspection_seal' THEN 1 END) FROM documents d \
          WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS seals, \
         (SELECT MAX(CASE WHEN d.kind = 'inspection_seal' THEN d.valid_until END) FROM documents d \
          WHERE d.jurisdiction = $1 AND d.subject = $3 AND d.cancelled_on IS NULL) AS seal_until, \
         (SELECT i.done_on FROM inspections i WHERE i.jurisdiction = $1 AND i.plate = $2 \
          ORDER BY i.done_on DESC, i.year DESC, i.number DESC LIMIT 1) AS inspected_on, \
         (SELECT i.approved FROM inspections i WHERE i.jurisdiction = $1 AND i.plate = $2 \
          ORDER BY i.done_on DESC, i.year DESC, i.number DESC LIMIT 1) AS approved \
         FROM vehicles v \
         LEFT JOIN permit_vehicles pv ON pv.jurisdiction = v.jurisdiction AND pv.plate = v.plate AND pv.until IS NULL \
         LEFT JOIN permits p ON p.jurisdiction = pv.jurisdiction AND p.service = pv.service AND p.number = pv.number \
         WHERE v.jurisdiction = $1 AND v.plate = $2"
    )))
    .bind(jurisdiction)
    .bind(&plate)
    .bind(format!("vehicle:{plate}"))
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        return Ok(None);
    };
    let service: Option<String> = row.try_get("service")?;
    let number: Option<i64> = row.try_get("number")?;
    let status = match number {
        Some(_) => Some(status_in(&row, on)?),
        None => None,
    };
    let valid = |count: &str, until: &str| -> Result<Option<Option<NaiveDate>>, StoreError> {
        let n: i64 = row.try_get(count)?;
        let until: Option<String> = row.try_get(until)?;
        Ok((n > 0).then(|| until.as_deref().and_then(|u| day(u).ok())))
    };
    let inspected: Option<String> = row.try_get("inspected_on")?;
    let approved: Option<i32> = row.try_get("approved")?;
    let inspection = match (inspected.as_deref(), approved) {
        (Some(on), Some(approved)) => Some((day(on)?, approved != 0)),
        _ => None,
    };
    let holds = holds(conn, jurisdiction, &plate, on).await?;
    Ok(Some(PlateCheck {
        permit: match (service, number, status) {
            (Some(s), Some(n), Some(st)) => Some((s, n, st)),
            _ => None,
        },
        authorization: valid("authorizations", "authorization_until")?,
        seal: valid("seals", "seal_until")?,
        inspection,
        holds,
        plate,
    }))
}

/// The impediments, seizures and retentions of a plate's autos that had not
/// ended before `on`.
async fn holds(
    conn: &mut AnyConnection,
    jurisdiction: &str,
    plate: &str,
    on: NaiveDate,
) -> Result<Vec<Held>, StoreError> {
    sqlx::query(
        "SELECT s.kind, s.starts, s.ends, s.citations FROM autos a CROSS JOIN applied_sanctions s \
         WHERE a.jurisdiction = $1 AND a.plate = $2 AND s.jurisdiction = a.jurisdiction \
         AND s.year = a.year AND s.number = a.number \
         AND s.kind IN ('vehicle_impediment', 'vehicle_seizure', 'vehicle_retention') \
         AND (s.ends IS NULL OR s.ends >= $3)",
    )
    .bind(jurisdiction)
    .bind(plate)
    .bind(on.to_string())
    .fetch_all(&mut *conn)
    .await?
    .iter()
    .map(|row| {
        let kind: String = row.try_get("kind")?;
        let starts: String = row.try_get("starts")?;
        let ends: Option<String> = row.try_get("ends")?;
        let cited: String = row.try_get("citations")?;
        Ok(Held {
            hold: Hold {
                kind: SanctionKind::parse(&kind)
                    .ok_or_else(|| StoreError::Corrupt(format!("sanção `{kind}`")))?,
                from: day(&starts)?,
                until: ends.as_deref().map(day).transpose()?,
            },
            articles: cited_list(&cited),
        })
    })
    .collect()
}

/// A list of articles as the record keeps it (a JSON list of text).
pub(crate) fn cited_list(text: &str) -> Vec<String> {
    serde_json::from_str(text).unwrap_or_default()
}

/// A driver linked to a permit in force, suspended or in reserve, as the
/// agenda asks the rule about them: the link, the permit's rulebook and its
/// status on the day, and the articles of the driver's suspension.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Serving {
    pub driver: Driver,
    pub rulebook: String,
    pub permit: PermitStatus,
    /// The articles of the final auto's suspension that runs to the
    /// registration's `suspended_until`, if any.
    pub suspension: Vec<String>,
}

/// The drivers linked now to the permits of `jurisdiction` in force,
/// suspended or in reserve, by registration, read as the public check of a
/// driver reads one (the link, and its permit's status on `on`).
pub(crate) async fn serving_drivers(
    conn: &mut AnyConnection,
    jurisdiction: &str,
    on: NaiveDate,
) -> Result<Vec<Serving>, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {}, p.rulebook, p.status, p.expires_on, {STATUS_UNTIL} AS status_until, \
         (SELECT s.citations FROM applied_sanctions s WHERE s.jurisdiction = p.jurisdiction \
          AND s.target = permit_drivers.driver AND s.kind = 'suspension' \
          AND s.ends = permit_drivers.suspended_until \
          ORDER BY s.year DESC, s.number DESC, s.seq DESC LIMIT 1) AS suspension \
         FROM permit_drivers JOIN permits p USING (jurisdiction, service, number) \
         WHERE permit_drivers.jurisdiction = $1 AND permit_drivers.until IS NULL \
         AND p.status IN {ACTIVE} ORDER BY registration",
        crew::COLUMNS
    )))
    .bind(jurisdiction)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|row| {
            let suspension: Option<String> = row.try_get("suspension")?;
            Ok(Serving {
                driver: crew::driver_of(row)?,
                rulebook: row.try_get("rulebook")?,
                permit: status_in(row, on)?,
                suspension: suspension.as_deref().map(cited_list).unwrap_or_default(),
            })
        })
        .collect()
}
