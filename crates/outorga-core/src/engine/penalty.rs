//! What the law attaches to one infraction, given the offender's record.

use crate::context::{Context, EngineError};
use crate::engine::points::{event_points, record, threshold_sanctions};
use crate::engine::sanctions::{
    Occasion, Parties, Sanction, add_process, all_citations, instantiate, push_merged,
};
use crate::facts::{Event, Facts, PersonId};
use crate::model::{CountBy, CountRule, Incidence, Liability, Party, Period, Role, Scale};
use rust_decimal::Decimal;

#[derive(Debug, Clone, PartialEq)]
pub struct Penalty<'r> {
    pub sanctions: Vec<Sanction<'r>>,
    /// Points this infraction adds to each record.
    pub points: Vec<(PersonId, Decimal)>,
    pub citations: Vec<&'r str>,
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
    let holder = offence
        .permit
        .map_or(offence.by, |permit| facts.permit(permit).holder);
    let role = if holder == offence.by {
        Role::Holder
    } else {
        Role::Auxiliary
    };
    let parties = Parties {
        offender: offence.by,
        holder,
        role,
        payer: payer(&rulebook.liability, offence.by, holder),
    };
    let mut sanctions = Vec::new();
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
        } else {
            incidence(ctx, facts, offence, count)?
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
                    let multiplier = (0..links).fold(Decimal::ONE, |acc, _| acc * factor);
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
                    sanction.citations.push(&count.citation);
                }
                sanction.citations.extend(scale_citation);
                if sanction.payer.is_some_and(|payer| payer != offence.by) {
                    sanction.citations.push(&rulebook.liability.citation);
                }
                push_merged(&mut sanctions, sanction);
            }
        }
    }

    let (points, point_citations) = event_points(ctx, facts, offence);
    if !rulebook.thresholds.is_empty() {
        let mut people = vec![(offence.by, role)];
        if holder != offence.by {
            people.push((holder, Role::Holder));
        }
        for (person, person_role) in people {
            let added: Decimal = points
                .iter()
                .filter(|(p, _)| *p == person)
                .map(|(_, v)| *v)
                .sum();
            let mut totals = record(ctx, facts, person, offence.date(), Some(offence.at));
            for (_, total) in &mut totals {
                *total += added;
            }
            for sanction in
                threshold_sanctions(ctx, (person, person_role), offence.date(), &totals)?
            {
                push_merged(&mut sanctions, sanction);
            }
        }
    }
    add_process(ctx, &mut sanctions);
    let citations = all_citations(&sanctions, &point_citations);
    Ok(Penalty {
        sanctions,
        points,
        citations,
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
    let matches = |event: &Event| match &count.by {
        CountBy::Code => event.infraction == offence.infraction,
        CountBy::Group => group.is_some() && rulebook.infraction(event.infraction).group == group,
        CountBy::Codes(codes) => codes.contains(&event.infraction),
    };
    let priors = facts
        .events_of(offence.by)
        .filter(|e| {
            e.is_final && e.by == offence.by && e.at < offence.at && e.date() >= start && matches(e)
        })
        .count();
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
    let priors = facts.events_of(offence.by).rev().filter(|e| {
        e.is_final && e.by == offence.by && e.infraction == offence.infraction && e.at < offence.at
    });
    for previous in priors {
        if current > ctx.period_end(window, previous.date())? {
            break;
        }
        links += 1;
        current = previous.date();
    }
    Ok(links)
}
