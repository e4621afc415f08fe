//! The procedure of an auto de infração as a pure state machine: a state, a
//! step and its day give the next state, or a refusal naming the articles
//! that refuse it. The rulebook's `[procedure]` says who judges and which
//! appeals lie; its deadlines bound each step; the penalty the engine
//! proposes is what is at stake (`Stake`), and decides what the authority may
//! choose (days within a range), what applies at once and what only once the
//! decision is final (the defense and the appeal suspend it).

use crate::context::{Context, EngineError};
use crate::engine::deadline::{deadline, deadline_lasting, moment};
use crate::engine::sanctions::Sanction;
use crate::model::{DeadlineKind, Procedure, SanctionKind};
use chrono::{Days, Months, NaiveDate, NaiveDateTime};

crate::vocab::vocabulary! {
    /// Where an auto's procedure stands.
    pub enum Status {
        /// Issued, not yet notified.
        Issued = "issued",
        /// A notice of irregularity, within its time to cure.
        AwaitingCure = "awaiting_cure",
        /// The irregularity was corrected in time: nothing follows.
        Cured = "cured",
        /// Notified: the defense runs, then the judgement.
        Notified = "notified",
        /// Judged and upheld, the decision not yet notified.
        Judged = "judged",
        /// The decision was notified: the appeal runs.
        DecisionNotified = "decision_notified",
        Appealed = "appealed",
        /// The decision is final: its penalties apply.
        Final = "final",
        /// Not notified in time.
        Archived = "archived",
        /// Not upheld.
        Annulled = "annulled",
    }
}

impl Status {
    /// Nothing more can happen to the auto.
    pub fn is_closed(self) -> bool {
        matches!(
            self,
            Status::Cured | Status::Final | Status::Archived | Status::Annulled
        )
    }

    /// The status as staff read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            Status::Issued => "lavrado, aguardando notificação",
            Status::AwaitingCure => "notificado da irregularidade, no prazo para saná-la",
            Status::Cured => "irregularidade sanada",
            Status::Notified => "notificado, no prazo de defesa ou aguardando julgamento",
            Status::Judged => "julgado, aguardando a notificação da decisão",
            Status::DecisionNotified => "com a decisão notificada, no prazo de recurso",
            Status::Appealed => "em recurso",
            Status::Final => "com decisão definitiva",
            Status::Archived => "arquivado",
            Status::Annulled => "anulado",
        }
    }
}

crate::vocab::vocabulary! {
    /// A step of the procedure.
    pub enum StepKind {
        Notify = "notify",
        Defend = "defend",
        Judge = "judge",
        NotifyDecision = "notify_decision",
        Appeal = "appeal",
        DecideAppeal = "decide_appeal",
        Finalize = "finalize",
        Archive = "archive",
        Cure = "cure",
        NotCured = "not_cured",
        /// The holder is told when the verification inspection of a notice
        /// of irregularity takes place.
        ScheduleVerification = "schedule_verification",
        /// The vehicle (or document) held on the spot is released.
        Release = "release",
    }
}

impl StepKind {
    /// The step as staff read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            StepKind::Notify => "notificação do auto",
            StepKind::Defend => "defesa",
            StepKind::Judge => "julgamento",
            StepKind::NotifyDecision => "notificação da decisão",
            StepKind::Appeal => "recurso",
            StepKind::DecideAppeal => "decisão do recurso",
            StepKind::Finalize => "decisão definitiva",
            StepKind::Archive => "arquivamento",
            StepKind::Cure => "irregularidade sanada",
            StepKind::NotCured => "irregularidade não sanada",
            StepKind::ScheduleVerification => "comunicação da vistoria de verificação",
            StepKind::Release => "liberação do veículo ou documento retido",
        }
    }

    /// Whether the deciding authority (the board) takes it; the others are
    /// recorded by the department's staff.
    pub fn decides(self) -> bool {
        matches!(self, StepKind::Judge | StepKind::DecideAppeal)
    }
}

/// The set of `[[grounds]]` on which a defense or an appeal is not admitted.
pub const NOT_ADMITTED: &str = "not_admitted";

/// What the authority decided.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Decision {
    /// The auto stands (false: annulled).
    pub upheld: bool,
    /// The days fixed, where the law gives a range.
    pub days: Option<u32>,
    /// The penalties chosen, where the law lets the authority choose among
    /// them; none: those proposed.
    pub sanctions: Option<Vec<SanctionKind>>,
    /// The defense or appeal was not admitted (não conhecido), on this
    /// ground of the procedure's list: the auto stands without its merits
    /// being weighed.
    pub not_admitted: Option<String>,
    /// The authority that decided, where the law reserves the decision
    /// (the key of `[[procedure.reserved]]`); none: the judge.
    pub by: Option<String>,
    /// On appeal: the appellant was told the decision may worsen the
    /// penalty and could argue before it (Lei 9.784/1999, art. 64,
    /// parágrafo único); without it, the appeal may not worsen it.
    pub heard: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `cure_days`: the time to cure a notice of irregularity sets (none:
    /// the rulebook's `cure` limit).
    Notify {
        cure_days: Option<u32>,
    },
    Defend,
    Judge(Decision),
    NotifyDecision,
    /// `deposit`: a deposit was made; none may be demanded (STF Súmula
    /// Vinculante 21).
    Appeal {
        deposit: bool,
    },
    DecideAppeal(Decision),
    Finalize,
    Archive,
    Cure,
    NotCured,
    /// The holder was told at `told` that the verification inspection takes
    /// place at `inspection`.
    ScheduleVerification {
        told: NaiveDateTime,
        inspection: NaiveDateTime,
    },
    /// What was seized or retained on the spot is released (once each
    /// measure's minimum has run).
    Release,
}

