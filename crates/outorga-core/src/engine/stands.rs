//! Taxi and mototaxi stands: who may wait where, a holder moved to another
//! stand (by the authority, after the notice the law requires, or at the
//! holder's request), swaps between holders, and the public lottery that
//! fills a vacancy. What a law does not provide is refused.

use crate::context::{Context, EngineError};
use crate::engine::deadline::deadline;
use crate::engine::draw;
use crate::model::{Amount, DeadlineKind, FeeEvent, StandRules};
use chrono::NaiveDate;

/// A stand as the decree set it: its places, or a free stand that any taxi
/// may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stand<'a> {
    pub name: &'a str,
    pub capacity: u32,
    pub free: bool,
}

fn rules<'r>(ctx: &Context<'r>) -> Result<&'r StandRules, EngineError> {
    ctx.rulebook
        .stands
        .as_ref()
        .ok_or_else(|| EngineError::NotInRulebook("regras de pontos de táxi".into()))
}

/// How the lottery orders the candidates, for anyone to re-run it.
pub const LOTTERY_ALGORITHM: &str = draw::ALGORITHM;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw<'a, 'r> {
    pub vacancies: u32,
    /// Every candidate with their ticket, in the order drawn.
    pub order: Vec<(&'a str, String)>,
    /// The first `vacancies` of the order.
    pub winners: Vec<&'a str>,
    pub citations: Vec<&'r str>,
}

/// The public lottery for the vacancies of `stand` (its capacity less the
/// `occupants` already assigned), among `candidates`, with the `seed`
/// announced before the draw.
pub fn lottery<'a, 'r>(
    ctx: &Context<'r>,
    stand: Stand<'_>,
    occupants: u32,
    seed: &str,
    candidates: &[&'a str],
) -> Result<Draw<'a, 'r>, EngineError> {
    let rules = rules(ctx)?;
    let lottery = rules
        .lottery
        .as_ref()
        .ok_or_else(|| EngineError::NotInRulebook("o sorteio de vagas de ponto".into()))?;
    if stand.free {
        let article = free_article(rules, false).unwrap_or(&rules.citation);
        return Err(EngineError::InvalidQuestion(format!(
            "o ponto `{}` é ponto livre ({article}): não tem vagas a sortear",
            stand.name
        )));
    }
    let order = draw::order(seed, candidates)?;
    let vacancies = stand.capacity.saturating_sub(occupants);
    let winners = order
        .iter()
        .take(usize::try_from(vacancies).unwrap_or(usize::MAX))
        .map(|(c, _)| *c)
        .collect();
    Ok(Draw {
        vacancies,
        order,
        winners,
        citations: vec![lottery],
    })
}

#[derive(Debug, Clone, PartialEq)]
pub struct Swap<'r> {
    pub allowed: bool,
    pub reasons: Vec<String>,
    /// What each of the two holders pays (the `[[fees]]` of the event
    /// `stand_swap`), when the law sets a fee.
    pub fee_each: Option<&'r Amount>,
    pub citations: Vec<&'r str>,
}

/// Two holders swapping their fixed stands (`None`: the holder has none);
/// `consent`: the class entity agreed (unknown when not stated).
pub fn swap<'r>(
    ctx: &Context<'r>,
    a: Option<Stand<'_>>,
    b: Option<Stand<'_>>,
    consent: Option<bool>,
) -> Result<Swap<'r>, EngineError> {
    let rules = rules(ctx)?;
    let swap_consent = rules
        .swap_consent
        .as_ref()
        .ok_or_else(|| EngineError::NotInRulebook("a permuta de pontos entre titulares".into()))?;
    let mut reasons = Vec::new();
    let mut citations = vec![rules.citation.as_str()];
    match (a, b) {
        (Some(a), Some(b)) if a.name == b.name => {
            reasons.push(format!("both holders are at stand `{}`", a.name));
        }
        (Some(_), Some(_)) => {}
        _ => reasons.push("a swap is between two holders of fixed stands".into()),
    }
    match consent {
        Some(true) => {}
        Some(false) => reasons.push("the class entity did not consent".into()),
        None => reasons.push("the consent of the class entity is not recorded".into()),
    }
    citations.push(swap_consent);
    let fee = ctx
        .rulebook
        .fees
        .iter()
        .find(|f| f.event == Some(FeeEvent::StandSwap));
    if let Some(fee) = fee {
        citations.push(&fee.amount.citation);
    }
    Ok(Swap {
        allowed: reasons.is_empty(),
        reasons,
        fee_each: fee.map(|f| &f.amount.value),
        citations,
    })
}

/// Who moves a permit to another fixed stand, and what was done first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// The authority of its own motion: `grounded`, its grounds written;
    /// `notified`, the day the holder was notified of the move (none: not
    /// notified).
    ByAuthority {
        grounded: bool,
        notified: Option<NaiveDate>,
    },
    /// The holder asked for it: `protocol`, the request filed by protocol;
    /// `feasibility_study`, the authority's study done and favourable.
    AskedByHolder {
        protocol: bool,
        feasibility_study: bool,
    },
}

/// Whether a permit may be moved to another fixed stand on a day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Relocation<'r> {
    pub allowed: bool,
    /// Why not, in Portuguese, each with its article.
    pub reasons: Vec<String>,
    /// The last day of the holder's answer to the notice, where the law
    /// requires one and the holder was notified.
    pub answer_until: Option<NaiveDate>,
    /// The first day the move may be made, once the answer's time ended.
    pub first_day: Option<NaiveDate>,
    pub citations: Vec<&'r str>,
}

