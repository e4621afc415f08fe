//! The world a decision is made in: people, permits, vehicles, past infractions.
//!
//! A fact that is `None` is unknown; requirements that depend on it are reported
//! as unknown, never as met or unmet. People, permits and vehicles are referred
//! to by index, so decisions compare integers, not names.

use crate::context::{Context, EngineError};
use crate::model::{Education, EndedHow, InfractionId, Rulebook, Service};
use crate::record::{Outcome, PointsTable, RecordEntry, instant, outcome_in};
use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

pub use crate::vocab::PersonKind;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PersonId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PermitId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VehicleId(pub u32);

/// The facts of a case, read under one rulebook (infractions are its codes).
/// Built once with [`Facts::new`], which indexes the history by person, with
/// running point totals, so decisions read only the events that concern them
/// and a window's points cost two binary searches.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    people: Vec<Person>,
    permits: Vec<Permit>,
    vehicles: Vec<Vehicle>,
    /// For each person, the events they committed or answer for as a permit
    /// holder, in time order.
    records: Vec<Vec<RecordEntry>>,
    /// For each person, the permit they hold, if any.
    held: Vec<Option<PermitId>>,
    /// For each person, the permit they drive under as an auxiliary, if any.
    driven: Vec<Option<PermitId>>,
    points: PointsTable,
}

impl Facts {
    /// `history` in any order; it is kept sorted by time. Every id must index
    /// the given vectors (the caller resolved names to ids).
    pub fn new(
        ctx: &Context<'_>,
        people: Vec<Person>,
        permits: Vec<Permit>,
        vehicles: Vec<Vehicle>,
        mut history: Vec<Event>,
    ) -> Result<Self, EngineError> {
        let rulebook = ctx.rulebook;
        history.sort_by_key(|e| e.at);
        let mut held = vec![None; people.len()];
        let mut driven = vec![None; people.len()];
        for (index, permit) in permits.iter().enumerate() {
            let id = PermitId(index as u32);
            held[permit.holder.0 as usize].get_or_insert(id);
            for driver in &permit.drivers {
                driven[driver.0 as usize].get_or_insert(id);
            }
        }
        let points = PointsTable::new(rulebook);
        let mut records: Vec<Vec<RecordEntry>> = vec![Vec::new(); people.len()];
        for event in &history {
            // What the law gave it, read from the offender's record so far
            // (needed only when points or fines depend on it).
            let outcome = if points.by_outcome() || rulebook.fine_multiplier.is_some() {
                outcome_in(
                    ctx,
                    &records[event.by.0 as usize],
                    event.infraction,
                    event.at,
                    event.uncured,
                )?
            } else {
                Outcome::Nothing
            };
            let permit = permit_for(rulebook, &held, &driven, event);
            let holder = permit.map(|p| permits[p.0 as usize].holder);
            for (person, own) in std::iter::once((event.by, true))
                .chain(holder.filter(|h| *h != event.by).map(|h| (h, false)))
            {
                let record = &mut records[person.0 as usize];
                let before = record.last().map_or(0, |e| e.total);
                let added = if event.is_final {
                    points.scaled(event.infraction, own, outcome)
                } else {
                    0
                };
                record.push(RecordEntry {
                    at: instant(event.at),
                    infraction: event.infraction,
                    group: rulebook.infraction(event.infraction).group,
                    own,
                    is_final: event.is_final,
                    outcome,
                    total: before.saturating_add(added),
                });
            }
        }
        Ok(Self {
            people,
            permits,
            vehicles,
            records,
            held,
            driven,
            points,
        })
    }

    pub fn permits(&self) -> &[Permit] {
        &self.permits
    }

    /// The record of `person`: the events they committed or answer for as a
    /// permit holder, oldest first.
    pub fn record(&self, person: PersonId) -> &[RecordEntry] {
        self.records
            .get(person.0 as usize)
            .map_or(&[], Vec::as_slice)
    }

    /// The points of the rulebook these facts are read under.
    pub fn points(&self) -> &PointsTable {
        &self.points
    }

    pub fn person(&self, id: PersonId) -> &Person {
        &self.people[id.0 as usize]
    }

    pub fn permit(&self, id: PermitId) -> &Permit {
        &self.permits[id.0 as usize]
    }

    pub fn vehicle(&self, id: VehicleId) -> &Vehicle {
        &self.vehicles[id.0 as usize]
    }

    /// Whether `person` is a company.
    pub fn is_company(&self, person: PersonId) -> bool {
        self.person(person).kind == PersonKind::Company
    }

    /// How many permits `person` holds.
    pub fn permits_held(&self, person: PersonId) -> usize {
        self.permits.iter().filter(|p| p.holder == person).count()
    }

    /// Whether `person` holds any permit.
    pub fn holds_a_permit(&self, person: PersonId) -> bool {
        self.held
            .get(person.0 as usize)
            .is_some_and(Option::is_some)
    }

