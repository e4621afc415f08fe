//! Turning a rulebook's sanction specs into the sanctions of one case.

use crate::context::{Context, EngineError, exact, round_brl, whole_u32};
use crate::facts::PersonId;
use crate::model::{
    DocumentKind, FineSpec, GroupId, Party, Place, Quantity, Role, SanctionKind, SanctionSpec,
};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use smallvec::{SmallVec, smallvec};

/// The articles a decision rests on (kept inline: a sanction seldom cites more
/// than four).
pub type Citations<'r> = SmallVec<[&'r str; 4]>;

/// A fine in the unit the law states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FineAmount<'r> {
    pub unit: &'r str,
    pub quantity: Decimal,
}

/// A penalty or administrative measure that applies, with the articles it rests on.
#[derive(Debug, Clone, PartialEq)]
pub struct Sanction<'r> {
    pub kind: SanctionKind,
    /// The person it falls on (warnings, suspensions, cassations, bars).
    pub target: Option<PersonId>,
    /// Who pays (fines).
    pub payer: Option<PersonId>,
    pub amount: Option<FineAmount<'r>>,
    /// The fine in BRL, when the unit's value on the day is known.
    pub brl: Option<Decimal>,
    pub days: Option<u32>,
    pub min_days: Option<u32>,
    pub max_days: Option<u32>,
    pub years: Option<u32>,
    pub months: Option<u32>,
    pub min_hours: Option<u32>,
    /// `days` are business days.
    pub business_days: bool,
    pub document: Option<DocumentKind>,
    /// Where the measure may be carried out.
    pub places: &'r [Place],
    /// The article that applies it on the spot, from the auto on.
    pub at_once: Option<&'r str>,
    /// The deciding authority may impose it or not.
    pub optional: bool,
    pub citations: Citations<'r>,
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
            business_days: false,
            document: None,
            places: &[],
            at_once: None,
            optional: false,
            citations: smallvec![citation],
        }
    }

    /// Adds a citation unless the sanction already has it.
    pub fn cite(&mut self, citation: &'r str) {
        if !cites(&self.citations, citation) {
            self.citations.push(citation);
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
            && self.business_days == other.business_days
            && self.document == other.document
            && self.places == other.places
            && self.at_once == other.at_once
            && self.optional == other.optional
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
    /// Whether the offender, and the holder, are companies (a company has no
    /// driver registration to suspend or cassate).
    pub companies: (bool, bool),
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
    /// Multiplies lengths and fines (a chain of repeats).
    pub multiplier: Decimal,
    /// Multiplies fines only (fined incidences of the same code).
    pub fine_factor: Decimal,
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
        sanction.cite(citation);
    }
    if spec.kind.has_target() {
        let company = match spec.target {
            Party::Offender => parties.companies.0,
            Party::Holder => parties.companies.1,
        };
        if company
            && matches!(
                spec.kind,
                SanctionKind::Suspension | SanctionKind::DriverCassation
            )
        {
            return Ok(None);
        }
        sanction.target = Some(parties.person(spec.target));
    }
    // Lengths of time are whole numbers; a chain of repeats may multiply them.
    let scaled = |q: &Option<Quantity>| -> Result<Option<u32>, EngineError> {
        q.as_ref()
            .map(|q| {
                let base = ctx.whole(q, occasion.on, "dias ou horas")?;
                let value = exact(Decimal::from(base).checked_mul(occasion.multiplier))?;
                whole_u32(value).ok_or(EngineError::NotWhole {
                    name: "a duração multiplicada pela reincidência".to_string(),
                    what: "dias ou horas",
                    value,
                })
            })
            .transpose()
    };
    sanction.days = scaled(&spec.days)?;
    sanction.min_days = scaled(&spec.min_days)?;
    sanction.max_days = scaled(&spec.max_days)?;
    sanction.min_hours = scaled(&spec.min_hours)?;
    sanction.business_days = spec.business_days;
    let plain = |q: &Option<Quantity>| -> Result<Option<u32>, EngineError> {
        q.as_ref()
            .map(|q| ctx.whole(q, occasion.on, "anos ou meses"))
            .transpose()
    };
    sanction.years = plain(&spec.years)?;
    sanction.months = plain(&spec.months)?;
    sanction.document = spec.document;
    sanction.places = &spec.places;
    sanction.optional = spec.optional;
    if let Some(at_once) = ctx
        .rulebook
        .procedure
        .iter()
        .flat_map(|p| &p.at_once)
        .find(|m| m.value == spec.kind)
    {
        sanction.at_once = Some(&at_once.citation);
        sanction.cite(&at_once.citation);
    }
    if let Some(fine) = &spec.fine {
        let cited = match fine {
            FineSpec::Fixed(cited) => cited,
            FineSpec::OfGroup => occasion
                .group
                .map(|g| ctx.rulebook.group(g))
                .and_then(|g| g.fine.as_ref())
                .ok_or_else(|| {
                    EngineError::NotInRulebook("a multa do grupo desta infração".into())
                })?,
        };
        sanction.cite(&cited.citation);
        let factor = spec
            .factor
            .as_ref()
            .map(|f| ctx.quantity(f, occasion.on))
            .transpose()?
            .unwrap_or(Decimal::ONE);
        let quantity = exact(
            cited
                .value
                .quantity
                .checked_mul(occasion.multiplier)
                .and_then(|q| q.checked_mul(occasion.fine_factor))
                .and_then(|q| q.checked_mul(factor)),
        )?
        .normalize();
        sanction.brl = ctx
            .unit_value(&cited.value.unit, occasion.on)
            .map(|value| exact(value.checked_mul(quantity)).map(round_brl))
            .transpose()?;
        sanction.amount = Some(FineAmount {
            unit: &cited.value.unit,
            quantity,
        });
        sanction.payer = Some(parties.payer);
    }
    Ok(Some(sanction))
}

/// Adds a sanction, merging it into an equal one already there (joining
/// citations); returns its index.
pub fn push_merged<'r>(sanctions: &mut Vec<Sanction<'r>>, sanction: Sanction<'r>) -> usize {
    match sanctions.iter().position(|s| s.same_measure(&sanction)) {
        Some(index) => {
            let existing = &mut sanctions[index].citations;
            for citation in sanction.citations {
                if !cites(existing, citation) {
                    existing.push(citation);
                }
            }
            index
        }
        None => {
            sanctions.push(sanction);
            sanctions.len() - 1
        }
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
    let mut citations = Vec::with_capacity(16);
    for citation in sanctions
        .iter()
        .flat_map(|s| s.citations.iter().copied())
        .chain(more.iter().copied())
    {
        if !cites(&citations, citation) {
            citations.push(citation);
        }
    }
    citations
}

/// Whether `list` already has `citation`. Citations are borrowed from the
/// rulebook, so the same one is usually the same text in memory: compared by
/// address first, by content only when the addresses differ.
pub fn cites(list: &[&str], citation: &str) -> bool {
    list.iter()
        .any(|c| std::ptr::eq(*c, citation) || (c.len() == citation.len() && *c == citation))
}
