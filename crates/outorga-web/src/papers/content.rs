//! What each kind of paper says, read from the record as it stands when
//! the paper is first printed, with the articles it rests on.

use crate::error::ApiError;
use crate::state::AppState;
use axum::http::StatusCode;
use chrono::NaiveDate;
use outorga_core::model::{DeadlineKind, Rulebook, Service};
use outorga_pdf::{Format, Images, Paper, Row, Section, SlipText};
use outorga_store::words::{self, day, masked_document};
use outorga_store::{Auto, Document, PaperFormat, Slip};

use crate::routes::public::authority;
pub(super) use crate::routes::public::place_name;

fn failed(what: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, what)
}

fn service_name(service: &str) -> String {
    Service::parse(service).map_or_else(|| service.to_string(), |s| s.portuguese().to_string())
}

/// The paper of a document, and its images.
pub(super) async fn paper(
    state: &AppState,
    document: &Document,
    format: PaperFormat,
) -> Result<(Paper, Images), ApiError> {
    let j = &document.jurisdiction;
    let today = crate::routes::today_in(state, j);
    let subject: Vec<&str> = document.subject.split(':').collect();
    let (rulebook, sections, slip, title) = match (document.kind.as_str(), subject.as_slice()) {
        ("traffic_authorization", ["vehicle", plate]) => {
            traffic_authorization(state, j, plate, today).await?
        }
        ("inspection_seal", ["vehicle", plate]) => inspection_seal(state, document, plate).await?,
        ("driver_registration", ["driver", registration]) => {
            driver_registration(state, j, registration, format).await?
        }
        ("delegation_term", ["permit", service, number]) => {
            delegation_term(state, j, service, number).await?
        }
        ("charter_authorization", ["charter", year, number]) => {
            charter_authorization(state, j, (parse(year)?, parse(number)?)).await?
        }
        ("carrier_registration", ["carrier_registration", year, number]) => {
            carrier_registration(state, j, (parse(year)?, parse(number)?)).await?
        }
        (kind, ["auto", year, number]) => {
            let which = super::AutoPaper::of_kind(kind)
                .ok_or_else(|| failed(format!("um documento `{kind}` não trata de um auto")))?;
            let key = (parse(year)?, parse(number)?);
            auto_paper(state, j, key, which, today).await?
        }
        ("payment_slip", ["debt", year, number, seq, _parcel]) => {
            let key = (parse(year)?, parse(number)?, parse(seq)?);
            payment_slip(state, j, key, document).await?
        }
        (kind, _) => {
            return Err(failed(format!(
                "o documento {} ({kind}, {}) não tem modelo de impressão",
                document.code, document.subject
            )));
        }
    };
    let rulebook = rulebook.or_else(|| state.library.rulebooks().find(|r| r.jurisdiction.id == *j));
    let verify_at = format!("{}/verificar", state.public_url);
    let images = Images {
        verify_qr: qr(&format!("{verify_at}/{}", document.code))?,
        barcode: slip
            .as_ref()
            .map(|s| outorga_guia_svg(&s.codigo_barras))
            .transpose()?,
        pix_qr: slip.as_ref().map(|s| qr(&s.pix)).transpose()?,
    };
    let paper = Paper {
        format: match format {
            PaperFormat::A4 => Format::A4,
            PaperFormat::Card => Format::Card,
        },
        authority: authority(state, j),
        law: rulebook.map_or_else(String::new, |r| {
            format!("{} ({})", r.act.name, r.act.number)
        }),
        title,
        code: document.code.clone(),
        issued_on: day(document.issued_on),
        valid_until: document.valid_until.map(day),
        sections,
        slip: slip.map(|s| SlipText {
            amount: outorga_store::brl::money(&crate::routes::debts::reais(s.cents)),
            due: day(s.due_on),
            linha_digitavel: s.linha_digitavel,
            pix: s.pix,
            own_number: s.own_number,
        }),
        verify_at,
    };
    Ok((paper, images))
}

fn parse<T: std::str::FromStr>(text: &str) -> Result<T, ApiError> {
    text.parse()
        .map_err(|_| failed(format!("`{text}` não é número no assunto do documento")))
}

fn qr(text: &str) -> Result<String, ApiError> {
    outorga_guia::qr_svg(text).map_err(|e| failed(e.to_string()))
}

