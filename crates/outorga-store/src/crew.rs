//! Drivers serving under a permit (auxiliary, collaborator, preposto): added
//! when the law allows it, with a registration number and its document.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, next_number};
use crate::dates::day;
use crate::documents::{Document, issue};
use crate::listing::{self, Filter, KeyValue, Kind, List, Page, Window, text};
use crate::permits::{bound, counted_changes, lock_permit, within_change_limit};
use crate::requirements::refuse_unmet;
use crate::world::{self, Scope};
use crate::{PermitRecord, Store, StoreError, Tx, articles};
use chrono::{Datelike, NaiveDate};
use outorga_core::Context;
use outorga_core::engine::eligibility::{Request, eligibility};
use outorga_core::engine::in_service::DriverRecord;
use outorga_core::engine::registration::validity;
use outorga_core::model::{Applicant, PermitStatus, Rulebook, Service};
use sqlx::Row;

/// The roles a driver serves a permit in.
const ROLES: [&str; 3] = ["auxiliary", "collaborator", "preposto"];

/// A driver's role as staff read it.
pub fn role_pt(role: &str) -> &'static str {
    match role {
        "auxiliary" => "auxiliar",
        "collaborator" => "colaborador",
        "preposto" => "preposto",
        _ => "função desconhecida",
    }
}

/// What admitting a driver under a permit gave: the registration's
/// validity, the articles, and what the clerk must still check.
struct Admitted {
    valid_until: Option<NaiveDate>,
    articles: Vec<String>,
    to_check: Vec<crate::ToCheck>,
}

/// Whether `driver` may serve under `permit` on `on` (eligibility of
/// drivers, drivers per permit…), refused with `refusal` and the articles
/// when not; and until when their registration is valid (the rulebook's
/// period, or the permit's term when it sets none).
async fn admit(
    tx: &mut Tx,
    ctx: &Context<'_>,
    (jurisdiction, service, permit): (&str, Service, &PermitRecord),
    driver: &str,
    (refusal, on): (&str, NaiveDate),
) -> Result<Admitted, StoreError> {
    let scope = Scope {
        all_permits: false,
        people: &[driver, &permit.holder],
        records_only: false,
    };
    let world = world::load(tx, ctx, jurisdiction, scope, on).await?;
    let Some(under) = world.permit(&permit.service, permit.number) else {
        return Err(StoreError::NotFound(format!(
            "a permissão nº {} não está em vigor",
            permit.number
        )));
    };
    let Some(person) = world.person(driver) else {
        return Err(StoreError::NotFound(format!(
            "{driver} não está cadastrado em {jurisdiction}"
        )));
    };
    let assessment = eligibility(
        ctx,
        &world.facts,
        person,
        Request {
            applicant: Applicant::Driver,
            under: Some(under),
            line: None,
        },
        service,
        on,
    )?;
    refuse_unmet(refusal, &assessment)?;
    let mut cited: Vec<&str> = assessment.citations.clone();
    let valid_until = if ctx
        .rulebook
        .registrations
        .iter()
        .any(|r| r.role == Applicant::Driver)
    {
        let v = validity(ctx, world.facts.person(person), Applicant::Driver, on)?;
        cited.extend(v.citations.iter().copied());
        v.valid_until
    } else {
        permit.expires_on
    };
    Ok(Admitted {
        valid_until,
        articles: articles(&cited),
        to_check: crate::requirements::to_check(&assessment.unknown),
    })
}

/// A driver linked to a permit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Driver {
    pub registration: String,
    pub service: String,
    pub number: i64,
    pub driver: String,
    pub role: String,
    pub since: NaiveDate,
    pub valid_until: Option<NaiveDate>,
    pub until: Option<NaiveDate>,
    /// The last day of a suspension of the credential by a final auto.
    pub suspended_until: Option<NaiveDate>,
}

