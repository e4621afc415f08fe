//! Business days and the ways Brazilian law counts time limits.
//!
//! National holidays are computed (fixed dates plus Good Friday from Easter);
//! state and municipal holidays come from the rulebook as [`HolidayRule`]s;
//! a deployment or a scenario may add plain dates. See `docs/calendar.md`.

use chrono::{Datelike, Days, Months, NaiveDate, Weekday};
use std::collections::BTreeSet;

/// How a local holiday falls each year.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HolidayDate {
    /// The same month and day every year.
    Fixed { month: u32, day: u32 },
    /// A number of days after (or before, when negative) Easter Sunday.
    EasterOffset(i64),
}

/// A state or municipal holiday, with the act that creates it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HolidayRule {
    pub name: String,
    pub date: HolidayDate,
    /// First year it applies (inclusive).
    pub from_year: Option<i32>,
    /// Last year it applies (inclusive).
    pub until_year: Option<i32>,
    /// The act that makes it a holiday (e.g. "Lei Estadual 11.010/2019").
    pub source: String,
}

impl HolidayRule {
    fn applies_in(&self, year: i32) -> bool {
        self.from_year.is_none_or(|from| year >= from)
            && self.until_year.is_none_or(|until| year <= until)
    }

    fn date_in(&self, year: i32) -> Option<NaiveDate> {
        if !self.applies_in(year) {
            return None;
        }
        match self.date {
            HolidayDate::Fixed { month, day } => NaiveDate::from_ymd_opt(year, month, day),
            HolidayDate::EasterOffset(offset) => {
                let easter = easter_sunday(year)?;
                easter.checked_add_signed(chrono::TimeDelta::days(offset))
            }
        }
    }
}

/// Easter Sunday of the Gregorian calendar.
pub fn easter_sunday(year: i32) -> Option<NaiveDate> {
    let date = computus::gregorian(year).ok()?;
    NaiveDate::from_ymd_opt(year, date.month, date.day)
}

/// The national holidays (Lei 662/1949, Lei 6.802/1980, Lei 14.759/2023 and
/// Good Friday by custom recognised in Lei 9.093/1995).
pub fn national_holidays() -> Vec<HolidayRule> {
    let fixed = |name: &str, month, day, from_year, source: &str| HolidayRule {
        name: name.to_string(),
        date: HolidayDate::Fixed { month, day },
        from_year,
        until_year: None,
        source: source.to_string(),
    };
    vec![
        fixed("Confraternização Universal", 1, 1, None, "Lei 662/1949"),
        fixed("Tiradentes", 4, 21, None, "Lei 662/1949"),
        fixed("Dia do Trabalho", 5, 1, None, "Lei 662/1949"),
        fixed("Independência do Brasil", 9, 7, None, "Lei 662/1949"),
        fixed("Nossa Senhora Aparecida", 10, 12, None, "Lei 6.802/1980"),
        fixed("Finados", 11, 2, None, "Lei 662/1949"),
        fixed("Proclamação da República", 11, 15, None, "Lei 662/1949"),
        fixed(
            "Dia Nacional de Zumbi e da Consciência Negra",
            11,
            20,
            Some(2024),
            "Lei 14.759/2023",
        ),
        fixed("Natal", 12, 25, None, "Lei 662/1949"),
        HolidayRule {
            name: "Sexta-feira da Paixão".to_string(),
            date: HolidayDate::EasterOffset(-2),
            from_year: None,
            until_year: None,
            source: "Lei 9.093/1995, art. 1º, II".to_string(),
        },
    ]
}

/// A business-day calendar: weekends, the rules it was built with, and extra dates.
#[derive(Debug, Clone, Default)]
pub struct Calendar {
    rules: Vec<HolidayRule>,
    extra: BTreeSet<NaiveDate>,
}

impl Calendar {
    /// National holidays plus the given local rules and extra dates.
    pub fn new(local: &[HolidayRule], extra: impl IntoIterator<Item = NaiveDate>) -> Self {
        let mut rules = national_holidays();
        rules.extend(local.iter().cloned());
        Self {
            rules,
            extra: extra.into_iter().collect(),
        }
    }

