//! Dates, documents and money as users read them.

use chrono::NaiveDate;

/// `dd/mm/aaaa`.
pub(crate) fn day(day: NaiveDate) -> String {
    outorga_store::words::day(day)
}

/// A day, or a dash when there is none.
pub(crate) fn maybe_day(day: Option<NaiveDate>) -> String {
    day.map_or_else(|| "—".to_string(), self::day)
}

/// A CPF as `000.000.000-00`, a CNPJ as `00.000.000/0000-00`; anything
/// else as it is.
pub(crate) fn document(bare: &str) -> String {
    outorga_store::words::document(bare)
}

/// A decimal as Brazilians write it: `1.234,56`.
pub(crate) fn decimal(text: &str) -> String {
    outorga_store::brl::decimal(text)
}

/// Reais: `R$ 1.234,56` (always two decimals).
pub(crate) fn money(text: &str) -> String {
    outorga_store::brl::money(text)
}

/// Reais per fiscal unit: every decimal the value has, two at least
/// (`R$ 4,7125`, `R$ 5,00`).
pub(crate) fn unit_value(text: &str) -> String {
    match text.split_once('.') {
        Some((_, fraction)) if fraction.len() > 2 => format!("R$ {}", decimal(text)),
        _ => money(text),
    }
}

/// A file's size: `812 bytes`, `12,3 kB`, `1,2 MB`.
pub(crate) fn size(bytes: i64) -> String {
    if bytes < 1024 {
        format!("{bytes} bytes")
    } else if bytes < 1_048_576 {
        format!("{:.1} kB", bytes as f64 / 1024.0).replace('.', ",")
    } else {
        format!("{:.1} MB", bytes as f64 / 1_048_576.0).replace('.', ",")
    }
}

/// A bus line's departures on each day of the week, as the pages list them:
/// (the day, "06:00, 14:00" or "—").
pub(crate) fn departures(
    schedule: &outorga_core::engine::bus_compliance::Schedule,
) -> Vec<(&'static str, String)> {
    outorga_store::WEEKDAYS
        .iter()
        .zip(&schedule.departures)
        .map(|(day, times)| {
            let list: Vec<String> = times
                .iter()
                .map(|t| t.format("%H:%M").to_string())
                .collect();
            (
                *day,
                if list.is_empty() {
                    "—".into()
                } else {
                    list.join(", ")
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_read_as_in_brazil() {
        assert_eq!(super::size(1023), "1023 bytes");
        assert_eq!(super::size(1024), "1,0 kB");
        assert_eq!(super::size(12_595), "12,3 kB");
        assert_eq!(super::size(10 * 1_048_576), "10,0 MB");
    }

    #[test]
    fn numbers_read_as_in_brazil() {
        assert_eq!(super::decimal("1234567.5"), "1.234.567,5");
        assert_eq!(super::decimal("0.2175"), "0,2175");
        assert_eq!(super::decimal("100"), "100");
        assert_eq!(super::money("1234.5"), "R$ 1.234,50");
        assert_eq!(super::money("500"), "R$ 500,00");
        assert_eq!(super::money("-12.3"), "R$ -12,30");
        assert_eq!(super::unit_value("4.7125"), "R$ 4,7125");
        assert_eq!(super::unit_value("1.7978"), "R$ 1,7978");
        assert_eq!(super::unit_value("5"), "R$ 5,00");
        assert_eq!(super::unit_value("1234.5"), "R$ 1.234,50");
    }

    #[test]
    fn no_day_reads_as_a_dash() {
        assert_eq!(super::maybe_day(None), "—");
    }
}
