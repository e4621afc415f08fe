//! The life of a permit as a pure state machine: `Life::take(state, step,
//! day)` → the next state, or a `Refusal` naming the articles. Reserve (a
//! stop on the holder's request, with its grounds and limits), the penalty
//! suspension an auto's final decision imposes, renewal within the law's
//! limits, transfer where the law allows it, the notice that precedes a
//! caducity and its cure, and the end of the permit on a ground the law
//! lists — each ground when it may be declared.
//!
//! The rules come from the rulebook: `[permit_life]` (grounds, renewal,
//! transfer), `[permit_suspension]` (the reserve: grounds, days, extension)
//! and the deadlines `permit_term`/`delegation_term` and `caducity_cure`.

use crate::calendar::{Counting, add_months};
use crate::context::{Context, EngineError};
use crate::engine::deadline::deadline;
use crate::engine::process::{Outcome, Refusal};
use crate::facts::PersonKind;
use crate::model::{
    DeadlineKind, DeadlineRule, EndAfter, EndGround, EndRule, LimitUnit, PermitLife, PermitStatus,
    SanctionKind, SuspensionOnRequest, Transfer,
};
use chrono::{Datelike, NaiveDate};

crate::vocab::vocabulary! {
    /// The steps of a permit's life.
    pub enum LifeStepKind {
        /// The holder stops for a time, on a ground the law admits.
        Reserve = "reserve",
        /// The reserve is extended, within the law's maximum.
        ExtendReserve = "extend_reserve",
        /// Back to operating after a reserve or a suspension.
        Reinstate = "reinstate",
        /// Suspended as a penalty (an auto's final decision).
        Suspend = "suspend",
        Renew = "renew",
        /// To another holder.
        Transfer = "transfer",
        /// Notice to correct failures before a caducity (Amapá art. 18, § 3º).
        CaducityNotice = "caducity_notice",
        /// The failures were corrected within the notice's time.
        Cure = "cure",
        /// The permit ends on a ground of the law's list.
        End = "end",
        /// Cassated by an auto's final decision.
        Cassate = "cassate",
    }
}

impl LifeStepKind {
    /// The step as staff read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            LifeStepKind::Reserve => "reserva (suspensão a pedido)",
            LifeStepKind::ExtendReserve => "prorrogação da reserva",
            LifeStepKind::Reinstate => "retorno à operação",
            LifeStepKind::Suspend => "suspensão como penalidade",
            LifeStepKind::Renew => "renovação",
            LifeStepKind::Transfer => "transferência",
            LifeStepKind::CaducityNotice => "notificação para correção (caducidade)",
            LifeStepKind::Cure => "correção das falhas notificadas",
            LifeStepKind::End => "extinção",
            LifeStepKind::Cassate => "cassação (decisão definitiva de auto)",
        }
    }
}

/// A step with what it carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LifeStep {
    /// `ground`: a reason key of `[permit_suspension]`.
    Reserve {
        ground: String,
        days: u32,
    },
    ExtendReserve {
        days: u32,
    },
    Reinstate,
    /// The last day of the penalty.
    Suspend {
        until: NaiveDate,
    },
    Renew,
    /// `consent`: the authority consented beforehand.
    Transfer {
        consent: bool,
    },
    /// `ground`: a key of the rulebook's `caducity` grounds, when it lists them.
    CaducityNotice {
        ground: String,
    },
    Cure,
    End {
        ground: EndGround,
    },
    Cassate,
}

impl LifeStep {
    pub fn kind(&self) -> LifeStepKind {
        match self {
            LifeStep::Reserve { .. } => LifeStepKind::Reserve,
            LifeStep::ExtendReserve { .. } => LifeStepKind::ExtendReserve,
            LifeStep::Reinstate => LifeStepKind::Reinstate,
            LifeStep::Suspend { .. } => LifeStepKind::Suspend,
            LifeStep::Renew => LifeStepKind::Renew,
            LifeStep::Transfer { .. } => LifeStepKind::Transfer,
            LifeStep::CaducityNotice { .. } => LifeStepKind::CaducityNotice,
            LifeStep::Cure => LifeStepKind::Cure,
            LifeStep::End { .. } => LifeStepKind::End,
            LifeStep::Cassate => LifeStepKind::Cassate,
        }
    }
}

