//! Demo records for each rulebook's jurisdiction, made through the same
//! workflows a clerk uses (so the law is applied to them too): people with
//! their CNH and address, permits, drivers, vehicles, inspections and autos
//! at every stage of their process. Documents, plates and RENAVAMs are
//! generated with valid check digits; the people are fictitious.

pub(crate) mod bus;
pub(crate) mod calls;
pub(crate) mod stands;

use crate::{
    AutoInput, Change, Cnh, GrantRequest, ProcessStep, Profile, Store, StoreError, Vehicle,
};
use chrono::{Datelike, Days, NaiveDate};
use outorga_core::engine::process::{Decision, Status, Step};
use outorga_core::model::{DeadlineKind, Rulebook, Service, VehicleCheck};

/// Populations the rulebooks leave to the deployment (IBGE, Censo
/// Demográfico 2022).
const POPULATIONS: [(&str, u32); 1] = [("cangucu", 49_607)];

const NAMES: [&str; 16] = [
    "Ana Paula Ramlow",
    "Bruno Küster Braun",
    "Carla Tesch",
    "Daniel Schaeffer",
    "Elisa Krüger",
    "Fábio Stein",
    "Gabriela Hartwig",
    "Heitor Plaster",
    "Isabela Gums",
    "João Pedro Siller",
    "Karina Boldt",
    "Luís Fernando Zanon",
    "Marta Rosa da Silva",
    "Nilton Pereira",
    "Olga Ferreira Lima",
    "Paulo César Nunes",
];

/// A CPF with valid check digits, different for each `seed`.
/// The demo's first holder of a permit — of the first of `rulebooks` (as
/// given to [`Store::load_demo`]) whose services the demo grants (not the
/// buses') — and their jurisdiction: the one `serve --demo` opens the
/// holder's space for.
pub fn demo_holder(rulebooks: &[&Rulebook]) -> Option<(String, String)> {
    rulebooks
        .iter()
        .enumerate()
        .find(|(_, r)| r.services.iter().any(|s| *s != Service::Onibus))
        .map(|(index, r)| {
            (
                r.jurisdiction.id.clone(),
                demo_cpf((index as u32 + 1) * 100),
            )
        })
}

fn demo_cpf(seed: u32) -> String {
    let base = format!(
        "{:09}",
        100_000_000 + seed.wrapping_mul(7_919) % 800_000_000
    );
    let mut digits: Vec<u32> = base.bytes().map(|b| u32::from(b - b'0')).collect();
    for len in [9usize, 10] {
        let sum: u32 = digits[..len]
            .iter()
            .zip((2..=len as u32 + 1).rev())
            .map(|(d, w)| d * w)
            .sum();
        digits.push(sum * 10 % 11 % 10);
    }
    digits.iter().map(|d| char::from(b'0' + *d as u8)).collect()
}

/// A RENAVAM with a valid check digit, different for each `seed`.
fn demo_renavam(seed: u32) -> String {
    let base = format!("{:010}", 1_000_000_000u64 + u64::from(seed) * 104_729);
    let digits: Vec<u32> = base.bytes().map(|b| u32::from(b - b'0')).collect();
    let sum: u32 = digits
        .iter()
        .rev()
        .zip([2, 3, 4, 5, 6, 7, 8, 9, 2, 3])
        .map(|(d, w)| d * w)
        .sum();
    format!("{base}{}", sum * 10 % 11 % 10)
}

/// A Mercosul plate for `seed` with the jurisdiction's state letters.
fn demo_plate(prefix: &str, seed: u32) -> String {
    let letter = char::from(b'A' + (seed % 26) as u8);
    format!("{prefix}{}{letter}{:02}", seed % 10, seed % 100)
}

