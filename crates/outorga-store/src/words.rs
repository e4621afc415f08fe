//! Records in words, as users read them on the pages and on paper: a day,
//! a CPF or CNPJ, a penalty's amount or term, a decision.

use crate::brl;
use crate::{Auto, ProposedSanction};
use chrono::NaiveDate;
use outorga_core::model::SanctionKind;

/// `dd/mm/aaaa`.
pub fn day(day: NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

/// A CPF as `000.000.000-00`, a CNPJ as `00.000.000/0000-00`; anything
/// else as it is.
pub fn document(bare: &str) -> String {
    let c: Vec<char> = bare.chars().collect();
    let part = |from: usize, to: usize| c[from..to].iter().collect::<String>();
    match c.len() {
        11 => format!(
            "{}.{}.{}-{}",
            part(0, 3),
            part(3, 6),
            part(6, 9),
            part(9, 11)
        ),
        14 => format!(
            "{}.{}.{}/{}-{}",
            part(0, 2),
            part(2, 5),
            part(5, 8),
            part(8, 12),
            part(12, 14)
        ),
        _ => bare.to_string(),
    }
}

/// A CPF masked as the federal government publishes it (LGPD):
/// `***.982.247-**`; a CNPJ (a company's, public) in full.
pub fn masked_document(bare: &str) -> String {
    let shown = document(bare);
    if bare.len() == 11 {
        format!("***{}**", &shown[3..shown.len() - 2])
    } else {
        shown
    }
}

/// A name as a public list shows it (LGPD): the first name whole, the
/// others by their initial — "Maria da Silva Souza" as "Maria S. S.".
pub fn masked_name(name: &str) -> String {
    let mut words = name.split_whitespace();
    let Some(first) = words.next() else {
        return String::new();
    };
    let initials: Vec<String> = words
        .filter(|w| {
            !matches!(
                w.to_lowercase().as_str(),
                "da" | "de" | "do" | "das" | "dos" | "e"
            )
        })
        .filter_map(|w| w.chars().next())
        .map(|c| format!("{}.", c.to_uppercase()))
        .collect();
    if initials.is_empty() {
        first.to_string()
    } else {
        format!("{first} {}", initials.join(" "))
    }
}

/// A kind of inspection: "periódica", "da adaptação", or the rulebook's
/// own kind as written.
pub fn inspection_kind(kind: &str) -> String {
    match kind {
        "periodic" => "periódica".to_string(),
        "adaptation" => "da adaptação".to_string(),
        other => other.replace('_', " "),
    }
}

/// A penalty's name: "multa", "suspensão"…
pub fn sanction_kind(kind: &str) -> &'static str {
    SanctionKind::parse(kind).map_or("penalidade", SanctionKind::portuguese)
}

/// The amount or term of a penalty, as words.
pub fn sanction(s: &ProposedSanction) -> String {
    let mut parts = Vec::new();
    if let (Some(quantity), Some(unit)) = (&s.quantity, &s.unit) {
        let amount = if unit == "BRL" {
            brl::money(quantity)
        } else {
            format!("{} {unit}", brl::decimal(quantity))
        };
        parts.push(match (&s.brl, unit == "BRL") {
            (_, true) => amount,
            (Some(value), false) => format!("{amount} = {}", brl::money(value)),
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
        parts.push(format!("paga por {}", document(payer)));
    }
    parts.join("; ")
}

/// What the authority decided on an auto, if it did: kept or annulled, not
/// admitted, the days fixed, the penalties chosen, by whom.
pub fn decision(auto: &Auto) -> Option<String> {
    let d = auto.decision.as_ref()?;
    let mut parts = vec![
        if d.upheld {
            "auto mantido"
        } else {
            "auto anulado"
        }
        .to_string(),
    ];
    if let Some(ground) = &d.not_admitted {
        parts.push(format!("defesa ou recurso não conhecido ({ground})"));
    }
    if let Some(days) = d.days {
        parts.push(format!("{days} dias fixados"));
    }
    if let Some(kinds) = &d.sanctions {
        let names: Vec<&str> = kinds.iter().map(|k| k.portuguese()).collect();
        parts.push(format!("penalidades escolhidas: {}", names.join(", ")));
    }
    if let Some(by) = &d.by {
        parts.push(format!("decidido por {by}"));
    }
    Some(parts.join("; "))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_day_reads_day_month_year() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 3, 7).expect("date");
        assert_eq!(super::day(day), "07/03/2026");
    }

    #[test]
    fn documents_read_with_their_punctuation() {
        assert_eq!(super::document("12345678909"), "123.456.789-09");
        assert_eq!(super::document("11222333000181"), "11.222.333/0001-81");
        assert_eq!(super::document("x"), "x");
        assert_eq!(super::masked_document("52998224725"), "***.982.247-**");
        assert_eq!(
            super::masked_document("11222333000181"),
            "11.222.333/0001-81"
        );
    }
}
