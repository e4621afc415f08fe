//! The engine's view of a jurisdiction, read from the store: the people,
//! permits, vehicles and past infractions a decision needs, with the maps
//! from the engine's integer ids back to documents, numbers and plates.

use crate::company_ties;
use crate::dates::{day, moment};
use crate::profile::{Profile, engine_person, read_profile};
use crate::{StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::facts::{
    Event, Facts, PastPermit, Permit, PermitId, PermitStatus, Person, PersonId, Vehicle, VehicleId,
};
use outorga_core::model::{Check, EndedHow, Service};
use sqlx::Row;

/// Which permits to read: all the jurisdiction's (a grant weighs them all:
/// caps, company shares) or only those of the people named (an auto); the
/// people named are read either way.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Scope<'a> {
    pub all_permits: bool,
    pub people: &'a [&'a str],
    /// Only what penalties and standings read (who is a company, permits,
    /// the record): no profiles, past permits, debts or vehicles.
    pub records_only: bool,
}

#[derive(Debug)]
pub(crate) struct World {
    pub facts: Facts,
    pub people: Vec<String>,
    pub permits: Vec<(String, i64)>,
}

impl World {
    pub fn person(&self, document: &str) -> Option<PersonId> {
        self.people
            .iter()
            .position(|d| d == document)
            .map(|i| PersonId(i as u32))
    }

    pub fn document(&self, id: PersonId) -> &str {
        self.people.get(id.0 as usize).map_or("", String::as_str)
    }

    pub fn permit(&self, service: &str, number: i64) -> Option<PermitId> {
        self.permits
            .iter()
            .position(|(s, n)| s == service && *n == number)
            .map(|i| PermitId(i as u32))
    }
}

/// The statuses of a permit that still exists.
pub(crate) const ACTIVE: &str = "('granted', 'suspended', 'reserved')";

fn status_of(text: &str) -> PermitStatus {
    match text {
        "suspended" => PermitStatus::Suspended,
        "reserved" => PermitStatus::Reserved,
        _ => PermitStatus::Active,
    }
}

