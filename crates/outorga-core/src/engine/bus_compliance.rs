//! What the carriers' own data shows against the law: the regulator reads
//! the monthly statistics (the trips made, the vehicle of each) and the
//! tickets sold (BP-e or CSV) and finds, each finding the infraction it is
//! and the article it breaks (the rulebook's `[bus.compliance]`):
//! a seat sold twice on one trip, more tickets than the vehicle's seats, a
//! trip's tickets without the items the law requires, a week with fewer
//! trips than the minimum frequency of the line's operation in force, and
//! statistics handed in late.

use crate::context::{Context, EngineError};
use crate::model::{BusCompliance, FindingKind};
use chrono::{Datelike, Days, Months, NaiveDate, NaiveDateTime, NaiveTime, Weekday};
use std::collections::BTreeMap;

/// A line's operation in force: its departures on each day of the week
/// (Monday first) and the minimum number of trips a week (art. 13, V).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schedule {
    pub departures: [Vec<NaiveTime>; 7],
    pub min_weekly_trips: u32,
}

impl Schedule {
    /// The departures on `day`'s day of the week.
    pub fn on(&self, day: NaiveDate) -> &[NaiveTime] {
        &self.departures[day.weekday().num_days_from_monday() as usize]
    }

    /// Departures scheduled in a week.
    pub fn weekly(&self) -> usize {
        self.departures.iter().map(Vec::len).sum()
    }
}

/// A ticket as the carrier reports it.
#[derive(Debug, Clone, Copy)]
pub struct Sold<'a> {
    pub key: &'a str,
    pub line: &'a str,
    pub departs: NaiveDateTime,
    /// 0: a standing passenger.
    pub seat: u32,
    /// The items of the law the ticket does not show.
    pub missing: &'a [String],
}

/// A trip made, as the statistics report it, with its vehicle's seats when
/// the vehicle is known.
#[derive(Debug, Clone, Copy)]
pub struct Made<'a> {
    pub line: &'a str,
    pub departs: NaiveDateTime,
    pub seats: Option<u32>,
    pub semi_urban: bool,
}

/// The month the data covers and what was handed in.
#[derive(Debug, Clone, Copy)]
pub struct Month {
    /// Its first day.
    pub first: NaiveDate,
    /// The day the statistics were handed in, if they were.
    pub delivered: Option<NaiveDate>,
}

/// One thing the data shows against the law.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding<'r> {
    pub kind: FindingKind,
    /// Names the finding among the month's, so it becomes one auto at most.
    pub key: String,
    pub line: Option<String>,
    /// When the infraction happened (the trip's departure; the first day
    /// the statistics were late).
    pub at: NaiveDateTime,
    /// The infraction's code in the rulebook's catalog.
    pub infraction: &'r str,
    pub citations: Vec<&'r str>,
    /// What was found, in Portuguese.
    pub detail: String,
}

/// A line's operation in force on a day, as the caller reads it.
pub type ScheduleOn<'a> = dyn Fn(&str, NaiveDate) -> Option<Schedule> + 'a;

/// Makes the findings of one rulebook: each kind's infraction and article.
struct Finder<'r> {
    codes: &'r [crate::model::Infraction],
    rules: &'r BusCompliance,
}

impl<'r> Finder<'r> {
    fn found(
        &self,
        kind: FindingKind,
        (key, line): (String, Option<&str>),
        at: NaiveDateTime,
        detail: String,
    ) -> Finding<'r> {
        let rule = self.rules.rule(kind);
        Finding {
            kind,
            key: format!("{}:{key}", kind.name()),
            line: line.map(str::to_string),
            at,
            infraction: self.codes[rule.infraction.0 as usize].code.as_str(),
            citations: vec![rule.citation.as_str()],
            detail,
        }
    }
}

fn rules<'r>(ctx: &Context<'r>) -> Result<&'r BusCompliance, EngineError> {
    ctx.rulebook
        .bus
        .as_ref()
        .and_then(|b| b.compliance.as_ref())
        .ok_or_else(|| {
            EngineError::NotInRulebook("regras de conferência dos dados das transportadoras".into())
        })
}

