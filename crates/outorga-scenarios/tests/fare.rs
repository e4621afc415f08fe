//! The fare engine through the scenario format, on two small rulebooks shaped
//! like the laws that have fares: bandeira 2 by night and weekend windows with
//! discounts (Teófilo Otoni art. 65–67, 106), and bandeira 1 only on weekdays by
//! day with bandeira 2 derived as +20 % (Canguçu art. 21–22).

use outorga_scenarios::{Report, run_text};
use std::fs;

const JURISDICTION: &str = "[jurisdiction]\nid = \"testville\"\nname = \"Testville\"\nstate = \"MG\"\ntime_zone = \"America/Sao_Paulo\"\n";

const COMMON: &str = r#"
[act]
name = "Lei de teste"
number = "1/2024"
date = 2024-01-01
in_force = 2024-01-01
services = ["taxi", "mototaxi"]

[liability]
fine_payer = "holder"
citation = "Art. 1º"

[repeat]
by = "code"
window = { days = 365 }
citation = "Art. 2º"
"#;

const NIGHTS: &str = r#"
[fare]
default_bandeira = 1
citation = "Art. 104"
windows = [
  { on = "weekday", from = "22:00", to = "06:00", next_day = true, citation = "Art. 106" },
  { on = "saturday", from = "14:00", to = "00:00", next_day = true, citation = "Art. 106" },
  { on = "sunday", from = "00:00", to = "06:00", next_day = true, citation = "Art. 106" },
  { on = "holiday", from = "00:00", to = "06:00", next_day = true, citation = "Art. 106" },
]
discounts = [
  { who = "age_at_least", age = 65, percent = 100, citation = "Art. 65" },
  { who = "disabled", percent = 100, citation = "Art. 66" },
  { who = "student", percent = 50, citation = "Art. 67" },
]
"#;

const DAYTIME: &str = r#"
[fare]
default_bandeira = 2
citation = "Art. 21"
windows = [{ on = "weekday", from = "06:00", to = "22:00", citation = "Art. 22, I" }]
bandeira_2_increase = { value = 20, citation = "Art. 21, § 1º" }
"#;

fn run(rulebook_tail: &str, cases: &str) -> Report {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("testville");
    fs::create_dir(&folder).expect("dir");
    fs::write(folder.join("jurisdiction.toml"), JURISDICTION).expect("write");
    fs::write(folder.join("taxi.toml"), format!("{COMMON}{rulebook_tail}")).expect("write");
    let library = outorga_rulebook::load(dir.path()).expect("test rulebook loads");
    let mut report = Report::default();
    run_text(&library, "fare.yaml", cases, false, &mut report);
    report
}

/// One fare case: the trip, the passenger and the expected answer.
fn case(name: &str, start: &str, passenger: &str, expect: &str) -> String {
    format!(
        r#"
- name: "{name}"
  rulebook: testville/taxi
  today: 2025-01-01
  parameters: {{ tariff: {{ bandeirada: "5.00", km_bandeira_1: "2.00", km_bandeira_2: "2.50", hora_parada: "30.00" }} }}
  query: {{ fare: {{ start: {start}, km: "10", stopped_minutes: 6, passenger: {passenger} }} }}
  expect: {expect}
"#
    )
}

fn check(rulebook_tail: &str, cases: &[String]) {
    let report = run(rulebook_tail, &cases.concat());
    assert_eq!(report.failed, 0, "{}", report.text);
    assert_eq!(report.passed, cases.len());
}

#[test]
fn bandeira_two_by_night_weekend_and_holiday() {
    let plain = "{ age: 30 }";
    // 5 + 10 × 2.00 + 0.1 h × 30 = 28.00; with bandeira 2: 5 + 25 + 3 = 33.00
    check(
        NIGHTS,
        &[
            case(
                "weekday afternoon",
                "2025-03-05T15:00",
                plain,
                "{ bandeira: 1, total: \"28.00\" }",
            ),
            case(
                "weekday 21:59",
                "2025-03-05T21:59",
                plain,
                "{ bandeira: 1 }",
            ),
            case(
                "weekday 22:00",
                "2025-03-05T22:00",
                plain,
                "{ bandeira: 2, total: \"33.00\", citations: [\"Art. 106\"] }",
            ),
            case(
                "weekday 05:59 after a weekday night",
                "2025-03-06T05:59",
                plain,
                "{ bandeira: 2 }",
            ),
            case(
                "weekday 06:00",
                "2025-03-06T06:00",
                plain,
                "{ bandeira: 1 }",
            ),
            case(
                "saturday 13:59",
                "2025-03-08T13:59",
                plain,
                "{ bandeira: 1 }",
            ),
            case(
                "saturday 14:00",
                "2025-03-08T14:00",
                plain,
                "{ bandeira: 2 }",
            ),
            case("sunday noon", "2025-03-09T12:00", plain, "{ bandeira: 2 }"),
            case(
                "monday 05:59 after sunday",
                "2025-03-10T05:59",
                plain,
                "{ bandeira: 2 }",
            ),
            case(
                "holiday noon (Tiradentes, a monday)",
                "2025-04-21T12:00",
                plain,
                "{ bandeira: 2 }",
            ),
            case(
                "day after a holiday 05:00",
                "2025-04-22T05:00",
                plain,
                "{ bandeira: 2 }",
            ),
            case(
                "day after a holiday 06:00",
                "2025-04-22T06:00",
                plain,
                "{ bandeira: 1 }",
            ),
        ],
    );
}

