//! Special and emergency services by authorization (Amapá art. 6º, III; 3º,
//! VIII–IX; 27–29): whether the Poder delegante may authorize a charter —
//! continuous (a contract with a company or an institution, at most the
//! law's months), eventual or touristic (a closed circuit, with the invoice
//! and the list of passengers, no more than the bus seats) — or an
//! emergency service (at most the law's days), and until when. The bus must
//! be within the age the law allows and have its inspection in force for
//! the whole service (art. 38); a carrier barred from new delegations
//! (caducity, inidoneidade) is refused; a charter's carrier is registered
//! in the register of the carriers authorized on every day of the service,
//! where the law keeps one (art. 28, § 4º; its bus carries a copy, art. 64,
//! IV). Every reason with its article.

use crate::context::{Context, EngineError};
use crate::engine::carrier_registration::{self, Registration};
use crate::engine::deadline::deadline;
use crate::engine::vehicle::deadlines;
use crate::facts::Vehicle;
use crate::model::{CharterRules, DeadlineKind};
use chrono::NaiveDate;

crate::vocab::vocabulary! {
    /// What is authorized: a continuous or an eventual charter (art. 27, I–II),
    /// or an emergency service (art. 29).
    pub enum CharterKind {
        Continuous = "continuous",
        Eventual = "eventual",
        Emergency = "emergency",
    }
}

impl CharterKind {
    /// As people read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            CharterKind::Continuous => "fretamento contínuo",
            CharterKind::Eventual => "fretamento eventual ou turístico",
            CharterKind::Emergency => "serviço em caráter emergencial",
        }
    }
}

/// What the carrier asks to be authorized.
#[derive(Debug, Clone)]
pub struct CharterRequest<'a> {
    pub kind: CharterKind,
    /// The first and last day of the service (a trip's departure and
    /// return; a contract's term).
    pub from: NaiveDate,
    pub until: NaiveDate,
    /// Where it leaves from and where it ends: a charter comes back to
    /// where it left (a closed circuit).
    pub origin: &'a str,
    pub end: &'a str,
    /// Passengers on the list, when one was given.
    pub passengers: Option<u32>,
    /// The invoice (nota fiscal) of an eventual charter, when given.
    pub invoice: bool,
    /// The contract of a continuous charter, and whether the client is a
    /// company or institution (CNPJ).
    pub contract: bool,
    pub client_is_company: Option<bool>,
    /// The trips the continuous charter's contract sets, when given.
    pub trips: Option<u32>,
    /// The bus, with its last inspection; its seats.
    pub vehicle: &'a Vehicle,
    pub seats: Option<u32>,
    /// Why the carrier may not take a new delegation now, if it may not
    /// (the record's reason and its article).
    pub barred: Option<(String, String)>,
    /// The carrier's registrations in the register of the carriers
    /// authorized (a charter's: weighed where the rulebook keeps one).
    pub registrations: &'a [Registration],
    /// Whether the carrier holds a concession or permission of a line of
    /// the system (an emergency service is delegated only to one, art. 29).
    pub system_carrier: bool,
}

/// The answer: whether it may be authorized and until when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CharterAnswer {
    pub allowed: bool,
    /// Why not, each with its article.
    pub reasons: Vec<(String, String)>,
    /// The last day of the authorization.
    pub valid_until: Option<NaiveDate>,
    /// Every article weighed.
    pub citations: Vec<String>,
}

fn rules<'r>(ctx: &Context<'r>) -> Result<&'r CharterRules, EngineError> {
    ctx.rulebook
        .bus
        .as_ref()
        .and_then(|b| b.charters.as_ref())
        .ok_or_else(|| EngineError::NotInRulebook("regras de fretamento e autorização".into()))
}

