//! A rulebook with an uncited rule, an unknown field, a duplicate code or an
//! inconsistent value does not load; each error names file, line and reason.

use std::fs;
use std::path::Path;

const JURISDICTION: &str = r#"
[jurisdiction]
id = "testville"
name = "Testville"
state = "ES"
time_zone = "America/Sao_Paulo"
"#;

/// A small valid rulebook; each test breaks one thing in it.
const VALID: &str = r#"[act]
name = "Lei de teste"
number = "1/2024"
date = 2024-01-01
in_force = 2024-01-01
services = ["taxi"]

[parameters.window]
doc = "repeat window"
citation = "Art. 6º"
decree_default = { by = "decreto", basis = "Art. 9º" }
value = 12

[units.VRTM]
name = "Valor de referência"
citation = "Art. 1º"

[[groups]]
id = "1"
name = "Grupo 1"
points = { value = 2, citation = "Art. 2º" }
fine = { unit = "VRTM", quantity = 1, citation = "Art. 3º" }

[[infractions]]
code = "A-1"
group = "1"
citation = "Art. 4º, I"
description = "Primeira infração"

[liability]
fine_payer = "holder"
citation = "Art. 5º"

[repeat]
by = "group"
window = { months = { param = "window" } }
citation = "Art. 6º"

[[sanction_rules]]
groups = ["1"]
citation = "Art. 7º"
sanctions = [{ kind = "fine" }]
"#;

fn load(service: &str) -> Result<(), Vec<(usize, String)>> {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("testville");
    fs::create_dir(&folder).expect("folder");
    fs::write(folder.join("jurisdiction.toml"), JURISDICTION).expect("write");
    fs::write(folder.join("taxi.toml"), service).expect("write");
    match outorga_rulebook::load(dir.path()) {
        Ok(library) => {
            assert!(library.get("testville/taxi").is_some());
            Ok(())
        }
        Err(errors) => Err(errors
            .0
            .iter()
            .map(|e| {
                assert!(
                    e.file.ends_with(Path::new("testville/taxi.toml")),
                    "error names its file: {e}"
                );
                (e.line, e.message.clone())
            })
            .collect()),
    }
}

/// The 1-based line of the first occurrence of `text`.
fn line_of(source: &str, text: &str) -> usize {
    let offset = source.find(text).expect("anchor text exists");
    source[..offset].matches('\n').count() + 1
}

/// `VALID` with `from` replaced by `to` fails with an error whose message
/// contains `reason`, on the line where `anchor` stands in the broken file.
fn check(from: &str, to: &str, anchor: &str, reason: &str) {
    assert!(VALID.contains(from), "test edits text that exists: {from}");
    let broken = VALID.replacen(from, to, 1);
    let line = line_of(&broken, anchor);
    let errors = load(&broken).expect_err("the broken rulebook must not load");
    assert!(
        errors.iter().any(|(l, m)| *l == line && m.contains(reason)),
        "expected line {line} with `{reason}`, got {errors:?}"
    );
}

#[test]
fn the_valid_rulebook_loads() {
    assert_eq!(load(VALID), Ok(()));
}

#[test]
fn uncited_rule() {
    check(
        "citation = \"Art. 7º\"\nsanctions",
        "sanctions",
        "[[sanction_rules]]",
        "missing field `citation`",
    );
}

#[test]
fn malformed_citation() {
    check(
        "citation = \"Art. 4º, I\"",
        "citation = \"art 4\"",
        "\"art 4\"",
        "must start with the article",
    );
    check(
        "citation = \"Art. 4º, I\"",
        "citation = \"Art. 4, I\"",
        "\"Art. 4, I\"",
        "Art. 4º",
    );
}

#[test]
fn unknown_field() {
    check(
        "description = \"Primeira infração\"",
        "descripton = \"x\"",
        "descripton",
        "unknown field `descripton`",
    );
}

#[test]
fn duplicate_code() {
    let twice = format!(
        "{VALID}\n[[infractions]]\ncode = \"A-1\"\ngroup = \"1\"\ncitation = \"Art. 4º, II\"\ndescription = \"de novo\"\n"
    );
    let line = line_of(
        &twice,
        "code = \"A-1\"\ngroup = \"1\"\ncitation = \"Art. 4º, II\"",
    );
    let errors = load(&twice).expect_err("duplicate code");
    assert!(
        errors
            .iter()
            .any(|(l, m)| *l == line && m.contains("`A-1` is declared twice")),
        "{errors:?}"
    );
}

