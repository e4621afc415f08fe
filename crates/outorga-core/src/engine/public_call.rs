//! A public call for new permits — the chamamento público of a
//! credenciamento (SMJ art. 2º, 6º) or a licitação (Canguçu art. 37; TO
//! art. 1º) judged by the edital's criteria: who is eligible, each one's
//! points, the ties a public draw breaks, the ranking, and the places given —
//! the reserved shares first, then open competition — with the waiting
//! list and the time to appeal.
//!
//! The rulebook says what the law says (`[public_call]`); the edital's own
//! criteria, documents and places are the call's data, each with its item.
//! A call judged by proposals (Amapá art. 11) is not ranked here.

use crate::context::{Context, EngineError, exact};
use crate::engine::assessment::Finding;
use crate::engine::cap::Occupancy;
use crate::engine::deadline::{self, Deadline};
use crate::engine::eligibility::{self, Request};
use crate::facts::{Facts, PersonId};
use crate::model::{
    Applicant, CallRanking, CallShare, Check, DeadlineKind, Judgement, PublicCall, Quota, Service,
};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A criterion of the edital: so many points per unit shown (a year of
/// driving, a course), up to a maximum; the edital's item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Criterion<'a> {
    pub key: &'a str,
    pub description: &'a str,
    pub points_per_unit: Decimal,
    pub max: Option<Decimal>,
    pub citation: &'a str,
}

/// A document the edital asks of every applicant, with its item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Document<'a> {
    pub name: &'a str,
    pub citation: &'a str,
}

/// What the edital of a call sets (SMJ art. 6º, § 2º; art. 8º): its
/// criteria, the criteria that break a tie on the total before the draw
/// (in order, the most points first), and the documents it asks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Edital<'a> {
    pub criteria: Vec<Criterion<'a>>,
    pub tie_breaks: Vec<&'a str>,
    pub documents: Vec<Document<'a>>,
}

/// A claim to a reserved share: its key and the conditions proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim<'a> {
    pub share: &'a str,
    pub proved: Vec<&'a str>,
}

/// One application: the name it is published under (one line of the
/// draw's list), the person, the quantity shown for each criterion (none:
/// zero), the edital's documents presented and the share claimed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Application<'a> {
    pub name: &'a str,
    pub person: PersonId,
    pub quantities: Vec<(&'a str, Decimal)>,
    pub documents: Vec<&'a str>,
    pub claim: Option<Claim<'a>>,
}

/// A criterion's points for one applicant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Points<'a> {
    pub criterion: &'a str,
    pub quantity: Decimal,
    pub points: Decimal,
}

/// Whether a claim to a share is admitted: the conditions not proved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimOutcome<'a> {
    pub share: &'a str,
    pub admitted: bool,
    pub missing: Vec<Finding<'a>>,
}

/// An applicant screened: eligible when every requirement of the law is
/// met and shown and every document of the edital presented; the score
/// with its breakdown; the claim to a share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screened<'a> {
    pub name: &'a str,
    pub person: PersonId,
    pub eligible: bool,
    /// The law's requirements not met.
    pub unmet: Vec<Finding<'a>>,
    /// The requirements not shown (the proof is the applicant's) and the
    /// edital's documents not presented.
    pub not_shown: Vec<Finding<'a>>,
    pub score: Decimal,
    pub points: Vec<Points<'a>>,
    pub claim: Option<ClaimOutcome<'a>>,
}

/// The applicants of a call, screened, in the order they applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screening<'a> {
    pub service: Service,
    pub applicants: Vec<Screened<'a>>,
    /// The edital's tie-break criteria, in order (a screening kept in a
    /// record is rebuilt with them).
    pub tie_breaks: Vec<&'a str>,
    pub citations: Vec<&'a str>,
}

/// The eligible applicants tied on the edital's criteria: each group (two
/// or more), best first, and every tied applicant in one list — the
/// participants of the one public draw that breaks them all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ties<'a> {
    pub groups: Vec<Vec<&'a str>>,
    pub participants: Vec<&'a str>,
    pub citations: Vec<&'a str>,
}

