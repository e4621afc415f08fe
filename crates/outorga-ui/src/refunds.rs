//! A debt's refund, on the debt's page: what was paid for it given back
//! when a defense or appeal is upheld after the payment, it was paid twice
//! or assessed wrongly (Teófilo Otoni art. 96, § 3º: within 30 days of the
//! request). A clerk asks it (its ground, the value — all that was paid
//! when blank — and the day) and records it paid back; the page shows the
//! one asked, with the last day the law gives and the law's limit (its
//! length as the deployment's law counts it, and its article). Through
//! `outorga_web::workflows::{request_refund, refund_paid}`, as
//! `POST …/debts/…/refund` and `…/refund/paid` do.

use crate::debts::{Key, after};
use crate::format;
use crate::forms::given;
use crate::pages::failure;
use crate::place::{Place, place};
use crate::session::{Signed, checked_form};
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use outorga_core::calendar::Counting;
use outorga_core::model::{DeadlineKind, LimitUnit};
use outorga_store::{Change, Debt, Refund};
use outorga_web::auth::Clerk;
use outorga_web::workflows::{
    RestituicaoEntrada, reais, refund_grounds, refund_paid, request_refund,
};
use outorga_web::{ApiError, AppState};
use serde::Deserialize;

/// A refund asked, as the page shows it.
#[derive(Debug)]
pub(crate) struct Asked {
    pub requested_on: String,
    pub ground: &'static str,
    pub value: String,
    pub due_by: String,
    /// The limit in words: its days from the request and its article.
    pub limit: String,
    pub refunded_on: Option<String>,
}

impl Asked {
    /// `r` as the page shows it, its limit in the law's words (`length`:
    /// "30 dias", as the law in force counts it; none when the law sets
    /// no limit).
    fn of(r: &Refund, length: Option<String>) -> Asked {
        Asked {
            requested_on: format::day(r.requested_on),
            ground: r.ground.portuguese(),
            value: format::money(&reais(r.cents)),
            due_by: format::day(r.due_by),
            limit: match (&r.article, length) {
                (Some(article), Some(length)) => {
                    format!("prazo de {length} do pedido, {}", lower(article))
                }
                (Some(article), None) => format!("prazo do pedido, {}", lower(article)),
                (None, _) => "a lei não fixa prazo: o dia do pedido".to_string(),
            },
            refunded_on: r.refunded_on.map(format::day),
        }
    }
}

/// The length of the law's limit for a refund asked on `on`, in words
/// ("30 dias", "10 dias úteis"), as the deployment's law counts it; none
/// when the law sets none (or it cannot be read: the article still says
/// it).
async fn limit_length(
    state: &AppState,
    place: &Place<'_>,
    debt: &Debt,
    on: chrono::NaiveDate,
) -> Option<String> {
    let rulebook = place.rulebooks.iter().find(|r| r.id == debt.rulebook)?;
    let rule = rulebook.deadline(DeadlineKind::Refund)?;
    let ctx = match state.store.deployed_law(&place.id, rulebook).await {
        Ok(ctx) => ctx,
        Err(error) => {
            tracing::error!(%error, "the law of a refund could not be read");
            return None;
        }
    };
    let n = ctx.whole(&rule.length, on, "prazo de restituição").ok()?;
    let unit = match rule.unit {
        LimitUnit::Hours => "horas",
        LimitUnit::Counted(Counting::BusinessDays | Counting::BusinessDaysBefore) => "dias úteis",
        LimitUnit::Counted(Counting::CalendarDays | Counting::CalendarDaysFromNextBusinessDay) => {
            "dias"
        }
        LimitUnit::Counted(Counting::Months) => "meses",
        LimitUnit::Counted(Counting::Years) => "anos",
    };
    Some(format!("{n} {unit}"))
}

/// An article as a sentence cites it after a comma ("art. 96, § 3º").
fn lower(article: &str) -> String {
    match article.strip_prefix("Art.") {
        Some(rest) => format!("art.{rest}"),
        None => article.to_string(),
    }
}

