//! What the ledger reports: revenue by month and origin (payments by the day
//! they were made, index `payments_by_day`), and the debts overdue on a day
//! — the list a department sends to dívida ativa (index
//! `debts_falling_due`, and the parcels' `parcels_falling_due`).

use crate::dates::day;
use crate::open_data::csv_field as field;
use crate::{Store, StoreError};
use chrono::NaiveDate;
use sqlx::Row;

/// Revenue of a month from one origin.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct MonthRevenue {
    /// `AAAA-MM`.
    pub month: String,
    /// `auto` or `fee`.
    pub origin: String,
    /// The fee's kind (none for fines).
    pub fee: Option<String>,
    pub payments: i64,
    /// Received, in centavos (payments recorded before issue 13 have no
    /// amount and count only in `payments`).
    pub cents: i64,
}

/// A debt overdue on a day.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Overdue {
    pub own_number: String,
    pub debtor: String,
    pub purpose: String,
    pub article: Option<String>,
    pub unit: String,
    pub quantity: String,
    pub brl_on_issue: Option<String>,
    /// Its due day, or its first unpaid parcel's.
    pub due_on: NaiveDate,
    /// The first unpaid parcel, when split.
    pub parcel: Option<i64>,
}

impl Store {
    /// Revenue from `from` to `to` (inclusive) by month, origin and fee.
    pub async fn revenue(
        &self,
        jurisdiction: &str,
        (from, to): (NaiveDate, NaiveDate),
    ) -> Result<Vec<MonthRevenue>, StoreError> {
        let rows = sqlx::query(
            "SELECT substr(p.paid_on, 1, 7) AS month, d.origin AS origin, d.fee AS fee, \
             COUNT(*) AS payments, CAST(COALESCE(SUM(p.cents), 0) AS BIGINT) AS cents \
             FROM payments p JOIN debts d ON d.jurisdiction = p.jurisdiction AND d.year = p.year \
             AND d.number = p.number AND d.seq = p.seq \
             WHERE p.jurisdiction = $1 AND p.paid_on >= $2 AND p.paid_on <= $3 \
             GROUP BY substr(p.paid_on, 1, 7), d.origin, d.fee \
             ORDER BY month, origin, fee",
        )
        .bind(jurisdiction)
        .bind(from.to_string())
        .bind(to.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                Ok(MonthRevenue {
                    month: row.try_get("month")?,
                    origin: row.try_get("origin")?,
                    fee: row.try_get("fee")?,
                    payments: row.try_get("payments")?,
                    cents: row.try_get("cents")?,
                })
            })
            .collect()
    }

    /// The debts overdue on `today`: paid at once and unpaid past their
    /// due day, or split with a parcel unpaid past its day (the first).
    pub async fn overdue_debts(
        &self,
        jurisdiction: &str,
        today: NaiveDate,
    ) -> Result<Vec<Overdue>, StoreError> {
        let rows = sqlx::query(
            "SELECT d.year, d.number, d.seq, d.debtor, d.purpose, d.article, d.unit, d.quantity, \
             d.brl_on_issue, d.due_on, NULL AS parcel FROM debts d \
             WHERE d.jurisdiction = $1 AND d.due_on < $2 AND d.installments IS NULL \
             AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.jurisdiction = d.jurisdiction \
             AND p.year = d.year AND p.number = d.number AND p.seq = d.seq) \
             UNION ALL \
             SELECT d.year, d.number, d.seq, d.debtor, d.purpose, d.article, d.unit, d.quantity, \
             d.brl_on_issue, MIN(s.due_on) AS due_on, MIN(s.parcel) AS parcel \
             FROM parcels s JOIN debts d ON d.jurisdiction = s.jurisdiction AND d.year = s.year \
             AND d.number = s.number AND d.seq = s.seq \
             WHERE s.jurisdiction = $1 AND s.due_on < $2 AND d.accelerated_on IS NULL \
             AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.jurisdiction = s.jurisdiction \
             AND p.year = s.year AND p.number = s.number AND p.seq = s.seq AND p.parcel >= s.parcel) \
             GROUP BY d.year, d.number, d.seq, d.debtor, d.purpose, d.article, d.unit, d.quantity, \
             d.brl_on_issue \
             ORDER BY due_on, year, number, seq",
        )
        .bind(jurisdiction)
        .bind(today.to_string())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let (year, number, seq): (i64, i64, i64) = (
                    row.try_get("year")?,
                    row.try_get("number")?,
                    row.try_get("seq")?,
                );
                let due: String = row.try_get("due_on")?;
                Ok(Overdue {
                    own_number: format!("{year:04}{number:08}{seq:02}"),
                    debtor: row.try_get("debtor")?,
                    purpose: row.try_get("purpose")?,
                    article: row.try_get("article")?,
                    unit: row.try_get("unit")?,
                    quantity: row.try_get("quantity")?,
                    brl_on_issue: row.try_get("brl_on_issue")?,
                    due_on: day(&due)?,
                    parcel: row.try_get("parcel")?,
                })
            })
            .collect()
    }
}

/// Revenue as CSV (UTF-8, `;`): month, origin, fee, payments, reais.
pub fn revenue_csv(rows: &[MonthRevenue]) -> String {
    let mut out = String::from("mes;origem;taxa;pagamentos;reais\n");
    for r in rows {
        let origin = if r.origin == "fee" { "taxa" } else { "multa" };
        out.push_str(&format!(
            "{};{origin};{};{};{}\n",
            r.month,
            field(r.fee.as_deref().unwrap_or("")),
            r.payments,
            rust_decimal::Decimal::new(r.cents, 2)
        ));
    }
    out
}

/// Overdue debts as CSV (UTF-8, `;`), for dívida ativa.
pub fn overdue_csv(rows: &[Overdue]) -> String {
    let mut out = String::from(
        "nosso_numero;devedor;referente;artigo;unidade;quantidade;reais_no_lancamento;vencimento;parcela\n",
    );
    for r in rows {
        out.push_str(&format!(
            "{};{};{};{};{};{};{};{};{}\n",
            r.own_number,
            r.debtor,
            field(&r.purpose),
            field(r.article.as_deref().unwrap_or("")),
            r.unit,
            r.quantity,
            r.brl_on_issue.as_deref().unwrap_or(""),
            r.due_on,
            r.parcel.map_or(String::new(), |p| p.to_string()),
        ));
    }
    out
}
