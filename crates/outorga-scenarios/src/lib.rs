//! outorga-scenarios: the scenario file format (`shared/spec/scenarios.md`), the
//! public contract for testing the law as code.
//!
//! A file is a YAML list of cases. Each case is parsed on its own, so one broken
//! case fails alone, with its line and what to fix; the others still run.

mod answer;
mod dto;
mod expect;
mod permit_life;
mod process;
mod scalar;
mod world;

pub use expect::citation_matches;

use marked_yaml::types::MarkedMappingNode;
use marked_yaml::{LoadError, LoaderOptions, Node};
use outorga_core::Context;
use outorga_rulebook::Library;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a run printed and counted.
#[derive(Debug, Default, Clone)]
pub struct Report {
    /// Failures (and, with `explain`, every case's result), ready to print.
    pub text: String,
    pub passed: usize,
    pub failed: usize,
    /// Failed cases that could not be run as written (bad input), a subset of `failed`.
    pub invalid: usize,
}

impl Report {
    /// Counts a failure: at `location`, of `name`, explained by `lines`;
    /// `invalid` when it is bad input rather than a wrong answer.
    pub fn fail(&mut self, location: &str, name: &str, lines: &[String], invalid: bool) {
        self.failed += 1;
        if invalid {
            self.invalid += 1;
        }
        let _ = writeln!(self.text, "FAIL {location} {name}");
        for line in lines {
            let _ = writeln!(self.text, "  {line}");
        }
    }
}

/// The scenario files under `paths` (files as given; folders searched
/// recursively for `*.yaml` and `*.yml`), sorted, each once.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_file() {
            files.push(path.clone());
        } else if path.is_dir() {
            let mut found = Vec::new();
            walk(path, &mut found)?;
            found.sort();
            files.extend(found);
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    let mut seen = HashSet::new();
    files.retain(|f| seen.insert(f.clone()));
    Ok(files)
}

fn walk(folder: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(folder).map_err(|e| format!("{}: cannot read: {e}", folder.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: cannot read: {e}", folder.display()))?;
        let path = entry.path();
        // Folders reached through a link are not entered (a link to a parent
        // would loop); files reached through a link are read.
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            walk(&path, found)?;
        } else if path.is_file() && path.extension().is_some_and(|e| e == "yaml" || e == "yml") {
            found.push(path);
        }
    }
    Ok(())
}

/// Runs every case of every scenario file under `paths`, adding to `report`.
pub fn run_paths(library: &Library, paths: &[PathBuf], explain: bool, report: &mut Report) {
    match discover(paths) {
        Ok(files) => {
            if files.is_empty() {
                report.fail(
                    "(no files)",
                    "",
                    &["no *.yaml or *.yml scenario files found".into()],
                    true,
                );
            }
            for file in files {
                run_file(library, &file, explain, report);
            }
        }
        Err(message) => report.fail("(paths)", "", &[message], true),
    }
}

