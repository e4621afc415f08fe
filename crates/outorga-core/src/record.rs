//! A person's record: the infractions they committed or answer for as a
//! permit holder, laid out for fast scans over long histories, with running
//! point totals. What [`Facts::new`](crate::facts::Facts::new) needs to build
//! it lives here — each infraction's points ([`PointsTable`]) and what the
//! law gave an infraction given the record before it ([`outcome_in`]) — so
//! the facts depend on no module of the engine.

use crate::context::{Context, EngineError};
use crate::model::{
    CountBy, CountRule, Cure, GroupId, Incidence, InfractionId, PointBasis, Rulebook, SanctionKind,
    SanctionRule,
};
use chrono::{Datelike, NaiveDate, NaiveDateTime, Timelike};
use rust_decimal::Decimal;

/// What an infraction earned, as far as points and repeated fines care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Nothing,
    Warning,
    Fine,
}

/// One event on a person's record, laid out for fast scans over long histories.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RecordEntry {
    /// When it was committed, as an [`instant`].
    pub at: i64,
    pub infraction: InfractionId,
    /// The infraction's group, if it has one.
    pub group: Option<GroupId>,
    /// The person committed it (otherwise they answer for it as the holder of
    /// the permit it was committed under).
    pub own: bool,
    pub is_final: bool,
    /// What the law gave it (computed only when points or fines depend on it).
    pub outcome: Outcome,
    /// Points (scaled, see [`PointsTable`]) of the final entries of the record
    /// up to this one included.
    pub total: i64,
}

/// A date-time as seconds since 0001-01-01 00:00, for ordering and comparing.
pub fn instant(at: NaiveDateTime) -> i64 {
    i64::from(at.date().num_days_from_ce()) * 86_400
        + i64::from(at.time().num_seconds_from_midnight())
}

/// The first instant of a day.
pub fn day_start(date: NaiveDate) -> i64 {
    i64::from(date.num_days_from_ce()) * 86_400
}

/// The day an instant falls on.
pub fn day_of(at: i64) -> NaiveDate {
    i32::try_from(at.div_euclid(86_400))
        .ok()
        .and_then(NaiveDate::from_num_days_from_ce_opt)
        .unwrap_or(NaiveDate::MIN)
}

/// The points of every infraction of a rulebook, worked out once: to the
/// offender, and to the permit holder when the offender is someone else's
/// auxiliary. Kept as integers at a common decimal scale so totals over long
/// records are plain additions (exact: the scale is the largest the values use).
#[derive(Debug, Clone, Default)]
pub struct PointsTable {
    /// Per infraction: (offender, holder) points of the group — what every auto
    /// earns with basis `Group`, what a fine earns with basis `Outcome`.
    per_infraction: Vec<(i64, i64)>,
    /// Per infraction: whether its points are its own, whatever the outcome.
    fixed: Vec<bool>,
    /// (offender, holder) points of a warning, with basis `Outcome`.
    warning: (i64, i64),
    basis: PointBasis,
    scale: u32,
    /// The windows (months) a record is reported and judged over, sorted.
    windows: Vec<u32>,
}

impl PointsTable {
    pub fn new(rulebook: &Rulebook) -> Self {
        let rule = rulebook.points.as_ref();
        let share = rule
            .and_then(|rule| rule.holder_share.as_ref())
            .map_or(Decimal::ZERO, |share| share.value);
        let split =
            |points: Decimal| (points.normalize(), points.saturating_mul(share).normalize());
        let values: Vec<(Decimal, Decimal)> = rulebook
            .infractions
            .iter()
            .map(|infraction| {
                let own = infraction.points.as_ref().map(|p| p.value);
                let of_group = infraction
                    .group
                    .and_then(|group| rulebook.group(group).points.as_ref())
                    .map(|points| points.value);
                split(rule.and(own.or(of_group)).unwrap_or(Decimal::ZERO))
            })
            .collect();
        let warning = split(
            rule.and_then(|rule| rule.warning.as_ref())
                .map_or(Decimal::ZERO, |warning| warning.value),
        );
        let scale = values
            .iter()
            .chain(std::iter::once(&warning))
            .map(|(own, held)| own.scale().max(held.scale()))
            .max()
            .unwrap_or(0);
        let scaled = |mut value: Decimal| {
            value.rescale(scale);
            i64::try_from(value.mantissa()).unwrap_or(i64::MAX)
        };
        let mut windows: Vec<u32> = rule
            .iter()
            .flat_map(|rule| rule.windows_months.iter().copied())
            .chain(rulebook.thresholds.iter().map(|t| t.window_months))
            .collect();
        windows.sort_unstable();
        windows.dedup();
        Self {
            per_infraction: values
                .into_iter()
                .map(|(own, held)| (scaled(own), scaled(held)))
                .collect(),
            fixed: rulebook
                .infractions
                .iter()
                .map(|i| i.points.is_some())
                .collect(),
            warning: (scaled(warning.0), scaled(warning.1)),
            basis: rule.map_or(PointBasis::Group, |rule| rule.basis),
            scale,
            windows,
        }
    }

