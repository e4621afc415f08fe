//! Dates as users read them.

use chrono::NaiveDate;

/// `dd/mm/aaaa`.
pub(crate) fn day(day: NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_day_reads_day_month_year() {
        let day = chrono::NaiveDate::from_ymd_opt(2026, 3, 7).expect("date");
        assert_eq!(super::day(day), "07/03/2026");
    }
}
