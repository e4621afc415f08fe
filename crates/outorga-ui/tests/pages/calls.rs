//! Public calls on the screens (issue 16), with the demo's records: the
//! panel links Santa Maria de Jetibá's calls; the demo's call shows its
//! final result with the reserved share applied and its unfilled places
//! released (art. 2º, § 6º); the clerk registers a new edital (its
//! criteria one per line) and an application on the pages, a malformed
//! line refused naming its field and line; the public page, without a
//! session, shows the ranking with names abbreviated and CPFs masked and
//! the script that recomputes it.

use super::*;

const SMJ: &str = "/j/santa-maria-de-jetiba/chamamentos";

async fn call_screens(url: &str) {
    let router = router_on(url, true).await;
    let admin = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "admin-geral").await)
    );
    let panel = send(&router, get("/painel", &admin)).await;
    assert!(panel.body.contains(SMJ), "{}", panel.body);
    let calls = send(&router, get(SMJ, &admin)).await;
    assert_eq!(calls.status, StatusCode::OK, "{}", calls.body);
    assert!(
        calls.body.contains("resultado final publicado"),
        "{}",
        calls.body
    );
    let demo = calls
        .body
        .split(&format!("{SMJ}/"))
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the demo's call")
        .to_string();
    let page = send(&router, get(&format!("{SMJ}/{demo}"), &admin)).await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    for words in [
        "Classificação",
        "vaga reservada (condutores com deficiência)",
        "liberada(s) à ampla concorrência (Art. 2º, § 6º)",
        "inabilitado: CNH categoria B com atividade remunerada",
        "Provido: a certidão é anterior",
        "taxi nº",
    ] {
        assert!(page.body.contains(words), "{words}: {}", page.body);
    }

    // A new edital on the page; a malformed criterion is refused by line.
    let csrf = calls.csrf();
    // The form's first day is the jurisdiction's today.
    let today: chrono::NaiveDate = calls
        .body
        .split("name=\"inscricoes_de\" type=\"date\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|d| d.parse().ok())
        .expect("today on the form");
    let until = today + chrono::Days::new(10);
    let form = |criteria: &str| {
        format!(
            "csrf={csrf}&servico=taxi&ato=Edital+n%C2%BA+2&vagas=2&inscricoes_de={today}&inscricoes_ate={until}&criterios={criteria}&desempate=&documentos=comprovante_residencia+%7C+Item+5"
        )
    };
    let bad = send(&router, post(SMJ, &admin, &form("anos+%7C+Anos"))).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert!(bad.body.contains("id=\"erro-criterios\""), "{}", bad.body);
    assert!(bad.body.contains("linha 1"), "{}", bad.body);
    let opened = send(
        &router,
        post(
            SMJ,
            &admin,
            &form("anos+%7C+Anos+de+CNH+%7C+1+%7C+%7C+Item+7"),
        ),
    )
    .await;
    assert_eq!(opened.status, StatusCode::SEE_OTHER, "{}", opened.body);
    let new = opened.location().to_string();
    let page = send(&router, get(&new, &admin)).await;
    assert!(page.body.contains("Edital registrado"), "{}", page.body);
    assert!(page.body.contains("name=\"q_anos\""), "{}", page.body);
    let base = new.split('?').next().expect("path").to_string();
    let unknown = send(
        &router,
        post(
            &format!("{base}/inscrever"),
            &admin,
            &format!("csrf={csrf}&interessado=11144477735&q_anos=3"),
        ),
    )
    .await;
    assert_eq!(
        unknown.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        unknown.body
    );
    assert!(unknown.body.contains("id=\"erro-"), "{}", unknown.body);
    let early = send(
        &router,
        post(&format!("{base}/triar"), &admin, &format!("csrf={csrf}")),
    )
    .await;
    assert_eq!(
        early.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        early.body
    );
    assert!(
        early.body.contains("a triagem é depois do período"),
        "{}",
        early.body
    );

    // The public page, no session needed.
    let public_path = format!("/chamamentos/santa-maria-de-jetiba/{demo}");
    let public = send(&router, get(&public_path, "")).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.body);
    for words in [
        "Inscritos: <strong>25</strong>",
        "***.",
        "1º</td><td>inscricao-24",
        "import hashlib",
        "/api/public/jurisdictions/santa-maria-de-jetiba/calls/",
        "Inabilitados",
    ] {
        assert!(public.body.contains(words), "{words}: {}", public.body);
    }
    let missing = send(
        &router,
        get("/chamamentos/santa-maria-de-jetiba/2026/99", ""),
    )
    .await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn call_screens_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    call_screens(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn call_screens_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uicl_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    call_screens(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}
