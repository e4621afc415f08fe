//! The law as the public reads it (`/leis/{j}`): each law of the
//! jurisdiction, its versions with the acts that made them, and every
//! article's words in the version in force on a day (`?data=AAAA-MM-DD`,
//! today when omitted) — the words each decision's citations rest on. A
//! client past its rate of public lookups is answered 429.

use crate::format;
use crate::pages::{ErrorPage, page};
use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use chrono::NaiveDate;
use outorga_core::model::Rulebook;
use outorga_web::AppState;
use outorga_web::limits::PublicLookup;
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub(crate) struct Asked {
    data: Option<String>,
}

/// A version as the page lists it.
#[derive(Debug)]
struct VersionShown {
    label: String,
    /// What the amending act changed.
    summary: Option<String>,
    in_force: bool,
}

/// One law: the services it regulates, its versions, and the articles of
/// the version in force on the day.
#[derive(Debug)]
struct LawShown {
    name: String,
    services: String,
    versions: Vec<VersionShown>,
    /// (anchor, citation, words); none when the day is before the law.
    articles: Vec<(String, String, String)>,
    /// Why no article is shown.
    not_in_force: Option<String>,
}

#[derive(Template)]
#[template(path = "leis.html")]
struct LawPage {
    user: Option<crate::pages::Bar>,
    place: String,
    j: String,
    /// AAAA-MM-DD, for the form.
    day: String,
    day_shown: String,
    laws: Vec<LawShown>,
}

/// A citation as a fragment of the page's address: `Anexo I, Art. 12` →
/// `anexo-i-art-12`.
pub(crate) fn anchor(citation: &str) -> String {
    citation
        .to_lowercase()
        .replace('º', "")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("-")
}

fn law_shown(rulebooks: &[&Rulebook], on: NaiveDate) -> LawShown {
    let law = rulebooks[0];
    let in_force = law.in_force_on(on);
    let services = rulebooks
        .iter()
        .flat_map(|r| r.services.iter().map(|s| s.portuguese()))
        .collect::<Vec<_>>()
        .join(", ");
    LawShown {
        name: format!("{} ({})", law.act.name, law.act.number),
        services,
        versions: law
            .versions()
            .map(|v| VersionShown {
                label: v.version.label(&v.act),
                summary: v.version.amendment.as_ref().map(|a| a.summary.clone()),
                in_force: in_force.as_ref().is_ok_and(|f| std::ptr::eq(*f, v)),
            })
            .collect(),
        articles: in_force
            .as_ref()
            .map(|version| {
                version
                    .text
                    .articles()
                    .map(|(citation, words)| {
                        (anchor(citation), citation.to_string(), words.to_string())
                    })
                    .collect()
            })
            .unwrap_or_default(),
        not_in_force: in_force.err().map(|e| e.to_string()),
    }
}

/// The laws of jurisdiction `j` on the day asked.
pub(crate) async fn show(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(j): Path<String>,
    Query(asked): Query<Asked>,
) -> Response {
    let rulebooks: Vec<&Rulebook> = state
        .library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == j)
        .collect();
    let Some(first) = rulebooks.first() else {
        return page(
            StatusCode::NOT_FOUND,
            &ErrorPage {
                user: None,
                title: "Município ou estado não encontrado",
                message: "Confira o endereço: /leis/ seguido do município, como /leis/cangucu.",
            },
        );
    };
    let today = outorga_web::workflows::today_in(&state, &j);
    let on = match asked
        .data
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
    {
        None => today,
        Some(text) => match NaiveDate::parse_from_str(text, "%Y-%m-%d") {
            Ok(day) => day,
            Err(_) => {
                return page(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &ErrorPage {
                        user: None,
                        title: "Data inválida",
                        message: "Escolha o dia no calendário (ou escreva AAAA-MM-DD, como 2026-01-31).",
                    },
                );
            }
        },
    };
    // Services under the same law (the same act) are shown once.
    let mut groups: Vec<Vec<&Rulebook>> = Vec::new();
    for rulebook in &rulebooks {
        match groups
            .iter_mut()
            .find(|g| g[0].act.number == rulebook.act.number)
        {
            Some(group) => group.push(rulebook),
            None => groups.push(vec![rulebook]),
        }
    }
    page(
        StatusCode::OK,
        &LawPage {
            user: None,
            place: first.jurisdiction.name.clone(),
            j,
            day: on.to_string(),
            day_shown: format::day(on),
            laws: groups.iter().map(|g| law_shown(g, on)).collect(),
        },
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_citation_is_an_anchor() {
        assert_eq!(super::anchor("Anexo I, Art. 12"), "anexo-i-art-12");
        assert_eq!(super::anchor("Art. 2º"), "art-2");
        assert_eq!(super::anchor("Art. 10-A"), "art-10-a");
    }
}
