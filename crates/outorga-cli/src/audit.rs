//! `outorga audit verify`: recomputes the audit log's hash chain.

use crate::db::runtime;
use crate::users::DatabaseArgs;
use outorga_store::AuditCheck;
use std::process::ExitCode;

/// Exit 0 and the number of entries when the chain is intact; exit 1
/// naming the first entry that breaks it.
pub fn verify(database: &DatabaseArgs) -> anyhow::Result<ExitCode> {
    runtime()?.block_on(async {
        let store = database.open().await?;
        Ok(match store.verify_audit().await? {
            AuditCheck::Intact { entries } => {
                println!("íntegro: {entries} entradas");
                ExitCode::SUCCESS
            }
            AuditCheck::Broken { seq, reason } => {
                println!("quebrado na entrada {seq}: {reason}");
                ExitCode::from(1)
            }
        })
    })
}
