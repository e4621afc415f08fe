//! The web application the department works in: pages rendered on the
//! server (askama templates, checked at compile time), in Portuguese, on
//! the same store and workflows as the JSON API — never a second copy of a
//! rule. Assets are vendored and embedded (`assets.rs`): it works offline.
//!
//! - `session.rs`: the cookie session (HttpOnly, SameSite=Strict, Secure
//!   behind TLS) over the store's sessions, and the CSRF token of each form;
//! - `pages.rs`: the first screens — the home page, sign-in and sign-out,
//!   the panel with the user's agenda per jurisdiction;
//! - `password.rs`: changing one's own password;
//! - `place.rs`: the jurisdiction of a page (`/j/{j}/…`), within the
//!   user's scope;
//! - `search.rs`: the search box, results as one types;
//! - `people.rs`: the register, a person's page with the checklist of the
//!   law's requirements per service;
//! - `profile.rs`: a person's profile (the facts the requirements read,
//!   the CNH as printed, address and contacts) on a form;
//! - `permits.rs`: the list, the grant form with the cap and the checklist
//!   before sending, the dossier;
//! - `permit_actions.rs`: a clerk's work on the dossier — drivers linked
//!   and unlinked, a vehicle put in service with its checklist first;
//! - `vehicles.rs`: the register form, a vehicle's page with its
//!   inspections, the inspection form;
//! - `autos.rs`: the list of autos and the inspector's form, the
//!   infraction picked from the catalog, the proposal shown before saving;
//! - `auto_page.rs`: an auto's page — the proposal, the process as a
//!   timeline, the limits that run, the steps the law admits today as
//!   forms per role, and those it does not with why;
//! - `board.rs`: the board's queue (to judge, appeals to decide);
//! - `proposal.rs`: the engine's proposal as staff read it;
//! - `forms.rs`: choices of a select, query strings;
//! - `import.rs`: the department's existing records from its files (the
//!   store's import, dry run first);
//! - `format.rs`: dates, documents and money as users read them.

mod assets;
mod auto_page;
mod autos;
mod board;
mod debts;
mod format;
mod forms;
mod import;
mod pages;
mod password;
mod people;
mod permit_actions;
mod permits;
mod place;
mod profile;
mod proposal;
mod search;
mod session;
mod vehicles;

use axum::Router;
use axum::routing::{get, post};
use outorga_web::AppState;

/// How the pages are served.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// The server runs with the demo records and users: the home page says
    /// how to sign in with them.
    pub demo: bool,
}

/// The pages, for `outorga_web::router_with`.
pub fn routes(options: Options) -> Router<AppState> {
    Router::new()
        .route("/", get(pages::home))
        .route("/entrar", get(pages::sign_in_form).post(pages::sign_in))
        .route("/sair", post(pages::sign_out))
        .route("/painel", get(pages::panel))
        .route(
            "/senha",
            get(password::password_form).post(password::change_password),
        )
        .route("/busca", get(search::search))
        .route("/busca/resultados", get(search::search_results))
        .route("/j/{j}/pessoas", get(people::list).post(people::register))
        .route("/j/{j}/pessoas/{documento}", get(people::person))
        .route(
            "/j/{j}/pessoas/{documento}/perfil",
            get(profile::edit).post(profile::save),
        )
        .route("/j/{j}/permissoes", get(permits::list).post(permits::grant))
        .route("/j/{j}/permissoes/nova", get(permits::grant_form))
        .route("/j/{j}/permissoes/previa", get(permits::grant_preview))
        .route(
            "/j/{j}/permissoes/{servico}/{numero}",
            get(permits::dossier),
        )
        .route(
            "/j/{j}/permissoes/{servico}/{numero}/condutores",
            post(permit_actions::add_driver),
        )
        .route(
            "/j/{j}/permissoes/{servico}/{numero}/condutores/{matricula}/desligamento",
            post(permit_actions::remove_driver),
        )
        .route(
            "/j/{j}/permissoes/{servico}/{numero}/veiculo",
            post(permit_actions::put_vehicle),
        )
        .route(
            "/j/{j}/veiculos",
            get(vehicles::register_form).post(vehicles::register),
        )
        .route("/j/{j}/veiculos/{placa}", get(vehicles::show))
        .route("/j/{j}/veiculos/{placa}/vistorias", post(vehicles::inspect))
        .route("/j/{j}/autos", get(autos::list).post(autos::issue))
        .route("/j/{j}/autos/novo", get(autos::issue_form))
        .route("/j/{j}/autos/infracoes", get(autos::infractions))
        .route("/j/{j}/autos/{ano}/{numero}", get(auto_page::show))
        .route("/j/{j}/autos/{ano}/{numero}/passos", post(auto_page::take))
        .route("/j/{j}/junta", get(board::queue))
        .route("/j/{j}/debitos", get(debts::list))
        .route("/j/{j}/debitos/{ano}/{numero}/{seq}", get(debts::show))
        .route(
            "/j/{j}/debitos/{ano}/{numero}/{seq}/pagamento",
            post(debts::pay),
        )
        .route(
            "/j/{j}/debitos/{ano}/{numero}/{seq}/parcelamento",
            post(debts::split),
        )
        // The department's existing records (issue 12, item 7).
        .route(
            "/j/{j}/importar",
            get(import::form)
                .post(import::run)
                .layer(axum::extract::DefaultBodyLimit::max(
                    import::MAX_FILE_BYTES + 64 * 1024,
                )),
        )
        .route("/j/{j}/importar/{id}", get(import::job))
        .route("/static/{file}", get(assets::serve))
        .layer(axum::Extension(options))
}
