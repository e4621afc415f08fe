//! Each rulebook carries its law's words: every citation finds its article
//! in the text as published, and a decision can show what it says.

use std::path::{Path, PathBuf};

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

/// Each law's text, read article by article: as many as the law has, in
/// the body and in each annex. Canguçu prints "ART. 31º" twice (the
/// second, on the plans and tariff studies, would be 32): both are read as
/// Art. 31, which a citation of it shows whole.
#[test]
fn every_law_is_read_article_by_article() {
    let library = outorga_rulebook::load(&rulebooks()).expect("the rulebooks load");
    for (id, span, count) in [
        ("amapa/onibus-intermunicipal", "Art. 1º a 78", 78),
        (
            "cangucu/taxi",
            "Art. 1º a 42; Anexo I, Art. 1º a 31",
            41 + 31,
        ),
        ("santa-maria-de-jetiba/taxi", "Art. 1º a 68", 68),
        ("teofilo-otoni/mototaxi", "Art. 1º a 116", 116),
        ("teofilo-otoni/motofrete", "Art. 1º a 116", 116),
    ] {
        let text = &library.get(id).expect(id).text;
        assert_eq!(text.span(), span, "{id}");
        assert_eq!(text.articles().count(), count, "{id}");
    }
    let cangucu = &library.get("cangucu/taxi").expect("Canguçu").text;
    let art31 = cangucu.article("Art. 31").expect("art. 31");
    assert!(art31.contains("\nART. 31º - Cabe à Coordenação"), "{art31}");
}

/// What a citation shows: the article's opening and the cited part.
#[test]
fn a_citation_shows_the_words_it_cites() {
    let library = outorga_rulebook::load(&rulebooks()).expect("the rulebooks load");
    let cangucu = &library.get("cangucu/taxi").expect("Canguçu").text;
    assert_eq!(
        cangucu.excerpt("Anexo I, Art. 12, III").as_deref(),
        Some(
            "ART. 12º - Os valores das multas serão divididos por grupos, segundo a gravidade das\n\
             […]\n\
             III - grupo 3 - GRAVE – R$ 400,00; ou"
        )
    );
    let smj = &library.get("santa-maria-de-jetiba/taxi").expect("SMJ").text;
    // An alínea marked with a dash, within its inciso.
    assert_eq!(
        smj.excerpt("Art. 51, III, d").as_deref(),
        Some(
            "Art. 51. Constitui infração os itens abaixo relacionados, estando os infratores sujeitos às\n\
             […]\n\
             d – Cobrar o valor da corrida em desconformidade com o estipulado na tabela em vigor;"
        )
    );
    let excerpt = smj.excerpt("Art. 68").expect("art. 68");
    assert!(
        excerpt.starts_with("Art. 68. Esta Lei entra em vigor"),
        "{excerpt}"
    );
}

/// A citation of an article the law does not have does not load; the
/// error is on its line and says which articles there are.
#[test]
fn a_citation_the_text_lacks_does_not_load() {
    let dir = tempfile::tempdir().expect("a folder");
    let folder = dir.path().join("santa-maria-de-jetiba");
    copy_folder(&rulebooks().join("santa-maria-de-jetiba"), &folder);
    let path = folder.join("taxi.toml");
    let text = std::fs::read_to_string(&path).expect("taxi.toml");
    let cited = "citation = \"Art. 18, § 1º\"";
    assert!(text.contains(cited));
    std::fs::write(
        &path,
        text.replacen(cited, "citation = \"Art. 99, § 1º\"", 1),
    )
    .expect("written");
    let errors = outorga_rulebook::load(&folder).expect_err("refused");
    let line = text.lines().position(|l| l.contains(cited)).expect("line") + 1;
    assert!(
        errors.0.iter().any(|e| e.line == line
            && e.message
                == "\"Art. 99, § 1º\": the law's text has no such article (it has Art. 1º a 68): check the number, or the annex"),
        "{errors}"
    );
}

pub fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("read") {
        let entry = entry.expect("entry");
        if entry.path().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copied");
        }
    }
}

/// The former spellings (`incidence`, `cure = "uncured"`) still load, to
/// the same rules as the law's own words (`offence`, `irregularity =
/// "not_corrected"`).
#[test]
fn the_former_spellings_still_load_to_the_same_rules() {
    let dir = tempfile::tempdir().expect("a folder");
    let folder = dir.path().join("cangucu");
    copy_folder(&rulebooks().join("cangucu"), &folder);
    for name in ["taxi.toml", "catalog.toml"] {
        let path = folder.join(name);
        let text = std::fs::read_to_string(&path).expect("read");
        let old = text
            .replace("offence = ", "incidence = ")
            .replace("irregularity = \"not_corrected\"", "cure = \"uncured\"")
            .replace("irregularity = \"found\"", "cure = \"found\"");
        std::fs::write(&path, old).expect("written");
    }
    let old = outorga_rulebook::load(&folder).expect("the former spellings load");
    let new = outorga_rulebook::load(&rulebooks().join("cangucu")).expect("loads");
    let rules = |library: &outorga_rulebook::Library| {
        format!(
            "{:?}",
            library.get("cangucu/taxi").expect("Canguçu").sanction_rules
        )
    };
    assert_eq!(rules(&old), rules(&new));
}
