//! Fines owed and their payment.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::day;
use crate::listing::{self, Filter, Kind, List, Page, Window, day_range, renamed, text};
use crate::{Store, StoreError, Tx, articles};
use chrono::{Datelike, NaiveDate};
use outorga_core::Context;
use outorga_core::engine::fine_due::{accelerated, fine_due};
use outorga_core::model::{Amount, Rulebook};
use rust_decimal::Decimal;
use sqlx::Row;
use std::str::FromStr;

/// Whether `debtor` owes anything overdue on `today`: a debt not paid past
/// its due day, or the next unpaid parcel of a debt split into parcels past
/// the plan's day for it (Teófilo Otoni art. 101: a late parcel blocks).
pub(crate) async fn overdue(
    tx: &mut Tx,
    ctx: &Context<'_>,
    jurisdiction: &str,
    debtor: &str,
    today: NaiveDate,
) -> Result<bool, StoreError> {
    if whole_overdue(tx, jurisdiction, debtor, today).await? {
        return Ok(true);
    }
    for debt in debts_of(tx, jurisdiction, debtor).await? {
        let Some(parcels) = debt.installments.filter(|_| !debt.settled()) else {
            continue;
        };
        let plan = fine_due(
            ctx,
            &amount(&debt)?,
            debt.issued_on,
            today.max(debt.issued_on),
            Some(parcels),
            debt.from_process,
        )?
        .installments;
        let next = plan.and_then(|p| p.parcels.get(debt.payments.len()).map(|parcel| parcel.due));
        if next.is_some_and(|due| due < today) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether `debtor` has a debt paid at once (not split) past its due day.
/// The debtor's debts are read by `debts_by_debtor`: `due_on || ''` is not
/// an index condition, so no planner starts from every overdue debt of the
/// jurisdiction instead.
async fn whole_overdue(
    tx: &mut Tx,
    jurisdiction: &str,
    debtor: &str,
    today: NaiveDate,
) -> Result<bool, StoreError> {
    let row = sqlx::query(
        "SELECT COUNT(*) AS n FROM debts d WHERE d.jurisdiction = $1 AND d.debtor = $2 AND d.due_on || '' < $3 \
         AND d.installments IS NULL AND (SELECT COUNT(*) FROM payments p WHERE p.jurisdiction = d.jurisdiction AND p.year = d.year \
              AND p.number = d.number AND p.seq = d.seq) < COALESCE(d.installments, 1)",
    )
    .bind(jurisdiction)
    .bind(debtor)
    .bind(today.to_string())
    .fetch_one(&mut **tx)
    .await?;
    let n: i64 = row.try_get("n")?;
    Ok(n > 0)
}

/// Where a debt comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Origin {
    /// A fine of an auto (the auto's year and number, its place in it).
    Auto,
    /// A fee the law charges at its event (numbered in the `fee` series).
    Fee,
}

impl Origin {
    fn name(self) -> &'static str {
        match self {
            Origin::Auto => "auto",
            Origin::Fee => "fee",
        }
    }
}

/// A debt as recorded, with its payments: the ledger's row.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Debt {
    /// A fine: the auto (year, number) and its place in it; a fee: its
    /// year and number, place 0.
    pub year: i32,
    pub number: i64,
    pub seq: i64,
    pub origin: Origin,
    /// The rulebook it is owed under.
    pub rulebook: String,
    /// The fee's kind in the rulebook.
    pub fee: Option<String>,
    /// The article the amount rests on.
    pub article: Option<String>,
    /// What it is for, in Portuguese.
    pub purpose: String,
    /// The permit it concerns (its number), when one.
    pub permit: Option<i64>,
    pub debtor: String,
    pub unit: String,
    pub quantity: String,
    /// In reais at the unit's value on the day of issue, when known.
    pub brl_on_issue: Option<String>,
    pub issued_on: NaiveDate,
    pub due_on: NaiveDate,
    pub from_process: bool,
    pub installments: Option<u32>,
    /// The day the balance of its plan fell due at once, when it was paid
    /// so (Teófilo Otoni art. 98, § 3º).
    pub accelerated_on: Option<NaiveDate>,
    /// Its plan's parcels, when split (recorded since issue 13).
    pub schedule: Vec<Scheduled>,
    pub payments: Vec<Payment>,
}

