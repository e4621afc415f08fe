//! Text and days that people type, checked before they are recorded: text
//! within a maximum and without characters that hide or reorder what is
//! shown (control characters, Unicode's bidirectional overrides and
//! isolates), so what a clerk reads back is what was recorded; days within
//! what can have happened.

use crate::StoreError;
use chrono::{Datelike, NaiveDate};

/// What a text field holds, and so its maximum length in characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextKind {
    /// A code or identifier: a stand's or line's code, an infraction code,
    /// a label, a category.
    Code,
    /// A name: of a person, company, stand, line, street, colour.
    Name,
    /// One line of free text: a place, an address, an excuse.
    Line,
    /// Free text of several lines: a description, findings, grounds, a
    /// defense.
    Long,
}

impl TextKind {
    /// The longest text of this kind, in characters.
    pub const fn max_chars(self) -> usize {
        match self {
            TextKind::Code => 40,
            TextKind::Name => 200,
            TextKind::Line => 300,
            TextKind::Long => 4000,
        }
    }
}

/// The Unicode characters that reorder how text around them is displayed
/// (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, the
/// marks U+200E, U+200F and U+061C): a name holding U+202E shows its end
/// reversed.
fn reorders(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// The first character of `value` (its position from 1, and itself) that
/// hides or reorders text: a control character (but a line break or tab
/// when `lines`), a line or paragraph separator, or a bidirectional
/// control. Shared with the web layer, which refuses them in paths, queries
/// and bodies before anything reads them.
pub fn hidden_character(value: &str, lines: bool) -> Option<(usize, char)> {
    value
        .chars()
        .enumerate()
        .find(|(_, c)| {
            (c.is_control() && !(lines && matches!(c, '\n' | '\r' | '\t')))
                || matches!(c, '\u{2028}' | '\u{2029}')
                || reorders(*c)
        })
        .map(|(i, c)| (i + 1, c))
}

/// What a refused hidden character is, for people.
pub fn hidden_reason(at: usize, c: char) -> String {
    if reorders(c) {
        format!(
            "tem um caractere invisível que inverte a direção do texto (U+{:04X}) na posição \
             {at}: apague-o",
            u32::from(c)
        )
    } else {
        format!(
            "tem um caractere de controle (U+{:04X}) na posição {at}: apague-o e digite o texto \
             de novo",
            u32::from(c)
        )
    }
}

/// `value` trimmed, if it is text of `kind` a person could have typed: at
/// most `kind.max_chars()` characters, no control character (a line break
/// or tab only in [`TextKind::Long`]) and nothing that reorders the text.
/// Blank text passes (whether it may be blank is the caller's rule).
pub fn checked<'a>(
    field: &'static str,
    value: &'a str,
    kind: TextKind,
) -> Result<&'a str, StoreError> {
    let value = value.trim();
    let invalid = |reason: String| StoreError::Invalid { field, reason };
    let count = value.chars().count();
    if count > kind.max_chars() {
        return Err(invalid(format!(
            "tem {count} caracteres; o máximo é {}",
            kind.max_chars()
        )));
    }
    if let Some((at, c)) = hidden_character(value, kind == TextKind::Long) {
        return Err(invalid(hidden_reason(at, c)));
    }
    Ok(value)
}

/// Like [`checked`], and not blank.
pub fn required<'a>(
    field: &'static str,
    value: &'a str,
    kind: TextKind,
) -> Result<&'a str, StoreError> {
    let value = checked(field, value, kind)?;
    if value.is_empty() {
        return Err(StoreError::Invalid {
            field,
            reason: "não pode ficar em branco".into(),
        });
    }
    Ok(value)
}

/// Written reasons (an appeal's grounds, a decision): long text of at
/// least ten letters; `what` names it in the refusal.
pub(crate) fn written(field: &'static str, value: &str, what: &str) -> Result<String, StoreError> {
    let value = checked(field, value, TextKind::Long)?.to_string();
    if value.chars().count() < 10 {
        return Err(StoreError::Invalid {
            field,
            reason: format!("escreva {what} (ao menos 10 letras)"),
        });
    }
    Ok(value)
}

