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
//! - `charts.rs`: the panel's charts, SVG drawn on the server with their
//!   numbers as tables;
//! - `proposal.rs`: the engine's proposal as staff read it;
//! - `forms.rs`: choices of a select, query strings;
//! - `import.rs`: the department's existing records from its files (the
//!   store's import, dry run first);
//! - `format.rs`: dates, documents and money as users read them;
//! - `admin.rs`: users and their API tokens, for administrators;
//! - `parameters.rs`: the parameters of a jurisdiction's law and the
//!   fiscal units its rulebooks name; administrators set a parameter;
//! - `units.rs`: the fiscal units' values, the law's and the deployment's
//!   records (and those worked out from the bus lines); administrators
//!   record one;
//! - `payments.rs`: the jurisdiction's collection agreement and PIX key,
//!   for administrators;
//! - `debts.rs`: the debts and a debt's page, with `slip.rs`, its payment
//!   slip (barcode, linha digitável, PIX), `plan.rs`, its parcels and the
//!   balance fallen due at once, and `refunds.rs`, its refund asked and
//!   paid back;
//! - `fees.rs`: a fee of the law charged by hand;
//! - `returns.rs`: a bank's return file of paid slips imported, with its
//!   report;
//! - `reports.rs`: the revenue and the overdue debts as CSV files;
//! - `audit.rs`: the audit log, paged and filtered, and its verification;
//! - `titular.rs`: the holder's and driver's own space (`/titular`), on a
//!   cookie session of its own;
//! - `govbr.rs`: signing in to it through gov.br's Login Único (OpenID
//!   Connect, authorization code with PKCE);
//! - `petitions.rs`: the staff's side of it — a person's first-access
//!   code printed, the petitions filed, a clerk's answer.

mod admin;
mod assets;
mod audit;
mod auto_page;
mod autos;
mod board;
mod bus_carriers;
mod bus_lines;
mod calls;
mod charts;
mod complaints;
mod custody;
mod debts;
mod fees;
mod format;
mod forms;
mod govbr;
mod import;
mod laws;
mod lookup;
mod open_data;
mod pages;
mod papers;
mod parameters;
mod password;
mod payments;
mod people;
mod permit_actions;
mod permits;
mod petitions;
mod place;
mod plan;
mod profile;
mod proposal;
mod refunds;
mod reports;
mod returns;
mod search;
mod services;
mod session;
mod slip;
mod stands;
mod titular;
mod titular_calls;
mod units;
mod vehicles;
mod verify;

use axum::Router;
use axum::routing::{get, post};
pub use govbr::GovBr;
use outorga_web::AppState;

/// How the pages are served.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The server runs with the demo records and users: the home page says
    /// how to sign in with them.
    pub demo: bool,
    /// Minutes a session of the pages may go unused before it ends (the
    /// next request is sent to sign in again, saying why).
    pub idle_minutes: u32,
    /// gov.br's Login Único for the holders' space, when the deployment
    /// has a client there (made once at start, for the process's life).
    pub govbr: Option<&'static GovBr>,
}

impl Options {
    /// The idle limit when none is given: half an hour.
    pub const IDLE_MINUTES: u32 = 30;

    pub(crate) fn idle(&self) -> chrono::Duration {
        chrono::Duration::minutes(i64::from(self.idle_minutes.max(1)))
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            demo: false,
            idle_minutes: Options::IDLE_MINUTES,
            govbr: None,
        }
    }
}