/// A parcel of a plan: when it is due and how much, in the debt's unit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Scheduled {
    pub parcel: u32,
    pub due_on: NaiveDate,
    pub quantity: String,
}

impl Debt {
    pub fn settled(&self) -> bool {
        self.accelerated_on.is_some()
            || self.payments.len() as u32 >= self.installments.unwrap_or(1)
    }

    /// The debt's own number, the same on its slip, its PIX and a bank's
    /// return: year, number and place, 14 digits (`AAAANNNNNNNNSS`).
    pub fn own_number(&self) -> String {
        format!("{:04}{:08}{:02}", self.year, self.number, self.seq)
    }
}

/// How a payment was made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Means {
    /// A payment slip paid at a bank (or read from its return file).
    Guia,
    Pix,
    /// Cash at the department's counter.
    Caixa,
}

impl Means {
    pub const ALL: [Means; 3] = [Means::Guia, Means::Pix, Means::Caixa];

    /// The spelling in the record and the API.
    pub fn name(self) -> &'static str {
        match self {
            Means::Guia => "guia",
            Means::Pix => "pix",
            Means::Caixa => "caixa",
        }
    }

    pub fn parse(text: &str) -> Option<Means> {
        Means::ALL.into_iter().find(|m| m.name() == text)
    }

    /// As people read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            Means::Guia => "guia paga no banco",
            Means::Pix => "PIX",
            Means::Caixa => "dinheiro no caixa",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Payment {
    pub parcel: u32,
    pub paid_on: NaiveDate,
    pub quantity: String,
    pub brl: Option<String>,
    /// What was received, in centavos (not recorded before issue 13).
    pub cents: Option<i64>,
    pub means: Option<Means>,
    pub receipt: Option<String>,
}

/// A payment as a clerk (or a bank's return) records it: the day, the
/// means, what was received (none: what is due) and the receipt (none: one
/// is numbered).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentInput {
    pub on: NaiveDate,
    pub means: Means,
    pub cents: Option<i64>,
    pub receipt: Option<String>,
}

/// What paying a debt on a day costs, by the rulebook.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Due {
    pub unit: String,
    pub quantity: String,
    pub surcharge_percent: String,
    pub brl: Option<String>,
    /// Parcel being paid (1 of 1 when paid at once).
    pub parcel: u32,
    /// A parcel unpaid too long made the balance due at once on this day:
    /// what is due is every parcel left.
    pub balance_since: Option<NaiveDate>,
    pub articles: Vec<String>,
}

pub(crate) type Key = (i32, i64, i64);

const COLUMNS: &str = "year, number, seq, origin, rulebook, fee, article, purpose, permit, debtor, \
     unit, quantity, brl_on_issue, issued_on, due_on, from_process, installments, accelerated_on";

