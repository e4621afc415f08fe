//! What a stand's place leaves behind, read and written by the modules
//! that end a stretch (a permit that ends, a swap, a draw) and by the one
//! that fills a vacancy: a leaf, so `permits` and `stand_places` depend on
//! it and not on each other.

use crate::audit::images::RowRef;
use crate::{StoreError, Tx};
use chrono::NaiveDate;
use sqlx::Row;

worded! {
    /// How a permit left its stand.
    pub enum LeftBy {
        Swap = "swap" => "permuta",
        Relocation = "relocation" => "remanejamento",
        Draw = "draw" => "sorteio de vaga em outro ponto",
        Downtime = "downtime" => "perda do ponto (veículo parado)",
        PermitEnded = "permit_ended" => "fim da permissão",
    }
}

/// `permit` leaves its stand on `on` (the stretch ends the day before):
/// the row it changed, if it was at one.
pub(crate) async fn leave(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
    on: NaiveDate,
    how: LeftBy,
) -> Result<Option<RowRef>, StoreError> {
    let row = sqlx::query(
        "UPDATE stand_places SET left_on = $4, left_by = $5 WHERE jurisdiction = $1 \
         AND service = $2 AND number = $3 AND left_on IS NULL RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(on.to_string())
    .bind(how.name())
    .fetch_optional(&mut **tx)
    .await?;
    match row {
        Some(row) => {
            let seq: i64 = row.try_get("seq")?;
            Ok(Some(RowRef::new(
                "stand_places",
                [
                    jurisdiction.into(),
                    service.into(),
                    number.into(),
                    seq.into(),
                ],
            )))
        }
        None => Ok(None),
    }
}

/// The draw under way (open or closed) for the vacancies of `stand`, as
/// "número/ano".
pub(crate) async fn pending_draw(
    tx: &mut Tx,
    jurisdiction: &str,
    stand: &str,
) -> Result<Option<String>, StoreError> {
    let row = sqlx::query(
        "SELECT year, number FROM draws WHERE jurisdiction = $1 AND subject = $2 \
         AND status <> 'drawn'",
    )
    .bind(jurisdiction)
    .bind(format!("stand:{stand}"))
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|row| -> Result<String, StoreError> {
        let year: i64 = row.try_get("year")?;
        let number: i64 = row.try_get("number")?;
        Ok(format!("{number}/{year}"))
    })
    .transpose()
}
