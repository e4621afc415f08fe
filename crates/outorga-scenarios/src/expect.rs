//! `expect` is a subset of the result (shared/spec/scenarios.md, "Expectations").

use crate::scalar::{Dec, is_null};
use marked_yaml::Node;
use marked_yaml::types::MarkedScalarNode;
use serde_json::Value;

/// One difference between what a case expects and what the engine answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Line of the expectation in the scenario file.
    pub line: usize,
    pub path: String,
    pub message: String,
}

pub fn line_of(node: &Node) -> usize {
    node.span().start().map_or(0, |m| m.line())
}

/// Compares `expect` (a mapping) with `actual`; `known` are the keys `expect`
/// may use for this query. An unknown key is a mistake in the case, reported
/// as an `Err` with its line.
pub fn compare(expect: &Node, actual: &Value, known: &[&str]) -> Result<Vec<Mismatch>, String> {
    let Some(mapping) = expect.as_mapping() else {
        return Err(format!(
            "line {}: `expect` must be a mapping of result fields",
            line_of(expect)
        ));
    };
    let mut out = Vec::new();
    for (key, expected) in mapping.iter() {
        let key_text = key.as_str();
        if !known.contains(&key_text) {
            return Err(format!(
                "line {}: `expect.{key_text}` is not a field of this query's result (fields: {})",
                line_of_scalar(key),
                known.join(", ")
            ));
        }
        match key_text {
            "sanctions" | "triggers" | "effects" => {
                match_entries(expected, actual, key_text, &mut out)?
            }
            "absent" => absent(expected, actual, &mut out)?,
            "citations" | "refusal_citations" => {
                match_citations(expected, actual.get(key_text), key_text, &mut out)?
            }
            "unmet_citations" => {
                let unmet: Vec<Value> = actual
                    .get("unmet")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|f| f.get("citations").and_then(Value::as_array))
                    .flatten()
                    .cloned()
                    .collect();
                match_citations(
                    expected,
                    Some(&Value::Array(unmet)),
                    "unmet_citations",
                    &mut out,
                )?;
            }
            _ => match actual.get(key_text) {
                Some(value) => {
                    compare_value(expected, value, key_text, shape_of(key_text), &mut out)?
                }
                None if is_null_node(expected) => {}
                None => out.push(Mismatch {
                    line: line_of(expected),
                    path: key_text.to_string(),
                    message: format!(
                        "expected {}, but the result has no `{key_text}`",
                        show(expected)
                    ),
                }),
            },
        }
    }
    Ok(out)
}

fn line_of_scalar(node: &MarkedScalarNode) -> usize {
    node.span().start().map_or(0, |m| m.line())
}