/// The pages, for `outorga_web::router_with`.
pub fn routes(options: Options) -> Router<AppState> {
    Router::new()
        .route("/", get(pages::home))
        .route("/consulta", get(lookup::show))
        .route("/verificar", get(verify::form))
        .route("/tarifas", get(services::index))
        .route("/denuncia", get(complaints::form).post(complaints::file))
        .route("/denuncia/acompanhar", get(complaints::find))
        .route("/denuncia/{protocolo}", get(complaints::follow))
        .route("/dados-abertos", get(open_data::show))
        .route("/tarifas/{j}", get(services::show))
        .route("/leis/{j}", get(laws::show))
        .route("/verificar/{codigo}", get(verify::show))
        .route("/sorteios/{j}/{ano}/{numero}", get(stands::public))
        .route("/chamamentos/{j}/{ano}/{numero}", get(calls::public))
        .route(
            "/verificar/{codigo}/arquivo",
            post(verify::check_file).layer(axum::extract::DefaultBodyLimit::max(
                verify::MAX_FILE_BYTES + 64 * 1024,
            )),
        )
        // The holder's and driver's own space (issue 14).
        .route("/titular", get(titular::sign_in_form))
        .route("/titular/entrar", post(titular::sign_in))
        .route(
            "/titular/primeiro-acesso",
            get(titular::first_access_form).post(titular::first_access),
        )
        .route("/titular/sair", post(titular::sign_out))
        .route("/titular/govbr", get(govbr::start))
        .route("/titular/govbr/retorno", get(govbr::back))
        .route("/titular/painel", get(titular::space))
        .route("/titular/autos/{j}/{ano}/{numero}", get(titular::auto))
        .route(
            "/titular/autos/{j}/{ano}/{numero}/peticao",
            post(titular::file).layer(axum::extract::DefaultBodyLimit::max(
                titular::MAX_PETITION_BODY,
            )),
        )
        .route(
            "/titular/permissoes/{j}/{servico}/{numero}/renovacao",
            post(titular::renewal),
        )
        .route("/titular/protocolos/{protocolo}", get(titular::receipt))
        .route(
            "/titular/chamamentos/{j}/{ano}/{numero}",
            get(titular_calls::show).post(titular_calls::apply),
        )
        .route(
            "/titular/documentos/{j}/{codigo}/pdf",
            get(titular::document),
        )
        .route(
            "/titular/debitos/{j}/{ano}/{numero}/{seq}/guia",
            post(titular::slip),
        )
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
        .route("/j/{j}/autos/{ano}/{numero}/custodia", post(custody::open))
        .route(
            "/j/{j}/autos/{ano}/{numero}/custodia/despesas",
            post(custody::expense),
        )
        .route(
            "/j/{j}/autos/{ano}/{numero}/custodia/despesas/{despesa}/pagamento",
            post(custody::payment),
        )
        .route(
            "/j/{j}/autos/{ano}/{numero}/custodia/saneamento",
            post(custody::correction),
        )
        .route("/j/{j}/junta", get(board::queue))
        .route(
            "/j/{j}/pessoas/{documento}/codigo-de-acesso",
            post(petitions::access_code),
        )
        .route("/j/{j}/requerimentos", get(petitions::queue))
        .route("/j/{j}/requerimentos/{protocolo}", post(petitions::answer))
        .route(
            "/j/{j}/requerimentos/{protocolo}/anexos/{seq}",
            get(petitions::attachment),
        )
        .route("/j/{j}/denuncias", get(complaints::queue))
        .route("/j/{j}/denuncias/{protocolo}", post(complaints::handle))
        // The papers (issue 14): a document's PDF; an auto's papers and a
        // debt's slip, issued and opened.
        .route("/j/{j}/documentos/{codigo}/pdf", get(papers::pdf))
        .route(
            "/j/{j}/autos/{ano}/{numero}/papeis",
            post(papers::auto_paper),
        )
        .route(
            "/j/{j}/debitos/{ano}/{numero}/{seq}/guia/documento",
            post(papers::slip_paper),
        )
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
        // Money (issue 13): the slip's pictures, a debt's refund, fees
        // charged by hand, a bank's return, the reports, the fiscal units,
        // the agreement and PIX key.
        .route(
            "/j/{j}/debitos/{ano}/{numero}/{seq}/guia/codigo.svg",
            get(slip::barcode),
        )
        .route(
            "/j/{j}/debitos/{ano}/{numero}/{seq}/guia/pix.svg",
            get(slip::pix),
        )
        .route(
            "/j/{j}/debitos/{ano}/{numero}/{seq}/restituicao",
            post(refunds::ask),
        )
        .route(
            "/j/{j}/debitos/{ano}/{numero}/{seq}/restituicao/paga",
            post(refunds::paid),
        )
        .route("/j/{j}/taxas", post(fees::charge))
        .route("/j/{j}/taxas/nova", get(fees::form))
        .route(
            "/j/{j}/retornos",
            get(returns::form)
                .post(returns::run)
                .layer(axum::extract::DefaultBodyLimit::max(
                    returns::MAX_FILE_BYTES + 64 * 1024,
                )),
        )
        .route("/j/{j}/relatorios/receita.csv", get(reports::revenue))
        .route(
            "/j/{j}/relatorios/debitos-vencidos.csv",
            get(reports::overdue),
        )
        .route("/j/{j}/unidades", get(units::show).post(units::record))
        // Intercity buses (issue 15): lines and their operation, the
        // carriers' own data and what it shows.
        .route(
            "/j/{j}/permissoes/{servico}/{numero}/frota/{placa}/retirada",
            post(permit_actions::withdraw),
        )
        .route(
            "/j/{j}/pessoas/{documento}/vinculos",
            post(people::declare_ties),
        )
        .route(
            "/j/{j}/pessoas/{documento}/parentes",
            post(people::declare_relatives),
        )
        .route("/j/{j}/linhas", get(bus_lines::list))
        .route("/j/{j}/chamamentos", get(calls::list).post(calls::open))
        .route("/j/{j}/chamamentos/{ano}/{numero}", get(calls::show))
        .route(
            "/j/{j}/chamamentos/{ano}/{numero}/{passo}",
            post(calls::step),
        )
        .route("/j/{j}/pontos", get(stands::list))
        .route("/j/{j}/pontos/designar", post(stands::designate))
        .route("/j/{j}/pontos/perda", post(stands::lose))
        .route("/j/{j}/pontos/notificar", post(stands::notify))
        .route(
            "/j/{j}/pontos/permutas/{ano}/{numero}",
            post(stands::decide_swap),
        )
        .route("/j/{j}/pontos/sorteios", post(stands::open_draw))
        .route(
            "/j/{j}/pontos/sorteios/{ano}/{numero}/{passo}",
            post(stands::draw_step),
        )
        .route(
            "/j/{j}/pontos/sorteios/{ano}/{numero}/recursos/{recurso}",
            post(stands::decide_appeal),
        )
        .route("/j/{j}/linhas/{codigo}", get(bus_lines::show))
        .route("/j/{j}/linhas/{codigo}/operacoes", post(bus_lines::put))
        .route(
            "/j/{j}/linhas/{codigo}/operacoes/{numero}/decisao",
            post(bus_lines::decide),
        )
        .route(
            "/j/{j}/transportadoras/{documento}",
            get(bus_carriers::show),
        )
        .route(
            "/j/{j}/transportadoras/{documento}/arquivos",
            post(bus_carriers::import).layer(axum::extract::DefaultBodyLimit::max(
                outorga_store::MAX_CARRIER_FILE_BYTES + 64 * 1024,
            )),
        )
        .route(
            "/j/{j}/transportadoras/{documento}/constatacoes",
            post(bus_carriers::auto),
        )
        .route(
            "/j/{j}/transportadoras/{documento}/fretamentos",
            post(bus_carriers::charter).layer(axum::extract::DefaultBodyLimit::max(
                bus_carriers::form_with_files(outorga_store::CHARTER_MAX_BYTES),
            )),
        )
        // The register of the carriers authorized (art. 28, § 4º) and a
        // charter's page with its files.
        .route(
            "/j/{j}/transportadoras/{documento}/registro",
            post(bus_carriers::register).layer(axum::extract::DefaultBodyLimit::max(
                bus_carriers::form_with_files(outorga_store::REGISTRATION_MAX_BYTES),
            )),
        )
        .route(
            "/j/{j}/transportadoras/{documento}/registro/{ano}/{numero}/cassacao",
            post(bus_carriers::cancel),
        )
        .route(
            "/j/{j}/transportadoras/{documento}/registro/{ano}/{numero}/arquivos/{arquivo}",
            get(bus_carriers::registration_file),
        )
        .route(
            "/j/{j}/fretamentos/{ano}/{numero}",
            get(bus_carriers::charter_page),
        )
        .route(
            "/j/{j}/fretamentos/{ano}/{numero}/arquivos/{arquivo}",
            get(bus_carriers::charter_file),
        )
        .route(
            "/j/{j}/pagamentos",
            get(payments::show).post(payments::save),
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
        // The administration (issue 12): users and tokens, parameters,
        // the audit log.
        .route("/admin/usuarios", get(admin::users).post(admin::create))
        .route("/admin/usuarios/{nome}", get(admin::show))
        .route("/admin/usuarios/{nome}/senha", post(admin::set_password))
        .route("/admin/usuarios/{nome}/remocao", post(admin::remove))
        .route("/admin/usuarios/{nome}/tokens", post(admin::new_token))
        .route(
            "/admin/usuarios/{nome}/tokens/revogacao",
            post(admin::revoke_token),
        )
        .route(
            "/j/{j}/parametros",
            get(parameters::show).post(parameters::set),
        )
        .route("/auditoria", get(audit::show))
        .route("/auditoria/verificacao", post(audit::verify))
        .route("/j/{j}/importar/{id}", get(import::job))
        .route("/static/{file}", get(assets::serve))
        .layer(axum::Extension(options))
}
