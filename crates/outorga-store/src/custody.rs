//! The custody of a vehicle an auto held on the spot (retained or seized):
//! where it is kept and by whom, from when; the expenses its owner bears as
//! the law puts them (Amapá art. 64, §§ 1º–2º); the irregularity corrected;
//! and whether it may be released — the core's `engine::custody` weighs the
//! measure's minimum time and the rulebook's conditions. The release itself
//! is the procedure's `release` step (`process.rs`), which asks
//! [`check_release`] first and records the act here.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::auto_record::{Auto, read_auto};
use crate::dates::{day, moment, moment_text};
use crate::text::{TextKind, required};
use crate::{Store, StoreError, Tx};
use chrono::{NaiveDate, NaiveDateTime, NaiveTime};
use outorga_core::engine::custody::{self as law, Check, Held, Requirement, Standing};
use outorga_core::engine::process::Status;
use outorga_core::model::{CustodyRule, ExpenseKind, Rulebook, SanctionKind};
use rust_decimal::Decimal;
use sqlx::Row;

/// The most a custody expense may be, in reais.
const MAX_EXPENSE: i64 = 10_000_000;

/// Where and by whom a held vehicle is kept, from when.
#[derive(Debug, Clone)]
pub struct CustodyInput {
    pub held_at: NaiveDateTime,
    pub place: String,
    pub custodian: String,
}

/// An expense of the custody, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustodyExpense {
    pub seq: i64,
    pub kind: ExpenseKind,
    pub description: String,
    pub amount: Decimal,
    pub incurred_on: NaiveDate,
    pub paid_on: Option<NaiveDate>,
    pub receipt: Option<String>,
}

/// An expense to record.
#[derive(Debug, Clone)]
pub struct ExpenseInput {
    pub kind: ExpenseKind,
    pub description: String,
    pub amount: Decimal,
    pub incurred_on: NaiveDate,
}

/// A vehicle's custody, as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Custody {
    pub year: i32,
    pub number: i64,
    pub kind: SanctionKind,
    pub plate: String,
    pub held_at: NaiveDateTime,
    pub place: String,
    pub custodian: String,
    pub opened_by: String,
    pub corrected_at: Option<NaiveDateTime>,
    pub correction: Option<String>,
    pub released_at: Option<NaiveDateTime>,
    pub release_act: Option<String>,
    pub released_by: Option<String>,
    pub expenses: Vec<CustodyExpense>,
}

/// One requirement of the release, as the staff read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleaseCheck {
    /// What is required, in Portuguese.
    pub what: String,
    pub met: bool,
    pub detail: String,
    pub citation: String,
}

/// A custody with what its release requires at a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustodyView {
    pub custody: Custody,
    pub checks: Vec<ReleaseCheck>,
    /// The expenses the law lets the record charge for this measure, with
    /// their articles.
    pub chargeable: Vec<(ExpenseKind, String)>,
}

impl CustodyView {
    pub fn releasable(&self) -> bool {
        self.custody.released_at.is_none() && self.checks.iter().all(|c| c.met)
    }
}

const COLUMNS: &str = "year, number, kind, plate, held_at, place, custodian, opened_by, corrected_at, \
     correction, released_at, release_act, released_by";

fn custody_of(row: &sqlx::any::AnyRow) -> Result<Custody, StoreError> {
    let kind: String = row.try_get("kind")?;
    let opt_moment = |name: &str| -> Result<Option<NaiveDateTime>, StoreError> {
        row.try_get::<Option<String>, _>(name)?
            .as_deref()
            .map(moment)
            .transpose()
    };
    Ok(Custody {
        year: i32::try_from(row.try_get::<i64, _>("year")?)
            .map_err(|e| StoreError::Corrupt(format!("custody year: {e}")))?,
        number: row.try_get("number")?,
        kind: SanctionKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("custody kind {kind}")))?,
        plate: row.try_get("plate")?,
        held_at: moment(&row.try_get::<String, _>("held_at")?)?,
        place: row.try_get("place")?,
        custodian: row.try_get("custodian")?,
        opened_by: row.try_get("opened_by")?,
        corrected_at: opt_moment("corrected_at")?,
        correction: row.try_get("correction")?,
        released_at: opt_moment("released_at")?,
        release_act: row.try_get("release_act")?,
        released_by: row.try_get("released_by")?,
        expenses: Vec::new(),
    })
}

