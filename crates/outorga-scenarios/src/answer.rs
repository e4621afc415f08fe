//! Runs a query against the engine and writes the result as the scenario
//! format's result tree (JSON values; decimals as exact strings).

use crate::dto::{self, Query};
use crate::world::{self, World};
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::assessment::Finding;
use outorga_core::engine::process::Refusal;
use outorga_core::engine::public_call as call;
use outorga_core::engine::sanctions::Sanction;
use outorga_core::engine::{
    acts, bus, cap, changes, deadline, downtime, draw, eligibility, fare, fee, fine_due, grounds,
    penalty, registration, standing, stands, suspension, vehicle,
};
use outorga_core::facts::{Event, PermitId, PersonId, VehicleId};
use outorga_core::model::{Amount, Applicant, DeadlineKind, Service};
use rust_decimal::Decimal;
use serde_json::{Map, Value, json};

/// Why a query has no answer: the question is malformed (names an unknown
/// person or code), or the engine cannot answer it (not in the rulebook).
#[derive(Debug)]
pub enum Failure {
    Input(String),
    Engine(String),
}

fn dec(value: Decimal) -> Value {
    Value::String(value.normalize().to_string())
}

fn brl(value: Decimal) -> Value {
    Value::String(format!("{value:.2}"))
}

pub(crate) fn date(value: NaiveDate) -> Value {
    Value::String(value.format("%Y-%m-%d").to_string())
}

/// The kind of a step of a `process` or `permit_life` case (`parse`, with
/// the `known` spellings for the message), dated no later than `today`.
pub(crate) fn step_kind<K>(
    (step, day): (&str, NaiveDate),
    place: &str,
    today: NaiveDate,
    parse: fn(&str) -> Option<K>,
    known: fn() -> String,
) -> Result<K, Failure> {
    let bad = |message: String| Failure::Input(format!("{place}: {message}"));
    let kind =
        parse(step).ok_or_else(|| bad(format!("unknown step `{step}`; known: {}", known())))?;
    if day > today {
        return Err(bad(format!(
            "the step is dated {day}, after `today` ({today}): a step cannot be taken in the future"
        )));
    }
    Ok(kind)
}

/// A step inside `steps` the law refuses: the case is bad input.
pub(crate) fn taken<T>(
    outcome: Result<Result<T, Refusal>, outorga_core::EngineError>,
    place: &str,
) -> Result<T, Failure> {
    outcome.map_err(engine)?.map_err(|refusal| {
        Failure::Input(format!(
            "{place}: the law does not allow this step: {} ({})",
            refusal.reason,
            refusal.citations.join("; ")
        ))
    })
}

/// Something tried (`next`, a grant): `key` (`allowed`, `room`), and when
/// refused why and the articles; what it returned when allowed.
pub(crate) fn tried<T>(
    result: &mut Map<String, Value>,
    key: &str,
    outcome: Result<Result<T, Refusal>, outorga_core::EngineError>,
) -> Result<Option<T>, Failure> {
    match outcome.map_err(engine)? {
        Ok(value) => {
            result.insert(key.into(), json!(true));
            Ok(Some(value))
        }
        Err(refusal) => {
            result.insert(key.into(), json!(false));
            result.insert("refusal".into(), json!(refusal.reason));
            result.insert("refusal_citations".into(), json!(refusal.citations));
            Ok(None)
        }
    }
}

/// The citations, each once, in the order first cited.
pub(crate) fn unique_citations(cited: Vec<&str>) -> Value {
    let mut unique: Vec<&str> = Vec::with_capacity(cited.len());
    for c in cited {
        if !unique.contains(&c) {
            unique.push(c);
        }
    }
    citations(&unique)
}

pub(crate) fn citations(list: &[&str]) -> Value {
    Value::Array(
        list.iter()
            .map(|c| Value::String((*c).to_string()))
            .collect(),
    )
}

pub(crate) fn sanction_value(world: &World, sanction: &Sanction<'_>) -> Value {
    let mut map = Map::new();
    map.insert("kind".into(), json!(sanction.kind.name()));
    let person = |id: PersonId| json!(world.people.name(id.0));
    if let Some(target) = sanction.target {
        map.insert("target".into(), person(target));
    }
    if let Some(amount) = &sanction.amount {
        map.insert(
            "amount".into(),
            json!({ "unit": amount.unit, "quantity": dec(amount.quantity) }),
        );
    }
    if let Some(value) = sanction.brl {
        map.insert("brl".into(), brl(value));
    }
    if let Some(payer) = sanction.payer {
        map.insert("payer".into(), person(payer));
    }
    for (key, value) in [
        ("days", sanction.days),
        ("min_days", sanction.min_days),
        ("max_days", sanction.max_days),
        ("years", sanction.years),
        ("months", sanction.months),
        ("min_hours", sanction.min_hours),
    ] {
        if let Some(value) = value {
            map.insert(key.into(), json!(value));
        }
    }
    if sanction.business_days {
        map.insert("business_days".into(), json!(true));
    }
    if let Some(document) = sanction.document {
        map.insert("document".into(), json!(document.name()));
    }
    if !sanction.places.is_empty() {
        let places: Vec<&str> = sanction.places.iter().map(|p| p.name()).collect();
        map.insert("places".into(), json!(places));
    }
    map.insert("citations".into(), citations(&sanction.citations));
    Value::Object(map)
}

