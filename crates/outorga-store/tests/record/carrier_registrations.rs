//! The register of the carriers authorized for charters (Amapá art. 28,
//! § 4º–6º; 64, IV) and a charter's files, tested from the law on both
//! backends: a registration granted for the rulebook's 12 months with its
//! documents; a charter on its last day authorized, one reaching the day
//! after refused (art. 28, § 4º; 64, IV); a renewal from the day after it
//! ends, one at a time; a cancellation (§ 5º) refusing charters from its
//! day; bad files refused naming the field, nothing half-written.

use crate::bus_operation::{AP, CARRIER, charter, pdf, refused_by, register_carrier, setup};
use crate::common::{by, d, drop_schema, on, open, pg_schema};
use outorga_core::engine::charter::CharterKind;
use outorga_store::{
    Attachment, CharterDocument, CharterFileKind, CharterInput, RegistrationDocument,
    RegistrationFileKind, RegistrationStatus, StoreError, Vehicle, Window, sqlite_url,
};

const NEW_BUS: &str = "NEA3D45";

fn invalid_field(result: Result<impl std::fmt::Debug, StoreError>, expected: &str) -> String {
    match result {
        Err(StoreError::Invalid { field, reason }) => {
            assert_eq!(field, expected, "{reason}");
            reason
        }
        other => panic!("expected a refusal of `{expected}`, got {other:?}"),
    }
}

/// An eventual charter from `from` to `until` on the new bus.
fn trip(from: chrono::NaiveDate, until: chrono::NaiveDate) -> CharterInput {
    CharterInput {
        from,
        until,
        plate: NEW_BUS.into(),
        ..charter(CharterKind::Eventual)
    }
}

