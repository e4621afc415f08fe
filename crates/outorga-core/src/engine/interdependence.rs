//! Economic interdependence between carriers of the same line (Amapá art. 9º).

use crate::engine::assessment::Outcome;
use crate::facts::{Facts, Person, PersonId};
use rust_decimal::Decimal;

/// Whether `applicant` may serve `line` alongside its other carriers: not if
/// it already serves it (art. 9º, parágrafo único), nor if it is tied to one
/// of them by capital over `percent` held by one in the other (I), a common
/// director or a partner over `percent` in both (II), a spouse or relative
/// over `percent` in one and the other (III), or the same group (IV). Facts
/// not given leave a tie unknown, never assumed absent.
pub fn check(facts: &Facts, applicant: PersonId, line: &str, percent: Decimal) -> Outcome {
    let mut carriers: Vec<PersonId> = facts
        .permits()
        .iter()
        .filter(|p| p.line.as_deref() == Some(line))
        .map(|p| p.holder)
        .collect();
    carriers.sort_unstable_by_key(|p| p.0);
    carriers.dedup();
    if carriers.contains(&applicant) {
        return Outcome::Unmet;
    }
    let mut outcome = Outcome::Met;
    for other in carriers {
        match tied(facts, applicant, other, percent) {
            Some(true) => return Outcome::Unmet,
            Some(false) => {}
            None => outcome = Outcome::Unknown,
        }
    }
    outcome
}

/// `Some(true)` when a tie is proven, `Some(false)` when the facts rule every
/// tie out, `None` when they do not tell.
fn tied(facts: &Facts, a: PersonId, b: PersonId, percent: Decimal) -> Option<bool> {
    let (pa, pb) = (facts.person(a), facts.person(b));
    let over = |company: &Person| -> Option<Vec<PersonId>> {
        company.shareholders.as_ref().map(|s| {
            s.iter()
                .filter(|(_, share)| *share > percent)
                .map(|(who, _)| *who)
                .collect()
        })
    };
    let (big_a, big_b) = (over(pa), over(pb));
    let directors = (pa.directors.as_ref(), pb.directors.as_ref());
    let groups = (pa.business_group.as_ref(), pb.business_group.as_ref());
    // I: one holds more than `percent` of the other.
    let capital = match (&big_a, &big_b) {
        (Some(x), _) if x.contains(&b) => Some(true),
        (_, Some(y)) if y.contains(&a) => Some(true),
        (Some(_), Some(_)) => Some(false),
        _ => None,
    };
    // II: a common director, or a partner over `percent` in both.
    let common = match (directors, &big_a, &big_b) {
        ((Some(x), Some(y)), _, _) if x.iter().any(|d| y.contains(d)) => Some(true),
        (_, Some(x), Some(y)) if x.iter().any(|s| y.contains(s)) => Some(true),
        ((Some(_), Some(_)), Some(_), Some(_)) => Some(false),
        _ => None,
    };
    // III: a spouse or relative over `percent` in one and the other.
    let family = match (&big_a, &big_b) {
        (Some(x), Some(y)) => {
            let related = |p: PersonId, q: PersonId| {
                let knows = |who: PersonId, of: PersonId| {
                    facts
                        .person(who)
                        .relatives
                        .as_ref()
                        .map(|r| r.contains(&of))
                };
                match (knows(p, q), knows(q, p)) {
                    (Some(true), _) | (_, Some(true)) => Some(true),
                    (Some(false), Some(false)) => Some(false),
                    _ => None,
                }
            };
            let mut answer = Some(false);
            for &p in x {
                for &q in y {
                    match related(p, q) {
                        Some(true) => return Some(true),
                        Some(false) => {}
                        None => answer = None,
                    }
                }
            }
            answer
        }
        _ => None,
    };
    // IV: the same business group.
    let group = match groups {
        (Some(x), Some(y)) => Some(x == y),
        _ => None,
    };
    let parts = [capital, common, family, group];
    if parts.contains(&Some(true)) {
        Some(true)
    } else if parts.iter().all(|p| *p == Some(false)) {
        Some(false)
    } else {
        None
    }
}
