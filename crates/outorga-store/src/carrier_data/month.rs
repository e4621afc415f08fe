//! A carrier's month as the agency sees it: per line, the trips the
//! operation in force scheduled and those the statistics report, the tickets
//! sold and the occupancy; and the findings the engine derives from the
//! carrier's own data (`engine::bus_compliance`), each with its article and
//! the auto it became, if it did. A finding becomes an auto once.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::{day, moment, moment_text, month_end, parse_month};
use crate::line_operations::{in_force, versions};
use crate::{Auto, AutoInput, Store, StoreError, Tx};
use chrono::{Days, NaiveDate, NaiveDateTime};
use outorga_core::engine::bus_compliance::{self, Made, Month, Schedule, Sold};
use outorga_core::model::{FindingKind, Rulebook};
use rust_decimal::Decimal;
use sqlx::Row;
use std::collections::BTreeMap;

/// A line's month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMonth {
    pub line: String,
    pub name: String,
    /// Departures the operation in force scheduled, on the month's days up
    /// to yesterday.
    pub scheduled: usize,
    /// Trips the statistics report.
    pub made: usize,
    pub tickets: usize,
    /// Tickets over the seats of the trips made whose vehicle is known, in
    /// percent with one decimal.
    pub occupancy: Option<Decimal>,
}

/// A finding with the auto it became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FindingRow {
    pub kind: FindingKind,
    pub key: String,
    pub line: Option<String>,
    pub at: NaiveDateTime,
    pub infraction: String,
    pub articles: Vec<String>,
    pub detail: String,
    pub auto: Option<(i32, i64)>,
}

/// A carrier's month.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthView {
    pub carrier: String,
    /// Its first day.
    pub month: NaiveDate,
    /// When the statistics are due, and the articles that say so.
    pub due: NaiveDate,
    pub due_articles: Vec<String>,
    /// When they were handed in, if they were.
    pub delivered: Option<NaiveDate>,
    pub lines: Vec<LineMonth>,
    pub findings: Vec<FindingRow>,
}

/// A ticket read back.
struct TicketRead {
    key: String,
    line: String,
    departs: NaiveDateTime,
    seat: Option<u32>,
    missing: Vec<String>,
}

/// A trip read back, with its vehicle.
struct TripRead {
    line: String,
    departs: NaiveDateTime,
    plate: String,
}

/// What the month holds, read in one transaction.
struct Read {
    tickets: Vec<TicketRead>,
    trips: Vec<TripRead>,
    seats: BTreeMap<String, Option<u32>>,
    lines: BTreeMap<String, (String, bool)>,
    served: Vec<String>,
    schedules: BTreeMap<String, Vec<crate::line_operations::Operation>>,
    delivered: Option<NaiveDate>,
    autos: BTreeMap<String, (i32, i64)>,
}

