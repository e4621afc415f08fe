//! Fiscal units' values in reais, each from a day with the act that sets it,
//! and the mean tariff coefficient worked out from the bus lines.
//!
//! A value is never overwritten: a correction is a new record naming the one
//! it corrects, which no longer counts. Teófilo Otoni's values "serão
//! automaticamente corrigidos anualmente por Decreto Municipal" (art. 115): a
//! record may give the index and its percentage instead of the value, which
//! is then the value in force the day before, corrected. Amapá's CTM is "a
//! média aritmética dos Coeficientes Tarifários de todas as linhas existentes
//! …, excluídas as de características semi-urbanas" (art. 21): its value on
//! a day is the mean of the coefficients in force that day
//! (`engine::bus::ctm`), never set by hand.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::day;
use crate::text::{TextKind, required};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::engine::bus;
use outorga_core::model::{Dated, Rulebook};
use rust_decimal::{Decimal, RoundingStrategy};
use sqlx::Row;
use std::collections::BTreeMap;
use std::str::FromStr;

/// Decimal places a value corrected by an index keeps: the law's own UPFTO
/// has four (art. 103, I: 100 UPFTO = R$ 179,78, so R$ 1,7978).
const CORRECTED_PLACES: u32 = 4;

/// The index a value was corrected by and its percentage.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Correction {
    /// The index's name as the act gives it ("IPCA-E 2025").
    pub index: String,
    /// Percentage over the value in force the day before (may be negative).
    pub percent: Decimal,
}

/// What a new record gives: the value, or the correction that makes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NewValue {
    Value(Decimal),
    Corrected(Correction),
}

/// A unit's value from a day, as asked to be recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitEntry {
    pub since: NaiveDate,
    pub value: NewValue,
    /// The act that sets it ("Decreto nº 123/2025").
    pub act: String,
    /// The record it corrects (its `seq`), if any.
    pub corrects: Option<i64>,
}

/// A unit's value as recorded by the deployment.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UnitValue {
    pub unit: String,
    pub seq: i64,
    pub since: NaiveDate,
    pub value: Decimal,
    pub act: String,
    pub correction: Option<Correction>,
    pub corrects: Option<i64>,
    /// A later record corrects this one: it no longer counts.
    pub corrected_by: Option<i64>,
}

/// A unit of a jurisdiction's rulebooks with every value it had.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct UnitHistory {
    pub code: String,
    pub name: String,
    pub article: String,
    /// Worked out from the bus lines (Amapá art. 21), not recorded.
    pub from_lines: bool,
    /// The values the rulebook gives (the law's own), each from its day.
    pub law: Vec<(NaiveDate, Decimal, Option<String>)>,
    /// The deployment's records, corrected ones included, in order.
    pub records: Vec<UnitValue>,
    /// For a unit from the lines: its value from each day it changed, with
    /// how many lines the mean counts.
    pub computed: Vec<(NaiveDate, Decimal, usize)>,
}

fn decimal(text: &str, what: &str) -> Result<Decimal, StoreError> {
    Decimal::from_str(text).map_err(|_| StoreError::Corrupt(format!("{what} `{text}`")))
}

fn record_of(row: &sqlx::any::AnyRow) -> Result<UnitValue, StoreError> {
    let since: String = row.try_get("since")?;
    let value: String = row.try_get("value")?;
    let index: Option<String> = row.try_get("index_name")?;
    let percent: Option<String> = row.try_get("index_percent")?;
    let correction = match (index, percent) {
        (Some(index), Some(percent)) => Some(Correction {
            index,
            percent: decimal(&percent, "index percent")?,
        }),
        _ => None,
    };
    Ok(UnitValue {
        unit: row.try_get("unit")?,
        seq: row.try_get("seq")?,
        since: day(&since)?,
        value: decimal(&value, "unit value")?,
        act: row.try_get("act")?,
        correction,
        corrects: row.try_get("corrects")?,
        corrected_by: None,
    })
}