/// The fields a step may carry, as written by a clerk or a scenario.
#[derive(Debug, Clone, Default)]
pub struct LifeFields {
    pub ground: Option<String>,
    pub days: Option<u32>,
    pub until: Option<NaiveDate>,
    pub consent: Option<bool>,
}

/// Why the fields do not make the step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LifeMisfit {
    /// The step needs this field.
    Missing(&'static str),
    /// The step takes no such field.
    NotHere(&'static str),
    /// `end` names a ground outside the vocabulary.
    UnknownGround(String),
}

impl LifeStep {
    /// The step of `kind` with `fields`: each field only where it belongs.
    pub fn build(kind: LifeStepKind, fields: LifeFields) -> Result<LifeStep, LifeMisfit> {
        let LifeFields {
            ground,
            days,
            until,
            consent,
        } = fields;
        let takes_ground = matches!(
            kind,
            LifeStepKind::Reserve | LifeStepKind::CaducityNotice | LifeStepKind::End
        );
        let takes_days = matches!(kind, LifeStepKind::Reserve | LifeStepKind::ExtendReserve);
        if ground.is_some() && !takes_ground {
            return Err(LifeMisfit::NotHere("ground"));
        }
        if days.is_some() && !takes_days {
            return Err(LifeMisfit::NotHere("days"));
        }
        if until.is_some() && kind != LifeStepKind::Suspend {
            return Err(LifeMisfit::NotHere("until"));
        }
        if consent.is_some() && kind != LifeStepKind::Transfer {
            return Err(LifeMisfit::NotHere("consent"));
        }
        let ground = || ground.clone().ok_or(LifeMisfit::Missing("ground"));
        let days = || days.ok_or(LifeMisfit::Missing("days"));
        Ok(match kind {
            LifeStepKind::Reserve => LifeStep::Reserve {
                ground: ground()?,
                days: days()?,
            },
            LifeStepKind::ExtendReserve => LifeStep::ExtendReserve { days: days()? },
            LifeStepKind::Reinstate => LifeStep::Reinstate,
            LifeStepKind::Suspend => LifeStep::Suspend {
                until: until.ok_or(LifeMisfit::Missing("until"))?,
            },
            LifeStepKind::Renew => LifeStep::Renew,
            LifeStepKind::Transfer => LifeStep::Transfer {
                consent: consent.unwrap_or(false),
            },
            LifeStepKind::CaducityNotice => LifeStep::CaducityNotice { ground: ground()? },
            LifeStepKind::Cure => LifeStep::Cure,
            LifeStepKind::Cassate => LifeStep::Cassate,
            LifeStepKind::End => {
                let text = ground()?;
                LifeStep::End {
                    ground: EndGround::parse(&text).ok_or(LifeMisfit::UnknownGround(text))?,
                }
            }
        })
    }
}

/// A reserve running: its ground, first day and last day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reserve {
    pub ground: String,
    pub since: NaiveDate,
    pub until: NaiveDate,
}

/// A notice to correct before a caducity: its ground and the last day to cure.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub ground: String,
    pub on: NaiveDate,
    pub cure_by: NaiveDate,
}

/// Where a permit's life stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LifeState {
    /// `Granted`, `Reserved`, `Suspended`, or the status its end left.
    pub status: PermitStatus,
    pub granted: NaiveDate,
    /// The last day of its term (none: the law sets no term).
    pub expires: Option<NaiveDate>,
    /// The day of the last step.
    pub last: NaiveDate,
    pub renewals: u32,
    pub reserve: Option<Reserve>,
    /// The last day of a penalty suspension.
    pub suspended_until: Option<NaiveDate>,
    pub notice: Option<Notice>,
    /// The ground it ended on.
    pub ended: Option<EndGround>,
}

impl LifeState {
    /// A permit with this status, granted on `granted`, whose term ends on
    /// `expires`, before any other step.
    pub fn new(status: PermitStatus, granted: NaiveDate, expires: Option<NaiveDate>) -> Self {
        LifeState {
            status,
            granted,
            expires,
            last: granted,
            renewals: 0,
            reserve: None,
            suspended_until: None,
            notice: None,
            ended: None,
        }
    }