fn findings(list: &[Finding<'_>]) -> Value {
    Value::Array(
        list.iter()
            .map(|f| {
                json!({
                    "requirement": f.requirement,
                    "description": f.description,
                    "citations": citations(&f.citations),
                })
            })
            .collect(),
    )
}

fn person(world: &World, name: &str, place: &str) -> Result<PersonId, Failure> {
    world
        .people
        .resolve(name, place)
        .map(PersonId)
        .map_err(Failure::Input)
}

/// A deadline kind named in a query.
fn deadline_kind(text: &str) -> Result<DeadlineKind, Failure> {
    DeadlineKind::parse(text).ok_or_else(|| {
        Failure::Input(format!(
            "query.deadline.kind: unknown deadline kind `{text}`; known: {}",
            DeadlineKind::known()
        ))
    })
}

/// The infraction a `penalty` query (or a `process` query's `auto`) names.
pub(crate) fn offence(
    ctx: &Context<'_>,
    world: &World,
    q: &dto::PenaltyQuery,
    place: &str,
) -> Result<Event, Failure> {
    Ok(Event {
        infraction: world::infraction(ctx.rulebook, &q.infraction, place)
            .map_err(Failure::Input)?,
        by: person(world, &q.by, &format!("{place}.by"))?,
        permit: q
            .permit
            .as_deref()
            .map(|p| {
                world
                    .permits
                    .resolve(p, &format!("{place}.permit"))
                    .map(PermitId)
            })
            .transpose()
            .map_err(Failure::Input)?,
        at: q.at.0,
        is_final: false,
        uncured: q.uncured,
    })
}

/// Answers `query` on `today` in `ctx` with the case's `world`.
pub fn answer(
    ctx: &Context<'_>,
    world: &World,
    query: &Query,
    today: NaiveDate,
) -> Result<Value, Failure> {
    let facts = &world.facts;
    Ok(match query {
        Query::Penalty(q) => {
            let offence = offence(ctx, world, q, "query.penalty")?;
            let result = penalty::penalty(ctx, facts, &offence).map_err(engine)?;
            let mut points = Map::new();
            for (who, value) in &result.points {
                points.insert(world.people.name(who.0).to_string(), dec(*value));
            }
            json!({
                "sanctions": result.sanctions.iter().map(|s| sanction_value(world, s)).collect::<Vec<_>>(),
                "points": points,
                "citations": citations(&result.citations()),
            })
        }
        Query::Standing(q) => {
            let who = person(world, &q.person, "query.standing.person")?;
            let result = standing::standing(ctx, facts, who, today).map_err(engine)?;
            let mut points = Map::new();
            for (months, value) in &result.points {
                points.insert(months.to_string(), dec(*value));
            }
            json!({
                "points": points,
                "triggers": result.triggers.iter().map(|s| sanction_value(world, s)).collect::<Vec<_>>(),
                "citations": citations(&result.citations()),
            })
        }
        Query::Deadline(q) => match (&q.from, &q.at) {
            (Some(from), None) => {
                let result =
                    deadline::deadline(ctx, deadline_kind(&q.kind)?, from.0).map_err(engine)?;
                json!({ "due": date(result.due), "citations": citations(&result.citations) })
            }
            (None, Some(at)) => {
                let result =
                    deadline::moment(ctx, deadline_kind(&q.kind)?, at.0).map_err(engine)?;
                json!({
                    "due": result.due.format("%Y-%m-%dT%H:%M").to_string(),
                    "citations": citations(&result.citations),
                })
            }
            _ => {
                return Err(Failure::Input(
                    "query.deadline: give `from` (a date) or `at` (a date and time), one of them"
                        .into(),
                ));
            }
        },
        Query::FineDue(q) => {
            let amount = Amount {
                unit: q.amount.unit.clone(),
                quantity: q.amount.quantity.0,
            };
            if amount.unit != "BRL" && !ctx.rulebook.units.contains_key(&amount.unit) {
                return Err(Failure::Input(format!(
                    "query.fine_due.amount.unit: `{}` is not a unit of {}",
                    amount.unit, ctx.rulebook.id
                )));
            }
            let result = fine_due::fine_due(
                ctx,
                &amount,
                q.issued.0,
                q.paid.0,
                q.installments.map(|n| n.0),
                q.from_process,
            )
            .map_err(engine)?;
            let mut map = Map::new();
            map.insert("quantity".into(), dec(result.quantity));
            map.insert("surcharge_percent".into(), dec(result.surcharge_percent));
            if let Some(value) = result.brl {
                map.insert("brl".into(), brl(value));
            }
            if let Some(plan) = &result.installments {
                map.insert("allowed".into(), json!(plan.allowed));
                map.insert(
                    "installments".into(),
                    Value::Array(
                        plan.parcels
                            .iter()
                            .map(|p| json!({ "due": date(p.due), "quantity": dec(p.quantity) }))
                            .collect(),
                    ),
                );
            }
            map.insert("citations".into(), citations(&result.citations));
            Value::Object(map)
        }
        Query::PermitCap(q) => {
            let service =
                world::service(&q.service, "query.permit_cap.service").map_err(Failure::Input)?;
            let granted = counted(ctx, world, service);
            let result =
                cap::permit_cap(ctx, service, granted.len() as u64, today).map_err(engine)?;
            let mut reserved = Map::new();
            for (key, count) in &result.reserved {
                reserved.insert((*key).to_string(), json!(count));
            }
            let released: Vec<(&str, u64)> = q
                .released
                .iter()
                .map(|(k, n)| (k.as_str(), u64::from(n.0)))
                .collect();
            let mut answer = Map::new();
            answer.insert("max_permits".into(), json!(result.max_permits));
            answer.insert("reserved".into(), Value::Object(reserved));
            // What each share the law releases could release now.
            let mut releasable = Map::new();
            let releasing = ctx
                .rulebook
                .caps
                .iter()
                .filter(|c| c.services.contains(&service))
                .flat_map(|c| &c.reserved)
                .filter(|q| q.release.is_some());
            for quota in releasing {
                let places = cap::releasable(ctx, service, &granted, &quota.key, &released, today)
                    .map_err(engine)?
                    .map_or(0, |(places, _)| places);
                releasable.insert(quota.key.clone(), json!(places));
            }
            if !releasable.is_empty() {
                answer.insert("releasable".into(), Value::Object(releasable));
            }
            let mut cited = result.citations.clone();
            if let Some(grant) = &q.grant {
                let outcome = cap::room(
                    ctx,
                    service,
                    &granted,
                    grant.quota.as_deref(),
                    &released,
                    today,
                );
                if let Some(more) = tried(&mut answer, "room", outcome)? {
                    cited.extend(more);
                }
            }
            answer.insert("citations".into(), unique_citations(cited));
            Value::Object(answer)
        }
        Query::PermitAct(q) => {
            let (allowed, cited) = acts::permit_act(ctx, &q.act).map_err(engine)?;
            json!({ "allowed": allowed, "citations": citations(&cited) })
        }
        Query::Registration(q) => {
            let who = person(world, &q.person, "query.registration.person")?;
            let role = applicant(&q.role, "query.registration.role")?;
            let result = registration::validity(ctx, world.facts.person(who), role, q.issued.0)
                .map_err(engine)?;
            json!({
                "valid_until": result.valid_until.map_or(Value::Null, date),
                "citations": citations(&result.citations),
            })
        }
        Query::Eligibility(q) => {
            let who = person(world, &q.person, "query.eligibility.person")?;
            let role = applicant(&q.role, "query.eligibility.role")?;
            let service =
                world::service(&q.service, "query.eligibility.service").map_err(Failure::Input)?;
            let under = q
                .permit
                .as_deref()
                .map(|p| {
                    world
                        .permits
                        .resolve(p, "query.eligibility.permit")
                        .map(PermitId)
                })
                .transpose()
                .map_err(Failure::Input)?;
            let request = eligibility::Request {
                applicant: role,
                under,
                line: q.line.as_deref(),
            };
            let result = eligibility::eligibility(ctx, facts, who, request, service, today)
                .map_err(engine)?;
            json!({
                "eligible": result.passed,
                "unmet": findings(&result.unmet),
                "unknown": findings(&result.unknown),
                "citations": citations(&result.citations),
            })
        }
        Query::Vehicle(q) => vehicle_answer(ctx, world, q, today)?,
        Query::StandLottery(q) => stand_lottery(ctx, world, q)?,
        Query::PublicCall(q) => public_call(ctx, world, q, today)?,
        Query::StandSwap(q) => stand_swap(ctx, world, q)?,
        Query::StandUse(q) => stand_use(ctx, world, q)?,
        Query::StandRelocation(q) => stand_relocation(ctx, q, today)?,
        Query::SuspensionRequest(q) => {
            let result =
                suspension::suspension_request(ctx, &q.reason, q.days.0, q.extension, today)
                    .map_err(engine)?;
            json!({
                "allowed": result.allowed,
                "max_days": result.max_days,
                "reasons": result.reasons,
                "citations": citations(&result.citations),
            })
        }
        Query::ChangeLimit(q) => {
            let past: Vec<NaiveDate> = q.past.iter().map(|d| d.0).collect();
            let answer = changes::change_allowed(ctx, &q.change, &past, q.excuse.as_deref(), today)
                .map_err(engine)?
                .ok_or_else(|| {
                    engine(outorga_core::EngineError::NotInRulebook(format!(
                        "limite por período para `{}`",
                        q.change
                    )))
                })?;
            json!({
                "allowed": answer.allowed,
                "counted": answer.counted,
                "max": answer.max,
                "citations": citations(&answer.citations),
            })
        }
        Query::Downtime(q) => {
            let excused: Vec<downtime::Excused> = q
                .excused
                .iter()
                .map(|e| downtime::Excused {
                    reason: e.reason.clone(),
                    from: e.from.0,
                    to: e.to.0,
                })
                .collect();
            let result = downtime::downtime(ctx, q.from.0, q.to.0, &excused).map_err(engine)?;
            json!({
                "days": result.days,
                "infraction": result.infraction,
                "loses_stand": result.loses_stand,
                "citations": citations(&result.citations),
            })
        }
        Query::Fare(q) => {
            let passenger = q
                .passenger
                .as_ref()
                .map_or_else(fare::Passenger::default, |p| fare::Passenger {
                    age: p.age.map(|a| a.0),
                    student: p.student,
                    disabled: p.disabled,
                    with_aids: p.mobility_equipment || p.guide_dog,
                });
            let stopped = q.stopped_minutes.map_or(Decimal::ZERO, |m| m.0);
            let result = fare::fare(ctx, q.start.0, q.km.0, stopped, &passenger).map_err(engine)?;
            json!({
                "bandeira": result.bandeira,
                "total": brl(result.total),
                "discount_percent": dec(result.discount_percent),
                "citations": citations(&result.citations),
            })
        }
        Query::Fee(q) => {
            let result =
                fee::fee(ctx, &q.kind, q.months_worked.map(|m| m.0), today).map_err(engine)?;
            let mut map = Map::new();
            map.insert(
                "amount".into(),
                json!({ "unit": result.amount.unit, "quantity": dec(result.amount.quantity) }),
            );
            if let Some(value) = result.brl {
                map.insert("brl".into(), brl(value));
            }
            map.insert("citations".into(), citations(&result.citations));
            Value::Object(map)
        }
        Query::Ctm(q) => {
            for (i, line) in q.lines.iter().enumerate() {
                if q.lines[..i].iter().any(|l| l.id == line.id) {
                    return Err(Failure::Input(format!(
                        "query.ctm.lines: line `{}` is listed twice; each line counts once in the mean",
                        line.id
                    )));
                }
            }
            let lines: Vec<bus::Line> = q
                .lines
                .iter()
                .map(|l| bus::Line {
                    coefficient: l.coefficient.0,
                    semi_urban: l.semi_urban,
                })
                .collect();
            let (ctm, cited) = bus::ctm(ctx, &lines).map_err(engine)?;
            json!({ "ctm": dec(ctm), "citations": citations(&[cited]) })
        }
        Query::Refund(q) => {
            let (allowed, cited) = bus::refund(ctx, q.departs.0, q.requested.0).map_err(engine)?;
            json!({ "allowed": allowed, "citations": citations(&[cited]) })
        }
        Query::Baggage(q) => {
            let result =
                bus::baggage(ctx, q.fare.0, q.hold_kg.0, q.hand_kg.0, today).map_err(engine)?;
            json!({
                "excess_kg": dec(result.excess_kg),
                "max_fee": brl(result.max_fee),
                "citations": citations(&result.citations),
            })
        }
        Query::Indemnity(q) => {
            let (max, cited) = bus::indemnity(ctx, &q.kind, today).map_err(engine)?;
            json!({ "max_brl": brl(max), "citations": citations(&[cited]) })
        }
        Query::Process(q) => crate::process::process(ctx, world, q, today)?,
        Query::PermitLife(q) => crate::permit_life::permit_life(ctx, world, q, today)?,
        Query::Grounds(q) => {
            let (applies, cited) = grounds::grounds(ctx, &q.set, &q.found).map_err(engine)?;
            json!({ "applies": applies, "citations": citations(&cited) })
        }
        Query::SupervisionShare(q) => {
            let (share, cited) = bus::supervision_share(ctx, q.fares.0, today).map_err(engine)?;
            json!({ "share": brl(share), "citations": citations(&[cited]) })
        }
        Query::Ticket(q) => {
            let trip = bus::Trip {
                id: &q.trip.id,
                departs: q.trip.departs.0,
                semi_urban: q.trip.semi_urban,
            };
            let sold: Vec<u32> = q.sold.iter().map(|s| s.0).collect();
            let result = bus::ticket(ctx, trip, (q.seat.0, &sold), q.fields.as_deref(), today)
                .map_err(engine)?;
            json!({
                "allowed": result.allowed,
                "reasons": result.reasons,
                "citations": citations(&result.citations),
            })
        }
    })
}

fn applicant(role: &str, place: &str) -> Result<Applicant, Failure> {
    match role {
        "holder" => Ok(Applicant::Holder),
        "driver" => Ok(Applicant::Driver),
        other => Err(Failure::Input(format!(
            "{place}: `{other}` is not holder or driver"
        ))),
    }
}

fn stand_of(world: &World, id: u32) -> stands::Stand<'_> {
    let (capacity, free, _) = world.stand_facts[id as usize];
    stands::Stand {
        name: world.stands.name(id),
        capacity,
        free,
    }
}

