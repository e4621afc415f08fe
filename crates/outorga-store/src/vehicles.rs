//! The register of vehicles of a jurisdiction: plate, RENAVAM, year.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::text::{TextKind, checked, optional};
use crate::{Store, StoreError, Tx, refused_if_taken};
use sqlx::Row;

/// A vehicle as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Vehicle {
    /// Upper case, without hyphen: ABC1234 or ABC1D23.
    pub plate: String,
    /// 11 digits.
    pub renavam: String,
    pub manufactured: i32,
    pub colour: String,
    /// Make and model as the registration certificate (CRLV) says ("Fiat",
    /// "Cronos 1.3"); none when not recorded.
    pub make: Option<String>,
    pub model: Option<String>,
    pub doors: Option<u8>,
    /// Passenger places besides the driver's.
    pub capacity: Option<u16>,
    /// Equipment (taxímetro, luminoso, baú, antena corta-pipa…).
    pub equipment: Vec<String>,
    /// Accessibility adaptations (rampa, elevador, cinto para cadeira…).
    pub adaptations: Vec<String>,
}

/// The plate in upper case without hyphen or spaces, if it has the old
/// (ABC1234) or the Mercosul (ABC1D23) form.
pub fn parse_plate(text: &str) -> Result<String, StoreError> {
    let plate: String = text
        .chars()
        .filter(|c| !matches!(c, '-' | ' '))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let b = plate.as_bytes();
    let shape = b.len() == 7
        && b[..3].iter().all(u8::is_ascii_uppercase)
        && b[3].is_ascii_digit()
        && (b[4].is_ascii_digit() || b[4].is_ascii_uppercase())
        && b[5..].iter().all(u8::is_ascii_digit);
    if shape {
        Ok(plate)
    } else {
        Err(StoreError::Invalid {
            field: "placa",
            reason: format!("`{text}`: use o formato antigo (ABC-1234) ou o Mercosul (ABC1D23)"),
        })
    }
}

/// The RENAVAM with 11 digits (older 9-digit ones padded with zeros), if its
/// check digit is right: the first 10 digits from right to left weighted
/// 2, 3, …, 9, 2, 3; ten times the sum modulo 11, 10 counting as 0.
pub fn parse_renavam(text: &str) -> Result<String, StoreError> {
    let invalid = |reason: &str| StoreError::Invalid {
        field: "renavam",
        reason: format!("`{text}`: {reason}"),
    };
    let digits: String = text
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | ' '))
        .collect();
    if !(9..=11).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid("o RENAVAM tem 11 dígitos (ou 9, nos mais antigos)"));
    }
    let renavam = format!("{digits:0>11}");
    let values: Vec<u32> = renavam.bytes().map(|b| u32::from(b - b'0')).collect();
    let sum: u32 = values[..10]
        .iter()
        .rev()
        .zip([2, 3, 4, 5, 6, 7, 8, 9, 2, 3])
        .map(|(d, w)| d * w)
        .sum();
    let check = (sum * 10 % 11) % 10;
    if check == values[10] {
        Ok(renavam)
    } else {
        Err(invalid("dígito verificador não confere"))
    }
}

/// Names trimmed, blanks dropped, each once, in order.
/// The most items of equipment or adaptations a vehicle lists.
pub const MAX_ITEMS: usize = 50;

fn names(field: &'static str, list: &[String]) -> Result<Vec<String>, StoreError> {
    if list.len() > MAX_ITEMS {
        return Err(StoreError::Invalid {
            field,
            reason: format!("tem {} itens; o máximo é {MAX_ITEMS}", list.len()),
        });
    }
    let mut out: Vec<String> = Vec::new();
    for name in list {
        let name = checked(field, name, TextKind::Name)?;
        if !name.is_empty() && !out.iter().any(|known| known.eq_ignore_ascii_case(name)) {
            out.push(name.to_string());
        }
    }
    Ok(out)
}

fn json_list(text: &str) -> Vec<String> {
    serde_json::from_str(text).unwrap_or_default()
}

const COLUMNS: &str =
    "plate, renavam, manufactured, colour, doors, capacity, equipment, adaptations, make, model";

const VEHICLES: List = List {
    name: "vehicles",
    table: "vehicles",
    columns: COLUMNS,
    key: &[("plate", KeyKind::Text)],
    descending: false,
};

fn vehicle_of(row: &sqlx::any::AnyRow) -> Result<Vehicle, StoreError> {
    let year: i64 = row.try_get("manufactured")?;
    let doors: Option<i64> = row.try_get("doors")?;
    let capacity: Option<i64> = row.try_get("capacity")?;
    let equipment: String = row.try_get("equipment")?;
    let adaptations: String = row.try_get("adaptations")?;
    Ok(Vehicle {
        plate: row.try_get("plate")?,
        renavam: row.try_get("renavam")?,
        manufactured: i32::try_from(year).unwrap_or(i32::MAX),
        colour: row.try_get("colour")?,
        doors: doors.and_then(|d| u8::try_from(d).ok()),
        capacity: capacity.and_then(|c| u16::try_from(c).ok()),
        equipment: json_list(&equipment),
        adaptations: json_list(&adaptations),
        make: row.try_get("make")?,
        model: row.try_get("model")?,
    })
}