#[test]
fn discounts_take_the_largest_that_applies() {
    let day = "2025-03-05T15:00";
    check(
        NIGHTS,
        &[
            case(
                "aged 64 pays",
                day,
                "{ age: 64 }",
                "{ total: \"28.00\", discount_percent: \"0\" }",
            ),
            case(
                "aged 65 rides free",
                day,
                "{ age: 65 }",
                "{ total: \"0.00\", discount_percent: \"100\", citations: [\"Art. 65\"] }",
            ),
            case(
                "student pays half",
                day,
                "{ age: 20, student: true }",
                "{ total: \"14.00\", discount_percent: \"50\", citations: [\"Art. 67\"] }",
            ),
            case(
                "disabled student rides free",
                day,
                "{ age: 20, student: true, disabled: true }",
                "{ discount_percent: \"100\", citations: [\"Art. 66\"] }",
            ),
            case(
                "unknown age gets no age discount",
                day,
                "{ student: false }",
                "{ discount_percent: \"0\" }",
            ),
        ],
    );
}

#[test]
fn bandeira_two_derived_from_bandeira_one() {
    // Without km_bandeira_2: 2.00 + 20 % = 2.40; 5 + 24 + 3 = 32.00
    let derived = |name: &str, start: &str, expect: &str| {
        format!(
            r#"
- name: "{name}"
  rulebook: testville/taxi
  today: 2025-01-01
  parameters: {{ tariff: {{ bandeirada: "5.00", km_bandeira_1: "2.00", hora_parada: "30.00" }} }}
  query: {{ fare: {{ start: {start}, km: "10", stopped_minutes: 6 }} }}
  expect: {expect}
"#
        )
    };
    check(
        DAYTIME,
        &[
            derived(
                "weekday by day",
                "2025-03-05T10:00",
                "{ bandeira: 1, total: \"28.00\" }",
            ),
            derived(
                "weekday night",
                "2025-03-05T22:30",
                "{ bandeira: 2, total: \"32.00\", citations: [\"Art. 21, § 1º\"] }",
            ),
            derived("saturday by day", "2025-03-08T10:00", "{ bandeira: 2 }"),
            derived("holiday by day", "2025-04-21T10:00", "{ bandeira: 2 }"),
        ],
    );
}

#[test]
fn a_rulebook_without_fares_answers_not_in_the_rulebook() {
    let report = run(
        "",
        &case(
            "no fare rule",
            "2025-03-05T15:00",
            "{ age: 30 }",
            "{ bandeira: 1 }",
        ),
    );
    assert_eq!(report.failed, 1);
    assert_eq!(report.invalid, 0, "the question is well formed");
    assert!(
        report
            .text
            .contains("o regulamento não prevê regras de tarifa"),
        "{}",
        report.text
    );
}

#[test]
fn a_missing_tariff_value_is_named() {
    let cases = r#"
- name: "no tariff"
  rulebook: testville/taxi
  today: 2025-01-01
  query: { fare: { start: 2025-03-05T15:00, km: "10" } }
  expect: { bandeira: 1 }
"#;
    let report = run(NIGHTS, cases);
    assert_eq!(report.failed, 1);
    assert!(
        report.text.contains("tariff.km_bandeira_1"),
        "{}",
        report.text
    );
}

#[test]
fn an_unknown_tariff_key_is_bad_input() {
    let cases = r#"
- name: "typo in the tariff"
  rulebook: testville/taxi
  today: 2025-01-01
  parameters: { tariff: { bandeirda: "5.00" } }
  query: { fare: { start: 2025-03-05T15:00, km: "10" } }
  expect: { bandeira: 1 }
"#;
    let report = run(NIGHTS, cases);
    assert_eq!(report.invalid, 1, "{}", report.text);
    assert!(
        report.text.contains("`bandeirda` is not one of"),
        "{}",
        report.text
    );
}
