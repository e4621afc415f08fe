//! The store on both backends: SQLite in a temporary directory, and the
//! PostgreSQL server every machine runs (database `test`, trust auth; each
//! test in a schema of its own). A PostgreSQL that cannot be reached fails the
//! test: CI must exercise both.

use crate::common::{admin, by, drop_schema, open, pg_schema};
use outorga_store::{Backend, Jurisdiction, Kind, Store, StoreError, Vehicle, Window, sqlite_url};
use sqlx::Row;

fn jurisdictions() -> Vec<Jurisdiction> {
    vec![
        Jurisdiction {
            id: "cangucu".into(),
            name: "Canguçu".into(),
            state: "RS".into(),
            rulebooks: vec!["cangucu/taxi".into()],
        },
        Jurisdiction {
            id: "teofilo-otoni".into(),
            name: "Teófilo Otoni".into(),
            state: "MG".into(),
            rulebooks: vec![
                "teofilo-otoni/motofrete".into(),
                "teofilo-otoni/mototaxi".into(),
            ],
        },
    ]
}

/// What every backend must do.
async fn exercise(url: &str, backend: Backend) {
    let store = open(url).await;
    assert_eq!(store.backend(), backend);
    store
        .sync_jurisdictions(&by(), &jurisdictions())
        .await
        .expect("sync");
    assert_eq!(store.jurisdictions().await.expect("read"), jurisdictions());

    // Syncing again replaces, never duplicates; a renamed jurisdiction updates.
    let mut renamed = jurisdictions();
    renamed[0].name = "Município de Canguçu".into();
    renamed[1].rulebooks.pop();
    store
        .sync_jurisdictions(&by(), &renamed)
        .await
        .expect("resync");
    assert_eq!(store.jurisdictions().await.expect("read"), renamed);

    // All or nothing: a list that breaks a key writes nothing.
    let broken = vec![Jurisdiction {
        id: "amapa".into(),
        name: "Amapá".into(),
        state: "AP".into(),
        rulebooks: vec!["amapa/onibus".into(), "amapa/onibus".into()],
    }];
    assert!(matches!(
        store.sync_jurisdictions(&by(), &broken).await,
        Err(StoreError::Sql(_))
    ));
    assert_eq!(store.jurisdictions().await.expect("read"), renamed);

    registers(&store).await;
    vehicles(&store).await;

    // Opening again migrates nothing twice and keeps the records.
    drop(store);
    let again = open(url).await;
    assert_eq!(again.jurisdictions().await.expect("read"), renamed);
    let ana = again
        .registered("cangucu", "25524893033")
        .await
        .expect("read");
    assert_eq!(ana.map(|p| p.name), Some("Ana Souza".to_string()));
    lines(&again).await;
    stands(&again).await;
    audit(&again, url).await;
}

/// Every change above left an entry; the log and the records verify, and
/// editing an entry, or deleting the last, is found (the tampering cases are
/// in tests/tamper.rs).
async fn audit(store: &Store, url: &str) {
    let entries = store.audit_entries(None).await.expect("log");
    assert!(entries.len() > 10, "{}", entries.len());
    assert_eq!(entries[0].action, "audit.schema");
    assert_eq!(entries[1].action, "jurisdiction.sync");
    assert_eq!(entries[1].actor, "teste");
    let ana = store
        .audit_entries(Some("person:25524893033"))
        .await
        .expect("log");
    assert_eq!(ana.len(), 2, "Ana is registered in two jurisdictions");
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:?}", report.problems);
    assert_eq!(report.entries, entries.len() as i64);
    admin(
        url,
        "UPDATE audit_log SET reason = 'outro' WHERE seq = 3".into(),
    )
    .await;
    let report = store.verify_audit().await.expect("verify");
    assert_eq!(report.problems[0].seq, Some(3), "{:?}", report.problems);
    admin(
        url,
        "UPDATE audit_log SET reason = 'teste automatizado' WHERE seq = 3".into(),
    )
    .await;
    assert!(store.verify_audit().await.expect("verify").intact());
    let last = entries.len();
    admin(url, format!("DELETE FROM audit_log WHERE seq = {last}")).await;
    assert!(!store.verify_audit().await.expect("verify").intact());
}

