//! How long the registration of a holder or a driver lasts.

use crate::context::{Context, EngineError};
use crate::facts::Person;
use crate::model::Applicant;
use chrono::NaiveDate;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validity<'r> {
    /// The last day the registration is valid; `None` when it depends on a
    /// CNH expiry that is not known.
    pub valid_until: Option<NaiveDate>,
    pub citations: Vec<&'r str>,
}

/// The validity of `person`'s registration in `role`, issued or renewed on
/// `issued`: the rule's period from that day, or the CNH's expiry when the
/// rule says so and it comes first.
pub fn validity<'r>(
    ctx: &Context<'r>,
    person: &Person,
    role: Applicant,
    issued: NaiveDate,
) -> Result<Validity<'r>, EngineError> {
    let rule = ctx
        .rulebook
        .registrations
        .iter()
        .find(|r| r.role == role)
        .ok_or_else(|| {
            EngineError::NotInRulebook(format!(
                "a validade da matrícula {}",
                match role {
                    Applicant::Holder => "do titular",
                    Applicant::Driver => "do condutor",
                }
            ))
        })?;
    let end = ctx.period_end(&rule.valid, issued)?;
    if rule.until_license_expires
        && let Some(expired) = person.license.as_ref().and_then(|l| l.expires)
        && expired < issued
    {
        return Err(EngineError::InvalidQuestion(format!(
            "a CNH venceu em {expired}, antes da matrícula em {issued}: não se expede matrícula com a CNH vencida; registre a CNH renovada"
        )));
    }
    let valid_until = if rule.until_license_expires {
        person
            .license
            .as_ref()
            .and_then(|l| l.expires)
            .map(|expires| expires.min(end))
    } else {
        Some(end)
    };
    Ok(Validity {
        valid_until,
        citations: vec![&rule.citation],
    })
}