/// An eligible applicant's place in the ranking (1 the first) and, when
/// tied, their place in the draw (1 the first drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranked<'a> {
    pub position: usize,
    pub name: &'a str,
    pub person: PersonId,
    pub score: Decimal,
    pub drawn: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ranking<'a> {
    pub order: Vec<Ranked<'a>>,
    pub citations: Vec<&'a str>,
}

/// The places a call offers: in open competition, and per reserved share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Places<'a> {
    pub open: u64,
    pub reserved: Vec<(&'a str, u64)>,
    pub citations: Vec<&'a str>,
}

/// The kind of place a grant fills: a reserved share's, open competition's,
/// or a share's place released to open competition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place<'a> {
    Reserved(&'a str),
    Open,
    Released(&'a str),
}

/// A place given: to whom (with their ranking position), which kind, the
/// service of the permit, and the articles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant<'a> {
    pub position: usize,
    pub name: &'a str,
    pub person: PersonId,
    pub place: Place<'a>,
    pub service: Service,
    pub citations: Vec<&'a str>,
}

/// Places of a share left unfilled: released to open competition, or
/// vacant where the law does not release them; the article.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unfilled<'a> {
    pub share: &'a str,
    pub places: u64,
    pub citation: &'a str,
}

/// The provisional result of a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allocation<'a> {
    /// The reserved places first, share by share, then the open ones.
    pub grants: Vec<Grant<'a>>,
    pub released: Vec<Unfilled<'a>>,
    pub vacant: Vec<Unfilled<'a>>,
    /// Open places no eligible applicant was left to fill.
    pub open_vacant: u64,
    /// The eligible not placed, in ranking order.
    pub waiting: Vec<Ranked<'a>>,
    pub ineligible: Vec<Screened<'a>>,
    /// The last day to appeal against it, from its publication.
    pub appeal: Deadline<'a>,
    pub citations: Vec<&'a str>,
}

fn refuse<T>(message: String) -> Result<T, EngineError> {
    Err(EngineError::InvalidQuestion(message))
}

/// The law's call, judged by the edital's criteria; a call judged by
/// proposals is refused, naming its article.
fn rules<'a>(ctx: &Context<'a>) -> Result<(&'a PublicCall, &'a CallRanking), EngineError> {
    let call = ctx.rulebook.public_call.as_ref().ok_or_else(|| {
        EngineError::NotInRulebook("o chamamento público ou a licitação de novas permissões".into())
    })?;
    match &call.judgement {
        Judgement::Criteria(ranking) => Ok((call, ranking)),
        Judgement::Bid(article) => refuse(format!(
            "a {} deste regulamento é julgada por propostas ({article}): o motor não classifica propostas, a classificação é a da comissão de licitação",
            call.procedure.portuguese()
        )),
    }
}

fn share<'a>(ranking: &'a CallRanking, key: &str) -> Result<&'a CallShare, EngineError> {
    ranking.shares.iter().find(|s| s.share == key).map_or_else(
        || {
            refuse(format!(
                "`{}` não é reserva de vagas do chamamento (reservas: {})",
                Quota::portuguese(key),
                ranking
                    .shares
                    .iter()
                    .map(|s| Quota::portuguese(&s.share))
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        },
        Ok,
    )
}

/// The cap's share `key` (its percentage, service and release).
fn quota<'a>(ctx: &Context<'a>, key: &str) -> Option<&'a Quota> {
    ctx.rulebook
        .caps
        .iter()
        .flat_map(|c| &c.reserved)
        .find(|q| q.key == key)
}

fn blank(text: &str) -> bool {
    text.trim().is_empty()
}

