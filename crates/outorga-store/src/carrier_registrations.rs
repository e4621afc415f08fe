//! The register of the carriers authorized for special services (Amapá
//! art. 28, § 4º): a carrier's registration — numbered per jurisdiction and
//! year, its term the core's (`engine::carrier_registration::grant`: the
//! rulebook's validity, a renewal from the day after the one in force
//! ends) — with the documents it presented (contrato social, cartão CNPJ,
//! certidões negativas, the fleet's inspection, the insurance policy…,
//! checked as every attachment is: `attachments`), and its cancellation by
//! the agency with its grounds (art. 28, § 5º: at once). A charter is
//! authorized only on a registration in force (`charters.rs` reads them
//! here). Every write audited; refused, nothing is written.

use crate::attachments::{Attachment, Bounds, StoredFile, check, decoded, stored_of};
use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, next_number};
use crate::dates::day;
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::text::{TextKind, checked as checked_text};
use crate::{Store, StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use outorga_core::engine::carrier_registration::{self, Registration};
use outorga_core::model::Rulebook;
use sqlx::Row;

/// The most documents a registration takes.
pub const MAX_FILES: usize = 10;

/// The most bytes a registration's documents take together (20 MB).
pub const MAX_BYTES: usize = 20 * 1024 * 1024;

worded! {
    /// What a document presented for a registration is.
    pub enum RegistrationFileKind {
        ArticlesOfAssociation = "articles_of_association" => "contrato social ou estatuto",
        CnpjCard = "cnpj_card" => "cartão CNPJ",
        ClearanceCertificates = "clearance_certificates" => "certidões negativas",
        FleetInspection = "fleet_inspection" => "certificado de vistoria da frota",
        InsurancePolicy = "insurance_policy" => "apólice de seguro",
        Other = "other" => "outro documento",
    }
}

worded! {
    /// A registration's status as recorded (one in force may have run out:
    /// [`CarrierRegistration::in_force_on`]).
    pub enum RegistrationStatus {
        InForce = "in_force" => "registrado",
        Cancelled = "cancelled" => "cassado",
    }
}

/// A document presented for a registration.
#[derive(Debug, Clone)]
pub struct RegistrationDocument {
    pub kind: RegistrationFileKind,
    pub file: Attachment,
}

/// A document as kept (its bytes apart:
/// [`Store::carrier_registration_file`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegistrationFile {
    pub kind: RegistrationFileKind,
    pub file: StoredFile,
}

/// A carrier's registration as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CarrierRegistration {
    pub jurisdiction: String,
    pub year: i32,
    pub number: i64,
    pub carrier: String,
    pub granted_on: NaiveDate,
    pub valid_from: NaiveDate,
    pub valid_until: NaiveDate,
    /// The registration it renews ("número/ano").
    pub renews: Option<String>,
    pub status: RegistrationStatus,
    /// The day it was cancelled, the grounds and the article.
    pub cancelled: Option<(NaiveDate, String, String)>,
    pub recorded_by: String,
    pub articles: Vec<String>,
    pub files: Vec<RegistrationFile>,
}

impl CarrierRegistration {
    /// Its number as people read it ("3/2030").
    pub fn label(&self) -> String {
        format!("{}/{}", self.number, self.year)
    }

    /// As the core weighs it.
    pub fn engine(&self) -> Registration {
        Registration {
            number: self.label(),
            from: self.valid_from,
            until: self.valid_until,
            cancelled_on: self.cancelled.as_ref().map(|c| c.0),
        }
    }

    /// Whether it is in force on `day`.
    pub fn in_force_on(&self, day: NaiveDate) -> bool {
        self.engine().in_force_on(day)
    }
}

const COLUMNS: &str = "jurisdiction, year, number, carrier, granted_on, valid_from, valid_until, \
     renews, status, cancelled_on, cancel_reason, cancel_article, recorded_by, citations";

const LISTED: List = List {
    name: "carrier_registrations",
    table: "carrier_registrations",
    columns: COLUMNS,
    key: &[("year", KeyKind::Int), ("number", KeyKind::Int)],
    descending: true,
};