/// A debt's row, without its payments.
fn debt_of(row: &sqlx::any::AnyRow) -> Result<Debt, StoreError> {
    let year: i64 = row.try_get("year")?;
    let issued: String = row.try_get("issued_on")?;
    let due: String = row.try_get("due_on")?;
    let process: i64 = row.try_get("from_process")?;
    let installments: Option<i64> = row.try_get("installments")?;
    let accelerated: Option<String> = row.try_get("accelerated_on")?;
    let origin: String = row.try_get("origin")?;
    Ok(Debt {
        year: i32::try_from(year).unwrap_or_default(),
        number: row.try_get("number")?,
        seq: row.try_get("seq")?,
        origin: match origin.as_str() {
            "fee" => Origin::Fee,
            _ => Origin::Auto,
        },
        rulebook: row.try_get("rulebook")?,
        fee: row.try_get("fee")?,
        article: row.try_get("article")?,
        purpose: row.try_get("purpose")?,
        permit: row.try_get("permit")?,
        debtor: row.try_get("debtor")?,
        unit: row.try_get("unit")?,
        quantity: row.try_get("quantity")?,
        brl_on_issue: row.try_get("brl_on_issue")?,
        issued_on: day(&issued)?,
        due_on: day(&due)?,
        from_process: process != 0,
        installments: installments.and_then(|n| u32::try_from(n).ok()),
        accelerated_on: accelerated.as_deref().map(day).transpose()?,
        schedule: Vec::new(),
        payments: Vec::new(),
    })
}

/// `debts` with their plans' parcels and their payments, a query each.
async fn with_payments(
    tx: &mut Tx,
    jurisdiction: &str,
    mut debts: Vec<Debt>,
) -> Result<Vec<Debt>, StoreError> {
    if debts.is_empty() {
        return Ok(debts);
    }
    for (at, p) in rows_of(tx, jurisdiction, &debts, "parcels", "due_on, quantity").await? {
        let parcel: i64 = p.try_get("parcel")?;
        let due: String = p.try_get("due_on")?;
        debts[at].schedule.push(Scheduled {
            parcel: u32::try_from(parcel).unwrap_or_default(),
            due_on: day(&due)?,
            quantity: p.try_get("quantity")?,
        });
    }
    let columns = "paid_on, quantity, brl, cents, means, receipt";
    for (at, p) in rows_of(tx, jurisdiction, &debts, "payments", columns).await? {
        let parcel: i64 = p.try_get("parcel")?;
        let paid: String = p.try_get("paid_on")?;
        let means: Option<String> = p.try_get("means")?;
        debts[at].payments.push(Payment {
            parcel: u32::try_from(parcel).unwrap_or_default(),
            paid_on: day(&paid)?,
            quantity: p.try_get("quantity")?,
            brl: p.try_get("brl")?,
            cents: p.try_get("cents")?,
            means: means.as_deref().and_then(Means::parse),
            receipt: p.try_get("receipt")?,
        });
    }
    Ok(debts)
}

/// The rows of `table` (its `columns` besides the key and `parcel`) of
/// each of `debts`, in one query, by parcel, each with the place of its
/// debt in `debts`.
async fn rows_of(
    tx: &mut Tx,
    jurisdiction: &str,
    debts: &[Debt],
    table: &str,
    columns: &str,
) -> Result<Vec<(usize, sqlx::any::AnyRow)>, StoreError> {
    let which: Vec<String> = (0..debts.len())
        .map(|i| {
            let n = 2 + 3 * i;
            format!("(year = ${n} AND number = ${} AND seq = ${})", n + 1, n + 2)
        })
        .collect();
    let sql = format!(
        "SELECT year, number, seq, parcel, {columns} FROM {table} \
         WHERE jurisdiction = $1 AND ({}) ORDER BY year, number, seq, parcel",
        which.join(" OR ")
    );
    let mut query = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(jurisdiction);
    for debt in debts {
        query = query.bind(debt.year).bind(debt.number).bind(debt.seq);
    }
    let mut found = Vec::new();
    for row in query.fetch_all(&mut **tx).await? {
        let year: i64 = row.try_get("year")?;
        let (number, seq): (i64, i64) = (row.try_get("number")?, row.try_get("seq")?);
        if let Some(at) = debts
            .iter()
            .position(|d| i64::from(d.year) == year && d.number == number && d.seq == seq)
        {
            found.push((at, row));
        }
    }
    Ok(found)
}

