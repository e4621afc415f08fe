//! The payment slip (guia de recolhimento) of a debt not settled, on the
//! debt's page: what is due on a day (today, or the one asked for), due
//! that day, with the debt's own number, the linha digitável and the PIX
//! "copia e cola"; the barcode and the PIX QR code are pictures of their
//! own (`…/guia/codigo.svg`, `…/guia/pix.svg`, `outorga_guia`'s SVGs), so
//! the page keeps its policy of nothing inline. Through
//! `outorga_web::workflows::debt_slip`, as `GET …/debts/…/guia`.

use crate::autos::{form_error, form_field};
use crate::format;
use crate::pages::failure;
use crate::place::{Place, place, refusal};
use crate::session::Signed;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use outorga_store::Slip;
use outorga_web::AppState;
use outorga_web::workflows::{debt_slip, reais};
use serde::Deserialize;

/// A slip as the page shows it.
#[derive(Debug)]
pub(crate) struct Shown {
    pub value: String,
    pub due_on: String,
    pub parcel: u32,
    pub own_number: String,
    pub codigo: String,
    pub linha: String,
    pub pix: String,
    /// Its day as the pictures' addresses ask for it (AAAA-MM-DD).
    pub day: String,
}

/// The slip's section of a debt's page.
#[derive(Debug)]
pub(crate) struct Section {
    /// The day asked for, as the form shows it (empty: today).
    pub day: String,
    pub shown: Option<Shown>,
    /// Why there is no slip, in the store's words (what to do).
    pub refused: Option<String>,
    /// Why the day asked for was refused.
    pub day_refused: Option<String>,
}

/// The day a form or a picture's address asks for, if any.
fn asked(day: Option<&str>) -> Option<&str> {
    day.map(str::trim).filter(|d| !d.is_empty())
}

/// The slip section of debt `key` for `day` (none: today); an outage is
/// logged and answered with the failure page.
pub(crate) async fn section(
    state: &AppState,
    place: &Place<'_>,
    key: (i32, i64, i64),
    day: Option<&str>,
) -> Result<Section, Response> {
    let day = asked(day);
    let mut section = Section {
        day: day.unwrap_or_default().to_string(),
        shown: None,
        refused: None,
        day_refused: None,
    };
    match debt_slip(state, &place.id, key, day).await {
        Ok(slip) => {
            section.shown = Some(Shown {
                value: format::money(&reais(slip.cents)),
                due_on: format::day(slip.due_on),
                parcel: slip.due.parcel,
                own_number: slip.own_number,
                codigo: slip.codigo_barras,
                linha: slip.linha_digitavel,
                pix: slip.pix,
                day: slip.due_on.to_string(),
            })
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a slip could not be made");
            return Err(failure());
        }
        Err(error) if form_field(&error) == "data" => {
            section.day_refused = Some(form_error(&error).1);
        }
        Err(error) => section.refused = Some(form_error(&error).1),
    }
    Ok(section)
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Day {
    data: Option<String>,
}

/// The slip's picture `draw` makes, as an SVG image; the refusal page
/// when there is no slip.
async fn picture(
    (state, signed, j): (&AppState, &Signed, &str),
    key: (i32, i64, i64),
    day: &Day,
    draw: fn(&Slip) -> Result<String, outorga_guia::GuiaError>,
) -> Response {
    let place = match place(state, signed, j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let slip = match debt_slip(state, &place.id, key, asked(day.data.as_deref())).await {
        Ok(slip) => slip,
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a slip could not be made");
            return failure();
        }
        Err(error) => {
            return refusal(
                signed,
                error.status,
                "Guia indisponível",
                &form_error(&error).1,
            );
        }
    };
    match draw(&slip) {
        Ok(svg) => (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("image/svg+xml"),
            )],
            svg,
        )
            .into_response(),
        Err(error) => {
            tracing::error!(%error, "a slip's picture could not be drawn");
            failure()
        }
    }
}

/// The barcode (Interleaved 2 of 5) of the slip.
pub(crate) async fn barcode(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Query(day): Query<Day>,
) -> Response {
    picture((&state, &signed, &j), (year, number, seq), &day, |slip| {
        outorga_guia::barcode_svg(&slip.codigo_barras)
    })
    .await
}

/// The PIX QR code of the slip.
pub(crate) async fn pix(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Query(day): Query<Day>,
) -> Response {
    picture((&state, &signed, &j), (year, number, seq), &day, |slip| {
        outorga_guia::qr_svg(&slip.pix)
    })
    .await
}
