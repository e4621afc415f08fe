//! The law applied to a decision, as the record keeps it beside the
//! decision: which version of the law judged it and what the articles it
//! cites said, and the deployment's values it used instead of the
//! rulebook's with the acts that set them (a law amended or an act
//! replaced later does not change what was decided).

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
            act: version.act_number(&rulebook.act).to_string(),
            label: version.label(&rulebook.act),
        }
    }
}

/// What an article a decision cites said, as the law's text prints it
/// (the cited paragraph, inciso or alínea with its article's opening).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CitedWords {
    pub citation: String,
    pub words: String,
}

/// The words of each citation, once each, in the order first cited; a
/// rulebook without its law's text has none.
pub fn cited_words<'c>(
    rulebook: &Rulebook,
    citations: impl IntoIterator<Item = &'c String>,
) -> Vec<CitedWords> {
    let mut seen = std::collections::HashSet::new();
    citations
        .into_iter()
        .filter(|c| seen.insert(c.as_str()))
        .filter_map(|c| {
            rulebook.text.excerpt(c).map(|words| CitedWords {
                citation: c.clone(),
                words,
            })
        })
        .collect()
}

/// A deployment's value a decision used instead of the rulebook's: what
/// fills an open term (or the population, a fare) and the act that set it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct AppliedAct {
    pub parameter: String,
    /// Exact decimal text.
    pub value: String,
    /// The day the act is in force from; `None` for a value recorded before
    /// acts were dated.
    pub valid_from: Option<NaiveDate>,
    pub act: Option<String>,
}

/// The deployment's values the answers asked of `ctx` used.
pub fn applied_acts(ctx: &outorga_core::Context<'_>) -> Vec<AppliedAct> {
    ctx.applied()
        .into_iter()
        .map(|a| AppliedAct {
            parameter: a.name,
            value: a.value.normalize().to_string(),
            valid_from: (a.from != NaiveDate::MIN).then_some(a.from),
            act: a.act,
        })
        .collect()
}
