//! Which version of a law judged a decision, as the record keeps it beside
//! the decision (a law amended later does not change what was decided).

use chrono::NaiveDate;
use outorga_core::model::Rulebook;

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LawVersion {
    /// The day this version is in force from.
    pub valid_from: NaiveDate,
    /// The act that gave the law this text: the law itself, or the act
    /// that amended it.
    pub act: String,
    /// As a reader names it ("Lei 1.234/2020 — texto original, em vigor
    /// desde 01/03/2020").
    pub label: String,
}

impl LawVersion {
    pub fn of(rulebook: &Rulebook) -> LawVersion {
        let version = &rulebook.version;
        LawVersion {
            valid_from: version.valid_from,
            act: version
                .amendment
                .as_ref()
                .map_or(&rulebook.act.number, |a| &a.number)
                .clone(),
            label: version.label(&rulebook.act),
        }
    }
}