/// The fines of an auto, with their payments.
pub(crate) async fn debts_of_auto(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Vec<Debt>, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM debts WHERE jurisdiction = $1 AND year = $2 AND number = $3 \
         AND origin = 'auto' ORDER BY seq"
    )))
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .fetch_all(&mut **tx)
    .await?;
    let debts = rows.iter().map(debt_of).collect::<Result<_, _>>()?;
    with_payments(tx, jurisdiction, debts).await
}

/// The debts of `debtor`, in the order they were issued (index
/// `debts_by_debtor`).
async fn debts_of(tx: &mut Tx, jurisdiction: &str, debtor: &str) -> Result<Vec<Debt>, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM debts WHERE jurisdiction = $1 AND debtor = $2 \
         ORDER BY issued_on, year, number, seq"
    )))
    .bind(jurisdiction)
    .bind(debtor)
    .fetch_all(&mut **tx)
    .await?;
    let debts = rows.iter().map(debt_of).collect::<Result<_, _>>()?;
    with_payments(tx, jurisdiction, debts).await
}

/// What staff search debts by; `None` admits any.
#[derive(Debug, Clone, Default)]
pub struct DebtFilter {
    /// CPF or CNPJ of the debtor.
    pub debtor: Option<String>,
    /// Issued on or after this day.
    pub from: Option<NaiveDate>,
    /// Issued on or before this day.
    pub to: Option<NaiveDate>,
}

/// Debts in the order they were issued (the day, then the auto and the
/// fine's place in it): indexes `debts_listed` and `debts_by_debtor`.
const DEBTS: List = List {
    name: "debts",
    table: "debts",
    columns: COLUMNS,
    key: &[
        ("issued_on", Kind::Text),
        ("year", Kind::Int),
        ("number", Kind::Int),
        ("seq", Kind::Int),
    ],
    descending: false,
};

/// Takes the debt's row lock (PostgreSQL) so a payment and a split of the
/// same debt are weighed one after the other, and refuses a debt edited
/// outside outorga (its amount, its parcels).
async fn lock_debt(
    tx: &mut Tx,
    audit: &crate::audit::Audit,
    jurisdiction: &str,
    key: Key,
) -> Result<Debt, StoreError> {
    sqlx::query(
        "UPDATE debts SET seq = seq WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
    )
    .bind(jurisdiction)
    .bind(key.0)
    .bind(key.1)
    .bind(key.2)
    .execute(&mut **tx)
    .await?;
    crate::audit::guard::unchanged(
        tx,
        &audit.schema,
        &[RowRef::new(
            "debts",
            [
                jurisdiction.into(),
                key.0.into(),
                key.1.into(),
                key.2.into(),
            ],
        )],
    )
    .await?;
    one_debt(tx, jurisdiction, key).await
}

/// One debt by its key (the primary key).
pub(crate) async fn one_debt(
    tx: &mut Tx,
    jurisdiction: &str,
    key: Key,
) -> Result<Debt, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM debts WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4"
    )))
    .bind(jurisdiction)
    .bind(key.0)
    .bind(key.1)
    .bind(key.2)
    .fetch_optional(&mut **tx)
    .await?;
    let debts = row.as_ref().map(debt_of).transpose()?.into_iter().collect();
    with_payments(tx, jurisdiction, debts)
        .await?
        .pop()
        .ok_or_else(|| {
            StoreError::NotFound(format!(
                "não há débito {} do auto nº {}/{} em {jurisdiction}",
                key.2, key.1, key.0
            ))
        })
}

fn amount(debt: &Debt) -> Result<Amount, StoreError> {
    Ok(Amount {
        unit: debt.unit.clone(),
        quantity: Decimal::from_str(&debt.quantity)
            .map_err(|_| StoreError::Corrupt(format!("debt quantity `{}`", debt.quantity)))?,
    })
}

