//! Charging a fee of the law by hand (`/j/{j}/taxas/nova`), for clerks:
//! the service (only those whose rulebook has fees), the fee — each with
//! its description, amount and article —, the debtor, the permit when
//! one, the months worked (for the reductions the law gives, named in the
//! field's help) and the day. The fee becomes a debt, whose page the clerk
//! is sent to. Through `outorga_web::workflows::charge_fee`, as
//! `POST …/fees` does. A jurisdiction whose law has no fees has no form.

use crate::autos::form_error;
use crate::debts::{amount, key_path};
use crate::forms::Choice;
use crate::pages::{Bar, failure, page};
use crate::place::{Place, place};
use crate::session::{Signed, checked_form, clerk_only};
use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_core::model::{Amount, Fee, FeeEvent, Rulebook, Service};
use outorga_store::Change;
use outorga_web::AppState;
use outorga_web::auth::Clerk;
use outorga_web::workflows::{TaxaEntrada, charge_fee};
use serde::Deserialize;

/// The services of `place` whose rulebook charges fees, with it, in the
/// law's order.
pub(crate) fn charged<'a>(place: &Place<'a>) -> Vec<(Service, &'a Rulebook)> {
    place
        .services()
        .into_iter()
        .filter_map(|s| place.rulebook(s).map(|r| (s, r)))
        .filter(|(_, r)| !r.fees.is_empty())
        .collect()
}

/// An amount of the law as staff read it.
fn law_amount(a: &Amount) -> String {
    amount(&a.quantity.normalize().to_string(), &a.unit)
}

/// When the system charges a fee by itself.
fn event_words(event: FeeEvent) -> &'static str {
    match event {
        FeeEvent::Grant => "na outorga da permissão",
        FeeEvent::SecondCopy => "na emissão de segunda via",
        FeeEvent::AuxiliaryRegistration => "no cadastro de condutor auxiliar novato",
        FeeEvent::StandSwap => "na permuta de pontos fixos autorizada",
    }
}

/// A fee as its option reads: description, amount, article (and when the
/// system charges it by itself).
fn fee_label(fee: &Fee) -> String {
    let mut label = format!(
        "{}: {} ({})",
        fee.description,
        law_amount(&fee.amount.value),
        fee.amount.citation
    );
    if let Some(event) = fee.event {
        label.push_str(&format!("; cobrada pelo sistema {}", event_words(event)));
    }
    label
}

/// The reductions of `fee` by months worked, in words.
fn reductions(fee: &Fee) -> Option<String> {
    let first = fee.reductions.iter().map(|r| r.from_months).min()?;
    let steps: Vec<String> = fee
        .reductions
        .iter()
        .map(|r| {
            let months = match r.to_months {
                Some(to) => format!("de {} a {to} meses", r.from_months),
                None => format!("{} meses ou mais", r.from_months),
            };
            format!(
                "{months}, {} ({})",
                law_amount(&r.amount.value),
                r.amount.citation
            )
        })
        .collect();
    Some(format!(
        "{}: {}; com menos de {first} meses, em branco ou zero, o valor cheio, {}.",
        fee.description,
        steps.join("; "),
        law_amount(&fee.amount.value)
    ))
}

/// The form as sent (or asked for by its address), as text.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Sent {
    #[serde(default)]
    servico: String,
    #[serde(default)]
    taxa: String,
    #[serde(default)]
    devedor: String,
    #[serde(default)]
    permissao: String,
    #[serde(default)]
    meses_trabalhados: String,
    #[serde(default)]
    data: String,
    #[serde(default)]
    csrf: String,
}

#[derive(Template)]
#[template(path = "taxa-nova.html")]
struct FeePage {
    user: Option<Bar>,
    j: String,
    place: String,
    today: String,
    /// The services with fees; none: the law charges none.
    services: Vec<Choice>,
    /// The fees the clerk charges (no event charges them)…
    by_hand: Vec<Choice>,
    /// … and those the system charges at their event.
    by_event: Vec<Choice>,
    /// The reductions by months worked of the service's fees, in words.
    reductions: Vec<String>,
    sent: Sent,
    /// A refusal: (field, message); an empty field: of the whole form.
    error: Option<(String, String)>,
}

/// The fields of the form, where a refusal is said.
const FIELDS: [&str; 6] = [
    "servico",
    "taxa",
    "devedor",
    "permissao",
    "meses_trabalhados",
    "data",
];

impl FeePage {
    fn error_on(&self, field: &str) -> Option<&str> {
        match &self.error {
            Some((f, message)) if f == field => Some(message.as_str()),
            _ => None,
        }
    }

    /// A refusal of no field of the form.
    fn general_error(&self) -> Option<&str> {
        match &self.error {
            Some((f, message)) if !FIELDS.contains(&f.as_str()) => Some(message.as_str()),
            _ => None,
        }
    }
}

