//! Past autos de infração and their debts imported from a department's
//! files, on both backends: autos in each state of the process with the
//! dates the state implies; Teófilo Otoni art. 110 (an auto decided before
//! the regulation kept as a final record: the next one is a repeat); a
//! pre-law auto still in process refused; an unknown infraction refused
//! with its line and column; the jurisdiction's counter past the imported
//! numbers; a final auto's fine a debt; a debts file with parcels and
//! payments, an unknown auto refused; a dry run reporting what the real run
//! does; the import job's progress kept in the database.

use crate::common::{by, drop_schema, pg_schema, rulebook_named};
use outorga_core::engine::process::Status;
use outorga_store::{
    AutoInput, DebtFilter, ImportJobState, ImportKind, ImportOutcome, ImportReport, ImportRequest,
    Jurisdiction, Store, StoreError, Window, read_import_file, sqlite_url,
};

const TO: &str = "teofilo-otoni";
const ANA: &str = "526.018.159-06";
const BETO: &str = "083.016.613-05";

async fn import(
    store: &Store,
    rulebooks: &[&outorga_core::model::Rulebook],
    (kind, file, text): (ImportKind, &str, &str),
    dry_run: bool,
) -> Result<ImportReport, StoreError> {
    let table = read_import_file(file, text.as_bytes())?;
    store
        .import(
            &by(),
            ImportRequest {
                jurisdiction: TO,
                kind,
                file,
                table: &table,
                rulebooks,
                dry_run,
            },
            &mut |_, _| {},
        )
        .await
}

/// (line, column, reason) of each refused row.
fn refused(report: &ImportReport) -> Vec<(u64, String, String)> {
    report
        .rows
        .iter()
        .filter_map(|r| match &r.outcome {
            ImportOutcome::Refused { field, reason } => {
                Some((r.line, field.clone(), reason.clone()))
            }
            ImportOutcome::Imported { .. } => None,
        })
        .collect()
}

fn notes(report: &ImportReport, line: u64) -> String {
    match &report
        .rows
        .iter()
        .find(|r| r.line == line)
        .expect("row")
        .outcome
    {
        ImportOutcome::Imported { notes } => notes.join("; "),
        ImportOutcome::Refused { field, reason } => {
            panic!("line {line} refused: {field}: {reason}")
        }
    }
}

const AUTOS: &str = "\
ano;numero;infracao;autuado;servico;cometida_em;local;descricao;agente;situacao;notificado_em;defesa_em;julgado_em;decisao_notificada_em;recorrido_em;definitivo_em;mantido;multa
2010;15;72101;526.018.159-06;mototaxi;01/12/2010 10:00;Praça Tiradentes;Sem camisa com mangas;Fiscal A;definitivo;;;;;;20/12/2010;;
2010;16;72101;083.016.613-05;mototaxi;02/12/2010 10:00;Praça Tiradentes;Sem camisa com mangas;Fiscal A;notificado;05/12/2010;;;;;;;
2011;40;72101;526.018.159-06;mototaxi;01/06/2011 08:30;Rua Epaminondas Otoni;Sem camisa com mangas;Fiscal B;definitivo;10/06/2011;;01/07/2011;;;15/08/2011;sim;
2011;41;99999;526.018.159-06;mototaxi;02/06/2011 08:30;Rua Epaminondas Otoni;Código errado;Fiscal B;lavrado;;;;;;;;
2029;7;72102;083.016.613-05;mototaxi;02/01/2029 09:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;lavrado;;;;;;;;
2029;8;72102;083.016.613-05;mototaxi;03/01/2029 09:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;notificado;10/01/2029;12/01/2029;;;;;;
2029;9;72102;083.016.613-05;mototaxi;04/01/2029 09:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;julgado;10/01/2029;;20/02/2029;;;;sim;
2029;10;72102;083.016.613-05;mototaxi;05/01/2029 09:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;julgado;10/01/2029;;20/02/2029;01/03/2029;;;sim;
2029;11;72102;083.016.613-05;mototaxi;06/01/2029 09:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;recorrido;10/01/2029;;20/02/2029;01/03/2029;05/03/2029;;sim;
2029;12;72102;083.016.613-05;mototaxi;07/01/2029 09:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;arquivado;;;;;;10/04/2029;;
2029;13;72102;083.016.613-05;mototaxi;08/01/2029 09:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;anulado;10/01/2029;;20/02/2029;;;20/02/2029;não;
2030;57;72102;083.016.613-05;mototaxi;01/01/2030 10:00;Av. Getúlio Vargas;Atestado vencido;Fiscal C;lavrado;;;;;;;;
2029;14;72102;083.016.613-05;mototaxi;09/01/2029 09:00;Av. Getúlio Vargas;Datas trocadas;Fiscal C;notificado;;;;;;;;
2028;1;72103;083.016.613-05;mototaxi;01/03/2028 09:00;Centro;Sem comprovante;Fiscal C;definitivo;;;;;;01/04/2028;;
2028;2;72103;083.016.613-05;mototaxi;01/05/2028 09:00;Centro;Sem comprovante;Fiscal C;definitivo;;;;;;01/06/2028;;20
";