async fn read(
    tx: &mut Tx,
    jurisdiction: &str,
    carrier: &str,
    month: NaiveDate,
) -> Result<Read, StoreError> {
    let (from, to) = (
        moment_text(month.and_time(chrono::NaiveTime::MIN)),
        moment_text(month_end(month).and_time(chrono::NaiveTime::MIN)),
    );
    let mut tickets = Vec::new();
    for row in sqlx::query(
        "SELECT key, line, departs, seat, missing FROM carrier_tickets \
         WHERE jurisdiction = $1 AND carrier = $2 AND departs >= $3 AND departs < $4",
    )
    .bind(jurisdiction)
    .bind(carrier)
    .bind(&from)
    .bind(&to)
    .fetch_all(&mut **tx)
    .await?
    {
        let departs: String = row.try_get("departs")?;
        let seat: Option<i64> = row.try_get("seat")?;
        let missing: String = row.try_get("missing")?;
        tickets.push(TicketRead {
            key: row.try_get("key")?,
            line: row.try_get("line")?,
            departs: moment(&departs)?,
            seat: seat.and_then(|s| u32::try_from(s).ok()),
            missing: serde_json::from_str(&missing).unwrap_or_default(),
        });
    }
    let mut trips = Vec::new();
    let mut seats: BTreeMap<String, Option<u32>> = BTreeMap::new();
    for row in sqlx::query(
        "SELECT line, departs, plate FROM carrier_trips \
         WHERE jurisdiction = $1 AND carrier = $2 AND departs >= $3 AND departs < $4",
    )
    .bind(jurisdiction)
    .bind(carrier)
    .bind(&from)
    .bind(&to)
    .fetch_all(&mut **tx)
    .await?
    {
        let departs: String = row.try_get("departs")?;
        let plate: String = row.try_get("plate")?;
        seats.entry(plate.clone()).or_default();
        trips.push(TripRead {
            line: row.try_get("line")?,
            departs: moment(&departs)?,
            plate,
        });
    }
    for (plate, capacity) in seats.iter_mut() {
        *capacity =
            sqlx::query("SELECT capacity FROM vehicles WHERE jurisdiction = $1 AND plate = $2")
                .bind(jurisdiction)
                .bind(plate.as_str())
                .fetch_optional(&mut **tx)
                .await?
                .and_then(|row| row.try_get::<Option<i64>, _>("capacity").ok().flatten())
                .and_then(|c| u32::try_from(c).ok());
    }
    let mut lines = BTreeMap::new();
    for row in sqlx::query("SELECT code, name, semi_urban FROM lines WHERE jurisdiction = $1")
        .bind(jurisdiction)
        .fetch_all(&mut **tx)
        .await?
    {
        let semi: i32 = row.try_get("semi_urban")?;
        lines.insert(
            row.try_get::<String, _>("code")?,
            (row.try_get::<String, _>("name")?, semi == 1),
        );
    }
    let mut served: Vec<String> = Vec::new();
    for row in sqlx::query(
        "SELECT DISTINCT line FROM permits WHERE jurisdiction = $1 AND holder = $2 \
         AND line IS NOT NULL AND status IN ('granted', 'suspended')",
    )
    .bind(jurisdiction)
    .bind(carrier)
    .fetch_all(&mut **tx)
    .await?
    {
        served.push(row.try_get("line")?);
    }
    served.extend(trips.iter().map(|t| t.line.clone()));
    served.extend(tickets.iter().map(|t| t.line.clone()));
    served.sort();
    served.dedup();
    let mut schedules = BTreeMap::new();
    for line in &served {
        schedules.insert(line.clone(), versions(tx, jurisdiction, line).await?);
    }
    let delivered = sqlx::query(
        "SELECT MIN(received_on) AS on_day FROM carrier_files WHERE jurisdiction = $1 \
         AND carrier = $2 AND month = $3 AND kind = 'statistics_csv'",
    )
    .bind(jurisdiction)
    .bind(carrier)
    .bind(month.format("%Y-%m").to_string())
    .fetch_one(&mut **tx)
    .await?
    .try_get::<Option<String>, _>("on_day")?
    .as_deref()
    .map(day)
    .transpose()?;
    let mut autos = BTreeMap::new();
    for row in sqlx::query(
        "SELECT finding, year, number FROM finding_autos WHERE jurisdiction = $1 \
         AND carrier = $2 AND month = $3",
    )
    .bind(jurisdiction)
    .bind(carrier)
    .bind(month.format("%Y-%m").to_string())
    .fetch_all(&mut **tx)
    .await?
    {
        let year: i64 = row.try_get("year")?;
        autos.insert(
            row.try_get::<String, _>("finding")?,
            (
                i32::try_from(year).unwrap_or_default(),
                row.try_get("number")?,
            ),
        );
    }
    Ok(Read {
        tickets,
        trips,
        seats,
        lines,
        served,
        schedules,
        delivered,
        autos,
    })
}

