//! A department's existing records imported from its files, on both
//! backends: a Latin-1 `;` file with accents, a UTF-8 file with a BOM, an
//! `.xlsx` made here; a header of the wrong kind refused before any row;
//! a dry run that writes nothing and says what the real run then does,
//! a row that conflicts with an earlier one included; Santa Maria de
//! Jetibá's art. 64–66 applied; CNH `AB`; the permit in the list and its
//! history; the audit log intact.

use crate::common::{by, d, drop_schema, pg_schema, rulebook_named};
use outorga_store::{
    ImportKind, ImportOutcome, ImportReport, ImportRequest, Jurisdiction, PermitFilter, Store,
    StoreError, Window, read_import_file, sqlite_url,
};

const SMJ: &str = "santa-maria-de-jetiba";

async fn import(
    store: &Store,
    rulebook: &outorga_core::model::Rulebook,
    (kind, file, bytes): (ImportKind, &str, &[u8]),
    dry_run: bool,
) -> Result<ImportReport, StoreError> {
    let table = read_import_file(file, bytes)?;
    let mut seen = 0;
    let report = store
        .import(
            &by(),
            ImportRequest {
                jurisdiction: SMJ,
                kind,
                file,
                table: &table,
                rulebooks: &[rulebook],
                dry_run,
            },
            &mut |done, total| {
                assert!(done <= total);
                seen = done;
            },
        )
        .await?;
    assert_eq!(seen, report.rows.len(), "progress reached every row");
    Ok(report)
}

fn refused(report: &ImportReport) -> Vec<(u64, String)> {
    report
        .rows
        .iter()
        .filter_map(|r| match &r.outcome {
            ImportOutcome::Refused { field, .. } => Some((r.line, field.clone())),
            ImportOutcome::Imported { .. } => None,
        })
        .collect()
}

/// The permits file as a spreadsheet: the grant day a date cell.
fn permits_xlsx() -> Vec<u8> {
    use rust_xlsxwriter::{Format, Workbook};
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let date = Format::new().set_num_format("dd/mm/yyyy");
    for (c, name) in [
        "Serviço",
        "Número",
        "Titular",
        "Situação",
        "Outorgada em",
        "Placa",
        "Condutores",
    ]
    .iter()
    .enumerate()
    {
        sheet.write_string(0, c as u16, *name).expect("cell");
    }
    // Row 2: in force since 10/03/2015 (serial 42073), vehicle of 2010, one driver.
    sheet.write_string(1, 0, "táxi").expect("cell");
    sheet.write_number(1, 1, 7.0).expect("cell");
    sheet.write_string(1, 2, "526.018.159-06").expect("cell");
    sheet.write_string(1, 3, "em vigor").expect("cell");
    sheet
        .write_number_with_format(1, 4, 42073.0, &date)
        .expect("cell");
    sheet.write_string(1, 5, "MTX1A22").expect("cell");
    sheet.write_string(1, 6, "083.016.613-05").expect("cell");
    // Row 3: the same number again — conflicts with row 2.
    sheet.write_string(2, 0, "taxi").expect("cell");
    sheet.write_number(2, 1, 7.0).expect("cell");
    sheet.write_string(2, 2, "083.016.613-05").expect("cell");
    sheet.write_string(2, 4, "2016-01-01").expect("cell");
    // Row 4: a holder not in the register.
    sheet.write_string(3, 0, "taxi").expect("cell");
    sheet.write_number(3, 1, 8.0).expect("cell");
    sheet.write_string(3, 2, "186.091.390-34").expect("cell");
    sheet.write_string(3, 4, "01/02/2016").expect("cell");
    book.save_to_buffer().expect("xlsx")
}