impl Store {
    /// Records a vehicle in `jurisdiction`'s register; `this_year` bounds the
    /// year of manufacture (a model of next year is accepted).
    pub async fn register_vehicle(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        vehicle: &Vehicle,
        this_year: i32,
    ) -> Result<Vehicle, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let done = self
            .register_vehicle_in(&mut tx, change, jurisdiction, vehicle, this_year)
            .await?;
        tx.commit().await?;
        Ok(done)
    }

    /// The same, within the caller's transaction (the import runs rows in its own).
    pub(crate) async fn register_vehicle_in(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        jurisdiction: &str,
        vehicle: &Vehicle,
        this_year: i32,
    ) -> Result<Vehicle, StoreError> {
        let manufactured = vehicle.manufactured;
        let vehicle = Vehicle {
            plate: parse_plate(&vehicle.plate)?,
            renavam: parse_renavam(&vehicle.renavam)?,
            colour: checked("cor", &vehicle.colour, TextKind::Name)?.to_string(),
            make: optional("marca", vehicle.make.as_deref(), TextKind::Name)?,
            model: optional("modelo", vehicle.model.as_deref(), TextKind::Name)?,
            equipment: names("equipamentos", &vehicle.equipment)?,
            adaptations: names("adaptações", &vehicle.adaptations)?,
            ..vehicle.clone()
        };
        if !(1950..=this_year + 1).contains(&manufactured) {
            return Err(StoreError::Invalid {
                field: "ano de fabricação",
                reason: format!("{manufactured} não é um ano entre 1950 e {}", this_year + 1),
            });
        }
        if vehicle.doors == Some(0) || vehicle.capacity == Some(0) {
            return Err(StoreError::Invalid {
                field: if vehicle.doors == Some(0) {
                    "portas"
                } else {
                    "lotação"
                },
                reason: "informe um número maior que zero ou deixe em branco".into(),
            });
        }
        let (plate, renavam) = (&vehicle.plate, &vehicle.renavam);
        let equipment = serde_json::json!(vehicle.equipment);
        let adaptations = serde_json::json!(vehicle.adaptations);
        self.known_jurisdiction(tx, jurisdiction).await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO vehicles (jurisdiction, {COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        )))
        .bind(jurisdiction)
        .bind(plate)
        .bind(renavam)
        .bind(i64::from(manufactured))
        .bind(&vehicle.colour)
        .bind(vehicle.doors.map(i64::from))
        .bind(vehicle.capacity.map(i64::from))
        .bind(equipment.to_string())
        .bind(adaptations.to_string())
        .bind(vehicle.make.as_deref())
        .bind(vehicle.model.as_deref())
        .execute(&mut **tx)
        .await
        .map_err(|e| {
            refused_if_taken(
                e,
                "placa ou renavam",
                format!("a placa {plate} ou o RENAVAM {renavam} já está cadastrado em {jurisdiction}"),
            )
        })?;
        append(
            tx,
            &self.audit,
            change,
            Entry {
                action: "vehicle.register",
                jurisdiction: Some(jurisdiction),
                subject: &format!("vehicle:{plate}"),
                detail: serde_json::json!({
                    "renavam": renavam, "manufactured": manufactured, "colour": vehicle.colour,
                    "make": vehicle.make, "model": vehicle.model,
                    "doors": vehicle.doors, "capacity": vehicle.capacity,
                    "equipment": equipment, "adaptations": adaptations,
                }),
                rows: vec![RowRef::new("vehicles", [jurisdiction.into(), plate.into()])],
            },
        )
        .await?;
        Ok(vehicle)
    }

    /// A page of `jurisdiction`'s vehicles, by plate (the table's key).
    pub async fn vehicles(
        &self,
        jurisdiction: &str,
        window: Window<'_>,
    ) -> Result<Page<Vehicle>, StoreError> {
        let rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        listing::page(&self.pool, &VEHICLES, &rows, window, vehicle_of).await
    }

    /// The vehicle with this plate in `jurisdiction`, if any.
    pub async fn vehicle(
        &self,
        jurisdiction: &str,
        plate: &str,
    ) -> Result<Option<Vehicle>, StoreError> {
        let plate = parse_plate(plate)?;
        let mut tx = self.pool.begin().await?;
        let found = read_vehicle(&mut tx, jurisdiction, &plate).await?;
        tx.commit().await?;
        Ok(found)
    }
}

/// The vehicle with this plate (already in its stored form), read in `tx`.
pub(crate) async fn read_vehicle(
    tx: &mut Tx,
    jurisdiction: &str,
    plate: &str,
) -> Result<Option<Vehicle>, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM vehicles WHERE jurisdiction = $1 AND plate = $2"
    )))
    .bind(jurisdiction)
    .bind(plate)
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(vehicle_of).transpose()
}
