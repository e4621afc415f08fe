//! The OpenAPI document: built from the routes themselves.

use crate::error::ErrorBody;
use utoipa::Modify;
use utoipa::OpenApi as _;
use utoipa::openapi::OpenApi;
use utoipa::openapi::RefOr;
use utoipa::openapi::Required;
use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ArrayItems, ObjectBuilder, Schema, SchemaType, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "outorga",
        description = "API do outorga: cadastros, permissões e infrações do transporte \
                       público regulado. Envie Authorization: Bearer <token> (obtenha um em \
                       POST /api/session). Erros: { erro, campo, motivo }. Limites (padrão; \
                       `outorga serve` os ajusta): corpo da requisição até 256 KiB (413 além), \
                       30 s por requisição (503), cada texto até o `maxLength` do seu campo; \
                       consultas públicas: 30 de uma vez e 5 por segundo por cliente (429 com \
                       Retry-After)."
    ),
    modifiers(&Bearer),
    components(schemas(ErrorBody))
)]
pub(crate) struct ApiDoc;

/// The `bearer` security scheme the operations name.
struct Bearer;

impl Modify for Bearer {
    fn modify(&self, openapi: &mut OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The head of the document; [`crate::routes::api`] adds every path to it.
pub(crate) fn base() -> OpenApi {
    ApiDoc::openapi()
}

/// The OpenAPI 3 document of the whole API, as served at
/// `GET /api/openapi.json`.
pub fn openapi() -> OpenApi {
    let mut document = crate::routes::api().into_openapi();
    with_reason_header(&mut document);
    with_text_limits(&mut document);
    with_vocabularies(&mut document);
    document
}

/// Each field and query parameter that carries a vocabulary (`vocab.rs`)
/// lists its Portuguese spellings in its description and, for a closed
/// one, as its `enum` (a field that carries several: each listed, and the
/// `enum` only when all are closed).
fn with_vocabularies(document: &mut OpenApi) {
    for (owner, field, vocabulary) in crate::vocab::DOCUMENTED {
        let says = format!(
            "Valores — {}: {}{}.",
            vocabulary.what,
            vocabulary.spellings(),
            if vocabulary.open {
                "; ou outro que o regulamento defina"
            } else {
                ""
            }
        );
        let values: Option<Vec<serde_json::Value>> = closed_values(owner, field)
            .map(|words| words.into_iter().map(serde_json::Value::from).collect());
        if owner.starts_with('/') {
            let parameters = document
                .paths
                .paths
                .get_mut(*owner)
                .and_then(|item| item.get.as_mut())
                .and_then(|op| op.parameters.as_mut());
            for parameter in parameters.into_iter().flatten() {
                let RefOr::T(parameter) = parameter else {
                    continue;
                };
                if parameter.name == *field {
                    parameter.description = Some(described(parameter.description.take(), &says));
                    if let Some(RefOr::T(schema)) = parameter.schema.as_mut() {
                        enumerate(schema, values.as_deref());
                    }
                }
            }
            continue;
        }
        let property = document
            .components
            .as_mut()
            .and_then(|c| c.schemas.get_mut(*owner))
            .and_then(|schema| match schema {
                RefOr::T(Schema::Object(object)) => object.properties.get_mut(*field),
                _ => None,
            });
        if let Some(RefOr::T(schema)) = property {
            match schema {
                Schema::Object(object) => {
                    object.description = Some(described(object.description.take(), &says));
                }
                Schema::Array(array) => {
                    array.description = Some(described(array.description.take(), &says));
                }
                _ => {}
            }
            enumerate(schema, values.as_deref());
        }
    }
}

/// The values a field of `owner` may take, when every vocabulary it
/// carries is closed: their spellings, each once.
fn closed_values(owner: &str, field: &str) -> Option<Vec<&'static str>> {
    let carried: Vec<&crate::vocab::Vocabulary> = crate::vocab::DOCUMENTED
        .iter()
        .filter(|(o, f, _)| *o == owner && *f == field)
        .map(|(_, _, vocabulary)| *vocabulary)
        .collect();
    if carried.iter().any(|v| v.open) {
        return None;
    }
    let mut values: Vec<&'static str> = Vec::new();
    for (wire, _) in carried.iter().flat_map(|v| v.words) {
        if !values.contains(wire) {
            values.push(wire);
        }
    }
    Some(values)
}

/// A description with `more` after it.
fn described(description: Option<String>, more: &str) -> String {
    match description {
        Some(text) if !text.trim().is_empty() => format!("{} {more}", text.trim_end()),
        _ => more.to_string(),
    }
}

/// The text's `enum` (of an array: its items'); `null` too where it may be
/// null.
fn enumerate(schema: &mut Schema, values: Option<&[serde_json::Value]>) {
    let Some(values) = values else {
        return;
    };
    match schema {
        Schema::Object(object) => {
            let mut values = values.to_vec();
            if let SchemaType::Array(types) = &object.schema_type
                && types.contains(&Type::Null)
            {
                values.push(serde_json::Value::Null);
            }
            object.enum_values = Some(values);
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items
                && let RefOr::T(items) = items.as_mut()
            {
                enumerate(items, Some(values));
            }
        }
        _ => {}
    }
}

/// Every text field of a request body, and of what a body holds (a CNH in
/// a profile, a section in a line), states its maximum (text_limits.rs).
fn with_text_limits(document: &mut OpenApi) {
    let mut bodies: Vec<String> = document
        .paths
        .paths
        .values()
        .flat_map(|item| [&item.post, &item.put, &item.patch, &item.delete])
        .flatten()
        .filter_map(|op| match op.request_body.as_ref()? {
            RefOr::T(body) => Some(body),
            RefOr::Ref(_) => None,
        })
        .flat_map(|body| body.content.values())
        .filter_map(|content| match content {
            RefOr::T(content) => content.schema.as_ref().and_then(referenced),
            RefOr::Ref(_) => None,
        })
        .collect();
    let Some(components) = document.components.as_mut() else {
        return;
    };
    // What the bodies hold, by reference, is limited too.
    let mut i = 0;
    while let Some(name) = bodies.get(i).cloned() {
        if let Some(RefOr::T(schema)) = components.schemas.get(&name) {
            for held in references(schema) {
                if !bodies.contains(&held) {
                    bodies.push(held);
                }
            }
        }
        i += 1;
    }
    for name in &bodies {
        if let Some(RefOr::T(schema)) = components.schemas.get_mut(name) {
            limit(schema, name, "");
        }
    }
}

/// The component a `$ref` names.
fn referenced(schema: &RefOr<Schema>) -> Option<String> {
    match schema {
        RefOr::Ref(r) => r.ref_location.rsplit('/').next().map(str::to_string),
        RefOr::T(_) => None,
    }
}

/// The components `schema` refers to, at any depth.
fn references(schema: &Schema) -> Vec<String> {
    let nested = |s: &RefOr<Schema>| match s {
        RefOr::T(schema) => references(schema),
        other => referenced(other).into_iter().collect(),
    };
    match schema {
        Schema::Object(object) => object.properties.values().flat_map(nested).collect(),
        Schema::Array(array) => match &array.items {
            ArrayItems::RefOrSchema(items) => nested(items),
            ArrayItems::False => Vec::new(),
        },
        Schema::OneOf(one) => one.items.iter().flat_map(nested).collect(),
        Schema::AllOf(all) => all.items.iter().flat_map(nested).collect(),
        Schema::AnyOf(any) => any.items.iter().flat_map(nested).collect(),
        _ => Vec::new(),
    }
}

fn is_text(schema_type: &SchemaType) -> bool {
    match schema_type {
        SchemaType::Type(t) => *t == Type::String,
        SchemaType::Array(types) => types.contains(&Type::String),
        SchemaType::AnyValue => false,
    }
}

/// Sets `maxLength` on every text in `schema`, a part of the body `body`
/// found under `property`.
fn limit(schema: &mut Schema, body: &str, property: &str) {
    let nested = |s: &mut RefOr<Schema>, property: &str| {
        if let RefOr::T(schema) = s {
            limit(schema, body, property);
        }
    };
    match schema {
        Schema::Object(object) if is_text(&object.schema_type) => {
            object.max_length = Some(crate::text_limits::max_chars(body, property));
        }
        Schema::Object(object) => {
            for (name, field) in object.properties.iter_mut() {
                nested(field, name);
            }
        }
        Schema::Array(array) => {
            if let ArrayItems::RefOrSchema(items) = &mut array.items {
                nested(items, property);
            }
        }
        Schema::OneOf(one) => one.items.iter_mut().for_each(|item| nested(item, property)),
        Schema::AllOf(all) => all.items.iter_mut().for_each(|item| nested(item, property)),
        Schema::AnyOf(any) => any.items.iter_mut().for_each(|item| nested(item, property)),
        _ => {}
    }
}
/// Every authenticated write says it may carry `X-Motivo`, the reason the
/// audit log records for the change.
fn with_reason_header(document: &mut OpenApi) {
    let reason = ParameterBuilder::new()
        .name("X-Motivo")
        .parameter_in(ParameterIn::Header)
        .required(Required::False)
        .description(Some(
            "Por que a mudança é feita (UTF-8, até 500 caracteres): vai ao registro de auditoria.",
        ))
        .schema(Some(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .max_length(Some(500)),
        ))
        .build();
    for item in document.paths.paths.values_mut() {
        for operation in [&mut item.post, &mut item.put, &mut item.delete]
            .into_iter()
            .flatten()
            .filter(|op| op.security.is_some())
        {
            operation
                .parameters
                .get_or_insert_with(Vec::new)
                .push(reason.clone().into());
        }
    }
}

#[cfg(test)]
mod tests {
    /// Each field a vocabulary is documented on exists, lists the
    /// Portuguese spellings and, for a closed vocabulary, takes only them.
    #[test]
    fn every_vocabulary_is_listed_where_the_wire_carries_it() {
        let document = serde_json::to_value(super::openapi()).expect("the document");
        for (owner, field, vocabulary) in crate::vocab::DOCUMENTED {
            let found = if owner.starts_with('/') {
                document["paths"][*owner]["get"]["parameters"]
                    .as_array()
                    .and_then(|ps| ps.iter().find(|p| p["name"] == *field))
                    .map(|p| (p["description"].clone(), p["schema"].clone()))
            } else {
                let property = &document["components"]["schemas"][*owner]["properties"][*field];
                (!property.is_null()).then(|| (property["description"].clone(), property.clone()))
            };
            let Some((description, schema)) = found else {
                panic!("{owner}.{field} is not in the document");
            };
            let description = description.as_str().unwrap_or_default();
            for (wire, _) in vocabulary.words {
                assert!(
                    description.contains(wire),
                    "{owner}.{field}: `{wire}` not listed in {description:?}"
                );
            }
            let listed = schema
                .get("enum")
                .or_else(|| schema["items"].get("enum"))
                .and_then(|e| e.as_array())
                .map(|e| e.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>());
            let expected = super::closed_values(owner, field);
            let alone = crate::vocab::DOCUMENTED
                .iter()
                .filter(|(o, f, _)| o == owner && f == field)
                .count()
                == 1;
            if alone {
                let words =
                    (!vocabulary.open).then(|| vocabulary.words.iter().map(|(w, _)| *w).collect());
                assert_eq!(expected, words, "{owner}.{field}");
            }
            assert_eq!(listed, expected, "{owner}.{field}");
        }
    }
}
