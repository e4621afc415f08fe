//! One rule for whether a vehicle may serve, a driver may drive and a
//! document holds on a day, from what the record says of them: every public
//! check (plate, driver, document) asks here, so a document never reads
//! valid while what it certifies does not. Each answer is the list of what
//! bars it (empty: in service), in Portuguese for the public.

use crate::model::{PermitStatus, SanctionKind};
use chrono::NaiveDate;

/// A measure or penalty on a vehicle or a person, in force from `from`
/// through `until` (none: until it is lifted).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hold {
    pub kind: SanctionKind,
    pub from: NaiveDate,
    pub until: Option<NaiveDate>,
}

impl Hold {
    fn on(&self, day: NaiveDate) -> bool {
        self.from <= day && self.until.is_none_or(|u| day <= u)
    }
}

/// What the record says of a vehicle.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct VehicleRecord {
    /// The status of the permit it serves, when it serves one.
    pub permit: Option<PermitStatus>,
    /// Its traffic authorization in force: `Some(None)` when it has no expiry.
    pub authorization: Option<Option<NaiveDate>>,
    /// Its inspection seal in force: `Some(None)` when it has no expiry.
    pub seal: Option<Option<NaiveDate>>,
    /// Its latest inspection: the day, and whether it passed.
    pub inspection: Option<(NaiveDate, bool)>,
    /// Impediments, seizures and retentions recorded against it.
    pub holds: Vec<Hold>,
}

/// What the record says of a driver's link to a permit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DriverRecord {
    pub since: NaiveDate,
    /// The day the link ended, if it did.
    pub until: Option<NaiveDate>,
    /// The registration's validity.
    pub valid_until: Option<NaiveDate>,
    /// The last day of a suspension of the registration.
    pub suspended_until: Option<NaiveDate>,
    /// The status of the permit the driver serves.
    pub permit: Option<PermitStatus>,
}

/// A document as issued.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocumentRecord {
    pub issued: NaiveDate,
    pub cancelled: Option<NaiveDate>,
    pub valid_until: Option<NaiveDate>,
}

/// What keeps a vehicle, a driver or a document out of service on a day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bar {
    /// The vehicle serves no permit.
    NoPermit,
    /// The permit is not in force (suspended, reserved, ended).
    Permit(PermitStatus),
    NoAuthorization,
    AuthorizationExpired(NaiveDate),
    /// No approved inspection in force.
    NoSeal,
    SealExpired(NaiveDate),
    /// The latest inspection failed (on this day).
    InspectionFailed(NaiveDate),
    /// Impeded, seized or retained (until this day; none: until released).
    Held(SanctionKind, Option<NaiveDate>),
    /// A driver's link: not yet begun, ended, the registration expired,
    /// suspended.
    NotYetLinked(NaiveDate),
    Unlinked(NaiveDate),
    RegistrationExpired(NaiveDate),
    Suspended(NaiveDate),
    /// A document: not yet issued, cancelled, expired.
    NotYetIssued(NaiveDate),
    Cancelled(NaiveDate),
    Expired(NaiveDate),
}

impl Bar {
    /// The bar as the public reads it.
    pub fn portuguese(&self) -> String {
        let held = |kind: SanctionKind| match kind {
            SanctionKind::VehicleSeizure => "apreendido",
            SanctionKind::VehicleRetention => "retido",
            SanctionKind::DocumentSeizure => "com documento apreendido",
            _ => "impedido de circular",
        };
        match self {
            Bar::NoPermit => "não está a serviço de uma permissão".into(),
            Bar::Permit(status) => format!("permissão {}", status.portuguese()),
            Bar::NoAuthorization => "sem autorização de tráfego".into(),
            Bar::AuthorizationExpired(d) => format!("autorização de tráfego vencida em {d}"),
            Bar::NoSeal => "sem vistoria aprovada em vigor".into(),
            Bar::SealExpired(d) => format!("vistoria vencida em {d}"),
            Bar::InspectionFailed(d) => format!("reprovado na vistoria de {d}"),
            Bar::Held(kind, Some(until)) => format!("{} até {until}", held(*kind)),
            Bar::Held(kind, None) => format!("{} até a liberação", held(*kind)),
            Bar::NotYetLinked(d) => format!("vinculado a partir de {d}"),
            Bar::Unlinked(d) => format!("desligado em {d}"),
            Bar::RegistrationExpired(d) => format!("matrícula vencida em {d}"),
            Bar::Suspended(d) => format!("suspenso até {d}"),
            Bar::NotYetIssued(d) => format!("emitido só em {d}"),
            Bar::Cancelled(d) => format!("cancelado em {d}"),
            Bar::Expired(d) => format!("vencido em {d}"),
        }
    }
}

