//! The world a decision is made in: people, permits, vehicles, past infractions.
//!
//! A fact that is `None` is unknown; requirements that depend on it are reported
//! as unknown, never as met or unmet. People, permits and vehicles are referred
//! to by index, so decisions compare integers, not names.

use crate::model::{Education, EndedHow, InfractionId, Service};
use chrono::{NaiveDate, NaiveDateTime};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PersonId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PermitId(pub u32);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VehicleId(pub u32);

/// The facts of a case. Built once with [`Facts::new`], which indexes the history
/// by person so decisions read only the events that concern them.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    people: Vec<Person>,
    permits: Vec<Permit>,
    vehicles: Vec<Vehicle>,
    history: Vec<Event>,
    /// For each person, the indices of the events they committed or that were
    /// committed under a permit they hold, in history order.
    involvement: Vec<Vec<u32>>,
    /// For each person, whether they hold a permit.
    holds: Vec<bool>,
}

impl Facts {
    /// `history` in any order; it is kept sorted by time. Every id must index
    /// the given vectors (the caller resolved names to ids).
    pub fn new(
        people: Vec<Person>,
        permits: Vec<Permit>,
        vehicles: Vec<Vehicle>,
        mut history: Vec<Event>,
    ) -> Self {
        history.sort_by_key(|e| e.at);
        let mut involvement = vec![Vec::new(); people.len()];
        for (index, event) in history.iter().enumerate() {
            let index = u32::try_from(index).unwrap_or(u32::MAX);
            involvement[event.by.0 as usize].push(index);
            if let Some(permit) = event.permit {
                let holder = permits[permit.0 as usize].holder;
                if holder != event.by {
                    involvement[holder.0 as usize].push(index);
                }
            }
        }
        let mut holds = vec![false; people.len()];
        for permit in &permits {
            holds[permit.holder.0 as usize] = true;
        }
        Self {
            people,
            permits,
            vehicles,
            history,
            involvement,
            holds,
        }
    }

    pub fn people(&self) -> &[Person] {
        &self.people
    }

    pub fn permits(&self) -> &[Permit] {
        &self.permits
    }

    pub fn vehicles(&self) -> &[Vehicle] {
        &self.vehicles
    }

    /// All past infractions, oldest first.
    pub fn history(&self) -> &[Event] {
        &self.history
    }

    /// The events `person` committed or answers for as a permit holder, oldest first.
    pub fn events_of(&self, person: PersonId) -> impl DoubleEndedIterator<Item = &Event> + '_ {
        self.involvement_of(person)
            .iter()
            .map(|&index| &self.history[index as usize])
    }

    /// The events of `person` dated on or after `from`, oldest first.
    pub fn events_since(&self, person: PersonId, from: NaiveDate) -> impl Iterator<Item = &Event> + '_ {
        let list = self.involvement_of(person);
        let start = list.partition_point(|&index| self.history[index as usize].date() < from);
        list[start..]
            .iter()
            .map(|&index| &self.history[index as usize])
    }

    fn involvement_of(&self, person: PersonId) -> &[u32] {
        self.involvement
            .get(person.0 as usize)
            .map_or(&[], Vec::as_slice)
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

    /// Whether `person` holds any permit.
    pub fn holds_a_permit(&self, person: PersonId) -> bool {
        self.holds.get(person.0 as usize).copied().unwrap_or(false)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PersonKind {
    #[default]
    Person,
    Company,
}

#[derive(Debug, Clone, Default)]
pub struct Person {
    pub kind: PersonKind,
    pub birth_date: Option<NaiveDate>,
    pub disabled: Option<bool>,
    pub resident_since: Option<NaiveDate>,
    pub education: Option<Education>,
    pub public_employee: Option<bool>,
    pub convictions: Option<Vec<Conviction>>,
    pub license: Option<License>,
    pub past_permits: Option<Vec<PastPermit>>,
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
}

#[derive(Debug, Clone, Default)]
pub struct Vehicle {
    pub plate: Option<String>,
    pub manufactured: Option<i32>,
    pub included: Option<NaiveDate>,
    pub last_inspection: Option<NaiveDate>,
    pub adapted: Option<bool>,
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
}

impl Event {
    pub fn date(&self) -> NaiveDate {
        self.at.date()
    }
}