#[test]
fn inconsistent_values() {
    check(
        "group = \"1\"",
        "group = \"9\"",
        "group = \"9\"",
        "group `9` is not declared",
    );
    check(
        "quantity = 1,",
        "quantity = 1.5,",
        "quantity = 1.5",
        "write decimals as strings",
    );
    check(
        "{ param = \"window\" }",
        "{ param = \"windw\" }",
        "[repeat]",
        "parameter `windw` is not declared",
    );
    check(
        "unit = \"VRTM\"",
        "unit = \"UPF\"",
        "unit = \"UPF\"",
        "unit `UPF` is not declared",
    );
    check(
        "kind = \"fine\"",
        "kind = \"fined\"",
        "kind = \"fined\"",
        "unknown sanction kind `fined`",
    );
    check(
        "services = [\"taxi\"]",
        "services = [\"uber\"]",
        "services",
        "unknown service `uber`",
    );
    check(
        "value = 12",
        "value = -12",
        "[parameters.window]",
        "negative",
    );
}

#[test]
fn a_fine_needs_a_group_fine_or_an_amount() {
    check(
        "fine = { unit = \"VRTM\", quantity = 1, citation = \"Art. 3º\" }\n",
        "",
        "{ kind = \"fine\" }",
        "has no group fine",
    );
}

#[test]
fn syntax_error_points_at_the_line() {
    check("[liability]", "[liability", "[liability", "unclosed table");
}

/// The procedure's vocabulary is closed: a misspelt deadline kind, an appeal
/// bounded by a limit the rulebook lacks, a measure that is no measure, an
/// option recorded as an infraction the catalog lacks, a procedure without
/// the right to a defense — none loads.
#[test]
fn procedure_errors() {
    const PROCEDURE: &str = r#"
[[deadlines]]
kind = "defense"
days = 15
counting = "calendar_days"
citation = "Art. 8º"

[procedure]
citation = "Art. 8º"
judge = { by = "Secretaria", citation = "Art. 9º" }
appeals = [{ to = "Prefeito", limit = "appeal", citation = "Art. 10" }]
at_once = [{ kind = "vehicle_seizure", citation = "Art. 11" }]

[[procedure.choices]]
instead_of = ["fine"]
citation = "Art. 12"
options = [{ citation = "Art. 12, a", record_as = "A-1", sanctions = [{ kind = "warning" }] }]
"#;
    let with_appeal = PROCEDURE.replacen(
        "[procedure]",
        "[[deadlines]]\nkind = \"appeal\"\ndays = 15\ncounting = \"calendar_days\"\ncitation = \"Art. 10\"\n\n[procedure]",
        1,
    );
    let valid = format!("{VALID}{with_appeal}");
    assert_eq!(load(&valid), Ok(()));
    let broken = |from: &str, to: &str, anchor: &str, reason: &str| {
        assert!(valid.contains(from), "test edits text that exists: {from}");
        let text = valid.replacen(from, to, 1);
        let line = line_of(&text, anchor);
        let errors = load(&text).expect_err("the broken rulebook must not load");
        assert!(
            errors.iter().any(|(l, m)| *l == line && m.contains(reason)),
            "expected line {line} with `{reason}`, got {errors:?}"
        );
    };
    broken(
        "kind = \"appeal\"",
        "kind = \"apeal\"",
        "\"apeal\"",
        "unknown deadline kind `apeal`; known: notification, defense",
    );
    broken(
        "limit = \"appeal\"",
        "limit = \"second_appeal\"",
        "\"second_appeal\"",
        "appeal limit `second_appeal` is not among the rulebook's deadlines",
    );
    broken(
        "at_once = [{ kind = \"vehicle_seizure\"",
        "at_once = [{ kind = \"fine\"",
        "at_once",
        "a fine is not applied on the spot",
    );
    broken(
        "record_as = \"A-1\"",
        "record_as = \"A-9\"",
        "record_as",
        "infraction `A-9` is not in the catalog",
    );
    broken(
        "kind = \"defense\"",
        "kind = \"judgement\"",
        "[procedure]",
        "the procedure needs a `defense` deadline",
    );
}

/// A jurisdiction reckons "today" in its time zone: a name that is not an
/// IANA zone does not load, and the error points at it.
#[test]
fn unknown_time_zone() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("testville");
    fs::create_dir(&folder).expect("folder");
    let broken = JURISDICTION.replace("America/Sao_Paulo", "Brasil/Brasilia");
    fs::write(folder.join("jurisdiction.toml"), &broken).expect("write");
    fs::write(folder.join("taxi.toml"), VALID).expect("write");
    let errors = outorga_rulebook::load(dir.path())
        .expect_err("must not load")
        .0;
    let line = line_of(&broken, "Brasil/Brasilia");
    assert!(
        errors.iter().any(
            |e| e.file.ends_with(Path::new("testville/jurisdiction.toml"))
                && e.line == line
                && e.message
                    .contains("time zone `Brasil/Brasilia` is not an IANA name")
        ),
        "{errors:?}"
    );
}

