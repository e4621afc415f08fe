//! How many permits may exist, and the shares reserved within them.

use crate::context::{Context, EngineError, exact};
use crate::engine::process::Refusal;
use crate::model::{CapRule, Quota, Service};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

#[derive(Debug, Clone, PartialEq)]
pub struct PermitCap<'r> {
    pub max_permits: u64,
    pub reserved: Vec<(&'r str, u64)>,
    pub citations: Vec<&'r str>,
}

/// One permit per N inhabitants, rounded down; each reserved share rounded up.
///
/// `current` is the number of permits already granted of the services the cap
/// counts together; where the law keeps them, the cap is never below it.
pub fn permit_cap<'r>(
    ctx: &Context<'r>,
    service: Service,
    current: u64,
    on: NaiveDate,
) -> Result<PermitCap<'r>, EngineError> {
    let rule = cap_rule(ctx, service)?;
    let population = ctx.parameter("population", on)?;
    let per = ctx.quantity(&rule.inhabitants_per_permit, on)?;
    if per <= Decimal::ZERO {
        return Err(EngineError::InvalidQuestion(
            "o número de habitantes por permissão deve ser maior que zero".into(),
        ));
    }
    let mut max = exact(population.checked_div(per))?.floor();
    if rule.keep_current {
        max = max.max(Decimal::from(current));
    }
    let mut citations = vec![rule.citation.as_str()];
    let mut reserved = Vec::new();
    for quota in &rule.reserved {
        let percent = ctx.quantity(&quota.percent, on)?;
        let share = exact(max.checked_mul(percent))?
            .checked_div(Decimal::ONE_HUNDRED)
            .map(|s| s.ceil());
        let share = exact(share)?;
        reserved.push((quota.key.as_str(), share.to_u64().unwrap_or(0)));
        citations.push(&quota.citation);
    }
    Ok(PermitCap {
        max_permits: max.to_u64().unwrap_or(0),
        reserved,
        citations,
    })
}

/// A permit counted against a cap: its service and the reserved share it
/// was granted under, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted<'a> {
    pub service: Service,
    pub quota: Option<&'a str>,
}

/// The share a permit fills: the quota it was granted under, or the one
/// its service fills (Canguçu art. 3º, § 1º: the accessible taxis).
fn share_of<'a>(rule: &'a CapRule, permit: Counted<'a>) -> Option<&'a str> {
    permit.quota.or_else(|| {
        rule.reserved
            .iter()
            .find(|q| q.service == Some(permit.service))
            .map(|q| q.key.as_str())
    })
}

/// The places each reserved share still holds back from open competition:
/// its size less the places released to it (SMJ art. 2º, § 6º), and how
/// many of it are filled.
fn held<'r>(
    cap: &PermitCap<'r>,
    rule: &'r CapRule,
    counted: &[Counted<'_>],
    released: &[(&str, u64)],
) -> Vec<(&'r str, u64, u64)> {
    cap.reserved
        .iter()
        .map(|(key, share)| {
            let freed: u64 = released
                .iter()
                .filter(|(k, _)| k == key)
                .map(|(_, n)| n)
                .sum();
            let used = counted
                .iter()
                .filter(|p| share_of(rule, **p) == Some(*key))
                .count() as u64;
            (*key, share.saturating_sub(freed), used)
        })
        .collect()
}

/// The cap that counts `service`'s permits.
fn cap_rule<'r>(ctx: &Context<'r>, service: Service) -> Result<&'r CapRule, EngineError> {
    ctx.rulebook
        .caps
        .iter()
        .find(|cap| cap.services.contains(&service))
        .ok_or_else(|| {
            EngineError::NotInRulebook(format!("limite de permissões de `{}`", service.name()))
        })
}

/// A reserved share of a cap on a day: the places it holds back from open
/// competition (its size less those released) and how many are filled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Share<'r> {
    pub key: &'r str,
    pub held: u64,
    pub filled: u64,
}

/// How a cap stands on a day: its size, each reserved share, and the places
/// of open competition (the cap less the shares held back) with how many
/// are filled; the articles it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Occupancy<'r> {
    pub max_permits: u64,
    pub shares: Vec<Share<'r>>,
    pub open: u64,
    pub open_filled: u64,
    pub citations: Vec<&'r str>,
}

