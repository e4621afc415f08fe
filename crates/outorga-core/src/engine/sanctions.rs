//! Turning a rulebook's sanction specs into the sanctions of one case.

use crate::context::{Context, EngineError, round_brl};
use crate::facts::PersonId;
use crate::model::{
    Amount, DocumentKind, FineSpec, GroupId, Party, Quantity, Role, SanctionKind, SanctionSpec,
};
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// A penalty or administrative measure that applies, with the articles it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Sanction<'r> {
    pub kind: SanctionKind,
    /// The person it falls on (warnings, suspensions, cassations, bars).
    pub target: Option<PersonId>,
    /// Who pays (fines).
    pub payer: Option<PersonId>,
    pub amount: Option<Amount>,
    /// The fine in BRL, when the unit's value on the day is known.
    pub brl: Option<Decimal>,
    pub days: Option<Decimal>,
    pub min_days: Option<Decimal>,
    pub max_days: Option<Decimal>,
    pub years: Option<Decimal>,
    pub months: Option<Decimal>,
    pub min_hours: Option<Decimal>,
    pub document: Option<DocumentKind>,
    pub citations: Vec<&'r str>,
}

impl<'r> Sanction<'r> {
    pub fn new(kind: SanctionKind, citation: &'r str) -> Self {
        Self {
            kind,
            target: None,
            payer: None,
            amount: None,
            brl: None,
            days: None,
            min_days: None,
            max_days: None,
            years: None,
            months: None,
            min_hours: None,
            document: None,
            citations: vec![citation],
        }
    }

    fn same_measure(&self, other: &Sanction<'_>) -> bool {
        self.kind == other.kind
            && self.target == other.target
            && self.payer == other.payer
            && self.amount == other.amount
            && self.days == other.days
            && self.min_days == other.min_days
            && self.max_days == other.max_days
            && self.years == other.years
            && self.months == other.months
            && self.min_hours == other.min_hours
            && self.document == other.document
    }
}

/// The people a sanction may fall on, and the offender's role.
#[derive(Debug, Clone, Copy)]
pub struct Parties {
    pub offender: PersonId,
    pub holder: PersonId,
    pub role: Role,
    /// Who pays fines.
    pub payer: PersonId,
}

impl Parties {
    fn person(&self, party: Party) -> PersonId {
        match party {
            Party::Offender => self.offender,
            Party::Holder => self.holder,
        }
    }
}

/// What a spec is applied to: the day, the group whose fine applies, a multiplier.
#[derive(Debug, Clone, Copy)]
pub struct Occasion {
    pub on: NaiveDate,
    pub group: Option<GroupId>,
    pub multiplier: Decimal,
}

/// The sanction a spec imposes on these parties, or `None` when the offender's
/// role is not the one the spec is for.
pub fn instantiate<'r>(
    ctx: &Context<'r>,
    spec: &'r SanctionSpec,
    rule_citation: &'r str,
    parties: &Parties,
    occasion: &Occasion,
) -> Result<Option<Sanction<'r>>, EngineError> {
    if !spec.when_offender.admits(parties.role) {
        return Ok(None);
    }
    let mut sanction = Sanction::new(spec.kind, rule_citation);
    if let Some(citation) = &spec.citation {
        sanction.citations.push(citation);
    }
    if spec.kind.has_target() {
        sanction.target = Some(parties.person(spec.target));
    }
    let scaled = |q: &Option<Quantity>| -> Result<Option<Decimal>, EngineError> {
        q.as_ref()
            .map(|q| Ok((ctx.quantity(q, occasion.on)? * occasion.multiplier).normalize()))
            .transpose()
    };
    sanction.days = scaled(&spec.days)?;
    sanction.min_days = scaled(&spec.min_days)?;
    sanction.max_days = scaled(&spec.max_days)?;
    sanction.min_hours = scaled(&spec.min_hours)?;
    let plain = |q: &Option<Quantity>| -> Result<Option<Decimal>, EngineError> {
        q.as_ref()
            .map(|q| Ok(ctx.quantity(q, occasion.on)?.normalize()))
            .transpose()
    };
    sanction.years = plain(&spec.years)?;
    sanction.months = plain(&spec.months)?;
    sanction.document = spec.document;
    if let Some(fine) = &spec.fine {
        let cited = match fine {
            FineSpec::Fixed(cited) => cited,
            FineSpec::OfGroup => occasion
                .group
                .map(|g| ctx.rulebook.group(g))
                .and_then(|g| g.fine.as_ref())
                .ok_or_else(|| {
                    EngineError::NotInRulebook("a group fine for this infraction".into())
                })?,
        };
        sanction.citations.push(&cited.citation);
        let quantity = (cited.value.quantity * occasion.multiplier).normalize();
        sanction.brl = ctx
            .unit_value(&cited.value.unit, occasion.on)
            .map(|value| round_brl(value * quantity));
        sanction.amount = Some(Amount {
            unit: cited.value.unit.clone(),
            quantity,
        });
        sanction.payer = Some(parties.payer);
    }
    Ok(Some(sanction))
}

/// Adds a sanction, merging it into an equal one already there (joining citations).
pub fn push_merged<'r>(sanctions: &mut Vec<Sanction<'r>>, sanction: Sanction<'r>) {
    if let Some(existing) = sanctions.iter_mut().find(|s| s.same_measure(&sanction)) {
        for citation in sanction.citations {
            if !existing.citations.contains(&citation) {
                existing.citations.push(citation);
            }
        }
    } else {
        sanctions.push(sanction);
    }
}

/// Adds the administrative process that the rulebook requires before some sanctions.
pub fn add_process<'r>(ctx: &Context<'r>, sanctions: &mut Vec<Sanction<'r>>) {
    if let Some(process) = &ctx.rulebook.process
        && sanctions.iter().any(|s| process.kinds.contains(&s.kind))
    {
        push_merged(
            sanctions,
            Sanction::new(SanctionKind::AdministrativeProcess, &process.citation),
        );
    }
}

/// The citations of all sanctions, in order, each once.
pub fn all_citations<'r>(sanctions: &[Sanction<'r>], more: &[&'r str]) -> Vec<&'r str> {
    let mut citations: Vec<&'r str> = Vec::new();
    for citation in sanctions
        .iter()
        .flat_map(|s| s.citations.iter().copied())
        .chain(more.iter().copied())
    {
        if !citations.contains(&citation) {
            citations.push(citation);
        }
    }
    citations
}
