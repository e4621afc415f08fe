//! The form of a citation: `Art. 52, III, a`, `Art. 84, § 2º, c`,
//! `Art. 19, Parágrafo único`, `Anexo I, Art. 12, § 2º`.
//!
//! Articles and paragraphs 1 to 9 are ordinals (`Art. 2º`, `§ 1º`), from 10 on
//! cardinals (`Art. 10`, `§ 10`), as Lei Complementar 95/1998, art. 10, I writes them.

/// Checks a citation's form; the error says what is wrong and how to write it.
pub fn check(citation: &str) -> Result<(), String> {
    if citation.trim() != citation || citation.contains("  ") {
        return Err(format!("citation \"{citation}\" has stray spaces"));
    }
    let mut parts = citation.split(", ").peekable();
    if let Some(first) = parts.peek()
        && let Some(annex) = first.strip_prefix("Anexo ")
    {
        if !is_roman(annex) {
            return Err(format!(
                "\"{first}\": an annex is numbered in roman numerals (Anexo I)"
            ));
        }
        parts.next();
    }
    let Some(article) = parts.next().and_then(|p| p.strip_prefix("Art. ")) else {
        return Err(format!(
            "citation \"{citation}\" must start with the article, e.g. \"Art. 52, III, a\""
        ));
    };
    check_number(article, "Art.")?;
    for part in parts {
        let ok = part == "caput"
            || part == "Parágrafo único"
            || is_roman(part)
            || (part.len() <= 2 && part.chars().all(|c| c.is_ascii_lowercase()))
            || part.chars().all(|c| c.is_ascii_digit());
        if ok {
            continue;
        }
        if let Some(paragraph) = part.strip_prefix("§ ") {
            check_number(paragraph, "§")?;
            continue;
        }
        return Err(format!(
            "\"{part}\" in \"{citation}\" is not an inciso (roman), alínea (letter), item (number), \"§ Nº\", \"caput\" or \"Parágrafo único\""
        ));
    }
    Ok(())
}

/// `2º`, `10`, `10-A`: ordinal up to nine, cardinal after.
fn check_number(text: &str, what: &str) -> Result<(), String> {
    let base = text.split_once('-').map_or(text, |(n, suffix)| {
        if suffix.len() == 1 && suffix.chars().all(|c| c.is_ascii_uppercase()) {
            n
        } else {
            text
        }
    });
    let digits = base.trim_end_matches('º');
    let Ok(number) = digits.parse::<u32>() else {
        return Err(format!(
            "\"{what} {text}\": expected a number such as {what} 2º or {what} 10"
        ));
    };
    let ordinal = base.ends_with('º');
    match (number, ordinal) {
        (1..=9, true) | (10.., false) => Ok(()),
        (1..=9, false) => Err(format!("write \"{what} {number}º\" (ordinal up to nine)")),
        (10.., true) => Err(format!("write \"{what} {number}\" (cardinal from ten on)")),
        (0, _) => Err(format!("\"{what} {text}\": numbering starts at 1")),
    }
}

fn is_roman(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C'))
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn accepts_the_forms_the_laws_use() {
        for ok in [
            "Art. 52, III, a",
            "Art. 84, § 2º, c",
            "Art. 19, Parágrafo único",
            "Anexo I, Art. 12, § 2º",
            "Art. 2º, § 4º",
            "Art. 13, § 1º, II, a",
            "Art. 18, § 10",
            "Art. 55",
        ] {
            assert_eq!(check(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn refuses_malformed_citations() {
        for bad in [
            "",
            "art. 52",
            "Artigo 52",
            "Art. 2",
            "Art. 12º",
            "Art. 52, III a",
            "Art. 52,III",
            "Art. 52, § 1",
            " Art. 52",
            "Anexo 1, Art. 12",
        ] {
            assert!(check(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
