//! The demo's intercity buses, loaded through the workflows: a carrier with
//! the delegation of a line, its buses, the line's operation set by the
//! agency and a change the carrier asked for, and last month's statistics
//! and tickets — with a few things the law forbids for the findings to show:
//! a week below the minimum frequency, a seat sold twice, a trip with more
//! tickets than seats, tickets without the passenger's name — and an
//! eventual charter authorized for next week, after the carrier's
//! registration in the register of the carriers authorized (with two of
//! its documents), with the charter's invoice and signed list as files.

use super::{demo_plate, demo_renavam};
use crate::audit::Change;
use crate::{
    CarrierFileKind, GrantRequest, OperationInput, OperationSource, ServiceLevel, Store,
    StoreError, Vehicle,
};
use chrono::{Datelike, Days, Months, NaiveDate, NaiveTime};
use outorga_core::engine::bus_compliance::Schedule;
use outorga_core::model::Rulebook;

/// The demo carrier's CNPJ and name.
pub const CARRIER: (&str, &str) = ("36002518000101", "Expresso Tucuju Ltda (demonstração)");
/// The demo's line with an operation.
pub const LINE: &str = "AP-101";
/// Seats of the demo's buses.
const SEATS: [u16; 2] = [44, 46];

fn t(h: u32) -> NaiveTime {
    NaiveTime::from_hms_opt(h, 0, 0).unwrap_or(NaiveTime::MIN)
}

/// Monday to Friday at 6, 14 and 18 h; Saturday at 7 and 15 h; Sunday at
/// 15 h: 18 departures a week, at least 15 of them made.
fn schedule() -> Schedule {
    let weekday = vec![t(6), t(14), t(18)];
    Schedule {
        departures: [
            weekday.clone(),
            weekday.clone(),
            weekday.clone(),
            weekday.clone(),
            weekday,
            vec![t(7), t(15)],
            vec![t(15)],
        ],
        min_weekly_trips: 15,
    }
}

/// The first day of the month before `today`'s.
pub fn last_month(today: NaiveDate) -> NaiveDate {
    today
        .with_day(1)
        .and_then(|d| d.checked_sub_months(Months::new(1)))
        .unwrap_or(today)
}

/// The trips the demo carrier made in the month beginning `first`: every
/// departure of the schedule but four in its second full week (fewer than
/// the minimum of 15).
fn trips(first: NaiveDate) -> Vec<chrono::NaiveDateTime> {
    let mut mondays = 0;
    let mut out = Vec::new();
    let mut day = first;
    while day.month() == first.month() {
        if day.weekday() == chrono::Weekday::Mon {
            mondays += 1;
        }
        for (n, time) in schedule().on(day).iter().enumerate() {
            if mondays == 2 && day.weekday().num_days_from_monday() < 4 && n == 2 {
                continue;
            }
            out.push(day.and_time(*time));
        }
        day = day + Days::new(1);
    }
    out
}

/// The demo carrier's statistics of the month beginning `first` (CSV), and
/// the file's name.
pub fn statistics_file(first: NaiveDate, plate: &str) -> (String, String) {
    let mut csv = String::from("linha;partida;placa;origem;destino;passageiros\n");
    for (i, at) in trips(first).iter().enumerate() {
        let at = at.format("%Y-%m-%d %H:%M");
        let boarded = 12 + (i * 7) % 25;
        csv.push_str(&format!(
            "{LINE};{at};{plate};Macapá;Porto Grande;{boarded}\n"
        ));
        csv.push_str(&format!(
            "{LINE};{at};{plate};Porto Grande;Ferreira Gomes;{}\n",
            boarded / 3
        ));
    }
    (format!("estatisticas-{}.csv", first.format("%Y-%m")), csv)
}