fn expense_of(row: &sqlx::any::AnyRow) -> Result<CustodyExpense, StoreError> {
    let kind: String = row.try_get("kind")?;
    let amount: String = row.try_get("amount")?;
    Ok(CustodyExpense {
        seq: row.try_get("seq")?,
        kind: ExpenseKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("custody expense kind {kind}")))?,
        description: row.try_get("description")?,
        amount: amount
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("custody expense {amount}: {e}")))?,
        incurred_on: day(&row.try_get::<String, _>("incurred_on")?)?,
        paid_on: row
            .try_get::<Option<String>, _>("paid_on")?
            .as_deref()
            .map(day)
            .transpose()?,
        receipt: row.try_get("receipt")?,
    })
}

/// The custody of the auto, with its expenses, if one was opened.
async fn read(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Option<Custody>, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM custodies WHERE jurisdiction = $1 AND year = $2 AND number = $3"
    )))
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(mut custody) = row.as_ref().map(custody_of).transpose()? else {
        return Ok(None);
    };
    let rows = sqlx::query(
        "SELECT seq, kind, description, amount, incurred_on, paid_on, receipt FROM custody_expenses \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 ORDER BY seq",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .fetch_all(&mut **tx)
    .await?;
    custody.expenses = rows.iter().map(expense_of).collect::<Result<_, _>>()?;
    Ok(Some(custody))
}

/// The vehicle measure the auto applied on the spot: its kind, its minimum
/// hours and the article of the measure.
fn held_measure(auto: &Auto) -> Option<(SanctionKind, Option<(u32, String)>)> {
    auto.proposal.sanctions.iter().find_map(|s| {
        let kind = SanctionKind::parse(&s.kind)?;
        let vehicle = matches!(
            kind,
            SanctionKind::VehicleRetention | SanctionKind::VehicleSeizure
        );
        (vehicle && s.at_once.is_some()).then(|| {
            let minimum = s
                .min_hours
                .or(s.days.map(|d| d.saturating_mul(24)))
                .map(|h| (h, s.articles.first().cloned().unwrap_or_default()));
            (kind, minimum)
        })
    })
}

impl Auto {
    /// The vehicle measure the auto applied on the spot (a retention or a
    /// seizure), if any: what a custody keeps.
    pub fn held_vehicle(&self) -> Option<SanctionKind> {
        held_measure(self).map(|(kind, _)| kind)
    }
}

fn rule_of(rulebook: &Rulebook, kind: SanctionKind) -> Option<&CustodyRule> {
    rulebook
        .procedure
        .as_ref()
        .and_then(|p| p.custody.iter().find(|c| c.kind == kind))
}

/// What the record shows of the auto's fines and the custody's expenses.
async fn standing(
    tx: &mut Tx,
    jurisdiction: &str,
    auto: &Auto,
    custody: &Custody,
) -> Result<Standing, StoreError> {
    let fines = crate::debts::debts_of_auto(tx, jurisdiction, (auto.year, auto.number)).await?;
    let fine_proposed = auto
        .proposal
        .sanctions
        .iter()
        .any(|s| s.kind == SanctionKind::Fine.name());
    let open = !matches!(
        auto.status,
        Status::Final | Status::Archived | Status::Annulled | Status::Cured
    );
    Ok(Standing {
        corrected: custody.corrected_at,
        fines_unpaid: fines.iter().filter(|d| !d.settled()).count(),
        fine_pending: open && fine_proposed,
        expenses_unpaid: custody
            .expenses
            .iter()
            .filter(|e| e.paid_on.is_none())
            .map(|e| (e.kind, e.amount))
            .collect(),
    })
}

