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

    let errors = outorga_rulebook::load_text("cangucu", &jurisdiction, "[act\n", None)
        .expect_err("not TOML");
    assert_eq!(errors.0.len(), 1, "{errors}");
    assert!(
        errors.0[0].file.ends_with("cangucu/servico.toml"),
        "{errors}"
    );
    assert_eq!(errors.0[0].line, 1);

    // The jurisdiction's id must match the folder, as on disk.
    let errors = outorga_rulebook::load_text("outra", &jurisdiction, &service, None)
        .expect_err("wrong folder");
    assert!(
        errors
            .to_string()
            .contains("must match its folder name `outra`"),
        "{errors}"
    );

    // A service that names a catalog needs its text.
    let errors = outorga_rulebook::load_text("cangucu", &jurisdiction, &service, None)
        .expect_err("no catalog");
    assert!(
        errors.0[0].file.ends_with("cangucu/catalog.toml"),
        "{errors}"
    );
}