const DEBTS: &str = "\
ano;numero;valor;unidade;emitido_em;vencimento;parcelas;pagamentos
2011;40;;;;;;20/09/2011 12
2010;15;90;BRL;20/12/2010;20/01/2011;3;20/01/2011 30 | 20/02/2011 30
2011;99;10;BRL;;;;
2029;7;10;BRL;;;;
";

async fn exercise(url: &str) {
    let store = crate::common::open(url).await;
    let mototaxi = rulebook_named("teofilo-otoni/mototaxi");
    let motofrete = rulebook_named("teofilo-otoni/motofrete");
    let rulebooks = [&mototaxi, &motofrete];
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: TO.into(),
                name: "Teófilo Otoni".into(),
                state: "MG".into(),
                rulebooks: vec![mototaxi.id.clone(), motofrete.id.clone()],
            }],
        )
        .await
        .expect("sync");
    for (doc, name) in [(ANA, "Ana Mototaxista"), (BETO, "Beto Mototaxista")] {
        store
            .register(&by(), TO, doc, name)
            .await
            .expect("register");
    }

    // The dry run says what the real run then does, and writes nothing.
    let dry = import(
        &store,
        &rulebooks,
        (ImportKind::Autos, "autos.csv", AUTOS),
        true,
    )
    .await
    .expect("dry run");
    assert!(
        store.auto(TO, (2011, 40)).await.is_err(),
        "the dry run wrote"
    );
    let real = import(
        &store,
        &rulebooks,
        (ImportKind::Autos, "autos.csv", AUTOS),
        false,
    )
    .await
    .expect("import");
    assert_eq!(
        dry.rows, real.rows,
        "the dry run reports what the real run does"
    );
    assert!(dry.dry_run && !real.dry_run);

    let refusals = refused(&real);
    let lines: Vec<(u64, &str)> = refusals.iter().map(|(l, f, _)| (*l, f.as_str())).collect();
    assert_eq!(
        lines,
        [(3, "lei"), (5, "infracao"), (14, "notificado_em")],
        "{refusals:?}"
    );
    // Art. 110 keeps what was imposed before the regulation, not what was
    // still in process.
    assert!(refusals[0].2.contains("Art. 110"), "{}", refusals[0].2);
    // An unknown infraction: the column, and how to fix it.
    assert!(
        refusals[1].2.contains("`99999` não é infração") && refusals[1].2.contains("catálogo"),
        "{}",
        refusals[1].2
    );

    // Before the regulation, kept as a final record (art. 110) …
    let kept = store.auto(TO, (2010, 15)).await.expect("auto 15/2010");
    assert_eq!(kept.status, Status::Final);
    assert!(notes(&real, 2).contains("Art. 110"), "{}", notes(&real, 2));
    // … so the auto of 2011 is a repeat (art. 84, II, a: a fine of 12 UPFTO,
    // not the first incidence's warning), final, its fine a debt.
    let repeat = store.auto(TO, (2011, 40)).await.expect("auto 40/2011");
    assert_eq!(repeat.status, Status::Final);
    assert_eq!(
        repeat.proposal.sanctions[0].kind, "fine",
        "{:?}",
        repeat.proposal
    );
    assert_eq!(repeat.proposal.sanctions[0].quantity.as_deref(), Some("12"));
    assert!(
        notes(&real, 4).contains("multa de 12 UPFTO em débito"),
        "{}",
        notes(&real, 4)
    );
    assert_eq!(repeat.inspector, "Fiscal B");
    assert_eq!(
        repeat.decision.as_ref().map(|d| d.upheld),
        Some(true),
        "a final auto was upheld"
    );

    // Each state with the dates it implies.
    for ((year, number), status) in [
        ((2029, 7), Status::Issued),
        ((2029, 8), Status::Notified),
        ((2029, 9), Status::Judged),
        ((2029, 10), Status::DecisionNotified),
        ((2029, 11), Status::Appealed),
        ((2029, 12), Status::Archived),
        ((2029, 13), Status::Annulled),
        ((2030, 57), Status::Issued),
    ] {
        let auto = store.auto(TO, (year, number)).await.expect("auto");
        assert_eq!(auto.status, status, "{number}/{year}");
    }
    let notified = store.auto(TO, (2029, 8)).await.expect("auto");
    assert_eq!(notified.notified_on, Some(crate::common::d(2029, 1, 10)));
    assert_eq!(notified.defense_on, Some(crate::common::d(2029, 1, 12)));
    assert!(notified.defense_by.is_some(), "the defense's limit is kept");
    let appealed = store.auto(TO, (2029, 11)).await.expect("auto");
    assert_eq!(appealed.appealed_on, Some(crate::common::d(2029, 3, 5)));
    let annulled = store.auto(TO, (2029, 13)).await.expect("auto");
    assert_eq!(annulled.decision.map(|d| d.upheld), Some(false));
    assert_eq!(annulled.final_on, Some(crate::common::d(2029, 2, 20)));

    // A fine the file states differently from the law's: the file's is the
    // debt, the outcome says what the law would have given.
    assert!(
        notes(&real, 16).contains("multa conforme o arquivo: 20 UPFTO (a lei daria 12 UPFTO"),
        "{}",
        notes(&real, 16)
    );
    let beto = store
        .debts(
            TO,
            &DebtFilter {
                debtor: Some(BETO.into()),
                ..DebtFilter::default()
            },
            Window::first(10),
        )
        .await
        .expect("debts");
    assert_eq!(beto.items.len(), 1, "the first incidence is a warning");
    assert_eq!(beto.items[0].quantity, "20");

    // The history starts with the import step, naming the file and line.
    let (_, state) = store.auto_state(TO, (2011, 40)).await.expect("state");
    assert_eq!(state.status, Status::Final);
    let log = store.audit_entries(None).await.expect("log");
    let step = log
        .iter()
        .find(|e| e.action == "auto.import" && e.subject == "auto:2011:40")
        .expect("the import step's audit entry");
    assert!(
        step.reason.contains("autos.csv, linha 4"),
        "{}",
        step.reason
    );

    // An auto issued after numbers past the imported ones of its year.
    let issued = store
        .issue_auto(
            &by(),
            &mototaxi,
            TO,
            &AutoInput {
                infraction: "72102".into(),
                offender: BETO.into(),
                permit: None,
                plate: None,
                committed_at: crate::common::d(2030, 1, 1)
                    .and_hms_opt(18, 0, 0)
                    .expect("time"),
                place: "Centro".into(),
                description: "Atestado vencido".into(),
            },
        )
        .await
        .expect("issue");
    assert_eq!((issued.year, issued.number), (2030, 58));

    // Debts: the final auto's fine paid; a pre-law fine in parcels.
    let dry = import(
        &store,
        &rulebooks,
        (ImportKind::Debts, "debitos.csv", DEBTS),
        true,
    )
    .await
    .expect("dry run");
    let real = import(
        &store,
        &rulebooks,
        (ImportKind::Debts, "debitos.csv", DEBTS),
        false,
    )
    .await
    .expect("import");
    assert_eq!(dry.rows, real.rows);
    let lines: Vec<(u64, String)> = refused(&real).into_iter().map(|(l, f, _)| (l, f)).collect();
    assert_eq!(
        lines,
        [(4, "numero".to_string()), (5, "numero".to_string())]
    );
    assert!(
        refused(&real)[0]
            .2
            .contains("importe antes o arquivo de autos")
    );
    let debts = store
        .debts(
            TO,
            &DebtFilter {
                debtor: Some(ANA.into()),
                ..DebtFilter::default()
            },
            Window::first(10),
        )
        .await
        .expect("debts");
    assert_eq!(debts.items.len(), 2, "{:?}", debts.items);
    let fine = debts
        .items
        .iter()
        .find(|d| d.year == 2011)
        .expect("the fine of 40/2011");
    assert_eq!(
        (fine.unit.as_str(), fine.quantity.as_str()),
        ("UPFTO", "12")
    );
    assert!(fine.settled());
    let parcels = debts
        .items
        .iter()
        .find(|d| d.year == 2010)
        .expect("the debt of 15/2010");
    assert_eq!(parcels.installments, Some(3));
    assert_eq!(parcels.payments.len(), 2);
    assert!(!parcels.settled());
    assert!(
        notes(&real, 3).contains("em aberto: 2 de 3"),
        "{}",
        notes(&real, 3)
    );
    // Importing it again refuses what is recorded.
    let again = import(
        &store,
        &rulebooks,
        (ImportKind::Debts, "debitos.csv", DEBTS),
        false,
    )
    .await
    .expect("again");
    assert_eq!(again.imported(), 0);

    // The same file as a job: its progress in the database.
    let more = "ano;numero;infracao;autuado;servico;cometida_em;local;descricao;situacao\n\
        2029;30;72102;083.016.613-05;mototaxi;02/02/2029 09:00;Centro;Atestado;lavrado\n\
        2029;31;72102;083.016.613-05;mototaxi;99/02/2029 09:00;Centro;Atestado;lavrado\n";
    let table = read_import_file("mais.csv", more.as_bytes()).expect("table");
    let request = ImportRequest {
        jurisdiction: TO,
        kind: ImportKind::Autos,
        file: "mais.csv",
        table: &table,
        rulebooks: &rulebooks,
        dry_run: false,
    };
    let id = store.start_import_job(&by(), request).await.expect("job");
    let now = by().at;
    let job = store.import_job(TO, &id, now).await.expect("job");
    assert_eq!(
        (job.state, job.done, job.total),
        (ImportJobState::Running, 0, 2)
    );
    let later = now + chrono::Duration::seconds(120);
    assert_eq!(
        store.import_job(TO, &id, later).await.expect("job").state,
        ImportJobState::Interrupted,
        "a job that stopped beating was interrupted"
    );
    store
        .run_import_job(&by(), request, &id, &|| now)
        .await
        .expect("run");
    let job = store.import_job(TO, &id, later).await.expect("job");
    assert_eq!(job.state, ImportJobState::Finished);
    assert_eq!((job.done, job.imported, job.refused), (2, 1, 1));
    assert_eq!(job.outcomes.len(), 2);
    assert!(
        store.import_job("cangucu", &id, now).await.is_err(),
        "another jurisdiction's"
    );

    // A law without a transitional article keeping earlier records: an
    // auto from before it is refused.
    let smj = rulebook_named("santa-maria-de-jetiba/taxi");
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: "santa-maria-de-jetiba".into(),
                name: "Santa Maria de Jetibá".into(),
                state: "ES".into(),
                rulebooks: vec![smj.id.clone()],
            }],
        )
        .await
        .expect("sync");
    let table = read_import_file(
        "autos.csv",
        "ano;numero;infracao;autuado;cometida_em;local;descricao;situacao;definitivo_em\n\
         2020;3;51-I-a;526.018.159-06;01/02/2020 10:00;Centro;Antes da lei;definitivo;01/03/2020\n"
            .as_bytes(),
    )
    .expect("table");
    let before = store
        .import(
            &by(),
            ImportRequest {
                jurisdiction: "santa-maria-de-jetiba",
                kind: ImportKind::Autos,
                file: "autos.csv",
                table: &table,
                rulebooks: &[&smj],
                dry_run: true,
            },
            &mut |_, _| {},
        )
        .await
        .expect("dry run");
    let refusal = refused(&before);
    assert_eq!(refusal.len(), 1);
    assert_eq!(refusal[0].1, "cometida_em");
    assert!(
        refusal[0].2.contains("não tem disposição transitória"),
        "{}",
        refusal[0].2
    );

    assert!(store.verify_audit().await.expect("verify").intact());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autos_and_debts_on_sqlite() {
    let dir = tempfile::tempdir().expect("tempdir");
    exercise(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autos_and_debts_on_postgresql() {
    let (schema, url) = pg_schema("import_autos").await;
    exercise(&url).await;
    drop_schema(&schema).await;
}