/// The demo carrier's tickets of the month beginning `first` (CSV), and the
/// file's name: on each trip made some tickets, every one with the items of
/// the law but for a few; seat 7 of the first trip sold twice; the second
/// trip with one ticket more than the bus has seats; three tickets of the
/// third trip without the passenger's name.
pub fn ticket_file(first: NaiveDate) -> (String, String) {
    let mut csv = String::from(
        "numero;serie;cnpj;transportadora;emissao;denominacao;valor;desconto;origem;destino;linha;partida;poltrona;passageiro;impressora\n",
    );
    let mut number = 0;
    for (i, at) in trips(first).iter().enumerate() {
        let sold = match i {
            1 => u32::from(SEATS[0]) + 1,
            _ => 10 + (i as u32 * 7) % 25,
        };
        let issued = at.date() - Days::new(2);
        for n in 0..sold {
            number += 1;
            let seat = if i == 0 && n == 1 {
                7
            } else if n >= u32::from(SEATS[0]) {
                0
            } else {
                n + 1
            };
            let passenger = if i == 2 && n < 3 {
                String::new()
            } else {
                format!("Passageiro {number}")
            };
            let discount = if n % 9 == 4 { "idoso" } else { "" };
            let fare = if discount.is_empty() { "45,80" } else { "0,00" };
            csv.push_str(&format!(
                "{number};A;36.002.518/0001-01;Expresso Tucuju Ltda, Av. FAB 100, Macapá;{issued};Bilhete de passagem;{fare};{discount};Macapá;Ferreira Gomes;{LINE};{};{seat};{passenger};Gráfica Tucuju 11.222.333/0001-81\n",
                at.format("%Y-%m-%d %H:%M")
            ));
        }
    }
    (format!("bilhetes-{}.csv", first.format("%Y-%m")), csv)
}

