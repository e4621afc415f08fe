//! The vehicle that serves a permit: inclusion and substitution (age and
//! requirements from the rulebook), inspections with the next one due, and
//! the documents they give rise to (traffic authorization, inspection seal).

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, next_number};
use crate::dates::day;
use crate::documents::{Document, issue};
use crate::parameters::authorization_until;
use crate::permits::{bound, counted_changes, lock_permit, within_change_limit};
use crate::requirements::{refuse_unmet, to_check};
use crate::text::{TextKind, checked};
use crate::{Store, StoreError, ToCheck, Tx, Vehicle, articles};
use chrono::{Datelike, NaiveDate};
use outorga_core::engine::assessment::Assessment;
use outorga_core::engine::vehicle::{deadlines, inclusion, substitution};
use outorga_core::facts::Vehicle as EngineVehicle;
use outorga_core::model::Rulebook;
use sqlx::Row;

/// A vehicle put in service under a permit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct VehicleIncluded {
    pub plate: String,
    pub authorization: Document,
    pub to_check: Vec<ToCheck>,
    pub articles: Vec<String>,
}

/// An inspection as a vehicle's page lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InspectionRow {
    pub year: i32,
    pub number: i64,
    pub kind: String,
    pub done_on: NaiveDate,
    pub approved: bool,
    pub findings: String,
    pub next_due: Option<NaiveDate>,
    pub inspector: String,
}

/// An inspection as recorded.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Inspection {
    pub year: i32,
    pub number: i64,
    pub plate: String,
    pub kind: String,
    pub done_on: NaiveDate,
    pub approved: bool,
    pub findings: String,
    pub next_due: Option<NaiveDate>,
    pub inspector: String,
    /// The seal, when approved.
    pub seal: Option<Document>,
    pub articles: Vec<String>,
}

/// The engine's view of a recorded vehicle, with its last inspections.
pub(crate) async fn engine_vehicle(
    tx: &mut Tx,
    jurisdiction: &str,
    vehicle: &Vehicle,
    included: Option<NaiveDate>,
) -> Result<EngineVehicle, StoreError> {
    let rows = sqlx::query(
        "SELECT kind, MAX(done_on) AS last FROM inspections WHERE jurisdiction = $1 AND plate = $2 \
         AND approved = 1 GROUP BY kind",
    )
    .bind(jurisdiction)
    .bind(&vehicle.plate)
    .fetch_all(&mut **tx)
    .await?;
    let mut inspections = Vec::new();
    for row in rows {
        let last: String = row.try_get("last")?;
        inspections.push((row.try_get::<String, _>("kind")?, day(&last)?));
    }
    let last_inspection = inspections
        .iter()
        .filter(|(kind, _)| kind == "periodic")
        .map(|(_, d)| *d)
        .max();
    Ok(EngineVehicle {
        plate: Some(vehicle.plate.clone()),
        manufactured: Some(vehicle.manufactured),
        included,
        last_inspection,
        adapted: Some(!vehicle.adaptations.is_empty()),
        inspections,
        doors: vehicle.doors.map(u32::from),
        capacity: vehicle.capacity.map(|c| u32::from(c) + 1),
        colour: (!vehicle.colour.is_empty()).then(|| vehicle.colour.to_lowercase()),
        equipment: Some(
            vehicle
                .equipment
                .iter()
                .chain(&vehicle.adaptations)
                .map(|e| e.to_lowercase())
                .collect(),
        ),
        ..EngineVehicle::default()
    })
}

async fn recorded(store: &Store, jurisdiction: &str, plate: &str) -> Result<Vehicle, StoreError> {
    store.vehicle(jurisdiction, plate).await?.ok_or_else(|| {
        StoreError::NotFound(format!(
            "o veículo {plate} não está cadastrado em {jurisdiction}"
        ))
    })
}