fn fit(today: NaiveDate, seed: u32) -> Profile {
    let year = today.year();
    Profile {
        birth_date: NaiveDate::from_ymd_opt(year - 30 - (seed % 25) as i32, 1 + seed % 12, 10),
        resident_since: NaiveDate::from_ymd_opt(year - 12, 3, 1),
        education: Some("medio".into()),
        disabled: Some(false),
        public_employee: Some(false),
        transport_operator: Some(false),
        final_conviction: Some(false),
        documents: None,
        cnh: Some(Cnh {
            number: crate::profile::demo_cnh(seed),
            categories: vec!["A".into(), "B".into()],
            paid_activity: true,
            first_issued: NaiveDate::from_ymd_opt(year - 10, 6, 1),
            expires: NaiveDate::from_ymd_opt(year + 3, 6, 1).unwrap_or(today),
            suspended_until: None,
        }),
        street: format!(
            "Rua {} , {}",
            [
                "das Flores",
                "XV de Novembro",
                "Getúlio Vargas",
                "Dom Pedro II"
            ][(seed % 4) as usize],
            10 + seed * 7
        ),
        district: "Centro".into(),
        city: String::new(),
        postal_code: String::new(),
        phone: format!("(27) 9{:04}-{:04}", 8000 + seed, 1000 + seed * 3),
        // A domain reserved for examples (RFC 2606): the reminders of a
        // demo reach no one.
        email: format!("pessoa{seed}@example.org"),
    }
}

/// What loading the demo did, and what the law refused (kept, not hidden).
#[derive(Debug, Default)]
pub struct DemoReport {
    pub people: usize,
    pub permits: usize,
    pub autos: usize,
    pub refused: Vec<String>,
}

