//! Permits of every service: the grant (cap, quotas, eligibility, all read
//! from the rulebook), the changes of status with their history, and the
//! term. A refused request names the articles it breaks.

use crate::audit::guard::{unchanged, unchanged_where};
use crate::audit::images::{KeyPart, RowRef};
use crate::audit::{Audit, Change, Entry, append, next_number};
use crate::dates::day;
use crate::listing::{self, Filter, Kind, List, Page, Window, one_of, renamed, text};
use crate::requirements::{ToCheck, refuse_unmet, to_check};
use crate::world::{self, ACTIVE, Scope};
use crate::{Store, StoreError, Tx, articles};
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::assessment::Assessment;
use outorga_core::engine::cap::{Counted, releasable, room};
use outorga_core::engine::eligibility::{Request, eligibility};
use outorga_core::model::{Applicant, CapRule, DeadlineKind, PermitStatus, Rulebook, Service};
use sqlx::Row;

/// A permit as recorded.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PermitRecord {
    pub service: String,
    pub number: i64,
    pub rulebook: String,
    pub holder: String,
    pub status: String,
    pub quota: Option<String>,
    pub granted_on: NaiveDate,
    pub expires_on: Option<NaiveDate>,
    pub line: Option<String>,
}

/// One change in a permit's life.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HistoryStep {
    pub event: String,
    pub status: String,
    pub since: NaiveDate,
    pub until: Option<NaiveDate>,
    pub reason: String,
    pub articles: Vec<String>,
    /// The ground the step was taken on, as the record keeps it: a reserve's
    /// reason (`[permit_suspension]`), a caducity notice's ground (the
    /// `caducity` grounds) or the `EndGround` a permit ended on.
    pub ground: Option<String>,
}

/// What a grant was asked for.
#[derive(Debug, Clone, Default)]
pub struct GrantRequest {
    pub service: String,
    pub holder: String,
    pub on: NaiveDate,
    /// The reserved share it is granted under (a quota key of the rulebook).
    pub quota: Option<String>,
    /// The line, for a bus delegation.
    pub line: Option<String>,
}

/// A permit granted, with what the clerk must still check and the articles
/// the grant rests on.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Granted {
    pub permit: PermitRecord,
    /// The delegation term of a bus line (other services get their traffic
    /// authorization when a vehicle is put in service).
    pub document: Option<crate::Document>,
    pub to_check: Vec<ToCheck>,
    pub articles: Vec<String>,
}

/// Whether `holder` may hold a permit of `service` (on `line`) on `on`, as
/// the rulebook's requirements say of what the record holds (a grant, a
/// transfer to them).
pub(crate) async fn eligible<'r>(
    tx: &mut Tx,
    ctx: &Context<'r>,
    jurisdiction: &str,
    (holder, service, line): (&str, Service, Option<&str>),
    on: NaiveDate,
) -> Result<Assessment<'r>, StoreError> {
    let scope = Scope {
        all_permits: true,
        people: &[holder],
        records_only: false,
    };
    let world = world::load(tx, ctx, jurisdiction, scope, on).await?;
    let person = world.person(holder).ok_or_else(|| {
        StoreError::NotFound(format!("{holder} não está cadastrado em {jurisdiction}"))
    })?;
    Ok(eligibility(
        ctx,
        &world.facts,
        person,
        Request {
            applicant: Applicant::Holder,
            under: None,
            line,
        },
        service,
        on,
    )?)
}

