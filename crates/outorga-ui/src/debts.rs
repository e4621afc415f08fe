//! Debts: the list (by debtor, by the day they were issued) with its
//! pages, links to charge a fee (`fees.rs`), to import a bank's return
//! (`returns.rs`) and to download the reports (`reports.rs`); and a debt's
//! page — what paying it (or its next parcel) costs on a day with the
//! surcharge and the articles, its payment slip (`slip.rs`), its plan's
//! parcels and the balance fallen due at once when a parcel was left
//! unpaid too long (`plan.rs`), its payments and its refund
//! (`refunds.rs`) — where a
//! clerk records a payment or splits it into parcels as the law allows.
//! Through `outorga_web::workflows`, as `…/debts/…` does.

use crate::autos::form_error;
use crate::format;
use crate::forms::given;
use crate::forms::{list_status, listed, query_text};
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place, refusal};
use crate::session::{Signed, checked_form};
use crate::{fees, plan, refunds, slip};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use chrono::Datelike;
use outorga_store::{Change, Debt, DebtFilter, Means, Origin, StoreError};
use outorga_web::auth::{Admin, Clerk};
use outorga_web::workflows::{PagamentoEntrada, debt_due, pay_debt, split_debt};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// Debts per page of the list.
const PER_PAGE: u32 = 50;

/// An amount in the law's unit as staff read it (reais as money).
pub(crate) fn amount(quantity: &str, unit: &str) -> String {
    if unit == "BRL" {
        format::money(quantity)
    } else {
        format!("{} {unit}", format::decimal(quantity))
    }
}

/// A debt's number as staff read it: `número/ano-posição`.
pub(crate) fn key_label((year, number, seq): Key) -> String {
    format!("{number}/{year}-{seq}")
}

/// A debt's page, `/j/{j}/debitos/…`.
pub(crate) fn key_path(j: &str, (year, number, seq): Key) -> String {
    format!("/j/{j}/debitos/{year}/{number}/{seq}")
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
            key: key_label((d.year, d.number, d.seq)),
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
    /// Who may charge a fee (where the law has fees) and import a return.
    clerk: bool,
    /// The jurisdiction's law charges fees.
    fees: bool,
    /// The reports' days as the date fields take them: the year's first
    /// day and today.
    year_start: String,
    today: String,
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
            clerk: Clerk::admits(signed.user.role),
            fees: !fees::charged(&place).is_empty(),
            year_start: place
                .today
                .with_ordinal(1)
                .unwrap_or(place.today)
                .to_string(),
            today: place.today.to_string(),
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
    /// The plan's parcels, when split.
    schedule: Vec<plan::Parcel>,
    /// The balance of the plan fallen due at once.
    balance: Option<plan::Balance>,
    /// The refund, for a debt paid.
    refund: Option<refunds::Section>,
    clerk: bool,
    /// Who may record the jurisdiction's agreement and PIX key.
    admin: bool,
    notice: Option<&'static str>,
    /// A form refused just now: (where — a form, or a form's field as
    /// `refunds::error_key` names it —, message).
    error: Option<(&'static str, String)>,
}

impl DebtPage {
    /// The refusal said at `at` (a form, or a form's field).
    fn error_on(&self, at: &str) -> Option<&str> {
        match &self.error {
            Some((key, message)) if *key == at => Some(message.as_str()),
            _ => None,
        }
    }
}

pub(crate) type Key = (i32, i64, i64);

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
            Ok(d) => (Some(d), None),
            Err(error) if error.status.is_server_error() => {
                tracing::error!(erro = %error.body.erro, "a debt's amount could not be worked out");
                return failure();
            }
            Err(error) => (None, Some(form_error(&error).1)),
        }
    };
    let balance = plan::balance(place, &debt, due.as_ref());
    let due = due.map(|d| {
        (
            d.parcel,
            amount(&d.quantity, &d.unit),
            format::decimal(&d.surcharge_percent),
            d.brl.as_deref().map_or_else(
                || "valor da unidade ainda não informado".to_string(),
                format::money,
            ),
            d.articles.join("; "),
        )
    });
    let slip = if debt.settled() {
        None
    } else {
        match slip::section(state, place, key, slip_day).await {
            Ok(section) => Some(section),
            Err(failed) => return failed,
        }
    };
    let clerk = Clerk::admits(signed.user.role);
    let refund = match refunds::section(state, place, &debt, clerk).await {
        Ok(section) => section,
        Err(failed) => return failed,
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
            schedule: plan::parcels(&debt, place.today),
            row: DebtRow::of(&debt),
            due,
            due_refused,
            slip,
            balance,
            refund,
            clerk,
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
        Some("taxa") => Some("Taxa lançada: o débito é do devedor, com a sua guia abaixo."),
        Some("restituicao") => Some("Pedido de restituição registrado."),
        Some("restituida") => Some("Restituição paga registrada."),
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

/// After a payment, a split or a refund's form: the debt's page saying so,
/// or again with the refusal next to the form (or its field).
pub(crate) async fn after<T>(
    (state, signed, place): (&AppState, &Signed, &Place<'_>),
    key: Key,
    form: &'static str,
    done: Result<T, ApiError>,
) -> Response {
    match done {
        Ok(_) => {
            Redirect::to(&format!("{}?feito={form}", key_path(&place.id, key))).into_response()
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a debt could not be changed");
            failure()
        }
        Err(error) => {
            let (field, message) = form_error(&error);
            let at = refunds::error_key(form, &field);
            debt_page(
                state,
                signed,
                place,
                (key, None),
                (error.status, None, Some((at, message))),
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
