//! Amounts as Brazilians read them: `1.234,56`, `R$ 1.234,56` — in the
//! store's messages, the engine's answers and every page.

/// A decimal as Brazilians write it: `1.234,56` (thousands by dots, the
/// decimal comma); text that is not a decimal as it is.
pub fn decimal(text: &str) -> String {
    let (sign, digits) = text.strip_prefix('-').map_or(("", text), |d| ("-", d));
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return text.to_string();
    }
    let mut grouped = String::new();
    for (i, c) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    if fraction.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped},{fraction}")
    }
}

/// Reais: `R$ 1.234,56` (always two decimals).
pub fn money(text: &str) -> String {
    let cents = match text.split_once('.') {
        Some((whole, fraction)) => format!("{whole}.{:0<2}", &fraction[..fraction.len().min(2)]),
        None => format!("{text}.00"),
    };
    format!("R$ {}", decimal(&cents))
}
