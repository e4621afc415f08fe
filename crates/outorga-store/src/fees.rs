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

/// Charges `debtor` the fee `kind` (at the reduction `months_worked`
/// selects) on `on`, for `permit` when one: the debt's key.
async fn charge_in(
    tx: &mut Tx,
    (audit, ctx): (&Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    (kind, months_worked): (&str, Option<u32>),
    (debtor, permit, on): (&str, Option<i64>, NaiveDate),
) -> Result<Key, StoreError> {
    let rulebook = ctx.rulebook;
    let due = fee(ctx, kind, months_worked, on)?;
    let description = rulebook
        .fees
        .iter()
        .find(|f| f.kind == kind)
        .map_or(kind, |f| f.description.as_str());
    let due_on = crate::parameters::optional_deadline(ctx, DeadlineKind::FeePayment, on)?
        .map_or(on, |(day, _)| day);
    let number = next_number(tx, jurisdiction, "fee", on.year()).await?;
    let new = NewDebt {
        origin: Origin::Fee,
        key: (on.year(), number),
        rulebook: &rulebook.id,
        fee: Some(kind),
        article: due.citations.last().copied(),
        purpose: description.to_string(),
        permit,
        debtor,
        amount: &due.amount,
        issued_on: on,
        due_on,
        from_process: false,
    };
    insert_debt(tx, (audit, ctx), change, jurisdiction, &new).await
}

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
    let mut charged = Vec::new();
    for charge in ctx.rulebook.fees.iter().filter(|f| f.event == Some(event)) {
        charged.push(
            charge_in(
                tx,
                (audit, ctx),
                change,
                jurisdiction,
                (&charge.kind, None),
                (debtor, permit, on),
            )
            .await?,
        );
    }
    Ok(charged)
}

impl crate::Store {
    /// Issues on `on` a second copy of the valid document `code` (lost,
    /// damaged): a new code with the same subject, holder and validity,
    /// the old one cancelled; the holder is charged the law's fee for it
    /// (`second_copy`, Teófilo Otoni art. 103, IV).
    pub async fn second_copy(
        &self,
        change: &Change<'_>,
        rulebook: &outorga_core::model::Rulebook,
        jurisdiction: &str,
        (code, on): (&str, NaiveDate),
    ) -> Result<crate::Document, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let old = self
            .document(code)
            .await?
            .filter(|d| d.jurisdiction == jurisdiction)
            .ok_or_else(|| {
                StoreError::NotFound(format!("não há documento {code} nesta jurisdição"))
            })?;
        if !old.valid_on(on) {
            return Err(StoreError::Invalid {
                field: "documento",
                reason: format!(
                    "o documento {} não é válido em {}: emita um novo, não uma segunda via",
                    old.code,
                    on.format("%d/%m/%Y")
                ),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let copy = crate::documents::issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (&old.kind, &old.subject, &old.holder),
            on,
            old.valid_until,
        )
        .await?;
        let permit = old
            .subject
            .strip_prefix("permit:")
            .and_then(|rest| rest.rsplit(':').next())
            .and_then(|n| n.parse().ok());
        charge_event(
            &mut tx,
            (&self.audit, &ctx),
            change,
            jurisdiction,
            (FeeEvent::SecondCopy, &old.holder, permit, on),
        )
        .await?;
        tx.commit().await?;
        Ok(copy)
    }

    /// Charges `debtor` the rulebook's fee `kind` on `on` (for `permit`,
    /// when one), at the reduction `months_worked` selects (Teófilo Otoni
    /// art. 103, § 2º): a fee no event charges (a radio company's yearly
    /// cost, an external inspection, a suspension turned into a fine), or
    /// one a clerk charges by hand.
    pub async fn charge_fee(
        &self,
        change: &Change<'_>,
        rulebook: &outorga_core::model::Rulebook,
        jurisdiction: &str,
        charge: &FeeCharge,
    ) -> Result<crate::Debt, StoreError> {
        let rulebook = crate::under_law("data", charge.on, change, rulebook)?;
        let (debtor, _) = crate::parse_document(&charge.debtor)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        if crate::people::read(&mut *tx, jurisdiction, &debtor)
            .await?
            .is_none()
        {
            return Err(StoreError::NotFound(format!(
                "{debtor} não está cadastrado nesta jurisdição"
            )));
        }
        let key = charge_in(
            &mut tx,
            (&self.audit, &ctx),
            change,
            jurisdiction,
            (&charge.kind, charge.months_worked),
            (&debtor, charge.permit, charge.on),
        )
        .await?;
        let debt = crate::debts::one_debt(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(debt)
    }
}

/// A fee a clerk charges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeeCharge {
    /// The fee's kind in the rulebook (`cgo`, `second_copy`, …).
    pub kind: String,
    pub debtor: String,
    pub permit: Option<i64>,
    pub on: NaiveDate,
    /// Completed months of work, for a reduction.
    pub months_worked: Option<u32>,
}
