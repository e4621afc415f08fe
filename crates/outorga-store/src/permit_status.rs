//! A permit's status and history as the record spells them: the event
//! each step of its life is recorded as (an end by how the permit ended,
//! and back), and its status on a day read from its row and its latest
//! reserve or suspension (the core's `status_on_day`).

use crate::StoreError;
use crate::dates::day;
use chrono::NaiveDate;
use outorga_core::engine::permit_life::{LifeStep, LifeStepKind, status_on_day};
use outorga_core::model::{EndedHow, PermitStatus};
use sqlx::Row;

/// A column of the latest reserve or penalty suspension step of a permit
/// (`p`), as a select list expression.
macro_rules! status_step {
    ($column:literal) => {
        concat!(
            "(SELECT h.",
            $column,
            " FROM permit_history h \
             WHERE h.jurisdiction = p.jurisdiction AND h.service = p.service AND h.number = p.number \
             AND h.event IN ('reserve', 'reserve_extension', 'suspension', 'penalty_suspension') \
             ORDER BY h.seq DESC LIMIT 1)"
        )
    };
}

/// The last day of the reserve or penalty suspension a permit (`p`) is in:
/// the `until` of its latest such step (a select list expression).
pub(crate) const STATUS_UNTIL: &str = status_step!("until");

/// The articles of that step (a JSON list), which a permit suspended or in
/// reserve rests on.
pub(crate) const STATUS_CITATIONS: &str = status_step!("citations");

/// The permit's status on `on` from a row with `status`, `expires_on` and
/// `status_until` ([`STATUS_UNTIL`]).
pub(crate) fn status_in(
    row: &sqlx::any::AnyRow,
    on: NaiveDate,
) -> Result<PermitStatus, StoreError> {
    let status: String = row.try_get("status")?;
    let recorded = PermitStatus::parse(&status)
        .ok_or_else(|| StoreError::Corrupt(format!("situação da permissão `{status}`")))?;
    let date = |column: &str| -> Result<Option<NaiveDate>, StoreError> {
        row.try_get::<Option<String>, _>(column)?
            .as_deref()
            .map(day)
            .transpose()
    };
    Ok(status_on_day(
        recorded,
        date("status_until")?,
        date("expires_on")?,
        on,
    ))
}

/// The history event a step records (the record's spelling; an end is
/// named by how the permit ended, which `past_permits` read).
pub(crate) fn event_of(step: &LifeStep) -> &'static str {
    match step {
        LifeStep::Reserve { .. } => "reserve",
        LifeStep::ExtendReserve { .. } => "reserve_extension",
        LifeStep::Reinstate => "reinstatement",
        LifeStep::Suspend { .. } => "penalty_suspension",
        LifeStep::Renew => "renewal",
        LifeStep::Transfer { .. } => "transfer",
        LifeStep::CaducityNotice { .. } => "caducity_notice",
        LifeStep::Cure => "cure",
        LifeStep::Cassate => end_event(EndedHow::Cassated),
        LifeStep::End { ground } => end_event(ground.ended_how()),
    }
}

/// A history event as staff read it.
pub fn event_pt(event: &str) -> &'static str {
    match event {
        "grant" => "outorga",
        "import" => "registro importado",
        "suspension" => "suspensão",
        "reserve" => LifeStepKind::Reserve.portuguese(),
        "reserve_extension" => LifeStepKind::ExtendReserve.portuguese(),
        "reinstatement" => LifeStepKind::Reinstate.portuguese(),
        "penalty_suspension" => LifeStepKind::Suspend.portuguese(),
        "renewal" => LifeStepKind::Renew.portuguese(),
        "transfer" => LifeStepKind::Transfer.portuguese(),
        "caducity_notice" => LifeStepKind::CaducityNotice.portuguese(),
        "cure" => LifeStepKind::Cure.portuguese(),
        "renunciation" => "renúncia",
        "cassation" => "cassação",
        "revocation" => "revogação",
        "caducity" => "caducidade",
        "extinction" => "extinção",
        _ => "evento",
    }
}

/// The history event that ends a permit, by how it ended.
fn end_event(how: EndedHow) -> &'static str {
    match how {
        EndedHow::Renounced => "renunciation",
        EndedHow::Cassated => "cassation",
        EndedHow::Revoked => "revocation",
        EndedHow::Caducity => "caducity",
        EndedHow::Extinct => "extinction",
    }
}

/// How a permit ended, from the history event that ended it.
pub(crate) fn ended_how(event: &str) -> Option<EndedHow> {
    EndedHow::ALL
        .iter()
        .copied()
        .find(|how| end_event(*how) == event)
}
