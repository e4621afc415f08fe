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
    document
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
