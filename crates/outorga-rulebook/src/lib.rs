//! outorga-rulebook: reads rulebook folders into validated rulebooks.
//!
//! Layout (see `docs/rulebook-format.md`):
//!
//! ```text
//! rulebooks/<jurisdiction>/jurisdiction.toml   name, state, local holidays
//! rulebooks/<jurisdiction>/<service>.toml      one law for one service, as enacted
//! rulebooks/<jurisdiction>/<service>@<date>.toml  the same law as amended,
//!                                              in force from <date>
//! rulebooks/<jurisdiction>/scenarios/*.yaml    its scenario tests
//! ```
//!
//! A rulebook with an uncited rule, an unknown field, a duplicate code or an
//! inconsistent value does not load: every error is reported with file, line and
//! reason.

mod citation;
mod convert;
mod diff;
mod error;
#[cfg(feature = "fixture")]
pub mod fixture;
mod raw;
mod summary;
mod vocab_schema;

pub use diff::{ArticleChange, Diff, RuleChange, diff_files};
pub use error::{LoadError, LoadErrors};
pub use summary::summary;

use convert::JurisdictionData;
use error::Diagnostics;
use outorga_core::law_text::LawText;
use outorga_core::model::Rulebook;
use serde::de::DeserializeOwned;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const JURISDICTION_FILE: &str = "jurisdiction.toml";
/// A catalog's name (`catalog.toml`, or a later version's `catalog@….toml`).
const CATALOG_STEM: &str = "catalog";
/// What separates a law's service from a later version's valid-from date
/// in its file's name.
const VERSION_MARK: char = '@';

/// The rulebooks found under a path, by id (`santa-maria-de-jetiba/taxi`).
#[derive(Debug, Clone, Default)]
pub struct Library {
    rulebooks: BTreeMap<String, Rulebook>,
    /// Ids of rulebooks whose files are there but did not load.
    broken: BTreeSet<String>,
    /// Per jurisdiction with a shared catalog: how many infractions it holds.
    catalogs: BTreeMap<String, usize>,
}

impl Library {
    pub fn get(&self, id: &str) -> Option<&Rulebook> {
        self.rulebooks.get(id)
    }

    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.rulebooks.keys().map(String::as_str)
    }

    pub fn rulebooks(&self) -> impl Iterator<Item = &Rulebook> {
        self.rulebooks.values()
    }

    pub fn is_empty(&self) -> bool {
        self.rulebooks.is_empty()
    }

    /// The jurisdictions with a shared catalog, and its number of infractions
    /// (each rulebook has those of its services).
    pub fn catalogs(&self) -> impl Iterator<Item = (&str, usize)> {
        self.catalogs
            .iter()
            .map(|(id, count)| (id.as_str(), *count))
    }

    /// Whether a rulebook with this id is there but did not load.
    pub fn is_broken(&self, id: &str) -> bool {
        self.broken.contains(id)
    }
}

/// Loads every rulebook under `path`: a folder of jurisdictions, one
/// jurisdiction's folder, or one `<service>.toml` file.
pub fn load(path: &Path) -> Result<Library, LoadErrors> {
    let (library, errors) = load_all(path);
    if errors.is_empty() {
        Ok(library)
    } else {
        Err(LoadErrors(errors))
    }
}

/// Loads every rulebook under `path` that loads, and reports the errors of
/// those that do not (their ids are in [`Library::broken`]).
pub fn load_all(path: &Path) -> (Library, Vec<LoadError>) {
    let mut errors = Vec::new();
    let mut library = Library::default();
    let whole = |message: String| LoadError {
        file: path.to_path_buf(),
        line: 0,
        column: 0,
        message,
    };
    if path.is_file() {
        // A bare file name is in the current folder.
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if let Some(jurisdiction) = load_jurisdiction_file(folder, &mut errors) {
            // A file stands for its law: every version of it in the folder.
            let stem = service_stem(path);
            let files: Vec<PathBuf> = sorted_entries(folder, &mut errors)
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "toml") && service_stem(p) == stem)
                .collect();
            load_law(&files, &jurisdiction, &mut library, &mut errors);
        }
    } else if path.join(JURISDICTION_FILE).is_file() {
        load_folder(path, &mut library, &mut errors);
    } else if path.is_dir() {
        for folder in sorted_entries(path, &mut errors) {
            if folder.join(JURISDICTION_FILE).is_file() {
                load_folder(&folder, &mut library, &mut errors);
            }
        }
        if library.is_empty() && errors.is_empty() {
            errors.push(whole(format!(
                "no rulebooks here: expected folders with a {JURISDICTION_FILE}"
            )));
        }
    } else {
        errors.push(whole("no such file or folder".into()));
    }
    // A catalog shared by several rulebooks reports its errors once.
    let mut seen = BTreeSet::new();
    errors.retain(|e| seen.insert((e.file.clone(), e.line, e.column, e.message.clone())));
    (library, errors)
}

