//! A law in versions: each judged from its day, a day before the first
//! refused, the files of a version checked, and what changed listed.

use chrono::NaiveDate;
use outorga_rulebook::fixture::{AMENDED_ON, amended_cangucu};
use std::path::{Path, PathBuf};

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

fn day(text: &str) -> NaiveDate {
    text.parse().expect("a date")
}

fn grave_fine(rulebook: &outorga_core::model::Rulebook) -> String {
    let grave = rulebook
        .groups
        .iter()
        .find(|g| g.id == "grave")
        .expect("grave");
    grave
        .fine
        .as_ref()
        .expect("a fine")
        .value
        .quantity
        .to_string()
}

#[test]
fn each_day_is_judged_by_the_version_in_force() {
    let dir = tempfile::tempdir().expect("a folder");
    let folder = amended_cangucu(&rulebooks(), dir.path()).expect("the test version");
    let library = outorga_rulebook::load(&folder).expect("both versions load");
    let law = library.get("cangucu/taxi").expect("Canguçu");
    assert_eq!(law.versions().count(), 2);
    assert_eq!(law.version.valid_from, day(AMENDED_ON));

    let before = law.in_force_on(day("2025-12-31")).expect("in force");
    assert_eq!(before.version.amendment, None);
    assert_eq!(grave_fine(before), "400");
    assert!(
        before
            .text
            .excerpt("Anexo I, Art. 12, III")
            .expect("words")
            .contains("R$ 400,00")
    );

    let after = law.in_force_on(day(AMENDED_ON)).expect("in force");
    assert_eq!(grave_fine(after), "500");
    assert!(
        after
            .text
            .excerpt("Anexo I, Art. 12, III")
            .expect("words")
            .contains("R$ 500,00")
    );
    assert_eq!(
        after.version.label(&after.act),
        "Mensagem 015/2024 — texto dado por Lei de teste 1/2025, em vigor desde 01/01/2026"
    );

    let refused = law
        .in_force_on(day("2024-03-04"))
        .expect_err("before the law");
    assert_eq!(
        refused.to_string(),
        "04/03/2024 é anterior à entrada em vigor da lei de Canguçu (05/03/2024): esta lei não rege o que aconteceu antes"
    );
    assert_eq!(
        law.in_force_on(day("2024-03-05"))
            .expect("its first day")
            .version
            .valid_from,
        day("2024-03-05")
    );
}

/// Writes `text` as `name` in the test version's folder and returns the
/// load's errors, each as `file: message`.
fn errors_with(name: &str, text: impl FnOnce(&Path) -> String) -> String {
    let dir = tempfile::tempdir().expect("a folder");
    let folder = amended_cangucu(&rulebooks(), dir.path()).expect("the test version");
    let cangucu = folder.join("cangucu");
    let written = text(&cangucu);
    std::fs::write(cangucu.join(name), written).expect("written");
    let errors = outorga_rulebook::load(&folder).expect_err("refused");
    errors
        .0
        .iter()
        .map(|e| {
            let file = e.file.file_name().map(|f| f.to_string_lossy().into_owned());
            format!("{}: {}", file.unwrap_or_default(), e.message)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn version_text(cangucu: &Path) -> String {
    std::fs::read_to_string(cangucu.join(format!("taxi@{AMENDED_ON}.toml"))).expect("the version")
}

#[test]
fn a_version_s_files_are_checked() {
    // The date in the name is a date.
    let errors = errors_with("taxi@2026-13-01.toml", version_text);
    assert!(
        errors.contains("taxi@2026-13-01.toml: \"2026-13-01\" is not a date"),
        "{errors}"
    );

    // The amendment's day is the file's.
    let errors = errors_with("taxi@2026-02-01.toml", version_text);
    assert!(
        errors.contains("[amendment] in_force is 2026-01-01 but the file is named for 2026-02-01"),
        "{errors}"
    );

    // A later version says which act amended the law.
    let errors = errors_with(&format!("taxi@{AMENDED_ON}.toml"), |c| {
        let text = version_text(c);
        let start = text.find("[amendment]").expect("amendment");
        let end = start + text[start..].find("\n\n").expect("its end");
        format!("{}{}", &text[..start], &text[end..])
    });
    assert!(
        errors.contains("a later version says which act amended the law"),
        "{errors}"
    );

    // A version keeps its law's act.
    let errors = errors_with(&format!("taxi@{AMENDED_ON}.toml"), |c| {
        version_text(c).replacen(
            "number = \"Mensagem 015/2024\"",
            "number = \"Lei 9/2026\"",
            1,
        )
    });
    assert!(errors.contains("must keep its [act]"), "{errors}");

    // A later version needs the law as enacted.
    let errors = errors_with("mototaxi@2026-01-01.toml", version_text);
    assert!(
        errors.contains("needs the law as enacted beside it: mototaxi.toml"),
        "{errors}"
    );
}

#[test]
fn the_diff_lists_each_changed_rule_and_article() {
    let dir = tempfile::tempdir().expect("a folder");
    let folder = amended_cangucu(&rulebooks(), dir.path()).expect("the test version");
    let cangucu = folder.join("cangucu");
    let diff = outorga_rulebook::diff_files(
        &cangucu.join("taxi.toml"),
        &cangucu.join(format!("taxi@{AMENDED_ON}.toml")),
    )
    .expect("both load");
    assert_eq!(
        diff.text(),
        "de:   Mensagem 015/2024 — texto original, em vigor desde 05/03/2024\n\
         para: Mensagem 015/2024 — texto dado por Lei de teste 1/2025, em vigor desde 01/01/2026\n\
         \n\
         regras (1):\n  \
         groups[grave].fine.quantity: 400 → 500  [Anexo I, Art. 12, III]\n\
         \n\
         texto da lei (1 artigos):\n  \
         Anexo I, Art. 12:\n    \
         - III - grupo 3 - GRAVE – R$ 400,00; ou\n    \
         + III - grupo 3 - GRAVE – R$ 500,00; ou\n"
    );
    // A version against itself: nothing.
    let same = outorga_rulebook::diff_files(&cangucu.join("taxi.toml"), &cangucu.join("taxi.toml"))
        .expect("loads");
    assert!(
        same.text().ends_with("nenhuma diferença\n"),
        "{}",
        same.text()
    );
}