/// The month from what was read: per line, and the findings.
fn view(
    ctx: &outorga_core::Context<'_>,
    carrier: &str,
    month: NaiveDate,
    read: &Read,
    today: NaiveDate,
) -> Result<MonthView, StoreError> {
    let schedule = |line: &str, on: NaiveDate| -> Option<Schedule> {
        read.schedules
            .get(line)
            .and_then(|v| in_force(v, on))
            .map(|o| o.input.schedule.clone())
    };
    let sold: Vec<Sold<'_>> = read
        .tickets
        .iter()
        .map(|t| Sold {
            key: &t.key,
            line: &t.line,
            departs: t.departs,
            // A ticket that shows no seat is a passenger, but no seat sold twice.
            seat: t.seat.unwrap_or(0),
            missing: &t.missing,
        })
        .collect();
    let made: Vec<Made<'_>> = read
        .trips
        .iter()
        .map(|t| Made {
            line: &t.line,
            departs: t.departs,
            seats: read.seats.get(&t.plate).copied().flatten(),
            semi_urban: read.lines.get(&t.line).is_some_and(|(_, semi)| *semi),
        })
        .collect();
    let served: Vec<&str> = read.served.iter().map(String::as_str).collect();
    let found = bus_compliance::findings(
        ctx,
        Month {
            first: month,
            delivered: read.delivered,
        },
        (&sold, &made),
        (&served, &schedule),
        today,
    )?;
    let (due, _, due_articles) = bus_compliance::statistics_due(ctx, month)?;
    let last = month_end(month).min(today);
    let lines = served
        .iter()
        .map(|line| {
            let mut scheduled = 0;
            let mut on = month;
            while on < last {
                scheduled += schedule(line, on).map_or(0, |s| s.on(on).len());
                on = on + Days::new(1);
            }
            let trips: Vec<&Made<'_>> = made.iter().filter(|m| m.line == *line).collect();
            let tickets = sold.iter().filter(|t| t.line == *line).count();
            // The trips whose bus is known, by departure: each ticket looked
            // up once (a month holds thousands of trips and ~100 000 tickets).
            let known: std::collections::HashMap<NaiveDateTime, u32> = trips
                .iter()
                .filter_map(|m| Some((m.departs, m.seats?)))
                .collect();
            let offered: u64 = known.values().map(|s| u64::from(*s)).sum();
            let carried = sold
                .iter()
                .filter(|t| t.line == *line && known.contains_key(&t.departs))
                .count();
            LineMonth {
                line: line.to_string(),
                name: read
                    .lines
                    .get(*line)
                    .map(|(n, _)| n.clone())
                    .unwrap_or_default(),
                scheduled,
                made: trips.len(),
                tickets,
                occupancy: (offered > 0).then(|| {
                    (Decimal::from(carried as u64) * Decimal::ONE_HUNDRED / Decimal::from(offered))
                        .round_dp(1)
                }),
            }
        })
        .collect();
    Ok(MonthView {
        carrier: carrier.to_string(),
        month,
        due,
        due_articles: due_articles.into_iter().map(str::to_string).collect(),
        delivered: read.delivered,
        lines,
        findings: found
            .into_iter()
            .map(|f| FindingRow {
                auto: read.autos.get(&f.key).copied(),
                kind: f.kind,
                key: f.key,
                line: f.line,
                at: f.at,
                infraction: f.infraction.to_string(),
                articles: f.citations.iter().map(|c| c.to_string()).collect(),
                detail: f.detail,
            })
            .collect(),
    })
}