fn outorga_guia_svg(codigo: &str) -> Result<String, ApiError> {
    outorga_guia::barcode_svg(codigo).map_err(|e| failed(e.to_string()))
}

/// What a kind of paper gives: its rulebook, sections, slip and title.
type Parts<'a> = (Option<&'a Rulebook>, Vec<Section>, Option<Slip>, String);

fn section(heading: &str, rows: Vec<Row>, paragraphs: Vec<String>) -> Section {
    Section {
        heading: heading.to_string(),
        rows,
        paragraphs,
    }
}

/// A person by CPF or CNPJ: the name recorded, and the document masked
/// (a CPF) or whole (a company's CNPJ).
async fn person(state: &AppState, j: &str, document: &str) -> Result<String, ApiError> {
    let name = state
        .store
        .registered(j, document)
        .await?
        .map_or_else(String::new, |found| found.name);
    Ok(if name.is_empty() {
        masked_document(document)
    } else {
        format!("{name} ({})", masked_document(document))
    })
}

/// The permit's rulebook, from the library.
fn rulebook_of<'a>(state: &'a AppState, id: &str) -> Option<&'a Rulebook> {
    state.library.get(id)
}

async fn vehicle_rows(state: &AppState, j: &str, plate: &str) -> Result<Vec<Row>, ApiError> {
    let Some(v) = state.store.vehicle(j, plate).await? else {
        return Ok(vec![Row::new("Placa", plate)]);
    };
    let mut rows = vec![Row::new("Placa", v.plate.clone())];
    let model = [v.make.as_deref(), v.model.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    if !model.is_empty() {
        rows.push(Row::new("Marca/modelo", model));
    }
    rows.push(Row::new("Cor", v.colour.clone()));
    rows.push(Row::new("Ano de fabricação", v.manufactured.to_string()));
    rows.push(Row::new("RENAVAM", v.renavam.clone()));
    if let Some(capacity) = v.capacity {
        rows.push(Row::new("Lugares (além do condutor)", capacity.to_string()));
    }
    Ok(rows)
}

/// The permit the vehicle `plate` serves on `today`, if any.
async fn serving_permit(
    state: &AppState,
    j: &str,
    plate: &str,
    today: NaiveDate,
) -> Result<Option<outorga_store::PermitRecord>, ApiError> {
    let Some((service, number, _)) = state
        .store
        .plate_check(j, plate, today)
        .await?
        .and_then(|c| c.permit)
    else {
        return Ok(None);
    };
    Ok(Some(state.store.permit(j, &service, number).await?.0))
}

async fn traffic_authorization<'a>(
    state: &'a AppState,
    j: &str,
    plate: &str,
    today: NaiveDate,
) -> Result<Parts<'a>, ApiError> {
    let mut sections = vec![section(
        "O veículo",
        vehicle_rows(state, j, plate).await?,
        vec![],
    )];
    let mut rulebook = None;
    if let Some(permit) = serving_permit(state, j, plate, today).await? {
        let (service, number) = (permit.service.clone(), permit.number);
        rulebook = rulebook_of(state, &permit.rulebook);
        let term = rulebook.and_then(|r| {
            r.deadlines
                .iter()
                .find(|d| d.kind == DeadlineKind::TrafficAuthorizationTerm)
        });
        let mut paragraphs = vec![format!(
            "Autoriza o veículo acima a trafegar no serviço de {} sob a permissão nº {number}, \
             enquanto a permissão estiver em vigor e a vistoria do veículo aprovada e no prazo.",
            service_name(&service)
        )];
        if let Some(term) = term {
            paragraphs.push(format!(
                "A autorização de tráfego é renovada no prazo da lei ({}).",
                term.citation
            ));
        }
        sections.push(section(
            "A permissão",
            vec![
                Row::new("Serviço", service_name(&service).to_string()),
                Row::new("Permissão nº", number.to_string()),
                Row::new("Titular", person(state, j, &permit.holder).await?),
            ],
            paragraphs,
        ));
    }
    Ok((rulebook, sections, None, "Autorização de tráfego".into()))
}

