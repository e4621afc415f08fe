//! The taxi and mototaxi stands of a jurisdiction.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::day;
use crate::listing::{self, Filter, Kind, List, Page, Window, text};
use crate::{Store, StoreError, code_and_name, refused_if_taken};
use chrono::NaiveDate;
use sqlx::Row;

/// A stand as recorded: `capacity` places, or none for a free stand; the
/// act that set it; a provisional stand of an event (Canguçu art. 16; SMJ
/// art. 28, § 2º, III) exists only from `opens_on` through `closes_on`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stand {
    pub code: String,
    pub name: String,
    pub capacity: Option<u32>,
    pub act: Option<String>,
    pub opens_on: Option<NaiveDate>,
    pub closes_on: Option<NaiveDate>,
}

impl Stand {
    /// A stand as most are: fixed or free, for good, no act named.
    pub fn new(code: &str, name: &str, capacity: Option<u32>) -> Stand {
        Stand {
            code: code.into(),
            name: name.into(),
            capacity,
            act: None,
            opens_on: None,
            closes_on: None,
        }
    }
}

impl Store {
    /// Records a stand of `jurisdiction`; a code already there is refused.
    pub async fn register_stand(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        stand: &Stand,
    ) -> Result<(), StoreError> {
        let (code, name) = code_and_name(&stand.code, &stand.name)?;
        if stand.capacity == Some(0) {
            return Err(StoreError::Invalid {
                field: "vagas",
                reason: "um ponto fixo tem ao menos uma vaga; um ponto livre não tem vagas".into(),
            });
        }
        let act = stand
            .act
            .as_deref()
            .map(|a| crate::text::required("ato", a, crate::text::TextKind::Name))
            .transpose()?
            .map(str::to_string);
        match (stand.opens_on, stand.closes_on) {
            (None, None) => {}
            (Some(opens), Some(closes)) if opens <= closes && stand.capacity.is_none() => {}
            (Some(_), Some(_)) if stand.capacity.is_some() => {
                return Err(StoreError::Invalid {
                    field: "vagas",
                    reason: "um ponto provisório de evento é livre: não tem vagas designadas"
                        .into(),
                });
            }
            (Some(opens), Some(closes)) => {
                return Err(StoreError::Invalid {
                    field: "ate",
                    reason: format!(
                        "o ponto provisório termina ({}) antes de começar ({}): confira as datas",
                        closes.format("%d/%m/%Y"),
                        opens.format("%d/%m/%Y")
                    ),
                });
            }
            _ => {
                return Err(StoreError::Invalid {
                    field: "ate",
                    reason: "um ponto provisório tem o primeiro e o último dia do evento".into(),
                });
            }
        }
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        sqlx::query(
            "INSERT INTO stands (jurisdiction, code, name, capacity, act, opens_on, closes_on) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(jurisdiction)
        .bind(&code)
        .bind(&name)
        .bind(stand.capacity.map(i64::from))
        .bind(act.clone())
        .bind(stand.opens_on.map(|d| d.to_string()))
        .bind(stand.closes_on.map(|d| d.to_string()))
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            refused_if_taken(
                e,
                "código",
                format!("o ponto {code} já está cadastrado em {jurisdiction}"),
            )
        })?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "stand.register",
                jurisdiction: Some(jurisdiction),
                subject: &format!("stand:{code}"),
                detail: serde_json::json!({
                    "name": name, "capacity": stand.capacity, "act": act,
                    "opens_on": stand.opens_on, "closes_on": stand.closes_on,
                }),
                rows: vec![RowRef::new("stands", [jurisdiction.into(), (&code).into()])],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// A page of the stands of `jurisdiction`, by code.
    pub async fn stands(
        &self,
        jurisdiction: &str,
        window: Window<'_>,
    ) -> Result<Page<Stand>, StoreError> {
        let rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        listing::page(&self.pool, &STANDS, &rows, window, stand_of).await
    }
}

/// Stands by code (the primary key).
const STANDS: List = List {
    name: "stands",
    table: "stands",
    columns: "code, name, capacity, act, opens_on, closes_on",
    key: &[("code", Kind::Text)],
    descending: false,
};

fn stand_of(row: &sqlx::any::AnyRow) -> Result<Stand, StoreError> {
    let capacity: Option<i64> = row.try_get("capacity")?;
    let opens: Option<String> = row.try_get("opens_on")?;
    let closes: Option<String> = row.try_get("closes_on")?;
    Ok(Stand {
        code: row.try_get("code")?,
        name: row.try_get("name")?,
        capacity: capacity.map(|c| u32::try_from(c).unwrap_or(u32::MAX)),
        act: row.try_get("act")?,
        opens_on: opens.as_deref().map(day).transpose()?,
        closes_on: closes.as_deref().map(day).transpose()?,
    })
}

/// The stand `code` of `jurisdiction`, or that there is none.
pub(crate) async fn read_stand<'e, E>(
    executor: E,
    jurisdiction: &str,
    code: &str,
) -> Result<Stand, StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let code = code.trim().to_uppercase();
    let row = sqlx::query(
        "SELECT code, name, capacity, act, opens_on, closes_on FROM stands \
         WHERE jurisdiction = $1 AND code = $2",
    )
    .bind(jurisdiction)
    .bind(&code)
    .fetch_optional(executor)
    .await?;
    match row {
        Some(row) => stand_of(&row),
        None => Err(StoreError::NotFound(format!(
            "não há ponto {code} em {jurisdiction}"
        ))),
    }
}
