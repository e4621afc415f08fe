//! The closed vocabularies of the rulebook format as the schema's
//! enumerations, read from the engine's own types, so an editor offers
//! exactly the spellings the loader accepts.

use outorga_core::model::{
    CallProcedure, ClaimKind, DeadlineKind, EndGround, ExpenseKind, FeeEvent, FilledBy,
    ReleaseCondition, SanctionKind, Service,
};
use schemars::{Schema, SchemaGenerator, json_schema};

fn one_of(names: &[&str], what: &str) -> Schema {
    json_schema!({ "type": "string", "enum": names, "description": what })
}

fn list_of(names: &[&str], what: &str) -> Schema {
    json_schema!({
        "type": "array",
        "items": { "type": "string", "enum": names },
        "description": what
    })
}

fn sanction_kind_names() -> Vec<&'static str> {
    SanctionKind::ALL.map(SanctionKind::name).to_vec()
}

fn service_names() -> Vec<&'static str> {
    Service::ALL.map(Service::name).to_vec()
}

pub fn sanction_kind(_: &mut SchemaGenerator) -> Schema {
    one_of(
        &sanction_kind_names(),
        "A sanction or measure the law imposes.",
    )
}

pub fn sanction_kinds(_: &mut SchemaGenerator) -> Schema {
    list_of(
        &sanction_kind_names(),
        "Sanctions or measures the law imposes.",
    )
}

pub fn deadline_kind(_: &mut SchemaGenerator) -> Schema {
    one_of(
        DeadlineKind::NAMES,
        "A time limit of the law, as the record names it.",
    )
}

pub fn service(_: &mut SchemaGenerator) -> Schema {
    one_of(&service_names(), "A service the law regulates.")
}

pub fn services(_: &mut SchemaGenerator) -> Schema {
    list_of(&service_names(), "Services the law regulates.")
}

pub fn fee_event(_: &mut SchemaGenerator) -> Schema {
    one_of(FeeEvent::NAMES, "What charges the fee when it happens.")
}

pub fn end_ground(_: &mut SchemaGenerator) -> Schema {
    one_of(EndGround::NAMES, "A ground on which a permit ends.")
}

pub fn call_procedure(_: &mut SchemaGenerator) -> Schema {
    one_of(CallProcedure::NAMES, "How the law selects new holders.")
}

pub fn claim_kind(_: &mut SchemaGenerator) -> Schema {
    one_of(ClaimKind::NAMES, "A kind of passenger's claim.")
}

pub fn release_condition(_: &mut SchemaGenerator) -> Schema {
    one_of(
        ReleaseCondition::NAMES,
        "A condition of a vehicle's release from custody.",
    )
}

/// A measure applied at once (a sanction kind) or a custody's expense:
/// `RawMeasure` serves both.
pub fn measure_kind(_: &mut SchemaGenerator) -> Schema {
    let mut names = sanction_kind_names();
    names.extend(ExpenseKind::NAMES);
    one_of(
        &names,
        "A measure applied at once, or an expense of a vehicle's custody.",
    )
}

pub fn offence(_: &mut SchemaGenerator) -> Schema {
    json_schema!({
        "type": "string",
        "pattern": "^(any|first|repeat|[1-9][0-9]*\\+?|every [1-9][0-9]*)$",
        "description": "Which offence of the code or group: any, first, repeat (reincidência: the second or later), N (the Nth), N+ (the Nth and later), every N."
    })
}

pub fn irregularity(_: &mut SchemaGenerator) -> Schema {
    one_of(
        &["any", "found", "not_corrected"],
        "Where the law first notifies an irregularity with time to correct it: found (the notice) or not_corrected (its time ran out without the correction).",
    )
}

pub fn filled_by(_: &mut SchemaGenerator) -> Schema {
    one_of(FilledBy::NAMES, "Who fills an open term of the law.")
}
