//! Passengers' complaints (denúncias): what happened, when, where, the
//! plate or the line, and an optional contact the public never sees. Each
//! gets a protocol (a random code) to follow it; the inspectors' queue
//! works it — under review, turned into an auto, or closed with the reason.
//! A complaint about an intercity bus trip also keeps the facts of the trip
//! and the law's answer (`complaint_trip.rs`).

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::complaint_trip::{TripComplaint, TripFacts, weigh};
use crate::dates::{moment, moment_text};
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::text::{TextKind, checked, optional};
use crate::{Store, StoreError};
use chrono::NaiveDateTime;
use outorga_core::model::{ClaimKind, Rulebook};
use sqlx::Row;

worded! {
    /// What a passenger complains of.
    pub enum ComplaintKind {
        Overcharge = "overcharge" => "cobrança acima da tarifa ou sem taxímetro",
        Refusal = "refusal" => "recusa de corrida ou de passageiro",
        VehicleCondition = "vehicle_condition" => "veículo sujo, em mau estado ou sem equipamento",
        DangerousDriving = "dangerous_driving" => "direção perigosa",
        Conduct = "conduct" => "falta de respeito ou mau atendimento",
        Unlicensed = "unlicensed" => "transporte sem licença (clandestino)",
        Other = "other" => "outro",
        TripDelay = "trip_delay" => "atraso ou interrupção da viagem de ônibus",
        RefundRefused = "refund_refused" => "devolução ou revalidação da passagem recusada",
        BaggageDamaged = "baggage_damaged" => "bagagem danificada",
        BaggageLost = "baggage_lost" => "bagagem extraviada",
        ExcessBaggage = "excess_baggage" => "cobrança de excesso de bagagem",
        SeatSoldTwice = "seat_sold_twice" => "poltrona vendida a mais de um passageiro",
    }
}

impl ComplaintKind {
    /// The kind of complaint about a bus trip the law weighs, if it is one.
    pub fn trip(self) -> Option<ClaimKind> {
        match self {
            ComplaintKind::TripDelay => Some(ClaimKind::TripDelay),
            ComplaintKind::RefundRefused => Some(ClaimKind::RefundRefused),
            ComplaintKind::BaggageDamaged => Some(ClaimKind::BaggageDamaged),
            ComplaintKind::BaggageLost => Some(ClaimKind::BaggageLost),
            ComplaintKind::ExcessBaggage => Some(ClaimKind::ExcessBaggage),
            ComplaintKind::SeatSoldTwice => Some(ClaimKind::SeatSoldTwice),
            _ => None,
        }
    }

    /// The kinds a passenger may choose where the law is `law` (with its
    /// rules for bus trips or not): the trips' where it has them, the
    /// meter's and the ride's where it is a taxi's.
    pub fn offered(buses: bool) -> Vec<ComplaintKind> {
        ComplaintKind::ALL
            .iter()
            .copied()
            .filter(|k| match (k.trip(), buses) {
                (Some(_), trip) => trip,
                (None, true) => !matches!(k, ComplaintKind::Overcharge | ComplaintKind::Refusal),
                (None, false) => true,
            })
            .collect()
    }
}

worded! {
    /// Where a complaint stands.
    pub enum ComplaintStatus {
        Received = "received" => "recebida",
        InReview = "in_review" => "em apuração",
        Auto = "auto" => "virou auto de infração",
        Closed = "closed" => "arquivada",
    }
}

/// A complaint as the passenger makes it.
#[derive(Debug, Clone)]
pub struct ComplaintInput {
    pub kind: ComplaintKind,
    pub description: String,
    pub occurred_at: NaiveDateTime,
    pub place: String,
    pub plate: Option<String>,
    pub line: Option<String>,
    pub contact: Option<String>,
    /// A complaint about a bus trip: what the passenger tells of it.
    pub trip: Option<TripFacts>,
}

/// A complaint as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Complaint {
    pub protocol: String,
    pub jurisdiction: String,
    pub kind: ComplaintKind,
    pub description: String,
    pub occurred_at: NaiveDateTime,
    pub place: String,
    pub plate: Option<String>,
    pub line: Option<String>,
    pub contact: Option<String>,
    pub received_at: NaiveDateTime,
    pub status: ComplaintStatus,
    pub note: Option<String>,
    pub auto: Option<(i32, i64)>,
    pub handled_by: Option<String>,
    /// A complaint about a bus trip: its facts and the law's answer.
    pub trip: Option<TripComplaint>,
}

/// What an inspector decides on a complaint.
#[derive(Debug, Clone)]
pub struct Handling {
    pub status: ComplaintStatus,
    pub note: Option<String>,
    /// The auto it became (with `ComplaintStatus::Auto`).
    pub auto: Option<(i32, i64)>,
}

const COLUMNS: &str = "protocol, jurisdiction, kind, description, occurred_at, place, plate, line, \
     contact, received_at, status, note, auto_year, auto_number, handled_by, trip";

const QUEUE: List = List {
    name: "complaints",
    table: "complaints",
    columns: COLUMNS,
    key: &[("received_at", KeyKind::Text), ("protocol", KeyKind::Text)],
    descending: false,
};