impl Driver {
    /// The link as the core's rule of what is in service reads it, with the
    /// status of the permit it serves.
    pub fn record(&self, permit: Option<PermitStatus>) -> DriverRecord {
        DriverRecord {
            since: self.since,
            until: self.until,
            valid_until: self.valid_until,
            suspended_until: self.suspended_until,
            permit,
        }
    }
}

/// A driver added: the link, its registration document, what the clerk must
/// still check, and the articles.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DriverAdded {
    pub driver: Driver,
    pub document: Document,
    pub to_check: Vec<crate::ToCheck>,
    pub articles: Vec<String>,
}

pub(crate) fn driver_of(row: &sqlx::any::AnyRow) -> Result<Driver, StoreError> {
    let since: String = row.try_get("since")?;
    let valid: Option<String> = row.try_get("valid_until")?;
    let until: Option<String> = row.try_get("until")?;
    let suspended: Option<String> = row.try_get("suspended_until")?;
    Ok(Driver {
        suspended_until: suspended.as_deref().map(day).transpose()?,
        registration: row.try_get("registration")?,
        service: row.try_get("service")?,
        number: row.try_get("number")?,
        driver: row.try_get("driver")?,
        role: row.try_get("role")?,
        since: day(&since)?,
        valid_until: valid.as_deref().map(day).transpose()?,
        until: until.as_deref().map(day).transpose()?,
    })
}

pub(crate) const COLUMNS: &str =
    "registration, service, number, driver, role, since, valid_until, until, suspended_until";