/// The rulebook must be one the jurisdiction is bound to, and know the service.
pub(crate) async fn bound(
    tx: &mut Tx,
    jurisdiction: &str,
    rulebook: &Rulebook,
    service: &str,
) -> Result<Service, StoreError> {
    let row = sqlx::query(
        "SELECT 1 AS one FROM jurisdiction_rulebooks WHERE jurisdiction = $1 AND rulebook = $2",
    )
    .bind(jurisdiction)
    .bind(&rulebook.id)
    .fetch_optional(&mut **tx)
    .await?;
    if row.is_none() {
        return Err(StoreError::Invalid {
            field: "jurisdição",
            reason: format!("{jurisdiction} não aplica o regulamento {}", rulebook.id),
        });
    }
    Service::parse(service)
        .filter(|s| rulebook.services.contains(s))
        .ok_or_else(|| StoreError::Invalid {
            field: "serviço",
            reason: format!(
                "`{service}` não é serviço de {} (serviços: {})",
                rulebook.id,
                rulebook
                    .services
                    .iter()
                    .map(|s| s.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// The last day of the permit's term starting `from`, when the law sets one.
pub(crate) fn term_end(
    ctx: &Context<'_>,
    from: NaiveDate,
) -> Result<Option<(NaiveDate, String)>, StoreError> {
    for kind in [DeadlineKind::PermitTerm, DeadlineKind::DelegationTerm] {
        if let Some(end) = crate::parameters::optional_deadline(ctx, kind, from)? {
            return Ok(Some(end));
        }
    }
    Ok(None)
}

const COLUMNS: &str =
    "service, number, rulebook, holder, status, quota, granted_on, expires_on, line";

fn permit_of(row: &sqlx::any::AnyRow) -> Result<PermitRecord, StoreError> {
    let granted: String = row.try_get("granted_on")?;
    let expires: Option<String> = row.try_get("expires_on")?;
    Ok(PermitRecord {
        service: row.try_get("service")?,
        number: row.try_get("number")?,
        rulebook: row.try_get("rulebook")?,
        holder: row.try_get("holder")?,
        status: row.try_get("status")?,
        quota: row.try_get("quota")?,
        granted_on: day(&granted)?,
        expires_on: expires.as_deref().map(day).transpose()?,
        line: row.try_get("line")?,
    })
}

/// Takes the permit's row lock (PostgreSQL; SQLite's write lock is already
/// held) so concurrent changes to one permit are weighed one at a time, and
/// refuses a permit edited outside outorga.
pub(crate) async fn lock_permit(
    tx: &mut Tx,
    audit: &Audit,
    jurisdiction: &str,
    (service, number): (&str, i64),
) -> Result<PermitRecord, StoreError> {
    sqlx::query("UPDATE permits SET status = status WHERE jurisdiction = $1 AND service = $2 AND number = $3")
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .execute(&mut **tx)
        .await?;
    unchanged(
        tx,
        &audit.schema,
        &[RowRef::new(
            "permits",
            [jurisdiction.into(), service.into(), number.into()],
        )],
    )
    .await?;
    read_permit(tx, jurisdiction, service, number).await
}

pub(crate) async fn read_permit(
    tx: &mut Tx,
    jurisdiction: &str,
    service: &str,
    number: i64,
) -> Result<PermitRecord, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM permits WHERE jurisdiction = $1 AND service = $2 AND number = $3"
    )))
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => permit_of(&row),
        None => Err(StoreError::NotFound(format!(
            "não há permissão {service} nº {number} em {jurisdiction}"
        ))),
    }
}

/// A step of a permit's history: the event, the status it leaves the
/// permit in, its days, the articles it rests on, and the other rows written
/// with it (links ended, documents cancelled), which its audit entry holds.
#[derive(Debug)]
pub(crate) struct PermitStep<'a> {
    pub event: &'a str,
    pub status: &'a str,
    pub since: NaiveDate,
    pub until: Option<NaiveDate>,
    /// The reserve's reason, the notice's or the end's ground.
    pub ground: Option<&'a str>,
    pub cited: &'a [String],
    pub also: Vec<RowRef>,
}

