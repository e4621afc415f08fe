//! The law's own words: each article's text as the law prints it, kept with
//! the rulebook so every decision can show, beside its citation, what the
//! article says.
//!
//! The text is read from the law as published (`lei.txt`): an article
//! begins at a line opening with its number (`Art. 12`, `ART. 12º -`,
//! `Art. 1º.`), an annex at a line that is only its name (`ANEXO I`), whose
//! articles are cited `Anexo I, Art. 3º`. Numbers only grow within the law
//! and within each annex, so a line of running text that happens to open
//! with an earlier article's number is not taken for a heading.

use std::collections::BTreeMap;

/// A law's articles by their citation (`Art. 12`, `Anexo I, Art. 3º`), in
/// the order the law prints them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LawText {
    /// (citation, words), in the law's order.
    articles: Vec<(String, String)>,
    /// Each citation's place in `articles`.
    index: BTreeMap<String, usize>,
}

impl LawText {
    /// Reads the articles of a law's text.
    pub fn parse(text: &str) -> LawText {
        let mut law = LawText::default();
        let mut annex: Option<String> = None;
        let mut last: Option<(u32, char)> = None;
        let mut current: Option<usize> = None;
        for line in text.lines() {
            let trimmed = line.trim();
            if let Some(name) = annex_heading(trimmed) {
                annex = Some(name);
                last = None;
                current = None;
                continue;
            }
            if let Some((number, suffix)) = article_heading(trimmed)
                && last.is_none_or(|l| (number, suffix) > l)
            {
                last = Some((number, suffix));
                let key = article_key(annex.as_deref(), number, suffix);
                law.index.insert(key.clone(), law.articles.len());
                law.articles.push((key, trimmed.to_string()));
                current = law.articles.len().checked_sub(1);
                continue;
            }
            // A chapter's or section's heading and its title belong to no
            // article; an article printed again with a number already used
            // (Canguçu's second "ART. 31º") goes on the one before.
            if structural_heading(trimmed) {
                current = None;
                continue;
            }
            if current.is_none() && article_heading(trimmed).is_some() {
                current = law.articles.len().checked_sub(1);
            }
            if let Some(at) = current
                && !trimmed.is_empty()
            {
                let body = &mut law.articles[at].1;
                body.push('\n');
                body.push_str(trimmed);
            }
        }
        law
    }

