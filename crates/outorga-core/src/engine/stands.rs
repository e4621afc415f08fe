//! Fixed taxi stands: who may wait where, swaps between holders, and the
//! public lottery that fills a vacancy.

use crate::context::{Context, EngineError};
use crate::engine::draw;
use crate::model::{Amount, FeeEvent, StandRules};

/// A stand as the decree set it: its places, or a free stand (events) that
/// any taxi may use.
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
    if stand.free {
        return Err(EngineError::InvalidQuestion(format!(
            "o ponto `{}` é ponto livre ({}): não tem vagas a sortear",
            stand.name, rules.free_stands
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
        citations: vec![&rules.lottery],
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
    citations.push(&rules.swap_consent);
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

/// Why a taxi is at a stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// To let passengers out.
    Dropoff,
    /// To wait for passengers.
    Wait,
}

/// Whether a taxi whose fixed stand is `own` may use `at` for `purpose`.
pub fn stand_use<'r>(
    ctx: &Context<'r>,
    own: Option<&str>,
    at: Stand<'_>,
    purpose: Purpose,
) -> Result<(bool, Vec<&'r str>), EngineError> {
    let rules = rules(ctx)?;
    Ok(match purpose {
        Purpose::Dropoff => (true, vec![rules.dropoff_anywhere.as_str()]),
        Purpose::Wait if at.free => (true, vec![rules.free_stands.as_str()]),
        Purpose::Wait if own == Some(at.name) => (true, vec![rules.own_stand.as_str()]),
        Purpose::Wait => (false, vec![rules.other_stands.as_str()]),
    })
}