impl Store {
    /// Links a driver to a permit in force if the law allows it (eligibility
    /// of drivers, drivers per permit, preposto grounds) and issues the
    /// driver's registration, valid as long as the rulebook says.
    pub async fn add_driver(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, number): (&str, i64),
        (driver, role): (&str, &str),
        (on, excuse): (NaiveDate, Option<&str>),
    ) -> Result<DriverAdded, StoreError> {
        let (driver, _) = crate::parse_document(driver)?;
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let excuse = excuse
            .map(|e| crate::text::checked("justificativa", e, crate::TextKind::Line))
            .transpose()?
            .filter(|e| !e.is_empty());
        if !ROLES.contains(&role) {
            return Err(StoreError::Invalid {
                field: "função",
                reason: format!("`{role}`: use auxiliary, collaborator ou preposto"),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let engine_service = bound(&mut tx, jurisdiction, rulebook, service).await?;
        let permit = lock_permit(&mut tx, &self.audit, jurisdiction, (service, number)).await?;
        if permit.status != "granted" {
            return Err(StoreError::Invalid {
                field: "permissão",
                reason: format!(
                    "a permissão nº {number} está {}: não recebe condutores",
                    crate::status_pt(&permit.status)
                ),
            });
        }
        let taken = sqlx::query(
            "SELECT service, number FROM permit_drivers WHERE jurisdiction = $1 AND driver = $2 AND until IS NULL",
        )
        .bind(jurisdiction)
        .bind(&driver)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = taken {
            let other: i64 = row.try_get("number")?;
            return Err(StoreError::Invalid {
                field: "condutor",
                reason: format!("{driver} já serve a permissão nº {other}: desligue-o antes"),
            });
        }
        let admitted = admit(
            &mut tx,
            &ctx,
            (jurisdiction, engine_service, &permit),
            &driver,
            ("condutor não admitido", on),
        )
        .await?;
        // A driver after an earlier one is a swap, limited per period.
        let earlier = sqlx::query(
            "SELECT COUNT(*) AS n FROM permit_drivers WHERE jurisdiction = $1 AND service = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .fetch_one(&mut *tx)
        .await?;
        let swap = earlier.try_get::<i64, _>("n")? > 0;
        let limit_articles = if swap {
            let past = counted_changes(
                &mut tx,
                jurisdiction,
                (service, number),
                ("permit_drivers", "swap = 1"),
            )
            .await?;
            within_change_limit(&ctx, "driver_swap", &past, excuse, on)?
        } else {
            Vec::new()
        };
        let Admitted {
            valid_until,
            mut articles,
            to_check,
        } = admitted;
        articles.extend(limit_articles);
        // A novice auxiliary: no registration in the jurisdiction before.
        let novice = role == "auxiliary"
            && sqlx::query(
                "SELECT 1 AS one FROM permit_drivers WHERE jurisdiction = $1 AND driver = $2",
            )
            .bind(jurisdiction)
            .bind(&driver)
            .fetch_optional(&mut *tx)
            .await?
            .is_none();
        let n = next_number(&mut tx, jurisdiction, "registration", on.year()).await?;
        let registration = format!("{}-{n:05}", on.year());
        sqlx::query(
            "INSERT INTO permit_drivers (jurisdiction, registration, service, number, driver, role, since, valid_until, swap, excuse) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(jurisdiction)
        .bind(&registration)
        .bind(service)
        .bind(number)
        .bind(&driver)
        .bind(role)
        .bind(on.to_string())
        .bind(valid_until.map(|v| v.to_string()))
        .bind(i32::from(swap))
        .bind(excuse.filter(|_| swap))
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            crate::refused_if_taken(e, "condutor", format!("{driver} já serve outra permissão"))
        })?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "permit.driver_add",
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{service}:{number}"),
                detail: serde_json::json!({ "driver": driver, "role": role, "registration": registration, "articles": articles }),
                rows: vec![RowRef::new("permit_drivers", [jurisdiction.into(), (&registration).into()])],
            },
        )
        .await?;
        if novice {
            crate::fees::charge_event(
                &mut tx,
                (&self.audit, &ctx),
                change,
                jurisdiction,
                (
                    outorga_core::model::FeeEvent::AuxiliaryRegistration,
                    &permit.holder,
                    Some(number),
                    on,
                ),
            )
            .await?;
        }
        let document = issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (
                "driver_registration",
                &format!("driver:{registration}"),
                &driver,
            ),
            on,
            valid_until,
        )
        .await?;
        tx.commit().await?;
        Ok(DriverAdded {
            driver: Driver {
                registration,
                service: service.to_string(),
                number,
                driver,
                role: role.to_string(),
                since: on,
                valid_until,
                until: None,
                suspended_until: None,
            },
            document,
            to_check,
            articles,
        })
    }

    /// Renews a driver's registration on `on` if they still meet the law's
    /// requirements: a new validity from that day and a new document (the
    /// old one is cancelled).
    pub async fn renew_registration(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        registration: &str,
        on: NaiveDate,
    ) -> Result<DriverAdded, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let Some(link) = self.driver(jurisdiction, registration).await? else {
            return Err(StoreError::NotFound(format!(
                "não há condutor com a matrícula {registration} em {jurisdiction}"
            )));
        };
        if link.until.is_some() {
            return Err(StoreError::Invalid {
                field: "matrícula",
                reason: format!(
                    "o condutor deixou a permissão em {}: inclua-o de novo",
                    link.until.map(|u| u.to_string()).unwrap_or_default()
                ),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let engine_service = bound(&mut tx, jurisdiction, rulebook, &link.service).await?;
        let permit = lock_permit(
            &mut tx,
            &self.audit,
            jurisdiction,
            (&link.service, link.number),
        )
        .await?;
        let Admitted {
            valid_until,
            articles,
            to_check,
        } = admit(
            &mut tx,
            &ctx,
            (jurisdiction, engine_service, &permit),
            &link.driver,
            ("renovação negada", on),
        )
        .await?;
        crate::audit::guard::unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new(
                "permit_drivers",
                [jurisdiction.into(), registration.into()],
            )],
        )
        .await?;
        sqlx::query("UPDATE permit_drivers SET valid_until = $3 WHERE jurisdiction = $1 AND registration = $2")
            .bind(jurisdiction)
            .bind(registration)
            .bind(valid_until.map(|v| v.to_string()))
            .execute(&mut *tx)
            .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "permit.driver_renewal",
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{}:{}", link.service, link.number),
                detail: serde_json::json!({ "registration": registration, "valid_until": valid_until, "articles": articles }),
                rows: vec![RowRef::new("permit_drivers", [jurisdiction.into(), registration.into()])],
            },
        )
        .await?;
        let document = issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (
                "driver_registration",
                &format!("driver:{registration}"),
                &link.driver,
            ),
            on,
            valid_until,
        )
        .await?;
        tx.commit().await?;
        Ok(DriverAdded {
            driver: Driver {
                valid_until,
                ..link
            },
            document,
            to_check,
            articles,
        })
    }

    /// Unlinks a driver (the registration ends on `on`).
    pub async fn remove_driver(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        registration: &str,
        on: NaiveDate,
    ) -> Result<Driver, StoreError> {
        // Without a rulebook, today is the UTC date: a day ahead of
        // Brazil's after 21:00, so today's unlinking is never refused.
        crate::done_on("data", on, change.at.date())?;
        let (mut tx, _writer) = self.write_transaction().await?;
        crate::audit::guard::unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new(
                "permit_drivers",
                [jurisdiction.into(), registration.into()],
            )],
        )
        .await?;
        crate::audit::guard::unchanged_where(
            &mut tx,
            &self.audit.schema,
            "documents",
            "jurisdiction = $1 AND subject = $2 AND cancelled_on IS NULL",
            &[jurisdiction.into(), format!("driver:{registration}").into()],
        )
        .await?;
        let done = sqlx::query(
            "UPDATE permit_drivers SET until = $3 WHERE jurisdiction = $1 AND registration = $2 AND until IS NULL",
        )
        .bind(jurisdiction)
        .bind(registration)
        .bind(on.to_string())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!(
                "não há condutor em atividade com a matrícula {registration}"
            )));
        }
        let mut rows = crate::documents::cancelled_codes(
            sqlx::query(
                "UPDATE documents SET cancelled_on = $3 WHERE jurisdiction = $1 AND subject = $2 \
                 AND cancelled_on IS NULL RETURNING code",
            )
            .bind(jurisdiction)
            .bind(format!("driver:{registration}"))
            .bind(on.to_string())
            .fetch_all(&mut *tx)
            .await?,
        )?;
        rows.push(RowRef::new(
            "permit_drivers",
            [jurisdiction.into(), registration.into()],
        ));
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM permit_drivers WHERE jurisdiction = $1 AND registration = $2"
        )))
        .bind(jurisdiction)
        .bind(registration)
        .fetch_one(&mut *tx)
        .await?;
        let driver = driver_of(&row)?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "permit.driver_remove",
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{}:{}", driver.service, driver.number),
                detail: serde_json::json!({ "registration": registration, "until": on }),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(driver)
    }

    /// A driver by registration number, if any.
    pub async fn driver(
        &self,
        jurisdiction: &str,
        registration: &str,
    ) -> Result<Option<Driver>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM permit_drivers WHERE jurisdiction = $1 AND registration = $2"
        )))
        .bind(jurisdiction)
        .bind(registration.trim())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(driver_of).transpose()
    }

    /// A page of the drivers of a permit (those who left included), by
    /// registration.
    pub async fn drivers(
        &self,
        jurisdiction: &str,
        (service, number): (&str, i64),
        window: Window<'_>,
    ) -> Result<Page<Driver>, StoreError> {
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .always("service = $?", text(service))
            .always("number = $?", KeyValue::Int(number));
        listing::page(&self.pool, &DRIVERS, &rows, window, driver_of).await
    }
}

/// A permit's drivers by registration (index `permit_drivers_by_permit`).
const DRIVERS: List = List {
    name: "drivers",
    table: "permit_drivers",
    columns: COLUMNS,
    key: &[("registration", Kind::Text)],
    descending: false,
};
