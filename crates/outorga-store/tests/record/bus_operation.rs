//! Amapá's intercity buses in the record, tested from the law: a line's
//! operation in force on any day (art. 13, V; 34), and what the carriers'
//! own statistics and tickets show — a seat sold twice (61-IV-b), more
//! tickets than seats (61-I-c; art. 31), tickets without art. 44's items
//! (art. 62; none on a semi-urban line, art. 44, § ú), a week below the
//! minimum frequency (61-IV-a; art. 13, V), statistics more than 30 days late
//! (61-II-e) — each at its boundary; a file imported twice adds nothing.

use crate::common::{by, d, drop_schema, on, open, pg_schema, rulebook_named};
use chrono::{Datelike, Days, NaiveDate, NaiveTime};
use outorga_core::engine::bus_compliance::Schedule;
use outorga_core::model::{FindingKind, Rulebook};
use outorga_store::{
    CarrierFileKind, GrantRequest, Jurisdiction, OperationDecision, OperationInput,
    OperationSource, OperationStatus, ServiceLevel, Store, StoreError, Vehicle, sqlite_url,
};

pub(crate) const AP: &str = "amapa";
pub(crate) const CARRIER: &str = "36002518000101";
const OTHER: &str = "11222333000181";
pub(crate) const LINE: &str = "MCP-FGO";
const SEMI: &str = "MCP-STN";
pub(crate) const BUS: &str = "NEA1B23";

fn t(h: u32, m: u32) -> NaiveTime {
    NaiveTime::from_hms_opt(h, m, 0).expect("time")
}

/// Monday to Friday at 06:00 and 14:00, Saturday at 08:00: 11 a week.
fn weekly(minimum: u32) -> Schedule {
    let weekday = vec![t(6, 0), t(14, 0)];
    Schedule {
        departures: [
            weekday.clone(),
            weekday.clone(),
            weekday.clone(),
            weekday.clone(),
            weekday,
            vec![t(8, 0)],
            Vec::new(),
        ],
        min_weekly_trips: minimum,
    }
}

fn operation(since: NaiveDate, minimum: u32) -> OperationInput {
    OperationInput {
        since,
        level: ServiceLevel::Conventional,
        schedule: weekly(minimum),
        terminals: ("Macapá".into(), "Ferreira Gomes".into()),
        stops: vec!["Porto Grande".into()],
        justification: "Contrato de concessão nº 1/2026, anexo II".into(),
    }
}

pub(crate) fn renavam(seed: u64) -> String {
    let base = format!("{:010}", 1_000_000_000u64 + seed * 104_729);
    let sum: u32 = base
        .bytes()
        .map(|b| u32::from(b - b'0'))
        .rev()
        .zip([2, 3, 4, 5, 6, 7, 8, 9, 2, 3])
        .map(|(d, w)| d * w)
        .sum();
    format!("{base}{}", sum * 10 % 11 % 10)
}