/// Runs the cases of one file, given its text.
pub fn run_text(library: &Library, file: &str, text: &str, explain: bool, report: &mut Report) {
    let parse = |strict: bool| {
        let options = LoaderOptions::default()
            .toplevel_sequence()
            .error_on_duplicate_keys(strict);
        marked_yaml::parse_yaml_with_options(0, text, options)
    };
    // A key written twice fails its own case; the file's other cases still run.
    let (root, duplicate) = match parse(true) {
        Ok(root) => (Ok(root), None),
        Err(LoadError::DuplicateKey(inner)) => {
            let line = inner.key.span().start().map_or(0, |m| m.line());
            let message = format!(
                "line {line}: `{}` is written twice in the same mapping",
                inner.key.as_str()
            );
            (parse(false), Some((line, message)))
        }
        Err(error) => (Err(error), None),
    };
    let root = match root {
        Ok(root) => root,
        Err(error) => {
            report.fail(file, "(file)", &[format!("not valid YAML: {error}")], true);
            return;
        }
    };
    let Some(cases) = root.as_sequence() else {
        report.fail(
            file,
            "(file)",
            &["a scenario file is a YAML list of cases (`- name: ...`)".into()],
            true,
        );
        return;
    };
    let mut names = HashSet::new();
    for (index, node) in cases.iter().enumerate() {
        let line = expect::line_of(node);
        let location = format!("{file}:{line}");
        let next_line = cases.get(index + 1).map_or(usize::MAX, expect::line_of);
        let Some(case) = node.as_mapping() else {
            report.fail(
                &location,
                &format!("(case {})", index + 1),
                &["a case must be a mapping".into()],
                true,
            );
            continue;
        };
        let name = case
            .get_scalar("name")
            .map(|n| n.as_str().trim().to_string())
            .unwrap_or_default();
        let label = if name.is_empty() {
            format!("(case {})", index + 1)
        } else {
            format!("\"{name}\"")
        };
        if let Some((_, message)) = duplicate
            .as_ref()
            .filter(|(at, _)| (line..next_line).contains(at))
        {
            report.fail(&location, &label, std::slice::from_ref(message), true);
            continue;
        }
        if name.is_empty() {
            report.fail(
                &location,
                &label,
                &["a case needs a `name`: a non-empty text, unique in the file".into()],
                true,
            );
            continue;
        }
        if !names.insert(name.clone()) {
            report.fail(
                &location,
                &label,
                &["another case in this file has the same name".into()],
                true,
            );
            continue;
        }
        match run_case(library, case, explain) {
            Ok(Outcome { mismatches, shown }) => {
                if mismatches.is_empty() {
                    report.passed += 1;
                    if let Some(shown) = shown {
                        let _ = writeln!(report.text, "PASS {location} {label}\n{shown}");
                    }
                } else {
                    let mut lines: Vec<String> = mismatches
                        .iter()
                        .map(|m| format!("line {}: {}: {}", m.line, m.path, m.message))
                        .collect();
                    lines.extend(shown);
                    report.fail(&location, &label, &lines, false);
                }
            }
            Err(CaseError { message, invalid }) => {
                report.fail(&location, &label, &[message], invalid)
            }
        }
    }
}

fn run_file(library: &Library, file: &Path, explain: bool, report: &mut Report) {
    let shown = file.display().to_string();
    match std::fs::read_to_string(file) {
        Ok(text) => run_text(library, &shown, &text, explain, report),
        Err(e) => report.fail(&shown, "(file)", &[format!("cannot read: {e}")], true),
    }
}

struct Outcome {
    mismatches: Vec<expect::Mismatch>,
    shown: Option<String>,
}

struct CaseError {
    message: String,
    /// True when the case itself is malformed (as opposed to a question the
    /// engine cannot answer).
    invalid: bool,
}

fn input(message: String) -> CaseError {
    CaseError {
        message,
        invalid: true,
    }
}

/// What the articles an answer cites say, each once, as the law prints
/// them (indented under the result): the words a reader checks it against.
fn cited_words(rulebook: &outorga_core::model::Rulebook, result: &serde_json::Value) -> String {
    let mut cited = std::collections::BTreeSet::new();
    collect_citations(result, false, &mut cited);
    let mut out = String::new();
    for citation in cited {
        if let Some(words) = rulebook.text.excerpt(&citation) {
            out.push_str(&format!("\n  {citation}:"));
            for line in words.lines() {
                out.push_str(&format!("\n    | {line}"));
            }
        }
    }
    out
}

/// Every string under a key that names citations (`citations`,
/// `unmet_citations`, `refusal_citations`…), anywhere in the answer.
fn collect_citations(
    value: &serde_json::Value,
    under: bool,
    into: &mut std::collections::BTreeSet<String>,
) {
    match value {
        serde_json::Value::String(s) if under => {
            into.insert(s.clone());
        }
        serde_json::Value::Array(items) => {
            for item in items {
                collect_citations(item, under, into);
            }
        }
        serde_json::Value::Object(map) => {
            for (key, item) in map {
                collect_citations(item, key.ends_with("citations"), into);
            }
        }
        _ => {}
    }
}

/// The answer's key naming the version of the law that judged it.
const LAW_VERSION: &str = "law_version";