/// The deployment's records of `jurisdiction`'s units, each with the record
/// that corrects it, by unit and `seq` (primary key).
async fn records(tx: &mut Tx, jurisdiction: &str) -> Result<Vec<UnitValue>, StoreError> {
    let rows = sqlx::query(
        "SELECT unit, seq, since, value, act, index_name, index_percent, corrects \
         FROM unit_values WHERE jurisdiction = $1 ORDER BY unit, seq",
    )
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let mut found: Vec<UnitValue> = rows.iter().map(record_of).collect::<Result<_, _>>()?;
    let corrections: Vec<(String, i64, i64)> = found
        .iter()
        .filter_map(|r| r.corrects.map(|c| (r.unit.clone(), c, r.seq)))
        .collect();
    for (unit, corrected, by) in corrections {
        if let Some(r) = found
            .iter_mut()
            .find(|r| r.unit == unit && r.seq == corrected)
        {
            r.corrected_by = Some(by);
        }
    }
    Ok(found)
}

/// The bus lines' coefficients: each line's semi-urban flag and its
/// coefficients, from the earliest day (the one registered) and each
/// approved later, in order.
async fn line_coefficients(
    tx: &mut Tx,
    jurisdiction: &str,
) -> Result<Vec<(bool, Vec<Dated<Decimal>>)>, StoreError> {
    let lines = sqlx::query(
        "SELECT code, semi_urban, coefficient FROM lines WHERE jurisdiction = $1 ORDER BY code",
    )
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let approved = sqlx::query(
        "SELECT line, since, coefficient FROM line_coefficients WHERE jurisdiction = $1 \
         ORDER BY line, seq",
    )
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let mut by_line: BTreeMap<String, (bool, Vec<Dated<Decimal>>)> = BTreeMap::new();
    for row in &lines {
        let code: String = row.try_get("code")?;
        let semi: i64 = row.try_get("semi_urban")?;
        let coefficient: String = row.try_get("coefficient")?;
        let first = Dated {
            from: NaiveDate::MIN,
            value: decimal(&coefficient, "coefficient")?,
            source: None,
        };
        by_line.insert(code, (semi != 0, vec![first]));
    }
    for row in &approved {
        let line: String = row.try_get("line")?;
        let since: String = row.try_get("since")?;
        let coefficient: String = row.try_get("coefficient")?;
        if let Some((_, values)) = by_line.get_mut(&line) {
            values.push(Dated {
                from: day(&since)?,
                value: decimal(&coefficient, "coefficient")?,
                source: None,
            });
        }
    }
    Ok(by_line.into_values().collect())
}

/// The mean tariff coefficient from each day it changed, with the lines
/// it counts: the lines' coefficients in force on that day through
/// `engine::bus::ctm`. Days on which no line counts have no value.
fn mean_coefficients(
    rulebook: &Rulebook,
    lines: &[(bool, Vec<Dated<Decimal>>)],
) -> Vec<(NaiveDate, Decimal, usize)> {
    let ctx = outorga_core::Context::new(rulebook, outorga_core::Overrides::default());
    let mut days: Vec<NaiveDate> = lines
        .iter()
        .flat_map(|(_, values)| values.iter().map(|v| v.from))
        .collect();
    days.sort();
    days.dedup();
    let mut series: Vec<(NaiveDate, Decimal, usize)> = Vec::new();
    for on in days {
        let in_force: Vec<bus::Line> = lines
            .iter()
            .filter_map(|(semi_urban, values)| {
                outorga_core::model::value_on(values, on).map(|c| bus::Line {
                    coefficient: *c,
                    semi_urban: *semi_urban,
                })
            })
            .collect();
        let counted = in_force.iter().filter(|l| !l.semi_urban).count();
        if let Ok((mean, _)) = bus::ctm(&ctx, &in_force)
            && series.last().is_none_or(|(_, last, _)| *last != mean)
        {
            series.push((on, mean, counted));
        }
    }
    series
}