impl Step {
    /// The step of `kind` with the fields a caller read for it: `upheld`,
    /// `days` and `sanctions` belong to the steps that decide (and `upheld`
    /// is required there), `deposit` to the appeal.
    pub fn build(kind: StepKind, fields: StepFields) -> Result<Step, Misfit> {
        let decides = kind.decides();
        if !decides
            && (fields.upheld.is_some()
                || fields.days.is_some()
                || fields.sanctions.is_some()
                || fields.not_admitted.is_some())
        {
            return Err(Misfit::DecisionOutsideDecision);
        }
        if fields.not_admitted.is_some() && fields.upheld == Some(false) {
            return Err(Misfit::NotAdmittedAnnulled);
        }
        if fields.deposit.is_some() && kind != StepKind::Appeal {
            return Err(Misfit::DepositOutsideAppeal);
        }
        if fields.heard.is_some() && kind != StepKind::DecideAppeal {
            return Err(Misfit::HeardOutsideAppeal);
        }
        if fields.cure_days.is_some() && kind != StepKind::Notify {
            return Err(Misfit::CureDaysOutsideNotify);
        }
        if fields.cure_days == Some(0) {
            return Err(Misfit::NoCureDays);
        }
        let verification = (fields.told, fields.inspection);
        if verification != (None, None) && kind != StepKind::ScheduleVerification {
            return Err(Misfit::VerificationOutsideSchedule);
        }
        let decision = || -> Result<Decision, Misfit> {
            // Not admitted, the auto stands: `upheld` may go unsaid.
            let upheld = match (&fields.not_admitted, fields.upheld) {
                (Some(_), _) => true,
                (None, upheld) => upheld.ok_or(Misfit::UpheldMissing)?,
            };
            Ok(Decision {
                upheld,
                days: fields.days,
                sanctions: fields.sanctions.clone(),
                not_admitted: fields.not_admitted.clone(),
                by: None,
                heard: fields.heard.unwrap_or(false),
            })
        };
        Ok(match kind {
            StepKind::Notify => Step::Notify {
                cure_days: fields.cure_days,
            },
            StepKind::Defend => Step::Defend,
            StepKind::Judge => Step::Judge(decision()?),
            StepKind::NotifyDecision => Step::NotifyDecision,
            StepKind::Appeal => Step::Appeal {
                deposit: fields.deposit.unwrap_or(false),
            },
            StepKind::DecideAppeal => Step::DecideAppeal(decision()?),
            StepKind::Finalize => Step::Finalize,
            StepKind::Archive => Step::Archive,
            StepKind::Cure => Step::Cure,
            StepKind::NotCured => Step::NotCured,
            StepKind::ScheduleVerification => match verification {
                (Some(told), Some(inspection)) => Step::ScheduleVerification { told, inspection },
                _ => return Err(Misfit::VerificationMissing),
            },
            StepKind::Release => Step::Release,
        })
    }

    /// The step with the authority that decided it (`by`), where the law
    /// reserves the decision; none when `by` is given to a step other than
    /// a judgement.
    pub fn decided_by(self, by: Option<String>) -> Option<Step> {
        match (self, by) {
            (step, None) => Some(step),
            (Step::Judge(decision), by) => Some(Step::Judge(Decision { by, ..decision })),
            (_, Some(_)) => None,
        }
    }

    pub fn kind(&self) -> StepKind {
        match self {
            Step::Notify { .. } => StepKind::Notify,
            Step::Defend => StepKind::Defend,
            Step::Judge(_) => StepKind::Judge,
            Step::NotifyDecision => StepKind::NotifyDecision,
            Step::Appeal { .. } => StepKind::Appeal,
            Step::DecideAppeal(_) => StepKind::DecideAppeal,
            Step::Finalize => StepKind::Finalize,
            Step::Archive => StepKind::Archive,
            Step::Cure => StepKind::Cure,
            Step::NotCured => StepKind::NotCured,
            Step::ScheduleVerification { .. } => StepKind::ScheduleVerification,
            Step::Release => StepKind::Release,
        }
    }
}

/// The fields a step was given, as its caller read them (the sanction
/// kinds already parsed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StepFields {
    pub upheld: Option<bool>,
    pub days: Option<u32>,
    pub sanctions: Option<Vec<SanctionKind>>,
    pub deposit: Option<bool>,
    pub not_admitted: Option<String>,
    pub cure_days: Option<u32>,
    /// `decide_appeal`: the appellant was told of a possible worsening.
    pub heard: Option<bool>,
    /// When the holder was told of the verification inspection, and when
    /// it takes place.
    pub told: Option<NaiveDateTime>,
    pub inspection: Option<NaiveDateTime>,
}

/// Why the fields given do not fit the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Misfit {
    /// `upheld`, `days` or `sanctions` on a step that decides nothing.
    DecisionOutsideDecision,
    /// `deposit` on a step other than the appeal.
    DepositOutsideAppeal,
    /// A judgement or an appeal's decision without `upheld`.
    UpheldMissing,
    /// `not_admitted` with `upheld: false`: what is not admitted annuls nothing.
    NotAdmittedAnnulled,
    /// `cure_days` on a step other than the notification.
    CureDaysOutsideNotify,
    /// `cure_days` of zero: the notice sets a time to cure.
    NoCureDays,
    /// `told` or `inspection` on a step other than `schedule_verification`.
    VerificationOutsideSchedule,
    /// `schedule_verification` without `told` and `inspection`.
    VerificationMissing,
    /// `heard` on a step other than the decision of an appeal.
    HeardOutsideAppeal,
}

/// What the procedure needs to know of one sanction at stake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stake<'a> {
    pub kind: SanctionKind,
    pub days: Option<u32>,
    pub min_days: Option<u32>,
    pub max_days: Option<u32>,
    pub years: Option<u32>,
    pub months: Option<u32>,
    /// At least this many hours (a measure's minimum).
    pub min_hours: Option<u32>,
    /// `days` are business days, from the day after it starts.
    pub business_days: bool,
    /// The article that applies it on the spot, from the auto on.
    pub at_once: Option<&'a str>,
    /// The deciding authority may impose it or not.
    pub optional: bool,
    pub citations: Vec<&'a str>,
}

impl<'a> Stake<'a> {
    pub fn of(sanction: &Sanction<'a>) -> Self {
        Stake {
            kind: sanction.kind,
            days: sanction.days,
            min_days: sanction.min_days,
            max_days: sanction.max_days,
            years: sanction.years,
            months: sanction.months,
            min_hours: sanction.min_hours,
            business_days: sanction.business_days,
            at_once: sanction.at_once,
            optional: sanction.optional,
            citations: sanction.citations.to_vec(),
        }
    }

    /// The range the authority chooses the days in, when the law gives one
    /// and fixes no length.
    fn range(&self) -> Option<(u32, u32)> {
        match (self.days, self.max_days) {
            (None, Some(max)) => Some((self.min_days.unwrap_or(1), max)),
            _ => None,
        }
    }

    /// Whether it is a measure of the procedure itself, not a penalty in force.
    fn is_procedural(&self) -> bool {
        self.kind.is_procedural()
    }
}

