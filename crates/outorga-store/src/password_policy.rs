//! The password policy: at least [`MIN_PASSWORD_CHARS`] characters, at most
//! [`MAX_PASSWORD_CHARS`], and not easy to guess.
//!
//! "Easy to guess" is zxcvbn's estimate (the maintained Rust port of
//! Dropbox's estimator: lists of common passwords, words and names,
//! keyboard patterns, repeats like `aaaa`, sequences like `123456` or
//! `abcdef`, dates): a password needs a score of at least 3, "safely
//! unguessable" (more than 10^8 guesses). The user's own name, its parts
//! and a few words every user of a transport office would think of are
//! given to zxcvbn as guesses too, and a password that contains the name
//! (or a part of it of four letters or more, or a shorter one as a word of
//! its own) is refused outright. zxcvbn's
//! advice is translated to Portuguese here.

use crate::StoreError;
use zxcvbn::Score;
use zxcvbn::feedback::{Suggestion, Warning};

/// The shortest password accepted, in characters.
pub const MIN_PASSWORD_CHARS: usize = 10;

/// The longest password accepted, in characters (hashing a longer one
/// would only cost time).
pub const MAX_PASSWORD_CHARS: usize = 256;

/// The least zxcvbn score accepted.
const LEAST_SCORE: Score = Score::Three;

/// Words of this deployment that anyone would try first.
const LOCAL_WORDS: [&str; 12] = [
    "outorga",
    "senha",
    "mudar",
    "trocar",
    "brasil",
    "prefeitura",
    "transporte",
    "taxi",
    "mototaxi",
    "admin",
    "administrador",
    "teste",
];

/// Refuses (`Invalid` on `senha`) a password for user `name` that is too
/// short, too long, contains the name or is easy to guess, saying why and
/// how to choose a better one.
pub fn check_password(name: &str, password: &str) -> Result<(), StoreError> {
    let invalid = |reason: String| StoreError::Invalid {
        field: "senha",
        reason,
    };
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(invalid(format!(
            "a senha precisa ter ao menos {MIN_PASSWORD_CHARS} caracteres"
        )));
    }
    if chars > MAX_PASSWORD_CHARS {
        return Err(invalid(format!(
            "a senha tem no máximo {MAX_PASSWORD_CHARS} caracteres"
        )));
    }
    let parts = name_parts(name);
    let folded = letters_and_digits(password);
    let names = words(name);
    if parts.iter().any(|part| folded.contains(part.as_str()))
        || words(password).iter().any(|word| names.contains(word))
    {
        return Err(invalid(
            "a senha não pode conter o nome do usuário (nem parte dele); \
             use algumas palavras que não tenham a ver com você"
                .into(),
        ));
    }
    let mut guesses: Vec<&str> = parts.iter().map(String::as_str).collect();
    guesses.push(name);
    guesses.extend(LOCAL_WORDS);
    let estimate = zxcvbn::zxcvbn(password, &guesses);
    if estimate.score() >= LEAST_SCORE {
        return Ok(());
    }
    let mut reason = "a senha é fácil de adivinhar".to_string();
    if let Some(feedback) = estimate.feedback() {
        if let Some(warning) = feedback.warning() {
            reason.push_str(": ");
            reason.push_str(warning_pt(warning));
        }
        let advice: Vec<&str> = feedback
            .suggestions()
            .iter()
            .map(|s| suggestion_pt(*s))
            .collect();
        if !advice.is_empty() {
            reason.push_str(". Sugestões: ");
            reason.push_str(&advice.join("; "));
        }
    }
    reason.push_str(
        ". Uma frase de três ou quatro palavras incomuns, como \
         `cavalo-grampo-bateria-certo`, é fácil de lembrar e difícil de adivinhar",
    );
    Err(invalid(reason))
}

/// The name's parts that a password must not contain: the name without
/// punctuation and each part of four characters or more, lowercase.
fn name_parts(name: &str) -> Vec<String> {
    let mut parts: Vec<String> = name
        .split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|part| part.chars().count() >= 4)
        .collect();
    let whole = letters_and_digits(name);
    if whole.chars().count() >= 4 && !parts.contains(&whole) {
        parts.push(whole);
    }
    parts
}

/// The words of `text` (runs of letters and digits), lowercase, with the
/// whole of it without punctuation: a short name (`bia`) is refused as a
/// word of the password (`bia.admin.2026`), not inside one (`sabiá`).
fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect();
    words.push(letters_and_digits(text));
    words
}

