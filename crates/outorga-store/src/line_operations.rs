//! How a bus line is operated (Amapá art. 13, IV–V; 34–37): its service
//! level, terminals and stops, departures per day of the week and minimum
//! weekly trips. The agency sets an operation by its act; a carrier that
//! serves the line asks for a change with its justification (art. 34), which
//! the agency approves or refuses, dated and with its grounds. The operation
//! in force on a day is the approved version with the latest start on or
//! before it, so any past day's operation is known.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::day;
use crate::text::{TextKind, checked, required};
use crate::{Store, StoreError, Tx};
use chrono::{NaiveDate, NaiveTime};
use outorga_core::engine::bus_compliance::Schedule;
use outorga_core::model::Rulebook;
use sqlx::Row;

worded! {
    /// A line's service level: conventional or a differentiated service
    /// (art. 36: carro-leito and executivo; art. 3º, XI).
    pub enum ServiceLevel {
        Conventional = "convencional" => "convencional",
        Executive = "executivo" => "executivo",
        Sleeper = "leito" => "leito (carro-leito)",
    }
}

worded! {
    /// Where a version of a line's operation stands.
    pub enum OperationStatus {
        Requested = "requested" => "requerida",
        Approved = "approved" => "aprovada",
        Refused = "refused" => "recusada",
    }
}

/// The most departures a day may list (one every quarter of an hour).
pub const MAX_DEPARTURES_A_DAY: usize = 96;

/// The days of the week as the schedule lists them, Monday first.
pub const WEEKDAYS: [&str; 7] = [
    "segunda", "terça", "quarta", "quinta", "sexta", "sábado", "domingo",
];

/// A line's operation as set or asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperationInput {
    /// The day it is in force from.
    pub since: NaiveDate,
    pub level: ServiceLevel,
    pub schedule: Schedule,
    /// The two terminals (art. 13, IV).
    pub terminals: (String, String),
    pub stops: Vec<String>,
    /// The carrier's justification (art. 34) or the agency's reason.
    pub justification: String,
}

/// A version of a line's operation as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Operation {
    pub line: String,
    pub seq: i64,
    pub input: OperationInput,
    /// The carrier that asked, if a carrier did.
    pub requested_by: Option<String>,
    pub requested_on: NaiveDate,
    pub status: OperationStatus,
    pub decided_on: Option<NaiveDate>,
    pub act: Option<String>,
    pub grounds: Option<String>,
    pub articles: Vec<String>,
}

/// The agency's decision on a carrier's request.
#[derive(Debug, Clone)]
pub struct OperationDecision {
    pub approve: bool,
    pub on: NaiveDate,
    /// The act that approves (a portaria, an ofício).
    pub act: String,
    pub grounds: String,
}

/// The operation checked: departures in order and not repeated, the
/// minimum frequency within what the schedule offers, two distinct
/// terminals.
fn check(input: &OperationInput) -> Result<OperationInput, StoreError> {
    let mut schedule = input.schedule.clone();
    for (day, times) in WEEKDAYS.iter().zip(schedule.departures.iter_mut()) {
        if times.len() > MAX_DEPARTURES_A_DAY {
            return Err(StoreError::invalid(
                "horários",
                format!(
                    "{day}: {} partidas; o máximo é {MAX_DEPARTURES_A_DAY}",
                    times.len()
                ),
            ));
        }
        times.sort();
        if let Some(w) = times.windows(2).find(|w| w[0] == w[1]) {
            return Err(StoreError::invalid(
                "horários",
                format!(
                    "{day}: a partida das {} aparece duas vezes",
                    w[0].format("%H:%M")
                ),
            ));
        }
    }
    let weekly = schedule.weekly();
    if schedule.min_weekly_trips as usize > weekly {
        return Err(StoreError::invalid(
            "frequência_mínima",
            format!(
                "{} viagens por semana, mas o quadro de horários tem {weekly}: a frequência \
                 mínima cabe nos horários (art. 13, V)",
                schedule.min_weekly_trips
            ),
        ));
    }
    let origin = required("terminais", &input.terminals.0, TextKind::Name)?.to_string();
    let destination = required("terminais", &input.terminals.1, TextKind::Name)?.to_string();
    if origin == destination {
        return Err(StoreError::invalid(
            "terminais",
            format!("{origin}: os dois terminais da linha são lugares diferentes"),
        ));
    }
    let stops = input
        .stops
        .iter()
        .map(|s| checked("paradas", s, TextKind::Name).map(str::to_string))
        .filter(|s| s.as_ref().map_or(true, |s| !s.is_empty()))
        .collect::<Result<Vec<_>, _>>()?;
    if stops.len() > crate::lines::MAX_PLACES {
        return Err(StoreError::invalid(
            "paradas",
            format!(
                "{} paradas; o máximo é {}",
                stops.len(),
                crate::lines::MAX_PLACES
            ),
        ));
    }
    Ok(OperationInput {
        since: input.since,
        level: input.level,
        schedule,
        terminals: (origin, destination),
        stops,
        justification: required("justificativa", &input.justification, TextKind::Long)?.to_string(),
    })
}