/// Appends a step to a permit's history and sets its status.
pub(crate) async fn step(
    tx: &mut Tx,
    audit: &Audit,
    change: &Change<'_>,
    jurisdiction: &str,
    (service, number): (&str, i64),
    step: PermitStep<'_>,
) -> Result<(), StoreError> {
    let PermitStep {
        event,
        status,
        since,
        until,
        ground,
        cited,
        also,
    } = step;
    let seq: i64 = sqlx::query(
        "INSERT INTO permit_history (jurisdiction, service, number, seq, event, status, since, until, reason, citations, ground) \
         SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, $4, $5, $6, $7, $8, $9, $10 FROM permit_history \
         WHERE jurisdiction = $1 AND service = $2 AND number = $3 RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(event)
    .bind(status)
    .bind(since.to_string())
    .bind(until.map(|u| u.to_string()))
    .bind(change.why)
    .bind(serde_json::json!(cited).to_string())
    .bind(ground)
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    sqlx::query(
        "UPDATE permits SET status = $4 WHERE jurisdiction = $1 AND service = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(status)
    .execute(&mut **tx)
    .await?;
    let mut rows = vec![
        RowRef::new(
            "permit_history",
            [
                jurisdiction.into(),
                service.into(),
                number.into(),
                seq.into(),
            ],
        ),
        RowRef::new(
            "permits",
            [jurisdiction.into(), service.into(), number.into()],
        ),
    ];
    rows.extend(also);
    append(
        tx,
        audit,
        change,
        Entry {
            action: &format!("permit.{event}"),
            jurisdiction: Some(jurisdiction),
            subject: &format!("permit:{service}:{number}"),
            detail: serde_json::json!({ "status": status, "since": since, "until": until, "ground": ground, "articles": cited }),
            rows,
        },
    )
    .await?;
    Ok(())
}

/// Refuses a change (`driver_swap`, `vehicle_substitution`) the law's limit
/// per period does not allow; the articles when it does. `past` are the days
/// of the permit's earlier changes that count.
pub(crate) fn within_change_limit(
    ctx: &Context<'_>,
    change: &str,
    past: &[NaiveDate],
    excuse: Option<&str>,
    on: NaiveDate,
) -> Result<Vec<String>, StoreError> {
    let Some(answer) =
        outorga_core::engine::changes::change_allowed(ctx, change, past, excuse, on)?
    else {
        return Ok(Vec::new());
    };
    if let Some(reason) = answer.reason {
        return Err(StoreError::Refused {
            reason,
            articles: articles(&answer.citations),
        });
    }
    Ok(articles(&answer.citations))
}

/// The days of a permit's changes in `table` that count against a limit
/// (`condition` picks them: swaps, substitutions), excused ones left out.
pub(crate) async fn counted_changes(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
    (table, condition): (&str, &str),
) -> Result<Vec<NaiveDate>, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT since FROM {table} WHERE jurisdiction = $1 AND service = $2 AND number = $3 \
         AND excuse IS NULL AND {condition}"
    )))
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|r| day(&r.try_get::<String, _>("since")?))
        .collect()
}

