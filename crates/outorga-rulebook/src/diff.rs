//! What changed between two versions of a law, rule by rule: each value
//! of the rulebook (with its catalog) that differs, with the article the
//! rule cites, and each article whose words changed.
//!
//! Both versions must load: a difference is only worth reading between two
//! rulebooks the engine accepts.

use crate::{LoadError, LoadErrors, service_stem, version_date};
use outorga_core::model::Rulebook;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;
use toml::Value;

/// Keys that name files or the version itself, which every version has
/// its own of.
const OWN_TO_EACH_VERSION: [&str; 3] = ["amendment", "catalog", "act.text"];

/// One rule that differs: where in the rulebook, the value before and
/// after (`None`: not there), and the article the rule cites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleChange {
    pub place: String,
    pub before: Option<String>,
    pub after: Option<String>,
    pub citation: Option<String>,
}

/// An article whose words differ: the lines taken out and put in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArticleChange {
    pub article: String,
    pub removed: Vec<String>,
    pub added: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    /// How each version names itself.
    pub before: String,
    pub after: String,
    pub rules: Vec<RuleChange>,
    pub articles: Vec<ArticleChange>,
}

/// The difference between the versions of a law in two service files
/// (`taxi.toml`, `taxi@2026-01-01.toml`), each loaded with its folder.
pub fn diff_files(before: &Path, after: &Path) -> Result<Diff, LoadErrors> {
    let (old_rulebook, old_tree) = version_in(before)?;
    let (new_rulebook, new_tree) = version_in(after)?;
    let mut rules = Vec::new();
    compare(
        &mut rules,
        String::new(),
        Some(&old_tree),
        Some(&new_tree),
        None,
    );
    Ok(Diff {
        before: old_rulebook.version.label(&old_rulebook.act),
        after: new_rulebook.version.label(&new_rulebook.act),
        rules,
        articles: article_changes(&old_rulebook, &new_rulebook),
    })
}

impl Diff {
    /// The difference as a reviewer reads it, in Portuguese.
    pub fn text(&self) -> String {
        let mut out = format!("de:   {}\npara: {}\n", self.before, self.after);
        if self.rules.is_empty() && self.articles.is_empty() {
            out.push_str("nenhuma diferença\n");
            return out;
        }
        if !self.rules.is_empty() {
            let _ = writeln!(out, "\nregras ({}):", self.rules.len());
        }
        for change in &self.rules {
            let what = match (&change.before, &change.after) {
                (Some(b), Some(a)) => format!("{b} → {a}"),
                (None, Some(a)) => format!("incluído: {a}"),
                (Some(b), None) => format!("excluído: {b}"),
                (None, None) => String::new(),
            };
            let cited = change
                .citation
                .as_deref()
                .map_or(String::new(), |c| format!("  [{c}]"));
            let _ = writeln!(out, "  {}: {what}{cited}", change.place);
        }
        if !self.articles.is_empty() {
            let _ = writeln!(out, "\ntexto da lei ({} artigos):", self.articles.len());
        }
        for change in &self.articles {
            let _ = writeln!(out, "  {}:", change.article);
            for line in &change.removed {
                let _ = writeln!(out, "    - {line}");
            }
            for line in &change.added {
                let _ = writeln!(out, "    + {line}");
            }
        }
        out
    }
}

/// The version a service file holds, and its rules as a TOML tree with
/// its catalog's groups and infractions in it.
fn version_in(path: &Path) -> Result<(Rulebook, Value), LoadErrors> {
    let whole = |message: String| {
        LoadErrors(vec![LoadError {
            file: path.to_path_buf(),
            line: 0,
            column: 0,
            message,
        }])
    };
    let library = crate::load(path)?;
    let law = library
        .rulebooks()
        .find(|r| r.id.ends_with(&format!("/{}", service_stem(path))))
        .ok_or_else(|| whole("no rulebook in this file".into()))?;
    let rulebook = match version_date(path) {
        Some(Ok(day)) => law.versions().find(|v| v.version.valid_from == day),
        _ => Some(law.first_version()),
    }
    .ok_or_else(|| whole("this version did not load".into()))?
    .clone();
    let read = |file: &Path| -> Result<Value, LoadErrors> {
        let text = std::fs::read_to_string(file).map_err(|e| whole(format!("cannot read: {e}")))?;
        text.parse::<toml::Table>()
            .map(Value::Table)
            .map_err(|e| whole(e.to_string()))
    };
    let mut tree = read(path)?;
    let catalog = tree
        .get("catalog")
        .and_then(Value::as_str)
        .map(str::to_string);
    if let (Some(name), Value::Table(table)) = (catalog, &mut tree) {
        let folder = path.parent().unwrap_or(Path::new("."));
        if let Value::Table(catalog) = read(&folder.join(name))? {
            for (key, value) in catalog {
                match (table.get_mut(&key), value) {
                    (Some(Value::Array(own)), Value::Array(mut shared)) => {
                        shared.append(own);
                        *own = shared;
                    }
                    (None, value) => {
                        table.insert(key, value);
                    }
                    _ => {}
                }
            }
        }
    }
    Ok((rulebook, tree))
}

