//! Files sent with a request — a petition's attachments, the documents a
//! carrier presents for its registration, a charter's contract, invoice and
//! list — checked the one way: their number and size within the request's
//! [`Bounds`], their type told by their content (PDF, JPEG or PNG), a name
//! kept without folders or hidden characters; kept as base64 with their
//! SHA-256 (which the audit log's image of the row carries).

use crate::StoreError;
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// A file sent with a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// A file as kept (its bytes apart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredFile {
    pub seq: i64,
    pub name: String,
    pub content_type: String,
    pub size: i64,
    pub sha256: String,
}

/// How many files a request takes, and how many bytes together.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    pub files: usize,
    pub bytes: usize,
}

/// An attachment checked: its name as kept, its type, its bytes.
#[derive(Debug)]
pub(crate) struct Checked<'a> {
    pub name: String,
    pub content_type: &'static str,
    pub bytes: &'a [u8],
}

impl Checked<'_> {
    pub fn sha256(&self) -> String {
        format!("{:x}", Sha256::digest(self.bytes))
    }

    /// The bytes as the record keeps them.
    pub fn encoded(&self) -> String {
        base64::engine::general_purpose::STANDARD.encode(self.bytes)
    }

    pub fn size(&self) -> i64 {
        i64::try_from(self.bytes.len()).unwrap_or(i64::MAX)
    }
}

/// Writes `files` of a record keyed by (jurisdiction, year, number) to
/// `table` (columns `seq, kind, name, content_type, size, sha256,
/// content`), numbered from 1, each with its kind: the rows the audit entry
/// names, and each file's kind and SHA-256 for its detail.
pub(crate) async fn write_kinded(
    tx: &mut crate::Tx,
    table: &'static str,
    (jurisdiction, year, number): (&str, i32, i64),
    files: &[(&Checked<'_>, &str)],
) -> Result<(Vec<crate::audit::images::RowRef>, Vec<serde_json::Value>), StoreError> {
    let mut rows = Vec::new();
    let mut hashes = Vec::new();
    for (seq, (file, kind)) in files.iter().enumerate() {
        let seq = seq as i64 + 1;
        let sha256 = file.sha256();
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO {table} (jurisdiction, year, number, seq, kind, name, content_type, size, \
             sha256, content) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
        )))
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(seq)
        .bind(*kind)
        .bind(&file.name)
        .bind(file.content_type)
        .bind(file.size())
        .bind(&sha256)
        .bind(file.encoded())
        .execute(&mut **tx)
        .await?;
        rows.push(crate::audit::images::RowRef::new(
            table,
            [jurisdiction.into(), year.into(), number.into(), seq.into()],
        ));
        hashes.push(serde_json::json!({ "kind": kind, "sha256": sha256 }));
    }
    Ok((rows, hashes))
}

/// The type of a file, told by its first bytes (never by its name or what
/// the browser said): PDF, PNG or JPEG.
pub fn content_type(bytes: &[u8]) -> Option<&'static str> {
    if bytes.starts_with(b"%PDF-") {
        Some("application/pdf")
    } else if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else {
        None
    }
}

/// The files checked, in order (empty ones are none chosen: the caller
/// leaves them out), refused under `field` naming the file.
pub(crate) fn check<'a>(
    field: &'static str,
    files: &[&'a Attachment],
    bounds: Bounds,
) -> Result<Vec<Checked<'a>>, StoreError> {
    let invalid = |reason: String| StoreError::Invalid { field, reason };
    if files.len() > bounds.files {
        return Err(invalid(format!(
            "envie no máximo {} arquivos (foram {})",
            bounds.files,
            files.len()
        )));
    }
    let total: usize = files.iter().map(|f| f.bytes.len()).sum();
    if total > bounds.bytes {
        return Err(invalid(format!(
            "os arquivos somam {:.1} MB; o limite é {} MB: reduza as imagens ou divida o PDF",
            total as f64 / 1_048_576.0,
            bounds.bytes / 1_048_576
        )));
    }
    files
        .iter()
        .map(|file| {
            let name: String = file
                .name
                .rsplit(['/', '\\'])
                .next()
                .unwrap_or("")
                .chars()
                .filter(|c| !c.is_control())
                .take(120)
                .collect();
            let name = if name.trim().is_empty() {
                "anexo".to_string()
            } else {
                name.trim().to_string()
            };
            let content_type = content_type(&file.bytes).ok_or_else(|| {
                invalid(format!(
                    "`{name}` não é PDF, JPEG nem PNG: envie o documento em um desses formatos"
                ))
            })?;
            Ok(Checked {
                name,
                content_type,
                bytes: file.bytes.as_slice(),
            })
        })
        .collect()
}

/// The bytes of a file as the record keeps them; `what` names it when
/// they do not read back.
pub(crate) fn decoded(content: &str, what: &str) -> Result<Vec<u8>, StoreError> {
    base64::engine::general_purpose::STANDARD
        .decode(content)
        .map_err(|_| StoreError::Corrupt(format!("file {what}")))
}

/// A file's row read back (columns `seq`, `name`, `content_type`, `size`,
/// `sha256`).
pub(crate) fn stored_of(row: &sqlx::any::AnyRow) -> Result<StoredFile, StoreError> {
    use sqlx::Row;
    Ok(StoredFile {
        seq: row.try_get("seq")?,
        name: row.try_get("name")?,
        content_type: row.try_get("content_type")?,
        size: row.try_get("size")?,
        sha256: row.try_get("sha256")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_told_by_its_content() {
        assert_eq!(content_type(b"%PDF-1.7\n"), Some("application/pdf"));
        assert_eq!(
            content_type(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
            Some("image/png")
        );
        assert_eq!(content_type(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("image/jpeg"));
        assert_eq!(content_type(b"<html>%PDF-"), None);
        assert_eq!(content_type(b"MZ\x90\0"), None);
    }

    #[test]
    fn files_are_counted_and_weighed() {
        let bounds = Bounds {
            files: 5,
            bytes: 1000,
        };
        let pdf = |n: usize| Attachment {
            name: "C:\\docs\\defesa.pdf".into(),
            bytes: [b"%PDF-".as_slice(), &vec![b'x'; n]].concat(),
        };
        let one = pdf(10);
        let ok = check("anexos", &[&one], bounds).expect("a PDF passes");
        assert_eq!(ok[0].name, "defesa.pdf");
        assert_eq!(ok[0].content_type, "application/pdf");
        let small = pdf(1);
        let six = [&small; 6];
        assert!(check("anexos", &six, bounds).is_err());
        // Exactly the limit passes; a byte more does not.
        let (at, over) = (pdf(995), pdf(996));
        assert!(check("anexos", &[&at], bounds).is_ok());
        let refused = check("documentos", &[&over], bounds).expect_err("too big");
        assert!(matches!(
            refused,
            StoreError::Invalid {
                field: "documentos",
                ..
            }
        ));
        let exe = Attachment {
            name: "foto.png".into(),
            bytes: b"MZ\x90\0".to_vec(),
        };
        assert!(check("anexos", &[&exe], bounds).is_err());
    }
}