/// What the next payment of `debt` on `on` is: the whole debt with the
/// surcharge of the day, or the next parcel of its plan.
pub(crate) fn next_due(ctx: &Context<'_>, debt: &Debt, on: NaiveDate) -> Result<Due, StoreError> {
    if debt.settled() {
        return Err(StoreError::Invalid {
            field: "débito",
            reason: "o débito já está quitado".into(),
        });
    }
    let due = fine_due(
        ctx,
        &amount(debt)?,
        debt.issued_on,
        on,
        debt.installments,
        debt.from_process,
    )?;
    let paid = debt.payments.len();
    let parcel = paid as u32 + 1;
    let mut citations = due.citations.clone();
    let mut balance_since = None;
    let quantity = match &due.installments {
        Some(plan) => match accelerated(ctx, plan, paid, on)? {
            Some((since, article)) => {
                balance_since = Some(since);
                citations.push(article);
                plan.parcels[paid..].iter().map(|p| p.quantity).sum()
            }
            None => plan.parcels.get(paid).map_or(due.quantity, |p| p.quantity),
        },
        None => due.quantity,
    };
    let brl = ctx
        .unit_value(&debt.unit, on)
        .and_then(|v| v.checked_mul(quantity))
        .map(|v| outorga_core::context::round_brl(v).to_string())
        .or_else(|| (debt.unit == "BRL").then(|| quantity.to_string()));
    Ok(Due {
        unit: debt.unit.clone(),
        quantity: quantity.normalize().to_string(),
        surcharge_percent: due.surcharge_percent.to_string(),
        brl,
        parcel,
        balance_since,
        articles: articles(&citations),
    })
}

impl Store {
    /// A debt with its payments.
    pub async fn debt(&self, jurisdiction: &str, key: Key) -> Result<Debt, StoreError> {
        let mut tx = self.pool.begin().await?;
        let debt = one_debt(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(debt)
    }

    /// A page of the debts of a jurisdiction that `filter` admits, in the
    /// order they were issued, with their payments.
    pub async fn debts(
        &self,
        jurisdiction: &str,
        filter: &DebtFilter,
        window: Window<'_>,
    ) -> Result<Page<Debt>, StoreError> {
        let debtor = filter
            .debtor
            .as_deref()
            .map(|d| renamed("devedor", crate::parse_document(d)))
            .transpose()?
            .map(|(d, _)| text(d));
        let (from, to) = day_range(filter.from, filter.to)?;
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .when("debtor = $?", debtor)
            .when("issued_on >= $?", from)
            .when("issued_on < $?", to);
        let mut tx = self.pool.begin().await?;
        let page = listing::page(&mut *tx, &DEBTS, &rows, window, debt_of).await?;
        let items = with_payments(&mut tx, jurisdiction, page.items).await?;
        tx.commit().await?;
        Ok(Page {
            items,
            next: page.next,
        })
    }

    /// What paying the debt on `on` costs.
    pub async fn debt_due(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: Key,
        on: NaiveDate,
    ) -> Result<Due, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let debt = one_debt(&mut tx, jurisdiction, key).await?;
        let due = next_due(&ctx, &debt, on)?;
        tx.commit().await?;
        Ok(due)
    }

