//! The `outorga` binary: exit statuses, the closing line, and clear errors with
//! their location for bad scenario files and bad rulebooks.

use std::path::PathBuf;
use std::process::Command;

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn outorga(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_outorga"))
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: output.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs one scenario file with `text` and returns what the binary did.
fn scenario(text: &str) -> Run {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("case.yaml");
    std::fs::write(&file, text).expect("write");
    let rulebooks = rulebooks();
    outorga(&[
        "scenarios",
        "run",
        "--rulebooks",
        rulebooks.to_str().expect("utf-8 path"),
        file.to_str().expect("utf-8 path"),
    ])
}

const GOOD: &str = r#"
- name: first group-4 infraction
  rulebook: santa-maria-de-jetiba/taxi
  today: 2025-06-10
  facts:
    people: [{ id: rita }]
    permits: [{ id: P7, holder: rita, service: taxi, granted: 2024-09-02, status: active }]
  query: { penalty: { infraction: "51-IV-b", by: rita, permit: P7, at: 2025-06-10T18:30 } }
  expect:
    sanctions: [{ kind: fine, amount: { unit: VRTM, quantity: "4" }, payer: rita }]
    points: { rita: "5" }
"#;

/// `GOOD` with one edit fails with exit status 2 and a message naming the line
/// and containing `reason`.
fn check_invalid(from: &str, to: &str, line: usize, reason: &str) {
    assert!(GOOD.contains(from), "edit text exists: {from}");
    let run = scenario(&GOOD.replacen(from, to, 1));
    assert_eq!(run.code, 2, "bad input exits 2\n{}", run.stdout);
    assert!(run.stdout.contains("FAIL"), "{}", run.stdout);
    assert!(
        run.stdout.contains(reason),
        "expected `{reason}` in:\n{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!("line {line}")) || run.stdout.contains(&format!(":{line} ")),
        "expected line {line} in:\n{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("0 passed, 1 failed\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_passing_case_exits_zero() {
    let run = scenario(GOOD);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "1 passed, 0 failed\n");
}

#[test]
fn a_wrong_expectation_exits_one_with_the_difference() {
    let run = scenario(&GOOD.replacen("rita: \"5\"", "rita: \"6\"", 1));
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("line 11: points.rita: expected 6, got 5"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("0 passed, 1 failed\n"));
}

#[test]
fn malformed_cases_fail_with_location_and_exit_two() {
    check_invalid("today:", "todya:", 4, "unknown key `todya`");
    check_invalid(
        "\"51-IV-b\"",
        "\"51-IV-z\"",
        2,
        "infraction `51-IV-z` is not in the catalog",
    );
    check_invalid(
        "by: rita, permit",
        "by: rito, permit",
        2,
        "unknown person `rito`",
    );
    check_invalid("holder: rita", "holder: ana", 2, "unknown person `ana`");
    check_invalid(
        "2025-06-10T18:30",
        "2025-06-10 at 18:30",
        8,
        "is not a date-time",
    );
    check_invalid(
        "granted: 2024-09-02",
        "grantd: 2024-09-02",
        7,
        "nknown field `grantd`",
    );
    check_invalid(
        "santa-maria-de-jetiba/taxi",
        "santa-maria/taxi",
        2,
        "unknown rulebook `santa-maria/taxi`",
    );
    check_invalid(
        "points: {",
        "pontos: {",
        11,
        "`expect.pontos` is not a field",
    );
    check_invalid(
        "kind: fine",
        "kind: fined",
        10,
        "`fined` is not a sanction kind",
    );
    check_invalid("penalty:", "penalti:", 8, "unknown variant `penalti`");
}

#[test]
fn broken_yaml_and_duplicate_names_fail() {
    let run = scenario("- name: a\n  rulebook: [unclosed\n");
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("not valid YAML"), "{}", run.stdout);
    assert!(run.stdout.ends_with("0 passed, 1 failed\n"));

    let twice = format!("{GOOD}{GOOD}");
    let run = scenario(&twice);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("same name"), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("1 passed, 1 failed\n"),
        "{}",
        run.stdout
    );
}

