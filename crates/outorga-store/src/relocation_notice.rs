//! The notice a relocation waits for (`stand_notices.rs`), as the move
//! reads and marks it: a leaf, so `stand_places` (which moves) and
//! `stand_notices` (which records notices) do not depend on each other.

use crate::audit::images::RowRef;
use crate::dates::day;
use crate::{StoreError, Tx};
use chrono::NaiveDate;
use sqlx::Row;

/// The notice that precedes the move of `permit` from `stand` to
/// `destination`, not yet used by a relocation — the one notified first,
/// whose answer ends first —: its number and the day the holder was
/// notified.
pub(crate) async fn pending(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
    (stand, destination): (&str, &str),
) -> Result<Option<(i64, NaiveDate)>, StoreError> {
    let row = sqlx::query(
        "SELECT seq, notified_on FROM stand_notices WHERE jurisdiction = $1 AND service = $2 \
         AND number = $3 AND stand = $4 AND destination = $5 AND relocated_on IS NULL \
         ORDER BY notified_on, seq LIMIT 1",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(stand)
    .bind(destination)
    .fetch_optional(&mut **tx)
    .await?;
    row.map(|row| -> Result<(i64, NaiveDate), StoreError> {
        let notified: String = row.try_get("notified_on")?;
        Ok((row.try_get("seq")?, day(&notified)?))
    })
    .transpose()
}

/// The relocation the notice `seq` of `permit` preceded was made on `on`:
/// the row changed.
pub(crate) async fn used(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
    seq: i64,
    on: NaiveDate,
) -> Result<RowRef, StoreError> {
    sqlx::query(
        "UPDATE stand_notices SET relocated_on = $5 WHERE jurisdiction = $1 AND service = $2 \
         AND number = $3 AND seq = $4",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(seq)
    .bind(on.to_string())
    .execute(&mut **tx)
    .await?;
    Ok(RowRef::new(
        "stand_notices",
        [
            jurisdiction.into(),
            service.into(),
            number.into(),
            seq.into(),
        ],
    ))
}
