//! The taxi and mototaxi stands of a jurisdiction.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::listing::{self, Filter, Kind, List, Page, Window, text};
use crate::{Store, StoreError, code_and_name, refused_if_taken};
use sqlx::Row;

/// A stand as recorded: `capacity` places, or none for a free stand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stand {
    pub code: String,
    pub name: String,
    pub capacity: Option<u32>,
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
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        sqlx::query(
            "INSERT INTO stands (jurisdiction, code, name, capacity) VALUES ($1, $2, $3, $4)",
        )
        .bind(jurisdiction)
        .bind(&code)
        .bind(&name)
        .bind(stand.capacity.map(i64::from))
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
                detail: serde_json::json!({ "name": name, "capacity": stand.capacity }),
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
    columns: "code, name, capacity",
    key: &[("code", Kind::Text)],
    descending: false,
};

fn stand_of(row: &sqlx::any::AnyRow) -> Result<Stand, StoreError> {
    let capacity: Option<i64> = row.try_get("capacity")?;
    Ok(Stand {
        code: row.try_get("code")?,
        name: row.try_get("name")?,
        capacity: capacity.map(|c| u32::try_from(c).unwrap_or(u32::MAX)),
    })
}
