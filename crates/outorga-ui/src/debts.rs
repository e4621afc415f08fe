//! Debts: the list (by debtor, by the day they were issued) with its
//! pages, and a debt's page — what paying it (or its next parcel) costs on
//! a day with the surcharge and the articles, its payment slip
//! (`slip.rs`), its payments and parcels — where a clerk records a payment
//! or splits it into parcels as the law allows. Through
//! `outorga_web::workflows`, as `…/debts/…` does.

use crate::autos::form_error;
use crate::format;
use crate::forms::{list_status, listed, query_text};
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::session::{Signed, checked_form};
use crate::slip;
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{Change, Debt, DebtFilter, Means, Origin, StoreError};
use outorga_web::auth::{Admin, Clerk};
use outorga_web::workflows::{PagamentoEntrada, debt_due, pay_debt, split_debt};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// Debts per page of the list.
const PER_PAGE: u32 = 50;

/// An amount in the law's unit as staff read it (reais as money).
fn amount(quantity: &str, unit: &str) -> String {
    if unit == "BRL" {
        format::money(quantity)
    } else {
        format!("{} {unit}", format::decimal(quantity))
    }
}

#[derive(Debug)]
struct DebtRow {
    key: String,
    path: String,
    debtor: String,
    debtor_shown: String,
    /// An auto's fine or a fee.
    origin: &'static str,
    /// The debt's own number (slip, PIX, bank's return).
    own_number: String,
    amount: String,
    issued: String,
    due: String,
    parcels: String,
    state: &'static str,
}