fn complaint_of(row: &sqlx::any::AnyRow) -> Result<Complaint, StoreError> {
    let kind: String = row.try_get("kind")?;
    let status: String = row.try_get("status")?;
    let occurred: String = row.try_get("occurred_at")?;
    let received: String = row.try_get("received_at")?;
    let year: Option<i64> = row.try_get("auto_year")?;
    let number: Option<i64> = row.try_get("auto_number")?;
    let trip: Option<String> = row.try_get("trip")?;
    Ok(Complaint {
        protocol: row.try_get("protocol")?,
        jurisdiction: row.try_get("jurisdiction")?,
        kind: ComplaintKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("complaint kind {kind}")))?,
        description: row.try_get("description")?,
        occurred_at: moment(&occurred)?,
        place: row.try_get("place")?,
        plate: row.try_get("plate")?,
        line: row.try_get("line")?,
        contact: row.try_get("contact")?,
        received_at: moment(&received)?,
        status: ComplaintStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("complaint status {status}")))?,
        note: row.try_get("note")?,
        auto: match (year, number) {
            (Some(y), Some(n)) => Some((i32::try_from(y).unwrap_or_default(), n)),
            _ => None,
        },
        handled_by: row.try_get("handled_by")?,
        trip: trip
            .map(|t| serde_json::from_str(&t))
            .transpose()
            .map_err(|e| StoreError::Corrupt(format!("complaint trip: {e}")))?,
    })
}