const CASE_KEYS: [&str; 7] = [
    "name",
    "rulebook",
    "today",
    "parameters",
    "facts",
    "query",
    "expect",
];

/// Deserializes one field of a case, reporting line and path on error.
fn field<T: serde::de::DeserializeOwned + Default>(
    case: &MarkedMappingNode,
    key: &str,
) -> Result<T, CaseError> {
    match case.get_node(key) {
        None => Ok(T::default()),
        Some(node) => typed(node, key),
    }
}

fn typed<T: serde::de::DeserializeOwned>(node: &Node, key: &str) -> Result<T, CaseError> {
    marked_yaml::from_node::<T>(node).map_err(|error| {
        let line = error
            .start_mark()
            .map_or_else(|| expect::line_of(node), |m| m.line());
        let path = match error.path() {
            Some(path) if !path.is_empty() => format!("{key}.{path}"),
            _ => key.to_string(),
        };
        input(format!("line {line}: {path}: {}", &*error))
    })
}

fn required<'n>(case: &'n MarkedMappingNode, key: &str) -> Result<&'n Node, CaseError> {
    case.get_node(key).ok_or_else(|| {
        input(format!(
            "line {}: the case has no `{key}`",
            case.span().start().map_or(0, |m| m.line())
        ))
    })
}

fn run_case(
    library: &Library,
    case: &MarkedMappingNode,
    explain: bool,
) -> Result<Outcome, CaseError> {
    for (key, _) in case.iter() {
        if !CASE_KEYS.contains(&key.as_str()) {
            return Err(input(format!(
                "line {}: unknown key `{}` (a case has: {})",
                key.span().start().map_or(0, |m| m.line()),
                key.as_str(),
                CASE_KEYS.join(", ")
            )));
        }
    }
    required(case, "name")?;
    let rulebook_id: String = typed(required(case, "rulebook")?, "rulebook")?;
    let rulebook = library.get(&rulebook_id).ok_or_else(|| {
        if library.is_broken(&rulebook_id) {
            input(format!(
                "rulebook `{rulebook_id}` did not load (its errors are listed above)"
            ))
        } else {
            input(format!(
                "unknown rulebook `{rulebook_id}` (known: {})",
                library.ids().collect::<Vec<_>>().join(", ")
            ))
        }
    })?;
    let today: scalar::Date = typed(required(case, "today")?, "today")?;
    let parameters: dto::Parameters = field(case, "parameters")?;
    let facts: dto::Facts = field(case, "facts")?;
    let query: dto::Query = typed(required(case, "query")?, "query")?;
    let expected = required(case, "expect")?;

    let rulebook = rulebook
        .in_force_on(query.governing_day(today.0))
        .map_err(|e| CaseError {
            message: format!("no answer: {e}"),
            invalid: false,
        })?;
    let overrides = world::overrides(rulebook, parameters).map_err(input)?;
    let ctx = Context::new(rulebook, overrides);
    let world = world::build(&ctx, facts, today.0).map_err(input)?;
    let mut result = answer::answer(&ctx, &world, &query, today.0).map_err(|f| match f {
        answer::Failure::Input(message) => input(message),
        answer::Failure::Engine(message) => CaseError {
            message: format!("no answer: {message}"),
            invalid: false,
        },
    })?;
    if let Some(tree) = result.as_object_mut() {
        tree.insert(LAW_VERSION.into(), answer::law_version(rulebook));
    }
    let known: Vec<&str> = answer::known_keys(&query)
        .iter()
        .copied()
        .chain([LAW_VERSION])
        .collect();
    let mismatches = expect::compare(expected, &result, &known).map_err(input)?;
    let shown = (explain || !mismatches.is_empty()).then(|| {
        let pretty = serde_json::to_string_pretty(&result).unwrap_or_default();
        let indented: Vec<String> = pretty.lines().map(|l| format!("    {l}")).collect();
        format!(
            "  result ({} on {}):\n{}{}",
            query.name(),
            today.0,
            indented.join("\n"),
            cited_words(rulebook, &result)
        )
    });
    Ok(Outcome { mismatches, shown })
}
