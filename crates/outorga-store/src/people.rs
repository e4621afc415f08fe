//! The register of people (CPF) and companies (CNPJ) of a jurisdiction.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::{Store, StoreError, Tx, refused_if_taken};
use sqlx::Row;

/// A person or company as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registered {
    /// CPF (11 digits) or CNPJ (14 characters), without punctuation.
    pub document: String,
    pub kind: Kind,
    pub name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Person,
    Company,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Person => "person",
            Kind::Company => "company",
        }
    }
}

/// The document without punctuation, and whose it is: a valid CPF is a
/// person's, a valid CNPJ (numeric or alphanumeric) a company's.
pub fn parse_document(text: &str) -> Result<(String, Kind), StoreError> {
    let bare: String = text
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | '/' | ' '))
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let invalid = |reason: &str| StoreError::Invalid {
        field: "documento",
        reason: format!("`{text}`: {reason}"),
    };
    match bare.len() {
        11 if cpf_cnpj::cpf::validate(&bare) => Ok((bare, Kind::Person)),
        11 => Err(invalid("CPF inválido (dígitos verificadores não conferem)")),
        14 if cpf_cnpj::cnpj::validate(&bare) => Ok((bare, Kind::Company)),
        14 => Err(invalid(
            "CNPJ inválido (dígitos verificadores não conferem)",
        )),
        _ => Err(invalid(
            "informe um CPF (11 dígitos) ou um CNPJ (14 caracteres)",
        )),
    }
}

impl Store {
    /// Records a person or company in `jurisdiction`'s register, all or
    /// nothing; a document already there, an invalid one or an empty name is
    /// refused with the field and the reason.
    pub async fn register(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        document: &str,
        name: &str,
    ) -> Result<Registered, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let done = self
            .register_in(&mut tx, change, jurisdiction, document, name)
            .await?;
        tx.commit().await?;
        Ok(done)
    }

    /// The same, within the caller's transaction (the import runs rows in its own).
    pub(crate) async fn register_in(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        jurisdiction: &str,
        document: &str,
        name: &str,
    ) -> Result<Registered, StoreError> {
        let (document, kind) = parse_document(document)?;
        let name = crate::text::required("nome", name, crate::TextKind::Name)?;
        self.known_jurisdiction(tx, jurisdiction).await?;
        sqlx::query(
            "INSERT INTO people (jurisdiction, document, kind, name) VALUES ($1, $2, $3, $4)",
        )
        .bind(jurisdiction)
        .bind(&document)
        .bind(kind.as_str())
        .bind(name)
        .execute(&mut **tx)
        .await
        // A document already registered (or registered meanwhile) loses on the key.
        .map_err(|e| {
            refused_if_taken(
                e,
                "documento",
                format!("{document} já está cadastrado em {jurisdiction}"),
            )
        })?;
        crate::search::index_person(tx, jurisdiction, &document, name).await?;
        append(
            tx,
            &self.audit,
            change,
            Entry {
                action: "person.register",
                jurisdiction: Some(jurisdiction),
                subject: &format!("person:{document}"),
                detail: serde_json::json!({ "kind": kind.as_str(), "name": name }),
                rows: vec![RowRef::new(
                    "people",
                    [jurisdiction.into(), (&document).into()],
                )],
            },
        )
        .await?;
        Ok(Registered {
            document,
            kind,
            name: name.to_string(),
        })
    }

    /// A page of `jurisdiction`'s register, by name.
    pub async fn people(
        &self,
        jurisdiction: &str,
        window: Window<'_>,
    ) -> Result<Page<Registered>, StoreError> {
        let rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        listing::page(&self.pool, &PEOPLE, &rows, window, registered_of).await
    }

    /// The person or company with this document in `jurisdiction`, if any.
    pub async fn registered(
        &self,
        jurisdiction: &str,
        document: &str,
    ) -> Result<Option<Registered>, StoreError> {
        let (document, _) = parse_document(document)?;
        read(&self.pool, jurisdiction, &document).await
    }
}

/// The person or company with this document (without punctuation), if any.
pub(crate) async fn read(
    executor: impl sqlx::Executor<'_, Database = sqlx::Any>,
    jurisdiction: &str,
    document: &str,
) -> Result<Option<Registered>, StoreError> {
    let row = sqlx::query(
        "SELECT document, kind, name FROM people WHERE jurisdiction = $1 AND document = $2",
    )
    .bind(jurisdiction)
    .bind(document)
    .fetch_optional(executor)
    .await?;
    row.map(|row| registered_of(&row)).transpose()
}

/// A row of `people` (document, kind, name).
fn registered_of(row: &sqlx::any::AnyRow) -> Result<Registered, StoreError> {
    let kind: String = row.try_get("kind")?;
    Ok(Registered {
        document: row.try_get("document")?,
        kind: if kind == "company" {
            Kind::Company
        } else {
            Kind::Person
        },
        name: row.try_get("name")?,
    })
}

/// The register by name (index `people_by_name`, migration 0031).
const PEOPLE: List = List {
    name: "people",
    table: "people",
    columns: "document, kind, name",
    key: &[("name", KeyKind::Text), ("document", KeyKind::Text)],
    descending: false,
};
