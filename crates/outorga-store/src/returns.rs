//! A bank's return file of paid slips (FEBRABAN arrecadação, 150
//! positions, read by `outorga-guia`): each paid slip of this jurisdiction's
//! agreement pays its debt for the amount and day the bank gives, through
//! the same path a clerk's payment takes (`debts::pay_in`), all in one
//! transaction; every line that cannot be matched is reported and pays
//! nothing. A file (bank and sequence number) is imported once; a slip paid
//! after its debt was settled is the debtor's credit, never a second
//! payment.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::debts::{self, Key, Means, PaymentInput};
use crate::{Store, StoreError, Tx};
use outorga_core::model::Rulebook;
use serde::Serialize;

/// What importing a return file did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReturnReport {
    pub bank: u16,
    pub nsa: u32,
    /// Lines that paid a debt: (line, debt, centavos, receipt).
    pub paid: Vec<(usize, Key, i64, String)>,
    /// Lines whose money became a credit (a debt already settled): (line,
    /// debt, centavos).
    pub credited: Vec<(usize, Key, i64)>,
    /// Lines that paid nothing, and why: (line, message).
    pub unmatched: Vec<(usize, String)>,
}

/// The debt a slip's code names: its agreement must be this jurisdiction's,
/// and its last 14 digits the debt's own number (`Debt::own_number`).
fn debt_of_code(codigo: &str, company: &str) -> Result<Key, String> {
    let agreement = codigo.get(15..19).unwrap_or_default();
    if agreement != company {
        return Err(format!(
            "o convênio da guia é {agreement}, não {company}: não é guia desta jurisdição"
        ));
    }
    let own = codigo
        .get(codigo.len().saturating_sub(14)..)
        .unwrap_or_default();
    let parse = |range: std::ops::Range<usize>| own.get(range).and_then(|d| d.parse::<i64>().ok());
    match (parse(0..4), parse(4..12), parse(12..14)) {
        (Some(year), Some(number), Some(seq)) if year >= 1900 => {
            Ok((i32::try_from(year).unwrap_or_default(), number, seq))
        }
        _ => Err(format!("o nosso número {own} não é de um débito")),
    }
}