/// The items of the law's list (`[bus] ticket_fields`) a ticket that shows
/// `shown` lacks; none on a semi-urban line, whose tickets may be
/// simplified.
pub fn missing_fields(ctx: &Context<'_>, shown: &[&str], semi_urban: bool) -> Vec<String> {
    match &ctx.rulebook.bus {
        Some(bus) if !semi_urban => bus
            .ticket_fields
            .names
            .iter()
            .filter(|name| !shown.contains(&name.as_str()))
            .cloned()
            .collect(),
        _ => Vec::new(),
    }
}

/// When the statistics of the month beginning `first` are due, and the day
/// after which handing them in is late.
pub fn statistics_due<'r>(
    ctx: &Context<'r>,
    first: NaiveDate,
) -> Result<(NaiveDate, NaiveDate, Vec<&'r str>), EngineError> {
    let rules = rules(ctx)?;
    let day = ctx.whole(&rules.statistics_due_day.value, first, "dia do mês")?;
    let grace = ctx.whole(&rules.late_after_days.value, first, "dias")?;
    let next = first
        .with_day(1)
        .and_then(|d| d.checked_add_months(Months::new(1)))
        .ok_or(EngineError::TooLarge)?;
    if !(1..=28).contains(&day) {
        return Err(EngineError::InvalidQuestion(format!(
            "o dia do vencimento das estatísticas vale {day}: defina-o de 1 a 28, para que todo mês o tenha ({})",
            rules.statistics_due_day.citation
        )));
    }
    let due = next.with_day(day).ok_or(EngineError::TooLarge)?;
    let late_after = due
        .checked_add_days(Days::new(u64::from(grace)))
        .ok_or(EngineError::TooLarge)?;
    Ok((
        due,
        late_after,
        vec![
            rules.statistics_due_day.citation.as_str(),
            rules.late_after_days.citation.as_str(),
        ],
    ))
}