/// The permits of the facts the cap of `service` counts, with the share
/// each was granted under.
fn counted<'w>(ctx: &Context<'_>, world: &'w World, service: Service) -> Vec<cap::Counted<'w>> {
    let alone = [service];
    let services = ctx
        .rulebook
        .caps
        .iter()
        .find(|c| c.services.contains(&service))
        .map_or(&alone[..], |c| c.services.as_slice());
    world
        .facts
        .permits()
        .iter()
        .zip(&world.permit_quotas)
        .filter(|(p, _)| services.contains(&p.service))
        .map(|(p, quota)| cap::Counted {
            service: p.service,
            quota: quota.as_deref(),
        })
        .collect()
}

/// A public call for new permits: the applicants screened, the ties and
/// the one draw among them, the ranking, the places and who gets them
/// (SMJ art. 2º, §§ 4º–6º; 6º; Canguçu art. 3º, § 1º; 37).
fn public_call(
    ctx: &Context<'_>,
    world: &World,
    q: &dto::PublicCallQuery,
    today: NaiveDate,
) -> Result<Value, Failure> {
    let service =
        world::service(&q.service, "query.public_call.service").map_err(Failure::Input)?;
    let edital = call::Edital {
        criteria: q
            .edital
            .criteria
            .iter()
            .map(|c| call::Criterion {
                key: &c.key,
                description: &c.description,
                points_per_unit: c.points_per_unit.0,
                max: c.max.as_ref().map(|m| m.0),
                citation: &c.citation,
            })
            .collect(),
        tie_breaks: q.edital.tie_breaks.iter().map(String::as_str).collect(),
        documents: q
            .edital
            .documents
            .iter()
            .map(|d| call::Document {
                name: &d.name,
                citation: &d.citation,
            })
            .collect(),
    };
    let applications = q
        .applicants
        .iter()
        .map(|a| {
            Ok(call::Application {
                name: &a.person,
                person: person(world, &a.person, "query.public_call.applicants")?,
                quantities: a.shown.iter().map(|(k, v)| (k.as_str(), v.0)).collect(),
                documents: a.documents.iter().map(String::as_str).collect(),
                claim: a.claim.as_ref().map(|c| call::Claim {
                    share: &c.share,
                    proved: c.proved.iter().map(String::as_str).collect(),
                }),
            })
        })
        .collect::<Result<Vec<_>, Failure>>()?;
    let screening =
        call::screen(ctx, &world.facts, service, &edital, &applications, today).map_err(engine)?;
    let mut answer = Map::new();
    let (eligible, ineligible): (Vec<_>, Vec<_>) =
        screening.applicants.iter().partition(|a| a.eligible);
    answer.insert(
        "eligible".into(),
        json!(eligible.iter().map(|a| a.name).collect::<Vec<_>>()),
    );
    answer.insert(
        "ineligible".into(),
        ineligible
            .iter()
            .map(|a| {
                let why = json!({ "unmet": keys(&a.unmet), "not_shown": keys(&a.not_shown) });
                (a.name.to_string(), why)
            })
            .collect::<Map<_, _>>()
            .into(),
    );
    answer.insert(
        "scores".into(),
        screening
            .applicants
            .iter()
            .map(|a| (a.name.to_string(), dec(a.score)))
            .collect::<Map<_, _>>()
            .into(),
    );
    answer.insert(
        "claims".into(),
        screening
            .applicants
            .iter()
            .filter_map(|a| {
                let claim = a.claim.as_ref()?;
                let outcome =
                    json!({ "admitted": claim.admitted, "missing": keys(&claim.missing) });
                Some((a.name.to_string(), outcome))
            })
            .collect::<Map<_, _>>()
            .into(),
    );
    let ties = call::ties(ctx, &screening).map_err(engine)?;
    answer.insert("ties".into(), json!(ties.groups));
    let mut cited = screening.citations.clone();
    cited.extend(ties.citations.iter().copied());
    let mut drawn: Vec<&str> = Vec::new();
    if !ties.participants.is_empty() {
        answer.insert(
            "list_hash".into(),
            json!(draw::list_hash(&ties.participants)),
        );
        if let Some(seed) = &q.seed {
            let order = draw::order(seed, &ties.participants).map_err(engine)?;
            answer.insert(
                "tickets".into(),
                order
                    .iter()
                    .map(|(n, t)| ((*n).to_string(), Value::String(t.clone())))
                    .collect::<Map<_, _>>()
                    .into(),
            );
            drawn = order.iter().map(|(n, _)| *n).collect();
            answer.insert("draw".into(), json!(drawn));
        }
    }
    let ranking = match call::rank(ctx, &screening, &drawn) {
        Ok(ranking) => ranking,
        Err(outorga_core::EngineError::InvalidQuestion(refusal)) => {
            answer.insert("refusal".into(), json!(refusal));
            answer.insert("citations".into(), unique_citations(cited));
            return Ok(Value::Object(answer));
        }
        Err(other) => return Err(engine(other)),
    };
    answer.insert(
        "ranking".into(),
        json!(ranking.order.iter().map(|r| r.name).collect::<Vec<_>>()),
    );
    let occupancy =
        cap::occupancy(ctx, service, &counted(ctx, world, service), &[], today).map_err(engine)?;
    let places = call::call_places(&occupancy, u64::from(q.places.0)).map_err(engine)?;
    let reserved: Map<String, Value> = places
        .reserved
        .iter()
        .map(|(k, n)| ((*k).to_string(), json!(n)))
        .collect();
    answer.insert(
        "places".into(),
        json!({ "open": places.open, "reserved": reserved }),
    );
    let result = call::allocate(ctx, &screening, &ranking, &places, today).map_err(engine)?;
    let grants: Vec<Value> = result
        .grants
        .iter()
        .map(|g| {
            let (place, share) = match g.place {
                call::Place::Reserved(key) => ("reserved", Some(key)),
                call::Place::Open => ("open", None),
                call::Place::Released(key) => ("released", Some(key)),
            };
            json!({
                "person": g.name,
                "position": g.position,
                "place": place,
                "share": share,
                "service": g.service.name(),
                "citations": citations(&g.citations),
            })
        })
        .collect();
    answer.insert("grants".into(), Value::Array(grants));
    let unfilled = |list: &[call::Unfilled<'_>]| -> Value {
        list.iter()
            .map(|u| (u.share.to_string(), json!(u.places)))
            .collect::<Map<_, _>>()
            .into()
    };
    answer.insert("released".into(), unfilled(&result.released));
    answer.insert("vacant".into(), unfilled(&result.vacant));
    answer.insert("open_vacant".into(), json!(result.open_vacant));
    answer.insert(
        "waiting".into(),
        json!(result.waiting.iter().map(|r| r.name).collect::<Vec<_>>()),
    );
    answer.insert("appeal_until".into(), date(result.appeal.due));
    cited.extend(result.citations.iter().copied());
    answer.insert("citations".into(), unique_citations(cited));
    Ok(Value::Object(answer))
}