fn departures_json(schedule: &Schedule) -> String {
    let days: Vec<Vec<String>> = schedule
        .departures
        .iter()
        .map(|d| d.iter().map(|t| t.format("%H:%M").to_string()).collect())
        .collect();
    serde_json::json!(days).to_string()
}

fn departures_of(text: &str) -> Result<[Vec<NaiveTime>; 7], StoreError> {
    let days: Vec<Vec<String>> =
        serde_json::from_str(text).map_err(|e| StoreError::Corrupt(e.to_string()))?;
    let mut out: [Vec<NaiveTime>; 7] = Default::default();
    for (slot, times) in out.iter_mut().zip(days) {
        *slot = times
            .iter()
            .map(|t| {
                NaiveTime::parse_from_str(t, "%H:%M")
                    .map_err(|e| StoreError::Corrupt(format!("departure {t}: {e}")))
            })
            .collect::<Result<_, _>>()?;
    }
    Ok(out)
}

const COLUMNS: &str = "line, seq, since, level, departures, min_weekly_trips, terminals, stops, \
     requested_by, requested_on, justification, status, decided_on, act, grounds, citations";

fn operation_of(row: &sqlx::any::AnyRow) -> Result<Operation, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let level = text("level")?;
    let status = text("status")?;
    let terminals: Vec<String> = serde_json::from_str(&text("terminals")?).unwrap_or_default();
    let decided: Option<String> = row.try_get("decided_on")?;
    let minimum: i64 = row.try_get("min_weekly_trips")?;
    Ok(Operation {
        line: text("line")?,
        seq: row.try_get("seq")?,
        input: OperationInput {
            since: day(&text("since")?)?,
            level: ServiceLevel::parse(&level)
                .ok_or_else(|| StoreError::Corrupt(format!("service level {level}")))?,
            schedule: Schedule {
                departures: departures_of(&text("departures")?)?,
                min_weekly_trips: u32::try_from(minimum).unwrap_or_default(),
            },
            terminals: (
                terminals.first().cloned().unwrap_or_default(),
                terminals.get(1).cloned().unwrap_or_default(),
            ),
            stops: serde_json::from_str(&text("stops")?).unwrap_or_default(),
            justification: text("justification")?,
        },
        requested_by: row.try_get("requested_by")?,
        requested_on: day(&text("requested_on")?)?,
        status: OperationStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("operation status {status}")))?,
        decided_on: decided.as_deref().map(day).transpose()?,
        act: row.try_get("act")?,
        grounds: row.try_get("grounds")?,
        articles: serde_json::from_str(&text("citations")?).unwrap_or_default(),
    })
}

/// The article a change of operation rests on (art. 34), from the rulebook.
fn change_article(rulebook: &Rulebook) -> Result<String, StoreError> {
    rulebook
        .bus
        .as_ref()
        .and_then(|b| b.operation_changes.clone())
        .ok_or_else(|| {
            StoreError::invalid(
                "linha",
                format!(
                    "o regulamento {} não trata da operação de linhas de ônibus",
                    rulebook.id
                ),
            )
        })
}

/// Every version of `line`'s operation, oldest first.
pub(crate) async fn versions(
    tx: &mut Tx,
    jurisdiction: &str,
    line: &str,
) -> Result<Vec<Operation>, StoreError> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM line_operations WHERE jurisdiction = $1 AND line = $2 ORDER BY seq"
    )))
    .bind(jurisdiction)
    .bind(line)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(operation_of)
    .collect()
}

/// The approved version in force on `on` among `versions`: the latest start
/// on or before it (the later decision when two start the same day).
pub(crate) fn in_force(versions: &[Operation], on: NaiveDate) -> Option<&Operation> {
    versions
        .iter()
        .filter(|o| o.status == OperationStatus::Approved && o.input.since <= on)
        .max_by_key(|o| (o.input.since, o.seq))
}

async fn known_line(tx: &mut Tx, jurisdiction: &str, line: &str) -> Result<(), StoreError> {
    let found = sqlx::query("SELECT 1 AS one FROM lines WHERE jurisdiction = $1 AND code = $2")
        .bind(jurisdiction)
        .bind(line)
        .fetch_optional(&mut **tx)
        .await?;
    match found {
        Some(_) => Ok(()),
        None => Err(StoreError::NotFound(format!(
            "não há linha {line} em {jurisdiction}"
        ))),
    }
}