    /// Records the payment of the debt (or its next parcel) on the input's
    /// day, for what the law says is due that day: the means, what was
    /// received (none: what is due) and the receipt (none: the next of the
    /// year's). Less than is due is refused; more becomes the debtor's
    /// credit.
    pub async fn pay_debt(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: Key,
        input: &PaymentInput,
    ) -> Result<Due, StoreError> {
        let rulebook = crate::under_law("data", input.on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let due = pay_in(
            &mut tx,
            (&self.audit, &ctx),
            change,
            jurisdiction,
            key,
            input,
        )
        .await?;
        tx.commit().await?;
        Ok(due)
    }

    /// Splits a debt not yet paid into `parcels`, if the law allows it.
    pub async fn split_debt(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: Key,
        (parcels, on): (u32, NaiveDate),
    ) -> Result<Debt, StoreError> {
        let rulebook = crate::under_law("data", on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let debt = lock_debt(&mut tx, &self.audit, jurisdiction, key).await?;
        if debt.origin == Origin::Fee {
            return Err(StoreError::Refused {
                reason: "a lei parcela multas, não taxas".into(),
                articles: rulebook
                    .installments
                    .as_ref()
                    .map(|i| vec![i.citation.to_string()])
                    .unwrap_or_default(),
            });
        }
        if !debt.payments.is_empty() || debt.installments.is_some() {
            return Err(StoreError::Invalid {
                field: "parcelas",
                reason: "só se parcela um débito ainda não pago nem parcelado".into(),
            });
        }
        let due = fine_due(
            &ctx,
            &amount(&debt)?,
            debt.issued_on,
            on,
            Some(parcels),
            debt.from_process,
        )?;
        if !due.installments.as_ref().is_some_and(|p| p.allowed) {
            return Err(StoreError::Refused {
                reason: format!("o parcelamento em {parcels} vezes não é admitido"),
                articles: articles(&due.citations),
            });
        }
        sqlx::query(
            "UPDATE debts SET installments = $5 WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(key.2)
        .bind(i64::from(parcels))
        .execute(&mut *tx)
        .await?;
        let mut rows = vec![RowRef::new(
            "debts",
            [
                jurisdiction.into(),
                key.0.into(),
                key.1.into(),
                key.2.into(),
            ],
        )];
        let schedule = due
            .installments
            .as_ref()
            .map_or(&[][..], |p| &p.parcels[..]);
        for (i, parcel) in schedule.iter().enumerate() {
            let n = i as i64 + 1;
            sqlx::query(
                "INSERT INTO parcels (jurisdiction, year, number, seq, parcel, due_on, quantity) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(jurisdiction)
            .bind(key.0)
            .bind(key.1)
            .bind(key.2)
            .bind(n)
            .bind(parcel.due.to_string())
            .bind(parcel.quantity.normalize().to_string())
            .execute(&mut *tx)
            .await?;
            rows.push(RowRef::new(
                "parcels",
                [
                    jurisdiction.into(),
                    key.0.into(),
                    key.1.into(),
                    key.2.into(),
                    n.into(),
                ],
            ));
        }
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "debt.split",
                jurisdiction: Some(jurisdiction),
                subject: &format!("debt:{}:{}:{}", key.0, key.1, key.2),
                detail: serde_json::json!({
                    "parcels": schedule.iter().map(|p| (p.due, p.quantity.normalize().to_string())).collect::<Vec<_>>(),
                    "articles": articles(&due.citations),
                }),
                rows,
            },
        )
        .await?;
        let debt = one_debt(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(debt)
    }
}

/// A debt to be written: an auto's fine or a fee.
pub(crate) struct NewDebt<'a> {
    pub(crate) origin: Origin,
    /// The auto's year and number, or the fee's.
    pub(crate) key: (i32, i64),
    pub(crate) rulebook: &'a str,
    pub(crate) fee: Option<&'a str>,
    pub(crate) article: Option<&'a str>,
    pub(crate) purpose: String,
    pub(crate) permit: Option<i64>,
    pub(crate) debtor: &'a str,
    pub(crate) amount: &'a Amount,
    pub(crate) issued_on: NaiveDate,
    pub(crate) due_on: NaiveDate,
    pub(crate) from_process: bool,
}

/// Writes `new` with its value in reais on the day of issue (when the
/// unit's value is known) and its audit entry; its place: an auto's next,
/// a fee's 0.
pub(crate) async fn insert_debt(
    tx: &mut Tx,
    (audit, ctx): (&crate::audit::Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    new: &NewDebt<'_>,
) -> Result<Key, StoreError> {
    let brl = ctx
        .unit_value(&new.amount.unit, new.issued_on)
        .and_then(|v| v.checked_mul(new.amount.quantity))
        .map(|v| outorga_core::context::round_brl(v).to_string());
    // An aggregate, so the SELECT gives one row even when no debt shares
    // the year and number yet.
    let next_seq = match new.origin {
        Origin::Auto => "COALESCE(MAX(seq), 0) + 1",
        Origin::Fee => "0 * COUNT(*)",
    };
    let quantity = new.amount.quantity.normalize().to_string();
    let seq: i64 = sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO debts (jurisdiction, year, number, seq, origin, rulebook, fee, article, purpose, permit, \
         debtor, unit, quantity, brl_on_issue, issued_on, due_on, from_process) \
         SELECT $1, $2, $3, {next_seq}, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16 FROM debts \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 RETURNING seq"
    )))
    .bind(jurisdiction)
    .bind(new.key.0)
    .bind(new.key.1)
    .bind(new.origin.name())
    .bind(new.rulebook)
    .bind(new.fee)
    .bind(new.article)
    .bind(&new.purpose)
    .bind(new.permit)
    .bind(new.debtor)
    .bind(&new.amount.unit)
    .bind(&quantity)
    .bind(brl.clone())
    .bind(new.issued_on.to_string())
    .bind(new.due_on.to_string())
    .bind(i32::from(new.from_process))
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    let (year, number) = new.key;
    append(
        tx,
        audit,
        change,
        Entry {
            action: "debt.create",
            jurisdiction: Some(jurisdiction),
            subject: &format!("debt:{year}:{number}:{seq}"),
            detail: serde_json::json!({
                "origin": new.origin.name(), "fee": new.fee, "debtor": new.debtor,
                "unit": new.amount.unit, "quantity": quantity, "brl_on_issue": brl,
                "issued_on": new.issued_on, "due_on": new.due_on, "article": new.article,
            }),
            rows: vec![RowRef::new(
                "debts",
                [jurisdiction.into(), year.into(), number.into(), seq.into()],
            )],
        },
    )
    .await?;
    Ok((year, number, seq))
}