/// The values the deployment gives `rulebook`'s units in `jurisdiction`,
/// each from its day: its records that no correction replaced, and a unit
/// from the lines worked out from them. What every workflow's context reads
/// (`parameters::law`).
pub(crate) async fn deployed_units(
    tx: &mut Tx,
    jurisdiction: &str,
    rulebook: &Rulebook,
) -> Result<BTreeMap<String, Vec<Dated<Decimal>>>, StoreError> {
    let mut units: BTreeMap<String, Vec<Dated<Decimal>>> = BTreeMap::new();
    if rulebook.units.is_empty() {
        return Ok(units);
    }
    for record in records(tx, jurisdiction).await? {
        if record.corrected_by.is_none() && rulebook.units.contains_key(&record.unit) {
            units.entry(record.unit).or_default().push(Dated {
                from: record.since,
                value: record.value,
                source: Some(record.act),
            });
        }
    }
    if let Some(unit) = rulebook.units.values().find(|u| u.from_lines) {
        let lines = line_coefficients(tx, jurisdiction).await?;
        let series = mean_coefficients(rulebook, &lines)
            .into_iter()
            .map(|(from, value, counted)| Dated {
                from,
                value,
                source: Some(format!("média de {counted} linhas")),
            })
            .collect();
        units.insert(unit.code.clone(), series);
    }
    Ok(units)
}

/// The unit `code` as `rulebooks` declare it (the first that does).
fn declared<'r>(
    rulebooks: &[&'r Rulebook],
    code: &str,
) -> Result<(&'r Rulebook, &'r outorga_core::model::FiscalUnit), StoreError> {
    rulebooks
        .iter()
        .find_map(|r| r.units.get(code).map(|u| (*r, u)))
        .ok_or_else(|| {
            let mut known: Vec<&str> = rulebooks
                .iter()
                .flat_map(|r| r.units.keys().map(String::as_str))
                .collect();
            known.sort();
            known.dedup();
            StoreError::invalid(
                "unidade",
                if known.is_empty() {
                    format!("`{code}` não é unidade fiscal: as leis desta jurisdição fixam os valores em reais")
                } else {
                    format!(
                        "`{code}` não é unidade fiscal desta jurisdição (unidades: {})",
                        known.join(", ")
                    )
                },
            )
        })
}

/// The value the entry gives, a correction applied to `before` (the value
/// in force the day before).
fn value_of(entry: &UnitEntry, before: Option<Decimal>, code: &str) -> Result<Decimal, StoreError> {
    let value = match &entry.value {
        NewValue::Value(value) => *value,
        NewValue::Corrected(correction) => {
            let Some(before) = before else {
                return Err(StoreError::invalid(
                    "correcao",
                    format!(
                        "não há valor de {code} em vigor antes de {}: informe o valor em reais",
                        entry.since.format("%d/%m/%Y")
                    ),
                ));
            };
            if correction.percent <= -Decimal::ONE_HUNDRED {
                return Err(StoreError::invalid(
                    "correcao",
                    "o percentual do índice é maior que -100",
                ));
            }
            let factor = (Decimal::ONE_HUNDRED + correction.percent) / Decimal::ONE_HUNDRED;
            before
                .checked_mul(factor)
                .ok_or_else(|| {
                    StoreError::invalid("correcao", "o valor corrigido é grande demais")
                })?
                .round_dp_with_strategy(CORRECTED_PLACES, RoundingStrategy::MidpointAwayFromZero)
        }
    };
    if value <= Decimal::ZERO {
        return Err(StoreError::invalid(
            "valor",
            "o valor da unidade é maior que zero",
        ));
    }
    if value.scale() > 6 || value > Decimal::from(1_000_000) {
        return Err(StoreError::invalid(
            "valor",
            "o valor tem no máximo seis casas decimais e é menor que R$ 1.000.000",
        ));
    }
    Ok(value.normalize())
}

