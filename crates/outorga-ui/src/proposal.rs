//! The engine's proposal for an auto as staff read it: each penalty with
//! its amount or term and articles, the options the authority chooses
//! among, the penalty if a notice of irregularity is not cured, the points;
//! the version of the law that judged it and what the cited articles say.
//! Shown on the inspector's form before saving and on the auto's page.

use crate::format;
use outorga_store::words;
use outorga_store::{Proposal, ProposedSanction};

/// One penalty or measure.
#[derive(Debug)]
pub(crate) struct SanctionRow {
    pub kind: &'static str,
    /// Amount or term, in words.
    pub what: String,
    /// Applied on the spot, by this article.
    pub at_once: Option<String>,
    /// The authority may impose it or not.
    pub optional: bool,
    pub articles: String,
}

/// A set of penalties the authority may choose instead (its article).
#[derive(Debug)]
pub(crate) struct OptionRow {
    pub article: String,
    pub sanctions: Vec<SanctionRow>,
}

#[derive(Debug)]
pub(crate) struct ProposalView {
    pub sanctions: Vec<SanctionRow>,
    pub options: Vec<OptionRow>,
    pub uncured: Vec<SanctionRow>,
    /// (CPF/CNPJ as shown, points).
    pub points: Vec<(String, String)>,
    pub articles: String,
    /// The version of the law that judged it, as a reader names it.
    pub version: Option<String>,
    /// (citation, what it says) for each article cited.
    pub words: Vec<(String, String)>,
    /// The deployment's values it was weighed with, each with its act, in
    /// words.
    pub acts: Vec<String>,
}

fn rows(list: &[ProposedSanction]) -> Vec<SanctionRow> {
    list.iter()
        .map(|s| SanctionRow {
            kind: words::sanction_kind(&s.kind),
            what: words::sanction(s),
            at_once: s.at_once.clone(),
            optional: s.optional,
            articles: s.articles.join("; "),
        })
        .collect()
}

impl ProposalView {
    pub(crate) fn of(p: &Proposal) -> ProposalView {
        ProposalView {
            sanctions: rows(&p.sanctions),
            options: p
                .options
                .iter()
                .map(|o| OptionRow {
                    article: o.article.clone(),
                    sanctions: rows(&o.sanctions),
                })
                .collect(),
            uncured: rows(&p.uncured),
            points: p
                .points
                .iter()
                .map(|(d, n)| (format::document(d), format::decimal(n)))
                .collect(),
            articles: p.articles.join("; "),
            version: p.law_version.as_ref().map(|v| v.label.clone()),
            words: p
                .law_words
                .iter()
                .map(|w| (w.citation.clone(), w.words.clone()))
                .collect(),
            acts: p
                .applied_acts
                .iter()
                .map(|a| {
                    let since = a
                        .valid_from
                        .map_or(String::new(), |d| format!(", desde {}", format::day(d)));
                    let act = a.act.as_deref().unwrap_or("valor registrado sem ato");
                    format!(
                        "{} = {} ({act}{since})",
                        a.parameter,
                        format::decimal(&a.value)
                    )
                })
                .collect(),
        }
    }
}
