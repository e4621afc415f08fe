//! `outorga rulebook check`, `diff` and `schema`, and `outorga scenarios run`; finding and loading
//! the rulebooks for the other commands.

use anyhow::{Context as _, bail};
use outorga_rulebook::Library;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The rulebooks folder: the one given, else `rulebooks` in the current folder or
/// the nearest one above it.
pub(crate) fn rulebooks_folder(given: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    if let Some(path) = given {
        return Ok(path);
    }
    let here = std::env::current_dir().context("cannot read the current folder")?;
    for folder in here.ancestors() {
        let candidate = folder.join("rulebooks");
        if candidate.is_dir() {
            return Ok(candidate);
        }
    }
    bail!("no `rulebooks` folder here or above; pass --rulebooks PATH or set OUTORGA_RULEBOOKS")
}

pub(crate) fn load(path: &Path) -> Result<Library, ExitCode> {
    outorga_rulebook::load(path).map_err(reported)
}

/// The rulebooks' errors on standard error; exit 2.
fn reported(errors: outorga_rulebook::LoadErrors) -> ExitCode {
    eprintln!("{errors}");
    eprintln!("{} error(s) in the rulebooks", errors.0.len());
    ExitCode::from(2)
}

pub fn check(path: Option<PathBuf>) -> anyhow::Result<ExitCode> {
    let path = rulebooks_folder(path)?;
    let library = match load(&path) {
        Ok(library) => library,
        Err(code) => return Ok(code),
    };
    for rulebook in library.rulebooks() {
        println!(
            "{} — {} ({}), {}",
            rulebook.id, rulebook.act.name, rulebook.act.number, rulebook.jurisdiction.state
        );
        for (section, count) in outorga_rulebook::summary(rulebook) {
            println!("  {section:<22} {count:>4}");
        }
    }
    for (jurisdiction, count) in library.catalogs() {
        println!("{jurisdiction}/catalog.toml — {count} infractions in the law's catalog");
    }
    println!("{} rulebook(s) OK", library.ids().count());
    Ok(ExitCode::SUCCESS)
}

pub fn schema(folder: &Path) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(folder)
        .with_context(|| format!("cannot create {}", folder.display()))?;
    for (name, text) in outorga_rulebook::schemas() {
        let path = folder.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

pub fn diff(before: &Path, after: &Path) -> anyhow::Result<ExitCode> {
    match outorga_rulebook::diff_files(before, after) {
        Ok(diff) => {
            print!("{}", diff.text());
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => Ok(reported(errors)),
    }
}

pub fn run_scenarios(
    paths: &[PathBuf],
    explain: bool,
    rulebooks: Option<PathBuf>,
) -> anyhow::Result<ExitCode> {
    // Rulebooks that load are used; each error of the others counts as a
    // failure, and so do their cases.
    let (library, errors) = match rulebooks_folder(rulebooks) {
        Ok(folder) => outorga_rulebook::load_all(&folder),
        Err(error) => (
            outorga_rulebook::Library::default(),
            vec![outorga_rulebook::LoadError {
                file: PathBuf::from("rulebooks"),
                line: 0,
                column: 0,
                message: error.to_string(),
            }],
        ),
    };
    let mut report = outorga_scenarios::Report::default();
    for error in &errors {
        report.fail("(rulebooks)", "", &[error.to_string()], true);
    }
    outorga_scenarios::run_paths(&library, paths, explain, &mut report);
    print!("{}", report.text);
    println!("{} passed, {} failed", report.passed, report.failed);
    // 0: all passed; 1: some case's answer differs from its expectation;
    // 2: some case or rulebook could not be read as written (bad input).
    Ok(if report.failed == 0 {
        ExitCode::SUCCESS
    } else if report.invalid > 0 {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    })
}
