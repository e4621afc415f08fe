//! What the law attaches to one infraction, given the offender's record.

use crate::context::{Context, EngineError, exact};
use crate::engine::points::{PointsAdded, event_points, record, threshold_sanctions};
use crate::engine::sanctions::{
    Citations, Occasion, Parties, Sanction, add_process, all_citations, instantiate, push_merged,
};
use crate::facts::{Event, Facts, PersonId};
use crate::model::{
    CountRule, Cure, Incidence, Liability, Party, Period, Role, SanctionKind, Scale,
};
use crate::record::{Outcome, count_of, day_of, day_start, incidence_in, instant};
use rust_decimal::Decimal;
use smallvec::SmallVec;

#[derive(Debug, Clone, PartialEq)]
pub struct Penalty<'r> {
    pub sanctions: Vec<Sanction<'r>>,
    /// Points this infraction adds to each record.
    pub points: PointsAdded,
    /// The articles the points rest on.
    pub point_citations: Citations<'r>,
    /// The article the infraction is defined in.
    pub infraction_citation: &'r str,
    /// What the deciding authority may decide instead (Teófilo Otoni
    /// art. 85), each option with its article.
    pub options: Vec<(Vec<Sanction<'r>>, &'r str)>,
    /// Per option: the infraction code the decision is recorded as, whose
    /// points it puts on the record (none: the infraction's own).
    pub record_as: Vec<Option<&'r str>>,
}

impl<'r> Penalty<'r> {
    /// Every article the decision rests on, in order, each once.
    pub fn citations(&self) -> Vec<&'r str> {
        let mut citations = vec![self.infraction_citation];
        for citation in all_citations(&self.sanctions, &self.point_citations) {
            if citation != self.infraction_citation {
                citations.push(citation);
            }
        }
        citations
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
        companies: (facts.is_company(offence.by), facts.is_company(holder)),
    };
    let mut sanctions = Vec::with_capacity(8);
    let (fine_factor, fine_factor_citation) = fined_incidences(ctx, facts, offence)?;
    // Rules that count priors the same way share one count.
    let mut counted: SmallVec<[(&CountRule, u32); 4]> = SmallVec::new();
    for rule in &rulebook.sanction_rules {
        if !rule
            .applies_to
            .selects(offence.infraction, infraction.group)
        {
            continue;
        }
        match (rule.cure, offence.uncured) {
            (Cure::Found, true) | (Cure::Uncured, false) => continue,
            _ => {}
        }
        let incidence = if rule.incidence == Incidence::Any {
            1
        } else {
            let count = count_of(rulebook, rule)?;
            if let Some((_, n)) = counted.iter().find(|(c, _)| std::ptr::eq(*c, count)) {
                *n
            } else {
                let n = incidence(ctx, facts, offence, count)?;
                counted.push((count, n));
                n
            }
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
                fine_factor,
            };
            if let Some(mut sanction) = instantiate(ctx, spec, &rule.citation, &parties, &occasion)?
            {
                if incidence > 1 {
                    sanction.cite(&count_of(rulebook, rule)?.citation);
                }
                if let Some(citation) = scale_citation {
                    sanction.cite(citation);
                }
                if sanction.amount.is_some()
                    && let Some(citation) = fine_factor_citation
                {
                    sanction.cite(citation);
                }
                if sanction.payer.is_some_and(|payer| payer != offence.by) {
                    sanction.cite(&rulebook.liability.citation);
                }
                push_merged(&mut sanctions, sanction);
            }
        }
    }

    let outcome = if sanctions.iter().any(|s| s.kind == SanctionKind::Fine) {
        Outcome::Fine
    } else if sanctions.iter().any(|s| s.kind == SanctionKind::Warning) {
        Outcome::Warning
    } else {
        Outcome::Nothing
    };
    let (points, point_citations) = event_points(ctx, facts, offence, outcome);
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
                facts,
                (person, person_role),
                offence.date(),
                &totals,
                &mut sanctions,
            )?;
        }
    }
    add_process(ctx, &mut sanctions);
    let (options, record_as) = options(ctx, &sanctions, &parties, offence, infraction.group)?;
    Ok(Penalty {
        sanctions,
        points,
        point_citations,
        infraction_citation: &infraction.citation,
        options,
        record_as,
    })
}

/// The options the procedure's choices give instead of `sanctions`, for
/// these parties, and the infraction code each is recorded as.
type Options<'r> = (Vec<(Vec<Sanction<'r>>, &'r str)>, Vec<Option<&'r str>>);

fn options<'r>(
    ctx: &Context<'r>,
    sanctions: &[Sanction<'r>],
    parties: &Parties,
    offence: &Event,
    group: Option<crate::model::GroupId>,
) -> Result<Options<'r>, EngineError> {
    let mut options = Vec::new();
    let mut record_as = Vec::new();
    let Some(procedure) = &ctx.rulebook.procedure else {
        return Ok((options, record_as));
    };
    let occasion = Occasion {
        on: offence.date(),
        group,
        multiplier: Decimal::ONE,
        fine_factor: Decimal::ONE,
    };
    for choice in &procedure.choices {
        if !sanctions
            .iter()
            .any(|s| choice.instead_of.contains(&s.kind))
        {
            continue;
        }
        for option in &choice.options {
            let mut set = Vec::with_capacity(option.sanctions.len());
            for spec in &option.sanctions {
                if let Some(mut sanction) =
                    instantiate(ctx, spec, &option.citation, parties, &occasion)?
                {
                    sanction.cite(&choice.citation);
                    set.push(sanction);
                }
            }
            options.push((set, choice.citation.as_str()));
            record_as.push(
                option
                    .record_as
                    .map(|id| ctx.rulebook.infraction(id).code.as_str()),
            );
        }
    }
    Ok((options, record_as))
}

/// The factor a fine is multiplied by: 1 + the offender's final priors of the
/// same code within the rulebook's window that led to a fine (with its
/// citation when it multiplies), or 1 without such a rule.
fn fined_incidences<'r>(
    ctx: &Context<'r>,
    facts: &Facts,
    offence: &Event,
) -> Result<(Decimal, Option<&'r str>), EngineError> {
    // Art. 91 speaks of the regulation's infractions: those of a group.
    let Some(rule) = &ctx.rulebook.fine_multiplier else {
        return Ok((Decimal::ONE, None));
    };
    if ctx.rulebook.infraction(offence.infraction).group.is_none() {
        return Ok((Decimal::ONE, None));
    }
    let start = day_start(ctx.window_start(&rule.window, offence.date())?);
    let until = instant(offence.at);
    let record = facts.record(offence.by);
    let from = record.partition_point(|e| e.at < start);
    let fined = record[from..]
        .iter()
        .take_while(|e| e.at < until)
        .filter(|e| {
            e.own && e.is_final && e.infraction == offence.infraction && e.outcome == Outcome::Fine
        })
        .count();
    let fined = u32::try_from(fined).unwrap_or(u32::MAX);
    Ok((
        Decimal::from(fined) + Decimal::ONE,
        (fined > 0).then_some(rule.citation.as_str()),
    ))
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
    incidence_in(
        ctx,
        facts.record(offence.by),
        offence.infraction,
        offence.at,
        count,
    )
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
