//! A public call in the holder's own space: `/titular/chamamentos/{j}/{ano}/{numero}`
//! — while its applications are open, the person signed in applies online
//! (what they show for each criterion, the edital's documents, the share
//! they claim and its conditions), the same `apply_to_call` the clerk's
//! page and the API run; afterwards, their application as the call stands:
//! the screening, the position, the place and the permit.

use crate::calls::{FormFields, ShareRow, call_form_fields};
use crate::format;
use crate::pages::{failure, page};
use crate::place::known_place;
use crate::titular::{Citizen, CitizenBar, refusal};
use askama::Template;
use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use outorga_store::{ApplicationInput, CallStatus, Change};
use outorga_web::AppState;
use outorga_web::workflows::{call_shown, rulebook_of_call};

#[derive(Template)]
#[template(path = "titular-chamamento.html")]
struct CallPage {
    bar: CitizenBar,
    j: String,
    place: String,
    label: String,
    year: i32,
    number: i64,
    act: String,
    period: String,
    status: String,
    open: bool,
    inputs: Vec<(String, String)>,
    documents: Vec<(String, String)>,
    shares: Vec<ShareRow>,
    /// Their application, as the call stands: (what, value).
    mine: Vec<(String, String)>,
    error: Option<String>,
}

/// The call as the person signed in sees it, with their application.
pub(crate) async fn show(
    State(state): State<AppState>,
    citizen: Citizen,
    Path((j, year, number)): Path<(String, i32, i64)>,
) -> Response {
    call_page(&state, &citizen, (&j, (year, number)), None).await
}

async fn call_page(
    state: &AppState,
    citizen: &Citizen,
    (j, key): (&str, (i32, i64)),
    error: Option<String>,
) -> Response {
    let Some(place) = known_place(state, j) else {
        return missing(citizen);
    };
    let found = async {
        let call = state.store.call(j, key).await?;
        let rulebook = rulebook_of_call(state, j, key).await?;
        Ok::<_, outorga_web::ApiError>((call, rulebook))
    }
    .await;
    let (call, rulebook) = match found {
        Ok(found) => found,
        Err(error) if error.status == StatusCode::NOT_FOUND => return missing(citizen),
        Err(error) => {
            tracing::error!(erro = %error.body.erro, "a call could not be read");
            return failure();
        }
    };
    let FormFields {
        inputs,
        documents,
        shares,
    } = call_form_fields(&call, rulebook);
    let mine = call
        .applications
        .iter()
        .find(|a| a.who == citizen.document)
        .map(|a| {
            let mut facts = vec![
                ("Inscrição".to_string(), a.label.clone()),
                ("Inscrito em".into(), format::day(a.applied_on)),
            ];
            if let Some(s) = &a.screening {
                facts.push((
                    "Triagem".into(),
                    if s.eligible {
                        format!("habilitado, {} pontos", s.score.normalize())
                    } else {
                        let why: Vec<String> = s
                            .unmet
                            .iter()
                            .chain(&s.not_shown)
                            .map(|m| format!("{} ({})", m.description, m.articles.join("; ")))
                            .collect();
                        format!("inabilitado: {}", why.join("; "))
                    },
                ));
            }
            if let Some(p) = a.position {
                facts.push(("Classificação".into(), format!("{p}º")));
            }
            if let Some(p) = &a.place {
                facts.push(("Vaga".into(), p.portuguese()));
            }
            if let Some((service, number)) = &a.permit {
                facts.push((
                    "Permissão".into(),
                    format!("{} nº {number}", service.replace('_', " ")),
                ));
            }
            facts
        })
        .unwrap_or_default();
    let today = place.today;
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    page(
        status,
        &CallPage {
            bar: CitizenBar::of(citizen),
            j: j.to_string(),
            place: place.name.clone(),
            label: call.label(),
            year: call.year,
            number: call.number,
            act: call.act.clone(),
            period: format!(
                "de {} a {}",
                format::day(call.opens_on),
                format::day(call.closes_on)
            ),
            status: call.status.portuguese().to_string(),
            open: call.status == CallStatus::Open
                && (call.opens_on..=call.closes_on).contains(&today)
                && mine.is_empty(),
            inputs,
            documents,
            shares,
            mine,
            error,
        },
    )
}

fn missing(citizen: &Citizen) -> Response {
    refusal(
        citizen,
        StatusCode::NOT_FOUND,
        "Chamamento não encontrado",
        "Confira o endereço publicado com o edital: o município, o ano e o número.",
    )
}

/// Applies online as the person signed in.
pub(crate) async fn apply(
    State(state): State<AppState>,
    citizen: Citizen,
    _: outorga_web::limits::PublicFiling,
    Path((j, year, number)): Path<(String, i32, i64)>,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let csrf = form
        .iter()
        .find(|(k, _)| k == "csrf")
        .map_or("", |(_, v)| v.as_str());
    if let Err(refused) = citizen.checked_form(csrf) {
        return *refused;
    }
    let Some(place) = known_place(&state, &j) else {
        return missing(&citizen);
    };
    let key = (year, number);
    let by = format!("titular {}", citizen.document);
    let change = Change {
        by: &by,
        at: place.now,
        why: "inscrição em chamamento pelo espaço do titular",
    };
    let done = async {
        let rulebook = rulebook_of_call(&state, &j, key).await?;
        let input = ApplicationInput {
            who: citizen.document.clone(),
            shown: call_shown(&crate::calls::mostrado_of(&form))?,
        };
        state
            .store
            .apply_to_call(&change, rulebook, &j, key, &input)
            .await?;
        Ok::<_, outorga_web::ApiError>(())
    }
    .await;
    match done {
        Ok(()) => {
            Redirect::to(&format!("/titular/chamamentos/{j}/{year}/{number}")).into_response()
        }
        Err(error) if error.status.is_server_error() => {
            tracing::error!(erro = %error.body.erro, "an online application could not be recorded");
            failure()
        }
        Err(error) if error.status == StatusCode::NOT_FOUND => missing(&citizen),
        Err(error) => call_page(&state, &citizen, (&j, key), Some(error.body.erro)).await,
    }
}
