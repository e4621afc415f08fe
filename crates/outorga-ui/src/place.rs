//! The jurisdiction a page works in (`/j/{j}/…`): known by its rulebooks,
//! and within the signed-in user's scope — otherwise the page says so (404,
//! 403), as the API refuses.

use crate::pages::{Bar, ErrorPage, page};
use crate::session::Signed;
use axum::http::StatusCode;
use axum::response::Response;
use chrono::{NaiveDate, NaiveDateTime};
use outorga_core::model::{Rulebook, Service};
use outorga_web::AppState;

/// A jurisdiction as the pages use it.
#[derive(Debug)]
pub(crate) struct Place<'a> {
    pub id: String,
    pub name: String,
    pub rulebooks: Vec<&'a Rulebook>,
    pub today: NaiveDate,
    /// Now, in the jurisdiction's time.
    pub now: NaiveDateTime,
}

impl<'a> Place<'a> {
    /// The services its rulebooks regulate, in the law's order.
    pub fn services(&self) -> Vec<Service> {
        let mut list: Vec<Service> = Vec::new();
        for service in self.rulebooks.iter().flat_map(|r| r.services.iter()) {
            if !list.contains(service) {
                list.push(*service);
            }
        }
        list
    }

    /// The rulebook of `service`, if the jurisdiction regulates it.
    pub fn rulebook(&self, service: Service) -> Option<&'a Rulebook> {
        self.rulebooks
            .iter()
            .find(|r| r.services.contains(&service))
            .copied()
    }
}

/// The jurisdiction `j`, if the library has its rulebooks.
pub(crate) fn known_place<'a>(state: &'a AppState, j: &str) -> Option<Place<'a>> {
    let rulebooks: Vec<&Rulebook> = state
        .library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == j)
        .collect();
    let first = rulebooks.first()?;
    Some(Place {
        id: j.to_string(),
        name: format!("{} ({})", first.jurisdiction.name, first.jurisdiction.state),
        today: first.jurisdiction.today(state.clock.now()),
        now: first.jurisdiction.local(state.clock.now()),
        rulebooks,
    })
}

/// The jurisdiction `j` for `signed`, or the page that refuses it.
pub(crate) fn place<'a>(
    state: &'a AppState,
    signed: &Signed,
    j: &str,
) -> Result<Place<'a>, Box<Response>> {
    let Some(found) = known_place(state, j) else {
        return Err(Box::new(refusal(
            signed,
            StatusCode::NOT_FOUND,
            "Jurisdição não encontrada",
            "Não há jurisdição com este endereço. Volte ao painel e escolha uma das suas.",
        )));
    };
    if !signed.user.scope.allows(j) {
        return Err(Box::new(refusal(
            signed,
            StatusCode::FORBIDDEN,
            "Sem acesso a esta jurisdição",
            "Seu usuário não tem acesso a esta jurisdição. Peça ao administrador, se precisar.",
        )));
    }
    Ok(found)
}

/// A page that refuses, with the user's bar.
pub(crate) fn refusal(signed: &Signed, status: StatusCode, title: &str, message: &str) -> Response {
    page(
        status,
        &ErrorPage {
            user: Some(Bar::of(signed)),
            title,
            message,
        },
    )
}

/// Every jurisdiction, as the public pages offer them: (id, "Name (UF)").
/// An outage is logged and answered with the failure page.
pub(crate) async fn jurisdiction_choices(
    state: &outorga_web::AppState,
) -> Result<Vec<(String, String)>, axum::response::Response> {
    match state.store.jurisdictions().await {
        Ok(list) => Ok(list
            .into_iter()
            .map(|j| (j.id, format!("{} ({})", j.name, j.state)))
            .collect()),
        Err(error) => {
            tracing::error!(%error, "the jurisdictions could not be read");
            Err(crate::pages::failure())
        }
    }
}