    /// Renounced, revoked or extinct: nothing more can happen.
    pub fn is_ended(&self) -> bool {
        matches!(
            self.status,
            PermitStatus::Renounced | PermitStatus::Revoked | PermitStatus::Extinct
        )
    }
}

/// What the machine needs to know of the holder.
#[derive(Debug, Clone, Copy, Default)]
pub struct Holder {
    pub born: Option<NaiveDate>,
    pub kind: PersonKind,
}

/// What a recorded status means on `day`: a permit whose term ran out is
/// not in force; a reserve or a penalty suspension lapses after its last
/// day (`until`). The one rule every reader of a permit's status asks.
pub fn status_on_day(
    recorded: PermitStatus,
    until: Option<NaiveDate>,
    expires: Option<NaiveDate>,
    day: NaiveDate,
) -> PermitStatus {
    match recorded {
        PermitStatus::Renounced | PermitStatus::Revoked | PermitStatus::Extinct => recorded,
        _ if expires.is_some_and(|e| day > e) => PermitStatus::Extinct,
        PermitStatus::Suspended | PermitStatus::Reserved if until.is_some_and(|u| day > u) => {
            PermitStatus::Granted
        }
        other => other,
    }
}

/// The set of `[[grounds]]` a notice before caducity names.
pub const CADUCITY_GROUNDS: &str = "caducity";

/// The limits of a permit's life that are no deadline kind of the law.
pub const LIFE_LIMITS: [&str; 2] = ["reserve", "suspension"];

/// A time limit running in a permit's life and its last day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LifeLimit<'r> {
    /// `reserve`, `suspension`, `caducity_cure`, or the term's deadline kind.
    pub key: &'static str,
    pub due: NaiveDate,
    pub citation: &'r str,
}

/// The permit life of a rulebook, with the context its limits are counted in.
#[derive(Debug, Clone, Copy)]
pub struct Life<'c, 'r> {
    pub ctx: &'c Context<'r>,
    pub rules: &'r PermitLife,
}

fn refuse<T>(reason: String, citations: &[&str]) -> Outcome<T> {
    Ok(Err(Refusal {
        reason,
        citations: citations.iter().map(|c| c.to_string()).collect(),
    }))
}

/// The term's deadline kinds, in the order they are looked for.
const TERMS: [DeadlineKind; 2] = [DeadlineKind::PermitTerm, DeadlineKind::DelegationTerm];

impl<'c, 'r> Life<'c, 'r> {
    /// The machine of the rulebook's permit life, when it has one.
    pub fn of(ctx: &'c Context<'r>) -> Result<Self, EngineError> {
        let rules = ctx.rulebook.permit_life.as_ref().ok_or_else(|| {
            EngineError::NotInRulebook("a vida da permissão (`[permit_life]`)".into())
        })?;
        Ok(Life { ctx, rules })
    }

