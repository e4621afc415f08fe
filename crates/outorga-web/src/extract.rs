//! The path and query extractors: like `axum::extract::Path` and
//! `axum::extract::Query`, but a refused parameter is an [`ApiError`] 400
//! naming the parameter, with the reason in Portuguese.
//!
//! A rejection only the code can cause (a route whose parameters do not
//! match its extractor) is a 500 "erro interno", its detail in the log.

use crate::error::ApiError;
use axum::extract::path::ErrorKind;
use axum::extract::rejection::{PathRejection, QueryRejection};
use axum::extract::{FromRequestParts, RawPathParams};
use axum::http::StatusCode;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

/// The parameters of the path, as `T` (a value, a tuple or a struct).
#[derive(Debug, Clone, Copy, Default)]
pub struct Path<T>(pub T);

impl<S, T> FromRequestParts<S> for Path<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if let Ok(params) = RawPathParams::from_request_parts(parts, state).await {
            for (name, value) in params.iter() {
                hidden(name, value)?;
            }
        }
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(value)) => Ok(Path(value)),
            Err(rejection) => {
                // The names of the parameters, in order, for the refusals
                // axum gives by position (tuples) or by value alone.
                let params: Vec<(String, String)> =
                    match RawPathParams::from_request_parts(parts, state).await {
                        Ok(params) => params
                            .iter()
                            .map(|(name, value)| (name.to_string(), value.to_string()))
                            .collect(),
                        Err(_) => Vec::new(),
                    };
                Err(path_refusal(&params, rejection))
            }
        }
    }
}

/// The query string, as `T` (a struct with `IntoParams`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Query<T>(pub T);

impl<S, T> FromRequestParts<S> for Query<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        if let Ok(axum::extract::Query(pairs)) =
            axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&parts.uri)
        {
            for (name, value) in &pairs {
                hidden(name, value)?;
            }
        }
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(value)) => Ok(Query(value)),
            Err(rejection) => {
                // The values as sent, to quote the refused one.
                let sent = axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&parts.uri)
                    .map(|axum::extract::Query(pairs)| pairs)
                    .unwrap_or_default();
                Err(query_refusal(&sent, rejection))
            }
        }
    }
}

/// Why a parameter that is not UTF-8 is refused.
pub(crate) const NOT_UTF8: &str = "o valor não é texto UTF-8 válido (confira os %XX do endereço)";

/// Refuses (400) a parameter holding a control or bidirectional character:
/// no database stores a NUL in text, and none is in a code, name or date.
pub(crate) fn hidden(name: &str, value: &str) -> Result<(), ApiError> {
    match outorga_store::hidden_character(value, false) {
        Some((at, c)) => Err(bad(name, outorga_store::hidden_reason(at, c))),
        None => Ok(()),
    }
}

/// A 500 for a rejection the client cannot cause; `detail` goes to the log.
fn internal(detail: &str) -> ApiError {
    eprintln!("erro interno: parâmetros da rota: {detail}");
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "erro interno")
}

fn bad(campo: impl Into<String>, motivo: impl Into<String>) -> ApiError {
    ApiError::field(StatusCode::BAD_REQUEST, campo, motivo)
}

/// `PathRejection` as the API's refusal; `params` are the path's
/// parameters (name, value), in order.
fn path_refusal(params: &[(String, String)], rejection: PathRejection) -> ApiError {
    let PathRejection::FailedToDeserializePathParams(failed) = rejection else {
        return internal(&rejection.body_text());
    };
    let name_at = |index: usize| {
        params
            .get(index)
            .map_or_else(|| "caminho".to_string(), |(name, _)| name.clone())
    };
    match failed.kind() {
        ErrorKind::ParseErrorAtKey {
            key,
            value,
            expected_type,
        } => bad(key.clone(), not_a(value, expected_type)),
        ErrorKind::ParseErrorAtIndex {
            index,
            value,
            expected_type,
        } => bad(name_at(*index), not_a(value, expected_type)),
        ErrorKind::ParseError {
            value,
            expected_type,
        } => {
            let campo = params
                .iter()
                .find(|(_, sent)| sent == value)
                .map_or_else(|| name_at(0), |(name, _)| name.clone());
            bad(campo, not_a(value, expected_type))
        }
        ErrorKind::InvalidUtf8InPathParam { key } => bad(key.clone(), NOT_UTF8),
        ErrorKind::DeserializeError {
            key,
            value,
            message,
        } => bad(
            key.clone(),
            format!(
                "`{value}` não é aceito: {}",
                serde_reason(message, Some(value))
            ),
        ),
        ErrorKind::Message(message) => bad("caminho", serde_reason(message, None)),
        // WrongNumberOfParameters, UnsupportedType and whatever axum adds:
        // the route and its extractor disagree.
        _ => internal(&failed.body_text()),
    }
}

