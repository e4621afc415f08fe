//! The `permit_life` query: a permit's steps taken through the permit-life
//! state machine, and where it stands on `today`.

use crate::answer::{Failure, date, engine, step_kind, taken, tried, unique_citations};
use crate::dto::{LifeStepInput, PermitLifeQuery};
use crate::world::World;
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::permit_life::{
    Holder, Life, LifeFields, LifeMisfit, LifeStep, LifeStepKind,
};
use outorga_core::facts::PermitId;
use outorga_core::model::EndGround;
use serde_json::{Map, Value, json};

/// A step as written in the case, checked: the fields it may carry and no others.
fn step_of(raw: &LifeStepInput, place: &str, today: NaiveDate) -> Result<LifeStep, Failure> {
    let bad = |message: String| Failure::Input(format!("{place}: {message}"));
    let kind = step_kind(
        (&raw.step, raw.day.0),
        place,
        today,
        LifeStepKind::parse,
        LifeStepKind::known,
    )?;
    let fields = LifeFields {
        ground: raw.ground.clone(),
        days: raw.days,
        until: raw.until.as_ref().map(|d| d.0),
        consent: raw.consent,
    };
    LifeStep::build(kind, fields).map_err(|misfit| {
        bad(match misfit {
            LifeMisfit::Missing(field) => format!("`{kind}` needs `{field}`"),
            LifeMisfit::NotHere(field) => format!("`{field}` does not belong to `{kind}`"),
            LifeMisfit::UnknownGround(text) => {
                format!("unknown ground `{text}`; known: {}", EndGround::known())
            }
        })
    })
}

/// Answers a `permit_life` query.
pub fn permit_life(
    ctx: &Context<'_>,
    world: &World,
    q: &PermitLifeQuery,
    today: NaiveDate,
) -> Result<Value, Failure> {
    let id = world
        .permits
        .resolve(&q.permit, "query.permit_life.permit")
        .map_err(Failure::Input)?;
    let permit = world.facts.permit(PermitId(id));
    let granted = permit.granted.ok_or_else(|| {
        Failure::Input(format!(
            "query.permit_life.permit: permit `{}` needs `granted` (the day its life starts)",
            q.permit
        ))
    })?;
    if granted > today {
        return Err(Failure::Input(format!(
            "query.permit_life.permit: permit `{}` is granted on {granted}, after `today` ({today})",
            q.permit
        )));
    }
    let person = world.facts.person(permit.holder);
    let holder = Holder {
        born: person.birth_date,
        kind: person.kind,
    };
    let life = Life::of(ctx).map_err(engine)?;
    let mut state = life.start(granted).map_err(engine)?;
    for (i, raw) in q.steps.iter().enumerate() {
        let place = format!(
            "query.permit_life.steps[{i}] ({} on {})",
            raw.step, raw.day.0
        );
        let step = step_of(raw, &place, today)?;
        state = taken(life.take(&state, &step, raw.day.0, holder), &place)?;
    }
    let mut result = Map::new();
    result.insert("status".into(), json!(life.status_on(&state, today).name()));
    let mut cited: Vec<&str> = vec![&life.rules.citation];
    if let Some(ground) = life.ended_on(&state, today) {
        result.insert("ended_how".into(), json!(ground.ended_how().name()));
        if let Some(rule) = life.rules.ends.iter().find(|e| e.ground == ground) {
            cited.push(&rule.citation);
            if let Some(vacancy) = &rule.vacancy {
                result.insert("vacancy".into(), json!(vacancy));
                cited.push(vacancy);
            }
        }
    }
    if let Some(expires) = state.expires {
        result.insert("expires".into(), date(expires));
    }
    result.insert("renewals".into(), json!(state.renewals));
    let mut limits = Map::new();
    for limit in life.open(&state, today) {
        limits.insert(limit.key.into(), date(limit.due));
        cited.push(limit.citation);
    }
    result.insert("open".into(), Value::Object(limits));
    if let Some(raw) = &q.next {
        let step = step_of(raw, "query.permit_life.next", today)?;
        tried(
            &mut result,
            "allowed",
            life.take(&state, &step, raw.day.0, holder),
        )?;
    }
    result.insert("citations".into(), unique_citations(cited));
    Ok(Value::Object(result))
}
