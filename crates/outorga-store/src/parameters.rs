//! A deployment's values for rulebook parameters, per jurisdiction, the
//! engine context every workflow decides in, and the law's deadlines read
//! through it.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::engine::deadline::deadline;
use outorga_core::model::{Dated, DeadlineKind, Rulebook};
use outorga_core::{Context, Overrides};
use rust_decimal::Decimal;
use sqlx::Row;
use std::collections::BTreeMap;
use std::str::FromStr;

/// The context `rulebook` decides in for `jurisdiction`: its parameters with
/// the deployment's values over them (those of other rulebooks left out),
/// and its fiscal units' values recorded from their days
/// (`units::deployed_units`).
pub(crate) async fn law<'r>(
    tx: &mut Tx,
    jurisdiction: &str,
    rulebook: &'r Rulebook,
) -> Result<Context<'r>, StoreError> {
    let overrides = Overrides {
        values: values(tx, jurisdiction)
            .await?
            .into_iter()
            .filter(|(name, _)| settable(rulebook, name))
            .collect(),
        units: crate::units::deployed_units(tx, jurisdiction, rulebook).await?,
        ..Overrides::default()
    };
    Ok(Context::new(rulebook, overrides))
}

/// The values the deployment gave to `jurisdiction`'s parameters, by
/// name, each from its day with its act, oldest first: those recorded
/// before acts were dated from the earliest day, without an act.
async fn values(
    tx: &mut Tx,
    jurisdiction: &str,
) -> Result<BTreeMap<String, Vec<Dated<Decimal>>>, StoreError> {
    let rows = sqlx::query(
        "SELECT name, '' AS valid_from, value, NULL AS act FROM jurisdiction_parameters \
         WHERE jurisdiction = $1 \
         UNION ALL SELECT name, valid_from, value, act FROM parameter_acts WHERE jurisdiction = $1 \
         ORDER BY name, valid_from",
    )
    .bind(jurisdiction)
    .fetch_all(&mut **tx)
    .await?;
    let mut values: BTreeMap<String, Vec<Dated<Decimal>>> = BTreeMap::new();
    for row in rows {
        let name: String = row.try_get("name")?;
        let value: String = row.try_get("value")?;
        let from: String = row.try_get("valid_from")?;
        let value = Decimal::from_str(&value)
            .map_err(|_| StoreError::Corrupt(format!("parameter {name} = `{value}`")))?;
        let from = if from.is_empty() {
            NaiveDate::MIN
        } else {
            crate::dates::day(&from)?
        };
        values.entry(name).or_default().push(Dated {
            from,
            value,
            source: row.try_get("act")?,
        });
    }
    Ok(values)
}

/// A parameter the rulebook declares, or the population every cap reads
/// (a law that leaves it to a decree, like Canguçu's art. 3º, § 2º, declares
/// none: the deployment gives it).
pub fn settable(rulebook: &Rulebook, name: &str) -> bool {
    rulebook.parameter_id(name).is_some()
        || (name == "population" && !rulebook.caps.is_empty())
        || tariff_parameters(rulebook).contains(&name)
}

/// The fare's values a decree sets, when the rulebook has a taximeter fare:
/// the bandeirada, the km of bandeira 1 (and of bandeira 2, unless the law
/// derives it), the hora parada (`engine::fare` reads them).
pub fn tariff_parameters(rulebook: &Rulebook) -> Vec<&'static str> {
    let Some(rule) = &rulebook.fare else {
        return Vec::new();
    };
    let mut names = vec!["tariff.bandeirada", "tariff.km_bandeira_1"];
    if rule.bandeira_2_increase.is_none() {
        names.push("tariff.km_bandeira_2");
    }
    names.push("tariff.hora_parada");
    names
}

/// The article of the rulebook's deadline of one of these kinds, if any.
pub(crate) fn deadline_article(rulebook: &Rulebook, kinds: &[DeadlineKind]) -> Vec<String> {
    rulebook
        .deadlines
        .iter()
        .find(|d| kinds.contains(&d.kind))
        .map(|d| vec![d.citation.to_string()])
        .unwrap_or_default()
}

