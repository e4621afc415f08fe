//! The register of vehicles of a jurisdiction: plate, RENAVAM, year.

use crate::{Store, StoreError, refused_if_taken};
use sqlx::Row;

/// A vehicle as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vehicle {
    /// Upper case, without hyphen: ABC1234 or ABC1D23.
    pub plate: String,
    /// 11 digits.
    pub renavam: String,
    pub manufactured: i32,
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

impl Store {
    /// Records a vehicle in `jurisdiction`'s register; `this_year` bounds the
    /// year of manufacture (a model of next year is accepted).
    pub async fn register_vehicle(
        &self,
        jurisdiction: &str,
        (plate, renavam): (&str, &str),
        manufactured: i32,
        this_year: i32,
    ) -> Result<Vehicle, StoreError> {
        let plate = parse_plate(plate)?;
        let renavam = parse_renavam(renavam)?;
        if !(1950..=this_year + 1).contains(&manufactured) {
            return Err(StoreError::Invalid {
                field: "ano de fabricação",
                reason: format!("{manufactured} não é um ano entre 1950 e {}", this_year + 1),
            });
        }
        let mut tx = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        sqlx::query(
            "INSERT INTO vehicles (jurisdiction, plate, renavam, manufactured) VALUES ($1, $2, $3, $4)",
        )
        .bind(jurisdiction)
        .bind(&plate)
        .bind(&renavam)
        .bind(i64::from(manufactured))
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            refused_if_taken(
                e,
                "placa ou renavam",
                format!("a placa {plate} ou o RENAVAM {renavam} já está cadastrado em {jurisdiction}"),
            )
        })?;
        tx.commit().await?;
        Ok(Vehicle {
            plate,
            renavam,
            manufactured,
        })
    }

    /// The vehicle with this plate in `jurisdiction`, if any.
    pub async fn vehicle(
        &self,
        jurisdiction: &str,
        plate: &str,
    ) -> Result<Option<Vehicle>, StoreError> {
        let plate = parse_plate(plate)?;
        let row = sqlx::query(
            "SELECT plate, renavam, manufactured FROM vehicles WHERE jurisdiction = $1 AND plate = $2",
        )
        .bind(jurisdiction)
        .bind(&plate)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            let year: i64 = row.try_get("manufactured")?;
            Ok(Vehicle {
                plate: row.try_get("plate")?,
                renavam: row.try_get("renavam")?,
                manufactured: i32::try_from(year).unwrap_or(i32::MAX),
            })
        })
        .transpose()
    }
}