/// The sanctions at stake: those proposed for the auto, and where the
/// proposal is a notice of irregularity, those that follow if it is not cured.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Stakes<'a> {
    pub found: Vec<Stake<'a>>,
    pub uncured: Vec<Stake<'a>>,
    /// What the authority may decide instead, with the article.
    pub options: Vec<(Vec<Stake<'a>>, &'a str)>,
}

/// Where an auto's procedure stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct State {
    pub status: Status,
    /// The day the auto was issued, or the day a notice of irregularity
    /// was found not cured (and became the auto).
    pub issued: NaiveDate,
    /// The day of the last step.
    pub last: NaiveDate,
    pub notified: Option<NaiveDate>,
    pub defended: Option<NaiveDate>,
    pub decision_notified: Option<NaiveDate>,
    pub appealed: Option<NaiveDate>,
    /// Appeals decided so far: the next appeal goes to `appeals[instance]`.
    pub instance: usize,
    /// The decision in force.
    pub decision: Option<Decision>,
    /// The day it closed (final, archived, annulled, cured).
    pub closed: Option<NaiveDate>,
    /// A notice of irregularity found not cured: the uncured stakes apply.
    pub uncured: bool,
    /// The day what was held on the spot was released.
    pub released: Option<NaiveDate>,
    /// The time to cure the notice of irregularity set (none: the
    /// rulebook's `cure` limit).
    pub cure_days: Option<u32>,
    /// When the verification inspection of a notice of irregularity takes
    /// place, as the holder was told.
    pub verification: Option<NaiveDateTime>,
}

/// A time limit of the procedure and its last day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit<'r> {
    pub kind: DeadlineKind,
    pub due: NaiveDate,
    pub citation: &'r str,
}

/// Why a step may not be taken, in Portuguese, and the articles that say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub reason: String,
    pub citations: Vec<String>,
}

/// A sanction in force: which stake, the days decided, from when and its
/// last day (none: it does not lapse).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effect {
    /// The option of the procedure's choices it comes from (none: the proposal).
    pub option: Option<usize>,
    pub stake: usize,
    pub days: Option<u32>,
    pub from: NaiveDate,
    pub until: Option<NaiveDate>,
}

/// The procedure of a rulebook, with the context its limits are counted in.
#[derive(Debug, Clone, Copy)]
pub struct Machine<'c, 'r> {
    pub ctx: &'c Context<'r>,
    pub procedure: &'r Procedure,
}

fn refuse<T>(reason: String, citations: Vec<&str>) -> Outcome<T> {
    Ok(Err(Refusal {
        reason,
        citations: citations.into_iter().map(str::to_string).collect(),
    }))
}

/// A step's result: the next state, or the law's refusal; an error is a
/// question the engine cannot answer (a parameter without a value).
pub type Outcome<T> = Result<Result<T, Refusal>, EngineError>;

impl<'c, 'r> Machine<'c, 'r> {
    /// The machine of the rulebook's procedure, when it has one.
    pub fn of(ctx: &'c Context<'r>) -> Result<Self, EngineError> {
        let procedure = ctx.rulebook.procedure.as_ref().ok_or_else(|| {
            EngineError::NotInRulebook("o processo do auto (`[procedure]`)".into())
        })?;
        Ok(Machine { ctx, procedure })
    }

    /// The state of an auto (or a notice of irregularity) just issued on
    /// `day`: it waits for its notification.
    pub fn start(&self, day: NaiveDate) -> State {
        State {
            status: Status::Issued,
            issued: day,
            last: day,
            notified: None,
            defended: None,
            decision_notified: None,
            appealed: None,
            instance: 0,
            decision: None,
            closed: None,
            uncured: false,
            released: None,
            cure_days: None,
            verification: None,
        }
    }