/// Reais written as decimal text ("47.13") in centavos.
pub(crate) fn cents_of(text: &str) -> Result<i64, StoreError> {
    let value = Decimal::from_str(text)
        .map_err(|_| StoreError::Corrupt(format!("amount in reais `{text}`")))?;
    use rust_decimal::prelude::ToPrimitive;
    (outorga_core::context::round_brl(value) * Decimal::ONE_HUNDRED)
        .to_i64()
        .ok_or_else(|| StoreError::Corrupt(format!("amount in reais `{text}`")))
}

/// Centavos as people read them: "R$ 1.234,56".
pub(crate) fn brl_text(cents: i64) -> String {
    crate::brl::money(&Decimal::new(cents, 2).to_string())
}

/// Records `cents` paid beyond what `debt` owed on `on` as its debtor's
/// credit; the row for the audit entry.
pub(crate) async fn credit(
    tx: &mut Tx,
    jurisdiction: &str,
    (debt, cents, on): (&Debt, i64, NaiveDate),
    reason: &str,
) -> Result<RowRef, StoreError> {
    let seq: i64 = sqlx::query(
        "INSERT INTO credits (jurisdiction, person, seq, cents, arose_on, reason, year, number, debt_seq) \
         SELECT $1, $2, COALESCE(MAX(seq), 0) + 1, $3, $4, $5, $6, $7, $8 FROM credits \
         WHERE jurisdiction = $1 AND person = $2 RETURNING seq",
    )
    .bind(jurisdiction)
    .bind(&debt.debtor)
    .bind(cents)
    .bind(on.to_string())
    .bind(reason)
    .bind(debt.year)
    .bind(debt.number)
    .bind(debt.seq)
    .fetch_one(&mut **tx)
    .await?
    .try_get("seq")?;
    Ok(RowRef::new(
        "credits",
        [jurisdiction.into(), debt.debtor.clone().into(), seq.into()],
    ))
}

