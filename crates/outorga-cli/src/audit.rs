//! `outorga audit`: verify the log and the records against it, issue a
//! checkpoint, check one, rotate the key.

use crate::db::{now, runtime};
use crate::keys::{Source, audit_keys, write_new};
use crate::users::DatabaseArgs;
use anyhow::Context as _;
use outorga_store::{AuditKey, AuditReport, Change, Checkpoint, CheckpointCheck};
use std::path::Path;
use std::process::ExitCode;

/// Prints what verifying found: each problem, or that all is intact.
/// Whether it was intact.
pub(crate) fn print_report(report: &AuditReport) -> bool {
    for p in &report.problems {
        match (&p.record, p.seq) {
            (Some(record), _) => println!("registro {record}: {}", p.reason),
            (None, Some(seq)) => println!("entrada {seq}: {}", p.reason),
            (None, None) => println!("{}", p.reason),
        }
    }
    if report.more_problems > 0 {
        println!("… e mais {} problema(s)", report.more_problems);
    }
    if report.intact() {
        println!(
            "íntegro: {} entradas, {} registros conferidos",
            report.entries, report.rows
        );
    }
    report.intact()
}

/// Exit 0 when the log and every record agree; 1 naming what does not
/// (and, with `since`, when the checkpoint no longer holds); 2 when the
/// checkpoint file cannot be read.
pub fn verify(database: &DatabaseArgs, since: Option<&Path>) -> anyhow::Result<ExitCode> {
    let checkpoint = match since {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            match Checkpoint::parse(&text) {
                Ok(c) => Some(c),
                Err(e) => {
                    eprintln!("{}:{}: {}", path.display(), e.line, e.reason);
                    return Ok(ExitCode::from(2));
                }
            }
        }
        None => None,
    };
    runtime()?.block_on(async {
        let store = database.open().await?;
        let mut holds = true;
        if let Some(checkpoint) = &checkpoint {
            let seq = checkpoint.seq;
            match store.check_checkpoint(checkpoint).await? {
                CheckpointCheck::Holds => {
                    println!("o ponto de verificação confere: nada até a entrada {seq} foi removido ou reescrito");
                }
                CheckpointCheck::BadSignature => {
                    holds = false;
                    println!(
                        "a assinatura do ponto de verificação não confere: não foi emitido com as \
                         chaves deste banco, ou foi alterado"
                    );
                }
                CheckpointCheck::Removed { last } => {
                    holds = false;
                    println!(
                        "o registro termina na entrada {last}, antes da entrada {seq} do ponto de \
                         verificação: entradas foram removidas"
                    );
                }
                CheckpointCheck::Rewritten { .. } => {
                    holds = false;
                    println!(
                        "a entrada {seq} não tem mais o hash do ponto de verificação: o registro \
                         foi reescrito até ela"
                    );
                }
            }
        }
        let report = store.verify_audit().await?;
        let intact = print_report(&report);
        Ok(if intact && holds {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        })
    })
}

/// Seals a log from a version without the audit key (`Store::seal_earlier_log`).
pub fn seal(database: &DatabaseArgs) -> anyhow::Result<ExitCode> {
    let url = crate::db::url_for(database.database_url.clone(), &database.data)?;
    runtime()?.block_on(async {
        let (keys, source) = audit_keys(&database.data)?;
        if let Source::Created(path) = &source {
            println!(
                "chave do registro de auditoria criada em {} (guarde uma cópia em lugar seguro)",
                path.display()
            );
        }
        let store = outorga_store::Store::open(&url, keys).await?;
        let change = Change {
            by: "outorga audit seal",
            at: now(),
            why: "selo de um registro de auditoria anterior à chave",
        };
        let report = store.seal_earlier_log(&change).await?;
        println!(
            "registro selado: {} entradas conferidas e seladas, {} registros descritos",
            report.sealed, report.described
        );
        Ok(ExitCode::SUCCESS)
    })
}

/// Records a checkpoint and prints it (and writes it to `out`, a new file).
pub fn checkpoint(
    database: &DatabaseArgs,
    by: &str,
    out: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let text = runtime()?.block_on(async {
        let store = database.open().await?;
        let change = Change {
            by,
            at: now(),
            why: "ponto de verificação do registro de auditoria",
        };
        let checkpoint = store.checkpoint(&change).await?;
        crate::anchor::record(&store, &database.data).await?;
        Ok::<_, anyhow::Error>(checkpoint.to_text())
    })?;
    if let Some(out) = out {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(out)
            .and_then(|mut f| std::io::Write::write_all(&mut f, text.as_bytes()))
            .with_context(|| format!("cannot write {} (it must not exist)", out.display()))?;
    }
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// Seals the log again with a new key, keeping the current one for the
/// checkpoints it signed. A key file is replaced; keys from the
/// environment are printed for the operator to set.
pub fn rotate_key(database: &DatabaseArgs, by: &str) -> anyhow::Result<ExitCode> {
    let (keys, source) = audit_keys(&database.data)?;
    let new = keys.rotated(AuditKey::generate()?);
    let staged = match &source {
        Source::File(path) | Source::Created(path) => {
            let staged = path.with_extension("key.new");
            write_new(&staged, &new).with_context(|| {
                format!("remove {} if a rotation was interrupted", staged.display())
            })?;
            Some((staged, path.clone()))
        }
        Source::Environment => None,
    };
    let rotated = runtime()?.block_on(async {
        let store = database.open().await?;
        let change = Change {
            by,
            at: now(),
            why: "troca da chave do registro de auditoria",
        };
        Ok::<_, anyhow::Error>(store.rotate_audit_key(&change, &new).await?)
    });
    let entries = match rotated {
        Ok(entries) => entries,
        Err(e) => {
            if let Some((staged, _)) = &staged {
                let _ = std::fs::remove_file(staged);
            }
            return Err(e);
        }
    };
    println!(
        "chave trocada: {} → {}; {entries} entradas seladas de novo",
        keys.current().id(),
        new.current().id()
    );
    match staged {
        Some((staged, path)) => {
            std::fs::rename(&staged, &path).with_context(|| {
                format!(
                    "the new keys are in {}: move it to {}",
                    staged.display(),
                    path.display()
                )
            })?;
            println!(
                "chaves gravadas em {} (a anterior ficou guardada nele)",
                path.display()
            );
        }
        None => {
            println!(
                "defina {} com estas chaves (a atual por último) em todos os servidores:",
                crate::keys::KEY_VARIABLE
            );
            print!("{}", new.to_text());
        }
    }
    Ok(ExitCode::SUCCESS)
}
