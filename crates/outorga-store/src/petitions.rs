//! What a holder or driver files from their own space (a petição): a
//! defense or an appeal against an auto of theirs, or a request to renew a
//! permit they hold; text and attachments (PDF, JPEG or PNG, told by their
//! content, [`MAX_FILES`] files of at most [`MAX_BYTES`] in all), found
//! again by a protocol.
//!
//! A defense or an appeal is the procedure's step (`Defend`, `Appeal`),
//! taken in the same transaction as the petition is written, so the law's
//! order and time limits (the core's machine) decide whether it may be
//! filed, as they do when a clerk records it; the board then finds the
//! auto in its queue. A renewal request waits in the clerks' queue until
//! one of them answers it.

use crate::attachments::{Attachment, Bounds, Checked, StoredFile, check, decoded, stored_of};
use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::citizens::actor;
use crate::dates::{moment, moment_text};
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::text::{TextKind, checked};
use crate::{ProcessStep, Store, StoreError, Tx};
use chrono::NaiveDateTime;
use outorga_core::engine::permit_life::LifeStep;
use outorga_core::engine::process::Step;
use outorga_core::model::Rulebook;
use sqlx::Row;

/// The most attachments a petition takes.
pub const MAX_FILES: usize = 5;

/// The most bytes a petition's attachments take together (10 MB).
pub const MAX_BYTES: usize = 10 * 1024 * 1024;

worded! {
    /// What a petition asks.
    pub enum PetitionKind {
        Defense = "defense" => "defesa da autuação",
        Appeal = "appeal" => "recurso",
        Renewal = "renewal" => "pedido de renovação",
    }
}

worded! {
    /// Where a petition stands.
    pub enum PetitionStatus {
        Received = "received" => "recebida",
        Handled = "handled" => "respondida",
    }
}

/// A petition as the holder or driver files it.
#[derive(Debug, Clone)]
pub struct PetitionInput {
    pub kind: PetitionKind,
    /// Their CPF.
    pub document: String,
    /// The auto (a defense or an appeal).
    pub auto: Option<(i32, i64)>,
    /// The permit (a renewal): service and number.
    pub permit: Option<(String, i64)>,
    pub text: String,
    pub files: Vec<Attachment>,
}

/// An attachment as kept (its bytes apart: [`Store::petition_file`]).
pub type PetitionFile = StoredFile;

/// A petition as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Petition {
    pub protocol: String,
    pub jurisdiction: String,
    pub kind: PetitionKind,
    pub document: String,
    pub auto: Option<(i32, i64)>,
    pub permit: Option<(String, i64)>,
    pub text: String,
    pub filed_at: NaiveDateTime,
    pub status: PetitionStatus,
    pub handled_by: Option<String>,
    pub handled_at: Option<NaiveDateTime>,
    pub answer: Option<String>,
    pub files: Vec<PetitionFile>,
}

const COLUMNS: &str = "protocol, jurisdiction, kind, document, auto_year, auto_number, service, \
     permit_number, text, filed_at, status, handled_by, handled_at, answer";

const QUEUE: List = List {
    name: "petitions",
    table: "petitions",
    columns: COLUMNS,
    key: &[("filed_at", KeyKind::Text), ("protocol", KeyKind::Text)],
    descending: false,
};

fn petition_of(row: &sqlx::any::AnyRow) -> Result<Petition, StoreError> {
    let kind: String = row.try_get("kind")?;
    let status: String = row.try_get("status")?;
    let filed: String = row.try_get("filed_at")?;
    let handled: Option<String> = row.try_get("handled_at")?;
    let year: Option<i64> = row.try_get("auto_year")?;
    let number: Option<i64> = row.try_get("auto_number")?;
    let service: Option<String> = row.try_get("service")?;
    let permit: Option<i64> = row.try_get("permit_number")?;
    Ok(Petition {
        protocol: row.try_get("protocol")?,
        jurisdiction: row.try_get("jurisdiction")?,
        kind: PetitionKind::parse(&kind)
            .ok_or_else(|| StoreError::Corrupt(format!("petition kind {kind}")))?,
        document: row.try_get("document")?,
        auto: match (year, number) {
            (Some(y), Some(n)) => Some((i32::try_from(y).unwrap_or_default(), n)),
            _ => None,
        },
        permit: service.zip(permit),
        text: row.try_get("text")?,
        filed_at: moment(&filed)?,
        status: PetitionStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("petition status {status}")))?,
        handled_by: row.try_get("handled_by")?,
        handled_at: handled.as_deref().map(moment).transpose()?,
        answer: row.try_get("answer")?,
        files: Vec::new(),
    })
}