    /// The holiday that falls on `date`, if any (name and source).
    pub fn holiday(&self, date: NaiveDate) -> Option<&HolidayRule> {
        self.rules
            .iter()
            .find(|rule| rule.date_in(date.year()) == Some(date))
    }

    pub fn is_holiday(&self, date: NaiveDate) -> bool {
        self.extra.contains(&date) || self.holiday(date).is_some()
    }

    pub fn is_business_day(&self, date: NaiveDate) -> bool {
        !matches!(date.weekday(), Weekday::Sat | Weekday::Sun) && !self.is_holiday(date)
    }

    /// `date` itself if it is a business day, else the next one.
    pub fn on_or_next_business_day(&self, mut date: NaiveDate) -> NaiveDate {
        while !self.is_business_day(date) {
            date = next_day(date);
        }
        date
    }

    /// The last business day strictly before `date`.
    pub fn previous_business_day(&self, date: NaiveDate) -> NaiveDate {
        let mut day = date.pred_opt().unwrap_or(NaiveDate::MIN);
        while !self.is_business_day(day) && day > NaiveDate::MIN {
            day = day.pred_opt().unwrap_or(NaiveDate::MIN);
        }
        day
    }

    /// The first business day strictly after `date`.
    pub fn next_business_day(&self, date: NaiveDate) -> NaiveDate {
        self.on_or_next_business_day(next_day(date))
    }

    /// The last business day of a month.
    pub fn last_business_day_of_month(&self, year: i32, month: u32) -> Option<NaiveDate> {
        let first_next = if month == 12 {
            NaiveDate::from_ymd_opt(year + 1, 1, 1)?
        } else {
            NaiveDate::from_ymd_opt(year, month + 1, 1)?
        };
        let mut date = first_next.pred_opt()?;
        while !self.is_business_day(date) {
            date = date.pred_opt()?;
        }
        Some(date)
    }

    /// Ends a time limit according to its counting rule.
    pub fn count(&self, from: NaiveDate, length: u32, rule: Counting) -> NaiveDate {
        match rule {
            Counting::BusinessDays => {
                let mut date = from;
                for _ in 0..length {
                    date = self.next_business_day(date);
                }
                date
            }
            Counting::CalendarDays => {
                self.on_or_next_business_day(add_days(from, i64::from(length)))
            }
            Counting::CalendarDaysFromNextBusinessDay => {
                let day_one = self.next_business_day(from);
                self.on_or_next_business_day(add_days(day_one, i64::from(length) - 1))
            }
            Counting::Months => self.on_or_next_business_day(add_months(from, length)),
            Counting::Years => {
                self.on_or_next_business_day(add_months(from, length.saturating_mul(12)))
            }
            Counting::BusinessDaysBefore => {
                let mut date = from;
                for _ in 0..length {
                    date = self.previous_business_day(date);
                }
                date
            }
        }
    }
}

/// How a time limit counts. See `shared/spec/decree-defaults.md`, "Counting time limits".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counting {
    /// CPC art. 219 and 224: start day excluded, only business days count.
    BusinessDays,
    /// Lei 9.784/1999 art. 66: start day excluded, end day included, moved to the
    /// next business day when it is not one.
    CalendarDays,
    /// Day 1 is the first business day after the start; calendar days from there,
    /// moved to a business day (Canguçu Anexo I art. 21).
    CalendarDaysFromNextBusinessDay,
    /// Date to date; the last day of the month when it has no such day; moved to a
    /// business day.
    Months,
    /// As months, twelve to a year.
    Years,
    /// Business days counted back from `from` (excluded): the latest day
    /// something must happen "N business days ahead" of it.
    BusinessDaysBefore,
}

fn next_day(date: NaiveDate) -> NaiveDate {
    date.succ_opt().unwrap_or(NaiveDate::MAX)
}

/// `date` plus `days` calendar days (saturating at the calendar's ends).
pub fn add_days(date: NaiveDate, days: i64) -> NaiveDate {
    let delta = chrono::TimeDelta::try_days(days).unwrap_or(chrono::TimeDelta::MAX);
    date.checked_add_signed(delta).unwrap_or(if days < 0 {
        NaiveDate::MIN
    } else {
        NaiveDate::MAX
    })
}