/// A public call judged by the edital's criteria offers every reserved
/// share of the cap, and only those, each with what an applicant proves,
/// and declares the time to appeal; it is judged by criteria or by a bid,
/// not both; its procedure is one the laws know.
#[test]
fn public_call_errors() {
    const CALL: &str = r#"
[[deadlines]]
kind = "call_appeal"
days = 3
counting = "business_days"
decree_default = { by = "edital", basis = "Art. 10" }
citation = "Art. 8º"

[[caps]]
service = "taxi"
inhabitants_per_permit = 800
citation = "Art. 9º"
reserved = [{ key = "disabled_drivers", percent = 10, release = "Art. 9º, § 2º", citation = "Art. 9º, § 1º" }]

[public_call]
procedure = "chamamento_publico"
citation = "Art. 10"

[public_call.criteria]
citation = "Art. 10, § 1º"
proof = "Art. 11"
tie_break = { citation = "Art. 10, § 1º", decree_default = { by = "edital", basis = "Art. 10, § 1º" } }

[[public_call.criteria.shares]]
share = "disabled_drivers"
conditions = [{ key = "adapted_vehicle", description = "Veículo adaptado", citation = "Art. 9º, § 3º" }]
"#;
    let valid = format!("{VALID}{CALL}");
    assert_eq!(load(&valid), Ok(()));
    let broken = |from: &str, to: &str, anchor: &str, reason: &str| {
        assert!(valid.contains(from), "test edits text that exists: {from}");
        let text = valid.replacen(from, to, 1);
        let line = line_of(&text, anchor);
        let errors = load(&text).expect_err("the broken rulebook must not load");
        assert!(
            errors.iter().any(|(l, m)| *l == line && m.contains(reason)),
            "expected line {line} with `{reason}`, got {errors:?}"
        );
    };
    broken(
        "share = \"disabled_drivers\"",
        "share = \"accessible_vehicles\"",
        "\"accessible_vehicles\"",
        "`accessible_vehicles` is not a reserved share of the [[caps]]; known: disabled_drivers",
    );
    broken(
        "share = \"disabled_drivers\"",
        "share = \"accessible_vehicles\"",
        "[public_call]",
        "the reserved share `disabled_drivers` of the [[caps]] is not among the call's `shares`",
    );
    broken(
        "kind = \"call_appeal\"",
        "kind = \"appeal\"",
        "[public_call]",
        "declare the time to appeal against the provisional result as a `call_appeal` deadline",
    );
    broken(
        "conditions = [{ key = \"adapted_vehicle\", description = \"Veículo adaptado\", citation = \"Art. 9º, § 3º\" }]",
        "conditions = []",
        "[[public_call.criteria.shares]]",
        "list the conditions an applicant proves to claim it",
    );
    broken(
        "procedure = \"chamamento_publico\"",
        "procedure = \"pregao\"",
        "\"pregao\"",
        "unknown procedure `pregao`; known: chamamento_publico, licitacao",
    );
    broken(
        "citation = \"Art. 10\"\n",
        "citation = \"Art. 10\"\nbid = \"Art. 12\"\n",
        "[public_call]",
        "needs exactly one of `criteria`",
    );
}

/// What the law leaves open names who fills it and the article that
/// leaves it to them: `true` alone says neither, an unknown filler or an
/// uncited basis is refused on its line.
#[test]
fn an_open_term_names_who_fills_it_and_its_basis() {
    let open = "decree_default = { by = \"decreto\", basis = \"Art. 9º\" }";
    check(
        open,
        "decree_default = true",
        "decree_default",
        "say who fills this open term and which article leaves it open",
    );
    check(
        open,
        "decree_default = { by = \"lei\", basis = \"Art. 9º\" }",
        "decree_default",
        "who fills an open term: `lei` is not one of decreto, portaria, edital",
    );
    check(
        open,
        "decree_default = { by = \"portaria\", basis = \"artigo nono\" }",
        "decree_default",
        "must start with the article",
    );
    check(
        open,
        "decree_default = { by = \"portaria\" }",
        "decree_default",
        "basis",
    );
}
