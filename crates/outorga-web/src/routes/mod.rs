//! The API's areas, one module each, every one an `OpenApiRouter` of its
//! handlers (see the crate documentation for adding one).

mod audit;
mod jurisdictions;
mod lines;
mod meta;
mod people;
mod session;
mod stands;
mod users;
mod vehicles;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

/// Every route with its documentation.
pub(crate) fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(crate::openapi::base())
        .merge(meta::routes())
        .merge(session::routes())
        .merge(jurisdictions::routes())
        .merge(people::routes())
        .merge(vehicles::routes())
        .merge(lines::routes())
        .merge(stands::routes())
        .merge(audit::routes())
        .merge(users::routes())
}

/// The change a request makes: who (the signed-in user), when (the state's
/// clock) and why.
macro_rules! change {
    ($state:expr, $who:expr, $why:expr) => {
        outorga_store::Change {
            by: $who.name(),
            at: $state.clock.now(),
            why: $why,
        }
    };
}
pub(crate) use change;
