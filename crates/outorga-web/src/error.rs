//! One error type for every handler, answered as JSON in Portuguese:
//! `{ "erro": "...", "campo": "...", "motivo": "..." }`.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use outorga_store::StoreError;
use serde::Serialize;
use utoipa::ToSchema;

/// The body of every error answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, for people.
    pub erro: String,
    /// The field at fault, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub campo: Option<String>,
    /// Why the field was refused and how to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub motivo: Option<String>,
    /// The articles of the law a refusal rests on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub artigos: Option<Vec<String>>,
}

#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub body: ErrorBody,
    /// Seconds to wait before trying again (`Retry-After`), for 429 and 503.
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, erro: impl Into<String>) -> ApiError {
        ApiError {
            status,
            body: ErrorBody {
                erro: erro.into(),
                campo: None,
                motivo: None,
                artigos: None,
            },
            retry_after: None,
        }
    }

    /// A refused field: 422 unless `status` says otherwise.
    pub fn field(
        status: StatusCode,
        campo: impl Into<String>,
        motivo: impl Into<String>,
    ) -> ApiError {
        let (campo, motivo) = (campo.into(), motivo.into());
        ApiError {
            status,
            body: ErrorBody {
                erro: format!("{campo}: {motivo}"),
                campo: Some(campo),
                motivo: Some(motivo),
                artigos: None,
            },
            retry_after: None,
        }
    }

    pub fn not_found(what: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, what)
    }

    pub fn unauthorized(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, why)
    }

    pub fn forbidden(why: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, why)
    }

    /// The same error, telling the client to try again in `seconds`.
    pub fn retry_after(self, seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(seconds),
            ..self
        }
    }
}

impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::Taken { field, reason } => {
                ApiError::field(StatusCode::CONFLICT, field, reason)
            }
            StoreError::Invalid { field, reason } => {
                ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, field, reason)
            }
            StoreError::NotFound(what) => ApiError::not_found(what),
            // A record edited outside outorga: nothing is done on it (409),
            // and the operator's log says so.
            StoreError::Tampered(what) => {
                tracing::error!(problem = %what, "registro alterado por fora do outorga");
                ApiError::new(StatusCode::CONFLICT, what)
            }
            StoreError::Refused { reason, articles } => ApiError {
                status: StatusCode::UNPROCESSABLE_ENTITY,
                body: ErrorBody {
                    erro: format!("recusado pela lei: {reason}"),
                    campo: None,
                    motivo: Some(reason),
                    artigos: Some(articles),
                },
                retry_after: None,
            },
            StoreError::Busy => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "muitas senhas sendo verificadas agora; tente de novo em instantes",
            )
            .retry_after(1),
            StoreError::Engine(why) => ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("o regulamento não responde a este pedido: {why}"),
            ),
            other => {
                // The detail is for the operator's log, never for the client.
                eprintln!("erro do banco de dados: {other}");
                if is_outage(&other) {
                    ApiError::new(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "banco de dados indisponível; tente de novo em instantes",
                    )
                } else {
                    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "erro interno")
                }
            }
        }
    }
}

fn is_outage(error: &StoreError) -> bool {
    match error {
        StoreError::Open { .. } | StoreError::DataDir { .. } => true,
        StoreError::Sql(sql) => matches!(
            sql,
            sqlx::Error::Io(_)
                | sqlx::Error::PoolTimedOut
                | sqlx::Error::PoolClosed
                | sqlx::Error::WorkerCrashed
                | sqlx::Error::Tls(_)
        ),
        _ => false,
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, axum::Json(self.body)).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, header::HeaderValue::from(seconds));
        }
        if self.status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                header::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

/// Any path the API does not have.
pub(crate) async fn no_route() -> ApiError {
    ApiError::not_found("rota não encontrada; veja GET /api/openapi.json")
}

/// A path the API has, with a method it does not answer.
pub(crate) async fn no_method() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "método não permitido nesta rota; veja GET /api/openapi.json",
    )
}

/// A bug must not take the server down nor show its internals.
pub(crate) fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    eprintln!("erro interno: um tratador entrou em pânico");
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "erro interno").into_response()
}
