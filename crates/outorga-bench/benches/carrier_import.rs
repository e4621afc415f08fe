//! A month of a carrier's ticket sales imported into the record (SQLite, a
//! fresh database each time), and the month's findings read back: the cost
//! per ticket, at 10 000 tickets (the baseline) and at 100 000 in the same
//! run. Amapá's rulebook; one line; a trip every quarter of an hour, 44 seats
//! each; a ticket per seat, one seat in 500 sold a second time.

use chrono::{Days, NaiveDate};
use outorga_store::{CarrierFileKind, Change, Jurisdiction, Line, Store, sqlite_url};
use std::path::Path;

fn main() {
    divan::main();
}

const AP: &str = "amapa";
const CARRIER: &str = "36002518000101";

fn rulebook() -> outorga_core::model::Rulebook {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
    let library = outorga_rulebook::load(&root).expect("rulebooks load");
    library
        .get("amapa/onibus-intermunicipal")
        .expect("rulebook")
        .clone()
}

fn change() -> Change<'static> {
    Change {
        by: "bench",
        at: NaiveDate::from_ymd_opt(2026, 12, 10)
            .and_then(|d| d.and_hms_opt(15, 0, 0))
            .expect("date"),
        why: "benchmark",
    }
}

/// A CSV of `tickets` tickets in November 2026.
fn tickets(count: usize) -> String {
    let mut csv = String::from(
        "numero;serie;cnpj;transportadora;emissao;denominacao;valor;origem;destino;linha;partida;poltrona;passageiro;impressora\n",
    );
    let first = NaiveDate::from_ymd_opt(2026, 11, 1).expect("date");
    let mut n = 0;
    'month: for day in 0..30 {
        let date = first + Days::new(day);
        for quarter in 0..96 {
            let (hour, minute) = (quarter / 4, quarter % 4 * 15);
            for seat in 1..=44 {
                if n == count {
                    break 'month;
                }
                n += 1;
                // One seat in 500 sold a second time.
                let seat = if n % 500 == 0 { 1 } else { seat };
                csv.push_str(&format!(
                    "{n};A;36.002.518/0001-01;Expresso Tucuju;{};Bilhete de passagem;45,80;Macapá;Ferreira Gomes;AP-101;{} {hour:02}:{minute:02};{seat};Passageiro {n};Gráfica\n",
                    date.pred_opt().unwrap_or(date),
                    date
                ));
            }
        }
    }
    csv
}

/// A fresh store with the jurisdiction, the carrier and its line.
fn store(runtime: &tokio::runtime::Runtime, dir: &Path) -> Store {
    runtime.block_on(async {
        let keys = outorga_store::AuditKeys::new(
            outorga_store::AuditKey::from_hex(&"5e".repeat(32)).expect("key"),
        );
        let store = Store::open(&sqlite_url(dir).expect("url"), keys)
            .await
            .expect("open");
        store.seal(&change()).await.expect("seal");
        store
            .sync_jurisdictions(
                &change(),
                &[Jurisdiction {
                    id: AP.into(),
                    name: "Amapá".into(),
                    state: "AP".into(),
                    rulebooks: vec!["amapa/onibus-intermunicipal".into()],
                }],
            )
            .await
            .expect("sync");
        store
            .register(&change(), AP, CARRIER, "Expresso Tucuju Ltda")
            .await
            .expect("carrier");
        let line = Line {
            code: "AP-101".into(),
            name: "Macapá – Ferreira Gomes".into(),
            coefficient: "0.2175".parse().expect("coefficient"),
            ..Line::default()
        };
        store
            .register_line(&change(), AP, &line)
            .await
            .expect("line");
        store
    })
}

const SIZES: [usize; 2] = [10_000, 100_000];

/// The whole import: parsing, checking each ticket against the law's items
/// and the month, and writing them in one transaction.
#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn import_tickets(bencher: divan::Bencher, count: usize) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let rulebook = rulebook();
    let csv = tickets(count);
    let month = NaiveDate::from_ymd_opt(2026, 11, 1).expect("date");
    bencher
        .counter(divan::counter::ItemsCount::new(count))
        .with_inputs(|| {
            let dir = tempfile::tempdir().expect("dir");
            let store = store(&runtime, dir.path());
            (dir, store)
        })
        .bench_values(|(dir, store)| {
            let file = runtime
                .block_on(store.import_carrier_file(
                    &change(),
                    &rulebook,
                    AP,
                    CARRIER,
                    (CarrierFileKind::TicketsCsv, month),
                    ("bilhetes.csv", csv.as_bytes()),
                ))
                .expect("import");
            assert_eq!(file.accepted as usize, count);
            drop(dir);
        });
}

/// The month's findings over what was imported.
#[divan::bench(args = SIZES, sample_count = 5, sample_size = 1)]
fn month_findings(bencher: divan::Bencher, count: usize) {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let rulebook = rulebook();
    let month = NaiveDate::from_ymd_opt(2026, 11, 1).expect("date");
    let dir = tempfile::tempdir().expect("dir");
    let store = store(&runtime, dir.path());
    let csv = tickets(count);
    runtime
        .block_on(store.import_carrier_file(
            &change(),
            &rulebook,
            AP,
            CARRIER,
            (CarrierFileKind::TicketsCsv, month),
            ("bilhetes.csv", csv.as_bytes()),
        ))
        .expect("import");
    let today = change().at.date();
    bencher
        .counter(divan::counter::ItemsCount::new(count))
        .bench(|| {
            runtime
                .block_on(store.carrier_month(&rulebook, AP, CARRIER, month, today))
                .expect("month")
        });
}