fn check_edital(edital: &Edital<'_>) -> Result<(), EngineError> {
    for (i, c) in edital.criteria.iter().enumerate() {
        if blank(c.key) || blank(c.description) || blank(c.citation) {
            return refuse(format!(
                "o critério {} do edital precisa de chave, descrição e item do edital",
                i + 1
            ));
        }
        if edital.criteria[..i].iter().any(|o| o.key == c.key) {
            return refuse(format!("o critério `{}` está no edital duas vezes", c.key));
        }
        if c.points_per_unit.is_sign_negative() || c.max.is_some_and(|m| m.is_sign_negative()) {
            return refuse(format!(
                "o critério `{}`: pontos por unidade e máximo não podem ser negativos",
                c.key
            ));
        }
    }
    for (i, key) in edital.tie_breaks.iter().enumerate() {
        if !edital.criteria.iter().any(|c| c.key == *key) {
            return refuse(format!(
                "o desempate pelo critério `{key}`: não é critério do edital"
            ));
        }
        if edital.tie_breaks[..i].contains(key) {
            return refuse(format!("o critério `{key}` está duas vezes no desempate"));
        }
    }
    for (i, d) in edital.documents.iter().enumerate() {
        if blank(d.name) || blank(d.citation) {
            return refuse(format!(
                "o documento {} do edital precisa de nome e item do edital",
                i + 1
            ));
        }
        if edital.documents[..i].iter().any(|o| o.name == d.name) {
            return refuse(format!(
                "o documento `{}` está no edital duas vezes",
                d.name
            ));
        }
    }
    Ok(())
}

/// Each criterion's points for `application`: the quantity shown times the
/// points per unit, up to the maximum; and their sum.
fn score<'a>(
    edital: &Edital<'a>,
    application: &Application<'a>,
) -> Result<(Decimal, Vec<Points<'a>>), EngineError> {
    for (i, (key, quantity)) in application.quantities.iter().enumerate() {
        if !edital.criteria.iter().any(|c| c.key == *key) {
            return refuse(format!(
                "`{}`: `{key}` não é critério do edital",
                application.name
            ));
        }
        if application.quantities[..i].iter().any(|(k, _)| k == key) {
            return refuse(format!(
                "`{}`: o critério `{key}` foi informado duas vezes",
                application.name
            ));
        }
        if quantity.is_sign_negative() {
            return refuse(format!(
                "`{}`: a quantidade do critério `{key}` não pode ser negativa",
                application.name
            ));
        }
    }
    let mut total = Decimal::ZERO;
    let mut points = Vec::with_capacity(edital.criteria.len());
    for criterion in &edital.criteria {
        let quantity = application
            .quantities
            .iter()
            .find(|(k, _)| *k == criterion.key)
            .map_or(Decimal::ZERO, |(_, q)| *q);
        let mut earned = exact(quantity.checked_mul(criterion.points_per_unit))?;
        if let Some(max) = criterion.max {
            earned = earned.min(max);
        }
        total = exact(total.checked_add(earned))?;
        points.push(Points {
            criterion: criterion.key,
            quantity,
            points: earned,
        });
    }
    Ok((total, points))
}