/// The attachments checked: their number, size and type.
fn checked_files(files: &[Attachment]) -> Result<Vec<Checked<'_>>, StoreError> {
    let files: Vec<&Attachment> = files.iter().filter(|f| !f.bytes.is_empty()).collect();
    check(
        "anexos",
        &files,
        Bounds {
            files: MAX_FILES,
            bytes: MAX_BYTES,
        },
    )
}

async fn files_of(tx: &mut Tx, protocol: &str) -> Result<Vec<PetitionFile>, StoreError> {
    let rows = sqlx::query(
        "SELECT seq, name, content_type, size, sha256 FROM petition_files \
         WHERE protocol = $1 ORDER BY seq",
    )
    .bind(protocol)
    .fetch_all(&mut **tx)
    .await?;
    rows.iter().map(stored_of).collect()
}

/// Whether `document` answers for the auto of `key` (its offender, or the
/// holder of the permit it was committed under).
async fn answers_for(
    tx: &mut Tx,
    jurisdiction: &str,
    (year, number): (i32, i64),
    document: &str,
) -> Result<bool, StoreError> {
    Ok(sqlx::query(
        "SELECT 1 AS one FROM autos WHERE jurisdiction = $1 AND year = $2 AND number = $3 \
         AND (offender = $4 OR holder = $4)",
    )
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .bind(document)
    .fetch_optional(&mut **tx)
    .await?
    .is_some())
}