/// A renewed permit's documents are issued again with its new term: the
/// traffic authorization of the vehicle serving it, a bus line's delegation
/// term (each replaces the one in force).
pub(crate) async fn renew_documents(
    tx: &mut Tx,
    (audit, ctx): (&Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    (permit, on): (&PermitRecord, NaiveDate),
    end: NaiveDate,
) -> Result<(), StoreError> {
    let vehicle = sqlx::query(
        "SELECT plate FROM permit_vehicles WHERE jurisdiction = $1 AND service = $2 AND number = $3 AND until IS NULL",
    )
    .bind(jurisdiction)
    .bind(&permit.service)
    .bind(permit.number)
    .fetch_optional(&mut **tx)
    .await?;
    if let Some(row) = vehicle {
        let plate: String = row.try_get("plate")?;
        crate::documents::issue(
            tx,
            audit,
            change,
            jurisdiction,
            (
                "traffic_authorization",
                &format!("vehicle:{plate}"),
                &permit.holder,
            ),
            on,
            crate::parameters::authorization_until(ctx, on, Some(end))?,
        )
        .await?;
    }
    if permit.service == Service::Onibus.name() {
        crate::documents::issue(
            tx,
            audit,
            change,
            jurisdiction,
            (
                "delegation_term",
                &format!("permit:{}:{}", permit.service, permit.number),
                &permit.holder,
            ),
            on,
            Some(end),
        )
        .await?;
    }
    Ok(())
}

/// The rows of a permit's vehicles an `UPDATE … RETURNING plate, since`
/// wrote.
pub(crate) fn ended_vehicles(
    jurisdiction: &str,
    (service, number): (&str, i64),
    rows: Vec<sqlx::any::AnyRow>,
) -> Result<Vec<RowRef>, StoreError> {
    rows.iter()
        .map(|row| {
            Ok(RowRef::new(
                "permit_vehicles",
                [
                    jurisdiction.into(),
                    service.into(),
                    number.into(),
                    row.try_get::<String, _>("plate")?.into(),
                    row.try_get::<String, _>("since")?.into(),
                ],
            ))
        })
        .collect()
}

/// A permit that ends takes its drivers and vehicle with it: the rows it
/// wrote, for the step's audit entry.
pub(crate) async fn end_links(
    tx: &mut Tx,
    audit: &Audit,
    jurisdiction: &str,
    (service, number): (&str, i64),
    on: NaiveDate,
) -> Result<Vec<RowRef>, StoreError> {
    // The permit's own documents (a delegation term) end with it, and its
    // drivers' registrations and vehicle's traffic authorization with them.
    let permit: [KeyPart; 3] = [jurisdiction.into(), service.into(), number.into()];
    let linked = "jurisdiction = $1 AND service = $2 AND number = $3 AND until IS NULL";
    for table in ["permit_drivers", "permit_vehicles"] {
        unchanged_where(tx, &audit.schema, table, linked, &permit).await?;
    }
    unchanged_where(
        tx,
        &audit.schema,
        "documents",
        "jurisdiction = $1 AND cancelled_on IS NULL AND (subject = $2 \
         OR subject IN (SELECT 'driver:' || registration FROM permit_drivers WHERE jurisdiction = $1 \
         AND service = $3 AND number = $4 AND until IS NULL) \
         OR subject IN (SELECT 'vehicle:' || plate FROM permit_vehicles WHERE jurisdiction = $1 \
         AND service = $3 AND number = $4 AND until IS NULL))",
        &[
            jurisdiction.into(),
            format!("permit:{service}:{number}").into(),
            service.into(),
            number.into(),
        ],
    )
    .await?;
    let mut rows = crate::documents::cancelled_codes(
        sqlx::query(
            "UPDATE documents SET cancelled_on = $3 WHERE jurisdiction = $1 AND subject = $2 \
             AND cancelled_on IS NULL RETURNING code",
        )
        .bind(jurisdiction)
        .bind(format!("permit:{service}:{number}"))
        .bind(on.to_string())
        .fetch_all(&mut **tx)
        .await?,
    )?;
    for (kind, prefix, column, table) in [
        (
            "driver_registration",
            "driver:",
            "registration",
            "permit_drivers",
        ),
        (
            "traffic_authorization",
            "vehicle:",
            "plate",
            "permit_vehicles",
        ),
    ] {
        rows.extend(crate::documents::cancelled_codes(
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "UPDATE documents SET cancelled_on = $4 WHERE jurisdiction = $1 AND kind = '{kind}' \
                 AND cancelled_on IS NULL AND subject IN (SELECT '{prefix}' || {column} FROM {table} \
                 WHERE jurisdiction = $1 AND service = $2 AND number = $3 AND until IS NULL) \
                 RETURNING code"
            )))
            .bind(jurisdiction)
            .bind(service)
            .bind(number)
            .bind(on.to_string())
            .fetch_all(&mut **tx)
            .await?,
        )?);
    }
    for row in sqlx::query(
        "UPDATE permit_drivers SET until = $4 WHERE jurisdiction = $1 AND service = $2 \
         AND number = $3 AND until IS NULL RETURNING registration",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(on.to_string())
    .fetch_all(&mut **tx)
    .await?
    {
        rows.push(RowRef::new(
            "permit_drivers",
            [
                jurisdiction.into(),
                row.try_get::<String, _>("registration")?.into(),
            ],
        ));
    }
    // And its fixed stand: the place is free from that day.
    rows.extend(
        crate::stand_leave::leave(
            tx,
            jurisdiction,
            (service, number),
            on,
            crate::stand_leave::LeftBy::PermitEnded,
        )
        .await?,
    );
    rows.extend(ended_vehicles(
        jurisdiction,
        (service, number),
        sqlx::query(
            "UPDATE permit_vehicles SET until = $4 WHERE jurisdiction = $1 AND service = $2 \
             AND number = $3 AND until IS NULL RETURNING plate, since",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .bind(on.to_string())
        .fetch_all(&mut **tx)
        .await?,
    )?);
    Ok(rows)
}

/// The permits a cap counts (every service it counts together), each with
/// the share it was granted under, and the places of each share released to
/// the other applicants. Grants and releases of the services of one cap take
/// turns on one row (PostgreSQL's row lock; SQLite's write lock is already
/// held).
pub(crate) struct CapRecord {
    permits: Vec<(Service, Option<String>)>,
    released: Vec<(String, u64)>,
}

async fn cap_record(
    tx: &mut Tx,
    rule: &CapRule,
    jurisdiction: &str,
) -> Result<CapRecord, StoreError> {
    let first = rule.services.first().map_or("", |s| s.name());
    crate::audit::lock_series(tx, jurisdiction, &format!("cap:{first}")).await?;
    cap_permits(tx, rule, jurisdiction).await
}

/// The permits a cap counts and the places released from its shares, as
/// they are now (no lock: what a preview reads).
pub(crate) async fn cap_permits(
    tx: &mut Tx,
    rule: &CapRule,
    jurisdiction: &str,
) -> Result<CapRecord, StoreError> {
    let mut permits = Vec::new();
    let mut released = Vec::new();
    for counted in &rule.services {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT quota FROM permits WHERE jurisdiction = $1 AND service = $2 AND status IN {ACTIVE}"
        )))
        .bind(jurisdiction)
        .bind(counted.name())
        .fetch_all(&mut **tx)
        .await?;
        for row in rows {
            permits.push((*counted, row.try_get("quota")?));
        }
        let rows = sqlx::query(
            "SELECT quota, CAST(SUM(places) AS BIGINT) AS places FROM quota_releases \
             WHERE jurisdiction = $1 AND service = $2 GROUP BY quota",
        )
        .bind(jurisdiction)
        .bind(counted.name())
        .fetch_all(&mut **tx)
        .await?;
        for row in rows {
            let places: i64 = row.try_get("places")?;
            released.push((row.try_get("quota")?, u64::try_from(places).unwrap_or(0)));
        }
    }
    Ok(CapRecord { permits, released })
}

