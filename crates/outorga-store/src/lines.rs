//! The intercity bus lines of a jurisdiction, with their tariff coefficients.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::listing::{self, Filter, Kind, List, Page, Window, text};
use crate::text::{TextKind, checked};
use crate::{Store, StoreError, code_and_name, refused_if_taken};
use rust_decimal::Decimal;
use sqlx::Row;
use std::str::FromStr;

/// A line as recorded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    pub code: String,
    pub name: String,
    pub semi_urban: bool,
    /// BRL per passenger-km, exact.
    pub coefficient: Decimal,
    /// The localities served, in order.
    pub itinerary: Vec<String>,
    /// Its sections between two localities of the itinerary.
    pub sections: Vec<Section>,
}

/// A section (seccionamento) of a line and its length.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Section {
    pub from: String,
    pub to: String,
    /// Kilometres, exact.
    pub km: Decimal,
}

/// The route checked: localities named once, sections between two of them
/// in the itinerary's order, positive lengths.
/// The most places an itinerary lists.
pub const MAX_PLACES: usize = 200;

fn check_route(line: &Line) -> Result<(Vec<String>, Vec<Section>), StoreError> {
    let invalid = |field: &'static str, reason: String| StoreError::Invalid { field, reason };
    if line.itinerary.len() > MAX_PLACES {
        return Err(invalid(
            "itinerário",
            format!(
                "tem {} lugares; o máximo é {MAX_PLACES}",
                line.itinerary.len()
            ),
        ));
    }
    let itinerary: Vec<String> = line
        .itinerary
        .iter()
        .map(|l| checked("itinerário", l, TextKind::Name).map(str::to_string))
        .filter(|l| l.as_ref().map_or(true, |l| !l.is_empty()))
        .collect::<Result<_, _>>()?;
    for (i, place) in itinerary.iter().enumerate() {
        if itinerary[..i].contains(place) {
            return Err(invalid("itinerário", format!("{place} aparece duas vezes")));
        }
    }
    let position = |place: &str| itinerary.iter().position(|p| p == place.trim());
    let mut sections = Vec::new();
    for s in &line.sections {
        let (Some(from), Some(to)) = (position(&s.from), position(&s.to)) else {
            return Err(invalid(
                "seções",
                format!("{} → {}: as duas pontas estão no itinerário", s.from, s.to),
            ));
        };
        if from >= to {
            return Err(invalid(
                "seções",
                format!("{} → {}: siga a ordem do itinerário", s.from, s.to),
            ));
        }
        if s.km <= Decimal::ZERO {
            return Err(invalid(
                "seções",
                format!("{} → {}: a extensão é maior que zero", s.from, s.to),
            ));
        }
        sections.push(Section {
            from: s.from.trim().to_string(),
            to: s.to.trim().to_string(),
            km: s.km.normalize(),
        });
    }
    Ok((itinerary, sections))
}

/// A coefficient written as a decimal (point or comma), positive.
pub fn parse_coefficient(text: &str) -> Result<Decimal, StoreError> {
    let invalid = |reason: &str| StoreError::Invalid {
        field: "coeficiente",
        reason: format!("`{text}`: {reason}"),
    };
    let value = Decimal::from_str(&text.trim().replace(',', "."))
        .map_err(|_| invalid("escreva um número decimal, como 0,2175"))?;
    if value <= Decimal::ZERO {
        return Err(invalid("o coeficiente tarifário é maior que zero"));
    }
    Ok(value.normalize())
}

impl Store {
    /// Records a line of `jurisdiction`; a code already there is refused.
    pub async fn register_line(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        line: &Line,
    ) -> Result<(), StoreError> {
        let (code, name) = code_and_name(&line.code, &line.name)?;
        if line.coefficient <= Decimal::ZERO {
            return Err(StoreError::Invalid {
                field: "coeficiente",
                reason: "o coeficiente tarifário é maior que zero".into(),
            });
        }
        let (itinerary, sections) = check_route(line)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        sqlx::query(
            "INSERT INTO lines (jurisdiction, code, name, semi_urban, coefficient, itinerary, sections) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(jurisdiction)
        .bind(&code)
        .bind(&name)
        .bind(i32::from(line.semi_urban))
        .bind(line.coefficient.normalize().to_string())
        .bind(serde_json::json!(itinerary).to_string())
        .bind(serde_json::json!(sections).to_string())
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            refused_if_taken(e, "código", format!("a linha {code} já está cadastrada em {jurisdiction}"))
        })?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "line.register",
                jurisdiction: Some(jurisdiction),
                subject: &format!("line:{code}"),
                detail: serde_json::json!({ "name": name, "semi_urban": line.semi_urban, "coefficient": line.coefficient.normalize().to_string() }),
                rows: vec![RowRef::new("lines", [jurisdiction.into(), (&code).into()])],
            },
        )
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// The line `code` of `jurisdiction`, if recorded.
    pub async fn line(&self, jurisdiction: &str, code: &str) -> Result<Option<Line>, StoreError> {
        sqlx::query(
            "SELECT code, name, semi_urban, coefficient, itinerary, sections FROM lines \
             WHERE jurisdiction = $1 AND code = $2",
        )
        .bind(jurisdiction)
        .bind(code)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(line_of)
        .transpose()
    }

    /// A page of the lines of `jurisdiction`, by code.
    pub async fn lines(
        &self,
        jurisdiction: &str,
        window: Window<'_>,
    ) -> Result<Page<Line>, StoreError> {
        let rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        listing::page(&self.pool, &LINES, &rows, window, line_of).await
    }
}

/// Lines by code (the primary key).
const LINES: List = List {
    name: "lines",
    table: "lines",
    columns: "code, name, semi_urban, coefficient, itinerary, sections",
    key: &[("code", Kind::Text)],
    descending: false,
};

fn line_of(row: &sqlx::any::AnyRow) -> Result<Line, StoreError> {
    let semi: i32 = row.try_get("semi_urban")?;
    let coefficient: String = row.try_get("coefficient")?;
    let itinerary: String = row.try_get("itinerary")?;
    let sections: String = row.try_get("sections")?;
    Ok(Line {
        code: row.try_get("code")?,
        name: row.try_get("name")?,
        semi_urban: semi == 1,
        coefficient: parse_coefficient(&coefficient)?,
        itinerary: serde_json::from_str(&itinerary).unwrap_or_default(),
        sections: serde_json::from_str(&sections).unwrap_or_default(),
    })
}