/// Reads the world `ctx`'s rulebook decides in, on `today`.
pub(crate) async fn load(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    scope: Scope<'_>,
    today: NaiveDate,
) -> Result<World, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT service, number, holder, status, granted_on, line FROM permits \
         WHERE jurisdiction = $1 AND status IN {ACTIVE} ORDER BY service, number"
    )))
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let drivers = sqlx::query(
        "SELECT service, number, driver FROM permit_drivers WHERE jurisdiction = $1 AND until IS NULL",
    )
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let vehicles = if scope.records_only {
        Vec::new()
    } else {
        sqlx::query(
        "SELECT pv.service, pv.number, v.plate, v.manufactured, pv.since FROM permit_vehicles pv \
         JOIN vehicles v ON v.jurisdiction = pv.jurisdiction AND v.plate = pv.plate \
         WHERE pv.jurisdiction = $1 AND pv.until IS NULL",
    )
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?
    };
    let mut people: Vec<String> = scope.people.iter().map(|d| d.to_string()).collect();
    let index = |people: &mut Vec<String>, doc: &str| -> PersonId {
        let i = people.iter().position(|d| d == doc).unwrap_or_else(|| {
            people.push(doc.to_string());
            people.len() - 1
        });
        PersonId(i as u32)
    };
    let mut permits = Vec::new();
    let mut keys = Vec::new();
    let mut engine_vehicles = Vec::new();
    for row in &rows {
        let service: String = row.try_get("service")?;
        let number: i64 = row.try_get("number")?;
        let holder: String = row.try_get("holder")?;
        let crew: Vec<String> = drivers
            .iter()
            .filter(|d| {
                d.try_get::<String, _>("service")
                    .is_ok_and(|s| s == service)
                    && d.try_get::<i64, _>("number").is_ok_and(|n| n == number)
            })
            .filter_map(|d| d.try_get::<String, _>("driver").ok())
            .collect();
        if !scope.all_permits
            && !scope
                .people
                .iter()
                .any(|d| *d == holder || crew.iter().any(|c| c == d))
        {
            continue;
        }
        let Some(engine_service) = Service::parse(&service) else {
            continue;
        };
        let vehicle = vehicles.iter().find(|v| {
            v.try_get::<String, _>("service")
                .is_ok_and(|s| s == service)
                && v.try_get::<i64, _>("number").is_ok_and(|n| n == number)
        });
        let vehicle = match vehicle {
            Some(v) => {
                let year: i64 = v.try_get("manufactured")?;
                let since: String = v.try_get("since")?;
                engine_vehicles.push(Vehicle {
                    plate: Some(v.try_get("plate")?),
                    manufactured: i32::try_from(year).ok(),
                    included: Some(day(&since)?),
                    ..Vehicle::default()
                });
                Some(VehicleId((engine_vehicles.len() - 1) as u32))
            }
            None => None,
        };
        let granted: String = row.try_get("granted_on")?;
        let status: String = row.try_get("status")?;
        permits.push(Permit {
            holder: index(&mut people, &holder),
            service: engine_service,
            granted: Some(day(&granted)?),
            status: status_of(&status),
            drivers: crew.iter().map(|c| index(&mut people, c)).collect(),
            vehicle,
            line: row.try_get("line")?,
        });
        keys.push((service, number));
    }
    // Where the law forbids ties between the carriers of a line (Amapá art.
    // 9º), the companies' partners, directors and group and the partners'
    // relatives, as declared; their people join the world.
    let weighs_ties = !scope.records_only
        && ctx
            .rulebook
            .requirements
            .iter()
            .any(|r| matches!(r.check, Check::NoInterdependence { .. }));
    let mut ties = Vec::new();
    let mut kin = Vec::new();
    if weighs_ties {
        let holders = people.clone();
        for document in &holders {
            if let Some(found) = company_ties::read(tx, jurisdiction, document).await? {
                for member in found
                    .partners
                    .iter()
                    .map(|p| &p.document)
                    .chain(&found.directors)
                {
                    index(&mut people, member);
                }
                for partner in &found.partners {
                    if let Some(relatives) =
                        company_ties::relatives(tx, jurisdiction, &partner.document).await?
                    {
                        for relative in &relatives {
                            index(&mut people, relative);
                        }
                        kin.push((partner.document.clone(), relatives));
                    }
                }
                ties.push((document.clone(), found));
            }
        }
    }
    let mut persons = if scope.records_only {
        kinds(tx, jurisdiction, &people).await?
    } else {
        let mut persons = Vec::with_capacity(people.len());
        for document in &people {
            persons.push(person(tx, ctx, jurisdiction, document, today).await?);
        }
        persons
    };
    let id = |document: &str| {
        people
            .iter()
            .position(|d| d == document)
            .map(|i| PersonId(i as u32))
    };
    for (company, found) in &ties {
        let Some(at) = id(company) else { continue };
        let person = &mut persons[at.0 as usize];
        person.shareholders = Some(
            found
                .partners
                .iter()
                .filter_map(|p| Some((id(&p.document)?, p.voting_share?)))
                .collect(),
        );
        person.directors = Some(found.directors.iter().filter_map(|d| id(d)).collect());
        // No group declared: a group of its own, shared with no one.
        person.business_group = Some(
            found
                .business_group
                .clone()
                .unwrap_or_else(|| company.clone()),
        );
    }
    for (partner, relatives) in &kin {
        if let Some(at) = id(partner) {
            persons[at.0 as usize].relatives =
                Some(relatives.iter().filter_map(|r| id(r)).collect());
        }
    }
    let history = history(tx, ctx, jurisdiction, (&people, &keys)).await?;
    let facts = Facts::new(ctx, persons, permits, engine_vehicles, history)?;
    Ok(World {
        facts,
        people,
        permits: keys,
    })
}

/// `$N` placeholders from `$first` on, one per item.
fn placeholders(first: usize, count: usize) -> String {
    (0..count)
        .map(|i| format!("${}", i + first))
        .collect::<Vec<_>>()
        .join(", ")
}

