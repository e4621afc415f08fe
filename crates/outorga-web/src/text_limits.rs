//! The longest text each field of a request body takes: one table, read by
//! the JSON extractor (a longer text is refused before anything else reads
//! the body) and written into the OpenAPI document as `maxLength`. The
//! numbers are the store's ([`TextKind`]), which refuses the same texts
//! whichever way they arrive (the CLI's import included).

use crate::error::ApiError;
use axum::http::StatusCode;
use outorga_store::TextKind;
use serde_json::Value;

/// The bodies whose `nome` is a user's name and `senha` a password.
const USER_BODIES: [&str; 3] = ["UsuarioEntrada", "SessaoEntrada", "SenhaEntrada"];

/// The most characters `property` of the body `schema` takes. A field not
/// named here is a code, a date, a number or a choice ([`TextKind::Code`]).
pub(crate) fn max_chars(schema: &str, property: &str) -> usize {
    let users = USER_BODIES.contains(&schema);
    match property {
        "nome" if users => outorga_store::MAX_USER_NAME_CHARS,
        "senha" => outorga_store::MAX_PASSWORD_CHARS,
        "rotulo" => outorga_store::MAX_LABEL_CHARS,
        "descricao" | "constatacoes" | "fundamentos" | "texto" => TextKind::Long.max_chars(),
        "local" | "logradouro" | "email" | "excecao" => TextKind::Line.max_chars(),
        "nome" | "bairro" | "cidade" | "cor" | "adaptacoes" | "equipamentos" | "documentos"
        | "itinerario" | "de" | "para" => TextKind::Name.max_chars(),
        _ => TextKind::Code.max_chars(),
    }
}

/// Refuses (422, naming the field) a text longer than its field takes, or
/// holding a control or bidirectional character (a line break or tab only
/// in free texts), anywhere in `body` (a request of `schema`), before the
/// body is read.
pub(crate) fn check(schema: &str, body: &Value) -> Result<(), ApiError> {
    walk(schema, body, None, "")
}

fn walk(schema: &str, value: &Value, key: Option<&str>, path: &str) -> Result<(), ApiError> {
    match value {
        Value::String(text) => {
            let property = key.unwrap_or_default();
            let lines = max_chars(schema, property) == TextKind::Long.max_chars();
            if let Some((at, c)) = outorga_store::hidden_character(text, lines) {
                return Err(ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    path.to_string(),
                    outorga_store::hidden_reason(at, c),
                ));
            }
            let max = max_chars(schema, property);
            let count = text.chars().count();
            if count > max {
                return Err(ApiError::field(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    path.to_string(),
                    format!("tem {count} caracteres; o máximo é {max}"),
                ));
            }
            Ok(())
        }
        Value::Array(items) => items
            .iter()
            .enumerate()
            .try_for_each(|(i, item)| walk(schema, item, key, &format!("{path}[{i}]"))),
        Value::Object(fields) => fields.iter().try_for_each(|(name, field)| {
            let path = if path.is_empty() {
                name.clone()
            } else {
                format!("{path}.{name}")
            };
            walk(schema, field, Some(name), &path)
        }),
        _ => Ok(()),
    }
}
