//! Intercity buses through the API (issue 15), on both backends, with the
//! demo's records: a line's operation on a past day and the carrier's
//! request decided; the demo's ticket file imported again adds nothing; the
//! carrier's month lists its findings with articles; a finding becomes an
//! auto with its fine in reais (the CTM worked out from the lines), once;
//! bad input is named by field, and file rows by line.

use crate::common::App;
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::json;

const J: &str = "/api/jurisdictions/amapa";

async fn operation_and_findings(app: &App) {
    app.load_demo().await;
    let clerk = app.with_token("atendente", Role::Clerk, Scope::All).await;
    let inspector = app.with_token("fiscal", Role::Inspector, Scope::All).await;
    let today = outorga_web::Clock::now(app.clock.as_ref()).date();
    let first = outorga_store::last_month(today);
    let line = outorga_store::DEMO_LINE;

    // The operation in force on the first day of last month, and the request.
    let ops = app
        .get(&format!("{J}/lines/{line}/operations?data={first}"), &clerk)
        .await;
    assert_eq!(ops.status, StatusCode::OK, "{:?}", ops.body);
    assert_eq!(ops.body["em_vigor"]["frequencia_minima"], 15);
    assert_eq!(ops.body["em_vigor"]["partidas_por_semana"], 18);
    assert_eq!(
        ops.body["em_vigor"]["horarios"]["domingo"],
        json!(["15:00"])
    );
    let asked = ops.body["versoes"]
        .as_array()
        .expect("versions")
        .iter()
        .find(|v| v["situacao"] == "requested")
        .expect("the carrier's request")
        .clone();
    assert_eq!(asked["artigos"], json!(["Art. 34"]));
    // A bad time names the field and the day.
    let bad = app
        .post(
            &format!("{J}/lines/{line}/operations"),
            &clerk,
            json!({ "vigencia": today.to_string(), "nivel": "convencional",
                    "horarios": { "terca": ["6h"] }, "frequencia_minima": 1,
                    "terminais": ["Macapá", "Ferreira Gomes"], "justificativa": "x", "ato": "Portaria 9" }),
        )
        .await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.text("campo"), "horarios", "{:?}", bad.body);
    assert!(bad.text("erro").contains("terça"), "{:?}", bad.body);
    // Both the act and the carrier, or neither: refused.
    let neither = app
        .post(
            &format!("{J}/lines/{line}/operations"),
            &clerk,
            json!({ "vigencia": today.to_string(), "nivel": "leito", "horarios": {},
                    "frequencia_minima": 0, "terminais": ["Macapá", "Ferreira Gomes"],
                    "justificativa": "x" }),
        )
        .await;
    assert_eq!(neither.text("campo"), "ato", "{:?}", neither.body);
    // The request approved today: in force from the day it asked for.
    let decided = app
        .post(
            &format!("{J}/lines/{line}/operations/{}/decision", asked["numero"]),
            &clerk,
            json!({ "aprovar": true, "data": today.to_string(), "ato": "Portaria SETRAP nº 7" }),
        )
        .await;
    assert_eq!(decided.status, StatusCode::OK, "{:?}", decided.body);
    assert_eq!(decided.text("situacao"), "approved");
    let later = app
        .get(
            &format!(
                "{J}/lines/{line}/operations?data={}",
                asked["vigencia"].as_str().expect("day")
            ),
            &clerk,
        )
        .await;
    assert_eq!(later.body["em_vigor"]["partidas_por_semana"], 19);

    // The carrier's partners and directors (art. 9º): a share that is no
    // number is named; declared, they read back.
    let (carrier_doc, _) = outorga_store::DEMO_CARRIER;
    let ties = format!("{J}/people/{carrier_doc}/company-ties");
    let bad = app
        .call(
            Method::PUT,
            &ties,
            Some(&clerk),
            Some(json!({ "socios": [{ "documento": "52998224725", "participacao": "metade" }], "ato": "Contrato social" })),
        )
        .await;
    assert_eq!(
        bad.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        bad.body
    );
    assert_eq!(bad.text("campo"), "participacao");
    assert_eq!(
        app.get(&ties, &clerk).await.status,
        StatusCode::NOT_FOUND,
        "nothing declared yet"
    );
    let person = "52998224725";
    let registered = app
        .post(
            &format!("{J}/people"),
            &clerk,
            json!({ "documento": person, "nome": "Ana Sócia" }),
        )
        .await;
    assert_eq!(
        registered.status,
        StatusCode::CREATED,
        "{:?}",
        registered.body
    );
    let declared = app
        .call(
            Method::PUT,
            &ties,
            Some(&clerk),
            Some(json!({ "socios": [{ "documento": person, "participacao": "60" }], "diretores": [person],
                         "ato": "Contrato social, 2ª alteração" })),
        )
        .await;
    assert_eq!(
        declared.status,
        StatusCode::NO_CONTENT,
        "{:?}",
        declared.body
    );
    let read = app.get(&ties, &clerk).await;
    assert_eq!(
        read.body["socios"][0]["participacao"], "60",
        "{:?}",
        read.body
    );
    assert_eq!(read.body["grupo"], serde_json::Value::Null);

    // The delegation's fleet: both buses now, one on the first day of last month.
    let now = app
        .get(&format!("{J}/permits/onibus/1/fleet"), &clerk)
        .await;
    assert_eq!(now.status, StatusCode::OK, "{:?}", now.body);
    assert_eq!(
        now.body["onibus"].as_array().map(Vec::len),
        Some(2),
        "{:?}",
        now.body
    );
    assert_eq!(now.body["poltronas"], 90);
    let earlier = app
        .get(
            &format!(
                "{J}/permits/onibus/1/fleet?data={}",
                today - chrono::Days::new(150)
            ),
            &clerk,
        )
        .await;
    assert_eq!(
        earlier.body["onibus"].as_array().map(Vec::len),
        Some(1),
        "{:?}",
        earlier.body
    );

    // The demo's ticket file again: nothing added (200, ja_importado).
    let (carrier, _) = outorga_store::DEMO_CARRIER;
    let (name, body) = outorga_store::demo_ticket_file(first);
    let month = first.format("%Y-%m");
    let again = app
        .raw(
            Method::POST,
            &format!("{J}/carriers/{carrier}/files?tipo=tickets_csv&mes={month}&nome={name}"),
            Some(&clerk),
            Some("text/csv"),
            &body,
        )
        .await;
    assert_eq!(again.status, StatusCode::OK, "{:?}", again.body);
    assert_eq!(again.body["ja_importado"], true);
    // A new file with a bad row: imported (201) with the row refused by line.
    let bad_file =
        format!("numero;linha;partida;poltrona\n1;{line};{first} 06:00;3\n2;{line};ontem;4\n");
    let imported = app
        .raw(
            Method::POST,
            &format!("{J}/carriers/{carrier}/files?tipo=tickets_csv&mes={month}&nome=extra.csv"),
            Some(&clerk),
            Some("text/csv"),
            &bad_file,
        )
        .await;
    assert_eq!(imported.status, StatusCode::CREATED, "{:?}", imported.body);
    assert_eq!(imported.body["recusados"][0]["linha"], 3);
    assert_eq!(imported.body["recusados"][0]["campo"], "partida");
    // An unknown kind is named.
    let kind = app
        .raw(
            Method::POST,
            &format!("{J}/carriers/{carrier}/files?tipo=pdf&mes={month}&nome=x"),
            Some(&clerk),
            Some("text/csv"),
            "x",
        )
        .await;
    assert_eq!(kind.text("campo"), "tipo", "{:?}", kind.body);
    let files = app
        .get(&format!("{J}/carriers/{carrier}/files"), &clerk)
        .await;
    assert_eq!(
        files.body["itens"].as_array().map(Vec::len),
        Some(3),
        "{:?}",
        files.body
    );

    // The month: the findings with their infractions and articles.
    let view = app
        .get(&format!("{J}/carriers/{carrier}/months/{month}"), &clerk)
        .await;
    assert_eq!(view.status, StatusCode::OK, "{:?}", view.body);
    let findings = view.body["constatacoes"]
        .as_array()
        .expect("findings")
        .clone();
    let twice = findings
        .iter()
        .find(|f| f["tipo"] == "seat_sold_twice")
        .expect("a seat sold twice");
    assert_eq!(twice["infracao"], "61-IV-b");
    assert_eq!(twice["artigos"], json!(["Art. 22, V"]));
    assert!(
        findings
            .iter()
            .any(|f| f["tipo"] == "over_capacity" && f["infracao"] == "61-I-c")
    );
    assert!(
        findings
            .iter()
            .any(|f| f["tipo"] == "ticket_fields" && f["infracao"] == "62")
    );
    assert!(
        findings
            .iter()
            .any(|f| f["tipo"] == "below_minimum_frequency" && f["infracao"] == "61-IV-a")
    );
    let key = twice["chave"].as_str().expect("key");
    // A clerk does not issue autos; an inspector does, once.
    let path = format!("{J}/carriers/{carrier}/months/{month}/findings/{key}/auto");
    assert_eq!(
        app.post(&path, &clerk, json!(null)).await.status,
        StatusCode::FORBIDDEN
    );
    let auto = app.call(Method::POST, &path, Some(&inspector), None).await;
    assert_eq!(auto.status, StatusCode::CREATED, "{:?}", auto.body);
    assert_eq!(auto.text("infracao"), "61-IV-b");
    let fine = auto.body["proposta"]["sancoes"]
        .as_array()
        .expect("sanctions")
        .iter()
        .find(|s| s["tipo"] == "multa")
        .expect("a fine")
        .clone();
    // 4 000 × CTM; the CTM the mean of the demo's lines (0,2175 and 0,1980).
    assert_eq!(fine["reais"], "831.00", "{fine:?}");
    let twice_again = app.call(Method::POST, &path, Some(&inspector), None).await;
    assert_eq!(
        twice_again.status,
        StatusCode::CONFLICT,
        "{:?}",
        twice_again.body
    );
    let unknown = app
        .call(
            Method::POST,
            &format!("{J}/carriers/{carrier}/months/{month}/findings/nada/auto"),
            Some(&inspector),
            None,
        )
        .await;
    assert_eq!(unknown.status, StatusCode::NOT_FOUND, "{:?}", unknown.body);

    // The demo's charter, and a new one: more passengers than seats is
    // refused with its article; within them it is authorized, and its
    // authorization verifies by code and prints.
    let year = today.format("%Y");
    let demo = app.get(&format!("{J}/charters/{year}/1"), &clerk).await;
    assert_eq!(demo.status, StatusCode::OK, "{:?}", demo.body);
    assert_eq!(demo.body["passageiros"], 30);
    let plate = demo.text("placa");
    let ask = |passengers: usize| {
        json!({ "transportadora": carrier, "tipo": "eventual",
                "de": (today + chrono::Days::new(20)).to_string(),
                "ate": (today + chrono::Days::new(21)).to_string(),
                "origem": "Macapá", "destino": "Laranjal do Jari", "retorno": "Macapá",
                "placa": plate, "contratante": "Clube de Xadrez", "nota_fiscal": "NF-e 77",
                "passageiros": (1..=passengers).map(|n| json!({ "nome": format!("P{n}") })).collect::<Vec<_>>() })
    };
    let over = app.post(&format!("{J}/charters"), &clerk, ask(47)).await;
    assert_eq!(
        over.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        over.body
    );
    assert!(
        over.body["artigos"]
            .as_array()
            .is_some_and(|a| a.contains(&json!("Art. 31"))),
        "{:?}",
        over.body
    );
    let done = app.post(&format!("{J}/charters"), &clerk, ask(40)).await;
    assert_eq!(done.status, StatusCode::CREATED, "{:?}", done.body);
    let code = done.text("documento");
    let public = app
        .call(
            Method::GET,
            &format!("/api/public/documents/{code}"),
            None,
            None,
        )
        .await;
    assert_eq!(public.status, StatusCode::OK, "{:?}", public.body);
    assert_eq!(public.body["valido"], true, "{:?}", public.body);
    let (status, headers, pdf) = app.file(&format!("{J}/documents/{code}/pdf"), &clerk).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[axum::http::header::CONTENT_TYPE], "application/pdf");
    assert!(pdf.starts_with(b"%PDF"));

    // The demo charter rests on the carrier's registration and keeps its
    // two files, each downloaded.
    assert_eq!(demo.body["registro_cadastral"], format!("1/{year}"));
    assert_eq!(demo.body["anexos"][0]["tipo"], "invoice", "{:?}", demo.body);
    let (status, headers, file) = app
        .file(&format!("{J}/charters/{year}/1/files/1"), &clerk)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[axum::http::header::CONTENT_TYPE], "application/pdf");
    assert!(file.starts_with(b"%PDF"));
    // A charter with its files as base64: a bad one refused, naming the field.
    use base64::Engine as _;
    let encoded = |bytes: &[u8]| base64::engine::general_purpose::STANDARD.encode(bytes);
    let mut with_files = ask(40);
    with_files["anexos"] = json!([{ "tipo": "passenger_list", "nome": "lista.pdf",
                                    "conteudo": encoded(b"%PDF-1.4\n%%EOF\n") }]);
    let attached = app.post(&format!("{J}/charters"), &clerk, with_files).await;
    assert_eq!(attached.status, StatusCode::CREATED, "{:?}", attached.body);
    assert_eq!(attached.body["anexos"][0]["formato"], "application/pdf");
    let mut bad = ask(40);
    bad["anexos"] = json!([{ "tipo": "invoice", "nome": "nf.pdf", "conteudo": "não é base64" }]);
    let refused = app.post(&format!("{J}/charters"), &clerk, bad).await;
    assert_eq!(refused.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(refused.body["campo"], "anexos", "{:?}", refused.body);

    // The register (art. 28, § 4º): the demo's registration with its two
    // documents; a renewal; a document that is no PDF refused; the
    // cancellation (§ 5º), after which a charter is refused (art. 64, IV).
    let registrations = format!("{J}/carriers/{carrier}/registrations");
    let listed = app.get(&registrations, &clerk).await;
    assert_eq!(listed.status, StatusCode::OK, "{:?}", listed.body);
    assert_eq!(listed.body["itens"][0]["registro"], format!("1/{year}"));
    assert_eq!(listed.body["itens"][0]["situacao"], "in_force");
    assert_eq!(
        listed.body["itens"][0]["documentos"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let (status, _, document) = app
        .file(&format!("{registrations}/{year}/1/files/2"), &clerk)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(document.starts_with(b"%PDF"));
    let exe = app
        .post(
            &registrations,
            &clerk,
            json!({ "documentos": [{ "tipo": "cnpj_card", "nome": "cartao.exe", "conteudo": encoded(b"MZ") }] }),
        )
        .await;
    assert_eq!(exe.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(exe.body["campo"], "documentos", "{:?}", exe.body);
    let renewed = app
        .post(
            &registrations,
            &clerk,
            json!({ "documentos": [{ "tipo": "cnpj_card", "nome": "cartao.pdf",
                                     "conteudo": encoded(b"%PDF-1.4\n%%EOF\n") }] }),
        )
        .await;
    assert_eq!(renewed.status, StatusCode::CREATED, "{:?}", renewed.body);
    assert_eq!(renewed.body["renova"], format!("1/{year}"));
    let cancelled = app
        .post(
            &format!("{registrations}/{year}/1/cancellation"),
            &clerk,
            json!({ "motivo": "Autorização usada em linha regular" }),
        )
        .await;
    assert_eq!(cancelled.status, StatusCode::OK, "{:?}", cancelled.body);
    assert_eq!(cancelled.body["situacao"], "cancelled");
    assert_eq!(cancelled.body["artigo_cassacao"], "Art. 28, § 5º");
    let after = app.post(&format!("{J}/charters"), &clerk, ask(40)).await;
    assert_eq!(
        after.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "{:?}",
        after.body
    );
    assert!(
        after.body["artigos"]
            .as_array()
            .is_some_and(|a| a.contains(&json!("Art. 64, IV"))),
        "{:?}",
        after.body
    );
}

on_both_backends!(operation_and_findings);