fn fee_page(
    signed: &Signed,
    place: &Place<'_>,
    status: StatusCode,
    (sent, error): (Sent, Option<(String, String)>),
) -> Response {
    let charged = charged(place);
    let chosen = charged
        .iter()
        .find(|(s, _)| s.name() == sent.servico.trim())
        .or(charged.first());
    let fees: &[Fee] = chosen.map_or(&[], |(_, r)| r.fees.as_slice());
    let choice = |fee: &Fee| Choice {
        value: fee.kind.clone(),
        label: fee_label(fee),
        chosen: fee.kind == sent.taxa,
    };
    page(
        status,
        &FeePage {
            user: Some(Bar::of(signed)),
            j: place.id.clone(),
            place: place.name.clone(),
            today: crate::format::day(place.today),
            services: charged
                .iter()
                .map(|(s, _)| Choice {
                    value: s.name().to_string(),
                    label: s.portuguese().to_string(),
                    chosen: chosen.is_some_and(|(c, _)| c == s),
                })
                .collect(),
            by_hand: fees
                .iter()
                .filter(|f| f.event.is_none())
                .map(choice)
                .collect(),
            by_event: fees
                .iter()
                .filter(|f| f.event.is_some())
                .map(choice)
                .collect(),
            reductions: fees.iter().filter_map(reductions).collect(),
            sent,
            error,
        },
    )
}

/// The form, for the service its address asks for (`?servico=`; none:
/// the first), with what the address carries.
pub(crate) async fn form(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Query(sent): Query<Sent>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = clerk_only(&signed, "lançar taxas") {
        return *refused;
    }
    fee_page(&signed, &place, StatusCode::OK, (sent, None))
}

/// A number the form asks for, when given: the refusal of its field
/// otherwise.
fn number<T: std::str::FromStr>(text: &str, field: &str) -> Result<Option<T>, (String, String)> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| {
        (
            field.to_string(),
            "Informe um número inteiro, só algarismos.".to_string(),
        )
    })
}

/// The field of the form a refusal of the workflow goes next to: the
/// debtor's document or their absence from the register next to the
/// debtor, a fee the rulebook does not know next to the fee.
fn field_of(named: &str, status: StatusCode) -> &str {
    match named {
        "documento" | "devedor" => "devedor",
        "" if status == StatusCode::NOT_FOUND => "devedor",
        "" => "taxa",
        other => other,
    }
}

pub(crate) async fn charge(
    State(state): State<AppState>,
    signed: Signed,
    Path(j): Path<String>,
    Form(sent): Form<Sent>,
) -> Response {
    let place = match place(&state, &signed, &j) {
        Ok(place) => place,
        Err(refused) => return *refused,
    };
    if let Err(refused) = checked_form(&signed, &sent.csrf, Clerk::admits) {
        return *refused;
    }
    let unprocessable = StatusCode::UNPROCESSABLE_ENTITY;
    if charged(&place).is_empty() {
        let why = "As leis desta jurisdição não cobram taxas.".to_string();
        return fee_page(
            &signed,
            &place,
            unprocessable,
            (sent, Some((String::new(), why))),
        );
    }
    let numbers = number::<i64>(&sent.permissao, "permissao").and_then(|permit| {
        number::<u32>(&sent.meses_trabalhados, "meses_trabalhados").map(|months| (permit, months))
    });
    let (permissao, meses_trabalhados) = match numbers {
        Ok(numbers) => numbers,
        Err(refused) => return fee_page(&signed, &place, unprocessable, (sent, Some(refused))),
    };
    let blank = if sent.taxa.trim().is_empty() {
        Some(("taxa", "Escolha a taxa na lista."))
    } else if sent.devedor.trim().is_empty() {
        Some(("devedor", "Informe o CPF ou o CNPJ de quem paga a taxa."))
    } else {
        None
    };
    if let Some((field, message)) = blank {
        let refused = (field.to_string(), message.to_string());
        return fee_page(&signed, &place, unprocessable, (sent, Some(refused)));
    }
    let input = TaxaEntrada {
        servico: sent.servico.trim().to_string(),
        taxa: sent.taxa.trim().to_string(),
        devedor: sent.devedor.trim().to_string(),
        permissao,
        meses_trabalhados,
        data: Some(sent.data.trim().to_string()).filter(|d| !d.is_empty()),
    };
    let change = Change {
        by: &signed.user.name,
        at: state.clock.now(),
        why: "taxa lançada pela tela",
    };
    match charge_fee(&state, &change, &place.id, &input).await {
        Ok(debt) => Redirect::to(&format!(
            "{}?feito=taxa",
            key_path(&place.id, (debt.year, debt.number, debt.seq))
        ))
        .into_response(),
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "a fee could not be charged");
            failure()
        }
        Err(error) => {
            let message = form_error(&error).1;
            let named = error.body.campo.as_deref().unwrap_or_default();
            let field = field_of(named, error.status).to_string();
            fee_page(
                &signed,
                &place,
                unprocessable,
                (sent, Some((field, message))),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;

    #[test]
    fn a_refusal_goes_next_to_its_field() {
        let bad = StatusCode::UNPROCESSABLE_ENTITY;
        assert_eq!(super::field_of("documento", bad), "devedor");
        assert_eq!(super::field_of("", StatusCode::NOT_FOUND), "devedor");
        assert_eq!(super::field_of("", bad), "taxa");
        assert_eq!(super::field_of("data", bad), "data");
        assert_eq!(super::field_of("servico", bad), "servico");
    }

    #[test]
    fn numbers_are_whole() {
        assert_eq!(super::number::<u32>(" 30 ", "m"), Ok(Some(30)));
        assert_eq!(super::number::<u32>("", "m"), Ok(None));
        assert!(super::number::<u32>("trinta", "m").is_err());
        assert!(super::number::<u32>("-1", "m").is_err());
    }
}
