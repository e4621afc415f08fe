//! Parameters of the path and of the query that cannot be read answer 400 in
//! JSON, in Portuguese, naming the parameter — never axum's English text.

use crate::common::{Answer, App};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};

const J: &str = "/api/jurisdictions/santa-maria-de-jetiba";

/// `answer` is a 400 refusing `campo`, with `motivo` in its reason.
fn refused(answer: &Answer, campo: &str, motivo: &str) {
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{:?}", answer.body);
    assert_eq!(answer.body["campo"], campo, "{:?}", answer.body);
    assert_eq!(answer.text("motivo"), motivo, "{:?}", answer.body);
    assert_eq!(
        answer.text("erro"),
        format!("{campo}: {motivo}"),
        "{:?}",
        answer.body
    );
}

async fn reader(app: &App) -> String {
    app.with_token("leitora", Role::ReadOnly, Scope::All).await
}

#[tokio::test]
async fn a_year_that_is_not_a_number() {
    let app = App::sqlite().await;
    let token = reader(&app).await;
    let answer = app.get(&format!("{J}/autos/abc/1"), &token).await;
    refused(&answer, "ano", "`abc` não é um número inteiro");
    // The second number of the path, by its name too.
    let answer = app.get(&format!("{J}/autos/2026/x1"), &token).await;
    refused(&answer, "numero", "`x1` não é um número inteiro");
    let answer = app.get(&format!("{J}/autos/99999999999/1"), &token).await;
    refused(
        &answer,
        "ano",
        "`99999999999` está fora do intervalo aceito (de -2147483648 a 2147483647)",
    );
    app.finish().await;
}

#[tokio::test]
async fn a_repeated_query_parameter() {
    let app = App::sqlite().await;
    let token = reader(&app).await;
    let answer = app
        .get(&format!("{J}/documents?assunto=a&assunto=b"), &token)
        .await;
    refused(
        &answer,
        "assunto",
        "o parâmetro `assunto` aparece mais de uma vez",
    );
    // Given, it is read.
    let answer = app
        .get(&format!("{J}/documents?assunto=vehicle:ABC1D23"), &token)
        .await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    app.finish().await;
}

#[tokio::test]
async fn a_bad_number_in_the_query() {
    let app = App::sqlite().await;
    let token = reader(&app).await;
    let answer = app.get(&format!("{J}/agenda?dias=abc"), &token).await;
    refused(&answer, "dias", "`abc` não é um número");
    let answer = app.get(&format!("{J}/agenda?dias=-3"), &token).await;
    refused(
        &answer,
        "dias",
        "`-3` não é aceito: o número não pode ser negativo",
    );
    let answer = app
        .get(&format!("{J}/agenda?dias=99999999999"), &token)
        .await;
    refused(
        &answer,
        "dias",
        "`99999999999` é grande demais para este parâmetro",
    );
    let answer = app.get(&format!("{J}/agenda?dias="), &token).await;
    refused(&answer, "dias", "valor vazio: informe um número");
    let answer = app.get(&format!("{J}/agenda?dias=7"), &token).await;
    assert_eq!(answer.status, StatusCode::OK, "{:?}", answer.body);
    app.finish().await;
}

#[tokio::test]
async fn a_plate_that_is_not_utf8() {
    let app = App::sqlite().await;
    // The public check: no credentials needed to reach the path's refusal.
    let answer = app
        .call(
            Method::GET,
            "/api/public/jurisdictions/santa-maria-de-jetiba/vehicles/%FF%FE",
            None,
            None,
        )
        .await;
    refused(
        &answer,
        "placa",
        "o valor não é texto UTF-8 válido (confira os %XX do endereço)",
    );
    app.finish().await;
}