async fn inspection_seal<'a>(
    state: &'a AppState,
    document: &Document,
    plate: &str,
) -> Result<Parts<'a>, ApiError> {
    let j = &document.jurisdiction;
    let inspections = state.store.vehicle_inspections(j, plate, 20).await?;
    let inspection = inspections
        .iter()
        .find(|i| i.approved && i.done_on == document.issued_on);
    let mut rows = vec![];
    if let Some(i) = inspection {
        rows.push(Row::new(
            "Vistoria",
            format!(
                "{}/{} ({})",
                i.number,
                i.year,
                words::inspection_kind(&i.kind)
            ),
        ));
        rows.push(Row::new("Realizada em", day(i.done_on)));
        rows.push(Row::new("Resultado", "aprovada"));
        rows.push(Row::new("Vistoriador", i.inspector.clone()));
        if !i.findings.trim().is_empty() {
            rows.push(Row::new("Constatações", i.findings.clone()));
        }
    }
    if let Some(next) = document.valid_until {
        rows.push(Row::new("Próxima vistoria até", day(next)));
    }
    let today = crate::routes::today_in(state, j);
    let rulebook = serving_permit(state, j, plate, today)
        .await?
        .and_then(|permit| rulebook_of(state, &permit.rulebook));
    Ok((
        rulebook,
        vec![
            section("O veículo", vehicle_rows(state, j, plate).await?, vec![]),
            section(
                "A vistoria",
                rows,
                vec![
                    "O veículo foi vistoriado e aprovado para o serviço; o selo vale até a data da próxima vistoria."
                        .into(),
                ],
            ),
        ],
        None,
        "Selo de vistoria".into(),
    ))
}

async fn driver_registration<'a>(
    state: &'a AppState,
    j: &str,
    registration: &str,
    format: PaperFormat,
) -> Result<Parts<'a>, ApiError> {
    let driver = state
        .store
        .driver(j, registration)
        .await?
        .ok_or_else(|| failed(format!("não há condutor com a matrícula {registration}")))?;
    let (permit, _) = state
        .store
        .permit(j, &driver.service, driver.number)
        .await?;
    let name = state
        .store
        .registered(j, &driver.driver)
        .await?
        .map_or_else(String::new, |p| p.name);
    let mut rows = vec![
        Row::new("Nome", name),
        Row::new("Matrícula", driver.registration.clone()),
        Row::new(
            "Serviço e permissão",
            format!("{} nº {}", service_name(&driver.service), driver.number),
        ),
        Row::new("Função", outorga_store::driver_role_pt(&driver.role)),
    ];
    let title = match format {
        PaperFormat::Card => "Credencial do condutor",
        PaperFormat::A4 => {
            rows.push(Row::new("CPF", masked_document(&driver.driver)));
            rows.push(Row::new("Desde", day(driver.since)));
            "Matrícula do condutor"
        }
    };
    let paragraphs = match format {
        PaperFormat::Card => vec![],
        PaperFormat::A4 => vec![format!(
            "Habilita o condutor acima a dirigir no serviço de {} sob a permissão nº {}, \
             enquanto a matrícula estiver no prazo e a permissão em vigor. O condutor porta \
             esta matrícula em serviço; o código QR abre a consulta pública do condutor.",
            service_name(&driver.service),
            driver.number
        )],
    };
    Ok((
        rulebook_of(state, &permit.rulebook),
        vec![section("O condutor", rows, paragraphs)],
        None,
        title.into(),
    ))
}

async fn delegation_term<'a>(
    state: &'a AppState,
    j: &str,
    service: &str,
    number: &str,
) -> Result<Parts<'a>, ApiError> {
    let number: i64 = parse(number)?;
    let (permit, _) = state.store.permit(j, service, number).await?;
    let rulebook = rulebook_of(state, &permit.rulebook);
    let mut rows = vec![
        Row::new("Delegatário", person(state, j, &permit.holder).await?),
        Row::new("Serviço", service_name(service).to_string()),
        Row::new("Delegação nº", number.to_string()),
    ];
    if let Some(line) = &permit.line {
        rows.push(Row::new("Linha", line.clone()));
    }
    rows.push(Row::new("Outorgada em", day(permit.granted_on)));
    if let Some(end) = permit.expires_on {
        rows.push(Row::new("Prazo até", day(end)));
    }
    let term = rulebook.and_then(|r| {
        r.deadlines
            .iter()
            .find(|d| d.kind == DeadlineKind::DelegationTerm)
    });
    let mut paragraphs = vec![format!(
        "O Poder delegante delega ao delegatário acima a prestação do serviço de {}, \
         por sua conta e risco, nas condições da lei e dos regulamentos.",
        service_name(service)
    )];
    if let Some(term) = term {
        paragraphs.push(format!("Prazo da delegação: {}.", term.citation));
    }
    Ok((
        rulebook,
        vec![section("A delegação", rows, paragraphs)],
        None,
        "Termo de delegação".into(),
    ))
}

