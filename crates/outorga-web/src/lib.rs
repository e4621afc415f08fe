//! HTTP for outorga: the JSON API under `/api`, its OpenAPI document, and
//! authentication with roles.
//!
//! [`router`] builds the whole API from one [`AppState`] (the store, the
//! loaded rulebooks and a clock). Every route is declared with
//! `#[utoipa::path]` and registered through utoipa-axum's `OpenApiRouter`, so
//! a route exists if and only if it is in the OpenAPI document
//! (`GET /api/openapi.json`).
//!
//! # Adding an area (permits, autos, debts, agenda, public checks…)
//!
//! 1. Write `routes/<area>.rs` with its wire types (`#[derive(ToSchema)]`,
//!    Portuguese snake_case field names, `#[serde(deny_unknown_fields)]` on
//!    inputs) and `From`/`TryFrom` conversions to and from the store's types:
//!    domain and store types are never the wire format.
//! 2. Each handler takes first the capability it needs — [`auth::Reader`]
//!    (any signed-in user; all a read-only user may do), [`auth::Clerk`],
//!    [`auth::Inspector`], [`auth::Board`] or [`auth::Admin`] (an
//!    administrator passes every check) — then [`extract::Path`] and
//!    [`extract::Query`] (never axum's), then the body through
//!    [`json::Json`]: their rejections are Portuguese with the field. Under
//!    `/api/jurisdictions/{j}/…` the capability also refuses users whose
//!    scope leaves `j` out. Return `Result<_, ApiError>`: a `StoreError`
//!    converts with `?` (bad input 422, a duplicate 409, outages 503).
//!    Read "now" from `state.clock`, never from the system.
//! 3. End the file with `pub(crate) fn routes() -> OpenApiRouter<AppState>`
//!    listing its handlers with `routes!(…)`, and merge it in
//!    [`routes::api`]. The role table (`tests/api/roles.rs`, generated from the
//!    OpenAPI document) then asks for a row for each new operation.

pub mod auth;
pub mod client;
pub mod error;
pub mod extract;
mod headers;
pub mod json;
pub mod limits;
pub mod metrics;
mod observe;
mod openapi;
pub mod page;
pub mod papers;
mod routes;
pub mod server;
mod state;
mod text_limits;
mod vocab;

pub use error::{ApiError, ErrorBody};

/// The workflows the web pages run as the API runs them (never a second
/// copy): the same input types, checks and store calls.
pub mod workflows {
    pub use crate::routes::autos::{
        AutoEntrada, PassoEntrada, PermissaoRef, issue_auto, propose_auto, take_step,
    };
    pub use crate::routes::bus::{
        AnexoFretamento, DocumentoRegistro, FretamentoEntrada, Horarios, OperacaoEntrada,
        PassageiroEntrada, attachment_file, bus_rulebook, charter_input, operation_input,
        registration_documents,
    };
    pub use crate::routes::complaints::{
        DenunciaEntrada, TratamentoEntrada, ViagemEntrada, complaint_by_protocol, complaint_status,
        file_complaint, handle_complaint,
    };
    pub use crate::routes::custody::{
        CustodiaEntrada, DespesaEntrada, PagamentoDespesaEntrada, SaneamentoEntrada, add_expense,
        correct, custody_now, open as open_custody, pay_expense,
    };
    pub use crate::routes::debts::{
        PagamentoEntrada, debt_due, debt_slip, pay_debt, reais, split_debt,
    };
    pub use crate::routes::documents::{paper_format, pdf_file};
    pub use crate::routes::ledger::{
        RestituicaoEntrada, TaxaEntrada, charge_fee, csv, import_return, overdue_report,
        refund_paid, request_refund, revenue_report,
    };
    pub use crate::routes::open_data::LICENSE as OPEN_DATA_LICENSE;
    pub use crate::routes::priced_auto;
    // The public portal (issue 14).
    pub use crate::routes::public::{
        CondutorPublico, VeiculoPublico, document_check, driver_check, vehicle_check,
    };
    pub use crate::routes::stands::stand_rulebook;
    // Public calls (issue 16).
    pub use crate::routes::calls::{
        CriterioEntrada, DocumentoEditalEntrada, EditalEntrada, Mostrado, edital as call_input,
        rulebook_of_call, shown as call_shown,
    };
    pub use crate::routes::rulebook_for_service;
    pub use crate::routes::{parse_day, today_in};
    // Money (issue 13): fiscal units.
    pub use crate::routes::permits::{
        CondutorEntrada, VeiculoEmServicoEntrada, VistoriaEntrada, add_driver_to, inspect_vehicle,
        put_vehicle_in, remove_driver_from,
    };
    pub use crate::routes::units::{CorrecaoEntrada, UnidadeEntrada, record_unit_value};
    pub use crate::routes::vehicles::{VeiculoEntrada, register_vehicle};
    // The administration (issue 12): users and tokens, parameters, the
    // audit log.
    pub use crate::routes::audit::{Filtro, Verificacao, audit_entries, verify_audit};
    pub use crate::routes::catalog::{CatalogoParametros, parameter_catalog};
    pub use crate::routes::parameters::{ParametroEntrada, set_parameter};
    pub use crate::routes::users::{
        TokenEntrada, UsuarioEntrada, create_user, make_token, managed_by, managed_users,
        may_make_token_for,
    };
    use outorga_core::engine::process::StepKind;
    use outorga_core::model::SanctionKind;