/// `date` plus whole months, date to date; the month's last day when it is shorter.
pub fn add_months(date: NaiveDate, months: u32) -> NaiveDate {
    date.checked_add_months(Months::new(months))
        .unwrap_or(NaiveDate::MAX)
}

/// `date` minus whole months, date to date; the month's last day when it is shorter.
pub fn sub_months(date: NaiveDate, months: u32) -> NaiveDate {
    date.checked_sub_months(Months::new(months))
        .unwrap_or(NaiveDate::MIN)
}

/// `date` minus calendar days.
pub fn sub_days(date: NaiveDate, days: u64) -> NaiveDate {
    date.checked_sub_days(Days::new(days))
        .unwrap_or(NaiveDate::MIN)
}

/// Age in completed years on `on` of someone born on `born`.
pub fn age_in_years(born: NaiveDate, on: NaiveDate) -> i32 {
    let mut age = on.year() - born.year();
    if (on.month(), on.day()) < (born.month(), born.day()) {
        age -= 1;
    }
    age
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").expect("test date")
    }

    #[test]
    fn easter_and_good_friday() {
        assert_eq!(easter_sunday(2025), Some(d("2025-04-20")));
        assert_eq!(easter_sunday(2024), Some(d("2024-03-31")));
        let calendar = Calendar::new(&[], []);
        assert!(calendar.is_holiday(d("2025-04-18")));
        assert!(calendar.is_holiday(d("2024-03-29")));
        assert!(
            !calendar.is_holiday(d("2025-06-19")),
            "Corpus Christi is no national holiday"
        );
    }

    #[test]
    fn consciencia_negra_only_from_2024() {
        let calendar = Calendar::new(&[], []);
        assert!(!calendar.is_holiday(d("2023-11-20")));
        assert!(calendar.is_holiday(d("2024-11-20")));
    }

    #[test]
    fn counting_rules() {
        let calendar = Calendar::new(&[], []);
        // 30 business days from Monday 2025-06-02 (no holiday in between).
        assert_eq!(
            calendar.count(d("2025-06-02"), 30, Counting::BusinessDays),
            d("2025-07-14")
        );
        // 10 calendar days from 2025-04-08 end on Good Friday 04-18 -> Tuesday 04-22
        // (04-19 and 04-20 weekend, 04-21 Tiradentes).
        assert_eq!(
            calendar.count(d("2025-04-08"), 10, Counting::CalendarDays),
            d("2025-04-22")
        );
        // One month from 31 January is the last day of February.
        assert_eq!(add_months(d("2025-01-31"), 1), d("2025-02-28"));
        assert_eq!(
            calendar.count(d("2025-01-31"), 1, Counting::Months),
            d("2025-02-28")
        );
        // Receipt on Friday: day 1 is Monday 03-10, day 15 is Monday 03-24.
        assert_eq!(
            calendar.count(
                d("2025-03-07"),
                15,
                Counting::CalendarDaysFromNextBusinessDay
            ),
            d("2025-03-24")
        );
    }

    #[test]
    fn local_rules_and_extra_dates() {
        let penha = HolidayRule {
            name: "Nossa Senhora da Penha".into(),
            date: HolidayDate::EasterOffset(8),
            from_year: Some(2020),
            until_year: None,
            source: "Lei Estadual 11.010/2019".into(),
        };
        let calendar = Calendar::new(&[penha], [d("2025-06-19")]);
        assert!(calendar.is_holiday(d("2025-04-28")));
        assert!(!calendar.is_holiday(d("2019-04-29")));
        assert!(calendar.is_holiday(d("2025-06-19")));
        assert_eq!(
            calendar.last_business_day_of_month(2025, 2),
            Some(d("2025-02-28"))
        );
        assert_eq!(
            calendar.last_business_day_of_month(2026, 2),
            Some(d("2026-02-27"))
        );
    }

    #[test]
    fn ages() {
        assert_eq!(age_in_years(d("1960-03-10"), d("2025-03-09")), 64);
        assert_eq!(age_in_years(d("1960-03-10"), d("2025-03-10")), 65);
    }
}
