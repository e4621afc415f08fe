//! The OpenAPI document: built from the routes themselves.

use crate::error::ErrorBody;
use utoipa::Modify;
use utoipa::OpenApi as _;
use utoipa::openapi::OpenApi;
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
    crate::routes::api().into_openapi()
}
