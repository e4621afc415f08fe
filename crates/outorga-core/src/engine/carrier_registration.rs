//! The register of the carriers authorized for special services (Amapá
//! art. 28, § 4º: "o Poder delegante organizará e manterá cadastro das
//! empresas"): how long a registration lasts and when a renewal starts
//! (the validity is the complementary norm's, art. 28, § 6º: a rulebook
//! parameter), whether one more may be granted, and whether a carrier is
//! registered on every day of a service — a charter's bus carries a copy
//! of the registration (art. 64, IV). A registration cancelled (art. 28,
//! § 5º: "cassado imediatamente") is no longer in force from the day of its
//! cancellation.

use crate::calendar::add_days;
use crate::context::{Context, EngineError};
use crate::model::CarrierRegistrationRules;
use chrono::NaiveDate;

/// A registration of the carrier, as the record keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    /// As people read it ("3/2030").
    pub number: String,
    /// The first and last day of its term.
    pub from: NaiveDate,
    pub until: NaiveDate,
    /// The day it was cancelled, if it was.
    pub cancelled_on: Option<NaiveDate>,
}

impl Registration {
    /// The last day it is in force: its term's, or the day before its
    /// cancellation; none when cancelled before it began.
    pub fn last_day(&self) -> Option<NaiveDate> {
        let last = match self.cancelled_on {
            Some(cancelled) => self.until.min(cancelled.pred_opt()?),
            None => self.until,
        };
        (last >= self.from).then_some(last)
    }

    /// Whether it is in force on `day`.
    pub fn in_force_on(&self, day: NaiveDate) -> bool {
        self.from <= day && self.last_day().is_some_and(|last| day <= last)
    }
}

/// The rules of the register, when the rulebook keeps one.
pub fn rules<'r>(ctx: &Context<'r>) -> Option<&'r CarrierRegistrationRules> {
    ctx.rulebook
        .bus
        .as_ref()
        .and_then(|b| b.charters.as_ref())
        .and_then(|c| c.registration.as_ref())
}

/// The term of a registration granted on `today`, given the carrier's
/// `earlier` ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Term {
    pub from: NaiveDate,
    pub until: NaiveDate,
    /// The number of the registration it renews (the one in force today).
    pub renews: Option<String>,
    pub citations: Vec<String>,
}

/// Whether a registration may be granted on `today` and its term: a new one
/// runs from today; while one is in force, the new one renews it, from the
/// day after it ends. One renewal at a time: while a registration that
/// begins after today is in force, another is refused (the reason and its
/// article).
pub fn grant(
    ctx: &Context<'_>,
    earlier: &[Registration],
    today: NaiveDate,
) -> Result<Result<Term, (String, String)>, EngineError> {
    let rules = rules(ctx).ok_or_else(|| {
        EngineError::NotInRulebook("o cadastro das transportadoras autorizadas".into())
    })?;
    if let Some(ahead) = earlier
        .iter()
        .find(|r| r.from > today && r.last_day().is_some())
    {
        return Ok(Err((
            format!(
                "o registro nº {} já renova o atual a partir de {}",
                ahead.number,
                ahead.from.format("%d/%m/%Y")
            ),
            rules.register.clone(),
        )));
    }
    let current = earlier
        .iter()
        .filter(|r| r.in_force_on(today))
        .max_by_key(|r| r.from);
    let citations = vec![rules.register.clone(), rules.valid.citation.clone()];
    Ok(Ok(match current.and_then(|r| Some((r, r.last_day()?))) {
        Some((renewed, last)) => Term {
            from: add_days(last, 1),
            until: ctx.period_end(&rules.valid.value, last)?,
            renews: Some(renewed.number.clone()),
            citations,
        },
        None => Term {
            from: today,
            until: ctx.period_end(&rules.valid.value, today)?,
            renews: None,
            citations,
        },
    }))
}

/// The first day from `from` to `until` on which none of `registrations`
/// is in force, and why, in Portuguese; none when they cover every day.
pub fn uncovered(
    registrations: &[Registration],
    from: NaiveDate,
    until: NaiveDate,
) -> Option<String> {
    let mut day = from;
    loop {
        let Some(covering) = registrations
            .iter()
            .filter(|r| r.in_force_on(day))
            .filter_map(Registration::last_day)
            .max()
        else {
            return Some(why_not(registrations, day));
        };
        if covering >= until {
            return None;
        }
        day = add_days(covering, 1);
    }
}

/// Why no registration is in force on `day`.
fn why_not(registrations: &[Registration], day: NaiveDate) -> String {
    let on = day.format("%d/%m/%Y");
    let cancelled = registrations
        .iter()
        .filter(|r| r.from <= day)
        .filter_map(|r| Some((r, r.cancelled_on?)))
        .filter(|(r, c)| *c <= day && *c <= r.until)
        .max_by_key(|(_, c)| *c);
    if let Some((r, c)) = cancelled {
        return format!(
            "o registro cadastral nº {} da transportadora foi cassado em {}: sem registro em {on}",
            r.number,
            c.format("%d/%m/%Y")
        );
    }
    let ended = registrations
        .iter()
        .filter(|r| r.until < day)
        .max_by_key(|r| r.until);
    match ended {
        Some(r) => format!(
            "o registro cadastral nº {} da transportadora venceu em {}: sem registro em {on}",
            r.number,
            r.until.format("%d/%m/%Y")
        ),
        None => format!(
            "a transportadora não tem registro cadastral em vigor em {on} (cadastro das autorizadas)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).expect("date")
    }

    fn registration(from: NaiveDate, until: NaiveDate) -> Registration {
        Registration {
            number: "1/2030".into(),
            from,
            until,
            cancelled_on: None,
        }
    }

    #[test]
    fn a_service_is_covered_day_by_day() {
        let first = registration(d(2030, 1, 2), d(2031, 1, 2));
        let renewal = Registration {
            number: "9/2030".into(),
            ..registration(d(2031, 1, 3), d(2032, 1, 2))
        };
        assert_eq!(
            uncovered(std::slice::from_ref(&first), d(2030, 3, 1), d(2031, 1, 2)),
            None
        );
        let after =
            uncovered(std::slice::from_ref(&first), d(2031, 1, 2), d(2031, 1, 3)).expect("a gap");
        assert!(after.contains("venceu em 02/01/2031"), "{after}");
        assert_eq!(
            uncovered(&[first.clone(), renewal], d(2030, 12, 30), d(2031, 2, 1)),
            None
        );
        let none = uncovered(&[], d(2030, 1, 1), d(2030, 1, 1)).expect("none");
        assert!(none.contains("não tem registro"), "{none}");
    }

    #[test]
    fn a_cancelled_registration_ends_the_day_before() {
        let cancelled = Registration {
            cancelled_on: Some(d(2030, 6, 1)),
            ..registration(d(2030, 1, 2), d(2031, 1, 2))
        };
        assert!(cancelled.in_force_on(d(2030, 5, 31)));
        assert!(!cancelled.in_force_on(d(2030, 6, 1)));
        let why = uncovered(&[cancelled], d(2030, 5, 30), d(2030, 6, 2)).expect("a gap");
        assert!(why.contains("cassado em 01/06/2030"), "{why}");
    }
}
