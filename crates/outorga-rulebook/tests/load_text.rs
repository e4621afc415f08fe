//! `load_text` checks a rulebook's text exactly as `load` checks its files.

use std::path::PathBuf;

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

fn text(path: &PathBuf) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_rulebook_loads_from_its_text_as_from_its_files() {
    let library = outorga_rulebook::load(&rulebooks()).expect("the rulebooks load");
    let mut seen = 0;
    for from_files in library.rulebooks() {
        let (folder, service) = from_files.id.split_once('/').expect("an id");
        let dir = rulebooks().join(folder);
        let catalog = dir.join("catalog.toml");
        let catalog = catalog.exists().then(|| text(&catalog));
        let from_text = outorga_rulebook::load_text(
            folder,
            &text(&dir.join("jurisdiction.toml")),
            &text(&dir.join(format!("{service}.toml"))),
            catalog.as_deref(),
            Some(&text(&dir.join("lei.txt"))),
        )
        .unwrap_or_else(|errors| panic!("{}: {errors}", from_files.id));
        assert_eq!(from_text.id, format!("{folder}/servico"));
        assert_eq!(
            outorga_rulebook::summary(&from_text),
            outorga_rulebook::summary(from_files),
            "{}",
            from_files.id
        );
        seen += 1;
    }
    assert!(seen >= 5, "{seen} rulebooks");
}

#[test]
fn errors_name_the_file_and_line_of_the_text() {
    let dir = rulebooks().join("cangucu");
    let jurisdiction = text(&dir.join("jurisdiction.toml"));
    let service = text(&dir.join("taxi.toml"));
    let law = text(&dir.join("lei.txt"));

    let errors = outorga_rulebook::load_text("cangucu", &jurisdiction, "[act\n", None, None)
        .expect_err("not TOML");
    assert_eq!(errors.0.len(), 1, "{errors}");
    assert!(
        errors.0[0].file.ends_with("cangucu/servico.toml"),
        "{errors}"
    );
    assert_eq!(errors.0[0].line, 1);

    // The jurisdiction's id must match the folder, as on disk.
    let errors = outorga_rulebook::load_text("outra", &jurisdiction, &service, None, None)
        .expect_err("wrong folder");
    assert!(
        errors
            .to_string()
            .contains("must match its folder name `outra`"),
        "{errors}"
    );

    // A service that names a catalog needs its text.
    let errors = outorga_rulebook::load_text("cangucu", &jurisdiction, &service, None, Some(&law))
        .expect_err("no catalog");
    assert!(
        errors.0[0].file.ends_with("cangucu/catalog.toml"),
        "{errors}"
    );

    // And one that names the law's text, that text.
    let errors = outorga_rulebook::load_text("cangucu", &jurisdiction, &service, None, None)
        .expect_err("no law");
    assert!(errors.0[0].file.ends_with("cangucu/lei.txt"), "{errors}");
}

/// The register of the carriers authorized (Amapá art. 28, § 4º): its
/// validity a whole number of months, at least one, as a number or through
/// its parameter; the error on the line of the validity's article.
#[test]
fn a_registration_lasts_a_whole_number_of_months() {
    let dir = rulebooks().join("amapa");
    let jurisdiction = text(&dir.join("jurisdiction.toml"));
    let service = text(&dir.join("onibus-intermunicipal.toml"));
    let catalog = text(&dir.join("catalog.toml"));
    let law = text(&dir.join("lei.txt"));
    let valid = "valid = { months = { param = \"carrier_registration_months\" } }";
    assert!(service.contains(valid));
    let loaded =
        outorga_rulebook::load_text("amapa", &jurisdiction, &service, Some(&catalog), Some(&law))
            .expect("loads");
    let rules = loaded
        .bus
        .as_ref()
        .and_then(|b| b.charters.as_ref())
        .and_then(|c| c.registration.as_ref())
        .expect("the register");
    assert_eq!(rules.register, "Art. 28, § 4º");
    assert_eq!(rules.valid.citation, "Art. 28, § 6º");
    for (broken, reason) in [
        (service.replace(valid, "valid = { months = 0 }"), "valid 0"),
        (
            service.replace(valid, "valid = { months = \"1.5\" }"),
            "valid 1.5",
        ),
        (
            service.replace(
                "basis = \"Art. 28, § 6º\" }\nvalue = 12",
                "basis = \"Art. 28, § 6º\" }\nvalue = 0",
            ),
            "valid 0",
        ),
    ] {
        let errors = outorga_rulebook::load_text(
            "amapa",
            &jurisdiction,
            &broken,
            Some(&catalog),
            Some(&law),
        )
        .expect_err("refused");
        let line = broken
            .lines()
            .position(|l| l.starts_with("valid_citation"))
            .expect("the article")
            + 1;
        assert!(
            errors
                .0
                .iter()
                .any(|e| e.line == line && e.message.contains(reason)),
            "{reason} on line {line}: {errors}"
        );
    }
}