fn registration_of(row: &sqlx::any::AnyRow) -> Result<CarrierRegistration, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let status = text("status")?;
    let year: i64 = row.try_get("year")?;
    let cancelled_on: Option<String> = row.try_get("cancelled_on")?;
    let cancelled = match cancelled_on {
        Some(on) => Some((
            day(&on)?,
            row.try_get::<Option<String>, _>("cancel_reason")?
                .unwrap_or_default(),
            row.try_get::<Option<String>, _>("cancel_article")?
                .unwrap_or_default(),
        )),
        None => None,
    };
    Ok(CarrierRegistration {
        jurisdiction: text("jurisdiction")?,
        year: i32::try_from(year)
            .map_err(|_| StoreError::Corrupt(format!("registration year {year}")))?,
        number: row.try_get("number")?,
        carrier: text("carrier")?,
        granted_on: day(&text("granted_on")?)?,
        valid_from: day(&text("valid_from")?)?,
        valid_until: day(&text("valid_until")?)?,
        renews: row.try_get("renews")?,
        status: RegistrationStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("registration status {status}")))?,
        cancelled,
        recorded_by: text("recorded_by")?,
        articles: serde_json::from_str(&text("citations")?).unwrap_or_default(),
        files: Vec::new(),
    })
}

/// The registrations of `carrier`, oldest first, without their files.
pub(crate) async fn registrations_of(
    tx: &mut Tx,
    jurisdiction: &str,
    carrier: &str,
) -> Result<Vec<CarrierRegistration>, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM carrier_registrations WHERE jurisdiction = $1 AND carrier = $2 \
         ORDER BY valid_from, year, number"
    )))
    .bind(jurisdiction)
    .bind(carrier)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(registration_of).collect()
}

async fn files_of(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Vec<RegistrationFile>, StoreError> {
    let rows = sqlx::query(
        "SELECT seq, kind, name, content_type, size, sha256 FROM carrier_registration_files \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3 ORDER BY seq",
    )
    .bind(jurisdiction)
    .bind(i64::from(year))
    .bind(number)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter()
        .map(|row| {
            let kind: String = row.try_get("kind")?;
            Ok(RegistrationFile {
                kind: RegistrationFileKind::parse(&kind)
                    .ok_or_else(|| StoreError::Corrupt(format!("registration file kind {kind}")))?,
                file: stored_of(row)?,
            })
        })
        .collect()
}

/// The registration of `key`, with its files.
async fn read(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Option<CarrierRegistration>, StoreError> {
    let Some(row) = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM carrier_registrations r \
         WHERE r.jurisdiction = $1 AND r.year = $2 AND r.number = $3"
    )))
    .bind(jurisdiction)
    // As the audit log's images bind a key (the same statement may be
    // cached on the connection with their types).
    .bind(i64::from(year))
    .bind(number)
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(None);
    };
    let mut found = registration_of(&row)?;
    found.files = files_of(tx, jurisdiction, (year, number)).await?;
    Ok(Some(found))
}