/// A charter's or an emergency service's authorization: what the bus
/// carries on the trip (Amapá art. 28, § 2º). The passengers are counted,
/// not named.
async fn charter_authorization<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64),
) -> Result<Parts<'a>, ApiError> {
    use outorga_core::engine::charter::CharterKind;
    let charter = state.store.charter(j, key).await?;
    let rulebook = state
        .library
        .rulebooks()
        .find(|r| r.jurisdiction.id == j && r.bus.as_ref().is_some_and(|b| b.charters.is_some()));
    let rules = rulebook
        .and_then(|r| r.bus.as_ref())
        .and_then(|b| b.charters.as_ref());
    let input = &charter.input;
    let kind = input.kind.portuguese();
    let title = format!("Autorização de {kind}");
    let mut rows = vec![
        Row::new(
            "Autorização nº",
            format!("{}/{}", charter.number, charter.year),
        ),
        Row::new("Transportadora", person(state, j, &input.carrier).await?),
    ];
    if let Some(registration) = &charter.registration {
        rows.push(Row::new("Registro cadastral nº", registration.clone()));
    }
    rows.extend([
        Row::new("Serviço", kind),
        Row::new(
            "Período",
            format!("de {} a {}", day(input.from), day(input.until)),
        ),
        Row::new(
            "Percurso",
            format!("{} – {} – {}", input.origin, input.destination, input.end),
        ),
    ]);
    if !input.route.is_empty() {
        rows.push(Row::new("Itinerário", input.route.clone()));
    }
    if let Some(line) = &input.line {
        rows.push(Row::new("Linha", line.clone()));
    }
    if input.kind != CharterKind::Emergency {
        rows.push(Row::new("Contratante", input.client.clone()));
    }
    if !input.passengers.is_empty() {
        rows.push(Row::new(
            "Passageiros na lista",
            input.passengers.len().to_string(),
        ));
    }
    if let Some(invoice) = &input.invoice {
        rows.push(Row::new("Nota fiscal", invoice.clone()));
    }
    if let Some(contract) = &input.contract {
        rows.push(Row::new("Contrato", contract.clone()));
    }
    if let Some(trips) = input.trips {
        rows.push(Row::new("Viagens contratadas", trips.to_string()));
    }
    let mut paragraphs = vec![format!(
        "A autoridade rodoviária autoriza a transportadora acima a prestar o {kind} descrito, \
         com o ônibus indicado, nas condições da lei ({}).",
        charter.articles.join("; ")
    )];
    if let Some(rules) = rules {
        if input.kind != CharterKind::Emergency {
            paragraphs.push(format!(
                "Em circuito fechado: sem venda de passagens individuais, sem embarque ou \
                 desembarque no itinerário e sem uso de terminais ({}).",
                rules.closed_circuit
            ));
        }
        match (&rules.registration, &charter.registration) {
            (Some(register), Some(_)) => paragraphs.push(format!(
                "Uma cópia desta autorização e do registro cadastral da transportadora segue no \
                 veículo durante a viagem ({}; {}).",
                rules.copy_on_board, register.on_board
            )),
            _ => paragraphs.push(format!(
                "Uma cópia desta autorização segue no veículo durante a viagem ({}).",
                rules.copy_on_board
            )),
        }
    }
    Ok((
        rulebook,
        vec![
            section("O serviço autorizado", rows, paragraphs),
            section(
                "O ônibus",
                vehicle_rows(state, j, &input.plate).await?,
                vec![],
            ),
        ],
        None,
        title,
    ))
}

