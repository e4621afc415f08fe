//! What an assessment of the law's requirements (eligibility, a vehicle's
//! admission, a driver's) becomes in the record: an unmet requirement
//! refuses the request, naming each; one whose facts are not recorded is
//! left for the clerk to check.

use crate::{StoreError, articles};
use outorga_core::engine::assessment::{Assessment, Finding};

/// A requirement the clerk must still check (the facts it reads are not
/// recorded), with its articles.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ToCheck {
    pub requirement: String,
    pub description: String,
    pub articles: Vec<String>,
}

/// The findings whose facts are not recorded (an assessment's `unknown`),
/// for the clerk to check.
pub(crate) fn to_check(findings: &[Finding<'_>]) -> Vec<ToCheck> {
    findings
        .iter()
        .map(|f| ToCheck {
            requirement: f.requirement.to_string(),
            description: f.description.to_string(),
            articles: articles(&f.citations),
        })
        .collect()
}

/// Refuses when the assessment has unmet requirements, naming each.
pub(crate) fn refuse_unmet(what: &str, assessment: &Assessment<'_>) -> Result<(), StoreError> {
    if assessment.unmet.is_empty() {
        return Ok(());
    }
    let reasons: Vec<&str> = assessment.unmet.iter().map(|f| f.description).collect();
    let cited: Vec<&str> = assessment
        .unmet
        .iter()
        .flat_map(|f| f.citations.iter().copied())
        .collect();
    Err(StoreError::Refused {
        reason: format!("{what}: requisito não atendido — {}", reasons.join("; ")),
        articles: articles(&cited),
    })
}