/// Renders an expected node compactly, as written.
pub fn show(node: &Node) -> String {
    match node {
        Node::Scalar(s) => s.as_str().to_string(),
        Node::Sequence(seq) => format!("[{}]", seq.iter().map(show).collect::<Vec<_>>().join(", ")),
        Node::Mapping(map) => format!(
            "{{ {} }}",
            map.iter()
                .map(|(k, v)| format!("{}: {}", k.as_str(), show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// What keys an expected mapping may use.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// A record with these fields: another key is a typo (an error); a field
    /// expected `null` must be absent or null.
    Fields(&'static [&'static str]),
    /// Keys are data (people, windows, quotas): each must be in the result.
    Keys,
    Any,
}

const SANCTION_FIELDS: &[&str] = &[
    "kind",
    "target",
    "payer",
    "amount",
    "brl",
    "days",
    "min_days",
    "max_days",
    "years",
    "months",
    "min_hours",
    "business_days",
    "document",
    "places",
    "citations",
    // `process` effects: in force from, and the last day.
    "from",
    "until",
];
const AMOUNT_FIELDS: &[&str] = &["unit", "quantity"];
const FINDING_FIELDS: &[&str] = &["requirement", "description", "citations"];
const PARCEL_FIELDS: &[&str] = &["due", "quantity"];

/// The keys of `open`: the deadline kinds, and the limits of a permit's
/// life that are not deadlines of the law (a reserve, a penalty suspension).
static OPEN_FIELDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    outorga_core::model::DeadlineKind::NAMES
        .iter()
        .chain(outorga_core::engine::permit_life::LIFE_LIMITS.iter())
        .copied()
        .collect()
});

/// The shape of what a top-level result field holds (or of its elements).
fn shape_of(field: &str) -> Shape {
    match field {
        "sanctions" | "triggers" | "effects" => Shape::Fields(SANCTION_FIELDS),
        "open" => Shape::Fields(&OPEN_FIELDS[..]),
        "unmet" | "unknown" => Shape::Fields(FINDING_FIELDS),
        "installments" => Shape::Fields(PARCEL_FIELDS),
        "points" | "reserved" | "inspections" => Shape::Keys,
        _ => Shape::Any,
    }
}

fn is_null_node(node: &Node) -> bool {
    matches!(node, Node::Scalar(s) if is_null(s.as_str()))
}

/// Whether an expected node matches an actual value; mismatches are collected.
fn compare_value(
    expected: &Node,
    actual: &Value,
    path: &str,
    shape: Shape,
    out: &mut Vec<Mismatch>,
) -> Result<(), String> {
    match expected {
        Node::Mapping(map) => {
            let Some(object) = actual.as_object() else {
                out.push(mismatch(
                    expected,
                    path,
                    format!("expected a mapping, got {actual}"),
                ));
                return Ok(());
            };
            for (key_node, value) in map.iter() {
                let key = key_node.as_str();
                let sub = format!("{path}.{key}");
                if let Shape::Fields(fields) = shape
                    && !fields.contains(&key)
                {
                    return Err(format!(
                        "line {}: `{}` is not a field here (fields: {})",
                        line_of_scalar(key_node),
                        sub.trim_start_matches('.'),
                        fields.join(", ")
                    ));
                }
                if key == "citations" {
                    match_citations(value, object.get(key), &sub, out)?;
                    continue;
                }
                let child = match (shape, key) {
                    (Shape::Fields(SANCTION_FIELDS), "amount") => Shape::Fields(AMOUNT_FIELDS),
                    _ => Shape::Any,
                };
                let absent_ok = !matches!(shape, Shape::Keys) && is_null_node(value);
                match object.get(key) {
                    Some(actual) => compare_value(value, actual, &sub, child, out)?,
                    None if absent_ok => {}
                    None => out.push(mismatch(
                        value,
                        &sub,
                        format!("expected {}, but there is no `{key}`", show(value)),
                    )),
                }
            }
        }
        Node::Sequence(items) => {
            let Some(array) = actual.as_array() else {
                out.push(mismatch(
                    expected,
                    path,
                    format!("expected a list, got {actual}"),
                ));
                return Ok(());
            };
            if items.len() != array.len() {
                out.push(mismatch(
                    expected,
                    path,
                    format!(
                        "expected {} element(s) {}, got {}: {}",
                        items.len(),
                        show(expected),
                        array.len(),
                        Value::Array(array.clone())
                    ),
                ));
                return Ok(());
            }
            for (i, (item, value)) in items.iter().zip(array).enumerate() {
                compare_value(item, value, &format!("{path}[{i}]"), shape, out)?;
            }
        }
        Node::Scalar(scalar) => {
            if !scalar_equals(scalar.as_str(), actual) {
                out.push(mismatch(
                    expected,
                    path,
                    format!("expected {}, got {}", scalar.as_str(), plain(actual)),
                ));
            }
        }
    }
    Ok(())
}

fn mismatch(node: &Node, path: &str, message: String) -> Mismatch {
    Mismatch {
        line: line_of(node),
        path: path.to_string(),
        message,
    }
}

fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Decimals compare exactly (`"3"` equals `"3.00"`), booleans as booleans, the
/// rest as text.
fn scalar_equals(expected: &str, actual: &Value) -> bool {
    let expected = expected.trim();
    match actual {
        Value::Null => is_null(expected),
        Value::Bool(b) => match expected {
            "true" | "True" | "TRUE" => *b,
            "false" | "False" | "FALSE" => !*b,
            _ => false,
        },
        Value::Number(n) => decimals_equal(expected, &n.to_string()),
        Value::String(s) => s == expected || decimals_equal(expected, s),
        Value::Array(_) | Value::Object(_) => false,
    }
}

fn decimals_equal(a: &str, b: &str) -> bool {
    match (a.parse::<Dec>(), b.parse::<Dec>()) {
        (Ok(a), Ok(b)) => a.0 == b.0,
        _ => false,
    }
}

/// Whether an expected citation matches an actual one: equal, or a prefix that
/// ends where the actual continues with a comma, space or parenthesis; white
/// space collapsed, case ignored.
pub fn citation_matches(expected: &str, actual: &str) -> bool {
    let normalize = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let (expected, actual) = (normalize(expected), normalize(actual));
    if expected.is_empty() {
        return false;
    }
    actual == expected
        || actual
            .strip_prefix(&expected)
            .is_some_and(|rest| rest.starts_with([',', ' ', '(', ')']))
}

fn match_citations(
    expected: &Node,
    actual: Option<&Value>,
    path: &str,
    out: &mut Vec<Mismatch>,
) -> Result<(), String> {
    let Some(items) = expected.as_sequence() else {
        return Err(format!(
            "line {}: `{path}` must be a list of citations",
            line_of(expected)
        ));
    };
    let actual: Vec<&str> = actual
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for item in items.iter() {
        let Some(citation) = item.as_scalar() else {
            return Err(format!("line {}: a citation must be text", line_of(item)));
        };
        if !actual
            .iter()
            .any(|a| citation_matches(citation.as_str(), a))
        {
            out.push(mismatch(
                item,
                path,
                format!(
                    "no citation matches \"{}\"; cited: [{}]",
                    citation.as_str(),
                    actual.join("; ")
                ),
            ));
        }
    }
    Ok(())
}

/// `sanctions` / `triggers`: each expected entry matches some actual entry of
/// the same kind on every field it gives.
fn match_entries(
    expected: &Node,
    actual: &Value,
    key: &str,
    out: &mut Vec<Mismatch>,
) -> Result<(), String> {
    let Some(items) = expected.as_sequence() else {
        return Err(format!(
            "line {}: `{key}` must be a list",
            line_of(expected)
        ));
    };
    let entries: Vec<&Value> = actual
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    for (i, item) in items.iter().enumerate() {
        let Some(map) = item.as_mapping() else {
            return Err(format!(
                "line {}: each of `{key}` must be a mapping",
                line_of(item)
            ));
        };
        let Some(kind) = map.get_scalar("kind") else {
            return Err(format!(
                "line {}: each of `{key}` needs a `kind`",
                line_of(item)
            ));
        };
        if outorga_core::model::SanctionKind::parse(kind.as_str()).is_none() {
            return Err(format!(
                "line {}: `{}` is not a sanction kind",
                line_of(item),
                kind.as_str()
            ));
        }
        let same_kind: Vec<&&Value> = entries
            .iter()
            .filter(|e| e.get("kind").and_then(Value::as_str) == Some(kind.as_str()))
            .collect();
        let mut matched = false;
        for candidate in &same_kind {
            let mut probe = Vec::new();
            compare_value(
                item,
                candidate,
                "",
                Shape::Fields(SANCTION_FIELDS),
                &mut probe,
            )?;
            if probe.is_empty() {
                matched = true;
                break;
            }
        }
        if !matched {
            let found = if same_kind.is_empty() {
                format!("there is no {} at all", kind.as_str())
            } else {
                format!(
                    "found: {}",
                    same_kind
                        .iter()
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            out.push(mismatch(
                item,
                &format!("{key}[{i}]"),
                format!(
                    "no {} matches {}; {found}",
                    key.trim_end_matches('s'),
                    show(item)
                ),
            ));
        }
    }
    Ok(())
}

/// `absent`: no sanction, trigger or effect of these kinds.
fn absent(expected: &Node, actual: &Value, out: &mut Vec<Mismatch>) -> Result<(), String> {
    let Some(items) = expected.as_sequence() else {
        return Err(format!(
            "line {}: `absent` must be a list of kinds",
            line_of(expected)
        ));
    };
    for item in items.iter() {
        let kind = item.as_scalar().map(|s| s.as_str()).unwrap_or_default();
        if outorga_core::model::SanctionKind::parse(kind).is_none() {
            return Err(format!(
                "line {}: `{kind}` is not a sanction kind",
                line_of(item)
            ));
        }
        for key in ["sanctions", "triggers", "effects"] {
            let present: Vec<&Value> = actual
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|e| e.get("kind").and_then(Value::as_str) == Some(kind))
                .collect();
            if !present.is_empty() {
                out.push(mismatch(
                    item,
                    "absent",
                    format!(
                        "expected no {kind}, found: {}",
                        present
                            .iter()
                            .map(|v| v.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::citation_matches;

    #[test]
    fn citation_prefixes_end_at_a_boundary() {
        assert!(citation_matches("Art. 52, V", "Art. 52, V, c"));
        assert!(!citation_matches("Art. 52, V", "Art. 52, VI"));
        assert!(citation_matches("art.  52,   iii", "Art. 52, III"));
        assert!(citation_matches(
            "Art. 55",
            "Art. 55 (transporte clandestino)"
        ));
        assert!(!citation_matches("Art. 5", "Art. 55"));
        assert!(!citation_matches("", "Art. 55"));
    }
}
