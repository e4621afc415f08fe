//! Services by authorization (Amapá art. 6º, III; 3º, VIII–IX; 27–29): a
//! carrier's charter (continuous, eventual) or emergency service, weighed by
//! the core's rules (`engine::charter`) on the day it is asked and, when the
//! law allows it, recorded with its authorization — a document with a code
//! an inspector checks on the road (art. 28, § 2º), valid through the
//! service's last day. Refused, nothing is written and the reasons come
//! with their articles. The list of passengers is kept, never published.
//! A charter is authorized on the carrier's registration in force
//! (`carrier_registrations`, art. 28, § 4º; 64, IV), which its paper names;
//! the files sent with the request (the contract, the invoice, the list as
//! signed) are kept with it, checked as every attachment is.

use crate::attachments::{Attachment, Bounds, StoredFile, decoded, stored_of};
use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, next_number};
use crate::carrier_registrations::{CarrierRegistration, registrations_of};
use crate::dates::day;
use crate::documents::{Document, issue};
use crate::fleet::engine_vehicle;
use crate::text::{TextKind, checked, required};
use crate::{Store, StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use outorga_core::engine::charter::{CharterKind, CharterRequest, decide};
use outorga_core::model::Rulebook;
use sqlx::Row;

/// The most passengers a list may name.
pub const MAX_PASSENGERS: usize = 100;

/// The most files a charter's request takes.
pub const MAX_FILES: usize = 5;

/// The most bytes a charter's files take together (10 MB).
pub const MAX_BYTES: usize = 10 * 1024 * 1024;

worded! {
    /// What a file sent with a charter's request is.
    pub enum CharterFileKind {
        Contract = "contract" => "contrato do fretamento",
        Invoice = "invoice" => "nota fiscal",
        PassengerList = "passenger_list" => "lista de passageiros assinada",
        Other = "other" => "outro documento",
    }
}

/// A file sent with a charter's request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharterDocument {
    pub kind: CharterFileKind,
    pub file: Attachment,
}

/// A charter's file as kept (its bytes apart: [`Store::charter_file`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharterFile {
    pub kind: CharterFileKind,
    pub file: StoredFile,
}

/// A passenger on a charter's list.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Passenger {
    pub name: String,
    pub document: String,
}

/// What the carrier asks to be authorized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharterInput {
    pub carrier: String,
    pub kind: CharterKind,
    pub from: NaiveDate,
    pub until: NaiveDate,
    pub origin: String,
    /// The farthest place (a trip's destination).
    pub destination: String,
    /// Where the service ends (a charter: back where it left).
    pub end: String,
    pub route: String,
    pub plate: String,
    /// Who hires it.
    pub client: String,
    /// The client's CPF or CNPJ, when given.
    pub client_document: Option<String>,
    pub invoice: Option<String>,
    pub contract: Option<String>,
    /// A continuous charter: the trips its contract sets.
    pub trips: Option<u32>,
    /// An emergency service: the line it serves.
    pub line: Option<String>,
    pub passengers: Vec<Passenger>,
    /// Files sent with the request (none when read back: [`Charter::files`]).
    pub files: Vec<CharterDocument>,
}

/// A service authorized.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Charter {
    pub year: i32,
    pub number: i64,
    pub input: CharterInput,
    pub authorized_on: NaiveDate,
    /// The authorization.
    pub document: Document,
    pub articles: Vec<String>,
    /// The carrier's registration it was authorized on ("número/ano").
    pub registration: Option<String>,
    /// The files sent with the request (read with [`Store::charter`]).
    pub files: Vec<CharterFile>,
}