/// The refund section of a debt's page.
#[derive(Debug)]
pub(crate) struct Section {
    pub asked: Option<Asked>,
    /// The grounds a refund is asked on: (the form's word, in Portuguese).
    pub grounds: Vec<(String, &'static str)>,
    /// All that was paid for the debt, in reais: what a blank value gives
    /// back.
    pub paid: String,
}

/// The refund section of `debt` for a page whose reader `clerk` may (or
/// may not) ask one: none for a debt with no payment with its value, or
/// with no refund for one who may not ask it. An outage is logged and
/// answered with the failure page.
pub(crate) async fn section(
    state: &AppState,
    place: &Place<'_>,
    debt: &Debt,
    clerk: bool,
) -> Result<Option<Section>, Response> {
    let paid: i64 = debt.payments.iter().filter_map(|p| p.cents).sum();
    if paid == 0 {
        return Ok(None);
    }
    let key = (debt.year, debt.number, debt.seq);
    let asked = match state.store.refund(&place.id, key).await {
        Ok(asked) => asked,
        Err(error) => {
            tracing::error!(%error, "a refund could not be read");
            return Err(failure());
        }
    };
    if asked.is_none() && !clerk {
        return Ok(None);
    }
    let asked = match asked {
        Some(r) => {
            let length = limit_length(state, place, debt, r.requested_on).await;
            Some(Asked::of(&r, length))
        }
        None => None,
    };
    Ok(Some(Section {
        asked,
        grounds: refund_grounds(),
        paid: format::money(&reais(paid)),
    }))
}

/// Where a refusal of form `form` goes on the debt's page: next to the
/// refund form's field it names, or atop its form.
pub(crate) fn error_key(form: &'static str, field: &str) -> &'static str {
    match (form, field) {
        ("restituicao", "motivo") => "restituicao.motivo",
        ("restituicao", "valor") => "restituicao.valor",
        ("restituicao", "data") => "restituicao.data",
        ("restituida", "data") => "restituida.data",
        _ => form,
    }
}

#[derive(Debug, Default, Deserialize)]
pub(crate) struct Sent {
    #[serde(default)]
    motivo: String,
    #[serde(default)]
    valor: String,
    #[serde(default)]
    data: String,
    #[serde(default)]
    csrf: String,
}

/// Asks the refund of what was paid for the debt.
pub(crate) async fn ask(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(sent): Form<Sent>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &sent.csrf, Clerk::admits) {
        return *refused;
    }
    let key: Key = (year, number, seq);
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "restituição pedida pela tela",
    };
    let input = RestituicaoEntrada {
        motivo: sent.motivo.clone(),
        valor: given(&sent.valor),
        data: given(&sent.data),
    };
    let done = if input.motivo.trim().is_empty() {
        Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "motivo",
            "Escolha o motivo da restituição.",
        ))
    } else {
        request_refund(&state, &change, &place.id, key, &input).await
    };
    after((&state, &signed, &place), key, "restituicao", done).await
}

/// Records the refund paid back.
pub(crate) async fn paid(
    State(state): State<AppState>,
    signed: Signed,
    Path((j, year, number, seq)): Path<(String, i32, i64, i64)>,
    Form(sent): Form<Sent>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &sent.csrf, Clerk::admits) {
        return *refused;
    }
    let key: Key = (year, number, seq);
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "restituição paga, pela tela",
    };
    let day = given(&sent.data);
    let done = refund_paid(&state, &change, &place.id, key, day.as_deref()).await;
    after((&state, &signed, &place), key, "restituida", done).await
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_refusal_goes_next_to_its_field() {
        assert_eq!(
            super::error_key("restituicao", "valor"),
            "restituicao.valor"
        );
        assert_eq!(super::error_key("restituicao", "debito"), "restituicao");
        assert_eq!(super::error_key("restituida", "restituicao"), "restituida");
        assert_eq!(super::error_key("pagamento", "valor"), "pagamento");
    }

    #[test]
    fn an_article_is_cited_within_a_sentence() {
        assert_eq!(super::lower("Art. 96, § 3º"), "art. 96, § 3º");
        assert_eq!(super::lower("Anexo I"), "Anexo I");
    }
}
