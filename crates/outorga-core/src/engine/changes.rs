//! How many changes of a kind (swaps of auxiliary, vehicle substitutions) a
//! permit may still have within the law's period.

use crate::context::{Context, EngineError};
use chrono::NaiveDate;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangeAnswer<'r> {
    pub allowed: bool,
    /// Changes that count within the period ending `on`, this one excluded.
    pub counted: u32,
    pub max: u32,
    /// Why not, in Portuguese (empty when allowed).
    pub reason: Option<String>,
    pub citations: Vec<&'r str>,
}

/// Whether one more `change` may be made on `on`, given the days of the past
/// changes that count (excused ones left out by the caller); `excuse` names
/// the law's reason this change does not count, if any. `None` when the
/// rulebook sets no limit on this change.
pub fn change_allowed<'r>(
    ctx: &Context<'r>,
    change: &str,
    past: &[NaiveDate],
    excuse: Option<&str>,
    on: NaiveDate,
) -> Result<Option<ChangeAnswer<'r>>, EngineError> {
    let Some(limit) = ctx
        .rulebook
        .change_limits
        .iter()
        .find(|l| l.change == change)
    else {
        return Ok(None);
    };
    let max = ctx.whole(&limit.max, on, "trocas")?;
    let mut citations = vec![limit.citation.as_str()];
    if let Some(key) = excuse {
        let Some(known) = limit.excuses.iter().find(|e| e.key == key) else {
            return Err(EngineError::InvalidQuestion(format!(
                "`{key}` não é motivo que a lei admita para deixar `{change}` fora do limite (motivos: {})",
                limit
                    .excuses
                    .iter()
                    .map(|e| e.key.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        citations.push(&known.citation);
        return Ok(Some(ChangeAnswer {
            allowed: true,
            counted: 0,
            max,
            reason: None,
            citations,
        }));
    }
    // The period ends on `on`: changes made from its first day on count (a
    // change exactly one period before is still inside, as for repeats).
    let start = ctx.window_start(&limit.within, on)?;
    let counted = past.iter().filter(|d| **d >= start && **d <= on).count() as u32;
    let allowed = counted < max;
    Ok(Some(ChangeAnswer {
        allowed,
        counted,
        max,
        reason: (!allowed).then(|| {
            format!("já foram feitas as {max} permitidas no período (contadas: {counted})")
        }),
        citations,
    }))
}