/// Whether `carrier` holds a delegation of `line` in force.
pub(crate) async fn serves(
    tx: &mut Tx,
    jurisdiction: &str,
    line: &str,
    carrier: &str,
) -> Result<bool, StoreError> {
    Ok(sqlx::query(
        "SELECT 1 AS one FROM permits WHERE jurisdiction = $1 AND line = $2 AND holder = $3 \
         AND status IN ('granted', 'suspended')",
    )
    .bind(jurisdiction)
    .bind(line)
    .bind(carrier)
    .fetch_optional(&mut **tx)
    .await?
    .is_some())
}

/// Whether `carrier` holds a delegation of a line in force (a
/// concessionária or permissionária of the system).
pub(crate) async fn delegated(
    tx: &mut Tx,
    jurisdiction: &str,
    carrier: &str,
) -> Result<bool, StoreError> {
    Ok(sqlx::query(
        "SELECT 1 AS one FROM permits WHERE jurisdiction = $1 AND holder = $2 \
         AND line IS NOT NULL AND status IN ('granted', 'suspended')",
    )
    .bind(jurisdiction)
    .bind(carrier)
    .fetch_optional(&mut **tx)
    .await?
    .is_some())
}

impl Store {
    /// Records a version of `line`'s operation: set by the agency by `act`
    /// (approved at once), or asked for by `carrier`, which must serve the
    /// line (art. 34), awaiting the agency's decision.
    pub async fn put_operation(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        line: &str,
        input: &OperationInput,
        by: OperationSource<'_>,
    ) -> Result<Operation, StoreError> {
        let article = change_article(rulebook)?;
        let input = check(input)?;
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        known_line(&mut tx, jurisdiction, line).await?;
        let (requested_by, status, act) = match by {
            OperationSource::Agency { act } => {
                let act = required("ato", act, TextKind::Line)?.to_string();
                (None, OperationStatus::Approved, Some(act))
            }
            OperationSource::Carrier(carrier) => {
                if !serves(&mut tx, jurisdiction, line, carrier).await? {
                    return Err(StoreError::invalid(
                        "transportadora",
                        format!(
                            "{carrier} não tem delegação em vigor da linha {line}: só a \
                             transportadora da linha requer a modificação ({article})"
                        ),
                    ));
                }
                if input.since < today {
                    return Err(StoreError::invalid(
                        "vigência",
                        format!(
                            "{}: a modificação requerida vale de hoje ({}) em diante",
                            input.since.format("%d/%m/%Y"),
                            today.format("%d/%m/%Y")
                        ),
                    ));
                }
                (Some(carrier.to_string()), OperationStatus::Requested, None)
            }
        };
        let seq: i64 = sqlx::query(
            "SELECT COALESCE(MAX(seq), 0) AS seq FROM line_operations WHERE jurisdiction = $1 AND line = $2",
        )
        .bind(jurisdiction)
        .bind(line)
        .fetch_one(&mut *tx)
        .await?
        .try_get::<i64, _>("seq")?
            + 1;
        let articles = vec![article];
        sqlx::query(
            "INSERT INTO line_operations (jurisdiction, line, seq, since, level, departures, \
             min_weekly_trips, terminals, stops, requested_by, requested_on, justification, status, \
             decided_on, act, citations) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
        )
        .bind(jurisdiction)
        .bind(line)
        .bind(seq)
        .bind(input.since.to_string())
        .bind(input.level.name())
        .bind(departures_json(&input.schedule))
        .bind(i64::from(input.schedule.min_weekly_trips))
        .bind(serde_json::json!([input.terminals.0, input.terminals.1]).to_string())
        .bind(serde_json::json!(input.stops).to_string())
        .bind(requested_by.clone())
        .bind(today.to_string())
        .bind(&input.justification)
        .bind(status.name())
        .bind(act.as_ref().map(|_| today.to_string()))
        .bind(act.clone())
        .bind(serde_json::json!(articles).to_string())
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: if requested_by.is_some() {
                    "line.operation.request"
                } else {
                    "line.operation.set"
                },
                jurisdiction: Some(jurisdiction),
                subject: &format!("line:{line}"),
                detail: serde_json::json!({
                    "seq": seq, "since": input.since.to_string(), "act": act,
                    "requested_by": requested_by,
                }),
                rows: vec![RowRef::new(
                    "line_operations",
                    [jurisdiction.into(), line.into(), seq.into()],
                )],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(Operation {
            line: line.to_string(),
            seq,
            decided_on: act.as_ref().map(|_| today),
            input,
            requested_by,
            requested_on: today,
            status,
            act,
            grounds: None,
            articles,
        })
    }