/// Fixed stands with their places, free stands without.
async fn stands(store: &Store) {
    use outorga_store::Stand;
    let stand =
        |code: &str, capacity: Option<u32>| Stand::new(code, &format!("Ponto {code}"), capacity);
    store
        .register_stand(&by(), "cangucu", &stand("praca", Some(3)))
        .await
        .expect("fixed");
    store
        .register_stand(&by(), "cangucu", &stand("festa", None))
        .await
        .expect("free");
    assert_eq!(
        store
            .stands("cangucu", Window::first(200))
            .await
            .expect("read")
            .items,
        [
            Stand::new("FESTA", "Ponto festa", None),
            Stand::new("PRACA", "Ponto praca", Some(3)),
        ]
    );
    match store
        .register_stand(&by(), "cangucu", &stand("PRACA", Some(4)))
        .await
    {
        Err(StoreError::Invalid { field, reason } | StoreError::Taken { field, reason }) => {
            assert_eq!(field, "código");
            assert!(reason.contains("PRACA já está cadastrado"), "{reason}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    match store
        .register_stand(&by(), "cangucu", &stand("vazio", Some(0)))
        .await
    {
        Err(StoreError::Invalid { field, .. }) => assert_eq!(field, "vagas"),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// The field and reason of a refused request.
fn refused(result: Result<outorga_store::Registered, StoreError>) -> (String, String) {
    match result {
        Err(StoreError::Invalid { field, reason } | StoreError::Taken { field, reason }) => {
            (field.to_string(), reason)
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

async fn registers(store: &Store) {
    let ana = store
        .register(&by(), "cangucu", "255.248.930-33", "  Ana Souza ")
        .await
        .expect("CPF");
    assert_eq!(
        (ana.document.as_str(), ana.kind, ana.name.as_str()),
        ("25524893033", Kind::Person, "Ana Souza")
    );
    let (field, reason) = refused(store.register(&by(), "cangucu", "25524893033", "Ana").await);
    assert_eq!(field, "documento");
    assert!(reason.contains("já está cadastrado em cangucu"), "{reason}");
    let (field, reason) = refused(
        store
            .register(&by(), "cangucu", "255.248.930-34", "Beto")
            .await,
    );
    assert_eq!(field, "documento");
    assert!(reason.contains("CPF inválido"), "{reason}");
    let (_, reason) = refused(
        store
            .register(&by(), "cangucu", "111.111.111-11", "Repetido")
            .await,
    );
    assert!(reason.contains("CPF inválido"), "{reason}");
    let (_, reason) = refused(store.register(&by(), "cangucu", "1234", "Curto").await);
    assert!(
        reason.contains("informe um CPF (11 dígitos) ou um CNPJ (14 caracteres)"),
        "{reason}"
    );
    let frota = store
        .register(&by(), "cangucu", "36.002.518/0001-01", "Frota Ltda")
        .await
        .expect("CNPJ");
    assert_eq!(frota.kind, Kind::Company);
    let nova = store
        .register(&by(), "cangucu", "12.abc.345/01de-35", "Nova S.A.")
        .await
        .expect("alphanumeric CNPJ");
    assert_eq!(nova.document, "12ABC34501DE35");
    let (field, _) = refused(
        store
            .register(&by(), "cangucu", "36.002.518/0001-02", "Outra")
            .await,
    );
    assert_eq!(field, "documento");
    let (field, _) = refused(
        store
            .register(&by(), "cangucu", "713.301.450-54", "   ")
            .await,
    );
    assert_eq!(field, "nome");
    let (field, reason) = refused(
        store
            .register(&by(), "atlantida", "713.301.450-54", "Caio")
            .await,
    );
    assert_eq!(field, "jurisdição");
    assert!(reason.contains("não está cadastrada"), "{reason}");
    // Each jurisdiction keeps its own register.
    store
        .register(&by(), "teofilo-otoni", "255.248.930-33", "Ana Souza")
        .await
        .expect("same CPF elsewhere");
    assert_eq!(
        store
            .registered("cangucu", "713.301.450-54")
            .await
            .expect("read"),
        None
    );

    // Ten clerks registering the same person at once: one record, nine refusals.
    let handles: Vec<_> = (0..10)
        .map(|_| {
            let store = store.clone();
            tokio::spawn(async move {
                store
                    .register(&by(), "cangucu", "713.301.450-54", "Caio Lima")
                    .await
            })
        })
        .collect();
    let mut results = Vec::new();
    for handle in handles {
        results.push(handle.await.expect("task"));
    }
    assert_eq!(
        results.iter().filter(|r| r.is_ok()).count(),
        1,
        "{results:?}"
    );
    assert!(
        results.iter().all(|r| match r {
            Ok(_) => true,
            Err(StoreError::Taken { field, .. }) => *field == "documento",
            Err(_) => false,
        }),
        "{results:?}"
    );
}

#[tokio::test]
async fn sqlite_in_a_data_directory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let url = sqlite_url(&data).expect("data dir");
    exercise(&url, Backend::Sqlite).await;
    assert!(data.join("outorga.db").exists());
    let rows = admin(&url, "PRAGMA journal_mode".to_string()).await;
    let mode: String = rows[0].try_get(0).expect("journal mode");
    assert_eq!(mode.to_lowercase(), "wal");
}

#[tokio::test]
async fn postgresql() {
    let (schema, url) = pg_schema("store").await;
    exercise(&url, Backend::Postgres).await;
    drop_schema(&schema).await;
}

#[tokio::test]
async fn a_url_of_another_kind_is_refused() {
    let err = Store::open("mysql://localhost/x", crate::common::keys())
        .await
        .expect_err("refused");
    assert!(
        err.to_string()
            .contains("use sqlite://<file> or postgres://<host>/<db>")
    );
}

/// Vehicles: plates in both forms, RENAVAM check digits (valid numbers made by
/// the PyPI package validate-docbr, an independent implementation).
fn car(plate: &str, renavam: &str, manufactured: i32) -> Vehicle {
    Vehicle {
        plate: plate.into(),
        renavam: renavam.into(),
        manufactured,
        ..Vehicle::default()
    }
}

async fn vehicles(store: &Store) {
    let refused = |r: Result<outorga_store::Vehicle, StoreError>| match r {
        Err(StoreError::Invalid { field, reason } | StoreError::Taken { field, reason }) => {
            (field.to_string(), reason)
        }
        other => panic!("expected a refusal, got {other:?}"),
    };
    let old = store
        .register_vehicle(
            &by(),
            "cangucu",
            &car("iab-1234", "83430942209", 2020),
            2025,
        )
        .await
        .expect("old plate");
    assert_eq!(
        (old.plate.as_str(), old.renavam.as_str()),
        ("IAB1234", "83430942209")
    );
    let mercosul = store
        .register_vehicle(&by(), "cangucu", &car("IXR1A23", "10256960027", 2026), 2025)
        .await
        .expect("Mercosul plate, next year's model");
    assert_eq!(mercosul.manufactured, 2026);
    // Details kept as given: colour, doors, places, equipment and adaptations
    // (trimmed, blanks and repeats dropped).
    let adapted = Vehicle {
        colour: " Branco ".into(),
        doors: Some(4),
        capacity: Some(4),
        equipment: vec![
            "taxímetro".into(),
            " ".into(),
            "Taxímetro".into(),
            "luminoso".into(),
        ],
        adaptations: vec!["rampa".into()],
        ..car("QRS2B34", "77080225118", 2024)
    };
    store
        .register_vehicle(&by(), "cangucu", &adapted, 2025)
        .await
        .expect("details");
    let read = store
        .vehicle("cangucu", "QRS-2B34")
        .await
        .expect("read")
        .expect("there");
    assert_eq!(read.colour, "Branco");
    assert_eq!((read.doors, read.capacity), (Some(4), Some(4)));
    assert_eq!(read.equipment, ["taxímetro", "luminoso"]);
    assert_eq!(read.adaptations, ["rampa"]);
    let (field, _) = refused(
        store
            .register_vehicle(
                &by(),
                "cangucu",
                &Vehicle {
                    doors: Some(0),
                    ..car("QRS2B35", "73160207962", 2024)
                },
                2025,
            )
            .await,
    );
    assert_eq!(field, "portas");
    for renavam in ["29485839707", "73160207962", "41931835361", "77080225118"] {
        assert!(outorga_store::parse_renavam(renavam).is_ok(), "{renavam}");
    }
    // An older 9-digit RENAVAM is read with two leading zeros (00123456789 is valid).
    assert_eq!(
        outorga_store::parse_renavam("123456789").expect("9 digits"),
        "00123456789"
    );
    assert!(outorga_store::parse_renavam("12345678").is_err());
    let (field, reason) = refused(
        store
            .register_vehicle(&by(), "cangucu", &car("IXR1A24", "10256960028", 2020), 2025)
            .await,
    );
    assert_eq!(field, "renavam");
    assert!(
        reason.contains("dígito verificador não confere"),
        "{reason}"
    );
    let (field, reason) = refused(
        store
            .register_vehicle(&by(), "cangucu", &car("IX1A234", "29485839707", 2020), 2025)
            .await,
    );
    assert_eq!(field, "placa");
    assert!(reason.contains("ABC1D23"), "{reason}");
    let (field, _) = refused(
        store
            .register_vehicle(&by(), "cangucu", &car("IXR1A24", "29485839707", 2027), 2025)
            .await,
    );
    assert_eq!(field, "ano de fabricação");
    let (field, reason) = refused(
        store
            .register_vehicle(&by(), "cangucu", &car("IAB1234", "29485839707", 2020), 2025)
            .await,
    );
    assert_eq!(field, "placa ou renavam");
    assert!(reason.contains("já está cadastrado"), "{reason}");
    let (field, _) = refused(
        store
            .register_vehicle(&by(), "cangucu", &car("IXR9Z99", "83430942209", 2020), 2025)
            .await,
    );
    assert_eq!(field, "placa ou renavam");
    assert_eq!(
        store.vehicle("cangucu", "IAB-1234").await.expect("read"),
        Some(old)
    );
    assert_eq!(
        store.vehicle("cangucu", "IXR9Z99").await.expect("read"),
        None
    );
}

/// Bus lines with exact coefficients, read back as they were written.
async fn lines(store: &Store) {
    use outorga_store::{Line, Section, parse_coefficient};
    let line = |code: &str, semi_urban: bool, coefficient: &str| Line {
        code: code.into(),
        name: format!("Linha {code}"),
        semi_urban,
        coefficient: parse_coefficient(coefficient).expect("coefficient"),
        ..Line::default()
    };
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: "amapa".into(),
                name: "Amapá".into(),
                state: "AP".into(),
                rulebooks: vec!["amapa/onibus-intermunicipal".into()],
            }],
        )
        .await
        .expect("amapa");
    for l in [
        line("MCP-OIA", false, "0,2175"),
        line("MCP-STN", true, "0.4"),
        line("MCP-LJI", false, "0.123456"),
    ] {
        store.register_line(&by(), "amapa", &l).await.expect("line");
    }
    let read = store
        .lines("amapa", Window::first(200))
        .await
        .expect("lines")
        .items;
    let codes: Vec<&str> = read.iter().map(|l| l.code.as_str()).collect();
    assert_eq!(codes, ["MCP-LJI", "MCP-OIA", "MCP-STN"]);
    assert_eq!(read[1].coefficient.to_string(), "0.2175");
    assert_eq!(read[0].coefficient.to_string(), "0.123456");
    assert!(read[2].semi_urban && !read[1].semi_urban);
    let refusal = |r: Result<(), StoreError>| match r {
        Err(StoreError::Invalid { field, reason } | StoreError::Taken { field, reason }) => {
            (field.to_string(), reason)
        }
        other => panic!("expected a refusal, got {other:?}"),
    };
    let (field, reason) = refusal(
        store
            .register_line(&by(), "amapa", &line("mcp-oia", false, "0.3"))
            .await,
    );
    assert_eq!(field, "código");
    assert!(reason.contains("MCP-OIA já está cadastrada"), "{reason}");
    assert!(parse_coefficient("0").is_err());
    assert!(parse_coefficient("abc").is_err());
    // The route: localities in order and sections between two of them.
    let km = |text: &str| parse_coefficient(text).expect("km");
    let routed = Line {
        itinerary: vec![
            "Macapá".into(),
            "Porto Grande".into(),
            "Ferreira Gomes".into(),
        ],
        sections: vec![
            Section {
                from: "Macapá".into(),
                to: "Porto Grande".into(),
                km: km("108.5"),
            },
            Section {
                from: "Porto Grande".into(),
                to: "Ferreira Gomes".into(),
                km: km("29"),
            },
        ],
        ..line("MCP-FGO", false, "0.2")
    };
    store
        .register_line(&by(), "amapa", &routed)
        .await
        .expect("route");
    let read = store
        .lines("amapa", Window::first(200))
        .await
        .expect("lines")
        .items;
    let fgo = read.iter().find(|l| l.code == "MCP-FGO").expect("line");
    assert_eq!(fgo.itinerary.len(), 3);
    assert_eq!(fgo.sections[0].km.to_string(), "108.5");
    let backwards = Line {
        code: "MCP-X".into(),
        sections: vec![Section {
            from: "Porto Grande".into(),
            to: "Macapá".into(),
            km: km("1"),
        }],
        ..routed.clone()
    };
    assert_eq!(
        refusal(store.register_line(&by(), "amapa", &backwards).await).0,
        "seções"
    );
    let nowhere = Line {
        code: "MCP-Y".into(),
        sections: vec![Section {
            from: "Oiapoque".into(),
            to: "Macapá".into(),
            km: km("1"),
        }],
        ..routed
    };
    assert_eq!(
        refusal(store.register_line(&by(), "amapa", &nowhere).await).0,
        "seções"
    );
    let mut blank = line("X1", false, "0.2");
    blank.name = "  ".into();
    assert_eq!(
        refusal(store.register_line(&by(), "amapa", &blank).await).0,
        "nome"
    );
    assert!(
        store
            .lines("cangucu", Window::first(200))
            .await
            .expect("none")
            .items
            .is_empty()
    );
}

/// CNH numbers: 40 generated by the PyPI package validate-docbr (CNH().generate())
/// are accepted; the same numbers with the last digit changed (10 that
/// validate-docbr rejects) are refused.
#[test]
fn cnh_check_digits_agree_with_validate_docbr() {
    let valid = [
        "25580935105",
        "32141584980",
        "32613514388",
        "69118371270",
        "80172106152",
        "33509242781",
        "67773626499",
        "17582961493",
        "37773688881",
        "04441040790",
        "35907955282",
        "16459467652",
        "84460730308",
        "76717587837",
        "03102276057",
        "97238226817",
        "22232492792",
        "40299014393",
        "26054358164",
        "18641164319",
        "21109228530",
        "08610948008",
        "78662268603",
        "85255427746",
        "39445682960",
        "61149740020",
        "78142478904",
        "19167491501",
        "48778011937",
        "05680683964",
        "62614258786",
        "17349849082",
        "16939983189",
        "21292909046",
        "67382615944",
        "56927953730",
        "34851256316",
        "32419644895",
        "19117710179",
        "52196737276",
    ];
    for number in valid {
        assert!(outorga_store::parse_cnh_number(number).is_ok(), "{number}");
    }
    let invalid = [
        "25580935106",
        "32141584981",
        "32613514389",
        "69118371271",
        "80172106153",
        "33509242782",
        "67773626490",
        "17582961494",
        "37773688882",
        "04441040791",
        "11111111111",
        "1234",
    ];
    for number in invalid {
        assert!(outorga_store::parse_cnh_number(number).is_err(), "{number}");
    }
}
