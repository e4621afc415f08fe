//! A debt's plan of parcels on the debt's page: each parcel with its day,
//! its amount and the payment that paid it (its own, or the one that paid
//! the balance), and the balance of the plan fallen due at once because a
//! parcel was left unpaid too long (Teófilo Otoni art. 98, § 3º) — owed
//! now, as what is due today says, or paid so, as the debt records it.

use crate::debts::amount;
use crate::format;
use crate::place::Place;
use chrono::NaiveDate;
use outorga_store::{Debt, Due};

/// A parcel of the plan as the page shows it.
#[derive(Debug)]
pub(crate) struct Parcel {
    pub parcel: u32,
    pub due: String,
    pub amount: String,
    /// The day it was paid (or the balance with it), or a dash.
    pub paid_on: String,
    pub state: &'static str,
}

/// The parcels of `debt`'s plan on `today`, each with the payment that
/// paid it: its own, or the one that paid the balance fallen due at once.
pub(crate) fn parcels(debt: &Debt, today: NaiveDate) -> Vec<Parcel> {
    let last = debt.payments.last();
    debt.schedule
        .iter()
        .map(|s| {
            let own = debt.payments.iter().find(|p| p.parcel == s.parcel);
            let with_balance = last
                .filter(|p| own.is_none() && debt.accelerated_on.is_some() && p.parcel < s.parcel);
            let (paid_on, state) = match (own, with_balance) {
                (Some(p), _) => (format::day(p.paid_on), "paga"),
                (None, Some(p)) => (format::day(p.paid_on), "paga com o saldo"),
                (None, None) if s.due_on < today => ("—".to_string(), "vencida"),
                (None, None) => ("—".to_string(), "a vencer"),
            };
            Parcel {
                parcel: s.parcel,
                due: format::day(s.due_on),
                amount: amount(&s.quantity, &debt.unit),
                paid_on,
                state,
            }
        })
        .collect()
}

/// The balance of a plan fallen due at once.
#[derive(Debug)]
pub(crate) struct Balance {
    pub since: String,
    /// The law's article for it (the rulebook's).
    pub article: String,
    /// The parcel left unpaid, while the balance is owed; none once paid.
    pub parcel: Option<u32>,
}

/// The balance of `debt`'s plan fallen due at once, if it did: owed now
/// when what is `due` today says so, or paid so as the debt records it.
pub(crate) fn balance(place: &Place<'_>, debt: &Debt, due: Option<&Due>) -> Option<Balance> {
    let (since, parcel) = match (due, debt.accelerated_on) {
        (Some(d), _) => (d.balance_since?, Some(d.parcel)),
        (None, since) => (since?, None),
    };
    Some(Balance {
        since: format::day(since),
        article: acceleration_article(place, debt),
        parcel,
    })
}

/// The article by which the balance of `debt`'s plan falls due at once.
fn acceleration_article(place: &Place<'_>, debt: &Debt) -> String {
    place
        .rulebooks
        .iter()
        .find(|r| r.id == debt.rulebook)
        .and_then(|r| r.installments.as_ref())
        .and_then(|i| i.acceleration.as_ref())
        .map_or_else(String::new, |a| a.citation.clone())
}