fn sorted_entries(folder: &Path, errors: &mut Vec<LoadError>) -> Vec<PathBuf> {
    match fs::read_dir(folder) {
        Ok(entries) => {
            let mut paths: Vec<PathBuf> =
                entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
            paths.sort();
            paths
        }
        Err(e) => {
            errors.push(LoadError {
                file: folder.to_path_buf(),
                line: 0,
                column: 0,
                message: format!("cannot read the folder: {e}"),
            });
            Vec::new()
        }
    }
}

fn load_folder(folder: &Path, library: &mut Library, errors: &mut Vec<LoadError>) {
    let jurisdiction = load_jurisdiction_file(folder, errors);
    let mut laws: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for path in sorted_entries(folder, errors) {
        let is_service = path.is_file()
            && path.extension().is_some_and(|e| e == "toml")
            && path.file_name().is_some_and(|n| n != JURISDICTION_FILE)
            && !service_stem(&path).starts_with(CATALOG_STEM);
        if is_service {
            laws.entry(service_stem(&path)).or_default().push(path);
        }
    }
    for files in laws.values() {
        match &jurisdiction {
            Some(jurisdiction) => load_law(files, jurisdiction, library, errors),
            None => {
                library
                    .broken
                    .insert(service_id(&folder_name(folder), &files[0]));
            }
        }
    }
}

/// The service a file is a version of: its name up to `@` and the
/// extension (`taxi@2025-07-01.toml` is a version of `taxi`).
fn service_stem(path: &Path) -> String {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match stem.split_once(VERSION_MARK) {
        Some((service, _)) => service.to_string(),
        None => stem,
    }
}

/// The valid-from date a later version's file name carries, if it is one.
fn version_date(path: &Path) -> Option<Result<chrono::NaiveDate, String>> {
    let stem = path.file_stem()?.to_string_lossy().into_owned();
    let (_, date) = stem.split_once(VERSION_MARK)?;
    Some(chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").map_err(|_| {
        format!(
            "\"{date}\" is not a date: a later version of a law is named <service>{VERSION_MARK}<YYYY-MM-DD>.toml, the day it is in force from"
        )
    }))
}

fn service_id(jurisdiction: &str, path: &Path) -> String {
    format!("{jurisdiction}/{}", service_stem(path))
}

