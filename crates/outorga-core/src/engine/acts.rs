//! What the law forbids doing with a permit (transfer, rental, renewal…).

use crate::context::{Context, EngineError};

/// Whether the law lets a holder do `act` with the permit: the acts a rulebook
/// names are the ones its law forbids, each with its article; an act it does
/// not name is a question for the clerk, not a guess.
pub fn permit_act<'r>(ctx: &Context<'r>, act: &str) -> Result<(bool, Vec<&'r str>), EngineError> {
    let acts = &ctx.rulebook.forbidden_acts;
    match acts.iter().find(|a| a.act == act) {
        Some(forbidden) => Ok((false, vec![forbidden.citation.as_str()])),
        None => Err(EngineError::InvalidQuestion(format!(
            "`{act}` não é ato de que o regulamento trate (trata de: {})",
            if acts.is_empty() {
                "nenhum".to_string()
            } else {
                acts.iter()
                    .map(|a| a.act.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ))),
    }
}