    /// The permit an infraction was committed under: the one named, else the
    /// one the offender drives under as an auxiliary, else the one they hold —
    /// none for an infraction committed outside any permit.
    pub fn permit_for(&self, rulebook: &Rulebook, event: &Event) -> Option<PermitId> {
        permit_for(rulebook, &self.held, &self.driven, event)
    }
}

#[derive(Debug, Clone, Default)]
pub struct Person {
    pub kind: PersonKind,
    pub birth_date: Option<NaiveDate>,
    pub disabled: Option<bool>,
    pub resident_since: Option<NaiveDate>,
    pub education: Option<Education>,
    pub public_employee: Option<bool>,
    /// Operates public collective or school transport (as concessionaire,
    /// permit holder or authorized).
    pub transport_operator: Option<bool>,
    /// The documents presented, by the names the rulebook uses.
    pub documents: Option<Vec<String>>,
    /// A company's holders of voting capital, with their percentage.
    pub shareholders: Option<Vec<(PersonId, Decimal)>>,
    /// A company's directors, managing partners and administrators.
    pub directors: Option<Vec<PersonId>>,
    /// The business group that controls a company.
    pub business_group: Option<String>,
    /// A person's spouse and relatives up to the third civil degree.
    pub relatives: Option<Vec<PersonId>>,
    pub convictions: Option<Vec<Conviction>>,
    pub license: Option<License>,
    pub past_permits: Option<Vec<PastPermit>>,
    /// Has debts to the department that are overdue.
    pub overdue_debts: Option<bool>,
    /// A company credentialed for radio dispatch of rides.
    pub radio_dispatch: Option<bool>,
    /// On sick leave (INSS) that keeps them from driving.
    pub sick_leave: Option<bool>,
    /// Days of vacation in the current 365 days, the ones asked for included.
    pub vacation_days: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conviction {
    pub date: Option<NaiveDate>,
    pub is_final: bool,
}

#[derive(Debug, Clone, Default)]
pub struct License {
    pub categories: Option<Vec<String>>,
    pub paid_activity: Option<bool>,
    pub first_issued: Option<NaiveDate>,
    pub expires: Option<NaiveDate>,
    /// `Some(None)`: known never suspended (or not stated as suspended).
    pub suspended_until: Option<Option<NaiveDate>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PastPermit {
    pub ended: NaiveDate,
    pub how: EndedHow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermitStatus {
    Active,
    Suspended,
    Reserved,
}

#[derive(Debug, Clone)]
pub struct Permit {
    pub holder: PersonId,
    pub service: Service,
    pub granted: Option<NaiveDate>,
    pub status: PermitStatus,
    pub drivers: Vec<PersonId>,
    pub vehicle: Option<VehicleId>,
    /// The line a bus concession or permission serves.
    pub line: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct Vehicle {
    pub plate: Option<String>,
    pub manufactured: Option<i32>,
    pub included: Option<NaiveDate>,
    pub last_inspection: Option<NaiveDate>,
    pub adapted: Option<bool>,
    /// The adaptation came from the factory (not made afterwards).
    pub adaptation_original: Option<bool>,
    /// The last inspection of each kind the rulebook names.
    pub inspections: Vec<(String, NaiveDate)>,
    pub doors: Option<u32>,
    /// Occupants, driver included.
    pub capacity: Option<u32>,
    pub air_conditioning: Option<bool>,
    pub colour: Option<String>,
    pub trunk_litres: Option<u32>,
    pub insured: Option<bool>,
    pub engine_cc: Option<u32>,
    pub four_stroke: Option<bool>,
    /// The equipment fitted, by the names the rulebook uses.
    pub equipment: Option<Vec<String>>,
    /// Automóvel, camioneta… (lower case).
    pub category: Option<String>,
    /// The documents presented, by the names the rulebook uses.
    pub documents: Option<Vec<String>>,
}

fn permit_for(
    rulebook: &Rulebook,
    held: &[Option<PermitId>],
    driven: &[Option<PermitId>],
    event: &Event,
) -> Option<PermitId> {
    if event.permit.is_some() || rulebook.infraction(event.infraction).outside_permit {
        return event.permit;
    }
    let person = event.by.0 as usize;
    driven
        .get(person)
        .copied()
        .flatten()
        .or_else(|| held.get(person).copied().flatten())
}

/// An infraction: a past one in the history, or the one a penalty is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    pub infraction: InfractionId,
    pub by: PersonId,
    pub permit: Option<PermitId>,
    pub at: NaiveDateTime,
    /// Only infractions whose penalty is final count for repeats and points.
    pub is_final: bool,
    /// The deadline of the notice to cure it passed without the cure.
    pub uncured: bool,
}

impl Event {
    pub fn date(&self) -> NaiveDate {
        self.at.date()
    }
}