impl DebtRow {
    fn of(d: &Debt) -> DebtRow {
        DebtRow {
            key: format!("{}/{}-{}", d.number, d.year, d.seq),
            path: format!("{}/{}/{}", d.year, d.number, d.seq),
            debtor: d.debtor.clone(),
            debtor_shown: format::document(&d.debtor),
            origin: match d.origin {
                Origin::Auto => "auto de infração",
                Origin::Fee => "taxa",
            },
            own_number: d.own_number(),
            amount: amount(&d.quantity, &d.unit),
            issued: format::day(d.issued_on),
            due: format::day(d.due_on),
            parcels: d
                .installments
                .map_or_else(|| "à vista".to_string(), |n| format!("{n} parcelas")),
            state: if d.settled() { "quitado" } else { "em aberto" },
        }
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ListAsked {
    #[serde(default)]
    devedor: String,
    cursor: Option<String>,
}

#[derive(Template)]
#[template(path = "debitos.html")]
struct ListPage {
    user: Option<Bar>,
    j: String,
    place: String,
    debtor: String,
    rows: Vec<DebtRow>,
    next: Option<String>,
    filters: String,
    error: Option<String>,
}

pub(crate) async fn list(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(asked): Query<ListAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let filter = DebtFilter {
        debtor: Some(asked.devedor.trim().to_string()).filter(|d| !d.is_empty()),
        ..DebtFilter::default()
    };
    let found = match listed(
        asked.cursor,
        PER_PAGE,
        async |window| state.store.debts(&place.id, &filter, window).await,
        |d| DebtRow::of(&d),
    )
    .await
    {
        Ok(found) => found,
        Err(failed) => return failed,
    };
    page(
        list_status(&found),
        &ListPage {
            user: Some(Bar::of(&signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            filters: format!("devedor={}", query_text(&asked.devedor)),
            debtor: asked.devedor,
            rows: found.rows,
            next: found.next,
            error: found.error,
        },
    )
}

#[derive(Template)]
#[template(path = "debito.html")]
struct DebtPage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    row: DebtRow,
    /// The auto a fine comes from; none for a fee.
    auto: Option<(i32, i64)>,
    /// What it is for, with its article.
    purpose: String,
    /// (parcel, day, amount, due in reais, received, means, receipt).
    payments: Vec<(u32, String, String, String, String, String, String)>,
    means: Vec<(&'static str, &'static str)>,
    settled: bool,
    split: bool,
    /// What paying costs today: (parcel, amount, surcharge %, reais, articles).
    due: Option<(u32, String, String, String, String)>,
    /// Why it cannot be paid today.
    due_refused: Option<String>,
    /// The payment slip, while the debt is not settled.
    slip: Option<slip::Section>,
    clerk: bool,
    /// Who may record the jurisdiction's agreement and PIX key.
    admin: bool,
    notice: Option<&'static str>,
    /// A payment or a split refused just now: (form, message).
    error: Option<(&'static str, String)>,
}

type Key = (i32, i64, i64);

async fn debt_page(
    state: &AppState,
    signed: &Signed,
    place: &Place<'_>,
    (key, slip_day): (Key, Option<&str>),
    (status, notice, error): (
        StatusCode,
        Option<&'static str>,
        Option<(&'static str, String)>,
    ),
) -> Response {
    let debt = match state.store.debt(&place.id, key).await {
        Ok(debt) => debt,
        Err(StoreError::NotFound(_)) => {
            return refusal(
                signed,
                StatusCode::NOT_FOUND,
                "Débito não encontrado",
                "Não há débito com este número nesta jurisdição.",
            );
        }
        Err(error) => {
            tracing::error!(%error, "a debt could not be read");
            return failure();
        }
    };
    let (due, due_refused) = if debt.settled() {
        (None, None)
    } else {
        match debt_due(state, &place.id, key, None).await {
            Ok(d) => (
                Some((
                    d.parcel,
                    amount(&d.quantity, &d.unit),
                    format::decimal(&d.surcharge_percent),
                    d.brl.as_deref().map_or_else(
                        || "valor da unidade ainda não informado".to_string(),
                        format::money,
                    ),
                    d.articles.join("; "),
                )),
                None,
            ),
            Err(error) if error.status.is_server_error() => {
                tracing::error!(erro = %error.body.erro, "a debt's amount could not be worked out");
                return failure();
            }
            Err(error) => (None, Some(form_error(&error).1)),
        }
    };
    let slip = if debt.settled() {
        None
    } else {
        match slip::section(state, place, key, slip_day).await {
            Ok(section) => Some(section),
            Err(failed) => return failed,
        }
    };
    // A day for the slip that is not a day: the page says so next to it.
    let status = match &slip {
        Some(s) if s.day_refused.is_some() && status == StatusCode::OK => {
            StatusCode::UNPROCESSABLE_ENTITY
        }
        _ => status,
    };
    page(
        status,
        &DebtPage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            today: format::day(place.today),
            auto: (debt.origin == Origin::Auto).then_some((debt.year, debt.number)),
            purpose: match &debt.article {
                Some(article) => format!("{} ({article})", debt.purpose),
                None => debt.purpose.clone(),
            },
            payments: debt
                .payments
                .iter()
                .map(|p| {
                    (
                        p.parcel,
                        format::day(p.paid_on),
                        amount(&p.quantity, &debt.unit),
                        p.brl.as_deref().map_or_else(String::new, format::money),
                        p.cents.map_or_else(String::new, |c| {
                            format::money(&outorga_web::workflows::reais(c))
                        }),
                        p.means.map_or("", |m| m.portuguese()).to_string(),
                        p.receipt.clone().unwrap_or_default(),
                    )
                })
                .collect(),
            means: Means::ALL
                .iter()
                .map(|m| (m.name(), m.portuguese()))
                .collect(),
            settled: debt.settled(),
            split: debt.installments.is_some(),
            row: DebtRow::of(&debt),
            due,
            due_refused,
            slip,
            clerk: Clerk::admits(signed.user.role),
            admin: Admin::admits(signed.user.role),
            notice,
            error,
        },
    )
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct DebtAsked {
    feito: Option<String>,
    /// The day of the slip (none: today).
    data: Option<String>,
}

pub(crate) async fn show(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Query(asked): Query<DebtAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    let notice = match asked.feito.as_deref() {
        Some("pagamento") => Some("Pagamento registrado."),
        Some("parcelamento") => Some("Débito parcelado."),
        _ => None,
    };
    debt_page(
        &state,
        &signed,
        &place,
        ((year, number, seq), asked.data.as_deref()),
        (StatusCode::OK, notice, None),
    )
    .await
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct ActAsked {
    #[serde(default)]
    data: String,
    #[serde(default)]
    meio: String,
    #[serde(default)]
    valor: String,
    #[serde(default)]
    recibo: String,
    #[serde(default)]
    parcelas: String,
    #[serde(default)]
    csrf: String,
}

/// After a payment or a split: the debt's page saying so, or again with
/// the refusal next to the form.
async fn after<T>(
    (state, signed, place): (&AppState, &Signed, &Place<'_>),
    key: Key,
    form: &'static str,
    done: Result<T, ApiError>,
) -> Response {
    match done {
        Ok(_) => Redirect::to(&format!(
            "/j/{}/debitos/{}/{}/{}?feito={form}",
            place.id, key.0, key.1, key.2
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a debt could not be changed");
            failure()
        }
        Err(error) => {
            let message = form_error(&error).1;
            debt_page(
                state,
                signed,
                place,
                (key, None),
                (error.status, None, Some((form, message))),
            )
            .await
        }
    }
}

pub(crate) async fn pay(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(asked): Form<ActAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    let key = (year, number, seq);
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "pagamento pela tela",
    };
    let given = |text: &str| Some(text.trim().to_string()).filter(|t| !t.is_empty());
    let input = PagamentoEntrada {
        data: given(&asked.data),
        meio: given(&asked.meio),
        valor: given(&asked.valor),
        recibo: given(&asked.recibo),
    };
    let done = pay_debt(&state, &change, &place.id, key, &input).await;
    after((&state, &signed, &place), key, "pagamento", done).await
}

pub(crate) async fn split(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(asked): Form<ActAsked>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &asked.csrf, Clerk::admits) {
        return *refused;
    }
    let key = (year, number, seq);
    let Ok(parcels) = asked.parcelas.trim().parse::<u32>() else {
        let message = "Informe o número de parcelas, só algarismos.".to_string();
        return debt_page(
            &state,
            &signed,
            &place,
            (key, None),
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                Some(("parcelamento", message)),
            ),
        )
        .await;
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "parcelamento pela tela",
    };
    let data = Some(asked.data.trim()).filter(|d| !d.is_empty());
    let done = split_debt(&state, &change, &place.id, key, (parcels, data)).await;
    after((&state, &signed, &place), key, "parcelamento", done).await
}