    /// The sanctions that apply now: the uncured ones once a notice of
    /// irregularity was found not cured.
    pub fn in_play<'s, 'a>(&self, stakes: &'s Stakes<'a>, state: &State) -> &'s [Stake<'a>] {
        if state.uncured {
            &stakes.uncured
        } else {
            &stakes.found
        }
    }

    fn limit(&self, kind: DeadlineKind, from: NaiveDate) -> Result<Option<Limit<'r>>, EngineError> {
        if self.ctx.rulebook.deadline(kind).is_none() {
            return Ok(None);
        }
        let d = deadline(self.ctx, kind, from)?;
        Ok(Some(Limit {
            kind,
            due: d.due,
            citation: d.citations[0],
        }))
    }

    /// The time to cure, from the notice: the days the notice set, or the
    /// rulebook's, counted as the rulebook counts it.
    fn cure_limit(
        &self,
        state: &State,
        notified: NaiveDate,
    ) -> Result<Option<Limit<'r>>, EngineError> {
        let Some(days) = state.cure_days else {
            return self.limit(DeadlineKind::Cure, notified);
        };
        if self.ctx.rulebook.deadline(DeadlineKind::Cure).is_none() {
            return Ok(None);
        }
        let d = deadline_lasting(self.ctx, DeadlineKind::Cure, notified, days)?;
        Ok(Some(Limit {
            kind: DeadlineKind::Cure,
            due: d.due,
            citation: d.citations[0],
        }))
    }

    /// The limits that govern the state: the one the next step must keep
    /// (or whose lapse allows it), running or not.
    pub fn limits(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
    ) -> Result<Vec<Limit<'r>>, EngineError> {
        let mut limits = Vec::new();
        let mut add = |limit: Option<Limit<'r>>| limits.extend(limit);
        match state.status {
            Status::Issued => add(self.limit(DeadlineKind::Notification, state.issued)?),
            Status::AwaitingCure | Status::Notified => {
                if let Some(notified) = state.notified {
                    if state.status == Status::AwaitingCure {
                        add(self.cure_limit(state, notified)?);
                    }
                    add(self.limit(DeadlineKind::Defense, notified)?);
                }
                if let (Some(defended), None) = (state.defended, &state.decision) {
                    add(self.limit(DeadlineKind::Judgement, defended)?);
                }
            }
            Status::DecisionNotified => {
                if let (Some(from), Some(appeal)) = (
                    state.decision_notified,
                    self.procedure.appeals.get(state.instance),
                ) {
                    add(self.limit(appeal.limit, from)?);
                }
            }
            Status::Final => {
                let fined = self
                    .in_play(stakes, state)
                    .iter()
                    .any(|s| s.kind == SanctionKind::Fine);
                // From the notice of the auto when no defense was filed
                // (SMJ art. 48, I; Canguçu Anexo I art. 13), else from the
                // day the decision became final.
                let from = match state.defended {
                    None => state.notified,
                    Some(_) => state.closed,
                };
                if let (true, Some(from)) = (fined, from) {
                    add(self.limit(DeadlineKind::Payment, from)?);
                }
            }
            _ => {}
        }
        Ok(limits)
    }

    /// The limits still running on `today` (a limit ending today still runs).
    pub fn open(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
        today: NaiveDate,
    ) -> Result<Vec<Limit<'r>>, EngineError> {
        let mut limits = self.limits(stakes, state)?;
        limits.retain(|l| l.due >= today);
        Ok(limits)
    }

    fn governing(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
        kind: DeadlineKind,
    ) -> Result<Option<Limit<'r>>, EngineError> {
        Ok(self
            .limits(stakes, state)?
            .into_iter()
            .find(|l| l.kind == kind))
    }

    /// Takes `step` on `day`: the next state, or why the law refuses it.
    pub fn take(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
        step: &Step,
        day: NaiveDate,
    ) -> Outcome<State> {
        let procedure = &self.procedure.citation;
        if day < state.last {
            return refuse(
                format!(
                    "{} em {day} é anterior ao último ato do processo ({})",
                    step.kind().portuguese(),
                    state.last
                ),
                vec![procedure],
            );
        }
        let mut next = state.clone();
        next.last = day;
        let appeals = &self.procedure.appeals;
        match (state.status, step) {
            (Status::Issued, Step::Notify { cure_days }) => {
                if let Some(limit) = self.governing(stakes, state, DeadlineKind::Notification)?
                    && day > limit.due
                {
                    return refuse(
                        format!(
                            "o prazo para notificar terminou em {}: o auto deve ser arquivado",
                            limit.due
                        ),
                        vec![limit.citation],
                    );
                }
                let notice = self
                    .in_play(stakes, state)
                    .iter()
                    .any(|s| s.kind == SanctionKind::NoticeOfIrregularity);
                if cure_days.is_some() && !notice {
                    return refuse(
                        "só a notificação de irregularidade fixa prazo para sanar".into(),
                        vec![procedure],
                    );
                }
                next.status = if notice {
                    Status::AwaitingCure
                } else {
                    Status::Notified
                };
                next.notified = Some(day);
                next.cure_days = *cure_days;
            }
            (Status::Issued, Step::Archive) => {
                let Some(limit) = self.governing(stakes, state, DeadlineKind::Notification)? else {
                    return refuse(
                        "a lei não fixa prazo para notificar: o auto não se arquiva por isso"
                            .into(),
                        vec![procedure],
                    );
                };
                if day <= limit.due {
                    return refuse(
                        format!("ainda é possível notificar até {}", limit.due),
                        vec![limit.citation],
                    );
                }
                next.status = Status::Archived;
                next.closed = Some(day);
            }
            (Status::AwaitingCure, Step::Cure | Step::NotCured) => {
                let Some(limit) = self.governing(stakes, state, DeadlineKind::Cure)? else {
                    return Err(EngineError::NotInRulebook(
                        "o prazo para sanar (`cure`)".into(),
                    ));
                };
                let cure = matches!(step, Step::Cure);
                if let (false, Some(at)) = (cure, state.verification)
                    && day < at.date()
                {
                    return refuse(
                        format!(
                            "a vistoria de verificação foi marcada para {}: só ela constata a irregularidade não sanada",
                            at.format("%Y-%m-%d %H:%M")
                        ),
                        vec![self.verification_citation()],
                    );
                }
                match (cure, day > limit.due) {
                    (true, true) => {
                        return refuse(
                            format!(
                                "o prazo para sanar a irregularidade terminou em {}",
                                limit.due
                            ),
                            vec![limit.citation],
                        );
                    }
                    (false, false) => {
                        return refuse(
                            format!(
                                "o prazo para sanar a irregularidade corre até {}: a verificação é depois dele",
                                limit.due
                            ),
                            vec![limit.citation],
                        );
                    }
                    (true, false) => {
                        next.status = Status::Cured;
                        next.closed = Some(day);
                    }
                    (false, true) => {
                        next.status = Status::Issued;
                        next.issued = day;
                        next.uncured = true;
                        next.notified = None;
                        next.defended = None;
                        next.decision = None;
                        next.verification = None;
                    }
                }
            }
            (Status::AwaitingCure, Step::ScheduleVerification { told, inspection }) => {
                if told.date() != day {
                    return refuse(
                        format!("a comunicação é de {}, não de {day}", told.date()),
                        vec![procedure],
                    );
                }
                let notice =
                    match moment(self.ctx, DeadlineKind::VerificationInspectionNotice, *told) {
                        Ok(notice) => notice,
                        Err(EngineError::NotInRulebook(_)) => {
                            return refuse(
                                "o regulamento não prevê a comunicação da vistoria de verificação"
                                    .into(),
                                vec![procedure],
                            );
                        }
                        Err(e) => return Err(e),
                    };
                if *inspection < notice.due {
                    return refuse(
                        format!(
                            "a vistoria se comunica com {} horas de antecedência, no mínimo: comunicada em {}, pode realizar-se a partir de {}",
                            (notice.due - *told).num_hours(),
                            told.format("%Y-%m-%d %H:%M"),
                            notice.due.format("%Y-%m-%d %H:%M")
                        ),
                        notice.citations,
                    );
                }
                next.verification = Some(*inspection);
            }
            (Status::Notified | Status::AwaitingCure, Step::Defend) => {
                if let Some(defended) = state.defended {
                    return refuse(
                        format!("a defesa já foi apresentada em {defended}"),
                        vec![procedure],
                    );
                }
                if let Some(limit) = self.governing(stakes, state, DeadlineKind::Defense)?
                    && day > limit.due
                {
                    return refuse(
                        format!("defesa fora do prazo, que terminou em {}", limit.due),
                        vec![limit.citation],
                    );
                }
                next.defended = Some(day);
            }
            (Status::Notified, Step::Judge(decision)) => {
                if state.defended.is_none()
                    && let Some(limit) = self.governing(stakes, state, DeadlineKind::Defense)?
                    && day <= limit.due
                {
                    return refuse(
                        format!(
                            "o prazo de defesa corre até {}: julga-se depois dele ou da defesa",
                            limit.due
                        ),
                        vec![limit.citation],
                    );
                }
                if let Err(refusal) = self
                    .decided_by(stakes, state, decision)
                    .and_then(|()| self.check(stakes, state, decision))
                {
                    return Ok(Err(refusal));
                }
                next.decision = Some(decision.clone());
                next.status = match (decision.upheld, appeals.is_empty()) {
                    (false, _) => Status::Annulled,
                    (true, true) => Status::Final,
                    (true, false) => Status::Judged,
                };
                if next.status.is_closed() {
                    next.closed = Some(day);
                }
            }
            // A defense against a notice of irregularity (Canguçu Anexo I
            // art. 21) is judged while the cure runs: upheld, the notice
            // stands and its time to cure runs on; not upheld, it falls.
            (Status::AwaitingCure, Step::Judge(decision)) => {
                if state.defended.is_none() {
                    return refuse(
                        "a notificação de irregularidade só se julga quando há defesa contra ela"
                            .into(),
                        vec![procedure],
                    );
                }
                if state.decision.is_some() {
                    return refuse(
                        "a defesa contra a notificação já foi julgada".into(),
                        vec![procedure],
                    );
                }
                if let Err(refusal) = self.check(stakes, state, decision) {
                    return Ok(Err(refusal));
                }
                next.decision = Some(decision.clone());
                if !decision.upheld {
                    next.status = Status::Annulled;
                    next.closed = Some(day);
                }
            }
            (Status::Judged, Step::NotifyDecision) => {
                next.status = Status::DecisionNotified;
                next.decision_notified = Some(day);
            }
            (Status::DecisionNotified, Step::Appeal { .. }) => {
                if let Some(limit) = self.appeal_limit(stakes, state)?
                    && day > limit.due
                {
                    return refuse(
                        format!("recurso fora do prazo, que terminou em {}", limit.due),
                        vec![limit.citation],
                    );
                }
                next.status = Status::Appealed;
                next.appealed = Some(day);
            }
            (Status::Notified, Step::Finalize) => {
                // No defense within its limit: the penalty stands.
                if let Some(defended) = state.defended {
                    return refuse(
                        format!(
                            "a defesa apresentada em {defended} deve ser julgada antes da decisão definitiva"
                        ),
                        vec![procedure],
                    );
                }
                if let Some(limit) = self.governing(stakes, state, DeadlineKind::Defense)?
                    && day <= limit.due
                {
                    return refuse(
                        format!("o prazo de defesa corre até {}", limit.due),
                        vec![limit.citation],
                    );
                }
                next.status = Status::Final;
                next.closed = Some(day);
                next.decision = Some(Decision {
                    upheld: true,
                    ..Decision::default()
                });
            }
            (Status::DecisionNotified, Step::Finalize) => {
                if let Some(limit) = self.appeal_limit(stakes, state)?
                    && day <= limit.due
                {
                    return refuse(
                        format!("o prazo de recurso corre até {}", limit.due),
                        vec![limit.citation],
                    );
                }
                next.status = Status::Final;
                next.closed = Some(day);
            }
            (Status::Appealed, Step::DecideAppeal(decision)) => {
                // An appeal denied without a word on the penalty keeps the
                // one decided below.
                if decision.not_admitted.is_some()
                    && (decision.days.is_some() || decision.sanctions.is_some())
                {
                    return refuse(
                        "recurso não conhecido: prevalece a decisão recorrida, sem nova pena"
                            .into(),
                        vec![
                            appeals
                                .get(state.instance)
                                .map_or(procedure.as_str(), |a| a.citation.as_str()),
                        ],
                    );
                }
                let decision = match (&state.decision, decision) {
                    (
                        Some(below),
                        Decision {
                            upheld: true,
                            days: None,
                            sanctions: None,
                            not_admitted,
                            by: _,
                            heard,
                        },
                    ) => Decision {
                        not_admitted: not_admitted.clone(),
                        heard: *heard,
                        ..below.clone()
                    },
                    _ => decision.clone(),
                };
                if let Err(refusal) = self
                    .check(stakes, state, &decision)
                    .and_then(|()| self.no_worse(stakes, state, &decision))
                {
                    return Ok(Err(refusal));
                }
                let upheld = decision.upheld;
                next.decision = Some(decision);
                next.instance = state.instance + 1;
                next.status = match (upheld, next.instance < appeals.len()) {
                    (false, _) => Status::Annulled,
                    (true, true) => Status::Judged,
                    (true, false) => Status::Final,
                };
                if next.status.is_closed() {
                    next.closed = Some(day);
                }
            }
            (_, Step::Release) => {
                let held: Vec<&Stake<'_>> = self
                    .in_play(stakes, state)
                    .iter()
                    .filter(|s| s.at_once.is_some() && !s.is_procedural())
                    .collect();
                if held.is_empty() {
                    return refuse(
                        "nada foi retido ou apreendido no ato por este auto".into(),
                        vec![procedure],
                    );
                }
                if let Some(released) = state.released {
                    return refuse(
                        format!("o que foi retido no ato já foi liberado em {released}"),
                        held.iter()
                            .flat_map(|s| s.citations.iter().copied())
                            .collect(),
                    );
                }
                // Each measure's minimum runs from the auto: its days
                // (business days where the law says so), or its hours
                // (whole days of them).
                for stake in held {
                    let days = stake.days.or(stake.min_hours.map(|h| h.div_ceil(24)));
                    let free_from = self
                        .last_day(stake, state.issued, days)
                        .map_or(state.issued, |last| {
                            last.succ_opt().unwrap_or(NaiveDate::MAX)
                        });
                    if day < free_from {
                        return refuse(
                            format!(
                                "a medida vale até {}: libera-se a partir de {free_from}",
                                free_from.pred_opt().unwrap_or(free_from)
                            ),
                            stake.citations.clone(),
                        );
                    }
                }
                next.released = Some(day);
            }
            (status, step) => {
                let (reason, citation) = self.out_of_order(status, step.kind());
                // A cure asked of what is no notice of irregularity: the
                // rule that makes it a penalty refuses it.
                let notice = self
                    .in_play(stakes, state)
                    .iter()
                    .any(|s| s.kind == SanctionKind::NoticeOfIrregularity);
                let rule = self
                    .in_play(stakes, state)
                    .iter()
                    .find(|s| !s.is_procedural() && s.at_once.is_none())
                    .and_then(|s| s.citations.first().copied());
                let citation = match (step.kind(), notice, rule) {
                    (
                        StepKind::Cure | StepKind::NotCured | StepKind::ScheduleVerification,
                        false,
                        Some(rule),
                    ) => rule,
                    _ => citation,
                };
                return refuse(reason, vec![citation]);
            }
        }
        Ok(Ok(next))
    }

    /// Who hears the appeal that lies now (the decision notified, or
    /// appealed), and against which penalties: the appeal's body, or where
    /// it hears only some (Amapá art. 71, § 1º: the CTC, the fines), that
    /// body for those and `otherwise` for the rest (§ 2º). Empty when no
    /// appeal lies.
    pub fn appeal_bodies(&self, stakes: &Stakes<'_>, state: &State) -> Vec<AppealBody<'r>> {
        let Some(appeal) = self
            .procedure
            .appeals
            .get(state.instance)
            .filter(|_| matches!(state.status, Status::DecisionNotified | Status::Appealed))
        else {
            return Vec::new();
        };
        let imposed: Vec<SanctionKind> = match &state.decision {
            Some(decision) => self
                .imposed(stakes, state, decision)
                .into_iter()
                .map(|s| s.kind)
                .collect(),
            None => self
                .in_play(stakes, state)
                .iter()
                .filter(|s| !s.is_procedural() && s.at_once.is_none())
                .map(|s| s.kind)
                .collect(),
        };
        let (heard, rest): (Vec<SanctionKind>, Vec<SanctionKind>) = imposed
            .into_iter()
            .partition(|k| appeal.hears.is_empty() || appeal.hears.contains(k));
        let mut bodies = Vec::new();
        if !heard.is_empty() || rest.is_empty() {
            bodies.push(AppealBody {
                to: &appeal.to,
                citation: &appeal.citation,
                kinds: heard,
            });
        }
        if let (false, Some(otherwise)) = (rest.is_empty(), &appeal.otherwise) {
            bodies.push(AppealBody {
                to: &otherwise.value,
                citation: &otherwise.citation,
                kinds: rest,
            });
        }
        bodies
    }

    /// The article of the verification inspection's notice.
    fn verification_citation(&self) -> &'r str {
        self.ctx
            .rulebook
            .deadline(DeadlineKind::VerificationInspectionNotice)
            .map_or(self.procedure.citation.as_str(), |d| d.citation.as_str())
    }

    fn appeal_limit(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
    ) -> Result<Option<Limit<'r>>, EngineError> {
        let Some(appeal) = self.procedure.appeals.get(state.instance) else {
            return Ok(None);
        };
        self.governing(stakes, state, appeal.limit)
    }

    /// Why a step does not follow from a status, and the article that
    /// orders the procedure.
    fn out_of_order(&self, status: Status, step: StepKind) -> (String, &'r str) {
        let procedure = self.procedure.citation.as_str();
        let needs = match step {
            StepKind::Notify => "só um auto lavrado é notificado",
            StepKind::Archive => "arquiva-se um auto lavrado e não notificado",
            StepKind::Cure | StepKind::NotCured | StepKind::ScheduleVerification => {
                "só uma notificação de irregularidade se sana ou se verifica"
            }
            StepKind::Release => "libera-se o que foi retido no ato",
            StepKind::Defend => "a defesa cabe depois da notificação, antes do julgamento",
            StepKind::Judge => "julga-se um auto notificado",
            StepKind::NotifyDecision => "notifica-se a decisão de um auto julgado",
            StepKind::Appeal => "recorre-se de uma decisão notificada",
            StepKind::DecideAppeal => "decide-se um recurso interposto",
            StepKind::Finalize => {
                "torna-se definitiva a decisão notificada, vencido o prazo de recurso"
            }
        };
        let citation = match step {
            StepKind::Appeal | StepKind::DecideAppeal => self
                .procedure
                .appeals
                .first()
                .map_or(procedure, |a| a.citation.as_str()),
            _ => procedure,
        };
        (
            format!("o auto está {}: {needs}", status.portuguese()),
            citation,
        )
    }

    /// What a decision imposes, or why the law does not allow it. Where
    /// the law lets the authority choose, `sanctions` picks an option (the
    /// proposal or one of the procedure's choices) and, within it, the
    /// sanctions the law leaves optional; `days` fixes a length the law
    /// gives as a range (and then it must be given).
    pub fn selection(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
        decision: &Decision,
    ) -> Result<Selection, Refusal> {
        let proposal = self.in_play(stakes, state);
        let candidates = std::iter::once((None, proposal)).chain(
            stakes
                .options
                .iter()
                .enumerate()
                .filter(|_| !state.uncured)
                .map(|(i, (option, _))| (Some(i), option.as_slice())),
        );
        let penalties = |set: &[Stake<'_>]| -> Vec<usize> {
            (0..set.len())
                .filter(|i| !set[*i].is_procedural() && set[*i].at_once.is_none())
                .collect()
        };
        let (option, chosen): (Option<usize>, Vec<usize>) = match &decision.sanctions {
            None => (
                None,
                penalties(proposal)
                    .into_iter()
                    .filter(|i| {
                        let s = &proposal[*i];
                        !s.optional || (decision.days.is_some() && s.range().is_some())
                    })
                    .collect(),
            ),
            Some(kinds) => {
                let fits = |set: &[Stake<'_>]| {
                    let penalties = penalties(set);
                    kinds
                        .iter()
                        .all(|k| penalties.iter().any(|i| set[*i].kind == *k))
                        && penalties.iter().all(|i| {
                            set[*i].optional
                                || follows(set[*i].kind)
                                || kinds.contains(&set[*i].kind)
                        })
                };
                let Some((option, set)) = candidates.clone().find(|(_, set)| fits(set)) else {
                    // The kinds are the law's, but a penalty it does not
                    // leave to the authority is left out.
                    let left_out = candidates.clone().find_map(|(_, set)| {
                        let penalties = penalties(set);
                        let offered = kinds
                            .iter()
                            .all(|k| penalties.iter().any(|i| set[*i].kind == *k));
                        let missing: Vec<&Stake<'_>> = penalties
                            .iter()
                            .map(|i| &set[*i])
                            .filter(|s| !s.optional && !follows(s.kind) && !kinds.contains(&s.kind))
                            .collect();
                        (offered && !missing.is_empty()).then_some(missing)
                    });
                    if let Some(missing) = left_out {
                        return Err(Refusal {
                            reason: format!(
                                "a lei não deixa à escolha da autoridade {}: a decisão a mantém ao lado de {}",
                                missing
                                    .iter()
                                    .map(|s| s.kind.portuguese())
                                    .collect::<Vec<_>>()
                                    .join(" e "),
                                kinds
                                    .iter()
                                    .map(|k| k.portuguese())
                                    .collect::<Vec<_>>()
                                    .join(" e ")
                            ),
                            citations: missing
                                .iter()
                                .flat_map(|s| s.citations.iter().map(|c| c.to_string()))
                                .collect(),
                        });
                    }
                    return Err(Refusal {
                        reason: format!(
                            "a lei não permite decidir {} neste auto",
                            kinds
                                .iter()
                                .map(|k| k.portuguese())
                                .collect::<Vec<_>>()
                                .join(" e ")
                        ),
                        citations: self.refusing(stakes, kinds),
                    });
                };
                (
                    option,
                    penalties(set)
                        .into_iter()
                        .filter(|i| kinds.contains(&set[*i].kind) || follows(set[*i].kind))
                        .collect(),
                )
            }
        };
        let set = option.map_or(proposal, |i| stakes.options[i].0.as_slice());
        let ranged: Vec<((u32, u32), &Stake<'_>)> = chosen
            .iter()
            .filter_map(|i| set[*i].range().map(|r| (r, &set[*i])))
            .collect();
        if ranged.is_empty() && decision.days.is_some() {
            return Err(Refusal {
                reason: "a lei fixa a duração das penalidades deste auto: não cabe à autoridade fixar dias"
                    .into(),
                citations: vec![self.procedure.citation.clone()],
            });
        }
        for ((min, max), stake) in ranged {
            match decision.days {
                Some(days) if (min..=max).contains(&days) => {}
                days => {
                    return Err(Refusal {
                        reason: format!(
                            "a decisão fixa a duração entre {min} e {max} dias{}",
                            days.map(|d| format!(", não {d}")).unwrap_or_default()
                        ),
                        citations: stake.citations.iter().map(|c| c.to_string()).collect(),
                    });
                }
            }
        }
        Ok(Selection {
            option,
            stakes: chosen,
        })
    }

    /// The articles that refuse a choice of `kinds`: the rule that gives a
    /// kind the auto's penalty lacks, or the article of the choices.
    fn refusing(&self, stakes: &Stakes<'_>, kinds: &[SanctionKind]) -> Vec<String> {
        let rulebook = self.ctx.rulebook;
        let offered = |k: &SanctionKind| {
            stakes.found.iter().any(|s| s.kind == *k)
                || stakes
                    .options
                    .iter()
                    .any(|(o, _)| o.iter().any(|s| s.kind == *k))
        };
        let rule = kinds.iter().filter(|k| !offered(k)).find_map(|k| {
            rulebook
                .sanction_rules
                .iter()
                .find(|r| r.sanctions.iter().any(|s| s.kind == *k))
                .map(|r| r.citation.clone())
        });
        let choice = stakes.options.first().map(|(_, c)| c.to_string());
        vec![
            choice
                .or(rule)
                .unwrap_or_else(|| self.procedure.citation.clone()),
        ]
    }

    fn check(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
        decision: &Decision,
    ) -> Result<(), Refusal> {
        if let Some(key) = &decision.not_admitted {
            self.admissible(state, key)?;
        }
        if decision.upheld {
            self.selection(stakes, state, decision)?;
        }
        Ok(())
    }

    /// The penalties a decision imposes (none when the law does not allow it).
    fn imposed<'s, 'a>(
        &self,
        stakes: &'s Stakes<'a>,
        state: &State,
        decision: &Decision,
    ) -> Vec<&'s Stake<'a>> {
        let Ok(selection) = self.selection(stakes, state, decision) else {
            return Vec::new();
        };
        let set = selection.option.map_or(self.in_play(stakes, state), |i| {
            stakes.options[i].0.as_slice()
        });
        selection.stakes.iter().map(|i| &set[*i]).collect()
    }

    /// An appeal's decision may worsen the penalty decided below only after
    /// the appellant was told so and could argue (Lei 9.784/1999, art. 64,
    /// parágrafo único): worse is a penalty that nothing decided below
    /// outweighs — a graver kind, or the same kind for more days.
    fn no_worse(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
        decision: &Decision,
    ) -> Result<(), Refusal> {
        let Some(below) = state.decision.as_ref().filter(|_| decision.upheld) else {
            return Ok(());
        };
        if decision.heard || !below.upheld {
            return Ok(());
        }
        let imposed = |decision: &Decision| -> Vec<(SanctionKind, Option<u32>)> {
            self.imposed(stakes, state, decision)
                .into_iter()
                .map(|s| {
                    let days = s.days.or(decision.days.filter(|_| s.range().is_some()));
                    (s.kind, days)
                })
                .collect()
        };
        let before = imposed(below);
        let outweighed = |(kind, days): &(SanctionKind, Option<u32>)| {
            before.iter().any(|(k, d)| {
                gravity(*k) > gravity(*kind)
                    || (k == kind && d.unwrap_or(u32::MAX) >= days.unwrap_or(0))
            })
        };
        let Some((kind, days)) = imposed(decision).into_iter().find(|p| !outweighed(p)) else {
            return Ok(());
        };
        let citation = self
            .procedure
            .appeals
            .get(state.instance)
            .map_or(self.procedure.citation.as_str(), |a| a.citation.as_str());
        Err(Refusal {
            reason: format!(
                "o recurso agravaria a decisão recorrida ({}{}): só depois de o recorrente ser cientificado para alegar (Lei 9.784/1999, art. 64, parágrafo único) — registre-o com a decisão",
                kind.portuguese(),
                days.map(|d| format!(", {d} dias")).unwrap_or_default()
            ),
            citations: vec![citation.to_string()],
        })
    }

    /// Who may judge this auto: where its proposal holds a penalty the law
    /// reserves to another authority, the decision must name it (`by`);
    /// elsewhere `by` names no one the law knows.
    fn decided_by(
        &self,
        stakes: &Stakes<'_>,
        state: &State,
        decision: &Decision,
    ) -> Result<(), Refusal> {
        let proposal = self.in_play(stakes, state);
        let reserved = self
            .procedure
            .reserved
            .iter()
            .find(|r| proposal.iter().any(|s| r.kinds.contains(&s.kind)));
        match (reserved, &decision.by) {
            (Some(r), Some(by)) if *by == r.key => Ok(()),
            (Some(r), _) => Err(Refusal {
                reason: format!(
                    "o auto propõe {}: decide {} (registre a decisão com by: {})",
                    r.kinds
                        .iter()
                        .map(|k| k.portuguese())
                        .collect::<Vec<_>>()
                        .join(" ou "),
                    r.by,
                    r.key
                ),
                citations: vec![r.citation.clone()],
            }),
            (None, None) => Ok(()),
            (None, Some(by)) => Err(Refusal {
                reason: format!(
                    "`{by}` não decide este auto: julga {}",
                    self.procedure.judge.value
                ),
                citations: vec![self.procedure.judge.citation.clone()],
            }),
        }
    }

    /// A defense or appeal not admitted (não conhecido) on `key`: there
    /// must be one, and the ground must be one the law lists (`[[grounds]]`
    /// of set `not_admitted`: Canguçu Anexo I art. 24).
    fn admissible(&self, state: &State, key: &str) -> Result<(), Refusal> {
        let procedure = self.procedure.citation.as_str();
        let refusal = |reason: String, citation: &str| Refusal {
            reason,
            citations: vec![citation.to_string()],
        };
        let filed = match state.status {
            Status::Appealed => state.appealed.is_some(),
            _ => state.defended.is_some(),
        };
        if !filed {
            return Err(refusal(
                "não há defesa nem recurso a não conhecer".into(),
                procedure,
            ));
        }
        let grounds: Vec<_> = self
            .ctx
            .rulebook
            .grounds
            .iter()
            .filter(|g| g.set == NOT_ADMITTED)
            .collect();
        if grounds.iter().any(|g| g.key == key) {
            return Ok(());
        }
        Err(refusal(
            if grounds.is_empty() {
                "o regulamento não lista hipóteses de não conhecimento da defesa ou do recurso"
                    .into()
            } else {
                format!(
                    "`{key}` não é hipótese de não conhecimento (hipóteses: {})",
                    grounds
                        .iter()
                        .map(|g| format!("{} — {}", g.key, g.description))
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            },
            grounds.first().map_or(procedure, |g| g.citation.as_str()),
        ))
    }

    /// The last day of a sanction in force from `from` for `days` (or its
    /// months or years): calendar days with `from` the first (15 days from
    /// 1 February end on 15 February), or business days counted from the
    /// day after; none when it does not lapse.
    pub fn last_day(
        &self,
        stake: &Stake<'_>,
        from: NaiveDate,
        days: Option<u32>,
    ) -> Option<NaiveDate> {
        match days {
            Some(days) if stake.business_days => Some(self.ctx.calendar.count(
                from,
                days,
                crate::calendar::Counting::BusinessDays,
            )),
            _ => lapse(from, days, stake.months, stake.years),
        }
    }

    /// The sanctions in force on `today`: measures the law applies at once,
    /// from the auto on, while the auto stands; once the decision is final,
    /// the penalties it imposed (the days decided), from the day it became
    /// final until they lapse.
    pub fn effects(&self, stakes: &Stakes<'_>, state: &State, today: NaiveDate) -> Vec<Effect> {
        let mut effects = Vec::new();
        let mut push = |option: Option<usize>,
                        stake: usize,
                        from: NaiveDate,
                        s: &Stake<'_>,
                        days: Option<u32>| {
            let until = self.last_day(s, from, days);
            if from <= today && until.is_none_or(|u| today <= u) {
                effects.push(Effect {
                    option,
                    stake,
                    days,
                    from,
                    until,
                });
            }
        };
        let ended = matches!(
            state.status,
            Status::Archived | Status::Annulled | Status::Cured
        );
        let proposal = self.in_play(stakes, state);
        if !ended {
            for (index, stake) in proposal.iter().enumerate() {
                if stake.at_once.is_some() && !stake.is_procedural() {
                    if state.released.is_some_and(|r| today >= r) {
                        continue;
                    }
                    push(None, index, state.issued, stake, stake.days);
                }
            }
        }
        if let (Status::Final, Some(closed), Some(decision)) =
            (state.status, state.closed, &state.decision)
            && let Ok(selection) = self.selection(stakes, state, decision)
        {
            let set = selection
                .option
                .map_or(proposal, |i| stakes.options[i].0.as_slice());
            for index in selection.stakes {
                let stake = &set[index];
                if stake.at_once.is_some() {
                    continue;
                }
                let days = stake
                    .days
                    .or(decision.days.filter(|_| stake.range().is_some()));
                push(selection.option, index, closed, stake, days);
            }
        }
        effects
    }
}

/// Who hears an appeal, by which article, against which penalties.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppealBody<'r> {
    pub to: &'r str,
    pub citation: &'r str,
    pub kinds: Vec<SanctionKind>,
}