    /// The agency's decision on a carrier's request: approved by an act
    /// (in force from the day asked, never before the decision) or refused
    /// with its grounds.
    pub async fn decide_operation(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (line, seq): (&str, i64),
        decision: &OperationDecision,
    ) -> Result<Operation, StoreError> {
        let article = change_article(rulebook)?;
        crate::under_law("data", decision.on, change, rulebook)?;
        let act = required("ato", &decision.act, TextKind::Line)?.to_string();
        let grounds = checked("fundamentos", &decision.grounds, TextKind::Long)?.to_string();
        if !decision.approve && grounds.is_empty() {
            return Err(StoreError::invalid(
                "fundamentos",
                "diga por que a modificação é recusada",
            ));
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        known_line(&mut tx, jurisdiction, line).await?;
        let all = versions(&mut tx, jurisdiction, line).await?;
        let Some(asked) = all.iter().find(|o| o.seq == seq) else {
            return Err(StoreError::NotFound(format!(
                "a linha {line} não tem o requerimento nº {seq}"
            )));
        };
        if asked.status != OperationStatus::Requested {
            return Err(StoreError::Taken {
                field: "requerimento",
                reason: format!(
                    "o requerimento nº {seq} da linha {line} já foi {}",
                    asked.status.portuguese()
                ),
            });
        }
        if decision.approve && asked.input.since < decision.on {
            return Err(StoreError::invalid(
                "data",
                format!(
                    "a modificação foi pedida para {}, antes desta decisão ({}): recuse-a ou \
                     peça à transportadora nova data",
                    asked.input.since.format("%d/%m/%Y"),
                    decision.on.format("%d/%m/%Y")
                ),
            ));
        }
        let status = if decision.approve {
            OperationStatus::Approved
        } else {
            OperationStatus::Refused
        };
        crate::audit::guard::unchanged_where(
            &mut tx,
            &self.audit.schema,
            "line_operations",
            "jurisdiction = $1 AND line = $2 AND seq = $3",
            &[jurisdiction.into(), line.into(), seq.into()],
        )
        .await?;
        sqlx::query(
            "UPDATE line_operations SET status = $4, decided_on = $5, act = $6, grounds = $7 \
             WHERE jurisdiction = $1 AND line = $2 AND seq = $3",
        )
        .bind(jurisdiction)
        .bind(line)
        .bind(seq)
        .bind(status.name())
        .bind(decision.on.to_string())
        .bind(&act)
        .bind((!grounds.is_empty()).then_some(grounds.clone()))
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "line.operation.decide",
                jurisdiction: Some(jurisdiction),
                subject: &format!("line:{line}"),
                detail: serde_json::json!({
                    "seq": seq, "status": status.name(), "act": act, "article": article,
                }),
                rows: vec![RowRef::new(
                    "line_operations",
                    [jurisdiction.into(), line.into(), seq.into()],
                )],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(Operation {
            status,
            decided_on: Some(decision.on),
            act: Some(act),
            grounds: (!grounds.is_empty()).then_some(grounds),
            ..asked.clone()
        })
    }

    /// The operation of each line of `jurisdiction` in force on `on` (the
    /// approved version with the latest start on or before it), by line:
    /// one row per line read, however many versions there are.
    pub async fn operations_in_force(
        &self,
        jurisdiction: &str,
        on: NaiveDate,
    ) -> Result<std::collections::BTreeMap<String, Operation>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM line_operations o WHERE jurisdiction = $1 AND status = 'approved' \
             AND since <= $2 AND NOT EXISTS (SELECT 1 FROM line_operations n \
             WHERE n.jurisdiction = o.jurisdiction AND n.line = o.line AND n.status = 'approved' \
             AND n.since <= $2 AND (n.since > o.since OR (n.since = o.since AND n.seq > o.seq)))"
        )))
        .bind(jurisdiction)
        .bind(on.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| operation_of(row).map(|o| (o.line.clone(), o)))
            .collect()
    }

    /// Every version of `line`'s operation (set, asked, approved, refused),
    /// oldest first, and the one in force on `on`.
    pub async fn line_operations(
        &self,
        jurisdiction: &str,
        line: &str,
        on: NaiveDate,
    ) -> Result<(Vec<Operation>, Option<Operation>), StoreError> {
        let mut tx = self.pool.begin().await?;
        known_line(&mut tx, jurisdiction, line).await?;
        let all = versions(&mut tx, jurisdiction, line).await?;
        tx.commit().await?;
        let current = in_force(&all, on).cloned();
        Ok((all, current))
    }
}

/// Who puts a version of a line's operation.
#[derive(Debug, Clone, Copy)]
pub enum OperationSource<'a> {
    /// The agency, by its act: in force as set.
    Agency { act: &'a str },
    /// The carrier that serves the line, asking (art. 34).
    Carrier(&'a str),
}
