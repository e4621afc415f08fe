//! What the law attaches to one infraction, given the offender's record.

use crate::context::{Context, EngineError, exact};
use crate::engine::points::{PointsAdded, event_points, record, threshold_sanctions};
use crate::engine::sanctions::{
    Citations, Occasion, Parties, Sanction, add_process, all_citations, instantiate, push_merged,
};
use crate::facts::{Event, Facts, PersonId, RecordEntry, day_of, day_start, instant};
use crate::model::{CountBy, CountRule, Incidence, Liability, Party, Period, Role, Scale};
use rust_decimal::Decimal;
use smallvec::SmallVec;

#[derive(Debug, Clone, PartialEq)]
pub struct Penalty<'r> {
    pub sanctions: Vec<Sanction<'r>>,
    /// Points this infraction adds to each record.
    pub points: PointsAdded,
    /// The articles the points rest on.
    pub point_citations: Citations<'r>,
}

impl<'r> Penalty<'r> {
    /// Every article the decision rests on, in order, each once.
    pub fn citations(&self) -> Vec<&'r str> {
        all_citations(&self.sanctions, &self.point_citations)
    }
}

/// Decides the penalty for `offence` (its `is_final` is ignored). Only final
/// infractions of `facts.history` dated before it count as priors.
pub fn penalty<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    offence: &Event,
) -> Result<Penalty<'r>, EngineError> {
    let rulebook = ctx.rulebook;
    let infraction = rulebook.infraction(offence.infraction);
    let permit = facts.permit_for(rulebook, offence);
    let holder = permit.map_or(offence.by, |permit| facts.permit(permit).holder);
    // Without a permit, the offender answers alone, as the holder they are or
    // the driver they are not yet.
    let role = match permit {
        Some(_) if holder == offence.by => Role::Holder,
        Some(_) => Role::Auxiliary,
        None if facts.holds_a_permit(offence.by) => Role::Holder,
        None => Role::Auxiliary,
    };
    let parties = Parties {
        offender: offence.by,
        holder,
        role,
        payer: payer(&rulebook.liability, offence.by, holder),
    };
    let mut sanctions = Vec::with_capacity(8);
    // Rules that count priors the same way share one count.
    let mut counted: SmallVec<[(&CountRule, u32); 4]> = SmallVec::new();
    for rule in &rulebook.sanction_rules {
        if !rule
            .applies_to
            .selects(offence.infraction, infraction.group)
        {
            continue;
        }
        let count = rule.count.as_ref().unwrap_or(&rulebook.repeat);
        let incidence = if rule.incidence == Incidence::Any {
            1
        } else if let Some((_, n)) = counted.iter().find(|(c, _)| std::ptr::eq(*c, count)) {
            *n
        } else {
            let n = incidence(ctx, facts, offence, count)?;
            counted.push((count, n));
            n
        };
        if !rule.incidence.matches(incidence) {
            continue;
        }
        for spec in &rule.sanctions {
            let (multiplier, scale_citation) = match &spec.scale {
                Scale::None => (Decimal::ONE, None),
                Scale::Chain {
                    window,
                    factor,
                    citation,
                } => {
                    let links = chain_length(ctx, facts, offence, window)?;
                    let mut multiplier = Decimal::ONE;
                    for _ in 0..links {
                        multiplier = exact(multiplier.checked_mul(*factor))?;
                    }
                    (multiplier, (links > 0).then_some(citation.as_str()))
                }
            };
            let occasion = Occasion {
                on: offence.date(),
                group: infraction.group,
                multiplier,
            };
            if let Some(mut sanction) = instantiate(ctx, spec, &rule.citation, &parties, &occasion)?
            {
                if incidence > 1 {
                    sanction.cite(&count.citation);
                }
                if let Some(citation) = scale_citation {
                    sanction.cite(citation);
                }
                if sanction.payer.is_some_and(|payer| payer != offence.by) {
                    sanction.cite(&rulebook.liability.citation);
                }
                push_merged(&mut sanctions, sanction);
            }
        }
    }

    let (points, point_citations) = event_points(ctx, facts, offence);
    if !rulebook.thresholds.is_empty() {
        let others = (holder != offence.by).then_some((holder, Role::Holder));
        for (person, person_role) in std::iter::once((offence.by, role)).chain(others) {
            let added: Decimal = points
                .iter()
                .filter(|(p, _)| *p == person)
                .map(|(_, v)| *v)
                .sum();
            let mut totals = record(facts, person, offence.date(), Some(offence.at));
            for (_, total) in &mut totals {
                *total += added;
            }
            threshold_sanctions(
                ctx,
                (person, person_role),
                offence.date(),
                &totals,
                &mut sanctions,
            )?;
        }
    }
    add_process(ctx, &mut sanctions);
    Ok(Penalty {
        sanctions,
        points,
        point_citations,
    })
}

fn payer(liability: &Liability, offender: PersonId, holder: PersonId) -> PersonId {
    match liability.fine_payer {
        Party::Offender => offender,
        Party::Holder => holder,
    }
}

/// The incidence of `offence` (1 = first) among the offender's final priors that
/// `count` matches within its window, which ends on the offence's date.
pub fn incidence(
    ctx: &Context<'_>,
    facts: &Facts,
    offence: &Event,
    count: &CountRule,
) -> Result<u32, EngineError> {
    let rulebook = ctx.rulebook;
    let start = ctx.window_start(&count.window, offence.date())?;
    let group = rulebook.infraction(offence.infraction).group;
    let record = facts.record(offence.by);
    let from = record.partition_point(|e| e.at < day_start(start));
    let until = instant(offence.at);
    let window = record[from..].iter().take_while(|e| e.at < until);
    let counts = |e: &&RecordEntry| e.own && e.is_final;
    let priors = match &count.by {
        CountBy::Code => window
            .filter(|e| counts(e) && e.infraction == offence.infraction)
            .count(),
        CountBy::Group => match group {
            Some(group) => window
                .filter(|e| counts(e) && e.group == Some(group))
                .count(),
            None => 0,
        },
        CountBy::Codes(codes) => window
            .filter(|e| counts(e) && codes.contains(&e.infraction))
            .count(),
    };
    Ok(u32::try_from(priors).unwrap_or(u32::MAX).saturating_add(1))
}

/// How many repeats of the same code lead up to `offence`, each one within
/// `window` of the one before it.
fn chain_length(
    ctx: &Context<'_>,
    facts: &Facts,
    offence: &Event,
    window: &Period,
) -> Result<u32, EngineError> {
    let mut links = 0;
    let mut current = offence.date();
    let until = instant(offence.at);
    let priors = facts
        .record(offence.by)
        .iter()
        .rev()
        .filter(|e| e.own && e.is_final && e.infraction == offence.infraction && e.at < until);
    for previous in priors {
        let previous = day_of(previous.at);
        if current > ctx.period_end(window, previous)? {
            break;
        }
        links += 1;
        current = previous;
    }
    Ok(links)
}