/// The request's own fields checked (the law's rules are the engine's).
fn check(input: &CharterInput) -> Result<CharterInput, StoreError> {
    let text = |field, value: &str| required(field, value, TextKind::Line).map(str::to_string);
    let optional = |field, value: &Option<String>| -> Result<Option<String>, StoreError> {
        Ok(value
            .as_deref()
            .map(|v| checked(field, v, TextKind::Line))
            .transpose()?
            .filter(|v| !v.is_empty())
            .map(str::to_string))
    };
    if input.passengers.len() > MAX_PASSENGERS {
        return Err(StoreError::invalid(
            "passageiros",
            format!(
                "{} passageiros; a lista tem no máximo {MAX_PASSENGERS}",
                input.passengers.len()
            ),
        ));
    }
    let passengers = input
        .passengers
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let name = required("passageiros", &p.name, TextKind::Name).map_err(|_| {
                StoreError::invalid(
                    "passageiros",
                    format!("o passageiro nº {} não tem nome", i + 1),
                )
            })?;
            Ok(Passenger {
                name: name.to_string(),
                document: checked("passageiros", &p.document, TextKind::Code)?.to_string(),
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(CharterInput {
        carrier: input.carrier.clone(),
        kind: input.kind,
        from: input.from,
        until: input.until,
        origin: text("origem", &input.origin)?,
        destination: text("destino", &input.destination)?,
        end: text("retorno", &input.end)?,
        route: checked("itinerario", &input.route, TextKind::Long)?.to_string(),
        plate: crate::parse_plate(&input.plate)?,
        client: text("contratante", &input.client)?,
        client_document: optional("documento_contratante", &input.client_document)?,
        invoice: optional("nota_fiscal", &input.invoice)?,
        contract: optional("contrato", &input.contract)?,
        trips: match input.trips {
            Some(n) if !(1..=10_000).contains(&n) => {
                return Err(StoreError::Invalid {
                    field: "viagens",
                    reason: format!("{n} viagens: informe de 1 a 10000, como o contrato define"),
                });
            }
            trips => trips,
        },
        line: optional("linha", &input.line)?,
        passengers,
        files: input
            .files
            .iter()
            .filter(|d| !d.file.bytes.is_empty())
            .cloned()
            .collect(),
    })
}

impl Store {
    /// Authorizes the service `input` asks for, on the day of `change`, if
    /// the law allows it: its number, its authorization and the articles.
    pub async fn authorize_charter(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        input: &CharterInput,
    ) -> Result<Charter, StoreError> {
        let input = check(input)?;
        let sent: Vec<&Attachment> = input.files.iter().map(|d| &d.file).collect();
        let files = crate::attachments::check(
            "anexos",
            &sent,
            Bounds {
                files: MAX_FILES,
                bytes: MAX_BYTES,
            },
        )?;
        let attached = |kind: CharterFileKind| input.files.iter().any(|d| d.kind == kind);
        let today = rulebook.jurisdiction.today(change.at);
        if input.until < input.from {
            return Err(StoreError::invalid(
                "ate",
                format!(
                    "{} é antes do início ({})",
                    input.until.format("%d/%m/%Y"),
                    input.from.format("%d/%m/%Y")
                ),
            ));
        }
        let carrier = self
            .registered(jurisdiction, &input.carrier)
            .await?
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "a transportadora {} não está cadastrada em {jurisdiction}",
                    input.carrier
                ))
            })?;
        if carrier.kind != crate::Kind::Company {
            return Err(StoreError::invalid(
                "transportadora",
                "a autorização é dada a uma empresa transportadora (CNPJ)",
            ));
        }
        let vehicle = self
            .vehicle(jurisdiction, &input.plate)
            .await?
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "o ônibus {} não está cadastrado em {jurisdiction}",
                    input.plate
                ))
            })?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let engine = engine_vehicle(&mut tx, jurisdiction, &vehicle, None).await?;
        let barred = crate::delegation_bar::caducity_bar(
            &mut tx,
            &ctx,
            jurisdiction,
            &carrier.document,
            today,
        )
        .await?;
        let system_carrier =
            crate::line_operations::delegated(&mut tx, jurisdiction, &carrier.document).await?;
        let registrations: Vec<CarrierRegistration> =
            registrations_of(&mut tx, jurisdiction, &carrier.document).await?;
        let engine_registrations: Vec<_> = registrations
            .iter()
            .map(CarrierRegistration::engine)
            .collect();
        let client_is_company = input
            .client_document
            .as_deref()
            .and_then(|d| crate::parse_document(d).ok())
            .map(|(_, kind)| kind == crate::Kind::Company);
        let answer = decide(
            &ctx,
            &CharterRequest {
                kind: input.kind,
                from: input.from,
                until: input.until,
                origin: &input.origin,
                end: &input.end,
                passengers: (!input.passengers.is_empty())
                    .then(|| u32::try_from(input.passengers.len()).unwrap_or(u32::MAX)),
                invoice: input.invoice.is_some() || attached(CharterFileKind::Invoice),
                contract: input.contract.is_some() || attached(CharterFileKind::Contract),
                trips: input.trips,
                client_is_company,
                vehicle: &engine,
                seats: vehicle.capacity.map(u32::from),
                barred,
                registrations: &engine_registrations,
                system_carrier,
            },
            today,
        )?;
        if !answer.allowed {
            return Err(StoreError::Refused {
                reason: format!(
                    "autorização negada: {}",
                    answer
                        .reasons
                        .iter()
                        .map(|(why, _)| why.as_str())
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                articles: answer.reasons.iter().map(|(_, a)| a.clone()).collect(),
            });
        }
        // The registration in force on the service's first day (a charter
        // is refused without one, where the law keeps the register).
        let registration = (input.kind != CharterKind::Emergency)
            .then(|| {
                registrations
                    .iter()
                    .find(|r| r.in_force_on(input.from))
                    .map(CarrierRegistration::label)
            })
            .flatten();
        let year = today.year();
        let number = next_number(&mut tx, jurisdiction, "charter", year).await?;
        let subject = format!("charter:{year}:{number}");
        let document = issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            ("charter_authorization", &subject, &carrier.document),
            today,
            Some(input.until),
        )
        .await?;
        sqlx::query(
            "INSERT INTO charters (jurisdiction, year, number, carrier, kind, from_day, until_day, \
             origin, destination, end_place, route, plate, client, invoice, contract, line, \
             passengers, authorized_on, document, citations, registration, trips) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, \
             $18, $19, $20, $21, $22)",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(&carrier.document)
        .bind(input.kind.name())
        .bind(input.from.to_string())
        .bind(input.until.to_string())
        .bind(&input.origin)
        .bind(&input.destination)
        .bind(&input.end)
        .bind(&input.route)
        .bind(&input.plate)
        .bind(match &input.client_document {
            Some(d) => format!("{} ({d})", input.client),
            None => input.client.clone(),
        })
        .bind(input.invoice.clone())
        .bind(input.contract.clone())
        .bind(input.line.clone())
        .bind(
            serde_json::to_string(&input.passengers)
                .map_err(|e| StoreError::Corrupt(e.to_string()))?,
        )
        .bind(today.to_string())
        .bind(&document.code)
        .bind(serde_json::json!(answer.citations).to_string())
        .bind(registration.clone())
        .bind(input.trips.map(i64::from))
        .execute(&mut *tx)
        .await?;
        let mut rows = vec![RowRef::new(
            "charters",
            [jurisdiction.into(), year.into(), number.into()],
        )];
        let kinded: Vec<_> = files
            .iter()
            .zip(&input.files)
            .map(|(file, document)| (file, document.kind.name()))
            .collect();
        let (written, hashes) = crate::attachments::write_kinded(
            &mut tx,
            "charter_files",
            (jurisdiction, year, number),
            &kinded,
        )
        .await?;
        rows.extend(written);
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "charter.authorize",
                jurisdiction: Some(jurisdiction),
                subject: &subject,
                detail: serde_json::json!({
                    "kind": input.kind.name(), "carrier": carrier.document,
                    "from": input.from, "until": input.until, "plate": input.plate,
                    "document": document.code, "articles": answer.citations,
                    "registration": registration, "files": hashes,
                }),
                rows,
            },
        )
        .await?;
        let kept = files_of(&mut tx, jurisdiction, (year, number)).await?;
        tx.commit().await?;
        Ok(Charter {
            year,
            number,
            input: CharterInput {
                carrier: carrier.document,
                ..input
            },
            authorized_on: today,
            document,
            articles: answer.citations,
            registration,
            files: kept,
        })
    }

    /// The latest `limit` services authorized to `carrier`, newest first.
    pub async fn recent_charters(
        &self,
        jurisdiction: &str,
        carrier: &str,
        limit: u32,
    ) -> Result<Vec<Charter>, StoreError> {
        sqlx::query(
            "SELECT c.*, d.kind AS doc_kind, d.subject, d.holder, d.issued_on, d.valid_until, \
             d.cancelled_on FROM charters c JOIN documents d ON d.code = c.document \
             WHERE c.jurisdiction = $1 AND c.carrier = $2 ORDER BY c.year DESC, c.number DESC LIMIT $3",
        )
        .bind(jurisdiction)
        .bind(carrier)
        .bind(i64::from(limit))
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(|row| charter_of(jurisdiction, row))
        .collect()
    }

    /// A service authorized, by its number.
    pub async fn charter(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
    ) -> Result<Charter, StoreError> {
        let row = sqlx::query(
            "SELECT c.*, d.kind AS doc_kind, d.subject, d.holder, d.issued_on, d.valid_until, \
             d.cancelled_on FROM charters c JOIN documents d ON d.code = c.document \
             WHERE c.jurisdiction = $1 AND c.year = $2 AND c.number = $3",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .fetch_optional(&self.pool)
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("não há autorização nº {number}/{year}")))?;
        let mut charter = charter_of(jurisdiction, &row)?;
        let mut tx = self.pool.begin().await?;
        charter.files = files_of(&mut tx, jurisdiction, (year, number)).await?;
        tx.commit().await?;
        Ok(charter)
    }

    /// File `seq` of a charter: its name, type and bytes.
    pub async fn charter_file(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
        seq: i64,
    ) -> Result<Option<(String, String, Vec<u8>)>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT name, content_type, content FROM charter_files \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(seq)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let content: String = row.try_get("content")?;
        let bytes = decoded(&content, &format!("charter {number}/{year}/{seq}"))?;
        Ok(Some((
            row.try_get("name")?,
            row.try_get("content_type")?,
            bytes,
        )))
    }
}