    /// A step as `PassoEntrada::passo` names it.
    pub fn step_word(kind: StepKind) -> String {
        crate::vocab::PASSOS.wire(kind.name())
    }

    /// The roles of a driver under a permit, as `CondutorEntrada::funcao`
    /// names them, with their names in Portuguese.
    pub fn driver_roles() -> Vec<(String, &'static str)> {
        crate::vocab::FUNCOES
            .words
            .iter()
            .map(|(word, code)| (word.to_string(), outorga_store::driver_role_pt(code)))
            .collect()
    }

    /// An inspection's kind as `VistoriaEntrada::tipo` names it.
    pub fn inspection_word(kind: &str) -> String {
        crate::vocab::VISTORIAS.wire(kind)
    }

    /// The grounds of a refund as `RestituicaoEntrada::motivo` names them
    /// (the API's own words, as its answer writes them), with their names
    /// in Portuguese.
    pub fn refund_grounds() -> Vec<(String, &'static str)> {
        crate::routes::ledger::MOTIVOS
            .iter()
            .map(|(word, ground)| (word.to_string(), ground.portuguese()))
            .collect()
    }

    /// A penalty as `PassoEntrada::penalidades` names it.
    pub fn sanction_word(kind: SanctionKind) -> String {
        crate::vocab::PENALIDADES.wire(kind.name())
    }
}
pub use limits::Limits;
pub use openapi::openapi;
pub use state::{AppState, Clock, SystemClock};

/// The whole HTTP API, ready to serve (in-process, or on a socket with
/// [`server::serve`]). Around every route, outermost first: the request
/// log and metrics, the security headers, the catching of panics, the
/// request timeout and the body limit of `state.limits`.
pub fn router(state: AppState) -> axum::Router {
    router_with(state, axum::Router::new())
}

/// The API with `pages` beside it (the web application's screens), under
/// the same log, security headers (a page sets its own policy), panic
/// catching, timeout and body limit.
pub fn router_with(state: AppState, pages: axum::Router<AppState>) -> axum::Router {
    let (router, _) = routes::api().split_for_parts();
    let limits = state.limits;
    let router = router
        .merge(pages)
        .fallback(error::no_route)
        .method_not_allowed_fallback(error::no_method)
        .layer(axum::extract::DefaultBodyLimit::max(limits.body_bytes))
        .layer(
            tower::ServiceBuilder::new()
                .layer(axum::error_handling::HandleErrorLayer::new(
                    limits::timed_out,
                ))
                .timeout(limits.request_timeout),
        )
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            error::panicked,
        ));
    headers::secured(router)
        .layer(axum::middleware::from_fn_with_state(
            state.metrics.clone(),
            observe::observe,
        ))
        .with_state(state)
}
