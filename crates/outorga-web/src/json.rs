//! The JSON body extractor: like `axum::Json`, but a refused body is an
//! [`ApiError`] naming the field and the reason in Portuguese.

use crate::error::ApiError;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// A JSON body (in requests) or answer (in responses).
#[derive(Debug, Clone, Copy, Default)]
pub struct Json<T>(pub T);

impl<S, T> FromRequest<S> for Json<T>
where
    T: DeserializeOwned + utoipa::ToSchema,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| {
                value
                    .split(';')
                    .next()
                    .is_some_and(|mime| mime.trim().eq_ignore_ascii_case("application/json"))
            });
        if !is_json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "envie o corpo em JSON, com o cabeçalho Content-Type: application/json",
            ));
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            let status = rejection.status();
            let why = if status == StatusCode::PAYLOAD_TOO_LARGE {
                "o corpo da requisição passa do limite de tamanho deste servidor: envie menos dados"
            } else {
                "não foi possível ler o corpo da requisição (interrompido)"
            };
            ApiError::field(status, "corpo", why)
        })?;
        // Texts over their field's maximum are refused first (text_limits.rs).
        if let Ok(body) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            crate::text_limits::check(&T::name(), &body)?;
        }
        parse(&bytes).map(Json)
    }
}

impl<T: Serialize> IntoResponse for Json<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}

/// `bytes` as a `T`, or the refusal: 400 for text that is not JSON, 422 for
/// JSON of the wrong shape, with the field's path.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let mut deserializer = serde_json::Deserializer::from_slice(bytes);
    let value = serde_path_to_error::deserialize(&mut deserializer)
        .map_err(|error| {
            let path = error.path().to_string();
            (path, error.into_inner())
        })
        .and_then(|value| {
            // Nothing but blanks may follow the value.
            deserializer
                .end()
                .map_err(|error| (".".to_string(), error))?;
            Ok(value)
        });
    value.map_err(|(path, inner)| {
        let position = format!("linha {}, coluna {}", inner.line(), inner.column());
        match inner.classify() {
            serde_json::error::Category::Data => {
                let message = inner.to_string();
                let message = message
                    .rsplit_once(" at line ")
                    .map_or(message.as_str(), |(head, _)| head);
                let (field, reason) = translate(message);
                let campo = match (path.as_str(), field) {
                    (".", Some(field)) => field,
                    (".", None) => "corpo".to_string(),
                    (path, Some(field)) if !path.ends_with(&field) => format!("{path}.{field}"),
                    (path, _) => path.to_string(),
                };
                ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, campo, reason)
            }
            serde_json::error::Category::Eof => ApiError::field(
                StatusCode::BAD_REQUEST,
                "corpo",
                format!("JSON incompleto ({position}): falta fechar chaves, colchetes ou aspas"),
            ),
            serde_json::error::Category::Syntax | serde_json::error::Category::Io => {
                ApiError::field(
                    StatusCode::BAD_REQUEST,
                    "corpo",
                    format!("JSON malformado ({position})"),
                )
            }
        }
    })
}

/// The text between the first pair of backticks.
fn quoted(message: &str) -> Option<String> {
    let (_, rest) = message.split_once('`')?;
    let (name, _) = rest.split_once('`')?;
    Some(name.to_string())
}