fn told(check: &Check<'_>) -> ReleaseCheck {
    ReleaseCheck {
        what: match check.requirement {
            Requirement::MinimumTime => "prazo mínimo da medida".to_string(),
            Requirement::Condition(c) => c.portuguese().to_string(),
        },
        met: check.met,
        detail: check.detail.clone(),
        citation: check.citation.to_string(),
    }
}

/// What releasing the auto's vehicle requires at `at`.
async fn checks(
    tx: &mut Tx,
    rulebook: &Rulebook,
    jurisdiction: &str,
    auto: &Auto,
    custody: &Custody,
    at: NaiveDateTime,
) -> Result<Vec<ReleaseCheck>, StoreError> {
    let minimum = held_measure(auto).and_then(|(_, m)| m);
    let held = Held {
        kind: custody.kind,
        since: custody.held_at,
        minimum: minimum.as_ref().map(|(h, c)| (*h, c.as_str())),
    };
    let standing = standing(tx, jurisdiction, auto, custody).await?;
    let checks =
        law::release(rule_of(rulebook, custody.kind), &held, &standing, at).map_err(|e| {
            StoreError::Invalid {
                field: "liberacao",
                reason: e.to_string(),
            }
        })?;
    Ok(checks.iter().map(told).collect())
}

/// The moment a release recorded on `on` is weighed at: now, when it is
/// today; the end of that day, when it is another.
pub(crate) fn release_moment(
    rulebook: &Rulebook,
    change: &Change<'_>,
    on: NaiveDate,
) -> NaiveDateTime {
    let now = rulebook.jurisdiction.local(change.at);
    if now.date() == on {
        now
    } else {
        on.and_time(NaiveTime::from_hms_opt(23, 59, 59).unwrap_or(NaiveTime::MIN))
    }
}

/// Refuses the release of the auto's vehicle at `at` while a requirement
/// is unmet, each named with its article; a measure whose custody the law
/// conditions needs its custody recorded first. Called by the procedure's
/// `release` step, which then records the act with [`mark_released`].
pub(crate) async fn check_release(
    tx: &mut Tx,
    rulebook: &Rulebook,
    jurisdiction: &str,
    auto: &Auto,
    at: NaiveDateTime,
) -> Result<(), StoreError> {
    let custody = read(tx, jurisdiction, (auto.year, auto.number)).await?;
    let Some(custody) = custody else {
        let conditioned = held_measure(auto)
            .and_then(|(kind, _)| rule_of(rulebook, kind))
            .is_some_and(|r| !r.release.is_empty());
        if conditioned {
            return Err(StoreError::Invalid {
                field: "liberacao",
                reason: "registre antes a custódia do veículo (onde está guardado e por quem): a lei condiciona a liberação".into(),
            });
        }
        return Ok(());
    };
    let unmet: Vec<String> = checks(tx, rulebook, jurisdiction, auto, &custody, at)
        .await?
        .into_iter()
        .filter(|c| !c.met)
        .map(|c| format!("{} ({})", c.detail, c.citation))
        .collect();
    if unmet.is_empty() {
        Ok(())
    } else {
        Err(StoreError::Invalid {
            field: "liberacao",
            reason: format!(
                "o veículo ainda não pode ser liberado: {}",
                unmet.join("; ")
            ),
        })
    }
}