async fn exercise(url: &str) {
    let store = crate::common::open(url).await;
    let rb = rulebook_named("santa-maria-de-jetiba/taxi");
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: SMJ.into(),
                name: "Santa Maria de Jetibá".into(),
                state: "ES".into(),
                rulebooks: vec![rb.id.clone()],
            }],
        )
        .await
        .expect("sync");
    let entries = |store: &Store| {
        let store = store.clone();
        async move { store.audit_entries(None).await.expect("log").len() }
    };

    // Holders as Excel saves them in Brazil: `;`, Latin-1, accents; CNH `AB`.
    let holders: &[u8] = b"Documento;Nome;CNH n\xfamero;CNH categorias;CNH validade\n\
        526.018.159-06;Jo\xe3o Concei\xe7\xe3o;02650306461;AB;31/12/2031\n\
        083.016.613-05;Beto Br\xe4un;;;\n\
        526.018.159-06;Repetido;;;\n";
    // A header that is not of vehicles: refused at once, nothing written.
    let before = entries(&store).await;
    let wrong = import(
        &store,
        &rb,
        (ImportKind::Vehicles, "titulares.csv", holders),
        false,
    )
    .await;
    let Err(StoreError::Invalid { field, reason }) = wrong else {
        panic!("a holders file read as vehicles: {wrong:?}");
    };
    assert_eq!(field, "cabeçalho");
    assert!(
        reason.contains("faltam as colunas placa, renavam, ano"),
        "{reason}"
    );
    assert_eq!(entries(&store).await, before);

    let dry = import(
        &store,
        &rb,
        (ImportKind::Holders, "titulares.csv", holders),
        true,
    )
    .await
    .expect("dry run");
    assert_eq!(refused(&dry), [(4, "documento".to_string())]);
    assert_eq!(entries(&store).await, before, "a dry run writes nothing");
    assert!(
        store
            .profile(SMJ, "52601815906")
            .await
            .expect("read")
            .is_none()
    );
    let real = import(
        &store,
        &rb,
        (ImportKind::Holders, "titulares.csv", holders),
        false,
    )
    .await
    .expect("import");
    assert_eq!(real.rows, dry.rows, "the dry run said what the import did");
    assert!(!real.dry_run);
    let joao = store
        .registered(SMJ, "52601815906")
        .await
        .expect("read")
        .expect("registered");
    assert_eq!(joao.name, "João Conceição");
    let cnh = store
        .profile(SMJ, "52601815906")
        .await
        .expect("read")
        .and_then(|p| p.cnh)
        .expect("CNH");
    assert_eq!(cnh.categories, ["A", "B"]);

    // Vehicles in UTF-8 with a BOM and commas.
    let vehicles = "\u{FEFF}placa,renavam,ano,cor\nMTX1A22,29485839707,2010,branca\n";
    let report = import(
        &store,
        &rb,
        (ImportKind::Vehicles, "veiculos.csv", vehicles.as_bytes()),
        false,
    )
    .await
    .expect("vehicles");
    assert_eq!((report.imported(), report.refused()), (1, 0));

    // Permits from a spreadsheet: the dry run first, then the real run.
    let xlsx = permits_xlsx();
    let before = entries(&store).await;
    let dry = import(
        &store,
        &rb,
        (ImportKind::Permits, "permissoes.xlsx", &xlsx),
        true,
    )
    .await
    .expect("dry run");
    assert_eq!(
        refused(&dry),
        [(3, "numero".to_string()), (4, "titular".to_string())],
        "{dry:?}"
    );
    assert_eq!(entries(&store).await, before, "a dry run writes nothing");
    let none = store
        .permits(SMJ, &PermitFilter::default(), Window::first(10))
        .await
        .expect("list");
    assert!(none.items.is_empty());
    let real = import(
        &store,
        &rb,
        (ImportKind::Permits, "permissoes.xlsx", &xlsx),
        false,
    )
    .await
    .expect("import");
    assert_eq!(real.rows, dry.rows, "the dry run said what the import did");
    let ImportOutcome::Imported { notes } = &real.rows[0].outcome else {
        panic!("row 2 imported: {real:?}");
    };
    assert!(notes[0].starts_with("Art. 64: "), "{notes:?}");
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("Art. 65: ") && n.contains("01/08/2026"))
    );
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("Art. 66: ") && n.contains("01/08/2025"))
    );

    // In the list, with art. 64's validity, and its history says whence.
    let list = store
        .permits(SMJ, &PermitFilter::default(), Window::first(10))
        .await
        .expect("list");
    assert_eq!(list.items.len(), 1);
    let (permit, history) = store.permit(SMJ, "taxi", 7).await.expect("dossier");
    assert_eq!(permit.status, "granted");
    assert_eq!(permit.granted_on, d(2015, 3, 10));
    assert_eq!(permit.expires_on, Some(d(2049, 8, 1)));
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].event, "import");
    assert!(
        history[0].reason.contains("permissoes.xlsx, linha 2"),
        "{}",
        history[0].reason
    );
    assert_eq!(history[0].articles, ["Art. 64", "Art. 65", "Art. 66"]);
    let drivers = store
        .drivers(SMJ, ("taxi", 7), Window::first(10))
        .await
        .expect("drivers");
    assert_eq!(drivers.items.len(), 1);
    assert!(store.verify_audit().await.expect("verify").intact());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_on_postgresql() {
    let (schema, url) = pg_schema("import").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}
