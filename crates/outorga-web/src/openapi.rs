//! The OpenAPI document: built from the routes themselves.

use crate::error::ErrorBody;
use utoipa::Modify;
use utoipa::OpenApi as _;
use utoipa::openapi::OpenApi;
use utoipa::openapi::Required;
use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};

#[derive(utoipa::OpenApi)]
#[openapi(
    info(
        title = "outorga",
        description = "API do outorga: cadastros, permissões e infrações do transporte \
                       público regulado. Envie Authorization: Bearer <token> (obtenha um em \
                       POST /api/session). Erros: { erro, campo, motivo }."
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
    document
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
