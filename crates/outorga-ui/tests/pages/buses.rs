//! Intercity buses on the screens (issue 15), with the demo's records: the
//! panel links the lines; a line's page shows the operation of a past day
//! and the carrier's request, decided there; the carrier's page shows last
//! month's findings with their articles, reports the demo's ticket file as
//! already imported, and makes a finding an auto whose page follows.

use super::*;

async fn bus_screens(url: &str) {
    let router = router_on(url, true).await;
    let admin = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "admin-geral").await)
    );
    let panel = send(&router, get("/painel", &admin)).await;
    assert!(panel.body.contains("/j/amapa/linhas"), "{}", panel.body);
    assert!(!panel.body.contains("/j/cangucu/linhas"));
    let csrf = panel.csrf();
    let lines = send(&router, get("/j/amapa/linhas", &admin)).await;
    assert_eq!(lines.status, StatusCode::OK);
    assert!(
        lines.body.contains("/j/amapa/linhas/AP-101"),
        "{}",
        lines.body
    );
    assert!(
        lines
            .body
            .contains("Macapá – Porto Grande – Ferreira Gomes")
    );
    // The operation of a past day, and the carrier's request awaiting a decision.
    let line = send(
        &router,
        get("/j/amapa/linhas/AP-101?data=2026-10-01", &admin),
    )
    .await;
    assert_eq!(line.status, StatusCode::OK, "{}", line.body);
    assert!(
        line.body.contains("Operação em vigor em 01/10/2026"),
        "{}",
        line.body
    );
    assert!(
        line.body.contains("18 (frequência mínima: 15, art. 13, V)"),
        "{}",
        line.body
    );
    assert!(
        line.body.contains("<strong>requerida</strong>"),
        "{}",
        line.body
    );
    let seq = line
        .body
        .split("/operacoes/")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .expect("a request's form")
        .to_string();
    let decide = |form: String| {
        let (router, admin, seq) = (router.clone(), admin.clone(), seq.clone());
        async move {
            send(
                &router,
                post(
                    &format!("/j/amapa/linhas/AP-101/operacoes/{seq}/decisao"),
                    &admin,
                    &form,
                ),
            )
            .await
        }
    };
    let refused = decide(format!(
        "csrf={csrf}&decisao=recusar&data=2026-11-30&ato=Of%C3%ADcio+1"
    ))
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(refused.body.contains("diga por que"), "{}", refused.body);
    let approved = decide(format!(
        "csrf={csrf}&decisao=aprovar&data=2026-11-30&ato=Portaria+7"
    ))
    .await;
    assert_eq!(approved.status, StatusCode::SEE_OTHER, "{}", approved.body);
    let after = send(&router, get(approved.location(), &admin)).await;
    assert!(after.body.contains("Decisão registrada."), "{}", after.body);
    assert!(
        after.body.contains("19 (frequência mínima: 15"),
        "{}",
        after.body
    );

    // The delegation's fleet: both buses today, only the first before the
    // second came in (100 days ago); one withdrawn leaves the fleet.
    let dossier = send(&router, get("/j/amapa/permissoes/onibus/1", &admin)).await;
    assert_eq!(dossier.status, StatusCode::OK, "{}", dossier.body);
    assert!(
        dossier.body.contains("Frota em 30/11/2026"),
        "{}",
        dossier.body
    );
    assert!(
        dossier
            .body
            .contains("2 ônibus, 90 poltronas (Art. 13, II)"),
        "{}",
        dossier.body
    );
    assert!(
        dossier.body.contains("Incluir ônibus na frota"),
        "{}",
        dossier.body
    );
    let before = send(
        &router,
        get("/j/amapa/permissoes/onibus/1?data=2026-08-01", &admin),
    )
    .await;
    assert!(
        before.body.contains("1 ônibus, 44 poltronas"),
        "{}",
        before.body
    );
    let second = dossier
        .body
        .split("/frota/")
        .nth(2)
        .and_then(|rest| rest.split('/').next())
        .expect("the second bus")
        .to_string();
    let out = send(
        &router,
        post(
            &format!("/j/amapa/permissoes/onibus/1/frota/{second}/retirada"),
            &admin,
            &format!("csrf={csrf}&data=2026-11-30"),
        ),
    )
    .await;
    assert_eq!(out.status, StatusCode::SEE_OTHER, "{}", out.body);
    let after = send(&router, get(out.location(), &admin)).await;
    assert!(
        after.body.contains("Ônibus retirado da frota"),
        "{}",
        after.body
    );
    assert!(
        after.body.contains("1 ônibus, 44 poltronas"),
        "{}",
        after.body
    );

    // The public page: the line's schedule in force today, without signing in.
    let public = send(&router, get("/tarifas/amapa", "")).await;
    assert_eq!(public.status, StatusCode::OK);
    assert!(
        public.body.contains("Horários de partida em vigor hoje"),
        "{}",
        public.body
    );
    assert!(
        public.body.contains("06:00, 14:00, 18:00"),
        "{}",
        public.body
    );

    // The carrier's page: its person page links it; last month's findings.
    let (carrier, _) = outorga_store::DEMO_CARRIER;
    let person = send(&router, get(&format!("/j/amapa/pessoas/{carrier}"), &admin)).await;
    assert!(
        person
            .body
            .contains(&format!("/j/amapa/transportadoras/{carrier}"))
    );
    assert!(
        person
            .body
            .contains("Sócios, diretores e grupo empresarial (art. 9º)"),
        "{}",
        person.body
    );
    assert!(
        person.body.contains("Ainda não declarados."),
        "{}",
        person.body
    );
    let ties = format!("/j/amapa/pessoas/{carrier}/vinculos");
    let bad = send(
        &router,
        post(
            &ties,
            &admin,
            &format!("csrf={csrf}&socios=52998224725%3Bmetade&ato=Contrato"),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert!(bad.body.contains("participacao"), "{}", bad.body);
    let holder = outorga_store::DEMO_CARRIER.0;
    let declared = send(
        &router,
        post(
            &ties,
            &admin,
            &format!(
                "csrf={csrf}&socios=&diretores=&grupo=Grupo+Tucuju&ato=Contrato+social+de+{holder}"
            ),
        ),
    )
    .await;
    assert_eq!(declared.status, StatusCode::SEE_OTHER, "{}", declared.body);
    let shown = send(&router, get(declared.location(), &admin)).await;
    assert!(shown.body.contains("Grupo Tucuju"), "{}", shown.body);
    assert!(
        shown
            .body
            .contains("Sócios, diretores e grupo registrados."),
        "{}",
        shown.body
    );
    // A person's relatives (art. 9º, III): none declared, then declared none.
    let someone = "52998224725";
    let registered = send(
        &router,
        post(
            "/j/amapa/pessoas",
            &admin,
            &format!("csrf={csrf}&documento={someone}&nome=Ana+S%C3%B3cia"),
        ),
    )
    .await;
    assert_eq!(
        registered.status,
        StatusCode::SEE_OTHER,
        "{}",
        registered.body
    );
    let before = send(&router, get(&format!("/j/amapa/pessoas/{someone}"), &admin)).await;
    assert!(
        before
            .body
            .contains("Cônjuge e parentes até o terceiro grau"),
        "{}",
        before.body
    );
    assert!(
        before.body.contains("Ainda não declarados."),
        "{}",
        before.body
    );
    let none = send(
        &router,
        post(
            &format!("/j/amapa/pessoas/{someone}/parentes"),
            &admin,
            &format!("csrf={csrf}&parentes=&ato=Declara%C3%A7%C3%A3o+de+parentesco"),
        ),
    )
    .await;
    assert_eq!(none.status, StatusCode::SEE_OTHER, "{}", none.body);
    let after = send(&router, get(none.location(), &admin)).await;
    assert!(
        after.body.contains("Declarou não ter parentes"),
        "{}",
        after.body
    );
    let page = send(
        &router,
        get(&format!("/j/amapa/transportadoras/{carrier}"), &admin),
    )
    .await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.body);
    for expected in [
        "Mês 10/2026",
        "poltrona vendida duas vezes",
        "Infração 61-IV-b (Art. 22, V)",
        "passageiros além das poltronas",
        "abaixo da frequência mínima",
        "bilhete sem as indicações da lei",
        "Lavrar o auto",
        "estatisticas-2026-10.csv",
    ] {
        assert!(page.body.contains(expected), "{expected}: {}", page.body);
    }
    // The demo's ticket file again: reported, nothing added.
    let first = outorga_store::last_month(Fixed.now().date());
    let (name, body) = outorga_store::demo_ticket_file(first);
    let again = send(
        &router,
        multipart(
            &format!("/j/amapa/transportadoras/{carrier}/arquivos"),
            &admin,
            &[("csrf", &csrf), ("tipo", "tickets_csv"), ("mes", "2026-10")],
            (&name, body.as_bytes()),
        ),
    )
    .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert!(
        again.body.contains("já tinha sido importado"),
        "{}",
        again.body
    );
    // A file with a bad row: the row is named by its line.
    let bad = send(
        &router,
        multipart(
            &format!("/j/amapa/transportadoras/{carrier}/arquivos"),
            &admin,
            &[("csrf", &csrf), ("tipo", "tickets_csv"), ("mes", "2026-10")],
            ("extra.csv", b"numero;linha;partida;poltrona\n9001;AP-101;2026-10-05 06:00;3\n9002;AP-999;2026-10-05 06:00;4\n"),
        ),
    )
    .await;
    assert_eq!(bad.status, StatusCode::OK, "{}", bad.body);
    assert!(bad.body.contains("extra.csv:3"), "{}", bad.body);
    assert!(
        bad.body.contains("a linha AP-999 não está cadastrada"),
        "{}",
        bad.body
    );
    // A finding made an auto: the auto's page follows, and the finding links it.
    let key = page
        .body
        .split("name=\"chave\" value=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a finding's key")
        .to_string();
    let made = send(
        &router,
        post(
            &format!("/j/amapa/transportadoras/{carrier}/constatacoes"),
            &admin,
            &format!("csrf={csrf}&mes=2026-10&chave={}", key.replace(':', "%3A")),
        ),
    )
    .await;
    assert_eq!(made.status, StatusCode::SEE_OTHER, "{}", made.body);
    assert!(
        made.location().starts_with("/j/amapa/autos/2026/"),
        "{}",
        made.location()
    );
    let auto = send(&router, get(made.location(), &admin)).await;
    assert_eq!(auto.status, StatusCode::OK);
    assert!(auto.body.contains("61-IV-b"), "{}", auto.body);
    let again = send(
        &router,
        get(&format!("/j/amapa/transportadoras/{carrier}"), &admin),
    )
    .await;
    assert!(again.body.contains(made.location()), "{}", again.body);

    // A charter asked on the carrier's page: the demo's is listed; more
    // passengers than the bus's 46 seats is refused with art. 31; 40 are
    // authorized, and the page lists it with its paper.
    assert!(
        again.body.contains("fretamento eventual ou turístico"),
        "{}",
        again.body
    );
    let plate = again
        .body
        .split("fretamento eventual ou turístico</td><td>")
        .nth(1)
        .and_then(|rest| rest.split("</td><td>").nth(2))
        .expect("the demo charter's bus")
        .to_string();
    let passengers = |n: usize| {
        (1..=n)
            .map(|i| format!("Passageiro {i};"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let path = format!("/j/amapa/transportadoras/{carrier}/fretamentos");
    let pdf: &[u8] = b"%PDF-1.4\n%%EOF\n";
    let ask = |n: usize, files: &[(&str, &str, &[u8])]| {
        let list = passengers(n);
        multipart_files(
            &path,
            &admin,
            &[
                ("csrf", &csrf),
                ("tipo", "eventual"),
                ("de", "2026-12-20"),
                ("ate", "2026-12-21"),
                ("origem", "Macapá"),
                ("destino", "Oiapoque"),
                ("retorno", "Macapá"),
                ("placa", &plate),
                ("contratante", "Clube"),
                ("passageiros", &list),
            ],
            files,
        )
    };
    let over = send(&router, ask(47, &[("anexo_invoice", "nf.pdf", pdf)])).await;
    assert_eq!(
        over.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        over.body
    );
    assert!(
        over.body
            .contains("47 passageiros na lista para 46 poltronas"),
        "{}",
        over.body
    );
    assert!(over.body.contains("Art. 31"), "{}", over.body);
    // A file that is no PDF, JPEG nor PNG: refused, naming it.
    let bad = send(
        &router,
        ask(40, &[("anexo_invoice", "nf.exe", b"MZ\x90\0")]),
    )
    .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", bad.body);
    assert!(bad.body.contains("`nf.exe` não é PDF"), "{}", bad.body);
    // The invoice attached: authorized, listed, its page shows the file.
    let done = send(&router, ask(40, &[("anexo_invoice", "nf.pdf", pdf)])).await;
    assert_eq!(done.status, StatusCode::SEE_OTHER, "{}", done.body);
    let listed = send(&router, get(done.location(), &admin)).await;
    assert!(
        listed.body.contains("Autorização nº 2/2026 emitida"),
        "{}",
        listed.body
    );
    assert!(
        listed.body.contains("20/12/2026 a 21/12/2026"),
        "{}",
        listed.body
    );
    let charter = send(&router, get("/j/amapa/fretamentos/2026/2", &admin)).await;
    assert_eq!(charter.status, StatusCode::OK, "{}", charter.body);
    for expected in ["nº 1/2026", "nota fiscal", "nf.pdf"] {
        assert!(
            charter.body.contains(expected),
            "{expected}: {}",
            charter.body
        );
    }
    let file = send(
        &router,
        get("/j/amapa/fretamentos/2026/2/arquivos/1", &admin),
    )
    .await;
    assert_eq!(file.status, StatusCode::OK);
    assert!(file.body.starts_with("%PDF"), "{}", file.body);

    // The carrier's registration (art. 28, § 4º): the demo's in force with
    // its two documents, one downloaded; a renewal with a document; a file
    // that is no PDF refused; the cancellation.
    let page = send(
        &router,
        get(&format!("/j/amapa/transportadoras/{carrier}"), &admin),
    )
    .await;
    for expected in [
        "Registro cadastral",
        "Registro nº 1/2026 — em vigor",
        "contrato-social.pdf",
        "apólice de seguro",
        "Art. 64, IV",
    ] {
        assert!(page.body.contains(expected), "{expected}: {}", page.body);
    }
    let document = send(
        &router,
        get(
            &format!("/j/amapa/transportadoras/{carrier}/registro/2026/1/arquivos/1"),
            &admin,
        ),
    )
    .await;
    assert_eq!(document.status, StatusCode::OK);
    assert!(document.body.starts_with("%PDF"));
    let register = format!("/j/amapa/transportadoras/{carrier}/registro");
    let refused = send(
        &router,
        multipart_files(
            &register,
            &admin,
            &[("csrf", &csrf)],
            &[("documento_cnpj_card", "cartao.txt", b"texto")],
        ),
    )
    .await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.body.contains("`cartao.txt` não é PDF"),
        "{}",
        refused.body
    );
    let renewed = send(
        &router,
        multipart_files(
            &register,
            &admin,
            &[("csrf", &csrf)],
            &[("documento_cnpj_card", "cartao.pdf", pdf)],
        ),
    )
    .await;
    assert_eq!(renewed.status, StatusCode::SEE_OTHER, "{}", renewed.body);
    let after = send(&router, get(renewed.location(), &admin)).await;
    for expected in [
        "Registro cadastral nº 2/2026 gravado",
        "— a vigorar",
        "o registro nº 1/2026",
    ] {
        assert!(after.body.contains(expected), "{expected}: {}", after.body);
    }
    let cancelled = send(
        &router,
        post(
            &format!("/j/amapa/transportadoras/{carrier}/registro/2026/1/cassacao"),
            &admin,
            &format!("csrf={csrf}&motivo=Autoriza%C3%A7%C3%A3o+usada+em+linha+regular"),
        ),
    )
    .await;
    assert_eq!(
        cancelled.status,
        StatusCode::SEE_OTHER,
        "{}",
        cancelled.body
    );
    let after = send(&router, get(cancelled.location(), &admin)).await;
    assert!(
        after.body.contains("Registro nº 1/2026 — cassado em"),
        "{}",
        after.body
    );
    assert!(
        after.body.contains("Registro nº 2/2026 — cassado em"),
        "{}",
        after.body
    );
}

#[tokio::test]
async fn bus_screens_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    bus_screens(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn bus_screens_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uib_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    bus_screens(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}

/// A passenger's complaint about a trip from the public form: the law's
/// answer on the protocol page (excess baggage: 0,5 % of the fare per
/// kilogram over the franchise, art. 49, § único), a missing fact refused
/// next to its field. The demo's seized bus: listed among the vehicles
/// held, its custody on the auto's page with what its release lacks; its
/// expense paid there; the release still refused before the 72 hours.
async fn passengers_and_custody(url: &str) {
    let router = router_on(url, true).await;
    let form = |fields: &str| {
        format!(
            "jurisdicao=amapa&quando=2026-11-20T07%3A30&local=Rodovi%C3%A1ria+de+Macap%C3%A1\
             &linha=AP-101&partida=2026-11-20T08%3A00&descricao=Cobraram+pela+bagagem+a+mais.&{fields}"
        )
    };
    let filed = send(
        &router,
        post(
            "/denuncia",
            "",
            &form("tipo=excess_baggage&tarifa=85%2C00&kg_bagageiro=38&kg_mao=5&cobrado=25%2C00"),
        ),
    )
    .await;
    assert_eq!(filed.status, StatusCode::SEE_OTHER, "{}", filed.body);
    let page = send(&router, get(filed.location(), "")).await;
    assert!(
        page.body.contains("O que a lei diz")
            && page.body.contains("R$ 3,40")
            && page.body.contains("61-III-c"),
        "{}",
        page.body
    );
    let refused = send(&router, post("/denuncia", "", &form("tipo=refund_refused"))).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        refused.body.contains("quando o passageiro pediu"),
        "{}",
        refused.body
    );

    let admin = format!(
        "outorga_sessao={}",
        value(&signed_in_as(&router, "admin-geral").await)
    );
    let autos = send(&router, get("/j/amapa/autos", &admin)).await;
    assert!(
        autos.body.contains("Veículos retidos ou apreendidos agora"),
        "{}",
        autos.body
    );
    let link = regex_lite::Regex::new(r#"/j/amapa/autos/(\d+)/(\d+)#custodia"#).expect("regex");
    let found = link.captures(&autos.body).expect("a held vehicle's auto");
    let auto = format!("/j/amapa/autos/{}/{}", &found[1], &found[2]);
    let held = send(&router, get(&auto, &admin)).await;
    assert!(
        held.body.contains("Custódia do veículo")
            && held.body.contains("falta pagar R$ 1.680,00")
            && held.body.contains("Art. 64, § 3º"),
        "{}",
        held.body
    );
    let csrf = held.csrf();
    let paid = send(
        &router,
        post(
            &format!("{auto}/custodia/despesas/1/pagamento"),
            &admin,
            &format!("pago_em=&comprovante=Recibo+881&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.body);
    let after = send(&router, get(paid.location(), &admin)).await;
    assert!(
        after.body.contains("Recibo 881") && after.body.contains("não há despesa a pagar"),
        "{}",
        after.body
    );
    let release = send(
        &router,
        post(
            &format!("{auto}/passos"),
            &admin,
            &format!("passo=liberar&texto=Ato+n%C2%BA+1%2F2026&csrf={csrf}"),
        ),
    )
    .await;
    assert_eq!(
        release.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        release.body
    );
    assert!(release.body.contains("72 horas"), "{}", release.body);
}

#[tokio::test]
async fn passengers_and_custody_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    passengers_and_custody(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn passengers_and_custody_on_postgresql() {
    let base = std::env::var("OUTORGA_TEST_DATABASE_URL").unwrap_or_else(|_| PG.to_string());
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970")
        .as_nanos();
    let schema = format!("uipc_{}_{nanos}", std::process::id());
    sqlx_admin(&base, &format!("CREATE SCHEMA {schema}")).await;
    passengers_and_custody(&format!("{base}?options=-c%20search_path%3D{schema}")).await;
    sqlx_admin(&base, &format!("DROP SCHEMA {schema} CASCADE")).await;
}
