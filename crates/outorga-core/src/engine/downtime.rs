//! A vehicle off the road: how many days count, and what they amount to.

use crate::context::{Context, EngineError};
use chrono::{Datelike, NaiveDate};
use std::collections::BTreeMap;

/// A period the holder proved an excuse for (`reason` is a key of the
/// rulebook's excuses), both days included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excused {
    pub reason: String,
    pub from: NaiveDate,
    pub to: NaiveDate,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DowntimeAnswer<'r> {
    /// Days off the road that count: all of them less the excused ones.
    pub days: u32,
    /// The infraction those days make, if any (its code).
    pub infraction: Option<&'r str>,
    /// The holder loses the fixed stand he was assigned.
    pub loses_stand: bool,
    pub citations: Vec<&'r str>,
}

/// The longest stretch the engine counts day by day (a century).
const MAX_DAYS: i64 = 36_600;

/// The vehicle was off the road from `from` to `to`, both days included; the
/// days of each excuse within that time do not count (a day excused twice
/// counts once, and an excuse with a yearly limit excuses at most that many
/// days in each civil year).
pub fn downtime<'r>(
    ctx: &Context<'r>,
    from: NaiveDate,
    to: NaiveDate,
    excused: &[Excused],
) -> Result<DowntimeAnswer<'r>, EngineError> {
    let rule = ctx
        .rulebook
        .downtime
        .as_ref()
        .ok_or_else(|| EngineError::NotInRulebook("regras de veículo parado".into()))?;
    if to < from {
        return Err(EngineError::InvalidQuestion(format!(
            "o veículo não pode voltar ({to}) antes de parar ({from}): confira as datas"
        )));
    }
    let total = (to - from).num_days() + 1;
    if total > MAX_DAYS {
        return Err(EngineError::TooLarge);
    }
    let mut citations = vec![rule.citation.as_str()];
    let mut off = vec![true; usize::try_from(total).map_err(|_| EngineError::TooLarge)?];
    // Days excused so far, per excuse and civil year: a yearly limit holds
    // across all the periods of the same excuse.
    let mut taken: BTreeMap<(&str, i32), u32> = BTreeMap::new();
    for e in excused {
        let excuse = rule
            .excuses
            .iter()
            .find(|x| x.key == e.reason)
            .ok_or_else(|| {
                EngineError::InvalidQuestion(format!(
                    "`{}` não é justificativa que a lei admita (justificativas: {})",
                    e.reason,
                    rule.excuses
                        .iter()
                        .map(|x| x.key.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?;
        if e.to < e.from {
            return Err(EngineError::InvalidQuestion(format!(
                "a justificativa `{}` termina ({}) antes de começar ({}): confira as datas",
                e.reason, e.to, e.from
            )));
        }
        let mut used = false;
        for (i, day) in from.iter_days().take(off.len()).enumerate() {
            if day < e.from || day > e.to || !off[i] {
                continue;
            }
            if let Some(max) = &excuse.max_days_per_year {
                let max = ctx.whole(max, day, "dias")?;
                let so_far = taken.entry((excuse.key.as_str(), day.year())).or_default();
                if *so_far >= max {
                    continue;
                }
                *so_far += 1;
            }
            off[i] = false;
            used = true;
        }
        if used && !citations.contains(&excuse.citation.as_str()) {
            citations.push(&excuse.citation);
        }
    }
    let days =
        u32::try_from(off.iter().filter(|&&d| d).count()).map_err(|_| EngineError::TooLarge)?;
    let mut answer = DowntimeAnswer {
        days,
        infraction: None,
        loses_stand: false,
        citations,
    };
    let mut band_found = None;
    for band in &rule.bands {
        if days >= ctx.whole(&band.from_day, to, "dias")? {
            band_found = Some(band);
        }
    }
    match band_found {
        Some(band) => {
            answer.infraction = Some(&ctx.rulebook.infraction(band.infraction).code);
            answer.loses_stand = band.loses_stand;
            answer.citations.push(&band.citation);
        }
        None => answer.citations.push(&rule.free_citation),
    }
    Ok(answer)
}