/// People as penalties see them: a person or a company, in one query.
async fn kinds(
    tx: &mut Tx,
    jurisdiction: &str,
    people: &[String],
) -> Result<Vec<Person>, StoreError> {
    let sql = format!(
        "SELECT document, kind FROM people WHERE jurisdiction = $1 AND document IN ({})",
        placeholders(2, people.len())
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(jurisdiction);
    for person in people {
        query = query.bind(person.as_str());
    }
    let rows = query.fetch_all(&mut **tx).await?;
    people
        .iter()
        .map(|document| {
            let row = rows
                .iter()
                .find(|r| {
                    r.try_get::<String, _>("document")
                        .is_ok_and(|d| d == *document)
                })
                .ok_or_else(|| {
                    StoreError::NotFound(format!(
                        "{document} não está cadastrado em {jurisdiction}"
                    ))
                })?;
            let kind: String = row.try_get("kind")?;
            Ok(engine_person(&kind, &Profile::default()))
        })
        .collect()
}

/// A recorded person as the engine sees them on `today`: their profile, the
/// permits they held that ended, and whether they owe anything overdue.
async fn person(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    document: &str,
    today: NaiveDate,
) -> Result<Person, StoreError> {
    let Some((kind, profile)) = read_profile(tx, jurisdiction, document).await? else {
        return Err(StoreError::NotFound(format!(
            "{document} não está cadastrado em {jurisdiction}"
        )));
    };
    let mut person = engine_person(&kind, &profile);
    let ended = sqlx::query(
        "SELECT h.event, h.since FROM permits p JOIN permit_history h \
         ON h.jurisdiction = p.jurisdiction AND h.service = p.service AND h.number = p.number \
         WHERE p.jurisdiction = $1 AND p.holder = $2 AND p.status IN ('renounced', 'revoked', 'extinct') \
         AND h.event IN ('renunciation', 'cassation', 'revocation', 'caducity', 'extinction')",
    )
    .bind(jurisdiction)
    .bind(document)
    .fetch_all(&mut **tx)
    .await?;
    let mut past = Vec::new();
    for row in ended {
        let event: String = row.try_get("event")?;
        let since: String = row.try_get("since")?;
        if let Some(how) = crate::permit_status::ended_how(&event) {
            past.push(PastPermit {
                ended: day(&since)?,
                how,
            });
        }
    }
    // A cassation of a driver's credential bars them as a cassated permit
    // does (the rulebooks' waiting periods after a cassation).
    let cassations = sqlx::query(
        "SELECT starts FROM applied_sanctions WHERE jurisdiction = $1 AND target = $2 \
         AND kind = 'driver_cassation'",
    )
    .bind(jurisdiction)
    .bind(document)
    .fetch_all(&mut **tx)
    .await?;
    for row in cassations {
        let starts: String = row.try_get("starts")?;
        past.push(PastPermit {
            ended: day(&starts)?,
            how: EndedHow::Cassated,
        });
    }
    person.past_permits = Some(past);
    person.overdue_debts =
        Some(crate::debts::overdue(tx, ctx, jurisdiction, document, today).await?);
    Ok(person)
}

/// The infractions of these people under this rulebook that count as priors:
/// those of final autos (an auto still in process, archived or annulled
/// weighs nothing on the next one).
async fn history(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    (people, permits): (&[String], &[(String, i64)]),
) -> Result<Vec<Event>, StoreError> {
    if people.is_empty() {
        return Ok(Vec::new());
    }
    // One lookup of `autos_final` per person: the people as a VALUES list
    // joined in that order (`CROSS JOIN`), not an `IN` list, which SQLite
    // would read by the index of every final auto of the jurisdiction.
    let values: Vec<String> = (0..people.len()).map(|i| format!("(${})", i + 3)).collect();
    let sql = format!(
        "SELECT COALESCE(a.recorded_as, a.infraction) AS infraction, a.offender, a.committed_at, \
         a.service, a.permit_number, a.uncured \
         FROM (VALUES {}) AS wanted CROSS JOIN autos a \
         WHERE a.jurisdiction = $1 AND a.rulebook = $2 AND a.status = 'final' \
         AND a.offender = wanted.column1",
        values.join(", ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(jurisdiction)
        .bind(&ctx.rulebook.id);
    for person in people {
        query = query.bind(person.as_str());
    }
    let rows = query.fetch_all(&mut **tx).await?;
    let mut events = Vec::new();
    for row in rows {
        let offender: String = row.try_get("offender")?;
        let code: String = row.try_get("infraction")?;
        let Some(infraction) = ctx.rulebook.infraction_by_code(&code) else {
            continue;
        };
        let at: String = row.try_get("committed_at")?;
        let by = people.iter().position(|d| *d == offender).unwrap_or(0);
        // The permit it was committed under, when it is still in force (its
        // holder answers for it: points, SMJ art. 42).
        let service: Option<String> = row.try_get("service")?;
        let number: Option<i64> = row.try_get("permit_number")?;
        let permit = permits
            .iter()
            .position(|(s, n)| Some(s) == service.as_ref() && Some(*n) == number)
            .map(|i| PermitId(i as u32));
        events.push(Event {
            infraction,
            by: PersonId(by as u32),
            permit,
            at: moment(&at)?,
            is_final: true,
            uncured: row.try_get::<i32, _>("uncured")? != 0,
        });
    }
    Ok(events)
}