/// Records in `tx` the payment of the debt (or its next parcel) as `input`
/// says: what `Store::pay_debt` and a bank's return do.
pub(crate) async fn pay_in(
    tx: &mut Tx,
    (audit, ctx): (&crate::audit::Audit, &Context<'_>),
    change: &Change<'_>,
    jurisdiction: &str,
    key: Key,
    input: &PaymentInput,
) -> Result<Due, StoreError> {
    let on = input.on;
    let debt = lock_debt(tx, audit, jurisdiction, key).await?;
    let due = next_due(ctx, &debt, on)?;
    let owed = due.brl.as_deref().map(cents_of).transpose()?;
    let received = match (input.cents, owed) {
        (Some(cents), _) if cents <= 0 => {
            return Err(StoreError::Invalid {
                field: "valor",
                reason: "o valor recebido é maior que zero".into(),
            });
        }
        (Some(cents), Some(owed)) if cents < owed => {
            return Err(StoreError::Invalid {
                field: "valor",
                reason: format!(
                    "recebidos {}, mas o devido em {} é {}: receba o valor devido",
                    brl_text(cents),
                    on.format("%d/%m/%Y"),
                    brl_text(owed)
                ),
            });
        }
        (Some(cents), _) => cents,
        (None, Some(owed)) => owed,
        (None, None) => {
            return Err(StoreError::Invalid {
                field: "valor",
                reason: format!(
                    "o valor de {} em {} não está registrado: registre-o (unidades fiscais) ou informe o valor recebido",
                    debt.unit,
                    on.format("%d/%m/%Y")
                ),
            });
        }
    };
    let receipt = match &input.receipt {
        Some(r) => crate::text::required("recibo", r, crate::text::TextKind::Code)?.to_string(),
        None => {
            let n = crate::audit::next_number(tx, jurisdiction, "receipt", on.year()).await?;
            format!("{}-{n:06}", on.year())
        }
    };
    sqlx::query(
        "INSERT INTO payments (jurisdiction, year, number, seq, parcel, paid_on, quantity, brl, cents, means, receipt) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
    )
    .bind(jurisdiction)
    .bind(key.0)
    .bind(key.1)
    .bind(key.2)
    .bind(i64::from(due.parcel))
    .bind(on.to_string())
    .bind(&due.quantity)
    .bind(due.brl.clone())
    .bind(received)
    .bind(input.means.name())
    .bind(&receipt)
    .execute(&mut **tx)
    .await
    .map_err(|e| {
        crate::refused_if_taken(e, "recibo", format!("o recibo {receipt} já foi registrado"))
    })?;
    let mut rows = vec![RowRef::new(
        "payments",
        [
            jurisdiction.into(),
            key.0.into(),
            key.1.into(),
            key.2.into(),
            i64::from(due.parcel).into(),
        ],
    )];
    if let Some(since) = due.balance_since {
        sqlx::query(
            "UPDATE debts SET accelerated_on = $5 WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(key.2)
        .bind(since.to_string())
        .execute(&mut **tx)
        .await?;
        rows.push(RowRef::new(
            "debts",
            [
                jurisdiction.into(),
                key.0.into(),
                key.1.into(),
                key.2.into(),
            ],
        ));
    }
    if let Some(over) = owed.map(|owed| received - owed).filter(|over| *over > 0) {
        rows.push(
            credit(
                tx,
                jurisdiction,
                (&debt, over, on),
                "pago a mais que o devido",
            )
            .await?,
        );
    }
    append(
        tx,
        audit,
        change,
        Entry {
            action: "debt.payment",
            jurisdiction: Some(jurisdiction),
            subject: &format!("debt:{}:{}:{}", key.0, key.1, key.2),
            detail: serde_json::json!({
                "due": due, "cents": received, "means": input.means.name(), "receipt": receipt,
                // Paying a plan's first parcel is adhering to it (TO art. 98, § 1º).
                "adherence": debt.installments.is_some() && due.parcel == 1,
            }),
            rows,
        },
    )
    .await?;
    Ok(due)
}