/// serde's message in Portuguese, and the field it names, if any.
pub(crate) fn translate(message: &str) -> (Option<String>, String) {
    if let Some(rest) = message.strip_prefix("unknown field ") {
        let accepted = rest
            .split_once(", expected ")
            .map(|(_, list)| {
                list.replace("one of ", "")
                    .replace(", or ", ", ")
                    .replace(" or ", ", ")
                    .replace('`', "")
            })
            .unwrap_or_default();
        let reason = if accepted.is_empty() || accepted.starts_with("there are no fields") {
            "campo desconhecido".to_string()
        } else {
            format!("campo desconhecido; os campos aceitos são: {accepted}")
        };
        return (quoted(rest), reason);
    }
    if let Some(rest) = message.strip_prefix("missing field ") {
        return (quoted(rest), "campo obrigatório ausente".to_string());
    }
    let words = |text: &str| {
        [
            ("a string", "texto"),
            ("string", "texto"),
            ("integer", "número"),
            ("floating point", "número"),
            ("boolean", "verdadeiro ou falso"),
            ("a boolean", "verdadeiro ou falso"),
            ("unit value", "nulo"),
            ("null", "nulo"),
            ("a sequence", "lista"),
            ("sequence", "lista"),
            ("map", "objeto"),
            ("struct", "objeto"),
            ("u8", "número inteiro de 0 a 255"),
            ("u16", "número inteiro de 0 a 65535"),
            ("u32", "número inteiro não negativo"),
            ("i32", "número inteiro"),
            ("i64", "número inteiro"),
        ]
        .iter()
        .fold(text.to_string(), |text, (en, pt)| {
            if text == *en || text.starts_with(&format!("{en} ")) {
                text.replacen(en, pt, 1)
            } else {
                text
            }
        })
    };
    for (prefix, what) in [
        ("invalid type: ", "tipo inválido"),
        ("invalid value: ", "valor inválido"),
        ("invalid length ", "tamanho inválido"),
    ] {
        if let Some(rest) = message.strip_prefix(prefix) {
            return match rest.split_once(", expected ") {
                Some((got, expected)) => (
                    None,
                    format!(
                        "{what}: recebido {}, esperado {}",
                        words(got),
                        words(expected)
                    ),
                ),
                None => (None, format!("{what}: {rest}")),
            };
        }
    }
    (None, format!("valor inválido: {message}"))
}

#[cfg(test)]
mod tests {
    use super::parse;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)] // the fields are read by serde only
    struct Body {
        nome: String,
        portas: Option<u8>,
        itens: Vec<Item>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Item {
        codigo: String,
    }

    fn check(input: &str, status: u16, campo: &str, motivo: &str) {
        let Err(error) = parse::<Body>(input.as_bytes()) else {
            panic!("{input} was accepted");
        };
        assert_eq!(error.status.as_u16(), status, "{input}: {error:?}");
        assert_eq!(
            error.body.campo.as_deref(),
            Some(campo),
            "{input}: {error:?}"
        );
        let reason = error.body.motivo.unwrap_or_default();
        assert!(
            reason.contains(motivo),
            "{input}: `{reason}` lacks `{motivo}`"
        );
    }

    #[test]
    fn refusals_name_the_field_in_portuguese() {
        check(
            r#"{"nome": "a", "itens": [], "cor": 1}"#,
            422,
            "cor",
            "campo desconhecido; os campos aceitos são: nome, portas, itens",
        );
        check(r#"{"itens": []}"#, 422, "nome", "campo obrigatório ausente");
        check(
            r#"{"nome": 3, "itens": []}"#,
            422,
            "nome",
            "tipo inválido: recebido número `3`, esperado texto",
        );
        check(
            r#"{"nome": "a", "portas": 300, "itens": []}"#,
            422,
            "portas",
            "valor inválido",
        );
        check(
            r#"{"nome": "a", "itens": [{"codigo": "x", "y": 1}]}"#,
            422,
            "itens[0].y",
            "campo desconhecido",
        );
        check(
            r#"{"nome": "a", "itens": [{}]}"#,
            422,
            "itens[0].codigo",
            "campo obrigatório ausente",
        );
        check(r#"{"nome": "a""#, 400, "corpo", "JSON incompleto (linha 1");
        check(
            r#"{"nome": 'a'}"#,
            400,
            "corpo",
            "JSON malformado (linha 1, coluna 10)",
        );
        check(
            r#"{"nome": "a", "itens": []} x"#,
            400,
            "corpo",
            "JSON malformado",
        );
        check("", 400, "corpo", "JSON incompleto");
        check(
            r#""x""#,
            422,
            "corpo",
            "tipo inválido: recebido texto \"x\", esperado objeto",
        );
    }
}