/// Records the act that released the auto's vehicle, if its custody was
/// recorded.
pub(crate) async fn mark_released(
    tx: &mut Tx,
    (audit, change): (&crate::audit::Audit, &Change<'_>),
    jurisdiction: &str,
    (year, number): (i32, i64),
    (at, act): (NaiveDateTime, &str),
) -> Result<(), StoreError> {
    let act = act.trim();
    if act.is_empty() {
        if read(tx, jurisdiction, (year, number)).await?.is_some() {
            return Err(StoreError::Invalid {
                field: "texto",
                reason: "informe o ato de liberação do órgão fiscalizador (número e data)".into(),
            });
        }
        return Ok(());
    }
    let updated = sqlx::query(
        "UPDATE custodies SET released_at = $4, release_act = $5, released_by = $6 \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND released_at IS NULL",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .bind(moment_text(at))
    .bind(act)
    .bind(change.by)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if updated > 0 {
        append(
            tx,
            audit,
            change,
            Entry {
                action: "custody.release",
                jurisdiction: Some(jurisdiction),
                subject: &format!("auto:{year}:{number}"),
                detail: serde_json::json!({ "released_at": moment_text(at), "act": act }),
                rows: vec![key_row("custodies", jurisdiction, (year, number), None)],
            },
        )
        .await?;
    }
    Ok(())
}

fn key_row(
    table: &'static str,
    jurisdiction: &str,
    (year, number): (i32, i64),
    seq: Option<i64>,
) -> RowRef {
    match seq {
        None => RowRef::new(table, [jurisdiction.into(), year.into(), number.into()]),
        Some(seq) => RowRef::new(
            table,
            [jurisdiction.into(), year.into(), number.into(), seq.into()],
        ),
    }
}

/// The custody of `key`, or the reason there is none to change.
async fn open_custody(
    tx: &mut Tx,
    jurisdiction: &str,
    key: (i32, i64),
) -> Result<Custody, StoreError> {
    let custody = read(tx, jurisdiction, key).await?.ok_or_else(|| StoreError::Invalid {
        field: "custodia",
        reason: format!(
            "o auto nº {}/{} não tem custódia registrada: registre antes onde o veículo está guardado",
            key.1, key.0
        ),
    })?;
    if let Some(released) = custody.released_at {
        return Err(StoreError::Invalid {
            field: "custodia",
            reason: format!(
                "o veículo foi liberado em {}: a custódia não muda mais",
                released.format("%d/%m/%Y %H:%M")
            ),
        });
    }
    Ok(custody)
}

impl Store {
    /// Appends the audit entry of a change to the custody of `key` (its
    /// `action`, what changed and the row), commits, and returns the
    /// custody as it now stands.
    async fn recorded(
        &self,
        mut tx: Tx,
        change: &Change<'_>,
        (jurisdiction, key): (&str, (i32, i64)),
        (action, detail, row): (&str, serde_json::Value, RowRef),
    ) -> Result<Custody, StoreError> {
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action,
                jurisdiction: Some(jurisdiction),
                subject: &format!("auto:{}:{}", key.0, key.1),
                detail,
                rows: vec![row],
            },
        )
        .await?;
        let custody = open_custody(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(custody)
    }

    /// Records where and by whom the vehicle the auto held on the spot is
    /// kept, from `input.held_at` (not before the infraction, not in the
    /// future).
    pub async fn open_custody(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        input: &CustodyInput,
    ) -> Result<Custody, StoreError> {
        let place = required("local", &input.place, TextKind::Line)?;
        let custodian = required("responsavel", &input.custodian, TextKind::Line)?;
        let now = rulebook.jurisdiction.local(change.at);
        if input.held_at > now {
            return Err(StoreError::Invalid {
                field: "desde",
                reason: "o dia e a hora ainda não chegaram: informe quando o veículo foi recolhido"
                    .into(),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let auto = read_auto(&mut tx, jurisdiction, key).await?;
        let Some((kind, _)) = held_measure(&auto) else {
            return Err(StoreError::Invalid {
                field: "custodia",
                reason: format!(
                    "o auto nº {}/{} não reteve nem apreendeu veículo no ato",
                    key.1, key.0
                ),
            });
        };
        let Some(plate) = auto.plate.clone() else {
            return Err(StoreError::Invalid {
                field: "custodia",
                reason: "o auto não identifica a placa do veículo".into(),
            });
        };
        if auto.released_on.is_some() {
            return Err(StoreError::Invalid {
                field: "custodia",
                reason: "o veículo deste auto já foi liberado".into(),
            });
        }
        if input.held_at < auto.committed_at {
            return Err(StoreError::Invalid {
                field: "desde",
                reason: format!(
                    "o veículo não pode ter sido recolhido antes da infração ({})",
                    auto.committed_at.format("%d/%m/%Y %H:%M")
                ),
            });
        }
        if read(&mut tx, jurisdiction, key).await?.is_some() {
            return Err(StoreError::Invalid {
                field: "custodia",
                reason: "a custódia deste veículo já foi registrada".into(),
            });
        }
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO custodies (jurisdiction, {COLUMNS}) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, NULL, NULL, NULL, NULL, NULL)"
        )))
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(kind.name())
        .bind(&plate)
        .bind(moment_text(input.held_at))
        .bind(place)
        .bind(custodian)
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        self.recorded(
            tx,
            change,
            (jurisdiction, key),
            (
                "custody.open",
                serde_json::json!({ "kind": kind.name(), "plate": plate, "place": place }),
                key_row("custodies", jurisdiction, key, None),
            ),
        )
        .await
    }

    /// Records an expense of the custody, of a kind the law puts on the
    /// vehicle's owner for this measure.
    pub async fn add_custody_expense(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        input: &ExpenseInput,
    ) -> Result<Custody, StoreError> {
        let description = required("descricao", &input.description, TextKind::Line)?;
        if input.amount <= Decimal::ZERO
            || input.amount > Decimal::from(MAX_EXPENSE)
            || input.amount.normalize().scale() > 2
        {
            return Err(StoreError::Invalid {
                field: "valor",
                reason: format!(
                    "informe um valor em reais maior que zero, com até dois decimais, e até R$ {MAX_EXPENSE}"
                ),
            });
        }
        let today = rulebook.jurisdiction.local(change.at).date();
        if input.incurred_on > today {
            return Err(StoreError::Invalid {
                field: "data",
                reason: "a despesa não pode ser de um dia que ainda não chegou".into(),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let custody = open_custody(&mut tx, jurisdiction, key).await?;
        law::expense(rule_of(rulebook, custody.kind), custody.kind, input.kind).map_err(|e| {
            StoreError::Invalid {
                field: "tipo",
                reason: e.to_string(),
            }
        })?;
        if input.incurred_on < custody.held_at.date() {
            return Err(StoreError::Invalid {
                field: "data",
                reason: "a despesa não pode ser anterior ao recolhimento do veículo".into(),
            });
        }
        let seq = custody.expenses.iter().map(|e| e.seq).max().unwrap_or(0) + 1;
        let amount = outorga_core::context::round_brl(input.amount).to_string();
        sqlx::query(
            "INSERT INTO custody_expenses (jurisdiction, year, number, seq, kind, description, amount, \
             incurred_on, paid_on, receipt) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL)",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(seq)
        .bind(input.kind.name())
        .bind(description)
        .bind(&amount)
        .bind(input.incurred_on.to_string())
        .execute(&mut *tx)
        .await?;
        self.recorded(
            tx,
            change,
            (jurisdiction, key),
            (
                "custody.expense",
                serde_json::json!({ "kind": input.kind.name(), "amount": amount }),
                key_row("custody_expenses", jurisdiction, key, Some(seq)),
            ),
        )
        .await
    }

    /// Records that an expense of the custody was paid on `paid_on`, with
    /// its receipt.
    pub async fn pay_custody_expense(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (key, seq): ((i32, i64), i64),
        (paid_on, receipt): (NaiveDate, &str),
    ) -> Result<Custody, StoreError> {
        let receipt = required("comprovante", receipt, TextKind::Line)?;
        if paid_on > rulebook.jurisdiction.local(change.at).date() {
            return Err(StoreError::Invalid {
                field: "pago_em",
                reason: "o pagamento não pode ser de um dia que ainda não chegou".into(),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let custody = open_custody(&mut tx, jurisdiction, key).await?;
        let expense = custody
            .expenses
            .iter()
            .find(|e| e.seq == seq)
            .ok_or_else(|| {
                StoreError::NotFound(format!("não há despesa nº {seq} nesta custódia"))
            })?;
        if let Some(paid) = expense.paid_on {
            return Err(StoreError::Invalid {
                field: "pago_em",
                reason: format!("a despesa nº {seq} já foi paga em {paid}"),
            });
        }
        if paid_on < expense.incurred_on {
            return Err(StoreError::Invalid {
                field: "pago_em",
                reason: "o pagamento não pode ser anterior à despesa".into(),
            });
        }
        sqlx::query(
            "UPDATE custody_expenses SET paid_on = $5, receipt = $6 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4 AND paid_on IS NULL",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(seq)
        .bind(paid_on.to_string())
        .bind(receipt)
        .execute(&mut *tx)
        .await?;
        self.recorded(
            tx,
            change,
            (jurisdiction, key),
            (
                "custody.expense_paid",
                serde_json::json!({ "seq": seq, "paid_on": paid_on, "receipt": receipt }),
                key_row("custody_expenses", jurisdiction, key, Some(seq)),
            ),
        )
        .await
    }

    /// Records that the irregularity that caused the measure was corrected
    /// at `at`, and how.
    pub async fn correct_custody(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        (at, correction): (NaiveDateTime, &str),
    ) -> Result<Custody, StoreError> {
        let correction = required("correcao", correction, TextKind::Long)?;
        if at > rulebook.jurisdiction.local(change.at) {
            return Err(StoreError::Invalid {
                field: "quando",
                reason: "o dia e a hora ainda não chegaram".into(),
            });
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let custody = open_custody(&mut tx, jurisdiction, key).await?;
        if at < custody.held_at {
            return Err(StoreError::Invalid {
                field: "quando",
                reason: "a correção não pode ser anterior ao recolhimento do veículo".into(),
            });
        }
        if custody.corrected_at.is_some() {
            return Err(StoreError::Invalid {
                field: "correcao",
                reason: "a correção da irregularidade já foi registrada".into(),
            });
        }
        sqlx::query(
            "UPDATE custodies SET corrected_at = $4, correction = $5 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND corrected_at IS NULL",
        )
        .bind(jurisdiction)
        .bind(key.0)
        .bind(key.1)
        .bind(moment_text(at))
        .bind(correction)
        .execute(&mut *tx)
        .await?;
        self.recorded(
            tx,
            change,
            (jurisdiction, key),
            (
                "custody.correct",
                serde_json::json!({ "at": moment_text(at), "correction": correction }),
                key_row("custodies", jurisdiction, key, None),
            ),
        )
        .await
    }

    /// The custody of the auto's vehicle, if recorded, with what its
    /// release requires at `at` (the jurisdiction's local time).
    pub async fn custody(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        at: NaiveDateTime,
    ) -> Result<Option<CustodyView>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let Some(custody) = read(&mut tx, jurisdiction, key).await? else {
            return Ok(None);
        };
        let auto = read_auto(&mut tx, jurisdiction, key).await?;
        let checks = if custody.released_at.is_some() {
            Vec::new()
        } else {
            checks(&mut tx, rulebook, jurisdiction, &auto, &custody, at).await?
        };
        tx.commit().await?;
        let chargeable = rule_of(rulebook, custody.kind)
            .map(|r| {
                r.expenses
                    .iter()
                    .map(|e| (e.value, e.citation.clone()))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Some(CustodyView {
            custody,
            checks,
            chargeable,
        }))
    }

    /// The vehicles held in `jurisdiction` now, the longest held first (at
    /// most `limit`).
    pub async fn vehicles_held(
        &self,
        jurisdiction: &str,
        limit: u32,
    ) -> Result<Vec<Custody>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM custodies WHERE jurisdiction = $1 AND released_at IS NULL \
             ORDER BY held_at, year, number LIMIT $2"
        )))
        .bind(jurisdiction)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(custody_of).collect()
    }
}
