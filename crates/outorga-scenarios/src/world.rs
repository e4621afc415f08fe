//! Scenario facts and parameters -> engine facts and overrides, resolving the
//! case-local names of people, permits and vehicles. A name that is not declared
//! is an error that says where it is used.

use crate::dto;
use chrono::{Datelike, NaiveDate};
use outorga_core::facts::{
    Conviction, Event, Facts, License, PastPermit, Permit, PermitId, PermitStatus, Person,
    PersonId, PersonKind, Vehicle, VehicleId,
};
use outorga_core::model::{Education, EndedHow, InfractionId, Rulebook, Service};
use outorga_core::{Context, Overrides};
use rust_decimal::Decimal;
use std::collections::HashMap;

/// The engine's facts plus the names they were given in the case.
#[derive(Debug)]
pub struct World {
    pub facts: Facts,
    pub people: Names,
    pub permits: Names,
    pub vehicles: Names,
    pub stands: Names,
    /// Per stand: its capacity (none for a free stand), whether it is free
    /// and whether it is an event's provisional one.
    pub stand_facts: Vec<(u32, bool, bool)>,
    /// Per permit: the holder's fixed stand.
    pub permit_stands: Vec<Option<u32>>,
    /// Per permit: the reserved share it was granted under.
    pub permit_quotas: Vec<Option<String>>,
}

/// Case-local names, in declaration order.
#[derive(Debug, Default)]
pub struct Names {
    what: &'static str,
    order: Vec<String>,
    index: HashMap<String, u32>,
}

impl Names {
    fn new(what: &'static str) -> Self {
        Self {
            what,
            ..Self::default()
        }
    }

    fn declare(&mut self, name: &str) -> Result<u32, String> {
        if self.index.contains_key(name) {
            return Err(format!("{} `{name}` is declared twice", self.what));
        }
        let id = self.order.len() as u32;
        self.order.push(name.to_string());
        self.index.insert(name.to_string(), id);
        Ok(id)
    }

    /// The id of a declared name; `place` says where it is used, for the error.
    pub fn resolve(&self, name: &str, place: &str) -> Result<u32, String> {
        self.index.get(name).copied().ok_or_else(|| {
            let known = if self.order.is_empty() {
                "none is declared".to_string()
            } else {
                format!("declared: {}", self.order.join(", "))
            };
            format!("{place}: unknown {} `{name}` ({known})", self.what)
        })
    }

    pub fn name(&self, id: u32) -> &str {
        self.order.get(id as usize).map_or("?", String::as_str)
    }
}

pub fn service(text: &str, place: &str) -> Result<Service, String> {
    Service::parse(text).ok_or_else(|| {
        format!(
            "{place}: unknown service `{text}` (taxi, taxi_acessivel, mototaxi, motofrete, onibus)"
        )
    })
}