/// How the cap that counts `service` stands on `on`, given the permits it
/// counts and the places of each share released to open competition.
pub fn occupancy<'r>(
    ctx: &Context<'r>,
    service: Service,
    counted: &[Counted<'_>],
    released: &[(&str, u64)],
    on: NaiveDate,
) -> Result<Occupancy<'r>, EngineError> {
    let rule = cap_rule(ctx, service)?;
    let cap = permit_cap(ctx, service, counted.len() as u64, on)?;
    let shares: Vec<Share<'r>> = held(&cap, rule, counted, released)
        .into_iter()
        .map(|(key, held, filled)| Share { key, held, filled })
        .collect();
    let reserved: u64 = shares.iter().map(|s| s.held).sum();
    Ok(Occupancy {
        max_permits: cap.max_permits,
        open: cap.max_permits.saturating_sub(reserved),
        open_filled: counted
            .iter()
            .filter(|p| share_of(rule, **p).is_none())
            .count() as u64,
        shares,
        citations: cap.citations,
    })
}

/// Whether one more permit of `service` (under `quota`) fits the cap on
/// `on`, given the permits the cap counts and the places of each share
/// released to open competition: the articles it rests on, or the law's
/// refusal. A service's share is a floor: past it, its grants compete for
/// the free places.
pub fn room<'r>(
    ctx: &Context<'r>,
    service: Service,
    counted: &[Counted<'_>],
    quota: Option<&str>,
    released: &[(&str, u64)],
    on: NaiveDate,
) -> Result<Result<Vec<&'r str>, Refusal>, EngineError> {
    let rule = cap_rule(ctx, service)?;
    let places = occupancy(ctx, service, counted, released, on)?;
    let refuse = |reason: String| {
        Ok(Err(Refusal {
            reason,
            citations: places.citations.iter().map(|c| c.to_string()).collect(),
        }))
    };
    if counted.len() as u64 >= places.max_permits {
        return refuse(format!(
            "o limite de {} permissões de {} foi atingido",
            places.max_permits,
            rule.services
                .iter()
                .map(|s| s.name())
                .collect::<Vec<_>>()
                .join(" e ")
        ));
    }
    let general_full = places.open_filled >= places.open;
    match share_of(rule, Counted { service, quota }) {
        Some(key) => {
            let Some(share) = places.shares.iter().find(|s| s.key == key) else {
                return refuse(format!(
                    "`{}` não é reserva de vagas do regulamento (reservas: {})",
                    Quota::portuguese(key),
                    places
                        .shares
                        .iter()
                        .map(|s| Quota::portuguese(s.key))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            };
            if share.filled >= share.held && (quota.is_some() || general_full) {
                return refuse(format!(
                    "as vagas da reserva `{}` ({}) estão todas ocupadas",
                    Quota::portuguese(key),
                    share.held
                ));
            }
        }
        None if general_full => {
            let reserved = places.max_permits - places.open;
            return refuse(format!(
                "as {} vagas de livre concorrência estão ocupadas ({reserved} reservadas)",
                places.open
            ));
        }
        None => {}
    }
    Ok(Ok(places.citations))
}

/// How many places of the share `key` are unfilled on `on` and may be
/// released to open competition where the law says so (SMJ art. 2º, § 6º):
/// the article, and the places; the law's refusal when it does not release
/// that share or none is unfilled.
pub fn releasable<'r>(
    ctx: &Context<'r>,
    service: Service,
    counted: &[Counted<'_>],
    key: &str,
    released: &[(&str, u64)],
    on: NaiveDate,
) -> Result<Result<(u64, &'r str), Refusal>, EngineError> {
    let rule = cap_rule(ctx, service)?;
    let cap = permit_cap(ctx, service, counted.len() as u64, on)?;
    let refuse = |reason: String, citation: &str| {
        Ok(Err(Refusal {
            reason,
            citations: vec![citation.to_string()],
        }))
    };
    let Some(quota) = rule.reserved.iter().find(|q| q.key == key) else {
        return refuse(
            format!(
                "`{}` não é reserva de vagas do regulamento",
                Quota::portuguese(key)
            ),
            &rule.citation,
        );
    };
    let Some(release) = &quota.release else {
        return refuse(
            format!(
                "a lei não libera aos demais as vagas da reserva `{}`",
                Quota::portuguese(key)
            ),
            &quota.citation,
        );
    };
    let shares = held(&cap, rule, counted, released);
    let (held, used) = shares
        .iter()
        .find(|(k, _, _)| *k == key)
        .map_or((0, 0), |(_, h, u)| (*h, *u));
    let unfilled = held.saturating_sub(used);
    if unfilled == 0 {
        return refuse(
            format!(
                "não há vagas da reserva `{}` por preencher",
                Quota::portuguese(key)
            ),
            release,
        );
    }
    Ok(Ok((unfilled, release.as_str())))
}