/// `QueryRejection` as the API's refusal; `sent` are the query's pairs.
fn query_refusal(sent: &[(String, String)], rejection: QueryRejection) -> ApiError {
    let QueryRejection::FailedToDeserializeQueryString(failed) = rejection else {
        return internal(&rejection.body_text());
    };
    // serde_path_to_error's text: "<parâmetro>: <erro>", or the error alone
    // when it is about the whole query (a missing parameter).
    let text =
        std::error::Error::source(&failed).map_or_else(|| failed.body_text(), ToString::to_string);
    let (path, message) = match text.split_once(": ") {
        Some((path, message))
            if !path.is_empty() && !path.contains(char::is_whitespace) && !path.contains('`') =>
        {
            (Some(path.to_string()), message.to_string())
        }
        _ => (None, text.clone()),
    };
    if let Some(rest) = message.strip_prefix("missing field ")
        && let Some(name) = quoted(rest)
    {
        let motivo = format!("falta o parâmetro `{name}`");
        return bad(name, motivo);
    }
    if let Some(rest) = message.strip_prefix("duplicate field ")
        && let Some(name) = quoted(rest)
    {
        let motivo = format!("o parâmetro `{name}` aparece mais de uma vez");
        return bad(name, motivo);
    }
    if let Some(rest) = message.strip_prefix("unknown field ")
        && let Some(name) = quoted(rest)
    {
        let accepted = rest
            .split_once(", expected ")
            .map(|(_, list)| accepted_list(list))
            .unwrap_or_default();
        let motivo = if accepted.is_empty() || accepted.starts_with("there are no fields") {
            "parâmetro desconhecido".to_string()
        } else {
            format!("parâmetro desconhecido; os aceitos são: {accepted}")
        };
        return bad(name, motivo);
    }
    let campo = path.unwrap_or_else(|| "consulta".to_string());
    let value = sent
        .iter()
        .find(|(name, _)| *name == campo)
        .map(|(_, value)| value.as_str());
    let motivo = serde_reason(&message, value);
    bad(campo, motivo)
}

/// The text between the first pair of backticks.
fn quoted(message: &str) -> Option<String> {
    let (_, rest) = message.split_once('`')?;
    let (name, _) = rest.split_once('`')?;
    Some(name.to_string())
}

/// serde's "one of `a`, `b` or `c`" as "a, b, c".
fn accepted_list(list: &str) -> String {
    list.replace("one of ", "")
        .replace(", or ", ", ")
        .replace(" or ", ", ")
        .replace('`', "")
}

/// An optional sign and decimal digits: a whole number, whatever its size.
fn is_integer(value: &str) -> bool {
    let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
    !digits.is_empty() && digits.bytes().all(|byte| byte.is_ascii_digit())
}

/// The least and greatest value of an integer type named as axum names it.
fn integer_range(expected_type: &str) -> Option<(String, String)> {
    fn range<T: ToString>(min: T, max: T) -> Option<(String, String)> {
        Some((min.to_string(), max.to_string()))
    }
    match expected_type {
        "i8" => range(i8::MIN, i8::MAX),
        "i16" => range(i16::MIN, i16::MAX),
        "i32" => range(i32::MIN, i32::MAX),
        "i64" => range(i64::MIN, i64::MAX),
        "i128" => range(i128::MIN, i128::MAX),
        "u8" => range(u8::MIN, u8::MAX),
        "u16" => range(u16::MIN, u16::MAX),
        "u32" => range(u32::MIN, u32::MAX),
        "u64" => range(u64::MIN, u64::MAX),
        "u128" => range(u128::MIN, u128::MAX),
        _ => None,
    }
}