/// What a decision imposes: the option chosen (none: the proposal) and the
/// sanctions of it, by index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub option: Option<usize>,
    pub stakes: Vec<usize>,
}

/// How grave a penalty is, to weigh one decision against another: a
/// cassation or a bar outweighs a suspension, which outweighs a fine,
/// which outweighs a warning.
fn gravity(kind: SanctionKind) -> u8 {
    match kind {
        SanctionKind::Warning
        | SanctionKind::NoticeOfIrregularity
        | SanctionKind::AdministrativeProcess => 0,
        SanctionKind::Fine => 1,
        SanctionKind::Suspension
        | SanctionKind::PermitSuspension
        | SanctionKind::VehicleImpediment
        | SanctionKind::VehicleSeizure
        | SanctionKind::VehicleRetention
        | SanctionKind::DocumentSeizure => 2,
        SanctionKind::DriverCassation
        | SanctionKind::PermitCassation
        | SanctionKind::Ineligibility
        | SanctionKind::Inidoneidade => 3,
    }
}

/// Sanctions that follow from another and are not chosen on their own
/// (the bar after a cassation).
fn follows(kind: SanctionKind) -> bool {
    kind == SanctionKind::Ineligibility
}

/// The last day of something in force from `from` for the days, months or
/// years given (none: it does not lapse).
fn lapse(
    from: NaiveDate,
    days: Option<u32>,
    months: Option<u32>,
    years: Option<u32>,
) -> Option<NaiveDate> {
    let end = if let Some(days) = days {
        from.checked_add_days(Days::new(u64::from(days)))
    } else if let Some(months) = months.or(years.map(|y| y.saturating_mul(12))) {
        from.checked_add_months(Months::new(months))
    } else {
        return None;
    };
    Some(end.and_then(|e| e.pred_opt()).unwrap_or(NaiveDate::MAX))
}