/// The letters and digits of `text`, lowercase.
fn letters_and_digits(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn warning_pt(warning: Warning) -> &'static str {
    match warning {
        Warning::StraightRowsOfKeysAreEasyToGuess => {
            "teclas seguidas na mesma linha do teclado (como qwerty) são fáceis de adivinhar"
        }
        Warning::ShortKeyboardPatternsAreEasyToGuess => {
            "padrões curtos no teclado são fáceis de adivinhar"
        }
        Warning::RepeatsLikeAaaAreEasyToGuess => "repetições como \"aaa\" são fáceis de adivinhar",
        Warning::RepeatsLikeAbcAbcAreOnlySlightlyHarderToGuess => {
            "repetições como \"abcabcabc\" são quase tão fáceis de adivinhar quanto \"abc\""
        }
        Warning::ThisIsATop10Password => "esta é uma das 10 senhas mais usadas",
        Warning::ThisIsATop100Password => "esta é uma das 100 senhas mais usadas",
        Warning::ThisIsACommonPassword => "esta é uma senha muito comum",
        Warning::ThisIsSimilarToACommonlyUsedPassword => {
            "esta senha se parece com uma senha muito usada"
        }
        Warning::SequencesLikeAbcAreEasyToGuess => {
            "sequências como abc ou 6543 são fáceis de adivinhar"
        }
        Warning::RecentYearsAreEasyToGuess => "anos recentes são fáceis de adivinhar",
        Warning::AWordByItselfIsEasyToGuess => "uma palavra sozinha é fácil de adivinhar",
        Warning::DatesAreOftenEasyToGuess => "datas costumam ser fáceis de adivinhar",
        Warning::NamesAndSurnamesByThemselvesAreEasyToGuess => {
            "nomes e sobrenomes sozinhos são fáceis de adivinhar"
        }
        Warning::CommonNamesAndSurnamesAreEasyToGuess => {
            "nomes e sobrenomes comuns são fáceis de adivinhar"
        }
    }
}

fn suggestion_pt(suggestion: Suggestion) -> &'static str {
    match suggestion {
        Suggestion::UseAFewWordsAvoidCommonPhrases => {
            "use algumas palavras, evitando frases conhecidas"
        }
        Suggestion::NoNeedForSymbolsDigitsOrUppercaseLetters => {
            "não é preciso usar símbolos, números nem maiúsculas"
        }
        Suggestion::AddAnotherWordOrTwo => {
            "acrescente mais uma ou duas palavras (palavras incomuns são melhores)"
        }
        Suggestion::CapitalizationDoesntHelpVeryMuch => "usar maiúsculas ajuda pouco",
        Suggestion::AllUppercaseIsAlmostAsEasyToGuessAsAllLowercase => {
            "tudo em maiúsculas é quase tão fácil de adivinhar quanto tudo em minúsculas"
        }
        Suggestion::ReversedWordsArentMuchHarderToGuess => {
            "palavras de trás para a frente não são muito mais difíceis de adivinhar"
        }
        Suggestion::PredictableSubstitutionsDontHelpVeryMuch => {
            "trocas previsíveis, como '@' no lugar de 'a', ajudam pouco"
        }
        Suggestion::UseALongerKeyboardPatternWithMoreTurns => {
            "use um padrão de teclado mais longo, com mais mudanças de direção"
        }
        Suggestion::AvoidRepeatedWordsAndCharacters => "evite palavras e caracteres repetidos",
        Suggestion::AvoidSequences => "evite sequências",
        Suggestion::AvoidRecentYears => "evite anos recentes",
        Suggestion::AvoidYearsThatAreAssociatedWithYou => "evite anos ligados a você",
        Suggestion::AvoidDatesAndYearsThatAreAssociatedWithYou => {
            "evite datas e anos ligados a você"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check_password;

    fn refusal(name: &str, password: &str) -> Option<String> {
        check_password(name, password)
            .err()
            .and_then(|e| e.bad_input().map(|(_, reason)| reason.to_string()))
    }

    #[test]
    fn passphrases_pass_and_the_obvious_does_not() {
        // The demo users' password (serve --demo) and phrases of words.
        for name in ["admin", "clerk", "inspector", "board", "read-only"] {
            assert_eq!(refusal(name, "demonstracao"), None, "{name}");
        }
        assert_eq!(refusal("ana", "senha-de-teste-longa"), None);
        assert_eq!(refusal("bia", "sabiá-laranjeira-do-campo"), None);
        for (name, password, why) in [
            ("ana", "curta", "ao menos 10 caracteres"),
            ("ana", "0123456789", "sequências"),
            ("ana", "9876543210", "sequências"),
            ("ana", "zzzzzzzzzzzz", "repetições"),
            ("ana", "abcabcabcabc", "repetições como \"abcabcabc\""),
            ("ana", "senha12345", "se parece com uma senha muito usada"),
            ("ana", "outorga2026", "fácil de adivinhar"),
            (
                "marcos.andrade",
                "andrade-e-um-sobrenome",
                "nome do usuário",
            ),
            ("marcos.andrade", "MarcosAndrade!!", "nome do usuário"),
            ("bia", "bia.admin.2026", "nome do usuário"),
        ] {
            let reason = refusal(name, password).unwrap_or_default();
            assert!(reason.contains(why), "{password}: {reason}");
        }
        let long = "palavra-".repeat(40);
        assert!(
            refusal("ana", &long)
                .unwrap_or_default()
                .contains("no máximo 256")
        );
    }
}