/// The keys of the findings, in order.
fn keys(list: &[Finding<'_>]) -> Value {
    json!(list.iter().map(|f| f.requirement).collect::<Vec<_>>())
}

/// An engine refusal, as the case's failure.
pub(crate) fn engine(e: outorga_core::EngineError) -> Failure {
    Failure::Engine(e.to_string())
}

/// The public lottery for a stand's vacancies (Canguçu art. 15, § 4º).
fn stand_lottery(
    ctx: &Context<'_>,
    world: &World,
    q: &dto::StandLotteryQuery,
) -> Result<Value, Failure> {
    let at = world
        .stands
        .resolve(&q.stand, "query.stand_lottery.stand")
        .map_err(Failure::Input)?;
    let occupants = world
        .permit_stands
        .iter()
        .filter(|s| **s == Some(at))
        .count();
    for c in &q.candidates {
        let place = "query.stand_lottery.candidates";
        let person = world.people.resolve(c, place).map_err(Failure::Input)?;
        let held = world
            .facts
            .permits()
            .iter()
            .zip(&world.permit_stands)
            .filter(|(p, _)| p.holder == PersonId(person))
            .map(|(_, s)| *s)
            .collect::<Vec<_>>();
        if held.is_empty() {
            return Err(Failure::Input(format!(
                "{place}: `{c}` holds no permit; only delegatários enter the lottery"
            )));
        }
        if held.contains(&Some(at)) {
            return Err(Failure::Input(format!(
                "{place}: `{c}` is already at stand `{}`",
                q.stand
            )));
        }
    }
    let candidates: Vec<&str> = q.candidates.iter().map(String::as_str).collect();
    let occupants = u32::try_from(occupants).unwrap_or(u32::MAX);
    let draw = stands::lottery(ctx, stand_of(world, at), occupants, &q.seed, &candidates)
        .map_err(engine)?;
    let tickets: Map<String, Value> = draw
        .order
        .iter()
        .map(|(c, t)| ((*c).to_string(), Value::String(t.clone())))
        .collect();
    Ok(json!({
        "vacancies": draw.vacancies,
        "order": draw.order.iter().map(|(c, _)| *c).collect::<Vec<_>>(),
        "winners": draw.winners,
        "tickets": tickets,
        "algorithm": stands::LOTTERY_ALGORITHM,
        "citations": citations(&draw.citations),
    }))
}

/// Two holders swapping their fixed stands (Canguçu art. 15, § 3º).
fn stand_swap(ctx: &Context<'_>, world: &World, q: &dto::StandSwapQuery) -> Result<Value, Failure> {
    let [a, b] = q.permits.as_slice() else {
        return Err(Failure::Input(
            "query.stand_swap.permits: name the two permits that swap stands".into(),
        ));
    };
    let place = "query.stand_swap.permits";
    let permit = |name: &str| world.permits.resolve(name, place).map_err(Failure::Input);
    let (a, b) = (permit(a)?, permit(b)?);
    let of = |p: u32| world.permit_stands[p as usize].map(|s| stand_of(world, s));
    let result = stands::swap(ctx, of(a), of(b), q.class_consent).map_err(engine)?;
    // A refused swap costs nothing: the fee and its payers come with a swap
    // that may go ahead.
    let payers: Vec<&str> = if result.allowed && result.fee_each.is_some() {
        [a, b]
            .iter()
            .map(|&p| world.people.name(world.facts.permit(PermitId(p)).holder.0))
            .collect()
    } else {
        Vec::new()
    };
    let fee = match result.fee_each {
        Some(fee) if result.allowed => json!({ "unit": fee.unit, "quantity": dec(fee.quantity) }),
        _ => Value::Null,
    };
    Ok(json!({
        "allowed": result.allowed,
        "reasons": result.reasons,
        "fee_each": fee,
        "payers": payers,
        "citations": citations(&result.citations),
    }))
}

/// Whether a taxi may use a stand to wait or to let passengers out (Canguçu
/// art. 4º, I; 15, § 1º; 16; SMJ art. 28–29; TO art. 23, § 1º).
fn stand_use(ctx: &Context<'_>, world: &World, q: &dto::StandUseQuery) -> Result<Value, Failure> {
    let taxi = match (&q.permit, q.other_town) {
        (Some(permit), false) => {
            let own = world
                .permits
                .resolve(permit, "query.stand_use.permit")
                .map_err(Failure::Input)?;
            stands::Taxi::Local(world.permit_stands[own as usize].map(|s| world.stands.name(s)))
        }
        (None, true) => stands::Taxi::OtherTown,
        _ => {
            return Err(Failure::Input(
                "query.stand_use: name the taxi's `permit`, or `other_town: true` for a taxi of another town"
                    .into(),
            ));
        }
    };
    let at = world
        .stands
        .resolve(&q.stand, "query.stand_use.stand")
        .map_err(Failure::Input)?;
    let purpose = match q.purpose.as_str() {
        "wait" => stands::Purpose::Wait,
        "dropoff" => stands::Purpose::Dropoff,
        other => {
            return Err(Failure::Input(format!(
                "query.stand_use.purpose: `{other}` is not one of wait, dropoff"
            )));
        }
    };
    let event = world.stand_facts[at as usize].2;
    let (allowed, cited) =
        stands::stand_use(ctx, taxi, (stand_of(world, at), event), purpose).map_err(engine)?;
    Ok(json!({ "allowed": allowed, "citations": citations(&cited) }))
}

/// A permit moved to another fixed stand on `today` (SMJ art. 28, § 1º;
/// TO art. 26; Canguçu art. 15, § 3º, III).
fn stand_relocation(
    ctx: &Context<'_>,
    q: &dto::StandRelocationQuery,
    today: NaiveDate,
) -> Result<Value, Failure> {
    let how = match q.by.as_str() {
        "authority" if q.protocol.is_none() && q.feasibility_study.is_none() => {
            stands::Move::ByAuthority {
                grounded: q.grounds.unwrap_or(true),
                notified: q.notified.map(|d| d.0),
            }
        }
        "holder" if q.grounds.is_none() && q.notified.is_none() => stands::Move::AskedByHolder {
            protocol: q.protocol.unwrap_or(false),
            feasibility_study: q.feasibility_study.unwrap_or(false),
        },
        "authority" => {
            return Err(Failure::Input(
                "query.stand_relocation: `protocol` and `feasibility_study` are a holder's request (`by: holder`)".into(),
            ));
        }
        "holder" => {
            return Err(Failure::Input(
                "query.stand_relocation: `grounds` and `notified` are the authority's move (`by: authority`)".into(),
            ));
        }
        other => {
            return Err(Failure::Input(format!(
                "query.stand_relocation.by: `{other}` is not one of authority, holder"
            )));
        }
    };
    let answer = stands::relocation(ctx, how, today).map_err(engine)?;
    Ok(json!({
        "allowed": answer.allowed,
        "reasons": answer.reasons,
        "answer_until": answer.answer_until.map(date),
        "first_day": answer.first_day.map(date),
        "citations": citations(&answer.citations),
    }))
}

fn vehicle_answer(
    ctx: &Context<'_>,
    world: &World,
    q: &dto::VehicleQuery,
    today: NaiveDate,
) -> Result<Value, Failure> {
    let resolve = |name: &str, place: &str| {
        world
            .vehicles
            .resolve(name, place)
            .map(|id| world.facts.vehicle(VehicleId(id)))
            .map_err(Failure::Input)
    };
    let subject = resolve(&q.vehicle, "query.vehicle.vehicle")?;
    let admissibility = match (q.action.as_str(), q.replacing.as_deref()) {
        ("inclusion", None) => vehicle::inclusion(ctx, subject, today).map_err(engine)?,
        ("substitution", Some(replacing)) => {
            let replaced = resolve(replacing, "query.vehicle.replacing")?;
            vehicle::substitution(ctx, subject, replaced, today).map_err(engine)?
        }
        ("substitution", None) => {
            return Err(Failure::Input(
                "query.vehicle: a substitution needs `replacing: <vehicle id>`".into(),
            ));
        }
        ("deadlines", None) => {
            let result = vehicle::deadlines(ctx, subject, today, q.extended).map_err(engine)?;
            let mut map = Map::new();
            map.insert(
                "replace_by".into(),
                result.replace_by.map_or(Value::Null, date),
            );
            map.insert(
                "next_inspection".into(),
                result.next_inspection.map_or(Value::Null, date),
            );
            let inspections = result
                .inspections
                .iter()
                .map(|&(kind, due)| (kind.to_string(), due.map_or(Value::Null, date)))
                .collect();
            map.insert("inspections".into(), Value::Object(inspections));
            map.insert("citations".into(), citations(&result.citations));
            return Ok(Value::Object(map));
        }
        ("inclusion" | "deadlines", Some(_)) => {
            return Err(Failure::Input(format!(
                "query.vehicle: `replacing` goes only with action substitution, not {}",
                q.action
            )));
        }
        (other, _) => {
            return Err(Failure::Input(format!(
                "query.vehicle.action: `{other}` is not inclusion, substitution or deadlines"
            )));
        }
    };
    Ok(json!({
        "admissible": admissibility.passed,
        "unmet": findings(&admissibility.unmet),
        "unknown": findings(&admissibility.unknown),
        "citations": citations(&admissibility.citations),
    }))
}

/// The keys a result of this query may have, and the extra keys `expect` may use.
/// Which version of the law answered: the day it is in force from and the
/// act that gave it its text.
pub fn law_version(rulebook: &outorga_core::model::Rulebook) -> Value {
    let v = &rulebook.version;
    json!({
        "valid_from": date(v.valid_from),
        "act": v.act_number(&rulebook.act),
    })
}

pub fn known_keys(query: &Query) -> &'static [&'static str] {
    match query {
        Query::Penalty(_) => &["sanctions", "points", "citations", "absent"],
        Query::Standing(_) => &["points", "triggers", "citations", "absent"],
        Query::Deadline(_) => &["due", "citations"],
        Query::FineDue(_) => &[
            "quantity",
            "surcharge_percent",
            "brl",
            "allowed",
            "installments",
            "citations",
        ],
        Query::PermitCap(_) => &[
            "max_permits",
            "reserved",
            "releasable",
            "room",
            "refusal",
            "refusal_citations",
            "citations",
            "absent",
        ],
        Query::Eligibility(_) => &[
            "eligible",
            "unmet",
            "unknown",
            "citations",
            "unmet_citations",
        ],
        Query::Vehicle(_) => &[
            "admissible",
            "unmet",
            "unknown",
            "citations",
            "unmet_citations",
            "replace_by",
            "next_inspection",
            "inspections",
        ],
        Query::Fare(_) => &["bandeira", "total", "discount_percent", "citations"],
        Query::Ctm(_) => &["ctm", "citations"],
        Query::Baggage(_) => &["excess_kg", "max_fee", "citations"],
        Query::Indemnity(_) => &["max_brl", "citations"],
        Query::Refund(_) => &["allowed", "citations"],
        Query::Ticket(_) => &["allowed", "reasons", "citations"],
        Query::SuspensionRequest(_) => &["allowed", "max_days", "reasons", "citations"],
        Query::ChangeLimit(_) => &["allowed", "counted", "max", "citations"],
        Query::Fee(_) => &["amount", "brl", "citations"],
        Query::Downtime(_) => &["days", "infraction", "loses_stand", "citations"],
        Query::StandLottery(_) => &[
            "vacancies",
            "order",
            "winners",
            "tickets",
            "algorithm",
            "citations",
        ],
        Query::PublicCall(_) => &[
            "eligible",
            "ineligible",
            "scores",
            "claims",
            "ties",
            "list_hash",
            "tickets",
            "draw",
            "ranking",
            "refusal",
            "places",
            "grants",
            "released",
            "vacant",
            "open_vacant",
            "waiting",
            "appeal_until",
            "citations",
        ],
        Query::StandSwap(_) => &["allowed", "reasons", "fee_each", "payers", "citations"],
        Query::StandUse(_) => &["allowed", "citations"],
        Query::StandRelocation(_) => &[
            "allowed",
            "reasons",
            "answer_until",
            "first_day",
            "citations",
        ],
        Query::Registration(_) => &["valid_until", "citations"],
        Query::PermitAct(_) => &["allowed", "citations"],
        Query::SupervisionShare(_) => &["share", "citations"],
        Query::Grounds(_) => &["applies", "citations"],
        Query::Process(_) => &[
            "status",
            "open",
            "verification",
            "appeal_to",
            "allowed",
            "refusal",
            "refusal_citations",
            "effects",
            "citations",
            "absent",
        ],
        Query::PermitLife(_) => &[
            "status",
            "ended_how",
            "expires",
            "renewals",
            "open",
            "allowed",
            "refusal",
            "refusal_citations",
            "vacancy",
            "citations",
            "absent",
        ],
    }
}