/// The last day of the rulebook's `kind` limit starting `from`, with its
/// article, when the rulebook sets one.
pub(crate) fn optional_deadline(
    ctx: &Context<'_>,
    kind: DeadlineKind,
    from: NaiveDate,
) -> Result<Option<(NaiveDate, String)>, StoreError> {
    if ctx.rulebook.deadline(kind).is_none() {
        return Ok(None);
    }
    let d = deadline(ctx, kind, from)?;
    Ok(Some((
        d.due,
        d.citations.first().map_or(String::new(), |c| c.to_string()),
    )))
}

/// The last day of a traffic authorization issued on `on`: the law's term
/// for it where it sets one (Santa Maria de Jetibá art. 15: renewed every
/// year), never past the permit's end.
pub(crate) fn authorization_until(
    ctx: &Context<'_>,
    on: NaiveDate,
    permit_end: Option<NaiveDate>,
) -> Result<Option<NaiveDate>, StoreError> {
    let term =
        optional_deadline(ctx, DeadlineKind::TrafficAuthorizationTerm, on)?.map(|(day, _)| day);
    Ok(match (term, permit_end) {
        (Some(term), Some(end)) => Some(term.min(end)),
        (term, end) => term.or(end),
    })
}

impl Store {
    /// The context `rulebook` decides in for `jurisdiction`, as every
    /// workflow reads it (`law`): for the answers that write nothing.
    pub async fn deployed_law<'r>(
        &self,
        jurisdiction: &str,
        rulebook: &'r Rulebook,
    ) -> Result<Context<'r>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = law(&mut tx, jurisdiction, rulebook).await?;
        tx.commit().await?;
        Ok(ctx)
    }

    /// The values the deployment gave to `jurisdiction`'s parameters
    /// (`set_parameter`), by name, each from its day with its act; the
    /// law's own are the rulebooks'.
    pub async fn parameter_values(
        &self,
        jurisdiction: &str,
    ) -> Result<BTreeMap<String, Vec<Dated<Decimal>>>, StoreError> {
        let mut tx = self.pool.begin().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let found = values(&mut tx, jurisdiction).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// Sets a parameter of `rulebook` for `jurisdiction` (e.g. `population`)
    /// from a day by an act: the value in force from `act.from` on, until a
    /// later act. An act on the same day as one recorded corrects it (the
    /// log keeps what it said).
    pub async fn set_parameter(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (name, value): (&str, Decimal),
        act: &ParameterAct,
    ) -> Result<(), StoreError> {
        if !settable(rulebook, name) {
            return Err(StoreError::Invalid {
                field: "parâmetro",
                reason: format!("`{name}` não é parâmetro de {}", rulebook.id),
            });
        }
        if value < Decimal::ZERO {
            return Err(StoreError::Invalid {
                field: "valor",
                reason: "um parâmetro não é negativo".into(),
            });
        }
        let first = rulebook.first_version().version.valid_from;
        if act.from < first {
            return Err(StoreError::Invalid {
                field: "desde",
                reason: format!(
                    "{} é anterior à entrada em vigor da lei de {} ({}): o ato vale a partir dela ou depois",
                    act.from.format("%d/%m/%Y"),
                    rulebook.jurisdiction.name,
                    first.format("%d/%m/%Y")
                ),
            });
        }
        let act_text = crate::text::required("ato", &act.act, crate::text::TextKind::Line)?;
        let from = act.from.to_string();
        let key = || {
            RowRef::new(
                "parameter_acts",
                [jurisdiction.into(), name.into(), from.as_str().into()],
            )
        };
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        crate::audit::guard::unchanged(&mut tx, &self.audit.schema, &[key()]).await?;
        sqlx::query(
            "INSERT INTO parameter_acts (jurisdiction, name, valid_from, value, act) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (jurisdiction, name, valid_from) DO UPDATE SET value = excluded.value, act = excluded.act",
        )
        .bind(jurisdiction)
        .bind(name)
        .bind(&from)
        .bind(value.normalize().to_string())
        .bind(act_text)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "parameter.set",
                jurisdiction: Some(jurisdiction),
                subject: &format!("parameter:{name}"),
                detail: serde_json::json!({
                    "value": value.normalize().to_string(),
                    "rulebook": rulebook.id,
                    "from": from,
                    "act": act_text,
                }),
                rows: vec![key()],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// The act that sets a parameter's value, and the day it is in force from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterAct {
    pub from: NaiveDate,
    /// The act, as it is cited: "Decreto 1.234/2026", "IBGE, estimativa
    /// 2025 (DOU de 29/08/2025)".
    pub act: String,
}