impl Store {
    /// A carrier's month (`month` its first day) as of `today`.
    pub async fn carrier_month(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        carrier: &str,
        month: NaiveDate,
        today: NaiveDate,
    ) -> Result<MonthView, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let read = read(&mut tx, jurisdiction, carrier, month).await?;
        tx.commit().await?;
        view(&ctx, carrier, month, &read, today)
    }

    /// Turns a finding of a carrier's month into an auto against the
    /// carrier, under its delegation of the line; a finding becomes one auto.
    pub async fn auto_from_finding(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (carrier, month): (&str, &str),
        key: &str,
    ) -> Result<Auto, StoreError> {
        let month = parse_month(month)?;
        let today = rulebook.jurisdiction.today(change.at);
        let found = self
            .carrier_month(rulebook, jurisdiction, carrier, month, today)
            .await?
            .findings
            .into_iter()
            .find(|f| f.key == key)
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "os dados de {carrier} em {} não mostram a constatação {key}",
                    month.format("%m/%Y")
                ))
            })?;
        if let Some((year, number)) = found.auto {
            return Err(StoreError::Taken {
                field: "constatação",
                reason: format!("esta constatação já é o auto nº {number}/{year}"),
            });
        }
        let (permit, plate, place) = self.where_found(jurisdiction, carrier, &found).await?;
        let input = AutoInput {
            infraction: found.infraction.clone(),
            offender: carrier.to_string(),
            permit,
            plate,
            committed_at: found.at,
            place,
            description: format!(
                "{}. Constatado nos dados entregues pela própria transportadora ({}).",
                found.detail,
                found.articles.join("; ")
            ),
        };
        let proposed = self.propose(change, rulebook, jurisdiction, &input).await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let taken = sqlx::query(
            "SELECT year, number FROM finding_autos WHERE jurisdiction = $1 AND carrier = $2 AND finding = $3",
        )
        .bind(jurisdiction)
        .bind(carrier)
        .bind(key)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = taken {
            let number: i64 = row.try_get("number")?;
            let year: i64 = row.try_get("year")?;
            return Err(StoreError::Taken {
                field: "constatação",
                reason: format!("esta constatação já é o auto nº {number}/{year}"),
            });
        }
        let auto = self
            .write_auto(&mut tx, change, (rulebook, jurisdiction), &input, proposed)
            .await?;
        sqlx::query(
            "INSERT INTO finding_autos (jurisdiction, carrier, month, finding, year, number) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(jurisdiction)
        .bind(carrier)
        .bind(month.format("%Y-%m").to_string())
        .bind(key)
        .bind(auto.year)
        .bind(auto.number)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "carrier.finding.auto",
                jurisdiction: Some(jurisdiction),
                subject: &format!("carrier:{carrier}"),
                detail: serde_json::json!({
                    "finding": key, "auto": format!("{}/{}", auto.number, auto.year),
                }),
                rows: vec![RowRef::new(
                    "finding_autos",
                    [jurisdiction.into(), carrier.into(), key.into()],
                )],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(auto)
    }

    /// The delegation of the finding's line the carrier holds, the bus of
    /// the trip, and the place the auto names.
    async fn where_found(
        &self,
        jurisdiction: &str,
        carrier: &str,
        found: &FindingRow,
    ) -> Result<(Option<(String, i64)>, Option<String>, String), StoreError> {
        let Some(line) = &found.line else {
            return Ok((
                None,
                None,
                "Estatísticas entregues ao Poder delegante".into(),
            ));
        };
        let mut tx = self.pool.begin().await?;
        let permit = sqlx::query(
            "SELECT service, number FROM permits WHERE jurisdiction = $1 AND holder = $2 \
             AND line = $3 AND status IN ('granted', 'suspended') ORDER BY number LIMIT 1",
        )
        .bind(jurisdiction)
        .bind(carrier)
        .bind(line)
        .fetch_optional(&mut *tx)
        .await?
        .map(|row| -> Result<(String, i64), StoreError> {
            Ok((row.try_get("service")?, row.try_get("number")?))
        })
        .transpose()?;
        let plate = sqlx::query(
            "SELECT plate FROM carrier_trips WHERE jurisdiction = $1 AND carrier = $2 \
             AND line = $3 AND departs = $4",
        )
        .bind(jurisdiction)
        .bind(carrier)
        .bind(line)
        .bind(moment_text(found.at))
        .fetch_optional(&mut *tx)
        .await?
        .map(|row| row.try_get::<String, _>("plate"))
        .transpose()?;
        let name: Option<String> =
            sqlx::query("SELECT name FROM lines WHERE jurisdiction = $1 AND code = $2")
                .bind(jurisdiction)
                .bind(line)
                .fetch_optional(&mut *tx)
                .await?
                .map(|row| row.try_get("name"))
                .transpose()?;
        tx.commit().await?;
        Ok((
            permit,
            plate,
            format!(
                "Linha {line}{}",
                name.map(|n| format!(" — {n}")).unwrap_or_default()
            ),
        ))
    }
}
