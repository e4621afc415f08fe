//! The grounds a law lists for a measure: which of them the facts found are.

use crate::context::{Context, EngineError};

/// Whether any of the grounds `found` (keys of the rulebook's set `set`)
/// applies, with the article of each; a key the set does not list is an
/// error naming the ones it does.
pub fn grounds<'r>(
    ctx: &Context<'r>,
    set: &str,
    found: &[String],
) -> Result<(bool, Vec<&'r str>), EngineError> {
    let listed: Vec<_> = ctx
        .rulebook
        .grounds
        .iter()
        .filter(|g| g.set == set)
        .collect();
    if listed.is_empty() {
        return Err(EngineError::NotInRulebook(format!(
            "hipóteses do conjunto `{set}`"
        )));
    }
    let mut citations = Vec::new();
    for key in found {
        let ground = listed.iter().find(|g| g.key == *key).ok_or_else(|| {
            EngineError::InvalidQuestion(format!(
                "`{key}` não é hipótese de `{set}` (hipóteses: {})",
                listed
                    .iter()
                    .map(|g| g.key.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        if !citations.contains(&ground.citation.as_str()) {
            citations.push(ground.citation.as_str());
        }
    }
    Ok((!citations.is_empty(), citations))
}