/// Whether a permit may be moved to another fixed stand `on` a day, as
/// `how` says it is moved: the authority with its grounds — after the
/// holder's notice and the time to answer it, where the law requires them
/// (SMJ art. 28, § 1º) —, or the holder's request where the law provides
/// one (TO art. 26, parágrafo único: by protocol, after a feasibility
/// study). A request the law does not provide is not in the rulebook.
pub fn relocation<'r>(
    ctx: &Context<'r>,
    how: Move,
    on: NaiveDate,
) -> Result<Relocation<'r>, EngineError> {
    let rules = rules(ctx)?;
    let mut reasons = Vec::new();
    let mut citations = Vec::new();
    let (mut answer_until, mut first_day) = (None, None);
    match how {
        Move::ByAuthority { grounded, notified } => {
            citations.push(rules.relocation.as_str());
            if !grounded {
                reasons.push(format!(
                    "o remanejamento de ofício é motivado ({}): faltam os fundamentos",
                    rules.relocation
                ));
            }
            if let Some(notice) = &rules.relocation_notice {
                if !citations.contains(&notice.as_str()) {
                    citations.push(notice);
                }
                match notified {
                    None => reasons.push(format!(
                        "o remanejamento é precedido de notificação do titular, que tem prazo \
                         para responder ({notice}): registre a notificação antes"
                    )),
                    Some(day) if day > on => reasons.push(format!(
                        "a notificação de {} é posterior ao dia do remanejamento ({notice})",
                        day.format("%d/%m/%Y")
                    )),
                    Some(day) => {
                        let limit = deadline(ctx, DeadlineKind::StandRelocationResponse, day)?;
                        for cited in limit.citations {
                            if !citations.contains(&cited) {
                                citations.push(cited);
                            }
                        }
                        let after = limit.due.succ_opt().ok_or(EngineError::TooLarge)?;
                        if on <= limit.due {
                            reasons.push(format!(
                                "o prazo de resposta do titular à notificação de {} termina em \
                                 {} ({notice}): o remanejamento só pode ser feito a partir de {}",
                                day.format("%d/%m/%Y"),
                                limit.due.format("%d/%m/%Y"),
                                after.format("%d/%m/%Y")
                            ));
                        }
                        answer_until = Some(limit.due);
                        first_day = Some(after);
                    }
                }
            }
        }
        Move::AskedByHolder {
            protocol,
            feasibility_study,
        } => {
            let request = rules.holder_request.as_ref().ok_or_else(|| {
                EngineError::NotInRulebook("o remanejamento de ponto a pedido do titular".into())
            })?;
            citations.push(request.as_str());
            if !protocol {
                reasons.push(format!(
                    "o pedido do titular é formalizado por protocolo ({request}): falta o protocolo"
                ));
            }
            if !feasibility_study {
                reasons.push(format!(
                    "o remanejamento pedido só é autorizado após estudo de viabilidade ({request}): \
                     falta o estudo"
                ));
            }
        }
    }
    Ok(Relocation {
        allowed: reasons.is_empty(),
        reasons,
        answer_until,
        first_day,
        citations,
    })
}

/// The article of a free stand: an event's provisional one, or one open to
/// every taxi of the town.
fn free_article(rules: &StandRules, event: bool) -> Option<&str> {
    let event = if event {
        rules.event_stands.as_deref()
    } else {
        None
    };
    event
        .or(rules.free_stands.as_deref())
        .or(rules.common_use.as_deref())
}

/// Which taxi is at a stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Taxi<'a> {
    /// A taxi of the town, with its fixed stand (none: it has none).
    Local(Option<&'a str>),
    /// A taxi licensed by another town.
    OtherTown,
}

/// Why a taxi is at a stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// To let passengers out.
    Dropoff,
    /// To wait for passengers.
    Wait,
}

/// Whether `taxi` may use `at` (`event`: a provisional stand of an event)
/// for `purpose`: to let passengers out where
/// the law allows it anywhere; to wait at a free stand, its own fixed
/// stand, or another where the law makes every stand common to all; a taxi
/// of another town not at the fixed stands (SMJ art. 29) nor at those open
/// only to the town's registered taxis. A question the law does not answer
/// is not in the rulebook.
pub fn stand_use<'r>(
    ctx: &Context<'r>,
    taxi: Taxi<'_>,
    (at, event): (Stand<'_>, bool),
    purpose: Purpose,
) -> Result<(bool, Vec<&'r str>), EngineError> {
    let rules = rules(ctx)?;
    let silent = |what: &str| Err(EngineError::NotInRulebook(what.to_string()));
    let own = match taxi {
        Taxi::OtherTown => {
            let Some(other_towns) = rules.other_towns.as_deref() else {
                return silent("o uso dos pontos por táxis de outros municípios");
            };
            return match (at.free, event, rules.free_stands.as_deref()) {
                (false, _, _) => Ok((false, vec![other_towns])),
                (true, false, Some(free)) if purpose == Purpose::Wait => Ok((false, vec![free])),
                _ => silent("o uso dos pontos livres e provisórios por táxis de outros municípios"),
            };
        }
        Taxi::Local(own) => own,
    };
    if purpose == Purpose::Dropoff {
        return match rules.dropoff_anywhere.as_deref() {
            Some(anywhere) => Ok((true, vec![anywhere])),
            None => silent("o desembarque de passageiros nos pontos"),
        };
    }
    if at.free {
        return match free_article(rules, event) {
            Some(article) => Ok((true, vec![article])),
            None => silent("pontos livres"),
        };
    }
    if own == Some(at.name) {
        return Ok((true, vec![rules.own_stand.as_str()]));
    }
    match (rules.other_stands.as_deref(), rules.common_use.as_deref()) {
        (Some(forbidden), _) => Ok((false, vec![forbidden])),
        (None, Some(common)) => Ok((true, vec![common])),
        (None, None) => silent("a espera de passageiros em ponto fixo alheio"),
    }
}