/// The core's view of the cap's record.
pub(crate) fn counted(record: &CapRecord) -> (Vec<Counted<'_>>, Vec<(&str, u64)>) {
    (
        record
            .permits
            .iter()
            .map(|(service, quota)| Counted {
                service: *service,
                quota: quota.as_deref(),
            })
            .collect(),
        record
            .released
            .iter()
            .map(|(k, n)| (k.as_str(), *n))
            .collect(),
    )
}

/// One more permit of `service` (under `quota`) must fit the cap, as the
/// core's `cap::room` says of the record: the articles, or its refusal.
async fn within_cap(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    service: Service,
    quota: Option<&str>,
    on: NaiveDate,
) -> Result<Vec<String>, StoreError> {
    let Some(rule) = ctx
        .rulebook
        .caps
        .iter()
        .find(|c| c.services.contains(&service))
    else {
        return Ok(Vec::new());
    };
    let record = cap_record(tx, rule, jurisdiction).await?;
    let (permits, released) = counted(&record);
    let cited = room(ctx, service, &permits, quota, &released, on)??;
    Ok(articles(&cited))
}

/// Grants a permit inside `tx` if the law allows it (`Store::grant_permit`;
/// a public call's grants in ranking order, `calls`).
pub(crate) async fn grant(
    tx: &mut Tx,
    audit: &crate::audit::Audit,
    change: &Change<'_>,
    rulebook: &Rulebook,
    jurisdiction: &str,
    request: &GrantRequest,
) -> Result<Granted, StoreError> {
    let (holder, _) = crate::parse_document(&request.holder)?;
    let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
    let service = bound(tx, jurisdiction, rulebook, &request.service).await?;
    match (&request.line, service) {
        (None, Service::Onibus) => {
            return Err(StoreError::Invalid {
                field: "linha",
                reason: "a delegação de ônibus nomeia a linha".into(),
            });
        }
        (Some(line), _) => {
            let known =
                sqlx::query("SELECT 1 AS one FROM lines WHERE jurisdiction = $1 AND code = $2")
                    .bind(jurisdiction)
                    .bind(line)
                    .fetch_optional(&mut **tx)
                    .await?;
            if known.is_none() {
                return Err(StoreError::Invalid {
                    field: "linha",
                    reason: format!("a linha {line} não está cadastrada em {jurisdiction}"),
                });
            }
        }
        (None, _) => {}
    }
    // Taking the number first locks the service's counter (PostgreSQL
    // row lock; SQLite's write lock is already held) until the commit:
    // concurrent grants are weighed one after the other against the cap
    // and the one-permit rules, and a refused grant gives its number back.
    let number = next_number(tx, jurisdiction, &format!("permit:{}", request.service), 0).await?;
    let assessment = eligible(
        tx,
        &ctx,
        jurisdiction,
        (&holder, service, request.line.as_deref()),
        request.on,
    )
    .await?;
    refuse_unmet("outorga negada", &assessment)?;
    if let Some((reason, article)) =
        crate::delegation_bar::caducity_bar(tx, &ctx, jurisdiction, &holder, request.on).await?
    {
        return Err(StoreError::Refused {
            reason: format!("outorga negada: {reason}"),
            articles: vec![article],
        });
    }
    let mut cited = articles(&assessment.citations);
    let quota = request
        .quota
        .as_deref()
        .map(str::trim)
        .filter(|q| !q.is_empty());
    cited.extend(within_cap(tx, &ctx, jurisdiction, service, quota, request.on).await?);
    let term = term_end(&ctx, request.on)?;
    if let Some((_, article)) = &term {
        cited.push(article.clone());
    }
    sqlx::query(
        "INSERT INTO permits (jurisdiction, service, number, rulebook, holder, status, quota, granted_on, expires_on, line) \
         VALUES ($1, $2, $3, $4, $5, 'granted', $6, $7, $8, $9)",
    )
    .bind(jurisdiction)
    .bind(&request.service)
    .bind(number)
    .bind(&rulebook.id)
    .bind(&holder)
    .bind(quota)
    .bind(request.on.to_string())
    .bind(term.as_ref().map(|(end, _)| end.to_string()))
    .bind(request.line.clone())
    .execute(&mut **tx)
    .await?;
    let cited = articles(&cited.iter().map(String::as_str).collect::<Vec<_>>());
    step(
        tx,
        audit,
        change,
        jurisdiction,
        (&request.service, number),
        PermitStep {
            event: "grant",
            status: "granted",
            since: request.on,
            until: None,
            ground: None,
            cited: &cited,
            also: Vec::new(),
        },
    )
    .await?;
    let permit = read_permit(tx, jurisdiction, &request.service, number).await?;
    crate::fees::charge_event(
        tx,
        (audit, &ctx),
        change,
        jurisdiction,
        (
            outorga_core::model::FeeEvent::Grant,
            &holder,
            Some(number),
            request.on,
        ),
    )
    .await?;
    let document = if service == Service::Onibus {
        Some(
            crate::documents::issue(
                tx,
                audit,
                change,
                jurisdiction,
                (
                    "delegation_term",
                    &format!("permit:{}:{number}", request.service),
                    &holder,
                ),
                request.on,
                permit.expires_on,
            )
            .await?,
        )
    } else {
        None
    };
    Ok(Granted {
        permit,
        document,
        to_check: to_check(&assessment.unknown),
        articles: cited,
    })
}