fn folder_name(folder: &Path) -> String {
    folder
        .canonicalize()
        .unwrap_or_else(|_| folder.to_path_buf())
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn load_jurisdiction_file(folder: &Path, errors: &mut Vec<LoadError>) -> Option<JurisdictionData> {
    let path = folder.join(JURISDICTION_FILE);
    let text = read(&path, errors)?;
    jurisdiction_from_text(&path, &text, &folder_name(folder), errors)
}

/// The jurisdiction file at `path`, whose text is `text`, in the folder
/// named `folder`.
fn jurisdiction_from_text(
    path: &Path,
    text: &str,
    folder: &str,
    errors: &mut Vec<LoadError>,
) -> Option<JurisdictionData> {
    let mut diag = Diagnostics::new(path, text);
    let data = parse::<raw::JurisdictionFile>(text, &mut diag)
        .and_then(|raw| convert::jurisdiction(raw, folder, &mut diag));
    let failed = !diag.is_empty();
    errors.extend(diag.into_errors());
    if failed { None } else { data }
}

/// One law: its files (the law as enacted, `<service>.toml`, and each
/// later version, `<service>@<valid-from>.toml`) loaded into the latest
/// version holding the earlier ones.
fn load_law(
    files: &[PathBuf],
    jurisdiction: &JurisdictionData,
    library: &mut Library,
    errors: &mut Vec<LoadError>,
) {
    let id = service_id(&jurisdiction.jurisdiction.id, &files[0]);
    let mut versions = Vec::new();
    let mut failed = false;
    let mut dated: Vec<(Option<chrono::NaiveDate>, &PathBuf)> = Vec::new();
    for path in files {
        match version_date(path) {
            None => dated.push((None, path)),
            Some(Ok(day)) => dated.push((Some(day), path)),
            Some(Err(message)) => {
                errors.push(whole_file(path, message));
                failed = true;
            }
        }
    }
    dated.sort();
    if dated.first().is_some_and(|(day, _)| day.is_some()) {
        errors.push(whole_file(
            dated[0].1,
            format!(
                "a later version needs the law as enacted beside it: {}.toml",
                service_stem(dated[0].1)
            ),
        ));
        failed = true;
    }
    for (day, path) in &dated {
        match load_service(path, id.clone(), jurisdiction, library, errors) {
            Some(rulebook) => {
                if let Some(problem) = version_problem(&rulebook, *day, versions.first()) {
                    errors.push(whole_file(path, problem));
                    failed = true;
                }
                versions.push(rulebook);
            }
            None => failed = true,
        }
    }
    match versions.pop() {
        Some(mut latest) if !failed => {
            latest.earlier = versions;
            library.rulebooks.insert(id, latest);
        }
        _ => {
            library.broken.insert(id);
        }
    }
}

/// What is wrong with a version of a law, given the date its file name
/// carries (`None` for the law as enacted) and the law as enacted.
fn version_problem(
    version: &Rulebook,
    named: Option<chrono::NaiveDate>,
    first: Option<&Rulebook>,
) -> Option<String> {
    let amendment = &version.version.amendment;
    match (named, amendment, first) {
        (None, Some(_), _) => Some(
            "the law as enacted has no [amendment]: a later version goes in <service>@<valid-from>.toml".into(),
        ),
        (Some(_), None, _) => Some(
            "a later version says which act amended the law: add [amendment] with its name, number, date, in_force and summary".into(),
        ),
        (Some(day), Some(_), _) if version.version.valid_from != day => Some(format!(
            "[amendment] in_force is {} but the file is named for {day}: they must agree",
            version.version.valid_from
        )),
        (Some(_), Some(_), Some(first)) if version.act.number != first.act.number => Some(format!(
            "a version of {} must keep its [act] (number \"{}\", not \"{}\"); a new law is a new rulebook",
            first.id, first.act.number, version.act.number
        )),
        (Some(day), Some(_), Some(first)) if day <= first.act.in_force => Some(format!(
            "a later version must be in force after the law itself ({})",
            first.act.in_force
        )),
        _ => None,
    }
}

fn whole_file(path: &Path, message: String) -> LoadError {
    LoadError {
        file: path.to_path_buf(),
        line: 0,
        column: 0,
        message,
    }
}

fn load_service(
    path: &Path,
    id: String,
    jurisdiction: &JurisdictionData,
    library: &mut Library,
    errors: &mut Vec<LoadError>,
) -> Option<Rulebook> {
    let text = read(path, errors)?;
    let folder = path.parent().unwrap_or(Path::new("."));
    let read_beside = |_: Beside, name: &str, errors: &mut Vec<LoadError>| {
        let file = folder.join(name);
        read(&file, errors).map(|text| (file, text))
    };
    let (rulebook, catalog) = service_from_text(path, &text, id, jurisdiction, read_beside, errors);
    if let Some(infractions) = catalog {
        library
            .catalogs
            .insert(jurisdiction.jurisdiction.id.clone(), infractions);
    }
    rulebook
}

/// A file a service file names beside it.
#[derive(Clone, Copy)]
enum Beside {
    Catalog,
    LawText,
}

/// The service file at `path`, whose text is `text`, as the rulebook `id`;
/// `beside` gives the path and text of the catalog and the law's text it
/// names (or reports why it cannot). Also the number of infractions of the
/// catalog, when one was read.
fn service_from_text(
    path: &Path,
    text: &str,
    id: String,
    jurisdiction: &JurisdictionData,
    beside: impl Fn(Beside, &str, &mut Vec<LoadError>) -> Option<(PathBuf, String)>,
    errors: &mut Vec<LoadError>,
) -> (Option<Rulebook>, Option<usize>) {
    let mut diag = Diagnostics::new(path, text);
    let Some(raw) = parse::<raw::RulebookFile>(text, &mut diag) else {
        errors.extend(diag.into_errors());
        return (None, None);
    };
    // The law's words, which every citation must find.
    let law = match &raw.act.text {
        Some(name) => match beside(Beside::LawText, name.get_ref(), errors) {
            Some((file, words)) => {
                let law = LawText::parse(&words);
                if law.is_empty() {
                    diag.error(
                        name.span(),
                        format!(
                            "no article found in {}: an article opens a line with \"Art. 1º\"",
                            file.display()
                        ),
                    );
                }
                law
            }
            None => {
                errors.extend(diag.into_errors());
                return (None, None);
            }
        },
        None => LawText::default(),
    };
    // The catalog it names, read with its own file's positions.
    let catalog = match &raw.catalog {
        Some(name) => match beside(Beside::Catalog, name.get_ref(), errors) {
            Some(found) => Some(found),
            None => {
                errors.extend(diag.into_errors());
                return (None, None);
            }
        },
        None => None,
    };
    let mut catalog_diag = catalog.as_ref().map(|(p, t)| Diagnostics::new(p, t));
    let mut infractions = None;
    let shared = match (&catalog, catalog_diag.as_mut()) {
        (Some((_, text)), Some(cdiag)) => match parse::<raw::CatalogFile>(text, cdiag) {
            Some(file) => {
                infractions = Some(file.infractions.len());
                Some((file, cdiag))
            }
            None => {
                errors.extend(diag.into_errors());
                errors.extend(
                    catalog_diag
                        .map(Diagnostics::into_errors)
                        .unwrap_or_default(),
                );
                return (None, None);
            }
        },
        _ => None,
    };
    let rulebook = convert::rulebook(raw, shared, id, jurisdiction, law, &mut diag);
    errors.extend(diag.into_errors());
    errors.extend(
        catalog_diag
            .map(Diagnostics::into_errors)
            .unwrap_or_default(),
    );
    (rulebook, infractions)
}

/// One rulebook from the text of its files, checked exactly as [`load`]
/// checks a folder `rulebooks/<folder>/` holding them (for tools that have
/// the text, not the files: the fuzz targets). `jurisdiction` is its
/// `jurisdiction.toml`, `service` its `servico.toml` (the rulebook
/// `<folder>/servico`) and `catalog` the text of the catalog the service
/// names, if it names one, and `law` the law's text it names. Errors name
/// the files by those paths.
pub fn load_text(
    folder: &str,
    jurisdiction: &str,
    service: &str,
    catalog: Option<&str>,
    law: Option<&str>,
) -> Result<Rulebook, LoadErrors> {
    let mut errors = Vec::new();
    let root = Path::new(folder);
    let data = jurisdiction_from_text(
        &root.join(JURISDICTION_FILE),
        jurisdiction,
        folder,
        &mut errors,
    );
    let rulebook = data.and_then(|data| {
        let path = root.join("servico.toml");
        let read_beside = |kind: Beside, name: &str, errors: &mut Vec<LoadError>| {
            let path = root.join(name);
            let (given, what) = match kind {
                Beside::Catalog => (catalog, "catalog"),
                Beside::LawText => (law, "law"),
            };
            match given {
                Some(text) => Some((path, text.to_string())),
                None => {
                    errors.push(whole_file(
                        &path,
                        format!("cannot read: no {what} text was given"),
                    ));
                    None
                }
            }
        };
        let id = service_id(folder, &path);
        service_from_text(&path, service, id, &data, read_beside, &mut errors).0
    });
    match rulebook {
        Some(rulebook) if errors.is_empty() => Ok(rulebook),
        _ => Err(LoadErrors(errors)),
    }
}

/// The JSON Schemas of the rulebook format, generated from the types the
/// loader reads (JSON Schema draft 7, which editors' TOML extensions
/// read): a service's file, a catalog and a `jurisdiction.toml`, each as
/// (file name, text). Published in `docs/schema/`; each rulebook file
/// names its own in a `#:schema` line.
pub fn schemas() -> [(&'static str, String); 3] {
    fn text<T: schemars::JsonSchema>(name: &str, title: &str) -> String {
        let mut schema = schemars::generate::SchemaSettings::draft07()
            .into_generator()
            .into_root_schema_for::<T>();
        schema.insert(
            "$id".into(),
            format!("https://outorga.app/schema/{name}").into(),
        );
        schema.insert("title".into(), title.into());
        let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
        text.push('\n');
        text
    }
    [
        (
            "rulebook.schema.json",
            text::<raw::RulebookFile>(
                "rulebook.schema.json",
                "outorga: the rulebook of one law for its services (<service>.toml)",
            ),
        ),
        (
            "catalog.schema.json",
            text::<raw::CatalogFile>(
                "catalog.schema.json",
                "outorga: a law's catalog of infractions (catalog.toml)",
            ),
        ),
        (
            "jurisdiction.schema.json",
            text::<raw::JurisdictionFile>(
                "jurisdiction.schema.json",
                "outorga: a jurisdiction and its local holidays (jurisdiction.toml)",
            ),
        ),
    ]
}

fn read(path: &Path, errors: &mut Vec<LoadError>) -> Option<String> {
    match fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) => {
            errors.push(LoadError {
                file: path.to_path_buf(),
                line: 0,
                column: 0,
                message: format!("cannot read: {e}"),
            });
            None
        }
    }
}

fn parse<T: DeserializeOwned>(text: &str, diag: &mut Diagnostics) -> Option<T> {
    match toml::from_str::<T>(text) {
        Ok(value) => Some(value),
        Err(e) => {
            diag.error(e.span().unwrap_or(0..0), e.message().trim().to_string());
            None
        }
    }
}