impl Store {
    /// Records a passenger's complaint, received at `received_at` (the
    /// jurisdiction's local time, as the passenger tells when it happened);
    /// it cannot be about the future. A complaint about a bus trip is
    /// weighed by `law` (the jurisdiction's bus rulebook) and keeps its
    /// answer.
    pub async fn file_complaint(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        input: &ComplaintInput,
        (received_at, law): (NaiveDateTime, Option<&Rulebook>),
    ) -> Result<Complaint, StoreError> {
        let description = checked("descricao", &input.description, TextKind::Long)?.to_string();
        if description.chars().count() < 10 {
            return Err(StoreError::Invalid {
                field: "descricao",
                reason: "conte o que aconteceu em algumas palavras (ao menos 10 letras)".into(),
            });
        }
        let place = checked("local", &input.place, TextKind::Line)?.to_string();
        if place.is_empty() {
            return Err(StoreError::Invalid {
                field: "local",
                reason: "informe onde aconteceu (rua, bairro, ponto ou linha)".into(),
            });
        }
        if input.occurred_at > received_at {
            return Err(StoreError::Invalid {
                field: "quando",
                reason: "o dia e a hora ainda não chegaram: informe quando aconteceu".into(),
            });
        }
        let plate = match input.plate.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(plate) => Some(crate::parse_plate(plate)?),
        };
        let line = optional("linha", input.line.as_deref(), TextKind::Code)?;
        let contact = optional("contato", input.contact.as_deref(), TextKind::Line)?;
        let claim = match (input.kind.trip(), &input.trip) {
            (None, None) => None,
            (None, Some(_)) => {
                return Err(StoreError::Invalid {
                    field: "viagem",
                    reason: format!(
                        "os dados da viagem são das reclamações sobre viagens de ônibus, não de \"{}\"",
                        input.kind.portuguese()
                    ),
                });
            }
            (Some(claim), trip) => {
                let trip = trip.clone().unwrap_or_default();
                if let Some(ticket) = &trip.ticket {
                    checked("bilhete", ticket, TextKind::Code)?;
                }
                Some((claim, trip))
            }
        };
        let protocol = crate::documents::new_code()?;
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let trip = match (claim, law) {
            (None, _) => None,
            (Some((claim, facts)), Some(law))
                if law.bus.as_ref().is_some_and(|b| b.passengers.is_some()) =>
            {
                let ctx = crate::parameters::law(&mut tx, jurisdiction, law).await?;
                let weighed = weigh(&ctx, claim, &facts, received_at.date())?;
                Some(
                    serde_json::to_string(&weighed)
                        .map_err(|e| StoreError::Corrupt(e.to_string()))?,
                )
            }
            (Some(_), _) => {
                return Err(StoreError::Invalid {
                    field: "tipo",
                    reason: format!(
                        "\"{}\" é reclamação sobre viagem de ônibus intermunicipal, que esta jurisdição não regula: escolha outro tipo",
                        input.kind.portuguese()
                    ),
                });
            }
        };
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO complaints ({COLUMNS}) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'received', NULL, NULL, NULL, NULL, $11)"
        )))
        .bind(&protocol)
        .bind(jurisdiction)
        .bind(input.kind.name())
        .bind(&description)
        .bind(moment_text(input.occurred_at))
        .bind(&place)
        .bind(plate.as_deref())
        .bind(line.as_deref())
        .bind(contact.as_deref())
        .bind(moment_text(received_at))
        .bind(trip.as_deref())
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "complaint.file",
                jurisdiction: Some(jurisdiction),
                subject: &format!("complaint:{protocol}"),
                detail: serde_json::json!({ "kind": input.kind.name(), "plate": plate, "line": line }),
                rows: vec![RowRef::new("complaints", [(&protocol).into()])],
            },
        )
        .await?;
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM complaints WHERE protocol = $1"
        )))
        .bind(&protocol)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        complaint_of(&row)
    }

    /// The complaint with this protocol (as typed), if any.
    pub async fn complaint(&self, protocol: &str) -> Result<Option<Complaint>, StoreError> {
        let Some(protocol) = crate::documents::typed_code(protocol) else {
            return Ok(None);
        };
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM complaints WHERE protocol = $1"
        )))
        .bind(&protocol)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(complaint_of).transpose()
    }

    /// A page of the jurisdiction's complaints in `status` (none: any),
    /// the oldest first: the inspectors' queue.
    pub async fn complaints(
        &self,
        jurisdiction: &str,
        status: Option<ComplaintStatus>,
        window: Window<'_>,
    ) -> Result<Page<Complaint>, StoreError> {
        let mut rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        if let Some(status) = status {
            rows = rows.always("status = $?", text(status.name()));
        }
        listing::page(&self.pool, &QUEUE, &rows, window, complaint_of).await
    }

    /// Records what an inspector decided on the complaint of `jurisdiction`.
    pub async fn handle_complaint(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        protocol: &str,
        handling: &Handling,
    ) -> Result<Complaint, StoreError> {
        let note = optional("nota", handling.note.as_deref(), TextKind::Long)?;
        match (handling.status, handling.auto, &note) {
            (ComplaintStatus::Received, _, _) => {
                return Err(StoreError::Invalid {
                    field: "situacao",
                    reason: "uma denúncia não volta a recebida: marque-a em apuração, com auto ou arquivada".into(),
                });
            }
            (ComplaintStatus::Auto, None, _) => {
                return Err(StoreError::Invalid {
                    field: "auto",
                    reason: "informe o número e o ano do auto lavrado".into(),
                });
            }
            (ComplaintStatus::Closed, _, None) => {
                return Err(StoreError::Invalid {
                    field: "nota",
                    reason: "diga por que a denúncia é arquivada".into(),
                });
            }
            _ => {}
        }
        let Some(protocol) = crate::documents::typed_code(protocol) else {
            return Err(StoreError::NotFound(format!(
                "não há denúncia com o protocolo {protocol}"
            )));
        };
        let auto = if handling.status == ComplaintStatus::Auto {
            handling.auto
        } else {
            None
        };
        let (mut tx, _writer) = self.write_transaction().await?;
        let existing = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM complaints WHERE protocol = $1 AND jurisdiction = $2"
        )))
        .bind(&protocol)
        .bind(jurisdiction)
        .fetch_optional(&mut *tx)
        .await?
        .as_ref()
        .map(complaint_of)
        .transpose()?
        .ok_or_else(|| {
            StoreError::NotFound(format!("não há denúncia com o protocolo {protocol}"))
        })?;
        if matches!(
            existing.status,
            ComplaintStatus::Auto | ComplaintStatus::Closed
        ) {
            return Err(StoreError::Invalid {
                field: "situacao",
                reason: format!(
                    "a denúncia {protocol} já foi concluída ({}): não muda mais",
                    existing.status.portuguese()
                ),
            });
        }
        crate::audit::guard::unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new("complaints", [(&existing.protocol).into()])],
        )
        .await?;
        if let Some((year, number)) = auto {
            let found = sqlx::query(
                "SELECT 1 AS found FROM autos WHERE jurisdiction = $1 AND year = $2 AND number = $3",
            )
            .bind(jurisdiction)
            .bind(i64::from(year))
            .bind(number)
            .fetch_optional(&mut *tx)
            .await?;
            if found.is_none() {
                return Err(StoreError::Invalid {
                    field: "auto",
                    reason: format!("não há auto nº {number}/{year} nesta jurisdição"),
                });
            }
        }
        let updated = sqlx::query(
            "UPDATE complaints SET status = $2, note = $3, auto_year = $4, auto_number = $5, \
             handled_by = $6 WHERE protocol = $1 AND status = $7",
        )
        .bind(&existing.protocol)
        .bind(handling.status.name())
        .bind(note.as_deref())
        .bind(auto.map(|(y, _)| i64::from(y)))
        .bind(auto.map(|(_, n)| n))
        .bind(change.by)
        .bind(existing.status.name())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if updated == 0 {
            return Err(StoreError::Invalid {
                field: "situacao",
                reason: "outra pessoa acabou de tratar esta denúncia: recarregue a página".into(),
            });
        }
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "complaint.handle",
                jurisdiction: Some(jurisdiction),
                subject: &format!("complaint:{}", existing.protocol),
                detail: serde_json::json!({ "status": handling.status.name(), "note": note, "auto": auto }),
                rows: vec![RowRef::new("complaints", [(&existing.protocol).into()])],
            },
        )
        .await?;
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM complaints WHERE protocol = $1"
        )))
        .bind(&existing.protocol)
        .fetch_one(&mut *tx)
        .await?;
        tx.commit().await?;
        complaint_of(&row)
    }
}