#[test]
fn explain_prints_the_result_with_citations() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("case.yaml");
    std::fs::write(&file, GOOD).expect("write");
    let rulebooks = rulebooks();
    let run = outorga(&[
        "scenarios",
        "run",
        "--explain",
        "--rulebooks",
        rulebooks.to_str().expect("utf-8"),
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("PASS"), "{}", run.stdout);
    assert!(run.stdout.contains("Art. 50, IV"), "{}", run.stdout);
    assert!(run.stdout.contains("Art. 49, IV"), "{}", run.stdout);
    // Each article cited, with its words as the law prints them.
    assert!(
        run.stdout.contains("  Art. 50, IV:\n    | Art. 50."),
        "{}",
        run.stdout
    );
}

/// A law in two versions (a test amendment of Canguçu's grave fine):
/// each infraction judged by its own version, and `rulebook diff` says
/// what changed.
#[test]
fn a_law_in_versions_judges_each_day_by_its_own() {
    use outorga_rulebook::fixture::{AMENDED_ON, amended_cangucu};
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = amended_cangucu(&rulebooks(), dir.path()).expect("the test version");
    let cases = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/command/versions");
    let run = outorga(&[
        "scenarios",
        "run",
        "--rulebooks",
        folder.to_str().expect("utf-8"),
        cases.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.ends_with("7 passed, 0 failed\n"),
        "{}",
        run.stdout
    );

    let cangucu = folder.join("cangucu");
    let version = format!("taxi@{AMENDED_ON}.toml");
    let diff = outorga(&[
        "rulebook",
        "diff",
        cangucu.join("taxi.toml").to_str().expect("utf-8"),
        cangucu.join(&version).to_str().expect("utf-8"),
    ]);
    assert_eq!(diff.code, 0, "{}", diff.stderr);
    assert!(
        diff.stdout
            .contains("groups[grave].fine.quantity: 400 → 500  [Anexo I, Art. 12, III]"),
        "{}",
        diff.stdout
    );
    assert!(
        diff.stdout
            .contains("+ III - grupo 3 - GRAVE – R$ 500,00; ou"),
        "{}",
        diff.stdout
    );
    // A version that does not load: its errors, exit 2.
    let broken = outorga(&[
        "rulebook",
        "diff",
        cangucu.join("taxi.toml").to_str().expect("utf-8"),
        cangucu.join("nenhum.toml").to_str().expect("utf-8"),
    ]);
    assert_eq!(broken.code, 2, "{}", broken.stdout);
    assert!(broken.stderr.contains("nenhum.toml"), "{}", broken.stderr);
}

#[test]
fn rulebook_check_summarises_and_rejects_bad_rulebooks() {
    let rulebooks = rulebooks();
    let run = outorga(&["rulebook", "check", rulebooks.to_str().expect("utf-8")]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("santa-maria-de-jetiba/taxi"));
    assert!(run.stdout.contains("infractions"));

    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("x");
    std::fs::create_dir(&folder).expect("dir");
    std::fs::write(
        folder.join("jurisdiction.toml"),
        "[jurisdiction]\nid = \"x\"\nname = \"X\"\nstate = \"ES\"\ntime_zone = \"America/Sao_Paulo\"\n",
    )
    .expect("write");
    std::fs::write(
        folder.join("taxi.toml"),
        "[act]\nname = \"L\"\nnumero = 1\n",
    )
    .expect("write");
    let run = outorga(&["rulebook", "check", dir.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("taxi.toml:3:1: unknown field `numero`"),
        "{}",
        run.stderr
    );
}

#[test]
fn missing_paths_are_errors() {
    let run = scenario("");
    assert_eq!(run.code, 2, "{}", run.stdout);
    let run = outorga(&["scenarios", "run", "/no/such/place.yaml"]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stdout.contains("no such file or folder"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_broken_rulebook_fails_its_cases_and_the_run_still_ends_with_the_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    let rulebooks = dir.path().join("rulebooks");
    let folder = rulebooks.join("santa-maria-de-jetiba");
    std::fs::create_dir_all(&folder).expect("dir");
    let real = self::rulebooks().join("santa-maria-de-jetiba");
    for file in ["jurisdiction.toml", "lei.txt"] {
        std::fs::copy(real.join(file), folder.join(file)).expect("copy");
    }
    let broken = std::fs::read_to_string(real.join("taxi.toml"))
        .expect("read")
        .replacen("citation = \"Art. 41\"", "citation = \"art 41\"", 1);
    std::fs::write(folder.join("taxi.toml"), broken).expect("write");
    let file = dir.path().join("case.yaml");
    std::fs::write(&file, GOOD).expect("write");
    let run = outorga(&[
        "scenarios",
        "run",
        "--rulebooks",
        rulebooks.to_str().expect("utf-8"),
        file.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stdout.contains("taxi.toml:"), "{}", run.stdout);
    assert!(
        run.stdout.contains("must start with the article"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("did not load"), "{}", run.stdout);
    assert!(
        run.stdout.ends_with("0 passed, 2 failed\n"),
        "{}",
        run.stdout
    );
}

/// Runs `text` and checks the exit status and that the output mentions `says`.
fn check_run(text: &str, code: i32, says: &str, last_line: &str) {
    let run = scenario(text);
    assert_eq!(run.code, code, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains(says),
        "expected `{says}` in:\n{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with(&format!("{last_line}\n")),
        "{}",
        run.stdout
    );
}

#[test]
fn numbers_too_large_fail_the_case_without_a_panic() {
    let fine_due = r#"
- name: a fine too large to compute
  rulebook: santa-maria-de-jetiba/taxi
  today: 2025-01-01
  parameters: { units: { VRTM: "7.9e27" } }
  query: { fine_due: { amount: { unit: VRTM, quantity: "79228162514264337593543950335" }, issued: 2025-01-01, paid: 2025-01-02 } }
  expect: { quantity: "1" }
"#;
    check_run(fine_due, 1, "grande demais", "0 passed, 1 failed");
    let cap = r#"
- name: a population too large to divide
  rulebook: santa-maria-de-jetiba/taxi
  today: 2025-01-01
  parameters: { population: "79228162514264337593543950335", inhabitants_per_permit: "0.5" }
  query: { permit_cap: { service: taxi } }
  expect: { max_permits: 1 }
"#;
    check_run(cap, 1, "grande demais", "0 passed, 1 failed");
}

#[test]
fn a_duplicate_key_fails_its_case_only() {
    let text = GOOD.replacen(
        "  today: 2025-06-10\n",
        "  today: 2025-06-10\n  today: 2025-06-11\n",
        1,
    );
    let other = GOOD.replacen("first group-4 infraction", "another case", 1);
    check_run(
        &format!("{text}{other}"),
        2,
        "`today` is written twice",
        "1 passed, 1 failed",
    );
}

#[test]
fn a_case_needs_a_text_name() {
    check_run(
        &GOOD.replacen("name: first group-4 infraction", "name: \"\"", 1),
        2,
        "needs a `name`",
        "0 passed, 1 failed",
    );
    check_run(
        &GOOD.replacen("name: first group-4 infraction", "name: [a, b]", 1),
        2,
        "needs a `name`",
        "0 passed, 1 failed",
    );
}

#[test]
fn typos_in_nested_expectations_are_errors() {
    check_run(
        &GOOD.replacen("payer: rita }", "payer: rita, ammount: null }", 1),
        2,
        "`ammount` is not a field here",
        "0 passed, 1 failed",
    );
    // A person who is not in the result is a difference, even expected `null`.
    check_run(
        &GOOD.replacen("rita: \"5\"", "rito: null", 1),
        1,
        "no `rito`",
        "0 passed, 1 failed",
    );
    // A field expected `null` must be absent: `brl` is, without a VRTM value.
    check_run(
        &GOOD.replacen("payer: rita }", "payer: rita, brl: null }", 1),
        0,
        "",
        "1 passed, 0 failed",
    );
}

#[test]
fn parameters_are_checked() {
    let with = |parameters: &str| {
        GOOD.replacen(
            "  facts:",
            &format!("  parameters: {parameters}\n  facts:"),
            1,
        )
    };
    check_run(
        &with("{ population: -8000 }"),
        2,
        "parameters.population: -8000 is negative",
        "0 passed, 1 failed",
    );
    check_run(
        &with("{ units: { VRTM: \"-4.20\" } }"),
        2,
        "is negative",
        "0 passed, 1 failed",
    );
    check_run(
        &with("{ units: { BRL: \"2\" } }"),
        2,
        "BRL is the currency",
        "0 passed, 1 failed",
    );
    check_run(
        &with("{ unit: { VRTM: \"4.20\" } }"),
        2,
        "`unit` is not a parameter",
        "0 passed, 1 failed",
    );
    check_run(
        &with("{ repeat_window_months: [12] }"),
        2,
        "parameters.repeat_window_months: expected a number",
        "0 passed, 1 failed",
    );
}

#[test]
fn a_vehicle_from_the_future_is_bad_input() {
    let text = r#"
- name: future vehicle
  rulebook: santa-maria-de-jetiba/taxi
  today: 2025-01-01
  facts:
    vehicles: [{ id: V1, manufactured: 2031 }]
  query: { vehicle: { vehicle: V1, action: inclusion } }
  expect: { admissible: true }
"#;
    check_run(
        text,
        2,
        "manufactured in 2031, after `today`",
        "0 passed, 1 failed",
    );
}

#[test]
fn an_inspection_kind_the_rulebook_does_not_name_is_bad_input() {
    let text = r#"
- name: misspelt inspection
  rulebook: cangucu/taxi
  today: 2025-06-10
  facts:
    vehicles: [{ id: V1, manufactured: 2020, inspections: { nbr14040: 2024-01-01 } }]
  query: { vehicle: { vehicle: V1, action: deadlines } }
  expect: { replace_by: 2032-12-31 }
"#;
    check_run(
        text,
        2,
        "inspection kind `nbr14040` is not in rulebook `cangucu/taxi` (its kinds: nbr_14040, adaptation)",
        "0 passed, 1 failed",
    );
}

#[test]
fn a_downtime_excuse_the_law_does_not_list_fails_with_the_known_ones() {
    let text = r#"
- name: strike as an excuse
  rulebook: cangucu/taxi
  today: 2025-12-01
  query: { downtime: { from: 2025-03-01, to: 2025-04-14, excused: [{ reason: strike, from: 2025-03-01, to: 2025-03-10 }] } }
  expect: { days: 35 }
"#;
    check_run(
        text,
        1,
        "`strike` não é justificativa que a lei admita (justificativas: dealer_delay, parts_after_accident, health, vacation)",
        "0 passed, 1 failed",
    );
    let backwards = r#"
- name: back before it left
  rulebook: cangucu/taxi
  today: 2025-12-01
  query: { downtime: { from: 2025-03-01, to: 2025-02-14 } }
  expect: { days: 0 }
"#;
    check_run(
        backwards,
        1,
        "o veículo não pode voltar (2025-02-14) antes de parar (2025-03-01)",
        "0 passed, 1 failed",
    );
}

#[test]
fn a_lottery_with_bad_candidates_or_stands_is_refused_with_the_reason() {
    let case = |stands: &str, query: &str| {
        format!(
            r#"
- name: lottery
  rulebook: cangucu/taxi
  today: 2025-07-01
  facts:
    people: [{{ id: ana }}, {{ id: beto }}, {{ id: caio }}]
    stands: {stands}
    permits:
      - {{ id: P1, holder: ana, service: taxi, stand: praca }}
      - {{ id: P2, holder: beto, service: taxi }}
  query: {query}
  expect: {{ winners: [] }}
"#
        )
    };
    let stands = "[{ id: praca, capacity: 3 }, { id: festa, free: true }]";
    check_run(
        &case(
            stands,
            "{ stand_lottery: { stand: praca, seed: s, candidates: [caio] } }",
        ),
        2,
        "`caio` holds no permit; only delegatários enter the lottery",
        "0 passed, 1 failed",
    );
    check_run(
        &case(
            stands,
            "{ stand_lottery: { stand: praca, seed: s, candidates: [ana] } }",
        ),
        2,
        "`ana` is already at stand `praca`",
        "0 passed, 1 failed",
    );
    check_run(
        &case(
            stands,
            "{ stand_lottery: { stand: festa, seed: s, candidates: [beto] } }",
        ),
        1,
        "o ponto `festa` é ponto livre (Art. 16): não tem vagas a sortear",
        "0 passed, 1 failed",
    );
    check_run(
        &case(
            stands,
            "{ stand_lottery: { stand: praca, seed: \" \", candidates: [beto] } }",
        ),
        1,
        "o sorteio precisa da semente anunciada antes dele",
        "0 passed, 1 failed",
    );
    check_run(
        &case(
            stands,
            "{ stand_lottery: { stand: praca, seed: s, candidates: [beto, beto] } }",
        ),
        1,
        "o candidato `beto` está na lista duas vezes",
        "0 passed, 1 failed",
    );
    check_run(
        &case(
            "[{ id: praca }]",
            "{ stand_lottery: { stand: praca, seed: s, candidates: [beto] } }",
        ),
        2,
        "facts.stands `praca`: give its `capacity` (the places the decree set), or `free: true`",
        "0 passed, 1 failed",
    );
}

#[test]
fn a_limit_in_hours_takes_a_moment_and_a_limit_in_days_a_date() {
    let case = |query: &str| {
        format!(
            "- name: limit\n  rulebook: cangucu/taxi\n  today: 2025-06-10\n  query: {{ deadline: {query} }}\n  expect: {{ due: 2025-06-11 }}\n"
        )
    };
    check_run(
        &case("{ kind: verification_inspection_notice, from: 2025-06-10 }"),
        1,
        "o prazo `verification_inspection_notice` conta horas: informe o momento em que começa (`at`), não uma data",
        "0 passed, 1 failed",
    );
    check_run(
        &case("{ kind: defense, at: 2025-06-10T10:00 }"),
        1,
        "o prazo `defense` conta dias: informe a data em que começa (`from`), não um momento",
        "0 passed, 1 failed",
    );
    check_run(
        &case("{ kind: defense }"),
        2,
        "query.deadline: give `from` (a date) or `at` (a date and time), one of them",
        "0 passed, 1 failed",
    );
}

#[test]
fn an_act_the_rulebook_does_not_rule_on_is_not_guessed() {
    check_run(
        "- name: act\n  rulebook: cangucu/taxi\n  today: 2025-06-10\n  query: { permit_act: { act: inheritance } }\n  expect: { allowed: true }\n",
        1,
        "`inheritance` não é ato de que o regulamento trate (trata de: transfer, rental, lease, subdelegation, sale, renewal)",
        "0 passed, 1 failed",
    );
}

#[test]
fn counting_incidences_without_a_repeat_rule_is_a_rulebook_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("cangucu");
    std::fs::create_dir(&folder).expect("dir");
    for file in ["jurisdiction.toml", "catalog.toml", "taxi.toml", "lei.txt"] {
        std::fs::copy(rulebooks().join("cangucu").join(file), folder.join(file)).expect("copy");
    }
    let taxi = std::fs::read_to_string(folder.join("taxi.toml")).expect("read");
    let without = taxi.replace(
        "[repeat]\nby = \"code\"\nwindow = { months = 12 }\ncitation = \"Anexo I, Art. 12, § 2º\"\n",
        "",
    );
    assert_ne!(
        taxi, without,
        "the Canguçu rulebook has a [repeat] to remove"
    );
    std::fs::write(folder.join("taxi.toml"), without).expect("write");
    let run = outorga(&["rulebook", "check", dir.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr
            .contains("taxi.toml:1:1: sanction rules count incidences"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_bandeira_2_rate_against_the_law_fails_the_case() {
    check_run(
        r#"
- name: contradicting tariff
  rulebook: cangucu/taxi
  today: 2025-01-10
  parameters:
    tariff: { bandeirada: "4.50", km_bandeira_1: "2.75", km_bandeira_2: "5.00", hora_parada: "24.00" }
  query: { fare: { start: 2025-03-16T10:00, km: "12", stopped_minutes: 0 } }
  expect: { total: "64.50" }
"#,
        1,
        "tariff.km_bandeira_2 5.00 contraria o Art. 21, § 1º: a bandeira 1 (2.75) mais 20 % é 3.3",
        "0 passed, 1 failed",
    );
}

#[test]
fn a_registration_on_an_expired_licence_fails_the_case() {
    check_run(
        r#"
- name: expired CNH
  rulebook: cangucu/taxi
  today: 2025-03-10
  facts:
    people: [{ id: ana, license: { categories: [B], paid_activity: true, expires: 2025-01-01 } }]
  query: { registration: { person: ana, role: holder, issued: 2025-03-10 } }
  expect: { valid_until: 2025-01-01 }
"#,
        1,
        "a CNH venceu em 2025-01-01, antes da matrícula em 2025-03-10",
        "0 passed, 1 failed",
    );
}

#[test]
fn a_ground_the_law_does_not_list_fails_with_the_ones_it_does() {
    check_run(
        "- name: ground\n  rulebook: amapa/onibus-intermunicipal\n  today: 2025-06-10\n  query: { grounds: { set: boarding_refusal, found: [late] } }\n  expect: { applies: true }\n",
        1,
        "`late` não é hipótese de `boarding_refusal` (hipóteses: not_identified, drunk, armed, dangerous_goods, animals, oversize_object, disturbs_others, refuses_to_pay, smoking)",
        "0 passed, 1 failed",
    );
}

#[test]
fn a_deadline_in_hours_with_days_is_a_rulebook_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("cangucu");
    std::fs::create_dir(&folder).expect("dir");
    for file in ["jurisdiction.toml", "catalog.toml", "taxi.toml", "lei.txt"] {
        std::fs::copy(rulebooks().join("cangucu").join(file), folder.join(file)).expect("copy");
    }
    let mut taxi = std::fs::read_to_string(folder.join("taxi.toml")).expect("read");
    taxi.push_str(
        "\n[[deadlines]]\nkind = \"accident_report\"\nhours = 24\ndays = 1\ncitation = \"Art. 1\"\n",
    );
    taxi.push_str("\n[[deadlines]]\nkind = \"apeal\"\ndays = 5\ncounting = \"calendar_days\"\ncitation = \"Art. 1\"\n");
    taxi.push_str("\n[[sanction_rules]]\ngroups = [\"grave\"]\ncitation = \"Art. 1\"\nsanctions = [{ kind = \"vehicle_retention\", places = [\"garage\"] }]\n");
    std::fs::write(folder.join("taxi.toml"), taxi).expect("write");
    let run = outorga(&["rulebook", "check", dir.path().to_str().expect("utf-8")]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(
        run.stderr.contains(
            "deadline `accident_report` in `hours` takes no `days`, `months`, `years` or `counting`"
        ),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("place: expected before_departure, support_points or en_route"),
        "{}",
        run.stderr
    );
    // A misspelt deadline kind does not load (the procedure would otherwise
    // miss its limit); the message lists the known ones.
    assert!(
        run.stderr
            .contains("unknown deadline kind `apeal`; known: notification, defense"),
        "{}",
        run.stderr
    );
}

#[cfg(unix)]
#[test]
fn linked_folders_are_not_walked_twice() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("case.yaml"), GOOD).expect("write");
    std::os::unix::fs::symlink(dir.path(), dir.path().join("up")).expect("link");
    let rulebooks = rulebooks();
    let run = outorga(&[
        "scenarios",
        "run",
        "--rulebooks",
        rulebooks.to_str().expect("utf-8"),
        dir.path().to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert_eq!(run.stdout, "1 passed, 0 failed\n");
}

#[test]
fn without_a_rulebooks_folder_the_run_still_ends_with_the_count() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("case.yaml");
    std::fs::write(&file, GOOD).expect("write");
    let output = Command::new(env!("CARGO_BIN_EXE_outorga"))
        .args(["scenarios", "run", file.to_str().expect("utf-8")])
        .current_dir(dir.path())
        .env_remove("OUTORGA_RULEBOOKS")
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout.contains("no `rulebooks` folder"), "{stdout}");
    assert!(stdout.ends_with("0 passed, 2 failed\n"), "{stdout}");
}

#[test]
fn db_init_creates_the_sqlite_database_and_records_the_jurisdictions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let rulebooks = rulebooks();
    let args = [
        "db",
        "init",
        "--data",
        data.to_str().expect("utf-8"),
        "--rulebooks",
        rulebooks.to_str().expect("utf-8"),
    ];
    let run = outorga(&args);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("Canguçu (RS) — cangucu/taxi"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("Teófilo Otoni (MG) — teofilo-otoni/motofrete, teofilo-otoni/mototaxi"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.ends_with("4 jurisdiction(s)\n"),
        "{}",
        run.stdout
    );
    assert!(data.join("outorga.db").exists());
    // A second run finds the database migrated and records the same.
    let again = outorga(&args);
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert_eq!(again.stdout, run.stdout);
}

#[test]
fn db_init_refuses_an_unknown_database_url() {
    let rulebooks = rulebooks();
    let run = outorga(&[
        "db",
        "init",
        "--database-url",
        "mysql://localhost/x",
        "--rulebooks",
        rulebooks.to_str().expect("utf-8"),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("`mysql://localhost/x` is not a database URL: use sqlite://<file> or postgres://<host>/<db>"),
        "{}",
        run.stderr
    );
}