impl Store {
    /// Records a unit's value from a day with its act, among `rulebooks`
    /// (the jurisdiction's): audited, never overwriting another.
    pub async fn record_unit_value(
        &self,
        change: &Change<'_>,
        rulebooks: &[&Rulebook],
        jurisdiction: &str,
        code: &str,
        entry: &UnitEntry,
    ) -> Result<UnitValue, StoreError> {
        let (rulebook, unit) = declared(rulebooks, code)?;
        if unit.from_lines {
            return Err(StoreError::Refused {
                reason: format!(
                    "o {code} é a média dos coeficientes tarifários das linhas: registre o coeficiente aprovado de cada linha"
                ),
                articles: vec![unit.citation.to_string()],
            });
        }
        let act = required("ato", &entry.act, TextKind::Line)?.to_string();
        if let NewValue::Corrected(c) = &entry.value {
            required("indice", &c.index, TextKind::Name)?;
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let existing = records(&mut tx, jurisdiction).await?;
        let mine: Vec<&UnitValue> = existing.iter().filter(|r| r.unit == code).collect();
        match entry.corrects {
            Some(seq) => match mine.iter().find(|r| r.seq == seq) {
                None => {
                    return Err(StoreError::invalid(
                        "corrige",
                        format!("não há registro nº {seq} de {code}"),
                    ));
                }
                Some(r) if r.corrected_by.is_some() => {
                    return Err(StoreError::invalid(
                        "corrige",
                        format!(
                            "o registro nº {seq} de {code} já foi corrigido pelo nº {}: corrija este",
                            r.corrected_by.unwrap_or_default()
                        ),
                    ));
                }
                Some(_) => {}
            },
            None => {
                if let Some(same) = mine
                    .iter()
                    .find(|r| r.since == entry.since && r.corrected_by.is_none())
                {
                    return Err(StoreError::invalid(
                        "desde",
                        format!(
                            "já há um valor de {code} desde {} ({}, registro nº {}): para corrigi-lo, informe `corrige: {}`",
                            entry.since.format("%d/%m/%Y"),
                            same.act,
                            same.seq,
                            same.seq
                        ),
                    ));
                }
            }
        }
        let overrides = outorga_core::Overrides {
            units: deployed_units(&mut tx, jurisdiction, rulebook).await?,
            ..outorga_core::Overrides::default()
        };
        let ctx = outorga_core::Context::new(rulebook, overrides);
        let before = entry
            .since
            .pred_opt()
            .and_then(|day| ctx.unit_value(code, day));
        let value = value_of(entry, before, code)?;
        let seq = mine.iter().map(|r| r.seq).max().unwrap_or(0) + 1;
        let correction = match &entry.value {
            NewValue::Corrected(c) => Some(c.clone()),
            NewValue::Value(_) => None,
        };
        sqlx::query(
            "INSERT INTO unit_values (jurisdiction, unit, seq, since, value, act, index_name, index_percent, corrects) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(jurisdiction)
        .bind(code)
        .bind(seq)
        .bind(entry.since.to_string())
        .bind(value.to_string())
        .bind(&act)
        .bind(correction.as_ref().map(|c| c.index.clone()))
        .bind(correction.as_ref().map(|c| c.percent.normalize().to_string()))
        .bind(entry.corrects)
        .execute(&mut *tx)
        .await?;
        let recorded = UnitValue {
            unit: code.to_string(),
            seq,
            since: entry.since,
            value,
            act,
            correction,
            corrects: entry.corrects,
            corrected_by: None,
        };
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "unit.value",
                jurisdiction: Some(jurisdiction),
                subject: &format!("unit:{code}"),
                detail: serde_json::to_value(&recorded).unwrap_or_default(),
                rows: vec![RowRef::new(
                    "unit_values",
                    [jurisdiction.into(), code.into(), seq.into()],
                )],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(recorded)
    }

    /// Every unit of `rulebooks` (the jurisdiction's) with the law's values,
    /// the deployment's records and, for a unit from the lines, its value
    /// from each day it changed.
    pub async fn unit_history(
        &self,
        rulebooks: &[&Rulebook],
        jurisdiction: &str,
    ) -> Result<Vec<UnitHistory>, StoreError> {
        let mut tx = self.pool.begin().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let all = records(&mut tx, jurisdiction).await?;
        let mut out: Vec<UnitHistory> = Vec::new();
        for rulebook in rulebooks {
            for unit in rulebook.units.values() {
                if out.iter().any(|h| h.code == unit.code) {
                    continue;
                }
                let computed = if unit.from_lines {
                    mean_coefficients(rulebook, &line_coefficients(&mut tx, jurisdiction).await?)
                } else {
                    Vec::new()
                };
                out.push(UnitHistory {
                    code: unit.code.clone(),
                    name: unit.name.clone(),
                    article: unit.citation.to_string(),
                    from_lines: unit.from_lines,
                    law: unit
                        .values
                        .iter()
                        .map(|d| (d.from, d.value, d.source.clone()))
                        .collect(),
                    records: all
                        .iter()
                        .filter(|r| r.unit == unit.code)
                        .cloned()
                        .collect(),
                    computed,
                });
            }
        }
        tx.commit().await?;
        Ok(out)
    }

    /// The tariff coefficient of each line of `jurisdiction` in force on
    /// `on`, by line: the latest approved on or before it, with its day and
    /// act; a line with none approved by then keeps the one it was
    /// registered with (no day, no act).
    pub async fn coefficients_in_force(
        &self,
        jurisdiction: &str,
        on: NaiveDate,
    ) -> Result<BTreeMap<String, (Decimal, Option<(NaiveDate, String)>)>, StoreError> {
        let mut out = BTreeMap::new();
        for row in sqlx::query("SELECT code, coefficient FROM lines WHERE jurisdiction = $1")
            .bind(jurisdiction)
            .fetch_all(&self.pool)
            .await?
        {
            let coefficient: String = row.try_get("coefficient")?;
            out.insert(
                row.try_get::<String, _>("code")?,
                (decimal(&coefficient, "coefficient")?, None),
            );
        }
        for row in sqlx::query(
            "SELECT line, since, coefficient, act FROM line_coefficients c WHERE jurisdiction = $1 \
             AND since <= $2 AND NOT EXISTS (SELECT 1 FROM line_coefficients n \
             WHERE n.jurisdiction = c.jurisdiction AND n.line = c.line AND n.since <= $2 \
             AND (n.since > c.since OR (n.since = c.since AND n.seq > c.seq)))",
        )
        .bind(jurisdiction)
        .bind(on.to_string())
        .fetch_all(&self.pool)
        .await?
        {
            let since: String = row.try_get("since")?;
            let coefficient: String = row.try_get("coefficient")?;
            out.insert(
                row.try_get::<String, _>("line")?,
                (
                    decimal(&coefficient, "coefficient")?,
                    Some((day(&since)?, row.try_get("act")?)),
                ),
            );
        }
        Ok(out)
    }

    /// Approves a bus line's tariff coefficient from a day with its act
    /// (Amapá art. 20, § 3º): the mean tariff coefficient is worked out
    /// anew from that day.
    pub async fn approve_coefficient(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        line: &str,
        (since, coefficient, act): (NaiveDate, Decimal, &str),
    ) -> Result<i64, StoreError> {
        let act = required("ato", act, TextKind::Line)?.to_string();
        if coefficient <= Decimal::ZERO || coefficient.scale() > 8 {
            return Err(StoreError::invalid(
                "coeficiente",
                "o coeficiente é maior que zero, com até oito casas decimais",
            ));
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        let known = sqlx::query("SELECT 1 AS one FROM lines WHERE jurisdiction = $1 AND code = $2")
            .bind(jurisdiction)
            .bind(line)
            .fetch_optional(&mut *tx)
            .await?;
        if known.is_none() {
            return Err(StoreError::NotFound(format!("não há linha {line}")));
        }
        let last = sqlx::query(
            "SELECT COALESCE(MAX(seq), 0) AS seq FROM line_coefficients WHERE jurisdiction = $1 AND line = $2",
        )
        .bind(jurisdiction)
        .bind(line)
        .fetch_one(&mut *tx)
        .await?;
        let seq: i64 = last.try_get::<i64, _>("seq")? + 1;
        sqlx::query(
            "INSERT INTO line_coefficients (jurisdiction, line, seq, since, coefficient, act) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(jurisdiction)
        .bind(line)
        .bind(seq)
        .bind(since.to_string())
        .bind(coefficient.normalize().to_string())
        .bind(&act)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "line.coefficient",
                jurisdiction: Some(jurisdiction),
                subject: &format!("line:{line}"),
                detail: serde_json::json!({
                    "since": since.to_string(),
                    "coefficient": coefficient.normalize().to_string(),
                    "act": act,
                }),
                rows: vec![RowRef::new(
                    "line_coefficients",
                    [jurisdiction.into(), line.into(), seq.into()],
                )],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(seq)
    }
}