fn permit_bars(permit: Option<PermitStatus>, bars: &mut Vec<Bar>) {
    match permit {
        None => bars.push(Bar::NoPermit),
        Some(PermitStatus::Granted) => {}
        Some(status) => bars.push(Bar::Permit(status)),
    }
}

/// What bars a vehicle from serving on `day`: its permit not in force, no
/// traffic authorization in force, no approved inspection in force or a
/// failed latest one, a measure on it (impediment, seizure, retention).
pub fn vehicle(record: &VehicleRecord, day: NaiveDate) -> Vec<Bar> {
    let mut bars = Vec::new();
    permit_bars(record.permit, &mut bars);
    match record.authorization {
        None => bars.push(Bar::NoAuthorization),
        Some(Some(until)) if until < day => bars.push(Bar::AuthorizationExpired(until)),
        Some(_) => {}
    }
    match record.inspection {
        Some((on, false)) => bars.push(Bar::InspectionFailed(on)),
        _ => match record.seal {
            None => bars.push(Bar::NoSeal),
            Some(Some(until)) if until < day => bars.push(Bar::SealExpired(until)),
            Some(_) => {}
        },
    }
    for hold in record.holds.iter().filter(|h| h.on(day)) {
        bars.push(Bar::Held(hold.kind, hold.until));
    }
    bars
}

/// What bars a driver from driving under the permit on `day`: the link not
/// begun or ended, the registration expired or suspended, the permit not in
/// force.
pub fn driver(record: &DriverRecord, day: NaiveDate) -> Vec<Bar> {
    let mut bars = Vec::new();
    if record.since > day {
        bars.push(Bar::NotYetLinked(record.since));
    }
    if let Some(until) = record.until.filter(|u| *u <= day) {
        bars.push(Bar::Unlinked(until));
    }
    if let Some(until) = record.valid_until.filter(|v| *v < day) {
        bars.push(Bar::RegistrationExpired(until));
    }
    if let Some(until) = record.suspended_until.filter(|s| *s >= day) {
        bars.push(Bar::Suspended(until));
    }
    permit_bars(record.permit, &mut bars);
    bars
}

/// What bars a document on `day`: its own validity (issued, not cancelled,
/// not expired) and what bars the record it certifies (`subject`: the
/// vehicle of a traffic authorization, the driver of a registration, the
/// permit of a term), except the document itself.
pub fn document(record: &DocumentRecord, subject: &[Bar], day: NaiveDate) -> Vec<Bar> {
    let mut bars = Vec::new();
    if record.issued > day {
        bars.push(Bar::NotYetIssued(record.issued));
    }
    if let Some(on) = record.cancelled.filter(|c| *c <= day) {
        bars.push(Bar::Cancelled(on));
    }
    if let Some(until) = record.valid_until.filter(|v| *v < day) {
        bars.push(Bar::Expired(until));
    }
    bars.extend(subject.iter().copied());
    bars
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).expect("date")
    }

    fn serving() -> VehicleRecord {
        VehicleRecord {
            permit: Some(PermitStatus::Granted),
            authorization: Some(Some(d(2027, 1, 1))),
            seal: Some(Some(d(2026, 12, 31))),
            inspection: Some((d(2026, 1, 2), true)),
            holds: Vec::new(),
        }
    }

    #[test]
    fn a_vehicle_in_order_serves_through_the_last_day_of_its_seal() {
        assert_eq!(vehicle(&serving(), d(2026, 12, 31)), []);
        assert_eq!(
            vehicle(&serving(), d(2027, 1, 1)),
            [Bar::SealExpired(d(2026, 12, 31))]
        );
    }

    #[test]
    fn a_failed_inspection_or_a_hold_bars_the_vehicle() {
        let failed = VehicleRecord {
            inspection: Some((d(2026, 6, 1), false)),
            ..serving()
        };
        assert_eq!(
            vehicle(&failed, d(2026, 6, 2)),
            [Bar::InspectionFailed(d(2026, 6, 1))]
        );
        let seized = VehicleRecord {
            holds: vec![Hold {
                kind: SanctionKind::VehicleRetention,
                from: d(2026, 6, 1),
                until: None,
            }],
            ..serving()
        };
        assert_eq!(
            vehicle(&seized, d(2026, 6, 1)),
            [Bar::Held(SanctionKind::VehicleRetention, None)]
        );
        assert_eq!(vehicle(&seized, d(2026, 5, 31)), []);
    }

    #[test]
    fn a_document_holds_only_while_what_it_certifies_does() {
        let doc = DocumentRecord {
            issued: d(2026, 1, 2),
            cancelled: None,
            valid_until: None,
        };
        let suspended = vehicle(
            &VehicleRecord {
                permit: Some(PermitStatus::Suspended),
                ..serving()
            },
            d(2026, 3, 1),
        );
        assert_eq!(
            document(&doc, &suspended, d(2026, 3, 1)),
            [Bar::Permit(PermitStatus::Suspended)]
        );
    }
}
