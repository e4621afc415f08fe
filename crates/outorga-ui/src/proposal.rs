//! The engine's proposal for an auto as staff read it: each penalty with
//! its amount or term and articles, the options the authority chooses
//! among, the penalty if a notice of irregularity is not cured, the points.
//! Shown on the inspector's form before saving and on the auto's page.

use crate::format;
use outorga_core::model::SanctionKind;
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
}

fn kind_pt(kind: &str) -> &'static str {
    SanctionKind::parse(kind).map_or("penalidade", SanctionKind::portuguese)
}

/// The amount or term of a penalty, as words.
pub(crate) fn what(s: &ProposedSanction) -> String {
    let mut parts = Vec::new();
    if let (Some(quantity), Some(unit)) = (&s.quantity, &s.unit) {
        let amount = if unit == "BRL" {
            format::money(quantity)
        } else {
            format!("{} {unit}", format::decimal(quantity))
        };
        parts.push(match (&s.brl, unit == "BRL") {
            (_, true) => amount,
            (Some(brl), false) => format!("{amount} = {}", format::money(brl)),
            (None, false) => format!("{amount} (valor da unidade ainda não informado)"),
        });
    }
    let days = if s.business_days {
        "dias úteis"
    } else {
        "dias"
    };
    match (s.days, s.min_days, s.max_days) {
        (_, Some(min), Some(max)) => parts.push(format!("de {min} a {max} {days}")),
        (Some(n), _, _) => parts.push(format!("{n} {days}")),
        _ => {}
    }
    if let Some(y) = s.years {
        parts.push(format!("{y} ano(s)"));
    }
    if let Some(m) = s.months {
        parts.push(format!("{m} mês(es)"));
    }
    if let Some(h) = s.min_hours {
        parts.push(format!("no mínimo {h} horas"));
    }
    if let Some(payer) = &s.payer {
        parts.push(format!("paga por {}", format::document(payer)));
    }
    parts.join("; ")
}

fn rows(list: &[ProposedSanction]) -> Vec<SanctionRow> {
    list.iter()
        .map(|s| SanctionRow {
            kind: kind_pt(&s.kind),
            what: what(s),
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
        }
    }
}
