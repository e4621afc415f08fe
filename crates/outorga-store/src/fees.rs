//! The fees a rulebook charges at their events (Teófilo Otoni art. 103):
//! each becomes a debt of whoever the event concerns, numbered per
//! jurisdiction and year in the `fee` series, with its article and its due
//! date from the law's `fee_payment` limit (on the day of the event when
//! the law sets none).

use crate::audit::{Audit, Change, next_number};
use crate::debts::{Key, NewDebt, Origin, insert_debt};
use crate::{StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use outorga_core::Context;
use outorga_core::engine::fee::fee;
use outorga_core::model::{DeadlineKind, FeeEvent};

/// Charges `debtor` every fee of the context's rulebook that `event`
/// makes due on `on`, for `permit` (its number) when one: the debts'
/// keys.
pub(crate) async fn charge_event(
    tx: &mut Tx,
    (audit, ctx): (&Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    (event, debtor, permit, on): (FeeEvent, &str, Option<i64>, NaiveDate),
) -> Result<Vec<Key>, StoreError> {
    let rulebook = ctx.rulebook;
    let mut charged = Vec::new();
    for charge in rulebook.fees.iter().filter(|f| f.event == Some(event)) {
        let due = fee(ctx, &charge.kind, None, on)?;
        let due_on = crate::parameters::optional_deadline(ctx, DeadlineKind::FeePayment, on)?
            .map_or(on, |(day, _)| day);
        let number = next_number(tx, jurisdiction, "fee", on.year()).await?;
        let new = NewDebt {
            origin: Origin::Fee,
            key: (on.year(), number),
            rulebook: &rulebook.id,
            fee: Some(&charge.kind),
            article: due.citations.first().copied(),
            purpose: charge.description.clone(),
            permit,
            debtor,
            amount: &due.amount,
            issued_on: on,
            due_on,
            from_process: false,
        };
        charged.push(insert_debt(tx, (audit, ctx), change, jurisdiction, &new).await?);
    }
    Ok(charged)
}