/// Whether `request` may be authorized on `today`.
pub fn decide(
    ctx: &Context<'_>,
    request: &CharterRequest<'_>,
    today: NaiveDate,
) -> Result<CharterAnswer, EngineError> {
    let rules = rules(ctx)?;
    let mut reasons: Vec<(String, String)> = Vec::new();
    let mut citations: Vec<String> = Vec::new();
    let mut refuse = |why: String, article: &str| reasons.push((why, article.to_string()));
    if request.until < request.from {
        return Err(EngineError::InvalidQuestion(
            "o fim do serviço vem antes do início".into(),
        ));
    }
    if request.from < today {
        refuse(
            format!(
                "o serviço começa em {}, antes de hoje: a autorização é prévia",
                request.from.format("%d/%m/%Y")
            ),
            &rules.prior,
        );
    }
    let kind_article = match request.kind {
        CharterKind::Continuous => &rules.continuous,
        CharterKind::Eventual => &rules.eventual,
        CharterKind::Emergency => &rules.emergency,
    };
    citations.push(kind_article.clone());
    // The longest the authorization may last, from its first day.
    let term = match request.kind {
        CharterKind::Continuous => Some(deadline(
            ctx,
            DeadlineKind::ContinuousCharter,
            request.from,
        )?),
        CharterKind::Emergency => Some(deadline(
            ctx,
            DeadlineKind::EmergencyAuthorization,
            request.from,
        )?),
        CharterKind::Eventual => None,
    };
    if let Some(term) = &term {
        citations.extend(term.citations.iter().map(|c| c.to_string()));
        if request.until > term.due {
            refuse(
                format!(
                    "vai até {}, além do prazo máximo da lei ({})",
                    request.until.format("%d/%m/%Y"),
                    term.due.format("%d/%m/%Y")
                ),
                term.citations.first().copied().unwrap_or(kind_article),
            );
        }
    }
    if request.kind != CharterKind::Emergency {
        citations.push(rules.closed_circuit.clone());
        if request.origin.trim().to_lowercase() != request.end.trim().to_lowercase() {
            refuse(
                format!(
                    "sai de {} e termina em {}: o fretamento é em circuito fechado",
                    request.origin, request.end
                ),
                &rules.closed_circuit,
            );
        }
    }
    match request.kind {
        CharterKind::Eventual => {
            match request.passengers {
                None | Some(0) => refuse(
                    "falta a lista das pessoas transportadas".into(),
                    kind_article,
                ),
                Some(n) => {
                    if let Some(seats) = request.seats
                        && n > seats
                    {
                        refuse(
                            format!("{n} passageiros na lista para {seats} poltronas"),
                            &rules.seats,
                        );
                    }
                }
            }
            if !request.invoice {
                refuse("falta a nota fiscal do fretamento".into(), kind_article);
            }
        }
        CharterKind::Continuous => {
            if !request.contract {
                refuse(
                    "falta o contrato com a contratante, que o órgão analisa".into(),
                    kind_article,
                );
            }
            if request.trips.is_none_or(|n| n == 0) {
                refuse(
                    "informe a quantidade de viagens que o contrato define".into(),
                    kind_article,
                );
            }
            if request.client_is_company == Some(false) {
                refuse(
                    "a contratante de fretamento contínuo é pessoa jurídica ou instituição (CNPJ)"
                        .into(),
                    kind_article,
                );
            }
        }
        CharterKind::Emergency => {
            if !request.system_carrier {
                refuse(
                    "o serviço emergencial é delegado a outra transportadora concessionária ou permissionária do sistema, e esta não tem delegação de linha"
                        .into(),
                    kind_article,
                );
            }
        }
    }
    // The bus: within the age the law allows and inspected, through the
    // last day of the service.
    let limits = deadlines(ctx, request.vehicle, request.from, false)?;
    citations.extend(limits.citations.iter().map(|c| c.to_string()));
    let vehicles = &ctx.rulebook.vehicles;
    let age_article = vehicles
        .replacement
        .as_ref()
        .map_or(kind_article.as_str(), |r| r.citation.as_str());
    if let Some(by) = limits.replace_by
        && by < request.until
    {
        refuse(
            format!(
                "o ônibus só pode servir até {} (idade máxima)",
                by.format("%d/%m/%Y")
            ),
            age_article,
        );
    }
    if let Some(rule) = &vehicles.inspection {
        match limits.next_inspection {
            Some(due) if due < request.until => refuse(
                format!(
                    "a vistoria do ônibus vence em {}, antes do fim do serviço",
                    due.format("%d/%m/%Y")
                ),
                &rule.citation,
            ),
            None => refuse(
                "o ônibus não tem vistoria aprovada registrada".into(),
                &rule.citation,
            ),
            _ => {}
        }
    }
    if let Some((why, article)) = &request.barred {
        refuse(why.clone(), article);
    }
    // A charter (not an emergency service, art. 29) is authorized to a
    // registered carrier, whose registration the bus carries on the trip.
    if request.kind != CharterKind::Emergency
        && let Some(register) = carrier_registration::rules(ctx)
    {
        citations.push(register.register.clone());
        citations.push(register.on_board.clone());
        if let Some(why) =
            carrier_registration::uncovered(request.registrations, request.from, request.until)
        {
            refuse(why, &register.register);
            refuse(
                "o ônibus porta na viagem cópia do registro cadastral da transportadora".into(),
                &register.on_board,
            );
        }
    }
    for (_, article) in &reasons {
        if !citations.contains(article) {
            citations.push(article.clone());
        }
    }
    citations.dedup();
    let allowed = reasons.is_empty();
    Ok(CharterAnswer {
        allowed,
        valid_until: allowed.then_some(request.until),
        reasons,
        citations,
    })
}
