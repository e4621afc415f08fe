//! Stands and public draws on the screens (issue 16), with the demo's
//! records: the panel links Canguçu's stands; the page shows who holds each
//! place today and on a past day, the swap waiting for a decision and the
//! draw; the stand lost for days off the road (art. 36, III) and an appeal
//! against the draw's result, recorded by the clerk and decided by the
//! board, on the page's forms, each refusal naming its field; the draw's
//! public page, without a session, shows the list's SHA-256, the seed's
//! source, each ticket and the order — names abbreviated, CPFs masked — and
//! the recipe and script that recompute it. Santa Maria de Jetibá's page
//! says what its law does not provide (swaps, draws, the stand lost) and
//! offers the notice its law requires before a stand is moved.

use super::*;

async fn stand_screens(url: &str) {
    let router = router_on(url, true).await;
    let admin = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "admin-geral").await)
    );
    let panel = send(&router, get("/painel", &admin)).await;
    assert!(panel.body.contains("/j/cangucu/pontos"), "{}", panel.body);
    assert!(!panel.body.contains("/j/amapa/pontos"));
    let stands = send(&router, get("/j/cangucu/pontos", &admin)).await;
    assert_eq!(stands.status, StatusCode::OK, "{}", stands.body);
    for words in [
        "Praça Dr. Carlos Barbosa",
        "fixo, 3 vagas",
        "Decreto Municipal nº 41/2025",
        "provisório de evento",
        "sorteio de vaga (sorteio nº 1/2026)",
        "Sindicato dos Taxistas de Canguçu",
        "/sorteios/cangucu/2026/1",
    ] {
        assert!(stands.body.contains(words), "{words}: {}", stands.body);
    }
    // Before the draw the square had a place free, the station none.
    let before = send(&router, get("/j/cangucu/pontos?dia=2026-11-01", &admin)).await;
    assert!(
        before.body.contains("Ocupação em 01/11/2026"),
        "{}",
        before.body
    );
    assert!(
        !before.body.contains("sorteio de vaga (sorteio"),
        "{}",
        before.body
    );

    // The clerk decides the demo's swap on the page; a designation without
    // a permit's number is refused naming the field.
    let csrf = stands.csrf();
    let swap = stands
        .body
        .split("/j/cangucu/pontos/permutas/")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the swap's form")
        .to_string();
    let bad = send(
        &router,
        post(
            "/j/cangucu/pontos/designar",
            &admin,
            &format!("servico=taxi&numero=&ponto=RODO&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert!(bad.body.contains("id=\"erro-numero\""), "{}", bad.body);
    let decided = send(
        &router,
        post(
            &format!("/j/cangucu/pontos/permutas/{swap}"),
            &admin,
            &format!("decisao=autorizar&fundamentos=&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(decided.status, StatusCode::SEE_OTHER, "{}", decided.body);
    let after = send(&router, get("/j/cangucu/pontos?feito=permuta", &admin)).await;
    assert!(after.body.contains("Permuta decidida."), "{}", after.body);
    assert!(
        !after.body.contains(&format!("permutas/{swap}")),
        "{}",
        after.body
    );

    // The stand lost for days off the road (art. 36, III): the form names
    // the field it refuses; 90 days keep the stand (II); 121 lose it.
    for words in [
        "Perda do ponto por veículo parado",
        "Art. 36, III",
        "Férias comunicadas previamente",
        "Registrar recurso contra o resultado do sorteio nº 1/2026",
    ] {
        assert!(after.body.contains(words), "{words}: {}", after.body);
    }
    let undated = send(
        &router,
        post(
            "/j/cangucu/pontos/perda",
            &admin,
            &format!("servico=taxi&numero=1&de=&ate=2026-10-29&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(undated.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(undated.body.contains("id=\"erro-de\""), "{}", undated.body);
    let kept = send(
        &router,
        post(
            "/j/cangucu/pontos/perda",
            &admin,
            &format!("servico=taxi&numero=1&de=2026-07-01&ate=2026-09-28&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(kept.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        kept.body.contains("90 dias") && kept.body.contains("Art. 36, II"),
        "{}",
        kept.body
    );
    let lost = send(
        &router,
        post(
            "/j/cangucu/pontos/perda",
            &admin,
            &format!("servico=taxi&numero=1&de=2026-07-01&ate=2026-10-29&motivo=&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(lost.status, StatusCode::SEE_OTHER, "{}", lost.body);
    let without = send(&router, get("/j/cangucu/pontos?feito=perda", &admin)).await;
    assert!(
        without
            .body
            .contains("Ponto fixo retirado pelos dias de veículo parado."),
        "{}",
        without.body
    );
    assert!(
        !without.body.contains("<td>taxi nº 1</td>"),
        "{}",
        without.body
    );

    // An appeal against the draw's result, by a participant: the clerk
    // records it (the refusal names the field), the board decides it.
    let holder = without
        .body
        .split("<td>taxi nº 4</td><td>")
        .nth(1)
        .and_then(|rest| rest.split('<').next())
        .expect("taxi 4's holder")
        .to_string();
    let nameless = send(
        &router,
        post(
            "/j/cangucu/pontos/sorteios/2026/1/recorrer",
            &admin,
            &format!("recorrente=&fundamentos=A+semente+confere%3F&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(nameless.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        nameless.body.contains("id=\"erro-recorrente\""),
        "{}",
        nameless.body
    );
    let appealed = send(
        &router,
        post(
            "/j/cangucu/pontos/sorteios/2026/1/recorrer",
            &admin,
            &format!(
                "recorrente={holder}&fundamentos=A+semente+n%C3%A3o+%C3%A9+a+da+extra%C3%A7%C3%A3o&csrf={csrf}"
            ),
        ),
    )
    .await;
    assert_eq!(appealed.status, StatusCode::SEE_OTHER, "{}", appealed.body);
    let filed = send(&router, get("/j/cangucu/pontos?feito=recurso", &admin)).await;
    for words in [
        "Recurso contra o resultado do sorteio registrado.",
        "A semente não é a da extração",
        "interposto",
        "/j/cangucu/pontos/sorteios/2026/1/recursos/1",
    ] {
        assert!(filed.body.contains(words), "{words}: {}", filed.body);
    }
    let undecided = send(
        &router,
        post(
            "/j/cangucu/pontos/sorteios/2026/1/recursos/1",
            &admin,
            &format!("fundamentos=Confere&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(undecided.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        undecided.body.contains("id=\"erro-decisao\""),
        "{}",
        undecided.body
    );
    let decided = send(
        &router,
        post(
            "/j/cangucu/pontos/sorteios/2026/1/recursos/1",
            &admin,
            &format!(
                "decisao=negar&fundamentos=A+semente+confere+com+a+extra%C3%A7%C3%A3o&csrf={csrf}"
            ),
        ),
    )
    .await;
    assert_eq!(decided.status, StatusCode::SEE_OTHER, "{}", decided.body);
    let denied = send(
        &router,
        get("/j/cangucu/pontos?feito=recurso_decidido", &admin),
    )
    .await;
    for words in [
        "Recurso contra o sorteio decidido.",
        "não provido",
        "A semente confere com a extração (30/11/2026)",
    ] {
        assert!(denied.body.contains(words), "{words}: {}", denied.body);
    }
    assert!(
        !denied
            .body
            .contains("/j/cangucu/pontos/sorteios/2026/1/recursos/1\""),
        "{}",
        denied.body
    );

    // Santa Maria de Jetibá's law has no swap, no draw of a vacancy and no
    // stand lost for days off the road: its page says so.
    let smj = send(&router, get("/j/santa-maria-de-jetiba/pontos", &admin)).await;
    assert_eq!(smj.status, StatusCode::OK, "{}", smj.body);
    for words in [
        "não prevê a permuta de pontos entre titulares",
        "não prevê sorteio de vagas de ponto",
        "não prevê a perda do ponto fixo por veículo parado",
        "Art. 28, § 1º",
    ] {
        assert!(smj.body.contains(words), "{words}: {}", smj.body);
    }
    assert!(!smj.body.contains("Abrir o sorteio"), "{}", smj.body);
    // Its notice before a move: the form, and its refusal naming the field.
    assert!(
        smj.body.contains("Notificar o titular da mudança de ponto"),
        "{}",
        smj.body
    );
    assert!(
        !stands.body.contains("Notificar o titular"),
        "{}",
        stands.body
    );
    let unnumbered = send(
        &router,
        post(
            "/j/santa-maria-de-jetiba/pontos/notificar",
            &admin,
            &format!("servico=taxi&numero=&ponto=X&data=2026-11-30&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(unnumbered.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        unnumbered.body.contains("id=\"erro-numero\""),
        "{}",
        unnumbered.body
    );

    // The public page, no session needed.
    let public = send(&router, get("/sorteios/cangucu/2026/1", "")).await;
    assert_eq!(public.status, StatusCode::OK, "{}", public.body);
    let hash = outorga_core::engine::draw::list_hash(&["taxi-3", "taxi-4", "taxi_acessivel-1"]);
    let ticket = outorga_core::engine::draw::ticket(DEMO_SEED, "taxi-3");
    for words in [
        hash.as_str(),
        ticket.as_str(),
        "Loteria Federal",
        "1º</td><td>taxi-3",
        "***.",
        "import hashlib",
        "/api/public/jurisdictions/cangucu/draws/2026/1",
    ] {
        assert!(public.body.contains(words), "{words}: {}", public.body);
    }
    let missing = send(&router, get("/sorteios/cangucu/2026/99", "")).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

/// The seed the demo's draw was run with.
const DEMO_SEED: &str = "48213 09377 61502 33718 90264";

#[tokio::test]
async fn stand_screens_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    stand_screens(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn stand_screens_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uist_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    stand_screens(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}