/// Whether the claim is admitted: every condition of its share proved.
fn claim<'a>(
    ranking: &'a CallRanking,
    application: &Application<'a>,
) -> Result<Option<ClaimOutcome<'a>>, EngineError> {
    let Some(claim) = &application.claim else {
        return Ok(None);
    };
    let share = share(ranking, claim.share)?;
    if let Some(unknown) = claim
        .proved
        .iter()
        .find(|p| !share.conditions.iter().any(|c| c.key == **p))
    {
        return refuse(format!(
            "`{}`: `{unknown}` não é condição da reserva `{}` (condições: {})",
            application.name,
            Quota::portuguese(claim.share),
            share
                .conditions
                .iter()
                .map(|c| c.key.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let missing: Vec<Finding<'a>> = share
        .conditions
        .iter()
        .filter(|c| !claim.proved.contains(&c.key.as_str()))
        .map(|c| Finding {
            requirement: &c.key,
            description: &c.description,
            citations: vec![&c.citation],
        })
        .collect();
    Ok(Some(ClaimOutcome {
        share: &share.share,
        admitted: missing.is_empty(),
        missing,
    }))
}

/// Screens the applications to a call for permits of `service` on `on`:
/// each applicant against the law's requirements for a holder (a person
/// who already holds a permit is refused by the rule of one per person:
/// SMJ art. 2º, § 2º; TO art. 9º) and the edital's documents, with their
/// points and their claim to a share. A requirement the facts do not show
/// excludes as one unmet does: the proof is the applicant's.
pub fn screen<'a>(
    ctx: &Context<'a>,
    facts: &Facts,
    service: Service,
    edital: &Edital<'a>,
    applications: &[Application<'a>],
    on: NaiveDate,
) -> Result<Screening<'a>, EngineError> {
    let (call, ranking) = rules(ctx)?;
    check_edital(edital)?;
    let names: Vec<&str> = applications.iter().map(|a| a.name).collect();
    if !names.is_empty() {
        crate::engine::draw::check_participants(&names)?;
    }
    for (i, a) in applications.iter().enumerate() {
        // A company may apply for several places (TO art. 9º: 2 to 10
        // permits); a natural person, once.
        if facts.is_company(a.person) {
            continue;
        }
        if let Some(other) = applications[..i].iter().find(|o| o.person == a.person) {
            let rule = ctx
                .rulebook
                .requirements
                .iter()
                .find(|r| matches!(r.check, Check::NoOtherPermit))
                .map_or(String::new(), |r| format!(" ({})", r.citation));
            return refuse(format!(
                "`{}` e `{}` são a mesma pessoa: cada interessado se inscreve uma vez{rule}",
                other.name, a.name
            ));
        }
    }
    let request = Request {
        applicant: Applicant::Holder,
        under: None,
        line: None,
    };
    let mut citations: Vec<&'a str> = vec![&call.citation, &ranking.citation, &ranking.proof];
    let mut applicants = Vec::with_capacity(applications.len());
    for application in applications {
        let assessment =
            eligibility::eligibility(ctx, facts, application.person, request, service, on)?;
        for c in &assessment.citations {
            if !citations.contains(c) {
                citations.push(c);
            }
        }
        let mut not_shown: Vec<Finding<'a>> = assessment
            .unknown
            .into_iter()
            .map(|mut f| {
                f.citations.push(&ranking.proof);
                f
            })
            .collect();
        for name in &application.documents {
            if !edital.documents.iter().any(|d| d.name == *name) {
                return refuse(format!(
                    "`{}`: `{name}` não é documento do edital",
                    application.name
                ));
            }
        }
        not_shown.extend(
            edital
                .documents
                .iter()
                .filter(|d| !application.documents.contains(&d.name))
                .map(|d| Finding {
                    requirement: d.name,
                    description: d.name,
                    citations: vec![d.citation],
                }),
        );
        let (score, points) = score(edital, application)?;
        applicants.push(Screened {
            name: application.name,
            person: application.person,
            eligible: assessment.unmet.is_empty() && not_shown.is_empty(),
            unmet: assessment.unmet,
            not_shown,
            score,
            points,
            claim: claim(ranking, application)?,
        });
    }
    Ok(Screening {
        service,
        applicants,
        tie_breaks: edital.tie_breaks.clone(),
        citations,
    })
}

/// What orders two eligible applicants before the draw: the total, then
/// each tie-break criterion's points.
fn standing(screening: &Screening<'_>, applicant: &Screened<'_>) -> Vec<Decimal> {
    std::iter::once(applicant.score)
        .chain(screening.tie_breaks.iter().map(|key| {
            applicant
                .points
                .iter()
                .find(|p| p.criterion == *key)
                .map_or(Decimal::ZERO, |p| p.points)
        }))
        .collect()
}

/// The eligible, best first, in runs of equal standing (in the order they
/// applied within a run).
fn runs<'s, 'a>(screening: &'s Screening<'a>) -> Vec<Vec<&'s Screened<'a>>> {
    let mut eligible: Vec<(Vec<Decimal>, &Screened<'a>)> = screening
        .applicants
        .iter()
        .filter(|a| a.eligible)
        .map(|a| (standing(screening, a), a))
        .collect();
    eligible.sort_by(|x, y| y.0.cmp(&x.0));
    let mut runs: Vec<(Vec<Decimal>, Vec<&Screened<'a>>)> = Vec::new();
    for (key, applicant) in eligible {
        match runs.last_mut() {
            Some((last, run)) if *last == key => run.push(applicant),
            _ => runs.push((key, vec![applicant])),
        }
    }
    runs.into_iter().map(|(_, run)| run).collect()
}

/// The ties among the eligible: the caller runs one public draw
/// (`engine::draw::order`) among `participants` and ranks with its order.
pub fn ties<'a>(ctx: &Context<'a>, screening: &Screening<'a>) -> Result<Ties<'a>, EngineError> {
    let (_, ranking) = rules(ctx)?;
    let groups: Vec<Vec<&'a str>> = runs(screening)
        .into_iter()
        .filter(|run| run.len() > 1)
        .map(|run| run.iter().map(|a| a.name).collect())
        .collect();
    Ok(Ties {
        participants: groups.iter().flatten().copied().collect(),
        citations: if groups.is_empty() {
            Vec::new()
        } else {
            vec![&ranking.tie_break.citation]
        },
        groups,
    })
}

/// The order of the tied to rank with, from the public draws held so far
/// (oldest first, each its order): each group of `ties` ordered by the
/// latest draw that had all of its members — a tie found after a draw
/// (an appeal granted changed a score) needs a draw of its own. Either
/// the order, or the members of the groups no draw covers (the
/// participants of the next draw, in the order they applied).
pub fn drawn_order<'a>(ties: &Ties<'a>, draws: &[Vec<&str>]) -> Result<Vec<&'a str>, Vec<&'a str>> {
    let mut drawn = Vec::new();
    let mut uncovered = Vec::new();
    for group in &ties.groups {
        match draws
            .iter()
            .rev()
            .find(|order| group.iter().all(|name| order.contains(name)))
        {
            Some(order) => {
                let mut members = group.clone();
                members.sort_by_key(|name| order.iter().position(|n| n == name));
                drawn.extend(members);
            }
            None => uncovered.extend(group.iter().copied()),
        }
    }
    if uncovered.is_empty() {
        Ok(drawn)
    } else {
        Err(uncovered)
    }
}

/// The ranking of the eligible: by points, then the edital's tie-break
/// criteria, then — within a tie — the order of the public draw among all
/// the tied (`drawn`, as `engine::draw::order` gave it; empty when no one
/// is tied). A tie without the draw is refused: never a silent order.
pub fn rank<'a>(
    ctx: &Context<'a>,
    screening: &Screening<'a>,
    drawn: &[&str],
) -> Result<Ranking<'a>, EngineError> {
    let (call, ranking) = rules(ctx)?;
    let runs = runs(screening);
    let tied: Vec<&str> = runs
        .iter()
        .filter(|run| run.len() > 1)
        .flatten()
        .map(|a| a.name)
        .collect();
    let article = &ranking.tie_break.citation;
    for (i, name) in drawn.iter().enumerate() {
        if drawn[..i].contains(name) {
            return refuse(format!("`{name}` está duas vezes na ordem do sorteio"));
        }
        if !tied.contains(name) {
            return refuse(format!(
                "`{name}` está na ordem do sorteio, mas não está empatado: o sorteio ({article}) é só entre os empatados ({})",
                if tied.is_empty() {
                    "não há empate".to_string()
                } else {
                    tied.join(", ")
                }
            ));
        }
    }
    let mut order = Vec::new();
    let mut citations: Vec<&'a str> = vec![&call.citation, &ranking.citation];
    for mut run in runs {
        if run.len() > 1 {
            let missing: Vec<&str> = run
                .iter()
                .map(|a| a.name)
                .filter(|n| !drawn.contains(n))
                .collect();
            if !missing.is_empty() {
                return refuse(format!(
                    "o empate com {} pontos entre {} precisa do sorteio público ({article}): sorteie entre todos os empatados ({}) e informe a ordem sorteada; falta{} {}",
                    run[0].score.normalize(),
                    run.iter().map(|a| a.name).collect::<Vec<_>>().join(", "),
                    tied.join(", "),
                    if missing.len() > 1 { "m" } else { "" },
                    missing.join(", ")
                ));
            }
            run.sort_by_key(|a| drawn.iter().position(|n| *n == a.name));
            if !citations.contains(&article.as_str()) {
                citations.push(article);
            }
        }
        let is_tie = run.len() > 1;
        for applicant in run {
            order.push(Ranked {
                position: order.len() + 1,
                name: applicant.name,
                person: applicant.person,
                score: applicant.score,
                drawn: is_tie
                    .then(|| drawn.iter().position(|n| *n == applicant.name))
                    .flatten()
                    .map(|p| p + 1),
            });
        }
    }
    Ok(Ranking { order, citations })
}

/// The places a call of `offered` places holds, from how the cap stands
/// (`cap::occupancy`): each reserved share's unfilled places first (up to
/// the places offered), the rest open. Refused when the cap has fewer free
/// places than offered.
pub fn call_places<'a>(occupancy: &Occupancy<'a>, offered: u64) -> Result<Places<'a>, EngineError> {
    let unfilled: Vec<(&'a str, u64)> = occupancy
        .shares
        .iter()
        .map(|s| (s.key, s.held.saturating_sub(s.filled)))
        .collect();
    let free = occupancy
        .open
        .saturating_sub(occupancy.open_filled)
        .saturating_add(unfilled.iter().map(|(_, n)| n).sum());
    if offered == 0 {
        return refuse("o chamamento precisa oferecer ao menos uma vaga".into());
    }
    if offered > free {
        return refuse(format!(
            "o edital oferece {offered} vagas, mas o limite de {} permissões tem {free} livres ({})",
            occupancy.max_permits,
            occupancy.citations.join("; ")
        ));
    }
    let mut left = offered;
    let mut reserved = Vec::with_capacity(unfilled.len());
    for (key, places) in unfilled {
        let taken = places.min(left);
        left -= taken;
        reserved.push((key, taken));
    }
    Ok(Places {
        open: left,
        reserved,
        citations: occupancy.citations.clone(),
    })
}