pub fn infraction(rulebook: &Rulebook, code: &str, place: &str) -> Result<InfractionId, String> {
    rulebook.infraction_by_code(code).ok_or_else(|| {
        format!(
            "{place}: infraction `{code}` is not in the catalog of {} ({} codes, e.g. {})",
            rulebook.id,
            rulebook.infractions.len(),
            rulebook
                .infractions
                .iter()
                .take(3)
                .map(|i| i.code.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    })
}

pub fn build(ctx: &Context<'_>, raw: dto::Facts, today: NaiveDate) -> Result<World, String> {
    let rulebook = ctx.rulebook;
    let mut people = Names::new("person");
    let mut permits = Names::new("permit");
    let mut vehicles = Names::new("vehicle");
    for person in &raw.people {
        people.declare(&person.id)?;
    }
    for permit in &raw.permits {
        permits.declare(&permit.id)?;
    }
    for vehicle in &raw.vehicles {
        vehicles.declare(&vehicle.id)?;
    }
    let mut stands = Names::new("stand");
    let mut stand_facts = Vec::new();
    for stand in &raw.stands {
        stands.declare(&stand.id)?;
        let free = stand.free || stand.event;
        let capacity = match (&stand.capacity, free) {
            (Some(c), false) => c.0,
            (None, true) => 0,
            (None, false) => {
                return Err(format!(
                    "facts.stands `{}`: give its `capacity` (the places the decree set), or `free: true`",
                    stand.id
                ));
            }
            (Some(_), true) => {
                return Err(format!(
                    "facts.stands `{}`: a free stand has no fixed places; drop `capacity`",
                    stand.id
                ));
            }
        };
        stand_facts.push((capacity, free, stand.event));
    }
    let permit_stands = raw
        .permits
        .iter()
        .map(|p| {
            p.stand
                .as_deref()
                .map(|s| stands.resolve(s, &format!("facts.permits `{}`.stand", p.id)))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let permit_quotas = raw.permits.iter().map(|p| p.quota.clone()).collect();
    let people_facts = raw
        .people
        .into_iter()
        .map(|raw| person(raw, &people))
        .collect::<Result<Vec<_>, _>>()?;
    for v in &raw.vehicles {
        if let Some(year) = v.manufactured
            && i64::from(year.0) > i64::from(today.year())
        {
            return Err(format!(
                "facts.vehicles `{}`: manufactured in {}, after `today` ({today})",
                v.id, year.0
            ));
        }
        let kinds = &rulebook.vehicles.inspections;
        if let Some(kind) = v
            .inspections
            .keys()
            .find(|k| !kinds.iter().any(|i| &i.kind == *k))
        {
            let known: Vec<&str> = kinds.iter().map(|i| i.kind.as_str()).collect();
            return Err(format!(
                "facts.vehicles `{}`: inspection kind `{kind}` is not in rulebook `{}` (its kinds: {})",
                v.id,
                rulebook.id,
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            ));
        }
    }
    let vehicle_facts = raw.vehicles.into_iter().map(vehicle).collect();
    let mut permit_facts = Vec::new();
    for permit in raw.permits {
        let place = format!("facts.permits `{}`", permit.id);
        let status = match permit.status.as_deref() {
            None | Some("active") => PermitStatus::Active,
            Some("suspended") => PermitStatus::Suspended,
            Some("reserved") => PermitStatus::Reserved,
            Some(other) => {
                return Err(format!(
                    "{place}: status `{other}` is not one of active, suspended, reserved"
                ));
            }
        };
        permit_facts.push(Permit {
            line: permit.line.clone(),
            holder: PersonId(people.resolve(&permit.holder, &format!("{place}.holder"))?),
            service: service(&permit.service, &place)?,
            granted: permit.granted.and_then(|d| d.into_option()).map(|d| d.0),
            status,
            drivers: permit
                .drivers
                .iter()
                .map(|d| people.resolve(d, &format!("{place}.drivers")).map(PersonId))
                .collect::<Result<_, _>>()?,
            vehicle: permit
                .vehicle
                .as_deref()
                .map(|v| {
                    vehicles
                        .resolve(v, &format!("{place}.vehicle"))
                        .map(VehicleId)
                })
                .transpose()?,
        });
    }
    let mut history = Vec::new();
    for (i, entry) in raw.history.into_iter().enumerate() {
        let place = format!("facts.history[{i}]");
        history.push(Event {
            infraction: infraction(rulebook, &entry.infraction, &place)?,
            by: PersonId(people.resolve(&entry.by, &format!("{place}.by"))?),
            permit: entry
                .permit
                .as_deref()
                .map(|p| permits.resolve(p, &format!("{place}.permit")).map(PermitId))
                .transpose()?,
            at: entry.at.0,
            is_final: entry.is_final,
            uncured: entry.uncured,
        });
    }
    Ok(World {
        facts: Facts::new(ctx, people_facts, permit_facts, vehicle_facts, history)
            .map_err(|e| format!("facts.history: {e}"))?,
        people,
        permits,
        vehicles,
        stands,
        stand_facts,
        permit_stands,
        permit_quotas,
    })
}

fn person(raw: dto::Person, people: &Names) -> Result<Person, String> {
    let place = format!("facts.people `{}`", raw.id);
    let ids = |names: &Option<Vec<String>>, field: &str| {
        names
            .as_ref()
            .map(|list| {
                list.iter()
                    .map(|n| people.resolve(n, &format!("{place}.{field}")).map(PersonId))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()
    };
    let directors = ids(&raw.directors, "directors")?;
    let relatives = ids(&raw.relatives, "relatives")?;
    let shareholders = raw
        .shareholders
        .as_ref()
        .map(|list| {
            list.iter()
                .map(|s| {
                    let at = format!("{place}.shareholders");
                    if s.percent.0.is_sign_negative() || s.percent.0 > Decimal::ONE_HUNDRED {
                        return Err(format!(
                            "{at}: `{}` holds {} %, not a percentage between 0 and 100",
                            s.who, s.percent.0
                        ));
                    }
                    Ok((PersonId(people.resolve(&s.who, &at)?), s.percent.0))
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let kind = match raw.kind.as_deref() {
        None | Some("person") => PersonKind::Person,
        Some("company") => PersonKind::Company,
        Some(other) => return Err(format!("{place}: kind `{other}` is not person or company")),
    };
    let education = raw
        .education
        .as_deref()
        .map(|e| {
            Education::parse(e).ok_or_else(|| {
                format!("{place}: education `{e}` is not none, fundamental, medio or superior")
            })
        })
        .transpose()?;
    let license = raw
        .license
        .map(|l| {
            for category in l.categories.iter().flatten() {
                if !matches!(category.as_str(), "A" | "B" | "C" | "D" | "E") {
                    return Err(format!(
                        "{place}: license category `{category}` is not one of A B C D E"
                    ));
                }
            }
            Ok(License {
                categories: l.categories,
                paid_activity: l.paid_activity,
                first_issued: l.first_issued.and_then(|d| d.into_option()).map(|d| d.0),
                expires: l.expires.and_then(|d| d.into_option()).map(|d| d.0),
                suspended_until: l.suspended_until.map(|d| d.into_option().map(|d| d.0)),
            })
        })
        .transpose()?;
    let past_permits = raw
        .past_permits
        .map(|past| {
            past.into_iter()
                .map(|p| {
                    EndedHow::parse(&p.how)
                        .map(|how| PastPermit {
                            ended: p.ended.0,
                            how,
                        })
                        .ok_or_else(|| {
                            format!(
                                "{place}: past permit ended `{}`; expected renounced, cassated, revoked, caducity or extinct",
                                p.how
                            )
                        })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    Ok(Person {
        shareholders,
        directors,
        relatives,
        business_group: raw.business_group.clone(),
        kind,
        birth_date: raw.birth_date.and_then(|d| d.into_option()).map(|d| d.0),
        disabled: raw.disabled,
        resident_since: raw
            .resident_since
            .and_then(|d| d.into_option())
            .map(|d| d.0),
        education,
        public_employee: raw.public_employee,
        transport_operator: raw.transport_operator,
        documents: raw.documents,
        convictions: raw.convictions.map(|cs| {
            cs.into_iter()
                .map(|c| Conviction {
                    date: c.date.and_then(|d| d.into_option()).map(|d| d.0),
                    is_final: c.is_final,
                })
                .collect()
        }),
        license,
        past_permits,
        overdue_debts: raw.overdue_debts,
        radio_dispatch: raw.radio_dispatch,
        sick_leave: raw.sick_leave,
        vacation_days: raw.vacation_days.map(|d| d.0),
    })
}

fn vehicle(raw: dto::Vehicle) -> Vehicle {
    Vehicle {
        plate: raw.plate,
        manufactured: raw
            .manufactured
            .map(|y| i32::try_from(y.0).unwrap_or(i32::MAX)),
        included: raw.included.and_then(|d| d.into_option()).map(|d| d.0),
        last_inspection: raw
            .last_inspection
            .and_then(|d| d.into_option())
            .map(|d| d.0),
        adapted: raw.adapted,
        adaptation_original: raw.adaptation_original,
        inspections: raw
            .inspections
            .into_iter()
            .map(|(kind, date)| (kind, date.0))
            .collect(),
        doors: raw.doors.map(|w| w.0),
        capacity: raw.capacity.map(|w| w.0),
        air_conditioning: raw.air_conditioning,
        colour: raw.colour,
        trunk_litres: raw.trunk_litres.map(|w| w.0),
        insured: raw.insured,
        engine_cc: raw.engine_cc.map(|w| w.0),
        four_stroke: raw.four_stroke,
        equipment: raw.equipment,
        category: raw.category,
        documents: raw.documents,
    }
}

/// A parameter value: a decimal that is not negative.
fn non_negative(place: &str, value: Decimal) -> Result<Decimal, String> {
    if value.is_sign_negative() && !value.is_zero() {
        return Err(format!("{place}: {value} is negative"));
    }
    Ok(value)
}

/// Parameter overrides; a name the rulebook does not define is an error.
pub fn overrides(rulebook: &Rulebook, raw: dto::Parameters) -> Result<Overrides, String> {
    let mut overrides = Overrides::default();
    if let Some(population) = raw.population {
        let value = non_negative("parameters.population", population.0)?;
        overrides.set("population", value);
    }
    for (unit, value) in raw.units {
        if unit == "BRL" {
            return Err("parameters.units: BRL is the currency itself; give the fiscal units' values in BRL".into());
        }
        if !rulebook.units.contains_key(&unit) {
            return Err(format!(
                "parameters.units: `{unit}` is not a unit of {} (units: {})",
                rulebook.id,
                rulebook
                    .units
                    .keys()
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let value = non_negative(&format!("parameters.units.{unit}"), value.0)?;
        overrides.units.insert(
            unit,
            vec![outorga_core::model::Dated {
                from: chrono::NaiveDate::MIN,
                value,
                source: None,
            }],
        );
    }
    overrides.holidays = raw.holidays.into_iter().map(|d| d.0).collect();
    const TARIFF: [&str; 4] = [
        "bandeirada",
        "km_bandeira_1",
        "km_bandeira_2",
        "hora_parada",
    ];
    for (key, value) in raw.tariff {
        if !TARIFF.contains(&key.as_str()) {
            return Err(format!(
                "parameters.tariff: `{key}` is not one of {}",
                TARIFF.join(", ")
            ));
        }
        let value = non_negative(&format!("parameters.tariff.{key}"), value.0)?;
        overrides.set(format!("tariff.{key}"), value);
    }
    for (name, value) in raw.other {
        if rulebook.parameter_id(&name).is_none() {
            return Err(format!(
                "parameters: `{name}` is not a parameter of {} (parameters: population, units, holidays, tariff, {})",
                rulebook.id,
                rulebook
                    .parameters
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        let place = format!("parameters.{name}");
        let value = match value {
            dto::Loose::Text(text) => {
                text.parse::<crate::scalar::Dec>()
                    .map_err(|e| format!("{place}: {e}"))?
                    .0
            }
            dto::Loose::NotScalar => return Err(format!("{place}: expected a number")),
        };
        overrides.set(name, non_negative(&place, value)?);
    }
    Ok(overrides)
}