/// A carrier's registration in the register of the carriers authorized to
/// charters (Amapá art. 28, § 4º): the copy its bus carries on a charter
/// (art. 64, IV). The documents presented are named, not printed.
async fn carrier_registration<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64),
) -> Result<Parts<'a>, ApiError> {
    let registration = state.store.carrier_registration(j, key).await?;
    let rulebook = state.library.rulebooks().find(|r| {
        r.jurisdiction.id == j
            && r.bus
                .as_ref()
                .and_then(|b| b.charters.as_ref())
                .is_some_and(|c| c.registration.is_some())
    });
    let rules = rulebook
        .and_then(|r| r.bus.as_ref())
        .and_then(|b| b.charters.as_ref())
        .and_then(|c| c.registration.as_ref());
    let mut rows = vec![
        Row::new("Registro nº", registration.label()),
        Row::new(
            "Transportadora",
            person(state, j, &registration.carrier).await?,
        ),
        Row::new(
            "Vigência",
            format!(
                "de {} a {}",
                day(registration.valid_from),
                day(registration.valid_until)
            ),
        ),
        Row::new("Concedido em", day(registration.granted_on)),
    ];
    if let Some(renews) = &registration.renews {
        rows.push(Row::new("Renova o registro nº", renews.clone()));
    }
    if !registration.files.is_empty() {
        let presented: Vec<&str> = registration
            .files
            .iter()
            .map(|f| f.kind.portuguese())
            .collect();
        rows.push(Row::new("Documentos apresentados", presented.join("; ")));
    }
    let mut paragraphs = vec![format!(
        "A transportadora acima está inscrita no cadastro das empresas autorizadas a prestar \
         serviços de fretamento ({}).",
        registration.articles.join("; ")
    )];
    if let Some(rules) = rules {
        paragraphs.push(format!(
            "Uma cópia deste registro segue no ônibus em toda viagem de fretamento, com a \
             autorização da viagem ({}). O registro é cassado de imediato se a autorização for \
             usada para outro tipo de transporte ({}).",
            rules.on_board, rules.cancellation
        ));
    }
    Ok((
        rulebook,
        vec![section("O registro", rows, paragraphs)],
        None,
        "Registro cadastral de transportadora".to_string(),
    ))
}

/// The facts of an auto, its infraction and the penalty proposed.
async fn auto_sections(
    state: &AppState,
    j: &str,
    auto: &Auto,
    rulebook: Option<&Rulebook>,
) -> Result<Vec<Section>, ApiError> {
    let infraction = rulebook.and_then(|r| {
        r.infraction_by_code(&auto.infraction)
            .map(|i| r.infraction(i))
    });
    let mut facts = vec![
        Row::new("Auto nº", format!("{}/{}", auto.number, auto.year)),
        Row::new("Autuado", person(state, j, &auto.offender).await?),
    ];
    if let Some((service, number)) = &auto.permit {
        facts.push(Row::new(
            "Permissão",
            format!("{} nº {number}", service_name(service)),
        ));
    }
    if let Some(plate) = &auto.plate {
        facts.push(Row::new("Placa", plate.clone()));
    }
    facts.extend([
        Row::new(
            "Data e hora",
            auto.committed_at.format("%d/%m/%Y %H:%M").to_string(),
        ),
        Row::new("Local", auto.place.clone()),
        Row::new("Agente", auto.inspector.clone()),
    ]);
    let mut infraction_rows = vec![Row::new("Código", auto.infraction.clone())];
    if let Some(i) = infraction {
        infraction_rows.push(Row::new("Descrição", i.description.clone()));
        infraction_rows.push(Row::new("Fundamento", i.citation.to_string()));
    }
    let sanctions = if auto.uncured {
        &auto.proposal.uncured
    } else {
        &auto.proposal.sanctions
    };
    let penalty = sanctions
        .iter()
        .map(|s| {
            // The offender pays his own fine: no need to name him again.
            let mut own = s.clone();
            if own.payer.as_deref() == Some(auto.offender.as_str()) {
                own.payer = None;
            }
            let what = words::sanction(&own);
            let articles = s.articles.join("; ");
            let value = match (what.is_empty(), articles.is_empty()) {
                (true, _) => articles,
                (false, true) => what,
                (false, false) => format!("{what} ({articles})"),
            };
            Row::new(capitalized(words::sanction_kind(&s.kind)), value)
        })
        .collect();
    let mut described = vec![];
    if !auto.description.trim().is_empty() {
        described.push(format!("Descrição dos fatos: {}", auto.description));
    }
    let points: Vec<String> = auto
        .proposal
        .points
        .iter()
        .map(|(who, n)| {
            format!(
                "{} ponto(s) para {}",
                outorga_store::brl::decimal(n),
                masked_document(who)
            )
        })
        .collect();
    let mut penalty_notes = vec![];
    if !points.is_empty() {
        penalty_notes.push(format!("Pontuação: {}.", points.join("; ")));
    }
    Ok(vec![
        section("A autuação", facts, described),
        section("A infração", infraction_rows, vec![]),
        section("Penalidade proposta", penalty, penalty_notes),
    ])
}