impl Store {
    /// The demo's money: example slip settings (agreement and PIX key) for
    /// the jurisdiction, a value from January 1st for each unit the law
    /// leaves without one, and bus lines whose coefficients make a unit
    /// from the lines (Amapá's CTM).
    async fn demo_money(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        today: NaiveDate,
    ) -> Result<(), StoreError> {
        if self.payment_settings(jurisdiction).await?.is_none() {
            let settings = crate::PaymentSettings {
                segment: 1,
                company: format!("{:04}", 1000 + jurisdiction.len()),
                value_id: 6,
                pix_key: format!("pagamentos@{jurisdiction}.exemplo.gov.br"),
                beneficiary: rulebook.jurisdiction.name.chars().take(25).collect(),
                city: rulebook.jurisdiction.name.chars().take(15).collect(),
            };
            self.set_payment_settings(change, jurisdiction, &settings)
                .await?;
        }
        let january = NaiveDate::from_ymd_opt(today.year(), 1, 1).unwrap_or(today);
        for unit in rulebook.units.values() {
            if unit.from_lines {
                let routes = [
                    (
                        "AP-101",
                        "Macapá – Ferreira Gomes",
                        "0.2175",
                        [
                            ("Macapá", "Porto Grande", "108.0"),
                            ("Porto Grande", "Ferreira Gomes", "29.5"),
                        ],
                    ),
                    (
                        "AP-102",
                        "Macapá – Oiapoque",
                        "0.1980",
                        [
                            ("Macapá", "Calçoene", "362.0"),
                            ("Calçoene", "Oiapoque", "228.0"),
                        ],
                    ),
                ];
                for (code, name, coefficient, sections) in routes {
                    let line = crate::Line {
                        code: code.into(),
                        name: name.into(),
                        coefficient: coefficient.parse().unwrap_or_default(),
                        semi_urban: false,
                        itinerary: vec![
                            sections[0].0.into(),
                            sections[0].1.into(),
                            sections[1].1.into(),
                        ],
                        sections: sections
                            .iter()
                            .map(|(from, to, km)| crate::Section {
                                from: (*from).into(),
                                to: (*to).into(),
                                km: km.parse().unwrap_or_default(),
                            })
                            .collect(),
                    };
                    match self.register_line(change, jurisdiction, &line).await {
                        Ok(()) | Err(StoreError::Taken { .. }) => {}
                        Err(e) => return Err(e),
                    }
                }
            } else if unit.values.is_empty() {
                let entry = crate::UnitEntry {
                    since: january,
                    value: crate::NewValue::Value(rust_decimal::Decimal::new(47125, 4)),
                    act: format!("Decreto nº 1/{} (demonstração)", today.year()),
                    corrects: None,
                };
                match self
                    .record_unit_value(change, &[rulebook], jurisdiction, &unit.code, &entry)
                    .await
                {
                    Ok(_) | Err(StoreError::Invalid { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// Loads demo records for every rulebook given (skipping a jurisdiction
    /// that already has permits), dated around `today`.
    pub async fn load_demo(
        &self,
        rulebooks: &[&Rulebook],
        today: NaiveDate,
        at: chrono::NaiveDateTime,
    ) -> Result<DemoReport, StoreError> {
        let change = Change {
            by: "demo",
            at,
            why: "dados de demonstração",
        };
        let mut report = DemoReport::default();
        for (index, rulebook) in rulebooks.iter().enumerate() {
            let jurisdiction = rulebook.jurisdiction.id.as_str();
            let seed0 = (index as u32 + 1) * 100;
            // Loaded once per rulebook: its first demo person is the mark.
            if self
                .registered(jurisdiction, &demo_cpf(seed0))
                .await?
                .is_some()
            {
                continue;
            }
            let mut note = |what: String, e: StoreError| {
                report.refused.push(format!("{}: {what}: {e}", rulebook.id))
            };
            let prefix = match rulebook.jurisdiction.state.as_str() {
                "ES" => "MTB",
                "MG" => "GTO",
                "RS" => "IZC",
                _ => "NEA",
            };
            if let Some((_, population)) = POPULATIONS.iter().find(|(j, _)| *j == jurisdiction)
                && rulebook.parameter_id("population").is_none()
                && !rulebook.caps.is_empty()
            {
                let estimate = crate::ParameterAct {
                    from: rulebook.first_version().version.valid_from,
                    act: "IBGE, estimativa da população (demonstração)".into(),
                };
                self.set_parameter(
                    &change,
                    rulebook,
                    jurisdiction,
                    ("population", (*population).into()),
                    &estimate,
                )
                .await?;
            }
            // A decree's fare, for the public page to show (a demo's values).
            let fare_decree = crate::ParameterAct {
                from: rulebook.first_version().version.valid_from,
                act: "Decreto da tarifa (demonstração)".into(),
            };
            for name in crate::parameters::tariff_parameters(rulebook) {
                let value = match name {
                    "tariff.bandeirada" => rust_decimal::Decimal::new(600, 2),
                    "tariff.km_bandeira_1" => rust_decimal::Decimal::new(350, 2),
                    "tariff.km_bandeira_2" => rust_decimal::Decimal::new(420, 2),
                    _ => rust_decimal::Decimal::new(3500, 2),
                };
                self.set_parameter(&change, rulebook, jurisdiction, (name, value), &fare_decree)
                    .await?;
            }
            self.demo_money(&change, rulebook, jurisdiction, today)
                .await?;
            let mut people = Vec::new();
            for (i, name) in NAMES.iter().enumerate().take(12) {
                let seed = seed0 + i as u32;
                let cpf = demo_cpf(seed);
                self.register(&change, jurisdiction, &cpf, name).await?;
                self.update_profile(&change, jurisdiction, &cpf, &fit(today, seed))
                    .await?;
                people.push(cpf);
            }
            report.people += people.len();
            let granted_on = today.checked_sub_days(Days::new(400)).unwrap_or(today);
            let (equipment, colour) = fittings(rulebook);
            let services = rulebook.services.iter().filter(|s| **s != Service::Onibus);
            for (si, service) in services.enumerate() {
                let mut numbers = Vec::new();
                // Different holders per service: one permit each.
                for holder in people.iter().skip(4 * si).take(4) {
                    let request = GrantRequest {
                        service: service.name().into(),
                        holder: holder.clone(),
                        on: granted_on,
                        quota: None,
                        line: None,
                    };
                    match self
                        .grant_permit(&change, rulebook, jurisdiction, &request)
                        .await
                    {
                        Ok(g) => numbers.push((g.permit.number, holder.clone())),
                        Err(
                            e @ (StoreError::Refused { .. }
                            | StoreError::Invalid { .. }
                            | StoreError::Engine(_)),
                        ) => note(format!("permissão para {holder}"), e),
                        Err(e) => return Err(e),
                    }
                }
                report.permits += numbers.len();
                for (k, (number, holder)) in numbers.iter().enumerate() {
                    let seed = seed0 + 50 + k as u32 + 10 * service_index(*service);
                    let vehicle = Vehicle {
                        plate: demo_plate(prefix, seed),
                        renavam: demo_renavam(seed),
                        manufactured: today.year() - 1,
                        colour: colour.clone(),
                        doors: (service_index(*service) < 2).then_some(4),
                        capacity: Some(if service_index(*service) >= 2 { 1 } else { 4 }),
                        equipment: equipment.clone(),
                        adaptations: if *service == Service::TaxiAcessivel {
                            vec!["rampa".into()]
                        } else {
                            Vec::new()
                        },
                        make: Some(demo_model(*service).0.into()),
                        model: Some(demo_model(*service).1.into()),
                    };
                    if let Err(e) = self
                        .register_vehicle(&change, jurisdiction, &vehicle, today.year())
                        .await
                    {
                        note(format!("veículo {}", vehicle.plate), e);
                        continue;
                    }
                    let key = (service.name(), *number);
                    match self
                        .put_vehicle(
                            &change,
                            rulebook,
                            jurisdiction,
                            key,
                            &vehicle.plate,
                            (granted_on, None),
                        )
                        .await
                    {
                        Ok(_) => {
                            // Inspected on inclusion and again a month ago,
                            // but the last vehicle, whose inspection is due.
                            let mut days = vec![5];
                            if k < 3 {
                                days.push(370);
                            }
                            for after in days {
                                let inspected = granted_on
                                    .checked_add_days(Days::new(after))
                                    .unwrap_or(granted_on);
                                if let Err(e) = self
                                    .record_inspection(
                                        &change,
                                        rulebook,
                                        jurisdiction,
                                        (&vehicle.plate, "periodic"),
                                        inspected,
                                        (true, ""),
                                    )
                                    .await
                                {
                                    note(format!("vistoria de {}", vehicle.plate), e);
                                }
                            }
                            // Where the law renews the traffic authorization
                            // yearly (SMJ art. 15), it was renewed with the
                            // inspection a year after the inclusion.
                            if rulebook
                                .deadline(DeadlineKind::TrafficAuthorizationTerm)
                                .is_some()
                                && let Some(renewed) = granted_on.checked_add_days(Days::new(370))
                                && renewed <= today
                                && let Err(e) = self
                                    .renew_authorization(
                                        &change,
                                        rulebook,
                                        jurisdiction,
                                        &vehicle.plate,
                                        renewed,
                                    )
                                    .await
                            {
                                note(format!("renovação do DIV de {}", vehicle.plate), e);
                            }
                        }
                        Err(e) => note(format!("inclusão de {}", vehicle.plate), e),
                    }
                    if k == 0
                        && let Some(driver) = people.get(8 + si)
                        && let Err(e) = self
                            .add_driver(
                                &change,
                                rulebook,
                                jurisdiction,
                                key,
                                (driver, "auxiliary"),
                                (granted_on, None),
                            )
                            .await
                    {
                        note(format!("condutor {driver}"), e);
                    }
                    // Autos at every stage: final, judged, notified, issued.
                    if k < 4 {
                        let committed = today
                            .checked_sub_days(Days::new(200 - 45 * k as u64))
                            .unwrap_or(today);
                        let issued_at = committed
                            .checked_add_days(Days::new(1))
                            .unwrap_or(committed);
                        let mut input = AutoInput {
                            infraction: String::new(),
                            offender: holder.clone(),
                            permit: Some((service.name().into(), *number)),
                            plate: Some(vehicle.plate.clone()),
                            committed_at: committed.and_hms_opt(15, 20, 0).unwrap_or_default(),
                            place: "Avenida principal, em frente à rodoviária".into(),
                            description: "Constatado pela fiscalização em ronda de rotina".into(),
                        };
                        let auto_change = Change {
                            at: issued_at.and_hms_opt(9, 0, 0).unwrap_or(at),
                            ..change
                        };
                        // The first infraction the law fines outright (no
                        // notice to cure first, nothing held on the spot), so
                        // the final auto leaves a debt to pay.
                        for infraction in &rulebook.infractions {
                            input.infraction = infraction.code.clone();
                            let fined = self
                                .auto_proposal(&auto_change, rulebook, jurisdiction, &input)
                                .await
                                .is_ok_and(|p| {
                                    p.sanctions.iter().any(|s| s.kind == "fine")
                                        && p.sanctions.iter().all(|s| {
                                            s.at_once.is_none()
                                                && s.kind != "notice_of_irregularity"
                                        })
                                });
                            if fined {
                                break;
                            }
                        }
                        match self
                            .issue_auto(&auto_change, rulebook, jurisdiction, &input)
                            .await
                        {
                            Ok(auto) => {
                                report.autos += 1;
                                self.advance(
                                    rulebook,
                                    jurisdiction,
                                    (auto.year, auto.number),
                                    4 - k,
                                    (issued_at, today),
                                    &change,
                                )
                                .await?;
                            }
                            Err(e) => note(format!("auto contra {holder}"), e),
                        }
                        // The first holder also has a recent auto, notified
                        // two days ago: its defense may be filed now (the
                        // holder's space shows it).
                        if k == 0
                            && let Some(committed) = today.checked_sub_days(Days::new(6))
                        {
                            let issued_at = committed.succ_opt().unwrap_or(committed);
                            input.committed_at =
                                committed.and_hms_opt(8, 40, 0).unwrap_or_default();
                            let recent = Change {
                                at: issued_at.and_hms_opt(9, 0, 0).unwrap_or(at),
                                ..change
                            };
                            match self
                                .issue_auto(&recent, rulebook, jurisdiction, &input)
                                .await
                            {
                                Ok(auto) => {
                                    report.autos += 1;
                                    self.advance(
                                        rulebook,
                                        jurisdiction,
                                        (auto.year, auto.number),
                                        1,
                                        (issued_at, today),
                                        &change,
                                    )
                                    .await?;
                                }
                                Err(e) => note(format!("auto recente contra {holder}"), e),
                            }
                        }
                    }
                    // The last holder stopped twenty days ago, on the law's
                    // first ground of a reserve (suspension on request), for
                    // 60 days or the law's most.
                    if k == 3
                        && let Some(rule) = &rulebook.permit_suspension
                        && let Some(reason) = rule.reasons.first()
                        && let Some(since) = today.checked_sub_days(Days::new(20))
                    {
                        let most = match &rule.max_days {
                            outorga_core::model::Quantity::Fixed(n) => {
                                rust_decimal::prelude::ToPrimitive::to_u32(n).unwrap_or(60)
                            }
                            _ => 60,
                        };
                        let asked = crate::PermitChange {
                            step: outorga_core::engine::permit_life::LifeStep::Reserve {
                                ground: reason.key.clone(),
                                days: most.min(60),
                            },
                            to: None,
                        };
                        if let Err(e) = self
                            .change_permit(&change, rulebook, jurisdiction, key, &asked, since)
                            .await
                        {
                            note(format!("reserva da permissão nº {number}"), e);
                        }
                    }
                }
            }
            self.demo_buses(
                &change,
                rulebook,
                (jurisdiction, today),
                &mut report.refused,
            )
            .await?;
            self.demo_stands(
                &change,
                rulebook,
                (jurisdiction, today),
                &mut report.refused,
            )
            .await?;
            self.demo_call(
                &change,
                rulebook,
                (jurisdiction, today),
                &mut report.refused,
            )
            .await?;
        }
        // The tables grew at once: the planner's statistics follow.
        self.analyze().await?;
        Ok(report)
    }

    /// Takes an auto `steps` steps along its process, each the next the law
    /// allows, on the first day it allows it, never after `today`: notified
    /// three days after the auto; a notice of irregularity's verification
    /// told on its last day to cure, for two days later, and the
    /// irregularity found not cured then; judged after the defense's time (the
    /// days of a penalty the law gives as a range fixed at its maximum);
    /// the decision notified the next day; final after the appeal's time.
    async fn advance(
        &self,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        steps: usize,
        (issued, today): (NaiveDate, NaiveDate),
        change: &Change<'_>,
    ) -> Result<(), StoreError> {
        let mut day = issued.checked_add_days(Days::new(3)).unwrap_or(issued);
        let mut auto = self.auto(jurisdiction, key).await?;
        for _ in 0..steps {
            let next = |d: Option<NaiveDate>| d.and_then(|d| d.succ_opt()).unwrap_or(day);
            let (step, on) = match auto.status {
                Status::Issued => (ProcessStep::new(Step::Notify { cure_days: None }), day),
                // The verification told on the last day to cure, for two
                // days later (Canguçu Anexo I art. 7º, § 2º: 24 hours ahead
                // at least), then found not cured on its day.
                Status::AwaitingCure => match (auto.verification_at, auto.cure_by) {
                    (Some(at), _) => (
                        ProcessStep::with_text(
                            Step::NotCured,
                            "Vistoria: irregularidade não sanada",
                        ),
                        at.date(),
                    ),
                    (None, Some(last)) => {
                        let told = last.and_hms_opt(10, 0, 0).unwrap_or_default();
                        let inspection = told.checked_add_days(Days::new(2)).unwrap_or(told);
                        (
                            ProcessStep::with_text(
                                Step::ScheduleVerification { told, inspection },
                                "Vistoria de verificação comunicada ao delegatário",
                            ),
                            last,
                        )
                    }
                    (None, None) => break,
                },
                Status::Notified => {
                    let in_play = if auto.uncured {
                        &auto.proposal.uncured
                    } else {
                        &auto.proposal.sanctions
                    };
                    let days = in_play
                        .iter()
                        .find(|s| {
                            s.days.is_none()
                                && s.max_days.is_some()
                                && !s.optional
                                && s.at_once.is_none()
                        })
                        .and_then(|s| s.max_days);
                    (
                        ProcessStep::with_text(
                            Step::Judge(Decision {
                                upheld: true,
                                days,
                                ..Decision::default()
                            }),
                            "Auto mantido: sem defesa no prazo",
                        ),
                        next(auto.defense_by),
                    )
                }
                Status::Judged => (ProcessStep::new(Step::NotifyDecision), next(Some(day))),
                Status::DecisionNotified => {
                    (ProcessStep::new(Step::Finalize), next(auto.appeal_by))
                }
                _ => break,
            };
            day = on.max(day);
            if day > today {
                break;
            }
            let stepped = Change {
                at: day.and_hms_opt(11, 0, 0).unwrap_or(change.at),
                ..*change
            };
            auto = self
                .process_auto(&stepped, rulebook, jurisdiction, key, &step, day)
                .await?;
        }
        Ok(())
    }
}

/// The equipment and colour the rulebook asks of a vehicle, so demo vehicles
/// pass inclusion.
fn fittings(rulebook: &Rulebook) -> (Vec<String>, String) {
    let mut equipment = Vec::new();
    let mut colour = "branca".to_string();
    for requirement in &rulebook.vehicles.requirements {
        match &requirement.check {
            VehicleCheck::Equipment { all_of, any_of } => {
                equipment.extend(all_of.iter().cloned());
                equipment.extend(any_of.first().cloned());
            }
            VehicleCheck::Colour(c) => colour = c.clone(),
            _ => {}
        }
    }
    (equipment, colour)
}

/// A make and model of the kind each service runs (a demo's choice).
fn demo_model(service: Service) -> (&'static str, &'static str) {
    match service {
        Service::Taxi => ("Chevrolet", "Spin 1.8"),
        Service::TaxiAcessivel => ("Fiat", "Doblò 1.8 adaptado"),
        Service::Mototaxi | Service::Motofrete => ("Honda", "CG 160 Cargo"),
        Service::Onibus => ("Marcopolo", "Viaggio 900"),
    }
}

fn service_index(service: Service) -> u32 {
    Service::ALL.iter().position(|s| *s == service).unwrap_or(0) as u32
}