/// What the month's data shows, by kind then moment. `schedule` gives a
/// line's operation in force on a day; `lines` are the lines the carrier
/// serves; only weeks ended before `today` are weighed.
pub fn findings<'r>(
    ctx: &Context<'r>,
    month: Month,
    (tickets, trips): (&[Sold<'_>], &[Made<'_>]),
    (lines, schedule): (&[&str], &ScheduleOn<'_>),
    today: NaiveDate,
) -> Result<Vec<Finding<'r>>, EngineError> {
    let rules = rules(ctx)?;
    let finder = Finder {
        codes: &ctx.rulebook.infractions,
        rules,
    };
    let found = |kind, key, line, at, detail| finder.found(kind, (key, line), at, detail);
    let mut out = Vec::new();
    let mut by_trip: BTreeMap<(&str, NaiveDateTime), Vec<&Sold<'_>>> = BTreeMap::new();
    for t in tickets {
        by_trip.entry((t.line, t.departs)).or_default().push(t);
    }
    let made: BTreeMap<(&str, NaiveDateTime), &Made<'_>> =
        trips.iter().map(|m| ((m.line, m.departs), m)).collect();
    for ((line, departs), sold) in &by_trip {
        let trip = format!("{line} {}", departs.format("%d/%m/%Y %H:%M"));
        let at = departs.format("%Y-%m-%dT%H:%M");
        let mut seats: BTreeMap<u32, Vec<&str>> = BTreeMap::new();
        for t in sold.iter().filter(|t| t.seat > 0) {
            seats.entry(t.seat).or_default().push(t.key);
        }
        for (seat, keys) in seats.iter().filter(|(_, keys)| keys.len() > 1) {
            out.push(found(
                FindingKind::SeatSoldTwice,
                format!("{line}:{at}:{seat}"),
                Some(line),
                *departs,
                format!(
                    "poltrona {seat} da viagem {trip} vendida {} vezes (bilhetes {})",
                    keys.len(),
                    keys.join(", ")
                ),
            ));
        }
        // More tickets than seats, or a ticket for a seat the bus does not
        // have (a passenger standing, art. 31): one finding per trip.
        if let Some(Made {
            seats: Some(capacity),
            semi_urban: false,
            ..
        }) = made.get(&(*line, *departs))
        {
            let beyond: Vec<String> = seats
                .keys()
                .filter(|seat| **seat > *capacity)
                .map(u32::to_string)
                .collect();
            let detail = if sold.len() > *capacity as usize {
                Some(format!(
                    "{} bilhetes vendidos para a viagem {trip}, cujo veículo tem {capacity} poltronas",
                    sold.len()
                ))
            } else if !beyond.is_empty() {
                Some(format!(
                    "bilhete(s) para a(s) poltrona(s) {} da viagem {trip}, cujo veículo só tem {capacity} poltronas",
                    beyond.join(", ")
                ))
            } else {
                None
            };
            if let Some(detail) = detail {
                out.push(found(
                    FindingKind::OverCapacity,
                    format!("{line}:{at}"),
                    Some(line),
                    *departs,
                    detail,
                ));
            }
        }
        let lacking: Vec<&&Sold<'_>> = sold.iter().filter(|t| !t.missing.is_empty()).collect();
        if let Some(first) = lacking.first() {
            let mut items: Vec<&str> = lacking
                .iter()
                .flat_map(|t| t.missing.iter().map(String::as_str))
                .collect();
            items.sort_unstable();
            items.dedup();
            out.push(found(
                FindingKind::TicketFields,
                format!("{line}:{at}"),
                Some(line),
                *departs,
                format!(
                    "{} bilhete(s) da viagem {trip} sem: {} (por exemplo, o bilhete {})",
                    lacking.len(),
                    items.join(", "),
                    first.key
                ),
            ));
        }
    }
    out.extend(weeks_below_minimum(
        &finder,
        month,
        trips,
        (lines, schedule),
        today,
    ));
    let (due, late_after, _) = statistics_due(ctx, month.first)?;
    let late = match month.delivered {
        Some(on) if on > late_after => Some(format!(
            "estatísticas do mês {} entregues em {}, {} dias depois do prazo de {}",
            month.first.format("%m/%Y"),
            on.format("%d/%m/%Y"),
            (on - due).num_days(),
            due.format("%d/%m/%Y")
        )),
        None if today > late_after => Some(format!(
            "estatísticas do mês {} não entregues; o prazo era {}",
            month.first.format("%m/%Y"),
            due.format("%d/%m/%Y")
        )),
        _ => None,
    };
    if let Some(detail) = late {
        let mut finding = found(
            FindingKind::LateStatistics,
            month.first.format("%Y-%m").to_string(),
            None,
            (late_after + Days::new(1)).and_time(NaiveTime::MIN),
            detail,
        );
        finding
            .citations
            .push(rules.statistics_due_day.citation.as_str());
        out.push(finding);
    }
    out.sort_by(|a, b| (a.kind, a.at, &a.key).cmp(&(b.kind, b.at, &b.key)));
    Ok(out)
}

/// Each week (Monday to Sunday) inside the month and ended before `today`
/// in which a line made fewer trips than its operation's minimum.
fn weeks_below_minimum<'r>(
    finder: &Finder<'r>,
    month: Month,
    trips: &[Made<'_>],
    (lines, schedule): (&[&str], &ScheduleOn<'_>),
    today: NaiveDate,
) -> Vec<Finding<'r>> {
    let mut out = Vec::new();
    let Some(next_month) = month.first.checked_add_months(Months::new(1)) else {
        return out;
    };
    let mut monday = month.first;
    while monday.weekday() != Weekday::Mon {
        monday = monday.succ_opt().unwrap_or(monday);
    }
    while let Some(sunday) = monday.checked_add_days(Days::new(6))
        && sunday < next_month
        && sunday < today
    {
        for line in lines {
            let Some(minimum) = schedule(line, monday).map(|s| s.min_weekly_trips) else {
                continue;
            };
            let made = trips
                .iter()
                .filter(|t| t.line == *line && (monday..=sunday).contains(&t.departs.date()))
                .count();
            if made < minimum as usize {
                out.push(finder.found(
                    FindingKind::BelowMinimumFrequency,
                    (format!("{line}:{monday}"), Some(line)),
                    sunday.and_time(NaiveTime::from_hms_opt(23, 59, 0).unwrap_or(NaiveTime::MIN)),
                    format!(
                        "linha {line}: {made} viagem(ns) na semana de {} a {}; a frequência mínima é {minimum}",
                        monday.format("%d/%m/%Y"),
                        sunday.format("%d/%m/%Y")
                    ),
                ));
            }
        }
        monday = sunday + Days::new(1);
    }
    out
}