/// "Multa", from "multa".
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A limit of the procedure in words: its day if known, else its length
/// from the event (as the deployment's law reads it today), with the
/// article.
fn limit_words(
    ctx: Option<&outorga_core::Context<'_>>,
    (kind, due): (DeadlineKind, Option<NaiveDate>),
    from: &str,
    today: NaiveDate,
) -> Option<String> {
    let rule = ctx.and_then(|c| c.rulebook.deadlines.iter().find(|d| d.kind == kind));
    match (due, rule) {
        (Some(due), Some(rule)) => Some(format!("até {} ({})", day(due), rule.citation)),
        (Some(due), None) => Some(format!("até {}", day(due))),
        (None, Some(rule)) => {
            let length = ctx
                .and_then(|c| c.quantity(&rule.length, today).ok())
                .and_then(outorga_core::context::whole_u32)?;
            Some(format!(
                "{} {from} ({})",
                rule.unit.words(length),
                rule.citation
            ))
        }
        (None, None) => None,
    }
}

async fn auto_paper<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64),
    which: super::AutoPaper,
    today: NaiveDate,
) -> Result<Parts<'a>, ApiError> {
    let auto = crate::routes::priced_auto(state, j, key).await?;
    let rulebook = rulebook_of(state, &auto.rulebook);
    let ctx = match rulebook {
        Some(r) => Some(state.store.deployed_law(j, r).await?),
        None => None,
    };
    let mut sections = auto_sections(state, j, &auto, rulebook).await?;
    let authority = authority(state, j);
    let (title, slip) = match which {
        super::AutoPaper::Auto => (format!("Auto de infração nº {}/{}", key.1, key.0), None),
        super::AutoPaper::Notification => {
            let defense = limit_words(
                ctx.as_ref(),
                (DeadlineKind::Defense, auto.defense_by),
                "contados do recebimento desta notificação",
                today,
            );
            let mut rows = vec![];
            if let Some(defense) = defense {
                rows.push(Row::new("Prazo para a defesa", defense));
            }
            sections.push(section(
                "A defesa",
                rows,
                vec![format!(
                    "O autuado pode apresentar defesa por escrito, assinada por ele ou por procurador, \
                     com as provas e os documentos que a instruam, no protocolo de {authority}, \
                     informando o número do auto ({}/{}). Sem defesa no prazo, o auto segue para \
                     julgamento com a penalidade proposta.",
                    key.1, key.0
                )],
            ));
            (
                format!("Notificação da autuação — auto nº {}/{}", key.1, key.0),
                None,
            )
        }
        super::AutoPaper::Decision => {
            let mut rows = vec![];
            if let Some(on) = auto.judged_on {
                rows.push(Row::new("Julgado em", day(on)));
            }
            if let Some(decision) = words::decision(&auto) {
                rows.push(Row::new("Decisão", decision));
            }
            let stage = if auto.instance == 0 {
                DeadlineKind::Appeal
            } else {
                DeadlineKind::SecondAppeal
            };
            let appeal = limit_words(
                ctx.as_ref(),
                (stage, auto.appeal_by),
                "contados do recebimento desta notificação",
                today,
            );
            let mut paragraphs = vec![];
            if let Some(rulebook) = rulebook {
                let options = state.store.process_options(rulebook, j, key, today).await?;
                for to in &options.appeal_to {
                    paragraphs.push(format!("Cabe recurso para {} ({}).", to.body, to.article));
                }
            }
            if let Some(appeal) = appeal {
                rows.push(Row::new("Prazo para recurso", appeal));
            }
            sections.push(section("A decisão", rows, paragraphs));
            let fines = fine_debts(state, j, key).await?;
            let slip = fine_slip(state, j, &fines, rulebook, today).await;
            let upheld = auto.decision.as_ref().is_some_and(|d| d.upheld);
            let unpaid = fines.iter().find(|d| !d.settled());
            let payment = match (upheld, fines.is_empty(), unpaid, &slip) {
                (false, ..) | (_, _, Some(_), Some(_)) => None,
                (true, true, ..) => Some(format!(
                    "Havendo multa, ela é lançada quando a penalidade se torna definitiva (sem \
                     recurso no prazo, ou julgado o recurso); a guia de recolhimento é emitida \
                     então por {authority}."
                )),
                (true, false, Some(debt), None) => Some(format!(
                    "A multa vence em {}; a guia de recolhimento é emitida por {authority}.",
                    day(debt.due_on)
                )),
                (true, false, None, _) => Some("A multa já foi paga.".to_string()),
            };
            if let Some(text) = payment {
                sections.push(section("O pagamento", vec![], vec![text]));
            }
            (
                format!(
                    "Notificação da decisão e da penalidade — auto nº {}/{}",
                    key.1, key.0
                ),
                slip,
            )
        }
    };
    Ok((rulebook, sections, slip, title))
}

