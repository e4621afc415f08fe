//! `/dados-abertos`: the open-data files of each jurisdiction, with what
//! each column means (the store's `DATASETS`, the dictionary the API
//! publishes as DCAT). The files themselves are the API's public routes
//! (`/api/public/jurisdictions/{j}/open-data/…`), linked from here.

use crate::pages::page;
use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use outorga_store::{DATASETS, Dataset};
use outorga_web::AppState;
use outorga_web::limits::PublicLookup;

#[derive(Template)]
#[template(path = "dados-abertos.html")]
struct OpenDataPage {
    user: Option<crate::pages::Bar>,
    /// (id, name).
    jurisdictions: Vec<(String, String)>,
    datasets: &'static [Dataset],
    license: &'static str,
}

pub(crate) async fn show(_: PublicLookup, State(state): State<AppState>) -> Response {
    let jurisdictions = match crate::place::jurisdiction_choices(&state).await {
        Ok(list) => list,
        Err(failed) => return failed,
    };
    page(
        StatusCode::OK,
        &OpenDataPage {
            user: None,
            jurisdictions,
            datasets: &DATASETS,
            license: outorga_web::workflows::OPEN_DATA_LICENSE,
        },
    )
}
