//! `outorga import`: holders, drivers or vehicles from a CSV file, each row
//! registered on its own (a bad row never stops or half-writes the others),
//! with a progress bar and a report of the rows refused and why.

use crate::users::DatabaseArgs;
use anyhow::Context as _;
use chrono::NaiveDate;
use indicatif::{ProgressBar, ProgressStyle};
use outorga_store::{Change, Cnh, Profile, Store, StoreError, Vehicle};
use std::path::Path;
use std::process::ExitCode;

/// What a file holds.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum Kind {
    /// documento,nome[,nascimento,residente_desde,cnh_numero,cnh_categorias,cnh_validade,endereco,telefone,email,cnh_atividade_remunerada]
    Holders,
    /// The same columns as holders.
    Drivers,
    /// placa,renavam,ano[,cor,portas,lotacao]
    Vehicles,
}

/// One refused row: its line in the file, the field and the reason.
#[derive(Debug)]
struct Rejected {
    line: u64,
    field: String,
    reason: String,
}

fn optional_date(field: &'static str, text: Option<&str>) -> Result<Option<NaiveDate>, StoreError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => NaiveDate::parse_from_str(t, "%Y-%m-%d")
            .or_else(|_| NaiveDate::parse_from_str(t, "%d/%m/%Y"))
            .map(Some)
            .map_err(|_| StoreError::Invalid {
                field,
                reason: format!("`{t}`: escreva a data como 31/12/2025 ou 2025-12-31"),
            }),
    }
}

/// A yes/no column: `sim`/`não` (or true/false, s/n); blank is no.
fn yes(field: &'static str, text: Option<&str>) -> Result<bool, StoreError> {
    match text.map(|t| t.trim().to_lowercase()).as_deref() {
        None | Some("") => Ok(false),
        Some("sim" | "s" | "true" | "1") => Ok(true),
        Some("não" | "nao" | "n" | "false" | "0") => Ok(false),
        Some(other) => Err(StoreError::Invalid {
            field,
            reason: format!("`{other}`: escreva sim ou não"),
        }),
    }
}

fn number<T: std::str::FromStr>(
    field: &'static str,
    text: Option<&str>,
) -> Result<Option<T>, StoreError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => t.parse().map(Some).map_err(|_| StoreError::Invalid {
            field,
            reason: format!("`{t}` não é um número"),
        }),
    }
}

async fn person(
    store: &Store,
    change: &Change<'_>,
    jurisdiction: &str,
    row: &csv::StringRecord,
) -> Result<(), StoreError> {
    let get = |i: usize| row.get(i).map(str::trim).filter(|t| !t.is_empty());
    let (document, name) = (get(0).unwrap_or(""), get(1).unwrap_or(""));
    let cnh = match (get(4), optional_date("cnh_validade", get(6))?) {
        (Some(number), Some(expires)) => Some(Cnh {
            number: number.to_string(),
            categories: get(5)
                .unwrap_or("")
                .split(['/', ' ', ';'])
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect(),
            paid_activity: yes("cnh_atividade_remunerada", get(10))?,
            first_issued: None,
            expires,
            suspended_until: None,
        }),
        (None, None) => None,
        _ => {
            return Err(StoreError::Invalid {
                field: "cnh",
                reason: "informe o número e a validade da CNH, ou nenhum dos dois".into(),
            });
        }
    };
    let profile = Profile {
        birth_date: optional_date("nascimento", get(2))?,
        resident_since: optional_date("residente_desde", get(3))?,
        cnh,
        street: get(7).unwrap_or("").to_string(),
        phone: get(8).unwrap_or("").to_string(),
        email: get(9).unwrap_or("").to_string(),
        ..Profile::default()
    };
    // Checked before anything is written: a bad row writes nothing.
    outorga_store::check_profile(&profile)?;
    outorga_store::parse_document(document)?;
    store.register(change, jurisdiction, document, name).await?;
    store
        .update_profile(change, jurisdiction, document, &profile)
        .await?;
    Ok(())
}

async fn vehicle(
    store: &Store,
    change: &Change<'_>,
    jurisdiction: &str,
    row: &csv::StringRecord,
    year: i32,
) -> Result<(), StoreError> {
    let get = |i: usize| row.get(i).map(str::trim).filter(|t| !t.is_empty());
    let manufactured = number::<i32>("ano", get(2))?.ok_or(StoreError::Invalid {
        field: "ano",
        reason: "informe o ano de fabricação".into(),
    })?;
    let v = Vehicle {
        plate: get(0).unwrap_or("").to_string(),
        renavam: get(1).unwrap_or("").to_string(),
        manufactured,
        colour: get(3).unwrap_or("").to_string(),
        doors: number("portas", get(4))?,
        capacity: number("lotacao", get(5))?,
        ..Vehicle::default()
    };
    store
        .register_vehicle(change, jurisdiction, &v, year)
        .await
        .map(|_| ())
}

/// Imports `file` into `jurisdiction`; exit 0 when every row was taken, 1
/// when some were refused (listed), 2 when the file cannot be read.
pub fn import(
    database: &DatabaseArgs,
    kind: Kind,
    jurisdiction: &str,
    file: &Path,
) -> anyhow::Result<ExitCode> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_path(file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let rows: Vec<(u64, csv::StringRecord)> = reader
        .records()
        .map(|r| r.map(|rec| (rec.position().map_or(0, |p| p.line()), rec)))
        .collect::<Result<_, _>>()
        .with_context(|| format!("{} is not a CSV file", file.display()))?;
    let now = chrono::Utc::now().naive_utc();
    let why = format!("importação de {}", file.display());
    let change = Change {
        by: "outorga import",
        at: now,
        why: &why,
    };
    let bar = ProgressBar::new(rows.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} linhas ({per_sec}, falta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut rejected = Vec::new();
    crate::db::runtime()?.block_on(async {
        let store = database.open().await?;
        for (line, row) in &rows {
            let result = match kind {
                Kind::Holders | Kind::Drivers => person(&store, &change, jurisdiction, row).await,
                Kind::Vehicles => {
                    vehicle(
                        &store,
                        &change,
                        jurisdiction,
                        row,
                        chrono::Datelike::year(&now),
                    )
                    .await
                }
            };
            match result {
                Ok(()) => {}
                Err(e) => match e.bad_input() {
                    Some((field, reason)) => rejected.push(Rejected {
                        line: *line,
                        field: field.to_string(),
                        reason: reason.to_string(),
                    }),
                    None => return Err(anyhow::Error::from(e)),
                },
            }
            bar.inc(1);
        }
        // The table grew at once: the planner's statistics follow.
        store.analyze().await?;
        crate::anchor::record(&store, &database.data).await?;
        bar.finish_and_clear();
        Ok::<_, anyhow::Error>(())
    })?;
    println!(
        "{}: {} linha(s) importada(s), {} recusada(s)",
        file.display(),
        rows.len() - rejected.len(),
        rejected.len()
    );
    for r in &rejected {
        println!("  {}:{}: {}: {}", file.display(), r.line, r.field, r.reason);
    }
    Ok(if rejected.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