impl Store {
    /// Registers `carrier` in the register of the carriers authorized on
    /// the day of `change`, with the documents it presented — or, while a
    /// registration of theirs is in force, renews it from the day after it
    /// ends. Its term is the law's (the core's); at least one document.
    pub async fn register_carrier(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        carrier: &str,
        documents: &[RegistrationDocument],
    ) -> Result<CarrierRegistration, StoreError> {
        let sent: Vec<&RegistrationDocument> = documents
            .iter()
            .filter(|d| !d.file.bytes.is_empty())
            .collect();
        if sent.is_empty() {
            return Err(StoreError::invalid(
                "documentos",
                "envie ao menos um documento da transportadora (contrato social, cartão CNPJ, certidões…)",
            ));
        }
        let files: Vec<&Attachment> = sent.iter().map(|d| &d.file).collect();
        let files = check(
            "documentos",
            &files,
            Bounds {
                files: MAX_FILES,
                bytes: MAX_BYTES,
            },
        )?;
        let registered = self
            .registered(jurisdiction, carrier)
            .await?
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "a transportadora {carrier} não está cadastrada em {jurisdiction}"
                ))
            })?;
        if registered.kind != crate::Kind::Company {
            return Err(StoreError::invalid(
                "transportadora",
                "o registro cadastral é de uma empresa transportadora (CNPJ)",
            ));
        }
        let carrier = registered.document;
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let earlier = registrations_of(&mut tx, jurisdiction, &carrier).await?;
        let engine: Vec<Registration> = earlier.iter().map(CarrierRegistration::engine).collect();
        let term = match carrier_registration::grant(&ctx, &engine, today)? {
            Ok(term) => term,
            Err((reason, article)) => {
                return Err(StoreError::Refused {
                    reason: format!("registro negado: {reason}"),
                    articles: vec![article],
                });
            }
        };
        let year = today.year();
        let number = next_number(&mut tx, jurisdiction, "carrier_registration", year).await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO carrier_registrations ({COLUMNS}) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, 'in_force', NULL, NULL, NULL, $9, $10)"
        )))
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(&carrier)
        .bind(today.to_string())
        .bind(term.from.to_string())
        .bind(term.until.to_string())
        .bind(term.renews.clone())
        .bind(change.by)
        .bind(serde_json::json!(term.citations).to_string())
        .execute(&mut *tx)
        .await?;
        // Its paper: the copy the bus carries on a charter (art. 64, IV),
        // valid through the registration's last day.
        crate::documents::issue(
            &mut tx,
            &self.audit,
            change,
            jurisdiction,
            (
                "carrier_registration",
                &format!("carrier_registration:{year}:{number}"),
                &carrier,
            ),
            today,
            Some(term.until),
        )
        .await?;
        let mut rows = vec![RowRef::new(
            "carrier_registrations",
            [jurisdiction.into(), year.into(), number.into()],
        )];
        let kinded: Vec<_> = files
            .iter()
            .zip(&sent)
            .map(|(file, document)| (file, document.kind.name()))
            .collect();
        let (written, hashes) = crate::attachments::write_kinded(
            &mut tx,
            "carrier_registration_files",
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
                action: if term.renews.is_some() {
                    "carrier_registration.renew"
                } else {
                    "carrier_registration.grant"
                },
                jurisdiction: Some(jurisdiction),
                subject: &format!("carrier_registration:{year}:{number}"),
                detail: serde_json::json!({
                    "carrier": carrier, "from": term.from, "until": term.until,
                    "renews": term.renews, "files": hashes, "articles": term.citations,
                }),
                rows,
            },
        )
        .await?;
        let done = read(&mut tx, jurisdiction, (year, number))
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("registration {number}/{year}")))?;
        tx.commit().await?;
        Ok(done)
    }

    /// Cancels the registration of `key` on the day of `change`, on
    /// `grounds` (art. 28, § 5º: at once), and the renewal already granted
    /// after it: the carrier is no longer registered from that day.
    pub async fn cancel_carrier_registration(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        grounds: &str,
    ) -> Result<CarrierRegistration, StoreError> {
        let grounds = checked_text("motivo", grounds, TextKind::Long)?.to_string();
        if grounds.chars().count() < 10 {
            return Err(StoreError::invalid(
                "motivo",
                "escreva os fundamentos da cassação (ao menos 10 letras)",
            ));
        }
        let rules = rulebook
            .bus
            .as_ref()
            .and_then(|b| b.charters.as_ref())
            .and_then(|c| c.registration.as_ref())
            .ok_or_else(|| {
                StoreError::Engine(
                    "o regulamento não tem cadastro das transportadoras autorizadas".into(),
                )
            })?;
        let today = rulebook.jurisdiction.today(change.at);
        let missing = || {
            StoreError::NotFound(format!(
                "não há registro cadastral nº {}/{} em {jurisdiction}",
                key.1, key.0
            ))
        };
        let (mut tx, _writer) = self.write_transaction().await?;
        let target = read(&mut tx, jurisdiction, key)
            .await?
            .ok_or_else(missing)?;
        if target.cancelled.is_some() {
            return Err(StoreError::invalid(
                "registro",
                format!("o registro nº {} já foi cassado", target.label()),
            ));
        }
        if target.valid_until < today {
            return Err(StoreError::invalid(
                "registro",
                format!(
                    "o registro nº {} venceu em {}: nada a cassar",
                    target.label(),
                    target.valid_until.format("%d/%m/%Y")
                ),
            ));
        }
        // The one asked and any later of the carrier still to run.
        let reached: Vec<CarrierRegistration> =
            registrations_of(&mut tx, jurisdiction, &target.carrier)
                .await?
                .into_iter()
                .filter(|r| {
                    r.cancelled.is_none()
                        && r.valid_until >= today
                        && (r.year, r.number) != key
                        && r.valid_from >= target.valid_from
                })
                .chain(std::iter::once(target.clone()))
                .collect();
        let rows: Vec<RowRef> = reached
            .iter()
            .map(|r| {
                RowRef::new(
                    "carrier_registrations",
                    [jurisdiction.into(), r.year.into(), r.number.into()],
                )
            })
            .collect();
        // The charters authorized on the carrier's registration and not yet
        // ended fall with it: the bus can no longer carry a registration in
        // force (art. 64, IV). Their authorization is cancelled today.
        let mut live: Vec<String> = sqlx::query(
            "SELECT c.document AS code FROM charters c JOIN documents d ON d.code = c.document \
             WHERE c.jurisdiction = $1 AND c.carrier = $2 AND c.kind <> 'emergency' \
             AND c.until_day >= $3 AND d.cancelled_on IS NULL ORDER BY c.year, c.number",
        )
        .bind(jurisdiction)
        .bind(&target.carrier)
        .bind(today.to_string())
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|row| row.try_get::<String, _>("code"))
        .collect::<Result<_, _>>()?;
        // The registrations' own papers go with them.
        for r in &reached {
            let paper = sqlx::query(
                "SELECT code FROM documents WHERE jurisdiction = $1 AND kind = 'carrier_registration' \
                 AND subject = $2 AND cancelled_on IS NULL",
            )
            .bind(jurisdiction)
            .bind(format!("carrier_registration:{}:{}", r.year, r.number))
            .fetch_optional(&mut *tx)
            .await?;
            if let Some(row) = paper {
                live.push(row.try_get("code")?);
            }
        }
        let mut rows = rows;
        let documents: Vec<RowRef> = live
            .iter()
            .map(|code| RowRef::new("documents", [code.into()]))
            .collect();
        crate::audit::guard::unchanged(&mut tx, &self.audit.schema, &rows).await?;
        crate::audit::guard::unchanged(&mut tx, &self.audit.schema, &documents).await?;
        for code in &live {
            sqlx::query(
                "UPDATE documents SET cancelled_on = $2 WHERE code = $1 AND cancelled_on IS NULL",
            )
            .bind(code)
            .bind(today.to_string())
            .execute(&mut *tx)
            .await?;
        }
        rows.extend(documents);
        for r in &reached {
            sqlx::query(
                "UPDATE carrier_registrations SET status = 'cancelled', cancelled_on = $4, \
                 cancel_reason = $5, cancel_article = $6 \
                 WHERE jurisdiction = $1 AND year = $2 AND number = $3",
            )
            .bind(jurisdiction)
            .bind(r.year)
            .bind(r.number)
            .bind(today.to_string())
            .bind(&grounds)
            .bind(&rules.cancellation)
            .execute(&mut *tx)
            .await?;
        }
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "carrier_registration.cancel",
                jurisdiction: Some(jurisdiction),
                subject: &format!("carrier_registration:{}:{}", key.0, key.1),
                detail: serde_json::json!({
                    "carrier": target.carrier,
                    "cancelled": reached.iter().map(CarrierRegistration::label).collect::<Vec<_>>(),
                    "charter_authorizations_cancelled": live,
                    "article": rules.cancellation,
                }),
                rows,
            },
        )
        .await?;
        let done = read(&mut tx, jurisdiction, key)
            .await?
            .ok_or_else(missing)?;
        tx.commit().await?;
        Ok(done)
    }

    /// A page of the registrations of `carrier`, newest first, each with
    /// its files.
    pub async fn carrier_registrations(
        &self,
        jurisdiction: &str,
        carrier: &str,
        window: Window<'_>,
    ) -> Result<Page<CarrierRegistration>, StoreError> {
        let (carrier, _) = crate::parse_document(carrier)?;
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .always("carrier = $?", text(carrier));
        let mut page = listing::page(&self.pool, &LISTED, &rows, window, registration_of).await?;
        let mut tx = self.pool.begin().await?;
        for r in &mut page.items {
            r.files = files_of(&mut tx, jurisdiction, (r.year, r.number)).await?;
        }
        tx.commit().await?;
        Ok(page)
    }

    /// The registration of `key`, with its files.
    pub async fn carrier_registration(
        &self,
        jurisdiction: &str,
        key: (i32, i64),
    ) -> Result<CarrierRegistration, StoreError> {
        let mut tx = self.pool.begin().await?;
        let found = read(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        found.ok_or_else(|| {
            StoreError::NotFound(format!(
                "não há registro cadastral nº {}/{} em {jurisdiction}",
                key.1, key.0
            ))
        })
    }

    /// Document `seq` of a registration: its name, type and bytes.
    pub async fn carrier_registration_file(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
        seq: i64,
    ) -> Result<Option<(String, String, Vec<u8>)>, StoreError> {
        let Some(row) = sqlx::query(
            "SELECT name, content_type, content FROM carrier_registration_files \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(i64::from(year))
        .bind(number)
        .bind(seq)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let content: String = row.try_get("content")?;
        let bytes = decoded(
            &content,
            &format!("carrier registration {number}/{year}/{seq}"),
        )?;
        Ok(Some((
            row.try_get("name")?,
            row.try_get("content_type")?,
            bytes,
        )))
    }
}