impl Store {
    /// The demo's buses under `rulebook`, when it checks the carriers' data.
    pub(super) async fn demo_buses(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        (jurisdiction, today): (&str, NaiveDate),
        refused: &mut Vec<String>,
    ) -> Result<(), StoreError> {
        if rulebook
            .bus
            .as_ref()
            .and_then(|b| b.compliance.as_ref())
            .is_none()
        {
            return Ok(());
        }
        let mut note = |what: &str, e: StoreError| {
            refused.push(format!("{}: {what}: {e}", rulebook.id));
        };
        let (carrier, name) = CARRIER;
        self.register(change, jurisdiction, carrier, name).await?;
        let granted_on = today.checked_sub_days(Days::new(400)).unwrap_or(today);
        let request = GrantRequest {
            service: "onibus".into(),
            holder: carrier.into(),
            on: granted_on,
            quota: None,
            line: Some(LINE.into()),
        };
        let number = match self
            .grant_permit(change, rulebook, jurisdiction, &request)
            .await
        {
            Ok(g) => g.permit.number,
            Err(e @ (StoreError::Refused { .. } | StoreError::Invalid { .. })) => {
                note("delegação da linha", e);
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let mut plates = Vec::new();
        for (k, seats) in SEATS.iter().enumerate() {
            let seed = 900 + k as u32;
            let bus = Vehicle {
                plate: demo_plate("NEA", seed),
                renavam: demo_renavam(seed),
                manufactured: today.year() - 2,
                colour: "Branca".into(),
                make: Some("Marcopolo".into()),
                model: Some("Viaggio 1050".into()),
                doors: Some(2),
                capacity: Some(*seats),
                equipment: Vec::new(),
                adaptations: Vec::new(),
            };
            self.register_vehicle(change, jurisdiction, &bus, today.year())
                .await?;
            plates.push(bus.plate);
        }
        // The fleet: the first bus from the grant, the second from 100 days ago.
        let second_since = today.checked_sub_days(Days::new(100)).unwrap_or(today);
        for (plate, since) in [(&plates[0], granted_on), (&plates[1], second_since)] {
            if let Err(e) = self
                .put_vehicle(
                    change,
                    rulebook,
                    jurisdiction,
                    ("onibus", number),
                    plate,
                    (since, None),
                )
                .await
            {
                note("ônibus da frota", e);
            }
        }
        let operation = OperationInput {
            since: granted_on,
            level: ServiceLevel::Conventional,
            schedule: schedule(),
            terminals: ("Macapá".into(), "Ferreira Gomes".into()),
            stops: vec!["Porto Grande".into()],
            justification: "Quadro de horários do contrato de concessão (demonstração)".into(),
        };
        let set_on = Change {
            at: granted_on.and_hms_opt(12, 0, 0).unwrap_or(change.at),
            ..*change
        };
        self.put_operation(
            &set_on,
            rulebook,
            jurisdiction,
            LINE,
            &operation,
            OperationSource::Agency {
                act: "Portaria SETRAP nº 1 (demonstração)",
            },
        )
        .await?;
        // The carrier asks for a Friday departure at 21 h from two weeks on.
        let mut asked = operation.clone();
        asked.since = today + Days::new(14);
        asked.schedule.departures[4].push(t(21));
        asked.justification = "Demanda de fim de semana: ônibus lotados às sextas (art. 37)".into();
        self.put_operation(
            change,
            rulebook,
            jurisdiction,
            LINE,
            &asked,
            OperationSource::Carrier(carrier),
        )
        .await?;
        // The second bus, inspected ten days ago, carries a group next week:
        // an eventual charter, Macapá to Oiapoque and back.
        let inspected = today.checked_sub_days(Days::new(10)).unwrap_or(today);
        if let Err(e) = self
            .record_inspection(
                change,
                rulebook,
                jurisdiction,
                (&plates[1], "periodic"),
                inspected,
                (true, ""),
            )
            .await
        {
            note("vistoria do ônibus de fretamento", e);
        }
        // The carrier's registration (art. 28, § 4º), with two documents.
        let registered = self
            .register_carrier(
                change,
                rulebook,
                jurisdiction,
                carrier,
                &[
                    crate::RegistrationDocument {
                        kind: crate::RegistrationFileKind::ArticlesOfAssociation,
                        file: demo_pdf("contrato-social.pdf", "Contrato social (demonstração)"),
                    },
                    crate::RegistrationDocument {
                        kind: crate::RegistrationFileKind::InsurancePolicy,
                        file: demo_pdf("apolice-seguro.pdf", "Apólice de seguro (demonstração)"),
                    },
                ],
            )
            .await;
        if let Err(e) = registered {
            note("registro cadastral da transportadora", e);
        }
        let charter = crate::CharterInput {
            carrier: carrier.into(),
            kind: outorga_core::engine::charter::CharterKind::Eventual,
            from: today + Days::new(7),
            until: today + Days::new(9),
            origin: "Macapá".into(),
            destination: "Oiapoque".into(),
            end: "Macapá".into(),
            route: "BR-156, sem paradas intermediárias".into(),
            plate: plates[1].clone(),
            client: "Associação dos Professores do Amapá (demonstração)".into(),
            client_document: Some("11.222.333/0001-81".into()),
            invoice: Some("NF-e nº 1.234 (demonstração)".into()),
            contract: None,
            trips: None,
            line: None,
            passengers: (1..=30)
                .map(|n| crate::Passenger {
                    name: format!("Passageiro do fretamento {n}"),
                    document: String::new(),
                })
                .collect(),
            files: vec![
                crate::CharterDocument {
                    kind: crate::CharterFileKind::Invoice,
                    file: demo_pdf("nota-fiscal.pdf", "NF-e nº 1.234 (demonstração)"),
                },
                crate::CharterDocument {
                    kind: crate::CharterFileKind::PassengerList,
                    file: demo_pdf("lista-assinada.pdf", "Lista de passageiros (demonstração)"),
                },
            ],
        };
        if let Err(e) = self
            .authorize_charter(change, rulebook, jurisdiction, &charter)
            .await
        {
            note("fretamento eventual", e);
        }
        let first = last_month(today);
        let (stats_name, stats) = statistics_file(first, &plates[0]);
        let (tickets_name, tickets) = ticket_file(first);
        for (kind, name, body) in [
            (CarrierFileKind::StatisticsCsv, stats_name, stats),
            (CarrierFileKind::TicketsCsv, tickets_name, tickets),
        ] {
            self.import_carrier_file(
                change,
                rulebook,
                jurisdiction,
                carrier,
                (kind, first),
                (&name, body.as_bytes()),
            )
            .await?;
        }
        self.demo_passengers(
            change,
            rulebook,
            (jurisdiction, today),
            &plates[0],
            &mut note,
        )
        .await;
        Ok(())
    }

    /// A passenger's complaint about a trip (baggage lost, the law's answer
    /// kept with it) and a bus seized yesterday in custody, its expense
    /// unpaid: what the inspectors find to work on.
    async fn demo_passengers(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        (jurisdiction, today): (&str, NaiveDate),
        plate: &str,
        note: &mut impl FnMut(&str, StoreError),
    ) {
        let (carrier, _) = CARRIER;
        let local = rulebook.jurisdiction.local(change.at);
        let trip_day = today.checked_sub_days(Days::new(5)).unwrap_or(today);
        let complaint = crate::ComplaintInput {
            kind: crate::ComplaintKind::BaggageLost,
            description:
                "Minha mala não chegou em Oiapoque e a empresa não dá resposta (demonstração)."
                    .into(),
            occurred_at: trip_day.and_time(t(20)),
            place: "Rodoviária de Oiapoque".into(),
            plate: Some(plate.into()),
            line: Some("AP-101".into()),
            contact: None,
            trip: Some(crate::TripFacts {
                departs: Some(trip_day.and_time(t(8))),
                ticket: Some("000123".into()),
                seat: Some(12),
                claimed_on: Some(trip_day),
                ..crate::TripFacts::default()
            }),
        };
        if let Err(e) = self
            .file_complaint(change, jurisdiction, &complaint, (local, Some(rulebook)))
            .await
        {
            note("reclamação de bagagem extraviada", e);
        }
        // A charter bus that picked people up along its route (64-I),
        // seized yesterday afternoon.
        let yesterday = today.checked_sub_days(Days::new(1)).unwrap_or(today);
        let seized_at = yesterday.and_time(t(15));
        let auto = crate::AutoInput {
            infraction: "64-I".into(),
            offender: carrier.into(),
            permit: None,
            plate: Some(plate.into()),
            committed_at: seized_at,
            place: "BR-156, km 12, posto de fiscalização (demonstração)".into(),
            description: "Fretamento embarcando passageiros ao longo do itinerário.".into(),
        };
        let issued = Change {
            at: rulebook.jurisdiction.utc(yesterday.and_time(t(16))),
            ..*change
        };
        let key = match self
            .issue_auto(&issued, rulebook, jurisdiction, &auto)
            .await
        {
            Ok(auto) => (auto.year, auto.number),
            Err(e) => return note("auto de apreensão do ônibus", e),
        };
        let custody = crate::CustodyInput {
            held_at: seized_at,
            place: "Pátio da Secretaria de Transportes, Macapá (demonstração)".into(),
            custodian: "Chefe do pátio (demonstração)".into(),
        };
        if let Err(e) = self
            .open_custody(&issued, rulebook, jurisdiction, key, &custody)
            .await
        {
            return note("custódia do ônibus apreendido", e);
        }
        let expense = crate::ExpenseInput {
            kind: outorga_core::model::ExpenseKind::FoodLodging,
            description: "Jantar e pernoite de 28 passageiros em Ferreira Gomes".into(),
            amount: rust_decimal::Decimal::new(168_000, 2),
            incurred_on: yesterday,
        };
        if let Err(e) = self
            .add_custody_expense(&issued, rulebook, jurisdiction, key, &expense)
            .await
        {
            note("despesa da custódia", e);
        }
    }
}

/// A small PDF whose one page says `text`: a demo's document.
fn demo_pdf(name: &str, text: &str) -> crate::Attachment {
    let words: String = text
        .chars()
        .map(|c| {
            if c.is_ascii() && c != '(' && c != ')' {
                c
            } else {
                '?'
            }
        })
        .collect();
    let content = format!("BT /F1 14 Tf 72 760 Td ({words}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_string(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_string(),
    ];
    let mut pdf = String::from("%PDF-1.4\n");
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.push_str(&format!("{} 0 obj\n{object}\nendobj\n", i + 1));
    }
    let xref = pdf.len();
    pdf.push_str(&format!(
        "xref\n0 {}\n0000000000 65535 f \n",
        objects.len() + 1
    ));
    for offset in offsets {
        pdf.push_str(&format!("{offset:010} 00000 n \n"));
    }
    pdf.push_str(&format!(
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    ));
    crate::Attachment {
        name: name.to_string(),
        bytes: pdf.into_bytes(),
    }
}