fn compare(
    out: &mut Vec<RuleChange>,
    place: String,
    before: Option<&Value>,
    after: Option<&Value>,
    citation: Option<&str>,
) {
    let citation = [after, before]
        .into_iter()
        .flatten()
        .find_map(|v| v.get("citation").and_then(Value::as_str))
        .or(citation);
    match (before, after) {
        (Some(Value::Table(b)), Some(Value::Table(a))) => {
            let keys: BTreeSet<&String> = b.keys().chain(a.keys()).collect();
            for key in keys {
                let inner = if place.is_empty() {
                    key.clone()
                } else {
                    format!("{place}.{key}")
                };
                if !OWN_TO_EACH_VERSION.contains(&inner.as_str()) {
                    compare(out, inner, b.get(key), a.get(key), citation);
                }
            }
        }
        (Some(Value::Array(b)), Some(Value::Array(a))) if is_table_list(b) && is_table_list(a) => {
            let (old, new) = (by_identity(b), by_identity(a));
            let keys: BTreeSet<&String> = old.keys().chain(new.keys()).collect();
            for key in keys {
                let inner = format!("{place}[{key}]");
                compare(
                    out,
                    inner,
                    old.get(key).copied(),
                    new.get(key).copied(),
                    citation,
                );
            }
        }
        (b, a) if b != a => out.push(RuleChange {
            place,
            before: b.map(shown),
            after: a.map(shown),
            citation: citation.map(str::to_string),
        }),
        _ => {}
    }
}

fn is_table_list(items: &[Value]) -> bool {
    !items.is_empty() && items.iter().all(Value::is_table)
}

/// The items of a list of rules by what names each (`code`, `id`, `kind`,
/// `name`, when it names every item once), else by position.
fn by_identity(items: &[Value]) -> BTreeMap<String, &Value> {
    for field in ["code", "id", "kind", "name"] {
        let names: Vec<Option<&str>> = items
            .iter()
            .map(|i| i.get(field).and_then(Value::as_str))
            .collect();
        let unique: BTreeSet<&str> = names.iter().flatten().copied().collect();
        if names.iter().all(Option::is_some) && unique.len() == items.len() {
            return names
                .into_iter()
                .flatten()
                .map(str::to_string)
                .zip(items)
                .collect();
        }
    }
    items
        .iter()
        .enumerate()
        .map(|(i, item)| (format!("{}", i + 1), item))
        .collect()
}

/// A value as a rulebook writes it.
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => format!("\"{s}\""),
        Value::Integer(n) => n.to_string(),
        Value::Float(x) => x.to_string(),
        Value::Boolean(b) => b.to_string(),
        Value::Datetime(d) => d.to_string(),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(shown).collect();
            format!("[{}]", items.join(", "))
        }
        Value::Table(table) => {
            let pairs: Vec<String> = table
                .iter()
                .map(|(k, v)| format!("{k} = {}", shown(v)))
                .collect();
            format!("{{ {} }}", pairs.join(", "))
        }
    }
}

fn article_changes(before: &Rulebook, after: &Rulebook) -> Vec<ArticleChange> {
    let old: BTreeMap<&str, &str> = before.text.articles().collect();
    let new: BTreeMap<&str, &str> = after.text.articles().collect();
    let keys: BTreeSet<&str> = old.keys().chain(new.keys()).copied().collect();
    keys.into_iter()
        .filter_map(|article| {
            let (b, a) = (old.get(article).copied(), new.get(article).copied());
            if b == a {
                return None;
            }
            let lines = |text: Option<&str>| -> Vec<String> {
                text.map(|t| t.lines().map(str::to_string).collect())
                    .unwrap_or_default()
            };
            let (b, a) = (lines(b), lines(a));
            Some(ArticleChange {
                article: article.to_string(),
                removed: b.iter().filter(|l| !a.contains(l)).cloned().collect(),
                added: a.iter().filter(|l| !b.contains(l)).cloned().collect(),
            })
        })
        .collect()
}
