//! The published JSON Schemas of the rulebook format (docs/schema/): the
//! ones the loader's types generate, named by every rulebook file, and —
//! checked by an independent validator (Python's jsonschema, when
//! `OUTORGA_PY_ORACLE` names a Python with tests/schema/requirements.txt)
//! — met by every rulebook, the test version of a law included, while a
//! misspelt vocabulary word is caught.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_published_schemas_are_the_generated_ones() {
    for (name, generated) in outorga_rulebook::schemas() {
        let path = root().join("docs/schema").join(name);
        let published = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            published == generated,
            "{} is not the schema the loader's types make: run `cargo run -p outorga-cli -- rulebook schema docs/schema`",
            path.display()
        );
    }
    // Deadline kinds, sanction kinds and services are enumerations.
    let (_, rulebook) = &outorga_rulebook::schemas()[0];
    for word in [
        "\"delegation_formalization\"",
        "\"permit_cassation\"",
        "\"taxi_acessivel\"",
    ] {
        assert!(rulebook.contains(word), "{word}");
    }
}

/// Every rulebook file, with the schema of its kind.
fn rulebook_files(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for jurisdiction in std::fs::read_dir(folder).expect("the rulebooks") {
        let jurisdiction = jurisdiction.expect("an entry").path();
        if !jurisdiction.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&jurisdiction).expect("a jurisdiction") {
            let file = file.expect("an entry").path();
            if file.extension().is_some_and(|e| e == "toml") {
                files.push(file);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_rulebook_file_names_its_schema() {
    for file in rulebook_files(&root().join("rulebooks")) {
        let name = file
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let kind = match name.as_str() {
            "jurisdiction.toml" => "jurisdiction",
            n if n.starts_with("catalog") => "catalog",
            _ => "rulebook",
        };
        let text = std::fs::read_to_string(&file).expect("read");
        let first = text.lines().next().unwrap_or_default();
        assert_eq!(
            first,
            format!("#:schema ../../docs/schema/{kind}.schema.json"),
            "{}",
            file.display()
        );
    }
}

/// Runs the independent check on `files`: its exit status and output.
fn checked(python: &std::ffi::OsStr, files: &[PathBuf]) -> (bool, String) {
    let out = Command::new(python)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/schema/check_rulebooks.py"
        ))
        .arg(root().join("docs/schema"))
        .args(files)
        .output()
        .expect("the checker runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn every_rulebook_meets_its_schema() {
    let Some(python) = std::env::var_os("OUTORGA_PY_ORACLE") else {
        println!(
            "skipped: OUTORGA_PY_ORACLE is not set (a Python with \
             crates/outorga-rulebook/tests/schema/requirements.txt installed)"
        );
        return;
    };
    let mut files = rulebook_files(&root().join("rulebooks"));
    let dir = tempfile::tempdir().expect("a folder");
    let amended = outorga_rulebook::fixture::amended_cangucu(&root().join("rulebooks"), dir.path())
        .expect("the test version");
    files.extend(rulebook_files(&amended));
    assert!(files.len() >= 15, "{} files", files.len());
    let (ok, text) = checked(&python, &files);
    assert!(ok, "{text}");

    // A word outside a vocabulary is caught, with where it is.
    let broken = dir.path().join("cangucu").join("taxi.toml");
    let text = std::fs::read_to_string(&broken).expect("read");
    std::fs::write(
        &broken,
        text.replacen("kind = \"delegation_term\"", "kind = \"prazo\"", 1),
    )
    .expect("written");
    let (ok, text) = checked(&python, &[broken]);
    assert!(!ok);
    assert!(
        text.contains("deadlines.") && text.contains("'prazo' is not one of"),
        "{text}"
    );
}
