//! Counts per section, for `outorga rulebook check`.

use outorga_core::model::{Judgement, Rulebook};

/// (section, count) for each section of a rulebook.
pub fn summary(rulebook: &Rulebook) -> Vec<(&'static str, usize)> {
    let vehicles = &rulebook.vehicles;
    let vehicle_rules = vehicles.requirements.len()
        + usize::from(vehicles.inclusion.is_some())
        + vehicles.substitution.len()
        + usize::from(vehicles.replacement.is_some())
        + usize::from(vehicles.transition.is_some())
        + usize::from(vehicles.inspection.is_some())
        + vehicles.inspections.len();
    vec![
        ("infractions", rulebook.infractions.len()),
        ("groups", rulebook.groups.len()),
        ("sanction rules", rulebook.sanction_rules.len()),
        ("thresholds", rulebook.thresholds.len()),
        ("deadlines", rulebook.deadlines.len()),
        ("parameters", rulebook.parameters.len()),
        (
            "decree defaults",
            rulebook
                .parameters
                .iter()
                .filter(|p| p.decree_default.is_some())
                .count()
                + rulebook
                    .deadlines
                    .iter()
                    .filter(|d| d.decree_default.is_some())
                    .count()
                + vehicles
                    .substitution
                    .iter()
                    .filter(|s| s.decree_default.is_some())
                    .count()
                + rulebook
                    .change_limits
                    .iter()
                    .filter(|l| l.decree_default.is_some())
                    .count()
                + usize::from(rulebook.public_call.as_ref().is_some_and(|p| {
                    matches!(&p.judgement, Judgement::Criteria(r) if r.tie_break.decree_default.is_some())
                })),
        ),
        ("fiscal units", rulebook.units.len()),
        ("local holidays", rulebook.holidays.len()),
        ("caps", rulebook.caps.len()),
        ("change limits", rulebook.change_limits.len()),
        ("requirements", rulebook.requirements.len()),
        ("vehicle rules", vehicle_rules),
        (
            "fine rules",
            rulebook.late_payment.len() + usize::from(rulebook.installments.is_some()),
        ),
        (
            "suspension on request",
            usize::from(rulebook.permit_suspension.is_some()),
        ),
        (
            "downtime bands",
            rulebook.downtime.as_ref().map_or(0, |d| d.bands.len()),
        ),
        ("registration rules", rulebook.registrations.len()),
        ("forbidden acts", rulebook.forbidden_acts.len()),
        ("listed grounds", rulebook.grounds.len()),
        ("stand rules", usize::from(rulebook.stands.is_some())),
        (
            "public call rules",
            rulebook.public_call.as_ref().map_or(0, |p| match &p.judgement {
                Judgement::Criteria(r) => 1 + r.shares.len(),
                Judgement::Bid(_) => 1,
            }),
        ),
        ("fees", rulebook.fees.len()),
        (
            "fare rules",
            rulebook.fare.as_ref().map_or(0, |f| {
                1 + f.windows.len()
                    + f.discounts.len()
                    + usize::from(f.bandeira_2_increase.is_some())
            }),
        ),
    ]
}