    fn term_rule(&self) -> Option<&'r DeadlineRule> {
        TERMS
            .iter()
            .find_map(|kind| self.ctx.rulebook.deadlines.iter().find(|d| d.kind == *kind))
    }

    fn term_citation(&self) -> Option<&'r str> {
        self.term_rule().map(|d| d.citation.as_str())
    }

    /// The day a permit granted on `granted` counts its term from: the
    /// act's date for one granted before it, where the law says so.
    fn anchor(&self, granted: NaiveDate) -> NaiveDate {
        match &self.rules.earlier_from_act {
            Some(_) => granted.max(self.ctx.rulebook.act.date),
            None => granted,
        }
    }

    /// The last day of `periods` terms from the grant, with its article,
    /// when the law sets a term: each renewal adds an equal period to the
    /// term as the law counts it, not to a last day moved off a weekend.
    pub fn term(
        &self,
        granted: NaiveDate,
        periods: u32,
    ) -> Result<Option<(NaiveDate, &'r str)>, EngineError> {
        let Some(rule) = self.term_rule() else {
            return Ok(None);
        };
        let from = self.anchor(granted);
        let length = self.ctx.whole(&rule.length, from, "dias")?;
        let calendar = &self.ctx.calendar;
        let end =
            match rule.unit {
                LimitUnit::Counted(Counting::Months) => calendar
                    .on_or_next_business_day(add_months(from, length.saturating_mul(periods))),
                LimitUnit::Counted(Counting::Years) => calendar.on_or_next_business_day(
                    add_months(from, length.saturating_mul(12).saturating_mul(periods)),
                ),
                LimitUnit::Counted(counting) => {
                    let mut end = from;
                    for _ in 0..periods {
                        end = calendar.count(end, length, counting);
                    }
                    end
                }
                LimitUnit::Hours => {
                    return Err(EngineError::InvalidQuestion(format!(
                        "o prazo `{}` conta horas; o prazo da permissão conta dias, meses ou anos",
                        rule.kind
                    )));
                }
            };
        Ok(Some((end, rule.citation.as_str())))
    }

    /// The ground of the law that ends a permit when its term runs out
    /// (`term`, or Canguçu's caducity), if the law lists one.
    fn term_ground(&self) -> Option<&'r EndRule> {
        self.rules.ends.iter().find(|e| e.after == EndAfter::Term)
    }

    /// The term ran out before `day`, and the law ends the permit with it.
    fn lapsed(&self, state: &LifeState, day: NaiveDate) -> Option<&'r EndRule> {
        match state.expires {
            Some(expires) if day > expires && !state.is_ended() => self.term_ground(),
            _ => None,
        }
    }

    /// The ground it ended on by `today`: the one recorded, or the term's.
    pub fn ended_on(&self, state: &LifeState, today: NaiveDate) -> Option<EndGround> {
        state
            .ended
            .or_else(|| self.lapsed(state, today).map(|e| e.ground))
    }

    /// A permit granted on `day`, with its term.
    pub fn start(&self, day: NaiveDate) -> Result<LifeState, EngineError> {
        Ok(LifeState::new(
            PermitStatus::Granted,
            day,
            self.term(day, 1)?.map(|(end, _)| end),
        ))
    }

    fn reserve_rule(&self) -> Option<&'r SuspensionOnRequest> {
        self.ctx.rulebook.permit_suspension.as_ref()
    }

    fn end_rule(&self, ground: EndGround) -> Option<&'r EndRule> {
        self.rules.ends.iter().find(|e| e.ground == ground)
    }

    /// The limits running on `today`.
    pub fn open(&self, state: &LifeState, today: NaiveDate) -> Vec<LifeLimit<'r>> {
        let mut open = Vec::new();
        if state.is_ended() {
            return open;
        }
        if let (Some(reserve), Some(rule)) = (&state.reserve, self.reserve_rule())
            && today <= reserve.until
        {
            open.push(LifeLimit {
                key: "reserve",
                due: reserve.until,
                citation: &rule.citation,
            });
        }
        if let Some(until) = state.suspended_until
            && today <= until
        {
            open.push(LifeLimit {
                key: "suspension",
                due: until,
                citation: &self.rules.citation,
            });
        }
        if let Some(notice) = &state.notice
            && today <= notice.cure_by
            && let Some(rule) = self
                .ctx
                .rulebook
                .deadlines
                .iter()
                .find(|d| d.kind == DeadlineKind::CaducityCure)
        {
            open.push(LifeLimit {
                key: "caducity_cure",
                due: notice.cure_by,
                citation: &rule.citation,
            });
        }
        if let (Some(expires), Some(citation)) = (state.expires, self.term_citation())
            && today <= expires
        {
            let key = TERMS
                .into_iter()
                .find(|k| self.ctx.rulebook.deadlines.iter().any(|d| d.kind == *k))
                .map_or("permit_term", DeadlineKind::name);
            open.push(LifeLimit {
                key,
                due: expires,
                citation,
            });
        }
        open
    }

    /// The status on `today`: a term that ran out ends the permit where the
    /// law says so; a penalty suspension and a reserve lapse after their
    /// last day (a reserve not followed by the return may then be
    /// abandonment, where the law says so).
    pub fn status_on(&self, state: &LifeState, today: NaiveDate) -> PermitStatus {
        let until = match state.status {
            PermitStatus::Suspended => state.suspended_until,
            PermitStatus::Reserved => state.reserve.as_ref().map(|r| r.until),
            _ => None,
        };
        if let Some(rule) = self.lapsed(state, today) {
            return rule.ground.status();
        }
        status_on_day(state.status, until, state.expires, today)
    }

    /// Takes `step` on `day`: the next state, or the law's refusal.
    pub fn take(
        &self,
        state: &LifeState,
        step: &LifeStep,
        day: NaiveDate,
        holder: Holder,
    ) -> Outcome<LifeState> {
        let life = self.rules.citation.as_str();
        if day < state.last {
            let reason = if day < state.granted {
                format!(
                    "{day} é anterior à outorga da permissão ({})",
                    state.granted
                )
            } else {
                format!(
                    "{day} é anterior ao último passo registrado ({})",
                    state.last
                )
            };
            return refuse(reason, &[life]);
        }
        if state.is_ended() {
            let how = state
                .ended
                .map_or(state.status.portuguese(), EndGround::portuguese);
            return refuse(
                format!("a permissão está extinta ({how}): nada mais cabe"),
                &[life],
            );
        }
        if let Some(rule) = self.lapsed(state, day)
            && *step
                != (LifeStep::End {
                    ground: rule.ground,
                })
        {
            let expires = state.expires.unwrap_or(day);
            return refuse(
                format!(
                    "o prazo da permissão terminou em {expires}: extinguiu-se ({})",
                    rule.ground.portuguese()
                ),
                &[&rule.citation],
            );
        }
        let status = self.status_on(state, day);
        let mut next = state.clone();
        next.last = day;
        match step {
            LifeStep::Reserve { ground, days } => {
                let Some(rule) = self.reserve_rule() else {
                    return refuse(
                        "o regulamento não prevê reserva nem suspensão a pedido".into(),
                        &[life],
                    );
                };
                if status != PermitStatus::Granted {
                    return refuse(
                        format!(
                            "a permissão está {}: só a permissão em operação entra em reserva",
                            status.portuguese()
                        ),
                        &[&rule.citation],
                    );
                }
                let Some(known) = rule.reasons.iter().find(|r| r.key == *ground) else {
                    return refuse(
                        format!(
                            "`{ground}` não é motivo que a lei admita (motivos: {})",
                            rule.reasons
                                .iter()
                                .map(|r| format!("{} — {}", r.key, r.description))
                                .collect::<Vec<_>>()
                                .join("; ")
                        ),
                        &[&rule.citation],
                    );
                };
                let max = self.ctx.whole(&rule.max_days, day, "dias")?;
                if *days == 0 || *days > max {
                    return refuse(
                        format!("a reserva vai de 1 a {max} dias; pedidos {days}"),
                        &[&rule.citation],
                    );
                }
                next.status = PermitStatus::Reserved;
                next.reserve = Some(Reserve {
                    ground: known.key.clone(),
                    since: day,
                    until: last_of(day, *days),
                });
            }
            LifeStep::ExtendReserve { days } => {
                let (Some(rule), Some(reserve)) = (self.reserve_rule(), &state.reserve) else {
                    return refuse("não há reserva a prorrogar".into(), &[life]);
                };
                if status != PermitStatus::Reserved || day > reserve.until {
                    return refuse(
                        format!(
                            "a prorrogação é pedida durante a reserva, que terminou em {}",
                            reserve.until
                        ),
                        &[&rule.citation],
                    );
                }
                let cited = rule.extension_citation.as_ref().unwrap_or(&rule.citation);
                let extension = self.ctx.whole(&rule.extension_days, day, "dias")?;
                let max = self.ctx.whole(&rule.max_days, day, "dias")? + extension;
                let until = reserve.until + chrono::Days::new(u64::from(*days));
                let total = (until - reserve.since).num_days() + 1;
                if *days == 0 || *days > extension {
                    return refuse(
                        format!("a prorrogação vai de 1 a {extension} dias; pedidos {days}"),
                        &[cited],
                    );
                }
                if total > i64::from(max) {
                    return refuse(
                        format!(
                            "a reserva com a prorrogação vai no máximo a {max} dias; \
                             com mais {days} seriam {total}"
                        ),
                        &[cited],
                    );
                }
                next.reserve = Some(Reserve {
                    until,
                    ..reserve.clone()
                });
            }
            LifeStep::Reinstate => match status {
                PermitStatus::Reserved => {
                    next.status = PermitStatus::Granted;
                    next.reserve = None;
                }
                PermitStatus::Suspended => {
                    let until = state.suspended_until.unwrap_or(day);
                    return refuse(
                        format!("a suspensão imposta como penalidade vai até {until}"),
                        &[life],
                    );
                }
                PermitStatus::Granted
                    if matches!(
                        state.status,
                        PermitStatus::Suspended | PermitStatus::Reserved
                    ) =>
                {
                    next.status = PermitStatus::Granted;
                    next.suspended_until = None;
                    next.reserve = None;
                }
                other => {
                    return refuse(
                        format!(
                            "a permissão está {}: não há de que retornar",
                            other.portuguese()
                        ),
                        &[life],
                    );
                }
            },
            LifeStep::Suspend { until } => {
                let mut specs = self.ctx.rulebook.specs_of(SanctionKind::PermitSuspension);
                specs.extend(self.ctx.rulebook.specs_of(SanctionKind::Suspension));
                if specs.is_empty() {
                    return refuse(
                        "a lei não pune com a suspensão da permissão".into(),
                        &[life],
                    );
                }
                if !matches!(status, PermitStatus::Granted | PermitStatus::Reserved) {
                    return refuse(format!("a permissão está {}", status.portuguese()), &[life]);
                }
                if *until < day {
                    return refuse(
                        format!("a suspensão termina ({until}) antes de começar ({day})"),
                        &[life],
                    );
                }
                let days = u32::try_from((*until - day).num_days() + 1).unwrap_or(u32::MAX);
                let mut fits = false;
                for (spec, _) in &specs {
                    if self.lasts(spec, day, *until, days)? {
                        fits = true;
                        break;
                    }
                }
                if !fits {
                    let mut cited: Vec<&str> = specs.iter().map(|(_, c)| *c).collect();
                    cited.dedup();
                    return refuse(
                        format!(
                            "{days} dias de suspensão ({day} a {until}) não é duração que a lei imponha"
                        ),
                        &cited,
                    );
                }
                next.status = PermitStatus::Suspended;
                next.suspended_until = Some(*until);
                next.reserve = None;
            }
            LifeStep::Renew => {
                let Some(rule) = &self.rules.renewal else {
                    let mut cited = vec![life];
                    cited.extend(self.term_citation());
                    return refuse(
                        "a lei não prevê a renovação da permissão: findo o prazo, a vaga é \
                         outorgada de novo"
                            .into(),
                        &cited,
                    );
                };
                if let Some(max) = rule.max
                    && state.renewals >= max
                {
                    let reason = match max {
                        0 => "a lei veda a prorrogação da permissão".to_string(),
                        1 => "a lei admite uma única prorrogação, já concedida".to_string(),
                        n => format!("a lei admite {n} prorrogações, já concedidas"),
                    };
                    return refuse(reason, &[&rule.citation]);
                }
                let Some(expires) = state.expires else {
                    return refuse(
                        "a permissão não tem prazo a renovar".into(),
                        &[&rule.citation],
                    );
                };
                if day > expires {
                    return refuse(
                        format!(
                            "o prazo terminou em {expires}: a permissão extingue-se pelo \
                             advento do termo, não se renova"
                        ),
                        &[&rule.citation],
                    );
                }
                next.renewals += 1;
                next.expires = self
                    .term(state.granted, next.renewals + 1)?
                    .map(|(end, _)| end);
            }
            LifeStep::Transfer { consent } => {
                let rule = &self.rules.transfer;
                match rule.value {
                    Transfer::Forbidden => {
                        return refuse(
                            "a lei veda a transferência da permissão".into(),
                            &[&rule.citation],
                        );
                    }
                    Transfer::WithConsent if !consent => {
                        return refuse(
                            "a transferência depende de prévia anuência do poder delegante".into(),
                            &[&rule.citation],
                        );
                    }
                    Transfer::WithConsent => {}
                }
            }
            LifeStep::CaducityNotice { ground } => {
                let Some(end) = self
                    .end_rule(EndGround::Caducity)
                    .filter(|e| e.after == EndAfter::Notice)
                else {
                    return refuse(
                        "a lei não prevê notificação para correção antes da caducidade".into(),
                        &[life],
                    );
                };
                let grounds: Vec<_> = self
                    .ctx
                    .rulebook
                    .grounds
                    .iter()
                    .filter(|g| g.set == CADUCITY_GROUNDS)
                    .collect();
                if !grounds.is_empty() && !grounds.iter().any(|g| g.key == *ground) {
                    return refuse(
                        format!(
                            "`{ground}` não é hipótese de caducidade da lei (hipóteses: {})",
                            grounds
                                .iter()
                                .map(|g| format!("{} — {}", g.key, g.description))
                                .collect::<Vec<_>>()
                                .join("; ")
                        ),
                        &[&end.citation],
                    );
                }
                if end.direct.contains(ground) {
                    let listed = grounds.iter().find(|g| g.key == *ground);
                    return refuse(
                        format!(
                            "{} não se corrige em prazo: a caducidade decorre do auto que a \
                             declara",
                            listed.map_or(format!("`{ground}`"), |g| g.description.clone())
                        ),
                        &[listed.map_or(end.citation.as_str(), |g| g.citation.as_str())],
                    );
                }
                if state.notice.as_ref().is_some_and(|n| day <= n.cure_by) {
                    return refuse(
                        "já corre o prazo de uma notificação para correção".into(),
                        &[self.cure_citation().unwrap_or(&end.citation)],
                    );
                }
                let cure = deadline(self.ctx, DeadlineKind::CaducityCure, day)?;
                next.notice = Some(Notice {
                    ground: ground.clone(),
                    on: day,
                    cure_by: cure.due,
                });
            }
            LifeStep::Cure => {
                let Some(notice) = &state.notice else {
                    return refuse("não há notificação para correção".into(), &[life]);
                };
                if day > notice.cure_by {
                    let cited = self.cure_citation().unwrap_or(life);
                    return refuse(
                        format!("o prazo para corrigir terminou em {}", notice.cure_by),
                        &[cited],
                    );
                }
                next.notice = None;
            }
            LifeStep::Cassate => {
                next.status = EndGround::Cassation.status();
                next.ended = Some(EndGround::Cassation);
                next.reserve = None;
                next.notice = None;
            }
            LifeStep::End { ground } => {
                let Some(rule) = self.end_rule(*ground) else {
                    return refuse(
                        format!(
                            "{} não é hipótese de extinção que a lei preveja (hipóteses: {})",
                            ground.portuguese(),
                            self.rules
                                .ends
                                .iter()
                                .map(|e| e.ground.portuguese())
                                .collect::<Vec<_>>()
                                .join("; ")
                        ),
                        &[life],
                    );
                };
                if let Some(kind) = rule.holder
                    && kind != holder.kind
                {
                    let who = match kind {
                        PersonKind::Person => "a pessoa física",
                        PersonKind::Company => "a empresa",
                    };
                    return refuse(
                        format!("{} só extingue a permissão de {who}", ground.portuguese()),
                        &[&rule.citation],
                    );
                }
                if let Some(reason) = self.not_yet(state, rule, day, holder) {
                    let mut cited = vec![rule.citation.as_str()];
                    if rule.after == EndAfter::Notice {
                        cited.extend(self.cure_citation());
                    }
                    return refuse(reason, &cited);
                }
                next.status = ground.status();
                next.ended = Some(*ground);
                next.reserve = None;
                next.notice = None;
            }
        }
        Ok(Ok(next))
    }

    /// Whether a suspension of `spec` may run from `day` to `until` (`days`
    /// days): its fixed days, its range, or its months or years.
    fn lasts(
        &self,
        spec: &crate::model::SanctionSpec,
        day: NaiveDate,
        until: NaiveDate,
        days: u32,
    ) -> Result<bool, EngineError> {
        let whole = |q: &Option<crate::model::Quantity>| -> Result<Option<u32>, EngineError> {
            q.as_ref()
                .map(|q| self.ctx.whole(q, day, "dias"))
                .transpose()
        };
        if let Some(fixed) = whole(&spec.days)? {
            return Ok(days == fixed);
        }
        if let Some(max) = whole(&spec.max_days)? {
            let min = whole(&spec.min_days)?.unwrap_or(1);
            return Ok((min..=max).contains(&days));
        }
        let months = match (whole(&spec.months)?, whole(&spec.years)?) {
            (Some(m), _) => m,
            (None, Some(y)) => y.saturating_mul(12),
            (None, None) => return Ok(true),
        };
        Ok(add_months(day, months).pred_opt() == Some(until))
    }

    /// The article of the time to correct before a caducity.
    fn cure_citation(&self) -> Option<&'r str> {
        self.ctx
            .rulebook
            .deadlines
            .iter()
            .find(|d| d.kind == DeadlineKind::CaducityCure)
            .map(|d| d.citation.as_str())
    }

    /// Why `rule`'s ground may not be declared on `day`, if it may not.
    fn not_yet(
        &self,
        state: &LifeState,
        rule: &EndRule,
        day: NaiveDate,
        holder: Holder,
    ) -> Option<String> {
        if rule.ground == EndGround::Cassation {
            return Some(
                "a cassação é penalidade: aplica-se quando se torna definitivo o auto que a \
                 propõe (passo cassate)"
                    .into(),
            );
        }
        match rule.after {
            EndAfter::Any => None,
            EndAfter::Term => match state.expires {
                Some(expires) if day > expires => None,
                Some(expires) => Some(format!("o prazo da permissão vai até {expires}")),
                None => Some("a permissão não tem prazo".into()),
            },
            EndAfter::Notice => match &state.notice {
                Some(n) if day > n.cure_by => None,
                Some(n) => Some(format!("o prazo para corrigir vai até {}", n.cure_by)),
                None => Some(
                    "a caducidade é precedida de notificação com prazo para corrigir as falhas"
                        .into(),
                ),
            },
            EndAfter::Reserve => match &state.reserve {
                Some(r) if day > r.until => None,
                Some(r) => Some(format!("a reserva vai até {}", r.until)),
                None => Some("a permissão não está em reserva vencida sem retorno".into()),
            },
            EndAfter::Age(age) => match holder.born {
                None => Some("a data de nascimento do titular não está registrada".into()),
                Some(born) => {
                    let reached = anniversary(born, age);
                    if day >= reached {
                        None
                    } else {
                        Some(format!("o titular completa {age} anos em {reached}"))
                    }
                }
            },
        }
    }
}

