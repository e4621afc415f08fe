//! Checkpoints: the head of the log as a short signed text that a
//! department prints, publishes or files. The hash of entry N commits to
//! every entry up to N (each hash covers the previous one), so a log whose
//! entry N still has that hash, and whose chain verifies, has had nothing
//! up to N removed or rewritten — even by someone holding the key, who could
//! recompute MACs but not find another history with the same hash. The
//! signature (an HMAC with the audit key) tells a checkpoint this deployment
//! issued from one typed up by someone else.

use super::key::Purpose;
use super::{Change, Entry, append};
use crate::{Store, StoreError};
use chrono::NaiveDateTime;
use sqlx::Row;

const TITLE: &str = "outorga — ponto de verificação do registro de auditoria";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// The id of the key that signed it.
    pub key_id: String,
    pub seq: i64,
    pub hash: String,
    /// When it was issued (UTC, as the log writes timestamps).
    pub at: String,
    pub signature: String,
}

/// A checkpoint text that cannot be read: the line (1-based; 0 for the
/// whole text) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("linha {line}: {reason}")]
pub struct CheckpointError {
    pub line: usize,
    pub reason: String,
}

/// What checking a checkpoint against the log found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointCheck {
    /// Entry `seq` still has the checkpoint's hash.
    Holds,
    /// The signature is not this deployment's keys' (forged or altered).
    BadSignature,
    /// The log ends before the checkpoint's entry: entries were removed.
    Removed { last: i64 },
    /// The checkpoint's entry has another hash: the log was rewritten.
    Rewritten { hash: String },
}

impl Checkpoint {
    fn signed_parts(&self) -> [String; 4] {
        [
            self.key_id.clone(),
            self.seq.to_string(),
            self.hash.clone(),
            self.at.clone(),
        ]
    }

    /// The text to print or file.
    pub fn to_text(&self) -> String {
        format!(
            "{TITLE}\nchave: {}\nentrada: {}\nhash: {}\nemitido em: {}\nassinatura: {}\n",
            self.key_id, self.seq, self.hash, self.at, self.signature
        )
    }

    /// Reads a checkpoint's text; lines other than its fields (a title, a
    /// note) are ignored, so it can be kept inside another document.
    pub fn parse(text: &str) -> Result<Checkpoint, CheckpointError> {
        let mut fields: [Option<(usize, String)>; 5] = Default::default();
        const NAMES: [&str; 5] = ["chave", "entrada", "hash", "emitido em", "assinatura"];
        for (i, line) in text.lines().enumerate() {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            if let Some(slot) = NAMES.iter().position(|n| *n == name.trim()) {
                if fields[slot].is_some() {
                    return Err(CheckpointError {
                        line: i + 1,
                        reason: format!("o campo `{}` aparece duas vezes", NAMES[slot]),
                    });
                }
                fields[slot] = Some((i + 1, value.trim().to_string()));
            }
        }
        let mut take = |slot: usize| {
            fields[slot].take().ok_or_else(|| CheckpointError {
                line: 0,
                reason: format!(
                    "falta o campo `{}`: copie o ponto de verificação inteiro, como \
                     `outorga audit checkpoint` o imprime",
                    NAMES[slot]
                ),
            })
        };
        let hex = |(line, value): (usize, String), digits: usize, name: &str| {
            if value.len() == digits && value.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(value.to_lowercase())
            } else {
                Err(CheckpointError {
                    line,
                    reason: format!("`{name}` deve ter {digits} dígitos hexadecimais"),
                })
            }
        };
        let key_id = hex(take(0)?, 16, "chave")?;
        let (line, seq) = take(1)?;
        let seq = seq
            .parse::<i64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| CheckpointError {
                line,
                reason: format!("`entrada` deve ser o número de uma entrada, não `{seq}`"),
            })?;
        let hash = hex(take(2)?, 64, "hash")?;
        let (_, at) = take(3)?;
        let signature = hex(take(4)?, 64, "assinatura")?;
        Ok(Checkpoint {
            key_id,
            seq,
            hash,
            at,
            signature,
        })
    }
}

