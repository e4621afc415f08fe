//! The bar that follows a delegation's caducity (Amapá art. 18, § 6º): what
//! the record says of a holder asking for a new grant or authorization —
//! the rule is the core's `permit_life::caducity_bar`.

use crate::dates::day;
use crate::{StoreError, Tx};
use chrono::NaiveDate;
use sqlx::Row;

/// Why `holder` may not take a new delegation on `on`: a delegation of
/// theirs ended by caducity whose bar (the core's `caducity_bar`) has not
/// run out — the reason and its article; none when free.
pub(crate) async fn caducity_bar(
    tx: &mut Tx,
    ctx: &outorga_core::Context<'_>,
    jurisdiction: &str,
    holder: &str,
    on: NaiveDate,
) -> Result<Option<(String, String)>, StoreError> {
    let row = sqlx::query(
        "SELECT MAX(h.since) AS declared FROM permit_history h JOIN permits p \
         ON p.jurisdiction = h.jurisdiction AND p.service = h.service AND p.number = h.number \
         WHERE h.jurisdiction = $1 AND p.holder = $2 AND h.ground = 'caducity'",
    )
    .bind(jurisdiction)
    .bind(holder)
    .fetch_one(&mut **tx)
    .await?;
    let Some(declared) = row.try_get::<Option<String>, _>("declared")? else {
        return Ok(None);
    };
    let declared = day(&declared)?;
    Ok(
        outorga_core::engine::permit_life::caducity_bar(ctx, declared, on)?.map(|(until, article)| {
            (
                format!(
                    "a caducidade de uma delegação sua foi declarada em {}: nova delegação só depois de {}",
                    declared.format("%d/%m/%Y"),
                    until.format("%d/%m/%Y")
                ),
                article.to_string(),
            )
        }),
    )
}