/// The earliest day any record can hold (a birth; the oldest CNH).
pub(crate) const EARLIEST_YEAR: i32 = 1900;

/// `day` if it lies between `earliest` and `latest` (both included); the
/// reason names both.
pub(crate) fn day_within(
    field: &'static str,
    day: NaiveDate,
    (earliest, latest): (NaiveDate, NaiveDate),
) -> Result<NaiveDate, StoreError> {
    if day < earliest || day > latest {
        return Err(StoreError::Invalid {
            field,
            reason: format!(
                "{} está fora do intervalo possível ({} a {}): confira a data",
                day.format("%d/%m/%Y"),
                earliest.format("%d/%m/%Y"),
                latest.format("%d/%m/%Y")
            ),
        });
    }
    Ok(day)
}

/// The first day of `year`.
pub(crate) fn first_day(year: i32) -> NaiveDate {
    NaiveDate::from_ymd_opt(year, 1, 1).unwrap_or(NaiveDate::MIN)
}

/// `today` moved `years` years on (or back, when negative).
pub(crate) fn years_from(today: NaiveDate, years: i32) -> NaiveDate {
    today
        .with_year(today.year() + years)
        .or_else(|| today.pred_opt()?.with_year(today.year() + years))
        .unwrap_or(today)
}

/// A text the user may leave blank: none when blank, else `checked`.
pub(crate) fn optional(
    field: &'static str,
    value: Option<&str>,
    kind: TextKind,
) -> Result<Option<String>, StoreError> {
    match value.map(str::trim) {
        None | Some("") => Ok(None),
        Some(given) => Ok(Some(checked(field, given, kind)?.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(result: Result<&str, StoreError>) -> String {
        match result {
            Err(StoreError::Invalid { reason, .. }) => reason,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn text_within_its_maximum_and_without_hidden_characters() {
        assert_eq!(
            checked("nome", "  Ana Souza ", TextKind::Name).ok(),
            Some("Ana Souza")
        );
        assert_eq!(
            checked("nome", &"a".repeat(200), TextKind::Name)
                .ok()
                .map(str::len),
            Some(200)
        );
        assert!(
            reason(checked("nome", &"a".repeat(201), TextKind::Name)).contains("o máximo é 200")
        );
        assert!(reason(checked("nome", &"a".repeat(100_000), TextKind::Name)).contains("100000"));
        assert!(
            reason(checked("nome", "Ana\0Souza", TextKind::Name)).contains("(U+0000) na posição 4")
        );
        assert!(reason(checked("nome", "Ana\u{202E}azuoS", TextKind::Name)).contains("U+202E"));
        assert!(reason(checked("nome", "Ana\u{2066}x", TextKind::Name)).contains("U+2066"));
        assert!(reason(checked("nome", "Ana\nSouza", TextKind::Name)).contains("U+000A"));
        assert_eq!(
            checked("descrição", "Linha 1\nLinha 2\tcom tab", TextKind::Long).ok(),
            Some("Linha 1\nLinha 2\tcom tab")
        );
        assert!(reason(checked("descrição", "a\u{7}b", TextKind::Long)).contains("U+0007"));
        assert!(reason(required("nome", "   ", TextKind::Name)).contains("em branco"));
        // Accents, ç, emoji and other scripts are text like any other.
        assert!(checked("nome", "João Conceição Ñandú 李 😀", TextKind::Name).is_ok());
    }

    #[test]
    fn days_within_a_range() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day).expect("date");
        let range = (first_day(EARLIEST_YEAR), d(2026, 12, 1));
        assert!(day_within("nascimento", d(1900, 1, 1), range).is_ok());
        assert!(day_within("nascimento", d(2026, 12, 1), range).is_ok());
        let err = day_within("nascimento", d(1899, 12, 31), range).expect_err("too early");
        assert!(
            err.to_string()
                .contains("31/12/1899 está fora do intervalo possível (01/01/1900 a 01/12/2026)"),
            "{err}"
        );
        assert!(day_within("nascimento", d(2026, 12, 2), range).is_err());
        assert_eq!(years_from(d(2024, 2, 29), 1), d(2025, 2, 28));
        assert_eq!(years_from(d(2026, 12, 1), -120), d(1906, 12, 1));
    }
}
