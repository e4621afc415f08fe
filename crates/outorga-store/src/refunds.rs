//! Refunds of what was paid for a debt (Teófilo Otoni art. 96, § 3º: "a
//! restituição … será feita no prazo de 30 dias, contados da data do
//! requerimento", when a defense or appeal is upheld, a fine was paid twice
//! or wrongly assessed): asked with its ground, due within the law's limit
//! (`refund` deadline; none: the day it is asked), on the agenda until paid
//! back.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::debts::{self, Key};
use crate::{Store, StoreError};
use chrono::NaiveDate;
use outorga_core::model::{DeadlineKind, Rulebook};
use sqlx::Row;

/// Why a refund is owed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum RefundGround {
    /// A defense or appeal upheld after the payment.
    Upheld,
    /// Paid twice.
    PaidTwice,
    /// Assessed wrongly.
    WrongAssessment,
}

impl RefundGround {
    pub const ALL: [RefundGround; 3] = [
        RefundGround::Upheld,
        RefundGround::PaidTwice,
        RefundGround::WrongAssessment,
    ];

    /// The spelling in the record.
    pub fn name(self) -> &'static str {
        match self {
            RefundGround::Upheld => "upheld",
            RefundGround::PaidTwice => "paid_twice",
            RefundGround::WrongAssessment => "wrong_assessment",
        }
    }

    pub fn parse(text: &str) -> Option<RefundGround> {
        RefundGround::ALL.into_iter().find(|g| g.name() == text)
    }

    /// As people read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            RefundGround::Upheld => "defesa ou recurso provido depois do pagamento",
            RefundGround::PaidTwice => "pagamento em duplicidade",
            RefundGround::WrongAssessment => "lançamento indevido",
        }
    }
}

/// A refund asked for a debt.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Refund {
    pub requested_on: NaiveDate,
    pub ground: RefundGround,
    pub cents: i64,
    /// The last day to pay it back.
    pub due_by: NaiveDate,
    pub article: Option<String>,
    pub refunded_on: Option<NaiveDate>,
}

fn key_row(jurisdiction: &str, key: Key) -> RowRef {
    RowRef::new(
        "refunds",
        [
            jurisdiction.into(),
            key.0.into(),
            key.1.into(),
            key.2.into(),
        ],
    )
}

impl Store {
    /// The refund asked for a debt, if any.
    pub async fn refund(&self, jurisdiction: &str, key: Key) -> Result<Option<Refund>, StoreError> {
        let row = sqlx::query(
            "SELECT requested_on, ground, cents, due_by, article, refunded_on FROM refunds \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(key.2)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|row| {
            let day = |column: &str| -> Result<Option<NaiveDate>, StoreError> {
                let text: Option<String> = row.try_get(column)?;
                text.as_deref().map(crate::dates::day).transpose()
            };
            let ground: String = row.try_get("ground")?;
            Ok(Refund {
                requested_on: day("requested_on")?.unwrap_or_default(),
                ground: RefundGround::parse(&ground)
                    .ok_or_else(|| StoreError::Corrupt(format!("refund ground `{ground}`")))?,
                cents: row.try_get("cents")?,
                due_by: day("due_by")?.unwrap_or_default(),
                article: row.try_get("article")?,
                refunded_on: day("refunded_on")?,
            })
        })
        .transpose()
    }

    /// Records a refund asked on `on` for what was paid for the debt (or
    /// `cents` of it), due within the law's limit.
    pub async fn request_refund(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: Key,
        (on, ground, cents): (NaiveDate, RefundGround, Option<i64>),
    ) -> Result<Refund, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let debt = debts::one_debt(&mut tx, jurisdiction, key).await?;
        let paid: i64 = debt.payments.iter().filter_map(|p| p.cents).sum();
        if paid == 0 {
            return Err(StoreError::Invalid {
                field: "debito",
                reason: "não há pagamento com valor registrado neste débito: nada a restituir"
                    .into(),
            });
        }
        let cents = cents.unwrap_or(paid);
        if cents <= 0 || cents > paid {
            return Err(StoreError::Invalid {
                field: "valor",
                reason: format!(
                    "a restituição vai de R$ 0,01 até o que foi pago, {}",
                    debts::brl_text(paid)
                ),
            });
        }
        if let Some(first) = debt.payments.first()
            && on < first.paid_on
        {
            return Err(StoreError::Invalid {
                field: "data",
                reason: "o pedido de restituição é posterior ao pagamento".into(),
            });
        }
        let (due_by, article) =
            crate::parameters::optional_deadline(&ctx, DeadlineKind::Refund, on)?
                .map_or((on, None), |(day, article)| (day, Some(article)));
        sqlx::query(
            "INSERT INTO refunds (jurisdiction, year, number, seq, requested_on, ground, cents, due_by, article) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(key.2)
        .bind(on.to_string())
        .bind(ground.name())
        .bind(cents)
        .bind(due_by.to_string())
        .bind(article.clone())
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            crate::refused_if_taken(e, "debito", "já há pedido de restituição deste débito".into())
        })?;
        let refund = Refund {
            requested_on: on,
            ground,
            cents,
            due_by,
            article,
            refunded_on: None,
        };
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "debt.refund_requested",
                jurisdiction: Some(jurisdiction),
                subject: &format!("debt:{}:{}:{}", key.0, key.1, key.2),
                detail: serde_json::to_value(&refund).unwrap_or_default(),
                rows: vec![key_row(jurisdiction, key)],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(refund)
    }

    /// Records the refund of the debt paid back on `on`.
    pub async fn refund_paid(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: Key,
        on: NaiveDate,
    ) -> Result<Refund, StoreError> {
        crate::under_law("data", on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        crate::audit::guard::unchanged(&mut tx, &self.audit.schema, &[key_row(jurisdiction, key)])
            .await?;
        let updated = sqlx::query(
            "UPDATE refunds SET refunded_on = $5 WHERE jurisdiction = $1 AND year = $2 \
             AND number = $3 AND seq = $4 AND refunded_on IS NULL AND requested_on <= $5",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(key.2)
        .bind(on.to_string())
        .execute(&mut *tx)
        .await?;
        if updated.rows_affected() == 0 {
            return Err(StoreError::Invalid {
                field: "restituicao",
                reason: "não há restituição pedida e ainda não paga deste débito até esta data"
                    .into(),
            });
        }
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "debt.refunded",
                jurisdiction: Some(jurisdiction),
                subject: &format!("debt:{}:{}:{}", key.0, key.1, key.2),
                detail: serde_json::json!({ "on": on }),
                rows: vec![key_row(jurisdiction, key)],
            },
        )
        .await?;
        tx.commit().await?;
        self.refund(jurisdiction, key)
            .await?
            .ok_or_else(|| StoreError::Corrupt("refund vanished".into()))
    }
}