/// The vehicle serving the permit now, if any.
/// Ends `plate`'s service under the permit on `on`: its row closed and its
/// traffic authorization cancelled (the rows written, for the audit entry).
async fn end_service(
    tx: &mut Tx,
    audit: &crate::audit::Audit,
    jurisdiction: &str,
    (service, number): (&str, i64),
    plate: &str,
    on: NaiveDate,
) -> Result<Vec<RowRef>, StoreError> {
    crate::audit::guard::unchanged_where(
        tx,
        &audit.schema,
        "permit_vehicles",
        "jurisdiction = $1 AND service = $2 AND number = $3 AND plate = $4 AND until IS NULL",
        &[
            jurisdiction.into(),
            service.into(),
            number.into(),
            plate.into(),
        ],
    )
    .await?;
    crate::audit::guard::unchanged_where(
        tx,
        &audit.schema,
        "documents",
        "jurisdiction = $1 AND subject = $2 AND kind = 'traffic_authorization' \
         AND cancelled_on IS NULL",
        &[jurisdiction.into(), format!("vehicle:{plate}").into()],
    )
    .await?;
    // The vehicle's authorization ends with its service.
    let mut rows = crate::documents::cancelled_codes(
        sqlx::query(
            "UPDATE documents SET cancelled_on = $3 WHERE jurisdiction = $1 AND subject = $2 \
             AND kind = 'traffic_authorization' AND cancelled_on IS NULL RETURNING code",
        )
        .bind(jurisdiction)
        .bind(format!("vehicle:{plate}"))
        .bind(on.to_string())
        .fetch_all(&mut **tx)
        .await?,
    )?;
    rows.extend(crate::permits::ended_vehicles(
        jurisdiction,
        (service, number),
        sqlx::query(
            "UPDATE permit_vehicles SET until = $5 WHERE jurisdiction = $1 AND service = $2 \
             AND number = $3 AND plate = $4 AND until IS NULL RETURNING plate, since",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .bind(plate)
        .bind(on.to_string())
        .fetch_all(&mut **tx)
        .await?,
    )?);
    Ok(rows)
}

async fn current_plate(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
) -> Result<Option<(String, NaiveDate)>, StoreError> {
    let row = sqlx::query(
        "SELECT plate, since FROM permit_vehicles WHERE jurisdiction = $1 AND service = $2 AND number = $3 \
         AND until IS NULL",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|r| {
        let since: String = r.try_get("since")?;
        Ok((r.try_get("plate")?, day(&since)?))
    })
    .transpose()
}

impl Store {
    /// Whether `vehicle` may serve the permit on `on`: an inclusion when
    /// none serves it, else the substitution of the one that does (the
    /// vehicle serving now and since when, the step, the law's assessment).
    pub(crate) async fn vehicle_assessment<'r>(
        &self,
        tx: &mut Tx,
        ctx: &outorga_core::Context<'r>,
        jurisdiction: &str,
        (service, number): (&str, i64),
        vehicle: &Vehicle,
        on: NaiveDate,
    ) -> Result<(Option<(String, NaiveDate)>, &'static str, Assessment<'r>), StoreError> {
        let candidate = engine_vehicle(tx, jurisdiction, vehicle, Some(on)).await?;
        // A fleet takes each vehicle in on its own: no one is replaced.
        let current = if ctx.rulebook.vehicles.fleet.is_some() {
            None
        } else {
            current_plate(tx, jurisdiction, (service, number)).await?
        };
        let (how, assessment) = match &current {
            None => ("inclusion", inclusion(ctx, &candidate, on)?),
            Some((old, since)) => {
                let old = recorded(self, jurisdiction, old).await?;
                let replaced = engine_vehicle(tx, jurisdiction, &old, Some(*since)).await?;
                (
                    "substitution",
                    substitution(ctx, &candidate, &replaced, on)?,
                )
            }
        };
        Ok((current, how, assessment))
    }

    /// The vehicles serving the permit on `on`, by plate: each with the day
    /// it began and, if it has, the day it ended (a past day's fleet).
    pub async fn fleet_on(
        &self,
        jurisdiction: &str,
        (service, number): (&str, i64),
        on: NaiveDate,
    ) -> Result<Vec<(Vehicle, NaiveDate, Option<NaiveDate>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT plate, since, until FROM permit_vehicles WHERE jurisdiction = $1 AND service = $2 \
             AND number = $3 AND since <= $4 AND (until IS NULL OR until > $4) ORDER BY plate",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .bind(on.to_string())
        .fetch_all(&self.pool)
        .await?;
        let mut fleet = Vec::with_capacity(rows.len());
        for row in rows {
            let plate: String = row.try_get("plate")?;
            let since: String = row.try_get("since")?;
            let until: Option<String> = row.try_get("until")?;
            fleet.push((
                recorded(self, jurisdiction, &plate).await?,
                day(&since)?,
                until.as_deref().map(day).transpose()?,
            ));
        }
        Ok(fleet)
    }

    /// Withdraws a vehicle from a fleet on `on`: its service ends and its
    /// traffic authorization with it.
    pub async fn withdraw_vehicle(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, number): (&str, i64),
        plate: &str,
        on: NaiveDate,
    ) -> Result<(), StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let plate = crate::parse_plate(plate)?;
        let Some(article) = rulebook.vehicles.fleet.clone() else {
            return Err(StoreError::Invalid {
                field: "placa",
                reason: format!(
                    "em {} o veículo sai do serviço quando outro o substitui",
                    rulebook.jurisdiction.name
                ),
            });
        };
        let (mut tx, _writer) = self.write_transaction().await?;
        lock_permit(&mut tx, &self.audit, jurisdiction, (service, number)).await?;
        let serving = sqlx::query(
            "SELECT since FROM permit_vehicles WHERE jurisdiction = $1 AND service = $2 AND number = $3 \
             AND plate = $4 AND until IS NULL",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .bind(&plate)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(serving) = serving else {
            return Err(StoreError::NotFound(format!(
                "o veículo {plate} não serve a delegação nº {number}"
            )));
        };
        let since = day(&serving.try_get::<String, _>("since")?)?;
        if on < since {
            return Err(StoreError::Invalid {
                field: "data",
                reason: format!(
                    "o veículo {plate} serve desde {}: retire-o nesse dia ou depois",
                    since.format("%d/%m/%Y")
                ),
            });
        }
        let rows = end_service(
            &mut tx,
            &self.audit,
            jurisdiction,
            (service, number),
            &plate,
            on,
        )
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "permit.vehicle_withdrawal",
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{service}:{number}"),
                detail: serde_json::json!({ "plate": plate, "on": on, "article": article }),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The latest inspections of a vehicle (at most `limit`), the latest
    /// first: one range of the index of inspections by plate.
    pub async fn vehicle_inspections(
        &self,
        jurisdiction: &str,
        plate: &str,
        limit: u32,
    ) -> Result<Vec<InspectionRow>, StoreError> {
        let plate = crate::parse_plate(plate)?;
        let rows = sqlx::query(
            "SELECT year, number, kind, done_on, approved, findings, next_due, inspector FROM inspections \
             WHERE jurisdiction = $1 AND plate = $2 ORDER BY done_on DESC, year DESC, number DESC LIMIT $3",
        )
        .bind(jurisdiction)
        .bind(&plate)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let done: String = row.try_get("done_on")?;
                let next: Option<String> = row.try_get("next_due")?;
                Ok(InspectionRow {
                    year: row.try_get("year")?,
                    number: row.try_get("number")?,
                    kind: row.try_get("kind")?,
                    done_on: day(&done)?,
                    approved: row.try_get::<i32, _>("approved")? == 1,
                    findings: row.try_get("findings")?,
                    next_due: next.as_deref().map(day).transpose()?,
                    inspector: row.try_get("inspector")?,
                })
            })
            .collect()
    }

    /// The vehicle serving the permit now, with the day it began, if any.
    pub async fn permit_vehicle(
        &self,
        jurisdiction: &str,
        permit: (&str, i64),
    ) -> Result<Option<(String, NaiveDate)>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let found = current_plate(&mut tx, jurisdiction, permit).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// Puts a vehicle in service under a permit in force: the first one
    /// (inclusion: age limit and requirements) or a substitute for the one
    /// serving (substitution rules). Issues the traffic authorization, valid
    /// until the permit's term.
    pub async fn put_vehicle(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, number): (&str, i64),
        plate: &str,
        (on, excuse): (NaiveDate, Option<&str>),
    ) -> Result<VehicleIncluded, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let excuse = excuse
            .map(|e| checked("justificativa", e, TextKind::Line))
            .transpose()?
            .filter(|e| !e.is_empty());
        let vehicle = recorded(self, jurisdiction, plate).await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        bound(&mut tx, jurisdiction, rulebook, service).await?;
        let permit = lock_permit(&mut tx, &self.audit, jurisdiction, (service, number)).await?;
        if permit.status != "granted" {
            return Err(StoreError::Invalid {
                field: "permissão",
                reason: format!(
                    "a permissão nº {number} está {}: não recebe veículo",
                    crate::status_pt(&permit.status)
                ),
            });
        }
        let elsewhere = sqlx::query(
            "SELECT service, number FROM permit_vehicles WHERE jurisdiction = $1 AND plate = $2 AND until IS NULL",
        )
        .bind(jurisdiction)
        .bind(&vehicle.plate)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = elsewhere {
            let other: i64 = row.try_get("number")?;
            return Err(StoreError::Invalid {
                field: "placa",
                reason: format!(
                    "o veículo {} já serve a permissão nº {other}",
                    vehicle.plate
                ),
            });
        }
        let (current, how, assessment) = self
            .vehicle_assessment(&mut tx, &ctx, jurisdiction, (service, number), &vehicle, on)
            .await?;
        refuse_unmet(
            if how == "inclusion" {
                "inclusão negada"
            } else {
                "substituição negada"
            },
            &assessment,
        )?;
        let mut cited: Vec<&str> = assessment.citations.clone();
        let limit_articles = if current.is_some() {
            let past = counted_changes(
                &mut tx,
                jurisdiction,
                (service, number),
                ("permit_vehicles", "how = 'substitution'"),
            )
            .await?;
            within_change_limit(&ctx, "vehicle_substitution", &past, excuse, on)?
        } else {
            Vec::new()
        };
        cited.extend(limit_articles.iter().map(String::as_str));
        let mut rows = Vec::new();
        if let Some((old, _)) = &current {
            rows = end_service(
                &mut tx,
                &self.audit,
                jurisdiction,
                (service, number),
                old,
                on,
            )
            .await?;
        }
        rows.push(RowRef::new(
            "permit_vehicles",
            [
                jurisdiction.into(),
                service.into(),
                number.into(),
                (&vehicle.plate).into(),
                on.to_string().into(),
            ],
        ));
        sqlx::query(
            "INSERT INTO permit_vehicles (jurisdiction, service, number, plate, how, since, excuse) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .bind(&vehicle.plate)
        .bind(how)
        .bind(on.to_string())
        .bind(excuse.filter(|_| how == "substitution"))
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            crate::refused_if_taken(e, "placa", format!("o veículo {} já serve outra permissão", vehicle.plate))
        })?;
        let articles = articles(&cited);
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: &format!("permit.vehicle_{how}"),
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{service}:{number}"),
                detail: serde_json::json!({ "plate": vehicle.plate, "replaced": current.map(|c| c.0), "articles": articles }),
                rows,
            },
        )
        .await?;
        let authorization = issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (
                "traffic_authorization",
                &format!("vehicle:{}", vehicle.plate),
                &permit.holder,
            ),
            on,
            authorization_until(&ctx, on, permit.expires_on)?,
        )
        .await?;
        tx.commit().await?;
        Ok(VehicleIncluded {
            plate: vehicle.plate,
            authorization,
            to_check: to_check(&assessment.unknown),
            articles,
        })
    }

    /// Records an inspection; an approved periodic one sets the next due day
    /// (from the rulebook's schedule) and issues the seal valid until then.
    pub async fn record_inspection(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (plate, kind): (&str, &str),
        done_on: NaiveDate,
        (approved, findings): (bool, &str),
    ) -> Result<Inspection, StoreError> {
        let rulebook = crate::under_law("data", done_on, change, rulebook)?;
        let findings = checked("constatações", findings, TextKind::Long)?;
        let vehicle = recorded(self, jurisdiction, plate).await?;
        let kind = checked("tipo", kind, TextKind::Code)?;
        let known =
            kind == "periodic" || rulebook.vehicles.inspections.iter().any(|i| i.kind == kind);
        if !known {
            return Err(StoreError::Invalid {
                field: "tipo",
                reason: format!(
                    "`{kind}`: use periodic ou um tipo de vistoria do regulamento ({})",
                    rulebook
                        .vehicles
                        .inspections
                        .iter()
                        .map(|i| i.kind.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
        if !approved && findings.trim().is_empty() {
            return Err(StoreError::Invalid {
                field: "constatações",
                reason: "uma vistoria reprovada registra o que foi constatado".into(),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let included = sqlx::query(
            "SELECT MIN(since) AS since FROM permit_vehicles WHERE jurisdiction = $1 AND plate = $2 AND until IS NULL",
        )
        .bind(jurisdiction)
        .bind(&vehicle.plate)
        .fetch_one(&mut *tx)
        .await?;
        let included: Option<String> = included.try_get("since")?;
        let included = included.as_deref().map(day).transpose()?;
        let number = next_number(&mut tx, jurisdiction, "inspection", done_on.year()).await?;
        sqlx::query(
            "INSERT INTO inspections (jurisdiction, year, number, plate, kind, done_on, approved, findings, inspector) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(jurisdiction)
        .bind(done_on.year())
        .bind(number)
        .bind(&vehicle.plate)
        .bind(kind)
        .bind(done_on.to_string())
        .bind(i32::from(approved))
        .bind(findings.trim())
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        // The schedule, read with this inspection recorded.
        let after = engine_vehicle(&mut tx, jurisdiction, &vehicle, included).await?;
        let (next_due, cited) = if approved {
            let due = deadlines(&ctx, &after, done_on, false)?;
            let next = if kind == "periodic" {
                due.next_inspection
            } else {
                due.inspections
                    .iter()
                    .find(|(k, _)| *k == kind)
                    .and_then(|(_, d)| *d)
            };
            (next, articles(&due.citations))
        } else {
            (None, Vec::new())
        };
        sqlx::query(
            "UPDATE inspections SET next_due = $4 WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(done_on.year())
        .bind(number)
        .bind(next_due.map(|d| d.to_string()))
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "vehicle.inspection",
                jurisdiction: Some(jurisdiction),
                subject: &format!("vehicle:{}", vehicle.plate),
                detail: serde_json::json!({ "number": number, "kind": kind, "approved": approved, "findings": findings.trim(), "next_due": next_due }),
                rows: vec![RowRef::new("inspections", [jurisdiction.into(), done_on.year().into(), number.into()])],
            },
        )
        .await?;
        let seal = if approved {
            let holder = sqlx::query(
                "SELECT p.holder FROM permit_vehicles pv JOIN permits p ON p.jurisdiction = pv.jurisdiction \
                 AND p.service = pv.service AND p.number = pv.number \
                 WHERE pv.jurisdiction = $1 AND pv.plate = $2 AND pv.until IS NULL",
            )
            .bind(jurisdiction)
            .bind(&vehicle.plate)
            .fetch_optional(&mut *tx)
            .await?;
            let holder: String = match holder {
                Some(row) => row.try_get("holder")?,
                None => String::new(),
            };
            Some(
                issue(
                    &mut tx,
                    &self.audit,
                    change,
                    jurisdiction,
                    (
                        "inspection_seal",
                        &format!("vehicle:{}", vehicle.plate),
                        &holder,
                    ),
                    done_on,
                    next_due,
                )
                .await?,
            )
        } else {
            None
        };
        tx.commit().await?;
        Ok(Inspection {
            year: done_on.year(),
            number,
            plate: vehicle.plate,
            kind: kind.to_string(),
            done_on,
            approved,
            findings: findings.trim().to_string(),
            next_due,
            inspector: change.by.to_string(),
            seal,
            articles: cited,
        })
    }
}

impl Store {
    /// The service of the permit the vehicle `plate` serves now.
    pub async fn serving_service(
        &self,
        jurisdiction: &str,
        plate: &str,
    ) -> Result<String, StoreError> {
        let plate = crate::parse_plate(plate)?;
        let row = sqlx::query(
            "SELECT service FROM permit_vehicles WHERE jurisdiction = $1 AND plate = $2 AND until IS NULL",
        )
        .bind(jurisdiction)
        .bind(&plate)
        .fetch_optional(&self.pool)
        .await?;
        match row {
            Some(row) => Ok(row.try_get("service")?),
            None => Err(StoreError::NotFound(format!(
                "o veículo {plate} não está a serviço de uma permissão em {jurisdiction}"
            ))),
        }
    }

    /// Renews the traffic authorization of the vehicle `plate` on `on`
    /// (Santa Maria de Jetibá art. 15–16: yearly, the clerk seeing the DIV,
    /// the CRLV and the CNH): a new one, for the law's term, replaces the
    /// one in force. The vehicle must serve a permit in force.
    pub async fn renew_authorization(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        plate: &str,
        on: NaiveDate,
    ) -> Result<Document, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let plate = crate::parse_plate(plate)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let link = sqlx::query(
            "SELECT service, number FROM permit_vehicles WHERE jurisdiction = $1 AND plate = $2 AND until IS NULL",
        )
        .bind(jurisdiction)
        .bind(&plate)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(link) = link else {
            return Err(StoreError::Invalid {
                field: "placa",
                reason: format!(
                    "o veículo {plate} não está a serviço de uma permissão em {jurisdiction}"
                ),
            });
        };
        let service: String = link.try_get("service")?;
        let number: i64 = link.try_get("number")?;
        bound(&mut tx, jurisdiction, rulebook, &service).await?;
        let permit = lock_permit(&mut tx, &self.audit, jurisdiction, (&service, number)).await?;
        if permit.status != "granted" {
            return Err(StoreError::Invalid {
                field: "situação",
                reason: format!(
                    "a permissão {service} nº {number} está {}: a autorização de tráfego não se renova",
                    crate::status_pt(&permit.status)
                ),
            });
        }
        let until = authorization_until(&ctx, on, permit.expires_on)?;
        let document = issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (
                "traffic_authorization",
                &format!("vehicle:{plate}"),
                &permit.holder,
            ),
            on,
            until,
        )
        .await?;
        tx.commit().await?;
        Ok(document)
    }
}