/// Why `value` is not an `expected_type` (a name as axum gives it).
fn not_a(value: &str, expected_type: &str) -> String {
    if let Some((min, max)) = integer_range(expected_type) {
        return if is_integer(value) {
            format!("`{value}` está fora do intervalo aceito (de {min} a {max})")
        } else {
            format!("`{value}` não é um número inteiro")
        };
    }
    match expected_type {
        "f32" | "f64" => format!("`{value}` não é um número"),
        "bool" => format!("`{value}` não é true nem false"),
        "char" => format!("`{value}` não é um único caractere"),
        _ => format!("`{value}` não é um valor aceito aqui"),
    }
}

/// The messages of serde, serde_urlencoded and the standard parsers in
/// Portuguese; `value` is the refused value, when known.
fn serde_reason(message: &str, value: Option<&str>) -> String {
    let shown =
        |value: Option<&str>| value.map_or_else(|| "o valor".to_string(), |v| format!("`{v}`"));
    match message {
        "invalid digit found in string" => match value {
            Some(value) if is_integer(value) => {
                format!("`{value}` não é aceito: o número não pode ser negativo")
            }
            _ => format!("{} não é um número", shown(value)),
        },
        "cannot parse integer from empty string" | "cannot parse float from empty string" => {
            "valor vazio: informe um número".to_string()
        }
        "number too large to fit in target type" => {
            format!("{} é grande demais para este parâmetro", shown(value))
        }
        "number too small to fit in target type" => {
            format!("{} é pequeno demais para este parâmetro", shown(value))
        }
        "invalid float literal" => format!("{} não é um número", shown(value)),
        "provided string was not `true` or `false`" => {
            format!("{} não é true nem false", shown(value))
        }
        _ => {
            if let Some(rest) = message.strip_prefix("unknown variant ") {
                let accepted = rest
                    .split_once(", expected ")
                    .map(|(_, list)| accepted_list(list))
                    .unwrap_or_default();
                let what = quoted(rest).map_or_else(|| shown(value), |v| format!("`{v}`"));
                return if accepted.is_empty() {
                    format!("{what} não é um valor aceito")
                } else {
                    format!("{what} não é um valor aceito; os aceitos são: {accepted}")
                };
            }
            crate::json::translate(message).1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{not_a, serde_reason};

    #[test]
    fn reasons_in_portuguese() {
        assert_eq!(not_a("abc", "i32"), "`abc` não é um número inteiro");
        assert_eq!(
            not_a("99999999999", "i32"),
            "`99999999999` está fora do intervalo aceito (de -2147483648 a 2147483647)"
        );
        assert_eq!(
            not_a("-1", "u8"),
            "`-1` está fora do intervalo aceito (de 0 a 255)"
        );
        assert_eq!(not_a("talvez", "bool"), "`talvez` não é true nem false");
        assert_eq!(
            serde_reason("invalid digit found in string", Some("abc")),
            "`abc` não é um número"
        );
        assert_eq!(
            serde_reason("invalid digit found in string", Some("-3")),
            "`-3` não é aceito: o número não pode ser negativo"
        );
        assert_eq!(
            serde_reason(
                "number too large to fit in target type",
                Some("99999999999")
            ),
            "`99999999999` é grande demais para este parâmetro"
        );
        assert_eq!(
            serde_reason("cannot parse integer from empty string", Some("")),
            "valor vazio: informe um número"
        );
        assert_eq!(
            serde_reason("unknown variant `x`, expected `a` or `b`", None),
            "`x` não é um valor aceito; os aceitos são: a, b"
        );
    }
}