/// The auto's fines charged so far (each a debt: places 1, 2… of the
/// auto), in their order.
pub(super) async fn fine_debts(
    state: &AppState,
    j: &str,
    (year, number): (i32, i64),
) -> Result<Vec<outorga_store::Debt>, ApiError> {
    let mut fines = Vec::new();
    for seq in 1.. {
        match state.store.debt(j, (year, number, seq)).await {
            Ok(debt) => fines.push(debt),
            Err(outorga_store::StoreError::NotFound(_)) => break,
            Err(other) => return Err(other.into()),
        }
    }
    Ok(fines)
}

/// The slip of the first of `fines` not yet paid, due on its due day (or
/// today, if that has passed); none when the jurisdiction cannot issue
/// slips yet (no agreement, no unit value: the notice then says who
/// issues it).
pub(super) async fn fine_slip(
    state: &AppState,
    j: &str,
    fines: &[outorga_store::Debt],
    rulebook: Option<&Rulebook>,
    today: NaiveDate,
) -> Option<Slip> {
    let debt = fines.iter().find(|d| !d.settled())?;
    let key = (debt.year, debt.number, debt.seq);
    state
        .store
        .slip(rulebook?, j, key, debt.due_on.max(today))
        .await
        .ok()
}

async fn payment_slip<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64, i64),
    document: &Document,
) -> Result<Parts<'a>, ApiError> {
    let debt = state.store.debt(j, key).await?;
    let rulebook = rulebook_of(state, &debt.rulebook);
    let on = document.valid_until.unwrap_or(document.issued_on);
    let slip = crate::routes::debts::debt_slip(state, j, key, Some(&on.to_string())).await?;
    let mut rows = vec![
        Row::new("Devedor", person(state, j, &debt.debtor).await?),
        Row::new("Referente a", debt.purpose.clone()),
    ];
    if debt.seq > 0 {
        rows.push(Row::new(
            "Auto nº",
            format!("{}/{}", debt.number, debt.year),
        ));
    }
    if let Some(article) = &debt.article {
        rows.push(Row::new("Fundamento", article.clone()));
    }
    let parcels = debt.installments.unwrap_or(1);
    if parcels > 1 {
        rows.push(Row::new(
            "Parcela",
            format!("{} de {parcels}", slip.due.parcel),
        ));
    }
    if slip.due.surcharge_percent != "0" {
        rows.push(Row::new(
            "Acréscimo por atraso",
            format!(
                "{}%",
                outorga_store::brl::decimal(&slip.due.surcharge_percent)
            ),
        ));
    }
    Ok((
        rulebook,
        vec![section(
            "O débito",
            rows,
            vec![format!(
                "Pague até {} pelo código de barras em qualquer banco ou lotérica, ou pelo PIX. \
                 Depois desse dia o valor muda: emita uma nova guia.",
                day(on)
            )],
        )],
        Some(slip),
        "Guia de recolhimento".into(),
    ))
}