/// The last day of `days` days from `first`.
fn last_of(first: NaiveDate, days: u32) -> NaiveDate {
    first + chrono::Days::new(u64::from(days.saturating_sub(1)))
}

/// The day someone born on `born` turns `age` (29 February: 1 March).
fn anniversary(born: NaiveDate, age: u32) -> NaiveDate {
    let year = born
        .year()
        .saturating_add(i32::try_from(age).unwrap_or(i32::MAX));
    NaiveDate::from_ymd_opt(year, born.month(), born.day())
        .or_else(|| NaiveDate::from_ymd_opt(year, 3, 1))
        .unwrap_or(NaiveDate::MAX)
}

/// Whether a holder whose delegation was ended by caducity on `declared`
/// is still barred from a new one on `on` (Amapá art. 18, § 6º: 24
/// months), and until when: the rulebook's `caducity_bar`; none when the law
/// sets no bar.
pub fn caducity_bar<'r>(
    ctx: &Context<'r>,
    declared: NaiveDate,
    on: NaiveDate,
) -> Result<Option<(NaiveDate, &'r str)>, EngineError> {
    if ctx.rulebook.deadline(DeadlineKind::CaducityBar).is_none() {
        return Ok(None);
    }
    let bar = deadline(ctx, DeadlineKind::CaducityBar, declared)?;
    Ok((on <= bar.due).then(|| (bar.due, bar.citations.first().copied().unwrap_or_default())))
}

#[cfg(test)]
mod tests {
    use super::anniversary;
    use chrono::NaiveDate;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).expect("date")
    }

    #[test]
    fn a_birthday_on_29_february_falls_on_1_march() {
        assert_eq!(anniversary(d(1960, 2, 29), 65), d(2025, 3, 1));
        assert_eq!(anniversary(d(1960, 5, 10), 65), d(2025, 5, 10));
    }
}
