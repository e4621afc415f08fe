//! The `process` query: the auto's penalty from the engine, its steps taken
//! through the procedure's state machine, and where it stands on `today`.

use crate::answer::{
    Failure, date, engine, offence, sanction_value, step_kind, taken, tried, unique_citations,
};
use crate::dto::{ProcessQuery, ProcessStep};
use crate::world::World;
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::penalty::{Penalty, penalty};
use outorga_core::engine::process::{
    Machine, Misfit, Stake, Stakes, State, Step, StepFields, StepKind,
};
use outorga_core::engine::sanctions::Sanction;
use outorga_core::model::SanctionKind;
use serde_json::{Map, Value, json};

/// A step as written in the case, checked: the fields it may carry and no others.
fn step_of(raw: &ProcessStep, place: &str, today: NaiveDate) -> Result<Step, Failure> {
    let bad = |message: String| Failure::Input(format!("{place}: {message}"));
    let kind = step_kind(
        (&raw.step, raw.day.0),
        place,
        today,
        StepKind::parse,
        StepKind::known,
    )?;
    // Kinds are read only where a step decides; elsewhere their presence is
    // what the step refuses.
    let sanctions = raw
        .sanctions
        .as_ref()
        .map(|list| {
            list.iter()
                .filter(|_| kind.decides())
                .map(|k| {
                    SanctionKind::parse(k).ok_or_else(|| {
                        bad(format!(
                            "`{k}` is not a sanction kind; known: {}",
                            SanctionKind::ALL.map(SanctionKind::name).join(", ")
                        ))
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let fields = StepFields {
        upheld: raw.upheld,
        days: raw.days,
        sanctions,
        deposit: raw.deposit,
        not_admitted: raw.not_admitted.clone(),
        cure_days: raw.cure_days,
        heard: raw.heard,
        told: raw.told.as_ref().map(|t| t.0),
        inspection: raw.inspection.as_ref().map(|t| t.0),
    };
    Step::build(kind, fields).map_err(|misfit| {
        bad(match misfit {
            Misfit::DecisionOutsideDecision => format!(
                "`upheld`, `days`, `sanctions` and `not_admitted` belong to `judge` and `decide_appeal`, not to `{kind}`"
            ),
            Misfit::DepositOutsideAppeal => {
                format!("`deposit` belongs to `appeal`, not to `{kind}`")
            }
            Misfit::UpheldMissing => format!("`{kind}` needs `upheld: true` or `upheld: false`"),
            Misfit::NotAdmittedAnnulled => {
                "`not_admitted` leaves the auto standing: not with `upheld: false`".to_string()
            }
            Misfit::CureDaysOutsideNotify => {
                format!("`cure_days` belongs to `notify` (of a notice of irregularity), not to `{kind}`")
            }
            Misfit::NoCureDays => "`cure_days` must be 1 or more".to_string(),
            Misfit::VerificationOutsideSchedule => format!(
                "`told` and `inspection` belong to `schedule_verification`, not to `{kind}`"
            ),
            Misfit::HeardOutsideAppeal => {
                format!("`heard` belongs to `decide_appeal`, not to `{kind}`")
            }
            Misfit::VerificationMissing => {
                "`schedule_verification` needs `told` and `inspection` (date-times)".to_string()
            }
        })
    })?
    .decided_by(raw.by.clone())
    .ok_or_else(|| bad(format!("`by` belongs to `judge`, not to `{kind}`")))
}

fn stakes<'a>(penalty: Option<&Penalty<'a>>) -> Vec<Stake<'a>> {
    penalty
        .map(|p| p.sanctions.iter().map(Stake::of).collect())
        .unwrap_or_default()
}

/// Answers a `process` query.
pub fn process(
    ctx: &Context<'_>,
    world: &World,
    q: &ProcessQuery,
    today: NaiveDate,
) -> Result<Value, Failure> {
    if q.auto.uncured {
        return Err(Failure::Input(
            "query.process.auto: `uncured` does not belong here: the steps say it (`not_cured`)"
                .into(),
        ));
    }
    let mut auto = offence(ctx, world, &q.auto, "query.process.auto")?;
    let found = penalty(ctx, &world.facts, &auto).map_err(engine)?;
    let notice = found
        .sanctions
        .iter()
        .any(|s| s.kind == SanctionKind::NoticeOfIrregularity);
    let uncured = if notice {
        auto.uncured = true;
        Some(penalty(ctx, &world.facts, &auto).map_err(engine)?)
    } else {
        None
    };
    let stakes = Stakes {
        found: stakes(Some(&found)),
        uncured: stakes(uncured.as_ref()),
        options: found
            .options
            .iter()
            .map(|(set, cited)| (set.iter().map(Stake::of).collect(), *cited))
            .collect(),
    };
    let machine = Machine::of(ctx).map_err(engine)?;
    if auto.date() > today {
        return Err(Failure::Input(format!(
            "query.process.auto: the auto is dated {}, after `today` ({today})",
            auto.date()
        )));
    }
    let mut state = machine.start(auto.date());
    for (i, raw) in q.steps.iter().enumerate() {
        let place = format!("query.process.steps[{i}] ({} on {})", raw.step, raw.day.0);
        let step = step_of(raw, &place, today)?;
        state = taken(machine.take(&stakes, &state, &step, raw.day.0), &place)?;
    }
    let mut result = Map::new();
    result.insert("status".into(), json!(state.status.name()));
    let bodies = machine.appeal_bodies(&stakes, &state);
    if !bodies.is_empty() {
        result.insert(
            "appeal_to".into(),
            Value::Array(
                bodies
                    .iter()
                    .map(|b| {
                        json!({
                            "to": b.to,
                            "against": b.kinds.iter().map(|k| k.name()).collect::<Vec<_>>(),
                            "citation": b.citation,
                        })
                    })
                    .collect(),
            ),
        );
    }
    if let Some(at) = state.verification {
        result.insert(
            "verification".into(),
            json!(at.format("%Y-%m-%dT%H:%M").to_string()),
        );
    }
    let open = machine.open(&stakes, &state, today).map_err(engine)?;
    let mut cited: Vec<&str> = found.citations();
    if let Some(uncured) = uncured.as_ref().filter(|_| state.uncured) {
        cited.extend(uncured.citations());
    }
    cited.push(&machine.procedure.citation);
    let mut limits = Map::new();
    for limit in &open {
        limits.insert(limit.kind.name().into(), date(limit.due));
        cited.push(limit.citation);
    }
    result.insert("open".into(), Value::Object(limits));
    if let Some(raw) = &q.next {
        let step = step_of(raw, "query.process.next", today)?;
        tried(
            &mut result,
            "allowed",
            machine.take(&stakes, &state, &step, raw.day.0),
        )?;
    }
    let in_play = if state.uncured {
        uncured.as_ref().unwrap_or(&found)
    } else {
        &found
    };
    result.insert(
        "effects".into(),
        Value::Array(effects(&machine, world, &stakes, &state, in_play, today)),
    );
    result.insert("citations".into(), unique_citations(cited));
    Ok(Value::Object(result))
}

/// The sanctions in force on `today`, shaped as the `penalty` query's, with
/// the days decided.
fn effects(
    machine: &Machine<'_, '_>,
    world: &World,
    stakes: &Stakes<'_>,
    state: &State,
    in_play: &Penalty<'_>,
    today: NaiveDate,
) -> Vec<Value> {
    machine
        .effects(stakes, state, today)
        .into_iter()
        .map(|effect| {
            let set = effect
                .option
                .map_or(&in_play.sanctions, |i| &in_play.options[i].0);
            let mut sanction: Sanction<'_> = set[effect.stake].clone();
            if effect.days.is_some() {
                sanction.days = effect.days;
            }
            let mut value = sanction_value(world, &sanction);
            if let Some(map) = value.as_object_mut() {
                map.insert("from".into(), date(effect.from));
                if let Some(until) = effect.until {
                    map.insert("until".into(), date(until));
                }
            }
            value
        })
        .collect()
}