impl Store {
    /// Why the law would not renew the permit of `key` on `on` (the
    /// reason and its articles), or none when it would: whether the
    /// holder's space offers to ask for it.
    pub async fn renewal_refused(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, number): (&str, i64),
        on: chrono::NaiveDate,
    ) -> Result<Option<String>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let permit = crate::permits::read_permit(&mut tx, jurisdiction, service, number).await?;
        let decided = crate::permit_life::decide(
            &mut tx,
            &ctx,
            jurisdiction,
            &permit,
            (&LifeStep::Renew, on),
        )
        .await;
        tx.commit().await?;
        match decided {
            Ok(_) => Ok(None),
            Err(refused @ StoreError::Refused { .. }) => Ok(Some(refused.to_string())),
            Err(error) => Err(error),
        }
    }

    /// Whether `document` answers for the auto of `key` in `jurisdiction`
    /// (its offender, or the holder of the permit it was committed under):
    /// who sees it in their space and may defend it.
    pub async fn answers_for_auto(
        &self,
        jurisdiction: &str,
        key: (i32, i64),
        document: &str,
    ) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let answers = answers_for(&mut tx, jurisdiction, key, document).await?;
        tx.commit().await?;
        Ok(answers)
    }

    /// Files a petition of `input.document` at `at` (the jurisdiction's
    /// local time), under `rulebook` (the auto's or the permit's). A
    /// defense or an appeal takes the auto's step, as the procedure admits
    /// it on `at`'s day; a renewal is asked only where the law would grant
    /// it that day.
    pub async fn file_petition(
        &self,
        rulebook: Option<&Rulebook>,
        jurisdiction: &str,
        input: &PetitionInput,
        at: NaiveDateTime,
    ) -> Result<Petition, StoreError> {
        let text = checked("texto", &input.text, TextKind::Long)?.to_string();
        if text.chars().count() < 10 {
            return Err(StoreError::Invalid {
                field: "texto",
                reason: "escreva o que pede e por quê (ao menos 10 letras)".into(),
            });
        }
        let files = checked_files(&input.files)?;
        let document = crate::citizens::cpf(&input.document)?;
        let protocol = crate::documents::new_code()?;
        let by = actor(&document);
        let why = format!(
            "{} pelo espaço do titular, protocolo {protocol}",
            input.kind.portuguese()
        );
        // The record's moments are UTC; `at` is the jurisdiction's clock
        // (between midnight and 3 a.m. in Brasília, another day in UTC).
        let change = Change {
            by: &by,
            at: rulebook.map_or(at, |r| r.jurisdiction.utc(at)),
            why: &why,
        };
        let (mut tx, _writer) = self.write_transaction().await?;
        self.known_jurisdiction(&mut tx, jurisdiction).await?;
        let mut rows = Vec::new();
        let (auto, permit) = match input.kind {
            PetitionKind::Defense | PetitionKind::Appeal => {
                let (Some(key), Some(rulebook)) = (input.auto, rulebook) else {
                    return Err(StoreError::Invalid {
                        field: "auto",
                        reason: "informe o auto de infração".into(),
                    });
                };
                if !answers_for(&mut tx, jurisdiction, key, &document).await? {
                    return Err(StoreError::NotFound(format!(
                        "não há auto nº {}/{} em seu nome",
                        key.1, key.0
                    )));
                }
                let step = match input.kind {
                    PetitionKind::Defense => Step::Defend,
                    _ => Step::Appeal { deposit: false },
                };
                let mut said = format!("{text}\n\n(protocolo {protocol}");
                if !files.is_empty() {
                    said.push_str(&format!(", {} anexo(s)", files.len()));
                }
                said.push(')');
                self.take_step(
                    &mut tx,
                    &change,
                    rulebook,
                    jurisdiction,
                    key,
                    &ProcessStep::with_text(step, said),
                    at.date(),
                )
                .await?;
                (Some(key), None)
            }
            PetitionKind::Renewal => {
                let (Some((service, number)), Some(rulebook)) = (input.permit.clone(), rulebook)
                else {
                    return Err(StoreError::Invalid {
                        field: "permissao",
                        reason: "informe a permissão a renovar".into(),
                    });
                };
                let missing =
                    || StoreError::NotFound(format!("não há permissão nº {number} em seu nome"));
                let permit = match crate::permits::read_permit(
                    &mut tx,
                    jurisdiction,
                    &service,
                    number,
                )
                .await
                {
                    Ok(permit) if permit.holder == document && permit.rulebook == rulebook.id => {
                        permit
                    }
                    Ok(_) | Err(StoreError::NotFound(_)) => return Err(missing()),
                    Err(error) => return Err(error),
                };
                // The law weighs the renewal first (the core's machine): a
                // renewal it forbids, or a term already run out, is refused
                // with its article, never queued for the clerks.
                let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
                crate::permit_life::decide(
                    &mut tx,
                    &ctx,
                    jurisdiction,
                    &permit,
                    (&LifeStep::Renew, at.date()),
                )
                .await?;
                (None, Some((service, number)))
            }
        };
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO petitions ({COLUMNS}) VALUES \
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'received', NULL, NULL, NULL)"
        )))
        .bind(&protocol)
        .bind(jurisdiction)
        .bind(input.kind.name())
        .bind(&document)
        .bind(auto.map(|k| k.0))
        .bind(auto.map(|k| k.1))
        .bind(permit.as_ref().map(|p| p.0.as_str()))
        .bind(permit.as_ref().map(|p| p.1))
        .bind(&text)
        .bind(moment_text(at))
        .execute(&mut *tx)
        .await?;
        rows.push(RowRef::new("petitions", [(&protocol).into()]));
        for (seq, file) in files.iter().enumerate() {
            let seq = seq as i64 + 1;
            sqlx::query(
                "INSERT INTO petition_files (protocol, seq, name, content_type, size, sha256, content) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&protocol)
            .bind(seq)
            .bind(&file.name)
            .bind(file.content_type)
            .bind(file.size())
            .bind(file.sha256())
            .bind(file.encoded())
            .execute(&mut *tx)
            .await?;
            rows.push(RowRef::new(
                "petition_files",
                [(&protocol).into(), seq.into()],
            ));
        }
        append(
            &mut tx,
            &self.audit,
            &change,
            Entry {
                action: "petition.file",
                jurisdiction: Some(jurisdiction),
                subject: &format!("petition:{protocol}"),
                detail: serde_json::json!({
                    "kind": input.kind.name(),
                    "auto": auto.map(|(y, n)| format!("{y}/{n}")),
                    "permit": permit.as_ref().map(|(s, n)| format!("{s}:{n}")),
                    "files": files.len(),
                }),
                rows,
            },
        )
        .await?;
        let petition = read(&mut tx, &protocol).await?;
        tx.commit().await?;
        petition.ok_or_else(|| StoreError::Corrupt(format!("petition {protocol} not written")))
    }

    /// The petition with this protocol (as typed), if any, with its files.
    pub async fn petition(&self, protocol: &str) -> Result<Option<Petition>, StoreError> {
        let Some(protocol) = crate::documents::typed_code(protocol) else {
            return Ok(None);
        };
        let mut tx = self.pool.begin().await?;
        let found = read(&mut tx, &protocol).await?;
        tx.commit().await?;
        Ok(found)
    }

    /// Attachment `seq` of a petition: its name, type and bytes.
    pub async fn petition_file(
        &self,
        protocol: &str,
        seq: i64,
    ) -> Result<Option<(String, String, Vec<u8>)>, StoreError> {
        let Some(protocol) = crate::documents::typed_code(protocol) else {
            return Ok(None);
        };
        let Some(row) = sqlx::query(
            "SELECT name, content_type, content FROM petition_files WHERE protocol = $1 AND seq = $2",
        )
        .bind(&protocol)
        .bind(seq)
        .fetch_optional(&self.pool)
        .await?
        else {
            return Ok(None);
        };
        let content: String = row.try_get("content")?;
        let bytes = decoded(&content, &format!("petition {protocol}/{seq}"))?;
        Ok(Some((
            row.try_get("name")?,
            row.try_get("content_type")?,
            bytes,
        )))
    }

    /// A page of the jurisdiction's petitions in `status` (none: any), the
    /// oldest first: the clerks' queue.
    pub async fn petitions(
        &self,
        jurisdiction: &str,
        status: Option<PetitionStatus>,
        window: Window<'_>,
    ) -> Result<Page<Petition>, StoreError> {
        let mut rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        if let Some(status) = status {
            rows = rows.always("status = $?", text(status.name()));
        }
        listing::page(&self.pool, &QUEUE, &rows, window, petition_of).await
    }

    /// The latest `limit` petitions of a person, newest first (their space).
    pub async fn petitions_of(
        &self,
        document: &str,
        limit: i64,
    ) -> Result<Vec<Petition>, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM petitions WHERE document = $1 \
             ORDER BY filed_at DESC, protocol DESC LIMIT $2"
        )))
        .bind(document)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(petition_of).collect()
    }

    /// The petitions filed against an auto, oldest first (its page), with
    /// their files.
    pub async fn petitions_of_auto(
        &self,
        jurisdiction: &str,
        (year, number): (i32, i64),
    ) -> Result<Vec<Petition>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {COLUMNS} FROM petitions WHERE jurisdiction = $1 AND auto_year = $2 \
             AND auto_number = $3 ORDER BY filed_at, protocol"
        )))
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .fetch_all(&mut *tx)
        .await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in &rows {
            let mut petition = petition_of(row)?;
            petition.files = files_of(&mut tx, &petition.protocol).await?;
            out.push(petition);
        }
        tx.commit().await?;
        Ok(out)
    }

    /// Records a clerk's answer to a petition of `jurisdiction`: it is
    /// handled, and stays so.
    pub async fn answer_petition(
        &self,
        change: &Change<'_>,
        jurisdiction: &str,
        protocol: &str,
        answer: &str,
    ) -> Result<Petition, StoreError> {
        let answer = checked("resposta", answer, TextKind::Long)?.to_string();
        if answer.is_empty() {
            return Err(StoreError::Invalid {
                field: "resposta",
                reason: "escreva a resposta que o requerente lerá".into(),
            });
        }
        let missing = || StoreError::NotFound(format!("não há petição com o protocolo {protocol}"));
        let protocol = crate::documents::typed_code(protocol).ok_or_else(missing)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        crate::audit::guard::unchanged(
            &mut tx,
            &self.audit.schema,
            &[RowRef::new("petitions", [(&protocol).into()])],
        )
        .await?;
        let done = sqlx::query(
            "UPDATE petitions SET status = 'handled', handled_by = $3, handled_at = $4, answer = $5 \
             WHERE protocol = $1 AND jurisdiction = $2 AND status = 'received'",
        )
        .bind(&protocol)
        .bind(jurisdiction)
        .bind(change.by)
        .bind(moment_text(change.at))
        .bind(&answer)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            let found = read(&mut tx, &protocol).await?;
            return Err(match found {
                Some(p) if p.jurisdiction == jurisdiction => StoreError::Invalid {
                    field: "situacao",
                    reason: format!("a petição {protocol} já foi respondida"),
                },
                _ => missing(),
            });
        }
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "petition.answer",
                jurisdiction: Some(jurisdiction),
                subject: &format!("petition:{protocol}"),
                detail: serde_json::json!({}),
                rows: vec![RowRef::new("petitions", [(&protocol).into()])],
            },
        )
        .await?;
        let petition = read(&mut tx, &protocol).await?.ok_or_else(missing)?;
        tx.commit().await?;
        Ok(petition)
    }
}

/// The petition `protocol` with its files, read in `tx`.
async fn read(tx: &mut Tx, protocol: &str) -> Result<Option<Petition>, StoreError> {
    let Some(row) = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM petitions WHERE protocol = $1"
    )))
    .bind(protocol)
    .fetch_optional(&mut **tx)
    .await?
    else {
        return Ok(None);
    };
    let mut petition = petition_of(&row)?;
    petition.files = files_of(tx, protocol).await?;
    Ok(Some(petition))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachments_are_counted_and_weighed() {
        let pdf = |n: usize| Attachment {
            name: "C:\\docs\\defesa.pdf".into(),
            bytes: [b"%PDF-".as_slice(), &vec![b'x'; n]].concat(),
        };
        let one = [pdf(10)];
        let ok = checked_files(&one).expect("a PDF passes");
        assert_eq!(ok[0].name, "defesa.pdf");
        let six: Vec<Attachment> = (0..6).map(|_| pdf(1)).collect();
        assert!(checked_files(&six).is_err());
        // Exactly the limit passes; a byte more does not.
        assert!(checked_files(&[pdf(MAX_BYTES - 5)]).is_ok());
        assert!(checked_files(&[pdf(MAX_BYTES - 4)]).is_err());
    }
}