impl Store {
    /// Imports a bank's return file for `jurisdiction`, whose debts are owed
    /// under `rulebooks`.
    pub async fn import_return(
        &self,
        change: &Change<'_>,
        rulebooks: &[&Rulebook],
        jurisdiction: &str,
        text: &str,
    ) -> Result<ReturnReport, StoreError> {
        let file = outorga_guia::read_return(text);
        let invalid = |reason: String| StoreError::Invalid {
            field: "arquivo",
            reason,
        };
        let Some(header) = &file.header else {
            let why = file
                .problems
                .first()
                .map_or_else(|| "o arquivo está vazio".to_string(), ToString::to_string);
            return Err(invalid(format!(
                "não é um arquivo retorno de arrecadação (registro A): {why}"
            )));
        };
        let settings = self.payment_settings(jurisdiction).await?.ok_or_else(|| {
            invalid("a jurisdição não tem convênio de arrecadação registrado".into())
        })?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let known = sqlx::query(
            "SELECT file_date FROM bank_returns WHERE jurisdiction = $1 AND bank = $2 AND nsa = $3",
        )
        .bind(jurisdiction)
        .bind(i64::from(header.bank_code))
        .bind(i64::from(header.nsa))
        .fetch_optional(&mut *tx)
        .await?;
        if known.is_some() {
            return Err(StoreError::Taken {
                field: "arquivo",
                reason: format!(
                    "o retorno nº {} do banco {} já foi importado",
                    header.nsa, header.bank_code
                ),
            });
        }
        let mut report = ReturnReport {
            bank: header.bank_code,
            nsa: header.nsa,
            paid: Vec::new(),
            credited: Vec::new(),
            unmatched: file
                .problems
                .iter()
                .map(|p| (p.line, p.message.clone()))
                .collect(),
        };
        let mut rows = vec![RowRef::new(
            "bank_returns",
            [
                jurisdiction.into(),
                i64::from(header.bank_code).into(),
                i64::from(header.nsa).into(),
            ],
        )];
        for paid in &file.payments {
            let key = match debt_of_code(&paid.codigo_barras, &settings.company) {
                Ok(key) => key,
                Err(why) => {
                    report.unmatched.push((paid.line, why));
                    continue;
                }
            };
            let cents = i64::try_from(paid.cents).unwrap_or(i64::MAX);
            let receipt = format!("{}-{}-{}", header.bank_code, header.nsa, paid.nsr);
            match self
                .returned(
                    &mut tx,
                    (change, rulebooks),
                    jurisdiction,
                    key,
                    (cents, paid.paid_on, &receipt),
                )
                .await
            {
                Ok(Returned::Paid) => report.paid.push((paid.line, key, cents, receipt)),
                Ok(Returned::Credited(row)) => {
                    rows.push(row);
                    report.credited.push((paid.line, key, cents));
                }
                Err(
                    StoreError::Invalid { reason, .. }
                    | StoreError::NotFound(reason)
                    | StoreError::Refused { reason, .. },
                ) => report.unmatched.push((paid.line, reason)),
                Err(other) => return Err(other),
            }
        }
        report.unmatched.sort();
        sqlx::query(
            "INSERT INTO bank_returns (jurisdiction, bank, nsa, file_date, paid, unmatched, report) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(jurisdiction)
        .bind(i64::from(header.bank_code))
        .bind(i64::from(header.nsa))
        .bind(header.file_date.to_string())
        .bind(report.paid.len() as i64)
        .bind(report.unmatched.len() as i64)
        .bind(serde_json::to_string(&report).unwrap_or_default())
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "debt.bank_return",
                jurisdiction: Some(jurisdiction),
                subject: &format!("bank_return:{}:{}", header.bank_code, header.nsa),
                detail: serde_json::json!({
                    "paid": report.paid.len(), "credited": report.credited.len(),
                    "unmatched": report.unmatched,
                }),
                rows,
            },
        )
        .await?;
        tx.commit().await?;
        Ok(report)
    }

    /// One paid slip of a return: the debt's payment, or, when it is
    /// already settled, the debtor's credit. A refusal leaves nothing
    /// written (its savepoint is rolled back).
    async fn returned(
        &self,
        tx: &mut Tx,
        (change, rulebooks): (&Change<'_>, &[&Rulebook]),
        jurisdiction: &str,
        key: Key,
        (cents, on, receipt): (i64, chrono::NaiveDate, &str),
    ) -> Result<Returned, StoreError> {
        sqlx::query("SAVEPOINT returned").execute(&mut **tx).await?;
        let outcome = async {
            let debt = debts::one_debt(tx, jurisdiction, key).await?;
            let rulebook = rulebooks
                .iter()
                .find(|r| r.id == debt.rulebook)
                .ok_or_else(|| {
                    StoreError::NotFound(format!(
                        "o regulamento {} não está carregado",
                        debt.rulebook
                    ))
                })?;
            if debt.settled() {
                let row = debts::credit(
                    tx,
                    jurisdiction,
                    (&debt, cents, on),
                    &format!("guia paga depois de quitado o débito (retorno {receipt})"),
                )
                .await?;
                return Ok(Returned::Credited(row));
            }
            let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
            let input = PaymentInput {
                on,
                means: Means::Guia,
                cents: Some(cents),
                receipt: Some(receipt.to_string()),
            };
            debts::pay_in(tx, (&self.audit, &ctx), change, jurisdiction, key, &input).await?;
            Ok(Returned::Paid)
        }
        .await;
        let end = if outcome.is_ok() {
            "RELEASE SAVEPOINT returned"
        } else {
            "ROLLBACK TO SAVEPOINT returned"
        };
        sqlx::query(end).execute(&mut **tx).await?;
        outcome
    }
}

/// What one paid slip did.
enum Returned {
    /// Its debt paid (the payment's own audit entry names its rows).
    Paid,
    Credited(RowRef),
}