async fn register_and_charter(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;
    let bus = Vehicle {
        plate: NEW_BUS.into(),
        renavam: crate::bus_operation::renavam(21),
        manufactured: 2028,
        colour: "Prata".into(),
        make: Some("Marcopolo".into()),
        model: Some("Paradiso".into()),
        doors: Some(2),
        capacity: Some(44),
        equipment: Vec::new(),
        adaptations: Vec::new(),
    };
    store
        .register_vehicle(&by(), AP, &bus, 2030)
        .await
        .expect("bus");
    store
        .record_inspection(
            &on(d(2030, 6, 1)),
            &rb,
            AP,
            (NEW_BUS, "periodic"),
            d(2030, 6, 1),
            (true, ""),
        )
        .await
        .expect("inspection");
    let first_trip = trip(d(2030, 6, 10), d(2030, 6, 12));
    let june = on(d(2030, 6, 2));

    // No registration yet: the charter is refused by both articles.
    refused_by(
        store.authorize_charter(&june, &rb, AP, &first_trip).await,
        "Art. 28, § 4º",
    );
    let reason = refused_by(
        store.authorize_charter(&june, &rb, AP, &first_trip).await,
        "Art. 64, IV",
    );
    assert!(reason.contains("não tem registro cadastral"), "{reason}");

    // Bad registrations: no document, a file that is no PDF, JPEG nor PNG,
    // too many files, a person; nothing written, no number taken.
    invalid_field(
        store.register_carrier(&by(), &rb, AP, CARRIER, &[]).await,
        "documentos",
    );
    let exe = RegistrationDocument {
        kind: RegistrationFileKind::CnpjCard,
        file: Attachment {
            name: "cartao.pdf".into(),
            bytes: b"MZ\x90\0".to_vec(),
        },
    };
    let reason = invalid_field(
        store
            .register_carrier(
                &by(),
                &rb,
                AP,
                CARRIER,
                &[
                    RegistrationDocument {
                        kind: RegistrationFileKind::ArticlesOfAssociation,
                        file: pdf("contrato.pdf"),
                    },
                    exe,
                ],
            )
            .await,
        "documentos",
    );
    assert!(reason.contains("`cartao.pdf` não é PDF"), "{reason}");
    let many: Vec<RegistrationDocument> = (0..11)
        .map(|i| RegistrationDocument {
            kind: RegistrationFileKind::ClearanceCertificates,
            file: pdf(&format!("certidao-{i}.pdf")),
        })
        .collect();
    let reason = invalid_field(
        store.register_carrier(&by(), &rb, AP, CARRIER, &many).await,
        "documentos",
    );
    assert!(reason.contains("no máximo 10"), "{reason}");
    store
        .register(&by(), AP, "52998224725", "Fulano")
        .await
        .expect("person");
    invalid_field(
        store
            .register_carrier(
                &by(),
                &rb,
                AP,
                "52998224725",
                &[RegistrationDocument {
                    kind: RegistrationFileKind::Other,
                    file: pdf("rg.pdf"),
                }],
            )
            .await,
        "transportadora",
    );
    assert!(
        store
            .carrier_registrations(AP, CARRIER, Window::first(50))
            .await
            .expect("read")
            .items
            .is_empty()
    );

    // Granted on 2 January 2030 for 12 months, date to date: through 2
    // January 2031 (art. 28, § 6º, the decree default), number 1/2030.
    let first = register_carrier(&store, &by(), &rb)
        .await
        .expect("registered");
    assert_eq!((first.number, first.year), (1, 2030));
    assert_eq!(first.valid_from, d(2030, 1, 2));
    assert_eq!(first.valid_until, d(2031, 1, 2));
    assert_eq!(first.status, RegistrationStatus::InForce);
    assert!(first.articles.iter().any(|a| a == "Art. 28, § 4º"));
    assert!(first.articles.iter().any(|a| a == "Art. 28, § 6º"));
    assert_eq!(first.files.len(), 1);
    assert_eq!(first.files[0].file.content_type, "application/pdf");
    let (name, kind, bytes) = store
        .carrier_registration_file(AP, (2030, 1), 1)
        .await
        .expect("read")
        .expect("the document");
    assert_eq!(
        (name.as_str(), kind.as_str()),
        ("contrato-social.pdf", "application/pdf")
    );
    assert_eq!(bytes, pdf("x").bytes);

    // The charter now authorized, on the registration it names.
    let done = store
        .authorize_charter(&june, &rb, AP, &first_trip)
        .await
        .expect("registered carrier");
    assert_eq!(done.registration.as_deref(), Some("1/2030"));
    // The registration's last day: allowed; the day after: refused.
    store
        .authorize_charter(&june, &rb, AP, &trip(d(2031, 1, 1), d(2031, 1, 2)))
        .await
        .expect("through the registration's last day");
    let reason = refused_by(
        store
            .authorize_charter(&june, &rb, AP, &trip(d(2031, 1, 2), d(2031, 1, 3)))
            .await,
        "Art. 64, IV",
    );
    assert!(reason.contains("venceu em 02/01/2031"), "{reason}");
    // An emergency service (art. 29) is no charter: no registration weighed.
    let emergency = CharterInput {
        line: Some("MCP-FGO".into()),
        end: "Ferreira Gomes".into(),
        ..trip(d(2031, 1, 2), d(2031, 1, 5))
    };
    let service = store
        .authorize_charter(
            &june,
            &rb,
            AP,
            &CharterInput {
                kind: CharterKind::Emergency,
                ..emergency
            },
        )
        .await
        .expect("an emergency service");
    assert_eq!(service.registration, None);

    // A charter's files: one that is no PDF refused, nothing written; the
    // invoice attached stands for the invoice's number.
    let before = store
        .recent_charters(AP, CARRIER, 50)
        .await
        .expect("read")
        .len();
    let bad = CharterInput {
        files: vec![CharterDocument {
            kind: CharterFileKind::Invoice,
            file: Attachment {
                name: "nota.html".into(),
                bytes: b"<html>".to_vec(),
            },
        }],
        ..trip(d(2030, 7, 1), d(2030, 7, 2))
    };
    let reason = invalid_field(
        store.authorize_charter(&june, &rb, AP, &bad).await,
        "anexos",
    );
    assert!(reason.contains("`nota.html` não é PDF"), "{reason}");
    let big = CharterInput {
        files: vec![CharterDocument {
            kind: CharterFileKind::Other,
            file: Attachment {
                name: "grande.pdf".into(),
                bytes: [
                    b"%PDF-".as_slice(),
                    &vec![b'x'; outorga_store::CHARTER_MAX_BYTES],
                ]
                .concat(),
            },
        }],
        ..trip(d(2030, 7, 1), d(2030, 7, 2))
    };
    let reason = invalid_field(
        store.authorize_charter(&june, &rb, AP, &big).await,
        "anexos",
    );
    assert!(reason.contains("o limite é 10 MB"), "{reason}");
    assert_eq!(
        store
            .recent_charters(AP, CARRIER, 50)
            .await
            .expect("read")
            .len(),
        before
    );
    let with_files = CharterInput {
        invoice: None,
        files: vec![
            CharterDocument {
                kind: CharterFileKind::Invoice,
                file: pdf("nf-e.pdf"),
            },
            CharterDocument {
                kind: CharterFileKind::PassengerList,
                file: Attachment {
                    name: "lista.png".into(),
                    bytes: b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec(),
                },
            },
        ],
        ..trip(d(2030, 7, 1), d(2030, 7, 2))
    };
    let authorized = store
        .authorize_charter(&june, &rb, AP, &with_files)
        .await
        .expect("the invoice attached");
    // No gap: the refused requests took no number.
    assert_eq!(authorized.number, done.number + 3);
    let read = store
        .charter(AP, (authorized.year, authorized.number))
        .await
        .expect("read");
    assert_eq!(read.files.len(), 2);
    assert_eq!(read.files[0].kind, CharterFileKind::Invoice);
    assert_eq!(read.files[1].file.content_type, "image/png");
    let (_, kind, bytes) = store
        .charter_file(AP, (authorized.year, authorized.number), 2)
        .await
        .expect("read")
        .expect("the list");
    assert_eq!(kind, "image/png");
    assert!(bytes.starts_with(b"\x89PNG"));
    let no_invoice = CharterInput {
        invoice: None,
        ..trip(d(2030, 7, 1), d(2030, 7, 2))
    };
    refused_by(
        store.authorize_charter(&june, &rb, AP, &no_invoice).await,
        "Art. 3º, IX",
    );

    // Renewed on 20 December 2030: from 3 January 2031 through 2 January
    // 2032; the charter reaching 3 January now authorized; no second renewal.
    let december = on(d(2030, 12, 20));
    let renewed = register_carrier(&store, &december, &rb)
        .await
        .expect("renewed");
    assert_eq!(renewed.valid_from, d(2031, 1, 3));
    assert_eq!(renewed.valid_until, d(2032, 1, 2));
    assert_eq!(renewed.renews.as_deref(), Some("1/2030"));
    let across = store
        .authorize_charter(&december, &rb, AP, &trip(d(2031, 1, 2), d(2031, 1, 3)))
        .await
        .expect("across the renewal");
    match register_carrier(&store, &december, &rb).await {
        Err(StoreError::Refused { reason, articles }) => {
            assert!(reason.contains("já renova"), "{reason}");
            assert_eq!(articles, ["Art. 28, § 4º"]);
        }
        other => panic!("a second renewal: {other:?}"),
    }

    // Cancelled on 21 December (art. 28, § 5º), the renewal with it: a
    // charter from that day refused.
    let cancel_day = on(d(2030, 12, 21));
    invalid_field(
        store
            .cancel_carrier_registration(&cancel_day, &rb, AP, (2030, 1), "curto")
            .await,
        "motivo",
    );
    let cancelled = store
        .cancel_carrier_registration(
            &cancel_day,
            &rb,
            AP,
            (2030, 1),
            "Autorização de fretamento eventual usada em linha regular (auto nº 9/2030)",
        )
        .await
        .expect("cancelled");
    assert_eq!(cancelled.status, RegistrationStatus::Cancelled);
    let (on_day, _, article) = cancelled.cancelled.clone().expect("cancelled");
    assert_eq!(
        (on_day, article.as_str()),
        (d(2030, 12, 21), "Art. 28, § 5º")
    );
    let all = store
        .carrier_registrations(AP, CARRIER, Window::first(50))
        .await
        .expect("read")
        .items;
    assert!(
        all.iter()
            .all(|r| r.status == RegistrationStatus::Cancelled),
        "{all:?}"
    );
    let reason = refused_by(
        store
            .authorize_charter(
                &cancel_day,
                &rb,
                AP,
                &trip(d(2030, 12, 28), d(2030, 12, 29)),
            )
            .await,
        "Art. 28, § 4º",
    );
    assert!(reason.contains("cassado em 21/12/2030"), "{reason}");
    // The charter still to run lost its authorization with the registration
    // (art. 64, IV); the one that ended in July keeps its record as it was.
    let paper = store
        .document(&across.document.code)
        .await
        .expect("read")
        .expect("the authorization");
    assert_eq!(paper.cancelled_on, Some(d(2030, 12, 21)));
    let july = store
        .document(&authorized.document.code)
        .await
        .expect("read")
        .expect("the authorization");
    assert_eq!(july.cancelled_on, None);
    // The registration's own paper (the copy the bus carries), valid
    // through its last day, went with it.
    let papers = store
        .documents(
            AP,
            &outorga_store::DocumentFilter {
                subject: Some("carrier_registration:2030:1".into()),
                ..outorga_store::DocumentFilter::default()
            },
            Window::first(5),
        )
        .await
        .expect("papers")
        .items;
    assert_eq!(papers.len(), 1, "{papers:?}");
    assert_eq!(papers[0].kind, "carrier_registration");
    assert_eq!(papers[0].valid_until, Some(d(2031, 1, 2)));
    assert_eq!(papers[0].cancelled_on, Some(d(2030, 12, 21)));
    invalid_field(
        store
            .cancel_carrier_registration(
                &cancel_day,
                &rb,
                AP,
                (2030, 1),
                "De novo, pelos mesmos fundamentos",
            )
            .await,
        "registro",
    );
    let report = store.verify_audit().await.expect("verify");
    assert!(report.intact(), "{:#?}", report.problems);
}

#[tokio::test]
async fn register_and_charter_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    register_and_charter(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn register_and_charter_on_postgresql() {
    let (schema, url) = pg_schema("registrations").await;
    register_and_charter(&url).await;
    drop_schema(&schema).await;
}