pub(crate) async fn setup(store: &Store) -> Rulebook {
    let rb = rulebook_named("amapa/onibus-intermunicipal");
    store
        .sync_jurisdictions(
            &by(),
            &[Jurisdiction {
                id: AP.into(),
                name: "Amapá".into(),
                state: "AP".into(),
                rulebooks: vec![rb.id.clone()],
            }],
        )
        .await
        .expect("sync");
    for (document, name) in [
        (CARRIER, "Expresso Tucuju Ltda"),
        (OTHER, "Viação Oiapoque Ltda"),
    ] {
        store
            .register(&by(), AP, document, name)
            .await
            .expect("carrier");
    }
    for (code, semi) in [(LINE, false), (SEMI, true)] {
        let line = outorga_store::Line {
            code: code.into(),
            name: format!("Linha {code}"),
            semi_urban: semi,
            coefficient: outorga_store::parse_coefficient("0.2175").expect("coefficient"),
            ..outorga_store::Line::default()
        };
        store.register_line(&by(), AP, &line).await.expect("line");
    }
    for line in [LINE, SEMI] {
        store
            .grant_permit(
                &on(d(2026, 9, 1)),
                &rb,
                AP,
                &GrantRequest {
                    service: "onibus".into(),
                    holder: CARRIER.into(),
                    on: d(2026, 9, 1),
                    quota: None,
                    line: Some(line.into()),
                },
            )
            .await
            .expect("delegation");
    }
    let bus = Vehicle {
        plate: BUS.into(),
        renavam: renavam(7),
        manufactured: 2024,
        colour: "Branca".into(),
        make: Some("Marcopolo".into()),
        model: Some("Viaggio 1050".into()),
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
        .put_operation(
            &on(d(2026, 9, 20)),
            &rb,
            AP,
            LINE,
            &operation(d(2026, 10, 1), 10),
            OperationSource::Agency {
                act: "Portaria SETRAP nº 12/2026",
            },
        )
        .await
        .expect("operation");
    rb
}

async fn operations(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;
    // The minimum frequency fits in the schedule's 11 departures a week.
    let err = store
        .put_operation(
            &by(),
            &rb,
            AP,
            LINE,
            &operation(d(2030, 2, 1), 12),
            OperationSource::Agency { act: "Portaria 1" },
        )
        .await
        .expect_err("12 > 11");
    assert!(
        matches!(
            err,
            StoreError::Invalid {
                field: "frequência_mínima",
                ..
            }
        ),
        "{err:?}"
    );
    // Only the carrier of the line asks (art. 34), and for days to come.
    let err = store
        .put_operation(
            &by(),
            &rb,
            AP,
            LINE,
            &operation(d(2030, 2, 1), 11),
            OperationSource::Carrier(OTHER),
        )
        .await
        .expect_err("not its line");
    assert!(
        matches!(
            err,
            StoreError::Invalid {
                field: "transportadora",
                ..
            }
        ),
        "{err:?}"
    );
    let err = store
        .put_operation(
            &by(),
            &rb,
            AP,
            LINE,
            &operation(d(2030, 1, 1), 11),
            OperationSource::Carrier(CARRIER),
        )
        .await
        .expect_err("a past day");
    assert!(
        matches!(
            err,
            StoreError::Invalid {
                field: "vigência",
                ..
            }
        ),
        "{err:?}"
    );
    let asked = store
        .put_operation(
            &by(),
            &rb,
            AP,
            LINE,
            &operation(d(2030, 2, 1), 11),
            OperationSource::Carrier(CARRIER),
        )
        .await
        .expect("request");
    assert_eq!(asked.status, OperationStatus::Requested);
    assert_eq!(asked.articles, vec!["Art. 34".to_string()]);
    // Asked is not in force.
    let (all, current) = store
        .line_operations(AP, LINE, d(2030, 3, 1))
        .await
        .expect("read");
    assert_eq!(all.len(), 2);
    assert_eq!(
        current.expect("in force").input.schedule.min_weekly_trips,
        10
    );
    // Approved after the day it asked for: refused; on time: in force from it.
    let late = OperationDecision {
        approve: true,
        on: d(2030, 2, 2),
        act: "Portaria SETRAP nº 3/2030".into(),
        grounds: String::new(),
    };
    let err = store
        .decide_operation(&on(d(2030, 2, 2)), &rb, AP, (LINE, asked.seq), &late)
        .await
        .expect_err("after the day asked");
    assert!(
        matches!(err, StoreError::Invalid { field: "data", .. }),
        "{err:?}"
    );
    let decision = OperationDecision {
        on: d(2030, 1, 2),
        ..late
    };
    let approved = store
        .decide_operation(&by(), &rb, AP, (LINE, asked.seq), &decision)
        .await
        .expect("approve");
    assert_eq!(approved.status, OperationStatus::Approved);
    let err = store
        .decide_operation(&by(), &rb, AP, (LINE, asked.seq), &decision)
        .await
        .expect_err("decided once");
    assert!(matches!(err, StoreError::Taken { .. }), "{err:?}");
    // Any day's operation is known: the day before the change and from it.
    for (day, minimum) in [
        (d(2026, 9, 30), None),
        (d(2026, 10, 1), Some(10)),
        (d(2030, 1, 31), Some(10)),
        (d(2030, 2, 1), Some(11)),
    ] {
        let (_, current) = store.line_operations(AP, LINE, day).await.expect("read");
        assert_eq!(
            current.map(|o| o.input.schedule.min_weekly_trips),
            minimum,
            "{day}"
        );
    }
    // Every line's operation in force on a day, in one read.
    for (day, minimum) in [(d(2026, 10, 15), 10), (d(2030, 3, 1), 11)] {
        let all = store.operations_in_force(AP, day).await.expect("in force");
        assert_eq!(
            all.get(LINE).map(|o| o.input.schedule.min_weekly_trips),
            Some(minimum),
            "{day}"
        );
        assert!(!all.contains_key(SEMI));
    }
    // A line's coefficient in force: the registered one, then the approved one from its day.
    store
        .approve_coefficient(
            &by(),
            AP,
            LINE,
            (
                d(2027, 3, 1),
                "0.2301".parse().expect("decimal"),
                "Portaria 5/2027",
            ),
        )
        .await
        .expect("readjustment");
    let before = store
        .coefficients_in_force(AP, d(2027, 2, 28))
        .await
        .expect("coefficients");
    assert_eq!(before[LINE], ("0.2175".parse().expect("decimal"), None));
    let after = store
        .coefficients_in_force(AP, d(2027, 3, 1))
        .await
        .expect("coefficients");
    assert_eq!(
        after[LINE],
        (
            "0.2301".parse().expect("decimal"),
            Some((d(2027, 3, 1), "Portaria 5/2027".to_string()))
        )
    );
    // A refusal needs its grounds.
    let again = store
        .put_operation(
            &by(),
            &rb,
            AP,
            LINE,
            &operation(d(2030, 3, 1), 9),
            OperationSource::Carrier(CARRIER),
        )
        .await
        .expect("request");
    let refuse = OperationDecision {
        approve: false,
        on: d(2030, 1, 2),
        act: "Ofício 9/2030".into(),
        grounds: String::new(),
    };
    let err = store
        .decide_operation(&by(), &rb, AP, (LINE, again.seq), &refuse)
        .await
        .expect_err("no grounds");
    assert!(
        matches!(
            err,
            StoreError::Invalid {
                field: "fundamentos",
                ..
            }
        ),
        "{err:?}"
    );
}

/// The statistics of November 2026: every trip of the schedule (46), but
/// one in the week of 2 to 8 November (10 made: the minimum) and two in the
/// week of 9 to 15 November (9 made: below it).
fn november_statistics() -> String {
    let mut csv = String::from("linha;partida;placa;origem;destino;passageiros\n");
    let mut day = d(2026, 11, 1);
    while day.month() == 11 {
        let times = weekly(10).on(day).to_vec();
        for time in times {
            let missed = [
                d(2026, 11, 6).and_time(t(14, 0)),
                d(2026, 11, 13).and_time(t(14, 0)),
                d(2026, 11, 14).and_time(t(8, 0)),
            ];
            if missed.contains(&day.and_time(time)) {
                continue;
            }
            let at = day.and_time(time).format("%Y-%m-%d %H:%M");
            csv.push_str(&format!("{LINE};{at};{BUS};Macapá;Porto Grande;20\n"));
            csv.push_str(&format!(
                "{LINE};{at};{BUS};Porto Grande;Ferreira Gomes;10\n"
            ));
        }
        day = day + Days::new(1);
    }
    csv
}

const HEADER: &str = "numero;serie;cnpj;transportadora;emissao;denominacao;valor;origem;destino;linha;partida;poltrona;passageiro;impressora\n";

fn ticket(number: u32, line: &str, at: &str, seat: &str, passenger: &str) -> String {
    format!(
        "{number};A;36.002.518/0001-01;Expresso Tucuju Ltda, Av. FAB 100, Macapá;2026-10-20;Bilhete de passagem;45,80;Macapá;Ferreira Gomes;{line};{at};{seat};{passenger};Gráfica Amapá 11.222.333/0001-81\n"
    )
}

/// Tickets of November 2026: a full trip (44 seats, no finding), a trip
/// with 45 tickets, a seat sold twice, a ticket without the passenger's name
/// (and one on the semi-urban line, which may be simplified), and four rows
/// the import refuses.
fn november_tickets() -> String {
    let mut csv = String::from(HEADER);
    let mut n = 0;
    let mut next = || {
        n += 1;
        n
    };
    for seat in 1..=44 {
        csv.push_str(&ticket(
            next(),
            LINE,
            "2026-11-03 06:00",
            &seat.to_string(),
            "Ana",
        ));
    }
    for seat in 0..=44 {
        csv.push_str(&ticket(
            next(),
            LINE,
            "2026-11-03 14:00",
            &seat.to_string(),
            "Bia",
        ));
    }
    csv.push_str(&ticket(next(), LINE, "2026-11-04 06:00", "7", "Caio"));
    csv.push_str(&ticket(next(), LINE, "2026-11-04 06:00", "7", "Davi"));
    csv.push_str(&ticket(next(), LINE, "2026-11-04 06:00", "8", "Edu"));
    // A seat the 44-seat bus does not have: someone stands (art. 31).
    csv.push_str(&ticket(next(), LINE, "2026-11-04 06:00", "45", "Flora"));
    csv.push_str(&ticket(next(), LINE, "2026-11-05 06:00", "8", ""));
    csv.push_str(&ticket(next(), SEMI, "2026-11-05 07:00", "", ""));
    // Refused: an unknown line, a December trip, another company's CNPJ, a seat that is no number.
    csv.push_str(&ticket(next(), "XYZ-1", "2026-11-05 06:00", "9", "Fábio"));
    csv.push_str(&ticket(next(), LINE, "2026-12-01 06:00", "9", "Gil"));
    csv.push_str(
        &ticket(next(), LINE, "2026-11-05 06:00", "9", "Hugo").replace("36.002.518/0001-01", OTHER),
    );
    csv.push_str(&ticket(next(), LINE, "2026-11-05 06:00", "x", "Ivo"));
    csv
}

fn bpe(key: &str, seat: u32) -> String {
    format!(
        r#"<BPe xmlns="http://www.portalfiscal.inf.br/bpe">
  <infBPe versao="1.00" Id="BPe{key}">
    <ide><mod>63</mod><serie>1</serie><nBP>{seat}</nBP><dhEmi>2026-10-30T10:00:00-03:00</dhEmi></ide>
    <emit><CNPJ>{CARRIER}</CNPJ><xNome>Expresso Tucuju &amp; Cia</xNome></emit>
    <infPassagem><xLocOrig>Macapá</xLocOrig><xLocDest>Ferreira Gomes</xLocDest>
      <infPassageiro><xNome>Joana</xNome></infPassageiro></infPassagem>
    <infViagem><dhViagem>2026-11-06T06:00:00-03:00</dhViagem><prefixo>{LINE}</prefixo><poltrona>{seat}</poltrona></infViagem>
    <infValorBPe><vBP>45.80</vBP><tpDesconto>02</tpDesconto></infValorBPe>
  </infBPe>
</BPe>
"#
    )
}

async fn month(
    store: &Store,
    rb: &Rulebook,
    today: NaiveDate,
    first: NaiveDate,
) -> Vec<(FindingKind, String, String)> {
    store
        .carrier_month(rb, AP, CARRIER, first, today)
        .await
        .expect("month")
        .findings
        .into_iter()
        .map(|f| (f.kind, f.infraction, f.key))
        .collect()
}

async fn carriers_data(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;
    let november = d(2026, 11, 1);
    // The statistics of November are due on 15 December; handed in on 15
    // January, 31 days after: late (61-II-e).
    let stats = november_statistics();
    let imported = store
        .import_carrier_file(
            &on(d(2027, 1, 15)),
            &rb,
            AP,
            CARRIER,
            (CarrierFileKind::StatisticsCsv, november),
            ("estatisticas-2026-11.csv", stats.as_bytes()),
        )
        .await
        .expect("statistics");
    assert!(imported.refused.is_empty(), "{:?}", imported.refused);
    assert_eq!(imported.accepted, 43); // 46 scheduled, three missed
    let tickets = november_tickets();
    let file = store
        .import_carrier_file(
            &on(d(2027, 1, 15)),
            &rb,
            AP,
            CARRIER,
            (CarrierFileKind::TicketsCsv, november),
            ("bilhetes-2026-11.csv", tickets.as_bytes()),
        )
        .await
        .expect("tickets");
    assert_eq!(file.accepted, 44 + 45 + 6);
    let refused: Vec<(u64, &str)> = file
        .refused
        .iter()
        .map(|r| (r.line, r.field.as_str()))
        .collect();
    assert_eq!(
        refused,
        vec![
            (97, "linha"),
            (98, "partida"),
            (99, "cnpj"),
            (100, "poltrona")
        ],
        "{:?}",
        file.refused
    );
    // The same file again adds nothing.
    let again = store
        .import_carrier_file(
            &on(d(2027, 1, 16)),
            &rb,
            AP,
            CARRIER,
            (CarrierFileKind::TicketsCsv, november),
            ("bilhetes-de-novo.csv", tickets.as_bytes()),
        )
        .await
        .expect("again");
    assert!(again.earlier);
    assert_eq!((again.id, again.accepted), (file.id, file.accepted));
    // Another file with one ticket already recorded and one new.
    let overlap = format!(
        "{HEADER}{}{}",
        ticket(1, LINE, "2026-11-03 06:00", "1", "Ana"),
        ticket(500, LINE, "2026-11-06 14:00", "2", "Lia")
    );
    let second = store
        .import_carrier_file(
            &on(d(2027, 1, 16)),
            &rb,
            AP,
            CARRIER,
            (CarrierFileKind::TicketsCsv, november),
            ("bilhetes-complemento.csv", overlap.as_bytes()),
        )
        .await
        .expect("overlap");
    assert_eq!((second.accepted, second.repeated), (1, 1));
    // BP-e: one good, one with a key that is not 44 digits (refused at its line).
    let key = "16261136002518000101630010000000011000000015";
    let xml = format!("<lote>\n{}{}</lote>\n", bpe(key, 3), bpe("123", 4));
    let bpe_file = store
        .import_carrier_file(
            &on(d(2027, 1, 16)),
            &rb,
            AP,
            CARRIER,
            (CarrierFileKind::TicketsBpe, november),
            ("bpe-2026-11.xml", xml.as_bytes()),
        )
        .await
        .expect("bpe");
    assert_eq!(bpe_file.accepted, 1);
    assert_eq!(
        bpe_file
            .refused
            .iter()
            .map(|r| (r.line, r.field.as_str()))
            .collect::<Vec<_>>(),
        vec![(13, "infBPe/@Id")],
        "{:?}",
        bpe_file.refused
    );
    // What the data shows, weeks ended before 20 January 2027.
    let found = month(&store, &rb, d(2027, 1, 20), november).await;
    let kinds: Vec<(FindingKind, &str, &str)> = found
        .iter()
        .map(|(k, i, key)| (*k, i.as_str(), key.as_str()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            (
                FindingKind::SeatSoldTwice,
                "61-IV-b",
                "seat_sold_twice:MCP-FGO:2026-11-04T06:00:7"
            ),
            (
                FindingKind::OverCapacity,
                "61-I-c",
                "over_capacity:MCP-FGO:2026-11-03T14:00"
            ),
            (
                FindingKind::OverCapacity,
                "61-I-c",
                "over_capacity:MCP-FGO:2026-11-04T06:00"
            ),
            (
                FindingKind::TicketFields,
                "62",
                "ticket_fields:MCP-FGO:2026-11-05T06:00"
            ),
            (
                FindingKind::BelowMinimumFrequency,
                "61-IV-a",
                "below_minimum_frequency:MCP-FGO:2026-11-09"
            ),
            (
                FindingKind::LateStatistics,
                "61-II-e",
                "late_statistics:2026-11"
            ),
        ]
    );
    let view = store
        .carrier_month(&rb, AP, CARRIER, november, d(2027, 1, 20))
        .await
        .expect("month");
    let line = view.lines.iter().find(|l| l.line == LINE).expect("line");
    assert_eq!((line.scheduled, line.made), (46, 43));
    assert_eq!(view.due, d(2026, 12, 15));
    assert_eq!(view.delivered, Some(d(2027, 1, 15)));
    // October: statistics handed in on 15 December, exactly 30 days after
    // 15 November: not late. December, none handed in: late only from 15
    // February (due 15 January + 30 days = 14 February).
    let october = stats.replace("2026-11-", "2026-10-");
    let oct = store
        .import_carrier_file(
            &on(d(2026, 12, 15)),
            &rb,
            AP,
            CARRIER,
            (CarrierFileKind::StatisticsCsv, d(2026, 10, 1)),
            ("estatisticas-2026-10.csv", october.as_bytes()),
        )
        .await
        .expect("october");
    assert!(oct.accepted > 0);
    let late = |found: &[(FindingKind, String, String)]| {
        found
            .iter()
            .any(|(k, _, _)| *k == FindingKind::LateStatistics)
    };
    assert!(!late(
        &month(&store, &rb, d(2027, 1, 20), d(2026, 10, 1)).await
    ));
    assert!(!late(
        &month(&store, &rb, d(2027, 2, 14), d(2026, 12, 1)).await
    ));
    assert!(late(
        &month(&store, &rb, d(2027, 2, 15), d(2026, 12, 1)).await
    ));

    // A finding becomes an auto against the carrier, under its delegation
    // of the line, once.
    let key = "seat_sold_twice:MCP-FGO:2026-11-04T06:00:7";
    let auto = store
        .auto_from_finding(&on(d(2027, 1, 20)), &rb, AP, (CARRIER, "2026-11"), key)
        .await
        .expect("auto");
    assert_eq!(auto.infraction, "61-IV-b");
    assert_eq!(auto.offender, CARRIER);
    assert_eq!(auto.permit, Some(("onibus".into(), 1)));
    assert_eq!(auto.committed_at, d(2026, 11, 4).and_time(t(6, 0)));
    let fine = auto
        .proposal
        .sanctions
        .iter()
        .find(|s| s.kind == "fine")
        .expect("a fine");
    // 4 000 × CTM, the CTM the mean of the two lines' 0,2175 (semi-urban excluded).
    assert_eq!(fine.brl.as_deref(), Some("870.00"), "{fine:?}");
    let err = store
        .auto_from_finding(&on(d(2027, 1, 20)), &rb, AP, (CARRIER, "2026-11"), key)
        .await
        .expect_err("once");
    assert!(matches!(err, StoreError::Taken { .. }), "{err:?}");
    let view = store
        .carrier_month(&rb, AP, CARRIER, november, d(2027, 1, 20))
        .await
        .expect("month");
    let with_auto = view
        .findings
        .iter()
        .find(|f| f.key == key)
        .expect("finding");
    assert_eq!(with_auto.auto, Some((auto.year, auto.number)));
}

#[tokio::test]
async fn operations_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    operations(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn operations_on_postgresql() {
    let (schema, url) = pg_schema("bus_operations").await;
    operations(&url).await;
    drop_schema(&schema).await;
}

#[tokio::test]
async fn carriers_data_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    carriers_data(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn carriers_data_on_postgresql() {
    let (schema, url) = pg_schema("carriers_data").await;
    carriers_data(&url).await;
    drop_schema(&schema).await;
}

/// The demo's carrier: last month's data shows what the demo put in it,
/// each finding with its infraction; the same ticket file again adds
/// nothing; the line's operation of a past day is known.
async fn demo(url: &str) {
    let library = crate::common::library();
    let store = crate::common::with_demo(url, &library).await;
    let rb = library
        .get("amapa/onibus-intermunicipal")
        .expect("rulebook");
    let today = by().at.date();
    let first = outorga_store::last_month(today);
    let (carrier, _) = outorga_store::DEMO_CARRIER;
    let view = store
        .carrier_month(rb, AP, carrier, first, today)
        .await
        .expect("month");
    let kinds: Vec<(FindingKind, &str)> = view
        .findings
        .iter()
        .map(|f| (f.kind, f.infraction.as_str()))
        .collect();
    for expected in [
        (FindingKind::SeatSoldTwice, "61-IV-b"),
        (FindingKind::OverCapacity, "61-I-c"),
        (FindingKind::TicketFields, "62"),
        (FindingKind::BelowMinimumFrequency, "61-IV-a"),
    ] {
        assert!(kinds.contains(&expected), "{expected:?} in {kinds:?}");
    }
    let line = &view.lines[0];
    assert_eq!(line.scheduled - line.made, 4, "{line:?}");
    assert!(line.occupancy.is_some());
    let (name, body) = outorga_store::demo_ticket_file(first);
    let again = store
        .import_carrier_file(
            &by(),
            rb,
            AP,
            carrier,
            (CarrierFileKind::TicketsCsv, first),
            (&name, body.as_bytes()),
        )
        .await
        .expect("again");
    assert!(again.earlier && again.refused.is_empty(), "{again:?}");
    let (all, current) = store
        .line_operations(AP, outorga_store::DEMO_LINE, first)
        .await
        .expect("operations");
    assert_eq!(
        current.expect("in force").input.schedule.min_weekly_trips,
        15
    );
    assert!(all.iter().any(|o| o.status == OperationStatus::Requested));
    // A passenger's complaint about lost baggage, with the law's limit in R$
    // from the CTM of the demo's lines, reaches the inspectors' queue.
    let queue = store
        .complaints(AP, None, outorga_store::Window::first(50))
        .await
        .expect("complaints");
    let lost = queue
        .items
        .iter()
        .find(|c| c.kind == outorga_store::ComplaintKind::BaggageLost)
        .expect("a baggage complaint");
    let answer = &lost.trip.as_ref().expect("trip").answer;
    assert!(answer.limit.is_some(), "{answer:?}");
    assert_eq!(answer.infraction, "61-IV-g");
    // A bus seized yesterday is in custody, its expense unpaid: not yet
    // releasable.
    let held = store.vehicles_held(AP, 10).await.expect("held");
    assert_eq!(held.len(), 1, "{held:?}");
    let view = store
        .custody(rb, AP, (held[0].year, held[0].number), by().at)
        .await
        .expect("custody")
        .expect("recorded");
    assert_eq!(view.custody.expenses.len(), 1);
    assert!(!view.releasable(), "{:?}", view.checks);
}

#[tokio::test]
async fn demo_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    demo(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn demo_on_postgresql() {
    let (schema, url) = pg_schema("bus_demo").await;
    demo(&url).await;
    drop_schema(&schema).await;
}

/// An eventual charter from 1 February 2030, Macapá and back, on a bus of
/// 44 seats inspected on 2 January 2030.
pub(crate) fn charter(
    kind: outorga_core::engine::charter::CharterKind,
) -> outorga_store::CharterInput {
    outorga_store::CharterInput {
        carrier: CARRIER.into(),
        kind,
        from: d(2030, 2, 1),
        until: d(2030, 2, 3),
        origin: "Macapá".into(),
        destination: "Oiapoque".into(),
        end: "Macapá".into(),
        route: "BR-156".into(),
        plate: CHARTER_BUS.into(),
        client: "Associação dos Professores".into(),
        client_document: Some("11.222.333/0001-81".into()),
        invoice: Some("NF-e 1234".into()),
        contract: None,
        trips: None,
        line: None,
        passengers: (1..=44)
            .map(|n| outorga_store::Passenger {
                name: format!("Passageiro {n}"),
                document: String::new(),
            })
            .collect(),
        files: Vec::new(),
    }
}

/// A small PDF: a document the carrier presents.
pub(crate) fn pdf(name: &str) -> outorga_store::Attachment {
    outorga_store::Attachment {
        name: name.into(),
        bytes: b"%PDF-1.4\n1 0 obj << >> endobj\n%%EOF\n".to_vec(),
    }
}

/// Registers `CARRIER` on the day of `change`, with its contrato social.
pub(crate) async fn register_carrier(
    store: &Store,
    change: &outorga_store::Change<'_>,
    rb: &Rulebook,
) -> Result<outorga_store::CarrierRegistration, StoreError> {
    store
        .register_carrier(
            change,
            rb,
            AP,
            CARRIER,
            &[outorga_store::RegistrationDocument {
                kind: outorga_store::RegistrationFileKind::ArticlesOfAssociation,
                file: pdf("contrato-social.pdf"),
            }],
        )
        .await
}

pub(crate) const CHARTER_BUS: &str = "NEA2C30";

pub(crate) fn refused_by(
    result: Result<outorga_store::Charter, StoreError>,
    article: &str,
) -> String {
    match result {
        Err(StoreError::Refused { reason, articles }) => {
            assert!(
                articles.iter().any(|a| a == article),
                "{article} in {articles:?}: {reason}"
            );
            reason
        }
        other => panic!("expected a refusal by {article}, got {other:?}"),
    }
}

/// Charters and emergency services at the law's boundaries: the seats (art.
/// 31), the invoice and the list (art. 3º, IX), the closed circuit (art.
/// 28), the 12 months of a continuous charter (art. 3º, VIII) and the 180
/// days of an emergency service (art. 29), the bus's age (art. 38, § 1º) and
/// inspection (art. 38, § 3º); the authorization verifies by its code
/// through the service's last day.
async fn charters(url: &str) {
    use outorga_core::engine::charter::CharterKind as K;
    let store = open(url).await;
    let rb = setup(&store).await;
    let bus = Vehicle {
        plate: CHARTER_BUS.into(),
        renavam: renavam(11),
        manufactured: 2020,
        colour: "Branca".into(),
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
    // The carrier registered today (art. 28, § 4º), through 2 January 2031.
    register_carrier(&store, &by(), &rb)
        .await
        .expect("registered");
    // Not yet inspected: refused.
    refused_by(
        store
            .authorize_charter(&by(), &rb, AP, &charter(K::Eventual))
            .await,
        "Art. 38, § 3º",
    );
    store
        .record_inspection(
            &by(),
            &rb,
            AP,
            (CHARTER_BUS, "periodic"),
            d(2030, 1, 2),
            (true, ""),
        )
        .await
        .expect("inspection");
    // 44 on 44 seats, with the invoice: authorized, and its paper verifies.
    let done = store
        .authorize_charter(&by(), &rb, AP, &charter(K::Eventual))
        .await
        .expect("authorized");
    assert_eq!(done.document.kind, "charter_authorization");
    assert_eq!(done.document.valid_until, Some(d(2030, 2, 3)));
    let found = store
        .document(&done.document.code)
        .await
        .expect("read")
        .expect("a document");
    assert!(found.valid_on(d(2030, 2, 3)) && !found.valid_on(d(2030, 2, 4)));
    let read = store
        .charter(AP, (done.year, done.number))
        .await
        .expect("charter");
    assert_eq!(read.input.passengers.len(), 44);
    // 45 on 44 seats; no invoice; no list; not a closed circuit; begun yesterday.
    let mut over = charter(K::Eventual);
    over.passengers.push(outorga_store::Passenger {
        name: "Mais um".into(),
        document: String::new(),
    });
    refused_by(
        store.authorize_charter(&by(), &rb, AP, &over).await,
        "Art. 31",
    );
    let no_invoice = outorga_store::CharterInput {
        invoice: None,
        ..charter(K::Eventual)
    };
    refused_by(
        store.authorize_charter(&by(), &rb, AP, &no_invoice).await,
        "Art. 3º, IX",
    );
    let no_list = outorga_store::CharterInput {
        passengers: Vec::new(),
        ..charter(K::Eventual)
    };
    refused_by(
        store.authorize_charter(&by(), &rb, AP, &no_list).await,
        "Art. 3º, IX",
    );
    let open_circuit = outorga_store::CharterInput {
        end: "Oiapoque".into(),
        ..charter(K::Eventual)
    };
    refused_by(
        store.authorize_charter(&by(), &rb, AP, &open_circuit).await,
        "Art. 28",
    );
    let late = outorga_store::CharterInput {
        from: d(2030, 1, 1),
        ..charter(K::Eventual)
    };
    refused_by(
        store.authorize_charter(&by(), &rb, AP, &late).await,
        "Art. 28",
    );
    // A continuous charter: 12 months from 1 February 2030 end on 1
    // February 2031, a Saturday, so on Monday 3 February; a day more is refused.
    let continuous = |until| outorga_store::CharterInput {
        until,
        contract: Some("Contrato 7/2030".into()),
        trips: Some(480),
        invoice: None,
        passengers: Vec::new(),
        plate: BUS.into(),
        ..charter(K::Continuous)
    };
    store
        .record_inspection(&by(), &rb, AP, (BUS, "periodic"), d(2030, 1, 2), (true, ""))
        .await
        .expect("inspection");
    let err = store
        .authorize_charter(&by(), &rb, AP, &continuous(d(2031, 2, 3)))
        .await;
    // The bus's inspection (2 January 2031) ends before: refused by it, not by the term.
    refused_by(err, "Art. 38, § 3º");
    // Four weeks later, both buses inspected again, and the registration
    // renewed from 3 January 2031 (a continuous charter runs past it).
    let late_day = on(d(2030, 1, 30));
    let renewed = register_carrier(&store, &late_day, &rb)
        .await
        .expect("renewed");
    assert_eq!(renewed.valid_from, d(2031, 1, 3));
    store
        .record_inspection(
            &late_day,
            &rb,
            AP,
            (BUS, "periodic"),
            d(2030, 1, 30),
            (true, ""),
        )
        .await
        .expect("inspection");
    // Its contract sets how many trips (art. 3º, VIII): without them, refused.
    let untold = outorga_store::CharterInput {
        trips: None,
        ..continuous(d(2031, 1, 30))
    };
    let why = refused_by(
        store.authorize_charter(&late_day, &rb, AP, &untold).await,
        "Art. 3º, VIII",
    );
    assert!(why.contains("quantidade de viagens"), "{why}");
    let authorized = store
        .authorize_charter(&late_day, &rb, AP, &continuous(d(2031, 1, 30)))
        .await
        .expect("within the inspection and the 12 months");
    assert_eq!(authorized.input.trips, Some(480));
    let reason = refused_by(
        store
            .authorize_charter(&late_day, &rb, AP, &continuous(d(2031, 2, 4)))
            .await,
        "Art. 3º, VIII",
    );
    assert!(reason.contains("03/02/2031"), "{reason}");
    // Without the contract, or for a person: refused.
    let no_contract = outorga_store::CharterInput {
        contract: None,
        ..continuous(d(2030, 6, 1))
    };
    refused_by(
        store
            .authorize_charter(&late_day, &rb, AP, &no_contract)
            .await,
        "Art. 3º, VIII",
    );
    let person = outorga_store::CharterInput {
        client_document: Some("529.982.247-25".into()),
        ..continuous(d(2030, 6, 1))
    };
    refused_by(
        store.authorize_charter(&late_day, &rb, AP, &person).await,
        "Art. 3º, VIII",
    );
    // An emergency service: 180 days from 1 February 2030 end on 31 July.
    let emergency = |until| outorga_store::CharterInput {
        until,
        line: Some(LINE.into()),
        end: "Ferreira Gomes".into(),
        plate: BUS.into(),
        ..charter(K::Emergency)
    };
    store
        .authorize_charter(&late_day, &rb, AP, &emergency(d(2030, 7, 31)))
        .await
        .expect("180 days");
    refused_by(
        store
            .authorize_charter(&late_day, &rb, AP, &emergency(d(2030, 8, 1)))
            .await,
        "Art. 29",
    );
    // Only to a concessionária or permissionária of the system (art. 29):
    // a company without a line's delegation is refused.
    let outsider = store
        .authorize_charter(
            &late_day,
            &rb,
            AP,
            &outorga_store::CharterInput {
                carrier: OTHER.into(),
                ..emergency(d(2030, 7, 31))
            },
        )
        .await;
    let why = refused_by(outsider, "Art. 29");
    assert!(why.contains("concessionária ou permissionária"), "{why}");
    // The 2020 bus serves through 31 December 2030 (10 years of use).
    let aged = |until| outorga_store::CharterInput {
        until,
        ..charter(K::Continuous)
    };
    let with_contract = |i: outorga_store::CharterInput| outorga_store::CharterInput {
        contract: Some("Contrato 8/2030".into()),
        trips: Some(40),
        ..i
    };
    store
        .record_inspection(
            &late_day,
            &rb,
            AP,
            (CHARTER_BUS, "periodic"),
            d(2030, 1, 30),
            (true, ""),
        )
        .await
        .expect("inspection");
    let err = store
        .authorize_charter(&late_day, &rb, AP, &with_contract(aged(d(2031, 1, 2))))
        .await;
    refused_by(err, "Art. 38, § 1º");
    store
        .authorize_charter(&late_day, &rb, AP, &with_contract(aged(d(2030, 12, 31))))
        .await
        .expect("through its last year");
    // A person is no carrier to authorize.
    store
        .register(&late_day, AP, "52998224725", "Fulano")
        .await
        .expect("person");
    let err = store
        .authorize_charter(
            &late_day,
            &rb,
            AP,
            &outorga_store::CharterInput {
                carrier: "52998224725".into(),
                ..charter(K::Eventual)
            },
        )
        .await
        .expect_err("a person");
    assert!(
        matches!(
            err,
            StoreError::Invalid {
                field: "transportadora",
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn charters_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    charters(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn charters_on_postgresql() {
    let (schema, url) = pg_schema("charters").await;
    charters(&url).await;
    drop_schema(&schema).await;
}

/// A delegation's fleet (art. 13, II): each bus put in service on its own,
/// none replacing another; the fleet of any past day; a bus withdrawn ends
/// its traffic authorization.
async fn fleet(url: &str) {
    let store = open(url).await;
    let rb = setup(&store).await;
    let second = Vehicle {
        plate: CHARTER_BUS.into(),
        renavam: renavam(12),
        manufactured: 2025,
        colour: "Azul".into(),
        make: Some("Marcopolo".into()),
        model: Some("Paradiso".into()),
        doors: Some(2),
        capacity: Some(46),
        equipment: Vec::new(),
        adaptations: Vec::new(),
    };
    store
        .register_vehicle(&by(), AP, &second, 2030)
        .await
        .expect("bus");
    let delegation = ("onibus", 1);
    store
        .put_vehicle(
            &on(d(2026, 9, 2)),
            &rb,
            AP,
            delegation,
            BUS,
            (d(2026, 9, 2), None),
        )
        .await
        .expect("first bus");
    let added = store
        .put_vehicle(
            &on(d(2026, 10, 5)),
            &rb,
            AP,
            delegation,
            CHARTER_BUS,
            (d(2026, 10, 5), None),
        )
        .await
        .expect("second bus, beside the first");
    assert!(
        added.articles.iter().all(|a| !a.contains("substitu")),
        "{:?}",
        added.articles
    );
    let plates = |fleet: Vec<(Vehicle, NaiveDate, Option<NaiveDate>)>| -> Vec<String> {
        fleet.into_iter().map(|(v, _, _)| v.plate).collect()
    };
    assert_eq!(
        plates(
            store
                .fleet_on(AP, delegation, d(2026, 9, 1))
                .await
                .expect("fleet")
        ),
        Vec::<String>::new()
    );
    assert_eq!(
        plates(
            store
                .fleet_on(AP, delegation, d(2026, 9, 30))
                .await
                .expect("fleet")
        ),
        vec![BUS.to_string()]
    );
    assert_eq!(
        plates(
            store
                .fleet_on(AP, delegation, d(2026, 10, 5))
                .await
                .expect("fleet")
        ),
        vec![BUS.to_string(), CHARTER_BUS.to_string()]
    );
    // Withdrawn before it began: refused; on 1 December: out of the fleet
    // from that day, and its authorization ends.
    let err = store
        .withdraw_vehicle(&by(), &rb, AP, delegation, BUS, d(2026, 9, 1))
        .await
        .expect_err("before it began");
    assert!(
        matches!(err, StoreError::Invalid { field: "data", .. }),
        "{err:?}"
    );
    store
        .withdraw_vehicle(&by(), &rb, AP, delegation, BUS, d(2026, 12, 1))
        .await
        .expect("withdrawn");
    assert_eq!(
        plates(
            store
                .fleet_on(AP, delegation, d(2026, 11, 30))
                .await
                .expect("fleet")
        ),
        vec![BUS.to_string(), CHARTER_BUS.to_string()]
    );
    assert_eq!(
        plates(
            store
                .fleet_on(AP, delegation, d(2026, 12, 1))
                .await
                .expect("fleet")
        ),
        vec![CHARTER_BUS.to_string()]
    );
    let err = store
        .withdraw_vehicle(&by(), &rb, AP, delegation, BUS, d(2026, 12, 2))
        .await
        .expect_err("already out");
    assert!(matches!(err, StoreError::NotFound(_)), "{err:?}");
    let documents = store
        .documents(
            AP,
            &outorga_store::DocumentFilter {
                subject: Some(format!("vehicle:{BUS}")),
                ..outorga_store::DocumentFilter::default()
            },
            outorga_store::Window::first(10),
        )
        .await
        .expect("documents");
    let authorization = documents
        .items
        .iter()
        .find(|doc| doc.kind == "traffic_authorization")
        .expect("its authorization");
    assert_eq!(authorization.cancelled_on, Some(d(2026, 12, 1)));
}

#[tokio::test]
async fn fleet_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    fleet(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn fleet_on_postgresql() {
    let (schema, url) = pg_schema("bus_fleet").await;
    fleet(&url).await;
    drop_schema(&schema).await;
}

/// Economic interdependence between the carriers of a line (art. 9º),
/// answered from the declared partners, directors, groups and relatives:
/// unknown until declared (a grant lists it to check); a common partner
/// with more than 10 % in both refuses the grant (II); exactly 10 % does not
/// (reading 4); a common director does (II); the same group does (IV); all
/// declared and none shared: met.
async fn interdependence(url: &str) {
    use outorga_store::{CompanyTies, Member};
    let store = open(url).await;
    let rb = setup(&store).await;
    let people = [
        ("52998224725", "Ana Sócia"),
        ("11144477735", "Bruno Sócio"),
        ("12345678909", "Carla Sócia"),
        ("98765432100", "Davi Sócio"),
    ];
    for (doc, name) in people {
        store.register(&by(), AP, doc, name).await.expect("person");
    }
    let [ana, bruno, carla, davi] = people.map(|(doc, _)| doc.to_string());
    let ask = || GrantRequest {
        service: "onibus".into(),
        holder: OTHER.into(),
        on: d(2029, 6, 1),
        quota: None,
        line: Some(LINE.into()),
    };
    let share = |text: &str| outorga_store::parse_share(text).expect("share");
    let declare = |company: &'static str,
                   partners: Vec<(String, &'static str)>,
                   directors: Vec<String>,
                   group: Option<&'static str>| {
        let store = &store;
        async move {
            store
                .declare_company_ties(
                    &by(),
                    AP,
                    company,
                    &CompanyTies {
                        partners: partners
                            .into_iter()
                            .map(|(document, s)| Member {
                                document,
                                voting_share: Some(share(s)),
                            })
                            .collect(),
                        directors,
                        business_group: group.map(str::to_string),
                        act: "Contrato social, 3ª alteração".into(),
                        declared_on: d(2029, 1, 10),
                    },
                )
                .await
                .expect("declared");
        }
    };
    let refused_by_ties = |result: Result<outorga_store::Granted, StoreError>| match result {
        Err(StoreError::Refused { reason, articles }) => {
            assert!(
                articles.iter().any(|a| a == "Art. 9º"),
                "{articles:?}: {reason}"
            );
        }
        other => panic!("expected art. 9º, got {other:?}"),
    };
    // Nothing declared: not known; the preview lists it to record.
    let preview = store
        .grant_preview(&rb, AP, ("onibus", Some(OTHER), Some(LINE)), d(2029, 6, 1))
        .await
        .expect("preview");
    let (_, checklist) = preview
        .applicant
        .expect("the applicant")
        .expect("registered");
    let tie = checklist
        .iter()
        .find(|i| i.description.contains("interdependência"))
        .expect("the art. 9º item");
    assert_eq!(tie.state, outorga_store::CheckState::ToCheck, "{tie:?}");
    // Ana holds 60 % of the line's carrier and 15 % of the applicant: tied.
    declare(
        CARRIER,
        vec![(ana.clone(), "60"), (bruno.clone(), "40")],
        vec![bruno.clone()],
        None,
    )
    .await;
    declare(
        OTHER,
        vec![(ana.clone(), "15"), (carla.clone(), "85")],
        vec![carla.clone()],
        None,
    )
    .await;
    refused_by_ties(store.grant_permit(&by(), &rb, AP, &ask()).await);
    // Exactly 10 % is not more than ten; but then Bruno directs both: tied.
    declare(
        OTHER,
        vec![(ana.clone(), "10"), (carla.clone(), "90")],
        vec![bruno.clone()],
        None,
    )
    .await;
    refused_by_ties(store.grant_permit(&by(), &rb, AP, &ask()).await);
    // The same business group: tied.
    declare(
        CARRIER,
        vec![(ana.clone(), "60"), (bruno.clone(), "40")],
        vec![bruno.clone()],
        Some("Grupo Norte"),
    )
    .await;
    declare(
        OTHER,
        vec![(ana.clone(), "10"), (carla.clone(), "90")],
        vec![carla.clone()],
        Some("Grupo Norte"),
    )
    .await;
    refused_by_ties(store.grant_permit(&by(), &rb, AP, &ask()).await);
    // Different groups, Ana at 10 %:
    declare(
        OTHER,
        vec![(ana.clone(), "10"), (carla.clone(), "90")],
        vec![carla.clone()],
        None,
    )
    .await;
    // Carla is Bruno's sister (III): tied once declared.
    for (person, relatives) in [
        (&ana, vec![]),
        (&bruno, vec![carla.clone()]),
        (&carla, vec![bruno.clone()]),
    ] {
        store
            .declare_relatives(
                &by(),
                AP,
                person,
                (&relatives, "Declaração de parentesco", d(2029, 1, 10)),
            )
            .await
            .expect("relatives");
    }
    refused_by_ties(store.grant_permit(&by(), &rb, AP, &ask()).await);
    // Davi instead of Carla, nobody related: no tie, granted without it to check.
    declare(
        OTHER,
        vec![(ana.clone(), "10"), (davi.clone(), "90")],
        vec![davi.clone()],
        None,
    )
    .await;
    store
        .declare_relatives(
            &by(),
            AP,
            &davi,
            (&[], "Declaração de parentesco", d(2029, 1, 10)),
        )
        .await
        .expect("relatives");
    store
        .declare_relatives(
            &by(),
            AP,
            &bruno,
            (&[], "Declaração de parentesco", d(2029, 1, 10)),
        )
        .await
        .expect("relatives");
    let granted = store
        .grant_permit(&by(), &rb, AP, &ask())
        .await
        .expect("no tie");
    assert!(
        !granted
            .to_check
            .iter()
            .any(|c| c.requirement == "no_interdependence"),
        "{:?}",
        granted.to_check
    );
    // A share over 100 % in all is refused.
    let err = store
        .declare_company_ties(
            &by(),
            AP,
            OTHER,
            &CompanyTies {
                partners: vec![
                    Member {
                        document: ana.clone(),
                        voting_share: Some(share("60")),
                    },
                    Member {
                        document: davi.clone(),
                        voting_share: Some(share("50")),
                    },
                ],
                directors: Vec::new(),
                business_group: None,
                act: "x".into(),
                declared_on: d(2029, 1, 10),
            },
        )
        .await
        .expect_err("110 %");
    assert!(
        matches!(
            err,
            StoreError::Invalid {
                field: "participacao",
                ..
            }
        ),
        "{err:?}"
    );
}

#[tokio::test]
async fn interdependence_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    interdependence(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn interdependence_on_postgresql() {
    let (schema, url) = pg_schema("bus_ties").await;
    interdependence(&url).await;
    drop_schema(&schema).await;
}
