//! `outorga import`: a department's existing records — holders, drivers,
//! vehicles, permits, past autos and their debts — from a CSV (`;` or `,`, UTF-8 with or without BOM,
//! or Latin-1) or `.xlsx` file, through the store's import (the same the
//! web screen calls): the header checked before any row, each row on its
//! own, a progress bar, and every row's outcome; `--dry-run` writes nothing
//! and reports what a real run would.

use crate::rulebooks::{load, rulebooks_folder};
use crate::users::DatabaseArgs;
use indicatif::{ProgressBar, ProgressStyle};
use outorga_store::{Change, ImportKind, ImportOutcome, ImportRequest};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What a file holds (the columns of each: README, docs/import/).
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Kind {
    /// documento;nome[;nascimento;residente_desde;cnh_numero;cnh_categorias;cnh_validade;endereco;telefone;email;cnh_atividade_remunerada]
    Holders,
    /// The same columns as holders.
    Drivers,
    /// placa;renavam;ano[;cor;portas;lotacao]
    Vehicles,
    /// servico;numero;titular;outorgada_em[;situacao;validade;encerrada_em;placa;condutores;cota;linha]
    Permits,
    /// ano;numero;infracao;autuado;cometida_em;local;descricao;situacao[;servico;permissao;placa;agente;notificado_em;defesa_em;julgado_em;decisao_notificada_em;recorrido_em;definitivo_em;mantido;multa]
    Autos,
    /// ano;numero[;valor;unidade;emitido_em;vencimento;parcelas;pagamentos]
    Debts,
}

impl Kind {
    fn store(self) -> ImportKind {
        match self {
            Kind::Holders => ImportKind::Holders,
            Kind::Drivers => ImportKind::Drivers,
            Kind::Vehicles => ImportKind::Vehicles,
            Kind::Permits => ImportKind::Permits,
            Kind::Autos => ImportKind::Autos,
            Kind::Debts => ImportKind::Debts,
        }
    }
}

/// Imports `file` into `jurisdiction`; exit 0 when every row was (or, in a
/// dry run, would be) taken, 1 when some were refused (listed), 2 when the
/// file cannot be read or its header is not the kind's.
pub fn import(
    database: &DatabaseArgs,
    (kind, jurisdiction): (Kind, &str),
    file: &Path,
    dry_run: bool,
    rulebooks: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    let shown = file.display().to_string();
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("{shown}: não foi possível ler o arquivo: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let name = file
        .file_name()
        .map_or_else(|| shown.clone(), |n| n.to_string_lossy().into_owned());
    let table = match outorga_store::read_import_file(&name, &bytes)
        .and_then(|t| outorga_store::check_import_header(kind.store(), &t.header).map(|_| t))
    {
        Ok(table) => table,
        Err(e) => {
            eprintln!("{shown}:1: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    let library = match kind {
        Kind::Permits | Kind::Autos | Kind::Debts => match load(&rulebooks_folder(rulebooks)?) {
            Ok(library) => Some(library),
            Err(code) => return Ok(code),
        },
        _ => None,
    };
    let own: Vec<_> = library
        .iter()
        .flat_map(|l| l.rulebooks())
        .filter(|r| r.jurisdiction.id == jurisdiction)
        .collect();
    let now = chrono::Utc::now().naive_utc();
    let change = Change {
        by: "outorga import",
        at: now,
        why: "importação dos registros existentes",
    };
    let bar = ProgressBar::new(table.rows.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} linhas ({per_sec}, falta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let report = crate::db::runtime()?.block_on(async {
        let store = database.open().await?;
        let report = store
            .import(
                &change,
                ImportRequest {
                    jurisdiction,
                    kind: kind.store(),
                    file: &name,
                    table: &table,
                    rulebooks: &own,
                    dry_run,
                },
                &mut |done, _| bar.set_position(done as u64),
            )
            .await;
        let report = match report {
            Ok(report) => report,
            Err(e) => match e.bad_input() {
                Some((field, reason)) => {
                    bar.finish_and_clear();
                    eprintln!("{shown}: {field}: {reason}");
                    return Ok(None);
                }
                None => return Err(anyhow::Error::from(e)),
            },
        };
        if !dry_run {
            // The tables grew at once: the planner's statistics follow.
            store.analyze().await?;
            crate::anchor::record(&store, &database.data).await?;
        }
        bar.finish_and_clear();
        Ok::<_, anyhow::Error>(Some(report))
    })?;
    let Some(report) = report else {
        return Ok(ExitCode::from(2));
    };
    // A reader that stops early (a pipe to `head`) ends the listing, not
    // the program.
    let mut out = std::io::stdout().lock();
    if dry_run {
        let _ = writeln!(
            out,
            "{shown}: simulação, nada gravado: {} linha(s) seriam importada(s), {} recusada(s)",
            report.imported(),
            report.refused()
        );
    } else {
        let _ = writeln!(
            out,
            "{shown}: {} linha(s) importada(s), {} recusada(s)",
            report.imported(),
            report.refused()
        );
    }
    for row in &report.rows {
        match &row.outcome {
            ImportOutcome::Imported { notes } => {
                if dry_run {
                    let _ = writeln!(
                        out,
                        "  {shown}:{}: {}: seria importada",
                        row.line, row.subject
                    );
                }
                for note in notes {
                    let _ = writeln!(out, "  {shown}:{}: {}: {note}", row.line, row.subject);
                }
            }
            ImportOutcome::Refused { field, reason } => {
                let _ = writeln!(out, "  {shown}:{}: {field}: {reason}", row.line);
            }
        }
    }
    Ok(if report.refused() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