impl Store {
    /// Records that a checkpoint is issued (an entry of its own) and returns
    /// the checkpoint of the head, that entry included.
    pub async fn checkpoint(&self, change: &Change<'_>) -> Result<Checkpoint, StoreError> {
        let (mut tx, _writer) = self.write_transaction().await?;
        let key = self.audit.keys.current();
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "audit.checkpoint",
                jurisdiction: None,
                subject: "audit",
                detail: serde_json::json!({ "key_id": key.id() }),
                rows: Vec::new(),
            },
        )
        .await?;
        let checkpoint = self.signed_head(&mut *tx, change.at).await?;
        tx.commit().await?;
        Ok(checkpoint)
    }

    /// A short name of this database's log: the start of its first entry's
    /// hash (every copy of the log shares it), or `nova` before any entry.
    pub async fn log_id(&self) -> Result<String, StoreError> {
        let first = sqlx::query("SELECT hash FROM audit_log WHERE seq = 1")
            .fetch_optional(&self.pool)
            .await?;
        Ok(match first {
            Some(row) => row.try_get::<String, _>("hash")?.chars().take(16).collect(),
            None => "nova".to_string(),
        })
    }

    /// The head as it is, signed, without recording an entry: what an
    /// installation keeps of the last head it saw (`outorga` keeps it in the
    /// data folder, and refuses a log that falls behind it).
    pub async fn head_checkpoint(&self, at: NaiveDateTime) -> Result<Checkpoint, StoreError> {
        self.signed_head(&self.pool, at).await
    }

    async fn signed_head<'c>(
        &self,
        executor: impl sqlx::Executor<'c, Database = sqlx::Any>,
        at: NaiveDateTime,
    ) -> Result<Checkpoint, StoreError> {
        let key = self.audit.keys.current();
        let head = sqlx::query("SELECT seq, hash FROM audit_head WHERE id = 1")
            .fetch_one(executor)
            .await?;
        let mut checkpoint = Checkpoint {
            key_id: key.id(),
            seq: head.try_get("seq")?,
            hash: head.try_get("hash")?,
            at: super::timestamp(at),
            signature: String::new(),
        };
        let parts = checkpoint.signed_parts();
        checkpoint.signature = key.mac(Purpose::Checkpoint, &parts.each_ref().map(String::as_str));
        Ok(checkpoint)
    }

    /// Whether the log still holds `checkpoint` (its signature by one of
    /// this deployment's keys, then its entry's hash).
    pub async fn check_checkpoint(
        &self,
        checkpoint: &Checkpoint,
    ) -> Result<CheckpointCheck, StoreError> {
        let parts = checkpoint.signed_parts();
        let signed = self
            .audit
            .keys
            .with_id(&checkpoint.key_id)
            .is_some_and(|key| {
                key.verifies(
                    Purpose::Checkpoint,
                    &parts.each_ref().map(String::as_str),
                    &checkpoint.signature,
                )
            });
        if !signed {
            return Ok(CheckpointCheck::BadSignature);
        }
        let entry = sqlx::query("SELECT hash FROM audit_log WHERE seq = $1")
            .bind(checkpoint.seq)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match entry {
            Some(row) => {
                let hash: String = row.try_get("hash")?;
                if hash == checkpoint.hash {
                    CheckpointCheck::Holds
                } else {
                    CheckpointCheck::Rewritten { hash }
                }
            }
            None => {
                let last: Option<i64> = sqlx::query("SELECT MAX(seq) AS last FROM audit_log")
                    .fetch_one(&self.pool)
                    .await?
                    .try_get("last")?;
                CheckpointCheck::Removed {
                    last: last.unwrap_or(0),
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Checkpoint {
        Checkpoint {
            key_id: "0123456789abcdef".into(),
            seq: 42,
            hash: "ab".repeat(32),
            at: "2026-12-01T10:00:00.000000Z".into(),
            signature: "cd".repeat(32),
        }
    }

    #[test]
    fn a_checkpoint_reads_back_from_its_text_inside_other_text() {
        let text = format!("Publicado no Diário Oficial\n\n{}\nfim", sample().to_text());
        assert_eq!(Checkpoint::parse(&text), Ok(sample()));
    }

    #[test]
    fn a_bad_checkpoint_names_the_line_and_the_field() {
        let text = sample()
            .to_text()
            .replace("entrada: 42", "entrada: quarenta");
        let err = Checkpoint::parse(&text).expect_err("bad seq");
        assert_eq!(err.line, 3);
        assert!(err.reason.contains("entrada"), "{err}");
        let text = sample().to_text().replace("hash: ", "hash: 00");
        assert!(
            Checkpoint::parse(&text)
                .expect_err("bad hash")
                .reason
                .contains("hash")
        );
        let err = Checkpoint::parse("chave: 0123456789abcdef").expect_err("short");
        assert!(err.reason.contains("falta o campo `entrada`"), "{err}");
        let twice = format!("{}entrada: 43\n", sample().to_text());
        assert!(
            Checkpoint::parse(&twice)
                .expect_err("twice")
                .reason
                .contains("duas vezes")
        );
    }
}
