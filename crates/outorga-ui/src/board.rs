//! The board's queue: the autos awaiting a judgement (notified) or the
//! decision of an appeal (appealed), a page at a time — each page one
//! range of the index of autos by status, so its cost does not grow with
//! the autos. The auto's page says what the law admits today and decides.

use crate::autos::{AutoRow, autos_page};
use crate::forms::list_status;
use crate::pages::{Bar, page};
use crate::place::place;
use crate::session::Signed;
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::response::Response;
use outorga_core::engine::process::Status;
use outorga_store::AutoFilter;
use outorga_web::AppState;
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
pub(crate) struct QueueAsked {
    /// `julgamento` (the default) or `recurso`.
    #[serde(default)]
    fila: String,
    cursor: Option<String>,
}

#[derive(Template)]
#[template(path = "junta.html")]
struct QueuePage {
    user: Option<Bar>,
    j: String,
    place: String,
    appeals: bool,
    rows: Vec<AutoRow>,
    next: Option<String>,
    error: Option<String>,
}

pub(crate) async fn queue(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<QueueAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let appeals = asked.fila == "recurso";
    let status = if appeals {
        Status::Appealed
    } else {
        Status::Notified
    };
    let filter = AutoFilter {
        status: Some(status.name().to_string()),
        ..AutoFilter::default()
    };
    let found = match autos_page(&state, &place, &filter, asked.cursor).await {
        Ok(found) => found,
        Err(failed) => return failed,
    };
    page(
        list_status(&found),
        &QueuePage {
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            appeals,
            rows: found.rows,
            next: found.next,
            error: found.error,
        },
    )
}