/// The provisional result of a call published on `published`: each
/// reserved share's places to its admitted claimants in ranking order;
/// its places left unfilled released to open competition where the law
/// releases them (SMJ art. 2º, § 6º) and vacant otherwise; the open places
/// in ranking order to everyone not yet placed, claimants included; the
/// waiting list, the ineligible and the last day to appeal.
pub fn allocate<'a>(
    ctx: &Context<'a>,
    screening: &Screening<'a>,
    ranking: &Ranking<'a>,
    places: &Places<'a>,
    published: NaiveDate,
) -> Result<Allocation<'a>, EngineError> {
    let (call, criteria) = rules(ctx)?;
    let screened = |name: &str| -> Result<&Screened<'a>, EngineError> {
        screening
            .applicants
            .iter()
            .find(|a| a.name == name && a.eligible)
            .map_or_else(
                || {
                    refuse(format!(
                        "`{name}` está na classificação, mas não entre os habilitados da triagem"
                    ))
                },
                Ok,
            )
    };
    let mut citations: Vec<&'a str> = ranking.citations.clone();
    citations.extend(call.see_also.iter().map(String::as_str));
    citations.extend(places.citations.iter().copied());
    let mut placed: Vec<&str> = Vec::new();
    let mut grants = Vec::new();
    let mut released = Vec::new();
    let mut vacant = Vec::new();
    for (i, (key, offered)) in places.reserved.iter().enumerate() {
        let share = share(criteria, key)?;
        if places.reserved[..i].iter().any(|(k, _)| k == key) {
            return refuse(format!(
                "a reserva `{}` está duas vezes nas vagas",
                Quota::portuguese(key)
            ));
        }
        let quota = quota(ctx, key).ok_or_else(|| {
            EngineError::NotInRulebook(format!("a reserva `{}` no limite", Quota::portuguese(key)))
        })?;
        let service = quota.service.unwrap_or(screening.service);
        let mut filled = 0;
        for ranked in &ranking.order {
            if filled == *offered {
                break;
            }
            let admitted = screened(ranked.name)?
                .claim
                .as_ref()
                .is_some_and(|c| c.share == share.share && c.admitted);
            if admitted {
                filled += 1;
                placed.push(ranked.name);
                grants.push(Grant {
                    position: ranked.position,
                    name: ranked.name,
                    person: ranked.person,
                    place: Place::Reserved(&share.share),
                    service,
                    citations: vec![&quota.citation, &call.citation],
                });
            }
        }
        citations.push(&quota.citation);
        let unfilled = offered - filled;
        if unfilled > 0 {
            match &quota.release {
                Some(release) => released.push(Unfilled {
                    share: &share.share,
                    places: unfilled,
                    citation: release,
                }),
                None => vacant.push(Unfilled {
                    share: &share.share,
                    places: unfilled,
                    citation: &quota.citation,
                }),
            }
        }
    }
    // The open places, then those released, in the order of the shares.
    let open = std::iter::repeat_n(Place::Open, usize::try_from(places.open).unwrap_or(0)).chain(
        released.iter().flat_map(|r| {
            std::iter::repeat_n(
                Place::Released(r.share),
                usize::try_from(r.places).unwrap_or(0),
            )
        }),
    );
    let mut waiting = ranking.order.iter().filter(|r| !placed.contains(&r.name));
    let mut open_vacant = 0;
    for place in open {
        let Some(ranked) = waiting.next() else {
            open_vacant += 1;
            continue;
        };
        let claim = screened(ranked.name)?.claim.as_ref();
        let service = claim
            .filter(|c| c.admitted)
            .and_then(|c| quota(ctx, c.share))
            .and_then(|q| q.service)
            .unwrap_or(screening.service);
        let mut cited: Vec<&'a str> = vec![&call.citation];
        if let Place::Released(key) = place
            && let Some(release) = released.iter().find(|r| r.share == key)
        {
            cited.insert(0, release.citation);
        }
        grants.push(Grant {
            position: ranked.position,
            name: ranked.name,
            person: ranked.person,
            place,
            service,
            citations: cited,
        });
    }
    for r in released.iter().chain(&vacant) {
        if !citations.contains(&r.citation) {
            citations.push(r.citation);
        }
    }
    let appeal = deadline::deadline(ctx, DeadlineKind::CallAppeal, published)?;
    citations.extend(appeal.citations.iter().copied());
    let mut unique: Vec<&'a str> = Vec::with_capacity(citations.len());
    for c in citations {
        if !unique.contains(&c) {
            unique.push(c);
        }
    }
    Ok(Allocation {
        grants,
        released,
        vacant,
        open_vacant,
        waiting: waiting.copied().collect(),
        ineligible: screening
            .applicants
            .iter()
            .filter(|a| !a.eligible)
            .cloned()
            .collect(),
        appeal,
        citations: unique,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cap::Share;

    /// A cap of 52 (SMJ's 41 636 inhabitants / 800): 6 reserved, 2 filled;
    /// 46 open, 40 filled.
    fn occupancy() -> Occupancy<'static> {
        Occupancy {
            max_permits: 52,
            shares: vec![Share {
                key: "disabled_drivers",
                held: 6,
                filled: 2,
            }],
            open: 46,
            open_filled: 40,
            citations: vec!["Art. 18, § 1º", "Art. 2º, § 4º"],
        }
    }

    #[test]
    fn a_calls_places_fill_the_shares_unfilled_places_first() {
        let places = call_places(&occupancy(), 10).expect("10 of 10 free");
        assert_eq!(places.reserved, vec![("disabled_drivers", 4)]);
        assert_eq!(places.open, 6);
        let places = call_places(&occupancy(), 3).expect("3 of 10 free");
        assert_eq!(places.reserved, vec![("disabled_drivers", 3)]);
        assert_eq!(places.open, 0);
        assert_eq!(places.citations, vec!["Art. 18, § 1º", "Art. 2º, § 4º"]);
    }

    #[test]
    fn a_call_offers_no_more_than_the_cap_has_free_and_at_least_one() {
        let refused = call_places(&occupancy(), 11).expect_err("only 10 free");
        assert_eq!(
            refused.to_string(),
            "o edital oferece 11 vagas, mas o limite de 52 permissões tem 10 livres (Art. 18, § 1º; Art. 2º, § 4º)"
        );
        assert!(call_places(&occupancy(), 0).is_err());
    }

    #[test]
    fn points_are_the_quantity_times_the_points_per_unit_up_to_the_maximum() {
        let edital = Edital {
            criteria: vec![
                Criterion {
                    key: "anos",
                    description: "Anos de habilitação",
                    points_per_unit: Decimal::new(15, 1),
                    max: Some(Decimal::from(9)),
                    citation: "Edital 1/2026, item 5.1",
                },
                Criterion {
                    key: "cursos",
                    description: "Cursos",
                    points_per_unit: Decimal::new(25, 2),
                    max: None,
                    citation: "Edital 1/2026, item 5.2",
                },
            ],
            ..Edital::default()
        };
        let mut application = Application {
            name: "ana",
            person: PersonId(0),
            quantities: vec![("anos", Decimal::from(7)), ("cursos", Decimal::from(3))],
            documents: Vec::new(),
            claim: None,
        };
        let (total, points) = score(&edital, &application).expect("scored");
        assert_eq!(points[0].points, Decimal::from(9), "10.5 capped at 9");
        assert_eq!(points[1].points, Decimal::new(75, 2));
        assert_eq!(total, Decimal::new(975, 2));
        application.quantities = vec![("anos", Decimal::from(-1))];
        assert!(score(&edital, &application).is_err());
        application.quantities = vec![("idade", Decimal::ONE)];
        assert!(score(&edital, &application).is_err());
        application.quantities = vec![("anos", Decimal::ONE), ("anos", Decimal::ONE)];
        assert!(score(&edital, &application).is_err());
        application.quantities = Vec::new();
        let (total, _) = score(&edital, &application).expect("none shown");
        assert_eq!(total, Decimal::ZERO);
    }

    #[test]
    fn an_edital_names_each_criterion_and_document_once() {
        let criterion = Criterion {
            key: "anos",
            description: "Anos",
            points_per_unit: Decimal::ONE,
            max: None,
            citation: "Edital 1/2026, item 5.1",
        };
        let twice = Edital {
            criteria: vec![criterion, criterion],
            ..Edital::default()
        };
        assert!(check_edital(&twice).is_err());
        let unknown_tie_break = Edital {
            criteria: vec![criterion],
            tie_breaks: vec!["idade"],
            ..Edital::default()
        };
        assert!(check_edital(&unknown_tie_break).is_err());
        let uncited = Edital {
            documents: vec![Document {
                name: "declaracao",
                citation: " ",
            }],
            ..Edital::default()
        };
        assert!(check_edital(&uncited).is_err());
        let negative = Edital {
            criteria: vec![Criterion {
                points_per_unit: Decimal::NEGATIVE_ONE,
                ..criterion
            }],
            ..Edital::default()
        };
        assert!(check_edital(&negative).is_err());
    }

    #[test]
    fn each_tie_is_ordered_by_the_latest_draw_that_had_all_its_members() {
        let ties = Ties {
            groups: vec![vec!["a", "b"], vec!["c", "d", "e"]],
            participants: vec!["a", "b", "c", "d", "e"],
            citations: Vec::new(),
        };
        assert_eq!(drawn_order(&ties, &[]), Err(vec!["a", "b", "c", "d", "e"]));
        let first = vec!["d", "b", "c", "a"];
        // "e" tied after the first draw: its group needs a draw of its own.
        assert_eq!(
            drawn_order(&ties, std::slice::from_ref(&first)),
            Err(vec!["c", "d", "e"])
        );
        let second = vec!["e", "c", "d"];
        assert_eq!(
            drawn_order(&ties, &[first, second]),
            Ok(vec!["b", "a", "e", "c", "d"])
        );
    }
}