    /// Whether points depend on the outcome of each infraction.
    pub fn by_outcome(&self) -> bool {
        self.basis == PointBasis::Outcome
    }

    /// Points an infraction with this outcome puts on a record, scaled: the
    /// offender's when `own`, else the permit holder's share.
    pub fn scaled(&self, infraction: InfractionId, own: bool, outcome: Outcome) -> i64 {
        let fixed = self
            .fixed
            .get(infraction.0 as usize)
            .copied()
            .unwrap_or(false);
        let (offender, holder) = match (self.basis, outcome) {
            _ if fixed => self.per_infraction[infraction.0 as usize],
            (PointBasis::Group, _) | (PointBasis::Outcome, Outcome::Fine) => self
                .per_infraction
                .get(infraction.0 as usize)
                .copied()
                .unwrap_or_default(),
            (PointBasis::Outcome, Outcome::Warning) => self.warning,
            (PointBasis::Outcome, Outcome::Nothing) => (0, 0),
        };
        if own { offender } else { holder }
    }

    /// A scaled number of points as a decimal.
    pub(crate) fn decimal(&self, scaled: i64) -> Decimal {
        Decimal::new(scaled, self.scale).normalize()
    }

    /// The windows (months) a record is reported and judged over, sorted.
    pub(crate) fn windows(&self) -> &[u32] {
        &self.windows
    }
}

/// How a rule counts priors: its own count, or the rulebook's [repeat] (the
/// loader refuses a rulebook that counts incidences with neither).
pub(crate) fn count_of<'r>(
    rulebook: &'r Rulebook,
    rule: &'r SanctionRule,
) -> Result<&'r CountRule, EngineError> {
    rule.count
        .as_ref()
        .or(rulebook.repeat.as_ref())
        .ok_or_else(|| {
            EngineError::NotInRulebook(
                "a regra de reincidência (`[repeat]`) que conta as infrações anteriores".into(),
            )
        })
}

/// The incidence (1 = first) of `infraction` committed at `at` by the owner of
/// `record`: 1 + the final priors of their own, committed before `at` and within
/// the window of `count`, that `count` matches.
pub fn incidence_in(
    ctx: &Context<'_>,
    record: &[RecordEntry],
    infraction: InfractionId,
    at: NaiveDateTime,
    count: &CountRule,
) -> Result<u32, EngineError> {
    let start = ctx.window_start(&count.window, at.date())?;
    let group = ctx.rulebook.infraction(infraction).group;
    let from = record.partition_point(|e| e.at < day_start(start));
    let until = instant(at);
    let window = record[from..].iter().take_while(|e| e.at < until);
    let counts = |e: &&RecordEntry| e.own && e.is_final;
    let priors = match &count.by {
        CountBy::Code => window
            .filter(|e| counts(e) && e.infraction == infraction)
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

/// Whether the rules give `infraction`, committed at `at` by the owner of
/// `record`, a fine, a warning (when no fine), or neither.
pub fn outcome_in(
    ctx: &Context<'_>,
    record: &[RecordEntry],
    infraction: InfractionId,
    at: NaiveDateTime,
    uncured: bool,
) -> Result<Outcome, EngineError> {
    let rulebook = ctx.rulebook;
    let group = rulebook.infraction(infraction).group;
    let mut outcome = Outcome::Nothing;
    for rule in &rulebook.sanction_rules {
        if !rule.applies_to.selects(infraction, group) {
            continue;
        }
        match (rule.cure, uncured) {
            (Cure::Found, true) | (Cure::Uncured, false) => continue,
            _ => {}
        }
        let gives = |kind| rule.sanctions.iter().any(|s| s.kind == kind);
        let (fine, warning) = (gives(SanctionKind::Fine), gives(SanctionKind::Warning));
        if !(fine || warning) {
            continue;
        }
        let matches = rule.incidence == Incidence::Any
            || rule.incidence.matches(incidence_in(
                ctx,
                record,
                infraction,
                at,
                count_of(rulebook, rule)?,
            )?);
        if matches && fine {
            return Ok(Outcome::Fine);
        }
        if matches && warning {
            outcome = Outcome::Warning;
        }
    }
    Ok(outcome)
}