async fn files_of(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Vec<CharterFile>, StoreError> {
    let rows = sqlx::query(
        "SELECT seq, kind, name, content_type, size, sha256 FROM charter_files \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 ORDER BY seq",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|row| {
            let kind: String = row.try_get("kind")?;
            Ok(CharterFile {
                kind: CharterFileKind::parse(&kind)
                    .ok_or_else(|| StoreError::Corrupt(format!("charter file kind {kind}")))?,
                file: stored_of(row)?,
            })
        })
        .collect()
}

fn charter_of(jurisdiction: &str, row: &sqlx::any::AnyRow) -> Result<Charter, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let kind = text("kind")?;
    let year: i64 = row.try_get("year")?;
    let valid: Option<String> = row.try_get("valid_until")?;
    let cancelled: Option<String> = row.try_get("cancelled_on")?;
    Ok(Charter {
        year: i32::try_from(year).unwrap_or_default(),
        number: row.try_get("number")?,
        input: CharterInput {
            carrier: text("carrier")?,
            kind: CharterKind::parse(&kind)
                .ok_or_else(|| StoreError::Corrupt(format!("charter kind {kind}")))?,
            from: day(&text("from_day")?)?,
            until: day(&text("until_day")?)?,
            origin: text("origin")?,
            destination: text("destination")?,
            end: text("end_place")?,
            route: text("route")?,
            plate: text("plate")?,
            client: text("client")?,
            client_document: None,
            invoice: row.try_get("invoice")?,
            contract: row.try_get("contract")?,
            trips: row
                .try_get::<Option<i64>, _>("trips")?
                .and_then(|n| u32::try_from(n).ok()),
            line: row.try_get("line")?,
            passengers: serde_json::from_str(&text("passengers")?).unwrap_or_default(),
            files: Vec::new(),
        },
        authorized_on: day(&text("authorized_on")?)?,
        document: Document {
            code: text("document")?,
            jurisdiction: jurisdiction.to_string(),
            kind: text("doc_kind")?,
            subject: text("subject")?,
            holder: text("holder")?,
            issued_on: day(&text("issued_on")?)?,
            valid_until: valid.as_deref().map(day).transpose()?,
            cancelled_on: cancelled.as_deref().map(day).transpose()?,
        },
        articles: serde_json::from_str(&text("citations")?).unwrap_or_default(),
        registration: row.try_get("registration")?,
        files: Vec::new(),
    })
}
