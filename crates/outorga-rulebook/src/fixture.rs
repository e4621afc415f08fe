//! A test version of a law, for the tests of versions across the
//! workspace (feature `fixture`): Canguçu's law as if an act had raised
//! the grave fine (Anexo I, art. 12, III) from R$ 400,00 to R$ 500,00 from
//! [`AMENDED_ON`]. Not a real amendment: it is written only into a
//! folder the test owns.

use std::fs;
use std::path::{Path, PathBuf};

/// The day the test amendment is in force from.
pub const AMENDED_ON: &str = "2026-01-01";

/// Copies `rulebooks/cangucu` into `into/cangucu` and adds the amended
/// version beside it (`taxi@2026-01-01.toml`, with its catalog and its
/// law's text); the folder of jurisdictions it made.
pub fn amended_cangucu(rulebooks: &Path, into: &Path) -> std::io::Result<PathBuf> {
    let from = rulebooks.join("cangucu");
    let folder = into.join("cangucu");
    fs::create_dir_all(&folder)?;
    for entry in fs::read_dir(&from)? {
        let entry = entry?;
        if entry.path().is_file() {
            fs::copy(entry.path(), folder.join(entry.file_name()))?;
        }
    }
    let changed = |name: &str, from: &str, to: &str| -> std::io::Result<String> {
        let text = fs::read_to_string(folder.join(name))?;
        if !text.contains(from) {
            return Err(std::io::Error::other(format!(
                "{name} no longer has {from:?}"
            )));
        }
        Ok(text.replacen(from, to, 1))
    };
    let catalog = changed(
        "catalog.toml",
        "fine = { unit = \"BRL\", quantity = 400, citation = \"Anexo I, Art. 12, III\" }",
        "fine = { unit = \"BRL\", quantity = 500, citation = \"Anexo I, Art. 12, III\" }",
    )?;
    fs::write(folder.join(format!("catalog@{AMENDED_ON}.toml")), catalog)?;
    let law = changed(
        "lei.txt",
        "III - grupo 3 - GRAVE – R$ 400,00; ou",
        "III - grupo 3 - GRAVE – R$ 500,00; ou",
    )?;
    fs::write(folder.join(format!("lei@{AMENDED_ON}.txt")), law)?;
    let service = changed(
        "taxi.toml",
        "catalog = \"catalog.toml\"",
        &format!("catalog = \"catalog@{AMENDED_ON}.toml\""),
    )?
    .replacen(
        "text = \"lei.txt\"",
        &format!(
            "text = \"lei@{AMENDED_ON}.txt\"\n\n\
             [amendment]\n\
             name = \"Lei que reajusta a multa do grupo grave (versão de teste)\"\n\
             number = \"Lei de teste 1/2025\"\n\
             date = 2025-12-01\n\
             in_force = {AMENDED_ON}\n\
             summary = \"Anexo I, art. 12, III: a multa grave passa de R$ 400,00 a R$ 500,00\""
        ),
        1,
    );
    fs::write(folder.join(format!("taxi@{AMENDED_ON}.toml")), service)?;
    Ok(into.to_path_buf())
}