    /// Every article, by its citation and with its text, in the law's order.
    pub fn articles(&self) -> impl Iterator<Item = (&str, &str)> {
        self.articles.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn is_empty(&self) -> bool {
        self.articles.is_empty()
    }

    /// The whole text of the article a citation names (`Art. 52, III, a`
    /// is in `Art. 52`).
    pub fn article(&self, citation: &str) -> Option<&str> {
        let at = self.index.get(&article_of(citation)?)?;
        Some(self.articles[*at].1.as_str())
    }

    /// The words of what a citation names: the paragraph, inciso and
    /// alínea within its article when the text marks them (`§ 2º`,
    /// `Parágrafo único`, `III -`, `a)`), the article's opening line
    /// before them; the whole article when the citation names only it.
    pub fn excerpt(&self, citation: &str) -> Option<String> {
        let article = self.article(citation)?;
        let parts: Vec<&str> = citation
            .split(", ")
            .skip_while(|p| !p.starts_with("Art. "))
            .skip(1)
            .filter(|p| *p != "caput")
            .collect();
        if parts.is_empty() {
            return Some(article.to_string());
        }
        let lines: Vec<&str> = article.lines().collect();
        let mut range = 0..lines.len();
        for part in parts {
            match narrow(&lines, range.clone(), part) {
                Some(found) => range = found,
                None => return Some(article.to_string()),
            }
        }
        let opening = lines[0];
        let cited = lines[range.clone()].join("\n");
        Some(if range.start == 0 {
            cited
        } else {
            format!("{opening}\n[…]\n{cited}")
        })
    }

    /// The articles the text holds, as they are cited, for an error that
    /// says which exist.
    pub fn span(&self) -> String {
        // The body, then each annex, as the law prints them.
        let mut scopes: Vec<(&str, Vec<&str>)> = Vec::new();
        for (key, _) in &self.articles {
            let (scope, article) = key.rsplit_once("Art. ").unwrap_or(("", key));
            match scopes.iter_mut().find(|(s, _)| *s == scope) {
                Some((_, numbers)) => numbers.push(article),
                None => scopes.push((scope, vec![article])),
            }
        }
        scopes
            .iter()
            .map(|(scope, numbers)| {
                let first = numbers.iter().min_by_key(|n| number_of(n)).unwrap_or(&"");
                let last = numbers.iter().max_by_key(|n| number_of(n)).unwrap_or(&"");
                format!("{scope}Art. {first} a {last}")
            })
            .collect::<Vec<_>>()
            .join("; ")
    }
}

fn number_of(text: &str) -> (u32, String) {
    let digits: String = text.chars().take_while(char::is_ascii_digit).collect();
    (digits.parse().unwrap_or(0), text.to_string())
}

/// `Anexo I, Art. 3º` of `Anexo I, Art. 3º, § 1º, II`; `None` when the
/// citation names no article.
fn article_of(citation: &str) -> Option<String> {
    let mut kept = Vec::new();
    for part in citation.split(", ") {
        kept.push(part);
        if part.starts_with("Art. ") {
            return Some(kept.join(", "));
        }
    }
    None
}

/// A line opening a part of the law above its articles: `CAPÍTULO II`,
/// `Seção I - Direitos dos Taxistas`, `TÍTULO III`, `Subseção I`.
fn structural_heading(line: &str) -> bool {
    let word = line
        .split(|c: char| c.is_whitespace() || c == '-')
        .next()
        .unwrap_or_default()
        .to_uppercase();
    matches!(word.as_str(), "CAPÍTULO" | "SEÇÃO" | "SUBSEÇÃO" | "TÍTULO")
}

/// `ANEXO I` or `Anexo II` alone on its line.
fn annex_heading(line: &str) -> Option<String> {
    let rest = line
        .strip_prefix("ANEXO ")
        .or_else(|| line.strip_prefix("Anexo "))?;
    let roman = rest.trim();
    (!roman.is_empty()
        && roman
            .chars()
            .all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C')))
    .then(|| format!("Anexo {roman}"))
}

/// The number and letter suffix (`10-A`) of a line opening an article:
/// `Art. 12`, `ART. 12º -`, `Art. 1º.`, `Art 27 -`, `Artigo 3º`.
fn article_heading(line: &str) -> Option<(u32, char)> {
    let rest = ["Art. ", "ART. ", "Art.", "ART.", "Art ", "ART ", "Artigo "]
        .iter()
        .find_map(|p| line.strip_prefix(p))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let number: u32 = digits.parse().ok()?;
    let mut after = rest[digits.len()..].chars().peekable();
    if after.peek().is_some_and(|c| matches!(c, 'º' | '°' | 'o')) {
        after.next();
    }
    let mut suffix = ' ';
    let rest: String = after.collect();
    let rest = match rest.strip_prefix('-') {
        Some(tail)
            if tail.chars().next().is_some_and(|c| c.is_ascii_uppercase())
                && !tail.chars().nth(1).is_some_and(|c| c.is_alphanumeric()) =>
        {
            suffix = tail.chars().next().unwrap_or(' ');
            tail[1..].to_string()
        }
        _ => rest,
    };
    let opens = rest.is_empty()
        || rest.starts_with([' ', '.', '-', '–', '—', ':'])
        || rest.starts_with('\u{a0}');
    (number > 0 && opens).then_some((number, suffix))
}

/// How a citation writes an article: ordinal to nine, cardinal from ten
/// (Lei Complementar 95/1998, art. 10, I).
fn article_key(annex: Option<&str>, number: u32, suffix: char) -> String {
    let number = if number <= 9 {
        format!("{number}º")
    } else {
        number.to_string()
    };
    let suffix = if suffix == ' ' {
        String::new()
    } else {
        format!("-{suffix}")
    };
    match annex {
        Some(annex) => format!("{annex}, Art. {number}{suffix}"),
        None => format!("Art. {number}{suffix}"),
    }
}

/// Within `lines[range]`, the lines of the unit a citation's part names: a
/// paragraph (`§ 2º`, `Parágrafo único`), an inciso (`III`), an alínea
/// (`a`) or an item (`1`); it runs to the next unit of its kind or above.
fn narrow(
    lines: &[&str],
    range: std::ops::Range<usize>,
    part: &str,
) -> Option<std::ops::Range<usize>> {
    let kind = UnitKind::of(part)?;
    let start = (range.start..range.end).find(|&i| kind.opens(lines[i], part))?;
    let end = (start + 1..range.end)
        .find(|&i| kind.ends(lines[i]))
        .unwrap_or(range.end);
    Some(start..end)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum UnitKind {
    Paragraph,
    Inciso,
    Alinea,
    Item,
}

impl UnitKind {
    fn of(part: &str) -> Option<UnitKind> {
        if part.starts_with("§ ") || part == "Parágrafo único" {
            Some(UnitKind::Paragraph)
        } else if !part.is_empty()
            && part
                .chars()
                .all(|c| matches!(c, 'I' | 'V' | 'X' | 'L' | 'C'))
        {
            Some(UnitKind::Inciso)
        } else if !part.is_empty() && part.chars().all(|c| c.is_ascii_lowercase()) {
            Some(UnitKind::Alinea)
        } else if !part.is_empty() && part.chars().all(|c| c.is_ascii_digit()) {
            Some(UnitKind::Item)
        } else {
            None
        }
    }

    /// Whether `line` opens the unit `part` of this kind.
    fn opens(self, line: &str, part: &str) -> bool {
        match self {
            UnitKind::Paragraph if part == "Parágrafo único" => {
                line.to_lowercase().starts_with("parágrafo único")
            }
            UnitKind::Paragraph => {
                let number = part.trim_start_matches("§ ").trim_end_matches('º');
                paragraph_number(line).is_some_and(|n| n == number)
            }
            UnitKind::Inciso => inciso_of(line) == Some(part),
            UnitKind::Alinea => alinea_of(line) == Some(part),
            UnitKind::Item => {
                let rest = line.strip_prefix(part);
                rest.is_some_and(|r| r.starts_with(['.', ')', ' ', '-']))
            }
        }
    }

    /// Whether `line` opens a unit of this kind or above, which ends one.
    fn ends(self, line: &str) -> bool {
        let paragraph =
            paragraph_number(line).is_some() || line.to_lowercase().starts_with("parágrafo único");
        match self {
            UnitKind::Paragraph => paragraph,
            UnitKind::Inciso => paragraph || inciso_of(line).is_some(),
            UnitKind::Alinea | UnitKind::Item => {
                paragraph || inciso_of(line).is_some() || alinea_of(line).is_some()
            }
        }
    }
}

/// `2` of `§ 2º`, `§2º.`, `§ 10 -`.
fn paragraph_number(line: &str) -> Option<&str> {
    let rest = line.strip_prefix('§')?.trim_start();
    let digits = rest.split(|c: char| !c.is_ascii_digit()).next()?;
    (!digits.is_empty()).then_some(digits)
}

/// `b` of a line opening an alínea: `b)`, `b )`, `b -`, `b –`.
fn alinea_of(line: &str) -> Option<&str> {
    let letters = line.split(|c: char| !c.is_ascii_lowercase()).next()?;
    if letters.is_empty() || letters.len() > 2 {
        return None;
    }
    let after = &line[letters.len()..];
    let rest = after.trim_start();
    let marked =
        rest.starts_with(')') || (rest.starts_with(['-', '–', '—']) && after.starts_with(' '));
    marked.then_some(letters)
}

/// `III` of a line opening an inciso: `III -`, `III –`, `III.`, `III)`.
fn inciso_of(line: &str) -> Option<&str> {
    let numeral = line
        .split(|c: char| !matches!(c, 'I' | 'V' | 'X' | 'L' | 'C'))
        .next()?;
    if numeral.is_empty() {
        return None;
    }
    let rest = line[numeral.len()..].trim_start();
    rest.starts_with(['-', '–', '—', '.', ')'])
        .then_some(numeral)
}

#[cfg(test)]
mod tests {
    use super::LawText;

    const TEXT: &str = "LEI Nº 1\n\
Art. 1º Esta lei regula o táxi.\n\
Art. 2º. São deveres:\n\
I - trajar-se bem;\n\
II - cobrar a tarifa:\n\
a) do taxímetro;\n\
b – da tabela;\n\
III - zelar pelo veículo.\n\
§ 1º A multa dobra.\n\
§ 2º O prazo é de 10 dias,\n\
contados da notificação.\n\
Parágrafo único. Nada mais.\n\
ART. 10º - Ver o Art. 2º.\n\
Art. 2º desta lei, citado no meio de uma frase.\n\
CAPÍTULO II\n\
DAS DISPOSIÇÕES FINAIS\n\
ART. 10º - Repetido pela lei impressa.\n\
ANEXO I\n\
ART. 1º - O anexo começa de novo.\n";

    #[test]
    fn reads_articles_and_annexes_as_they_are_cited() {
        let law = LawText::parse(TEXT);
        assert_eq!(
            law.article("Art. 1º"),
            Some("Art. 1º Esta lei regula o táxi.")
        );
        assert_eq!(
            law.article("Art. 10"),
            Some(
                "ART. 10º - Ver o Art. 2º.\nArt. 2º desta lei, citado no meio de uma frase.\n\
                 ART. 10º - Repetido pela lei impressa."
            )
        );
        assert_eq!(
            law.article("Anexo I, Art. 1º"),
            Some("ART. 1º - O anexo começa de novo.")
        );
        assert_eq!(law.article("Art. 3º"), None);
        assert_eq!(law.span(), "Art. 1º a 10; Anexo I, Art. 1º a 1º");
    }

    #[test]
    fn narrows_to_the_cited_paragraph_inciso_and_alinea() {
        let law = LawText::parse(TEXT);
        let check = |citation: &str, expected: &str| {
            assert_eq!(
                law.excerpt(citation).as_deref(),
                Some(expected),
                "{citation}"
            );
        };
        check(
            "Art. 2º, II, b",
            "Art. 2º. São deveres:\n[…]\nb – da tabela;",
        );
        check(
            "Art. 2º, II, a",
            "Art. 2º. São deveres:\n[…]\na) do taxímetro;",
        );
        check(
            "Art. 2º, III",
            "Art. 2º. São deveres:\n[…]\nIII - zelar pelo veículo.",
        );
        check(
            "Art. 2º, § 2º",
            "Art. 2º. São deveres:\n[…]\n§ 2º O prazo é de 10 dias,\ncontados da notificação.",
        );
        check(
            "Art. 2º, Parágrafo único",
            "Art. 2º. São deveres:\n[…]\nParágrafo único. Nada mais.",
        );
        check("Art. 1º, caput", "Art. 1º Esta lei regula o táxi.");
        // A part the text does not mark: the whole article.
        check("Art. 1º, IV", "Art. 1º Esta lei regula o táxi.");
    }
}