/// Releases inside `tx` the unfilled places of the share `quota` of
/// `service` (`Store::release_quota`), at most `at_most` of them (a public
/// call releases the places it offered: SMJ art. 2º, § 6º).
pub(crate) async fn release(
    tx: &mut Tx,
    (audit, change): (&crate::audit::Audit, &Change<'_>),
    rulebook: &Rulebook,
    jurisdiction: &str,
    (service, quota, at_most): (&str, &str, Option<u64>),
    on: NaiveDate,
) -> Result<(u64, String), StoreError> {
    let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
    let kind = bound(tx, jurisdiction, rulebook, service).await?;
    let Some(rule) = ctx
        .rulebook
        .caps
        .iter()
        .find(|c| c.services.contains(&kind))
    else {
        return Err(StoreError::Refused {
            reason: format!("{} não limita as permissões de {service}", rulebook.id),
            articles: Vec::new(),
        });
    };
    let record = cap_record(tx, rule, jurisdiction).await?;
    let (permits, released) = counted(&record);
    let (places, article) = releasable(&ctx, kind, &permits, quota, &released, on)??;
    let places = at_most.map_or(places, |n| places.min(n));
    let seq: i64 = sqlx::query(
        "INSERT INTO quota_releases (jurisdiction, service, quota, seq, released_on, places, reason, citations) \
         SELECT $1, $2, $3, COALESCE(MAX(seq), 0) + 1, $4, $5, $6, $7 FROM quota_releases \
         WHERE jurisdiction = $1 AND service = $2 AND quota = $3 RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(quota)
    .bind(on.to_string())
    .bind(i64::try_from(places).unwrap_or(i64::MAX))
    .bind(change.why)
    .bind(serde_json::json!([article]).to_string())
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    append(
        tx,
        audit,
        change,
        Entry {
            action: "quota.release",
            jurisdiction: Some(jurisdiction),
            subject: &format!("quota:{service}:{quota}"),
            detail: serde_json::json!({ "places": places, "on": on, "articles": [article] }),
            rows: vec![RowRef::new(
                "quota_releases",
                [
                    jurisdiction.into(),
                    service.into(),
                    quota.into(),
                    seq.into(),
                ],
            )],
        },
    )
    .await?;
    Ok((places, article.to_string()))
}

impl Store {
    /// Grants a permit if the law allows it: the service is the rulebook's,
    /// the cap (and the quota asked for) has room, and no eligibility
    /// requirement is unmet. Requirements whose facts are not recorded are
    /// returned for the clerk to check.
    pub async fn grant_permit(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        request: &GrantRequest,
    ) -> Result<Granted, StoreError> {
        crate::parse_document(&request.holder)?;
        let rulebook = crate::under_law("data", request.on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let granted = grant(
            &mut tx,
            &self.audit,
            change,
            rulebook,
            jurisdiction,
            request,
        )
        .await?;
        tx.commit().await?;
        Ok(granted)
    }

    /// Releases to the other applicants the places of the reserved share
    /// `quota` of `service` not filled on `on`, where the law says so (SMJ
    /// art. 2º, § 6º: after a call with no eligible applicant for them):
    /// the places released and the article. The law's refusal when it
    /// releases no such share or none is unfilled.
    pub async fn release_quota(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, quota): (&str, &str),
        on: NaiveDate,
    ) -> Result<(u64, String), StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let released = release(
            &mut tx,
            (&self.audit, change),
            rulebook,
            jurisdiction,
            (service, quota, None),
            on,
        )
        .await?;
        tx.commit().await?;
        Ok(released)
    }

    /// The status of a permit on `day`, if it exists (a term run out, a
    /// reserve or a suspension lapsed: `engine::permit_life::status_on_day`).
    pub async fn permit_status(
        &self,
        jurisdiction: &str,
        (service, number): (&str, i64),
        day: NaiveDate,
    ) -> Result<Option<PermitStatus>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT p.status, p.expires_on, {} AS status_until FROM permits p \
             WHERE p.jurisdiction = $1 AND p.service = $2 AND p.number = $3",
            crate::permit_status::STATUS_UNTIL
        )))
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| crate::permit_status::status_in(&row, day))
            .transpose()
    }

    /// A permit and its history, oldest step first.
    pub async fn permit(
        &self,
        jurisdiction: &str,
        service: &str,
        number: i64,
    ) -> Result<(PermitRecord, Vec<HistoryStep>), StoreError> {
        let mut tx = self.pool.begin().await?;
        let permit = read_permit(&mut tx, jurisdiction, service, number).await?;
        let rows = sqlx::query(
            "SELECT event, status, since, until, reason, citations, ground FROM permit_history \
             WHERE jurisdiction = $1 AND service = $2 AND number = $3 ORDER BY seq",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        let mut history = Vec::new();
        for row in rows {
            let since: String = row.try_get("since")?;
            let until: Option<String> = row.try_get("until")?;
            let cited: String = row.try_get("citations")?;
            history.push(HistoryStep {
                event: row.try_get("event")?,
                status: row.try_get("status")?,
                since: day(&since)?,
                until: until.as_deref().map(day).transpose()?,
                reason: row.try_get("reason")?,
                articles: serde_json::from_str(&cited).unwrap_or_default(),
                ground: row.try_get("ground")?,
            });
        }
        Ok((permit, history))
    }

    /// A page of the permits of a jurisdiction that `filter` admits, by
    /// service and number.
    pub async fn permits(
        &self,
        jurisdiction: &str,
        filter: &PermitFilter,
        window: Window<'_>,
    ) -> Result<Page<PermitRecord>, StoreError> {
        let holder = filter
            .holder
            .as_deref()
            .map(|d| renamed("titular", crate::parse_document(d)))
            .transpose()?
            .map(|(d, _)| text(d));
        let plate = filter
            .plate
            .as_deref()
            .map(|p| renamed("placa", crate::parse_plate(p)))
            .transpose()?
            .map(text);
        let status = filter
            .status
            .as_deref()
            .map(|s| one_of("situacao", s, STATUSES))
            .transpose()?;
        let service = filter.service.as_deref().map(|s| text(s.trim()));
        let led = plate.is_some();
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .when(
                "(service, number) IN (SELECT pv.service, pv.number FROM permit_vehicles pv \
                 WHERE pv.jurisdiction = permits.jurisdiction AND pv.plate = $? AND pv.until IS NULL)",
                plate,
            )
            .ranked(
                led,
                &[("holder", holder), ("status", status), ("service", service)],
            );
        listing::page(&self.pool, &PERMITS, &rows, window, permit_of).await
    }
}

/// What staff search permits by; `None` admits any.
#[derive(Debug, Clone, Default)]
pub struct PermitFilter {
    pub service: Option<String>,
    /// granted, suspended, reserved, renounced, revoked or extinct.
    pub status: Option<String>,
    /// CPF or CNPJ of the holder.
    pub holder: Option<String>,
    /// The vehicle in service under it now.
    pub plate: Option<String>,
}

/// The statuses of a permit.
const STATUSES: &[&str] = PermitStatus::NAMES;

/// Permits by service and number (the primary key; the filters by status
/// and holder have indexes ending in it, migration 0021).
const PERMITS: List = List {
    name: "permits",
    table: "permits",
    columns: COLUMNS,
    key: &[("service", Kind::Text), ("number", Kind::Int)],
    descending: false,
};

/// A status in Portuguese, for messages.
pub fn status_pt(status: &str) -> &'static str {
    PermitStatus::parse(status).map_or("em situação desconhecida", PermitStatus::portuguese)
}
