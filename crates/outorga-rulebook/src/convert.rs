//! Raw files -> validated `outorga_core::model::Rulebook`. Every problem found is
//! reported with the span it comes from; nothing is half-built.

use crate::citation;
use crate::error::Diagnostics;
use crate::raw::*;
use outorga_core::calendar::{Counting, HolidayDate, HolidayRule};
use outorga_core::model::*;
use rust_decimal::Decimal;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

/// What a jurisdiction folder's `jurisdiction.toml` gives every rulebook in it.
#[derive(Debug, Clone)]
pub struct JurisdictionData {
    pub jurisdiction: Jurisdiction,
    pub holidays: Vec<HolidayRule>,
}

pub fn jurisdiction(
    raw: JurisdictionFile,
    folder: &str,
    diag: &mut Diagnostics,
) -> Option<JurisdictionData> {
    let id = raw.jurisdiction.id.get_ref();
    if id != folder {
        diag.error(
            raw.jurisdiction.id.span(),
            format!("jurisdiction id `{id}` must match its folder name `{folder}`"),
        );
    }
    let state = raw.jurisdiction.state.get_ref();
    if state.len() != 2 || !state.chars().all(|c| c.is_ascii_uppercase()) {
        diag.error(
            raw.jurisdiction.state.span(),
            format!("state `{state}` must be a two-letter code such as ES"),
        );
    }
    let zone = raw.jurisdiction.time_zone.get_ref();
    let time_zone = match zone.parse::<chrono_tz::Tz>() {
        Ok(tz) => tz,
        Err(_) => {
            diag.error(
                raw.jurisdiction.time_zone.span(),
                format!(
                    "time zone `{zone}` is not an IANA name; Brazil's are America/Sao_Paulo, America/Belem, America/Manaus, America/Cuiaba, America/Fortaleza, America/Recife, America/Rio_Branco…"
                ),
            );
            chrono_tz::UTC
        }
    };
    let mut holidays = Vec::new();
    for spanned in &raw.holidays {
        let span = spanned.span();
        let holiday = spanned.get_ref();
        let date = match (&holiday.date, holiday.easter_offset) {
            (Some(text), None) => match parse_month_day(text) {
                Some((month, day)) => HolidayDate::Fixed { month, day },
                None => {
                    diag.error(span, format!("holiday date `{text}` must be MM-DD"));
                    continue;
                }
            },
            (None, Some(offset)) => HolidayDate::EasterOffset(offset),
            _ => {
                diag.error(
                    span,
                    format!(
                        "holiday `{}` needs exactly one of `date` (MM-DD) or `easter_offset`",
                        holiday.name
                    ),
                );
                continue;
            }
        };
        if holiday.source.trim().is_empty() {
            diag.error(
                span,
                format!("holiday `{}` needs its `source` (the act)", holiday.name),
            );
        }
        holidays.push(HolidayRule {
            name: holiday.name.clone(),
            date,
            from_year: holiday.from_year,
            until_year: holiday.until_year,
            source: holiday.source.clone(),
        });
    }
    Some(JurisdictionData {
        jurisdiction: Jurisdiction {
            id: id.clone(),
            name: raw.jurisdiction.name,
            state: state.clone(),
            time_zone,
            authority: raw.jurisdiction.authority,
        },
        holidays,
    })
}

fn parse_month_day(text: &str) -> Option<(u32, u32)> {
    let (month, day) = text.split_once('-')?;
    let (month, day) = (month.parse().ok()?, day.parse().ok()?);
    chrono::NaiveDate::from_ymd_opt(2024, month, day).map(|_| (month, day))
}

/// Converts one service rulebook. Returns `None` when any error was reported.
pub fn rulebook(
    raw: RulebookFile,
    shared: Option<(CatalogFile, &mut Diagnostics)>,
    id: String,
    jurisdiction: &JurisdictionData,
    law: outorga_core::law_text::LawText,
    diag: &mut Diagnostics,
) -> Option<Rulebook> {
    let mut c = Converter {
        diag,
        st: State {
            law,
            ..State::default()
        },
    };
    let errors_before = c.diag.len();

    if raw.act.services.is_empty() {
        c.diag
            .error(0..0, "[act] services must name at least one service");
    }
    let services = c.services(&raw.act.services);
    let act = Act {
        name: raw.act.name.clone(),
        number: raw.act.number.clone(),
        date: raw.act.date.0,
        in_force: raw.act.in_force.0,
    };
    let version = match &raw.amendment {
        None => Version {
            valid_from: act.in_force,
            amendment: None,
        },
        Some(a) => {
            let r = a.get_ref();
            if r.in_force.0 < r.date.0 {
                c.diag.error(
                    a.span(),
                    "[amendment] in_force is before the amending act's date",
                );
            }
            Version {
                valid_from: r.in_force.0,
                amendment: Some(Amendment {
                    name: r.name.clone(),
                    number: r.number.clone(),
                    date: r.date.0,
                    summary: r.summary.clone(),
                }),
            }
        }
    };
    for (name, spanned) in &raw.parameters {
        c.parameter(name, spanned);
    }
    for (code, spanned) in &raw.units {
        c.unit(code, spanned);
    }
    let mut catalog = Catalog::default();
    let mut catalog_failed = false;
    if let Some((file, catalog_diag)) = shared {
        let before = catalog_diag.len();
        let mut cc = Converter {
            diag: catalog_diag,
            st: std::mem::take(&mut c.st),
        };
        cc.groups(&file.groups, &mut catalog);
        cc.infractions(&file.infractions, &services, &mut catalog);
        catalog_failed = cc.diag.len() > before;
        c.st = cc.st;
    }
    c.groups(&raw.groups, &mut catalog);
    c.infractions(&raw.infractions, &services, &mut catalog);
    let Catalog {
        groups,
        infractions,
        rules: catalog_rules,
    } = catalog;
    let liability = Liability {
        fine_payer: party(raw.liability.get_ref().fine_payer),
        citation: c.citation(&raw.liability.get_ref().citation),
    };
    let repeat = raw.repeat.as_ref().map(|r| c.count(r));
    let sanction_rules = catalog_rules
        .into_iter()
        .chain(
            raw.sanction_rules
                .iter()
                .filter_map(|rule| c.sanction_rule(rule, &groups, &infractions)),
        )
        .collect::<Vec<SanctionRule>>();
    if repeat.is_none()
        && sanction_rules
            .iter()
            .any(|r| r.incidence != Incidence::Any && r.count.is_none())
    {
        c.diag.error(
            0..0,
            "sanction rules count incidences (first, repeat, N…) but there is no [repeat] saying how: add one, or give each rule its own `count`",
        );
    }
    let points = raw.points.as_ref().map(|p| c.points(p));
    let thresholds = raw
        .thresholds
        .iter()
        .map(|t| c.threshold(t))
        .collect::<Vec<_>>();
    let process = raw.process.as_ref().map(|p| ProcessRule {
        kinds: p
            .get_ref()
            .kinds
            .iter()
            .filter_map(|k| c.sanction_kind(k))
            .collect(),
        citation: c.citation(&p.get_ref().citation),
    });
    let deadlines = c.deadlines(&raw.deadlines);
    let procedure = raw
        .procedure
        .as_ref()
        .map(|p| c.procedure(p, &deadlines, &sanction_rules));
    let fine_multiplier = raw.fine_multiplier.as_ref().map(|m| FineMultiplier {
        window: c.period(&m.get_ref().window, m.span()),
        citation: c.citation(&m.get_ref().citation),
    });
    let late_payment = raw
        .late_payment
        .iter()
        .map(|tier| {
            let t = tier.get_ref();
            LateTier {
                after_days: c.quantity(&t.after_days, tier.span()),
                percent: c.percent(&t.percent, tier.span()),
                citation: c.citation(&t.citation),
            }
        })
        .collect();
    let installments = raw.installments.as_ref().map(|i| {
        let r = i.get_ref();
        InstallmentRule {
            max: c.quantity(&r.max, i.span()),
            min_quantity: c.quantity(&r.min_quantity, i.span()),
            first_due: c.period(&r.first_due, i.span()),
            every: c.period(&r.every, i.span()),
            not_for_process_fines: r.not_for_process_fines.as_ref().map(|n| c.citation(n)),
            min_quantity_citation: r.min_quantity_citation.as_ref().map(|n| c.citation(n)),
            schedule_citation: r.schedule_citation.as_ref().map(|n| c.citation(n)),
            acceleration: r.acceleration.as_ref().map(|a| Acceleration {
                after: c.period(&a.after, i.span()),
                citation: c.citation(&a.citation),
            }),
            citation: c.citation(&r.citation),
        }
    });
    let caps = c.caps(&raw.caps, &services);
    let requirements = c.requirements(&raw.requirements);
    let vehicles = c.vehicles(&raw.vehicles);
    let permit_suspension = raw.permit_suspension.as_ref().map(|s| c.suspension(s));
    let permit_life = raw
        .permit_life
        .as_ref()
        .map(|l| c.permit_life(l, &deadlines, permit_suspension.is_some()));
    let change_limits = raw
        .change_limits
        .iter()
        .map(|l| c.change_limit(l))
        .collect();
    let downtime = raw.downtime.as_ref().map(|d| c.downtime(d));
    let mut registrations: Vec<RegistrationRule> = Vec::new();
    for r in &raw.registrations {
        let role = match r.get_ref().role {
            RawApplicant::Holder => Applicant::Holder,
            RawApplicant::Driver => Applicant::Driver,
        };
        if registrations.iter().any(|known| known.role == role) {
            c.diag.error(
                r.span(),
                "a registration rule for this role is declared twice".to_string(),
            );
        }
        registrations.push(RegistrationRule {
            role,
            valid: c.period(&r.get_ref().valid, r.span()),
            until_license_expires: r.get_ref().until_license_expires,
            citation: c.citation(&r.get_ref().citation),
        });
    }
    let mut grounds: Vec<Ground> = Vec::new();
    for g in &raw.grounds {
        let (set, key) = (g.set.get_ref().clone(), g.key.get_ref().clone());
        if grounds
            .iter()
            .any(|known| known.set == set && known.key == key)
        {
            c.diag.error(
                g.key.span(),
                format!("ground `{key}` of `{set}` is declared twice"),
            );
        }
        grounds.push(Ground {
            set,
            key,
            description: g.description.clone(),
            citation: c.citation(&g.citation),
        });
    }
    let mut forbidden_acts: Vec<ForbiddenAct> = Vec::new();
    for f in &raw.forbidden_acts {
        let act = f.act.get_ref().clone();
        if forbidden_acts.iter().any(|known| known.act == act) {
            c.diag.error(
                f.act.span(),
                format!("forbidden act `{act}` is declared twice"),
            );
        }
        forbidden_acts.push(ForbiddenAct {
            act,
            description: f.description.clone(),
            citation: c.citation(&f.citation),
        });
    }
    for unit in raw.units.values() {
        if let Some(flag) = &unit.get_ref().from_lines
            && *flag.get_ref()
            && raw.bus.is_none()
        {
            c.diag.error(
                flag.span(),
                "`from_lines`: the mean of the lines' coefficients needs the [bus] rules (their `ctm` article)",
            );
        }
    }
    let bus = raw.bus.as_ref().map(|b| {
        let span = b.span();
        let r = b.get_ref();
        BusRules {
            ctm: c.citation(&r.ctm),
            refund: Cited {
                value: c.quantity(&r.refund.value, span.clone()),
                citation: c.citation(&r.refund.citation),
            },
            baggage: BaggageRule {
                hold_kg: c.quantity(&r.baggage.hold_kg, span.clone()),
                hand_kg: c.quantity(&r.baggage.hand_kg, span.clone()),
                percent_per_kg: c.quantity(&r.baggage.percent_per_kg, span.clone()),
                citation: c.citation(&r.baggage.citation),
                excess_citation: c.citation(&r.baggage.excess_citation),
            },
            indemnities: r
                .indemnities
                .iter()
                .map(|i| IndemnityRule {
                    kind: i.kind.clone(),
                    max: c.amount(&i.max),
                })
                .collect(),
            one_ticket_per_seat: c.citation(&r.one_ticket_per_seat),
            standing_only_semi_urban: c.citation(&r.standing_only_semi_urban),
            ticket_fields: TicketFields {
                names: r.ticket_fields.names.clone(),
                citation: c.citation(&r.ticket_fields.citation),
                simplified_on_semi_urban: c.citation(&r.ticket_fields.simplified_on_semi_urban),
            },
            supervision_percent: Cited {
                value: c.percent(&r.supervision_percent.value, span.clone()),
                citation: c.citation(&r.supervision_percent.citation),
            },
            operation_changes: r.operation_changes.as_ref().map(|a| c.citation(a)),
            compliance: r
                .compliance
                .as_ref()
                .and_then(|k| c.compliance(k, span.clone())),
            charters: r.charters.as_ref().map(|k| c.charters(k, &raw.deadlines)),
            passengers: r.passengers.as_ref().map(|k| c.passengers(k, span.clone())),
        }
    });
    let stands = raw.stands.as_ref().map(|s| c.stands(s, &deadlines));
    let public_call = raw
        .public_call
        .as_ref()
        .map(|p| c.public_call(p, &caps, &deadlines));
    let fare = raw.fare.as_ref().map(|f| c.fare(f));
    let fees = c.fees(&raw.fees);
    let transitional = raw.transitional.iter().map(|t| c.transitional(t)).collect();

    if c.diag.len() > errors_before || catalog_failed {
        return None;
    }
    let infraction_index = infractions
        .iter()
        .enumerate()
        .map(|(i, inf)| (inf.code.clone(), InfractionId(i as u32)))
        .collect();
    Some(Rulebook {
        id,
        jurisdiction: jurisdiction.jurisdiction.clone(),
        act,
        services,
        parameters: c.st.parameters,
        units: c.st.units,
        holidays: jurisdiction.holidays.clone(),
        groups,
        infractions,
        infraction_index,
        liability,
        repeat,
        sanction_rules,
        points,
        thresholds,
        process,
        procedure,
        deadlines,
        fine_multiplier,
        late_payment,
        installments,
        caps,
        requirements,
        vehicles,
        permit_suspension,
        permit_life,
        downtime,
        stands,
        public_call,
        registrations,
        forbidden_acts,
        grounds,
        bus,
        fare,
        fees,
        change_limits,
        transitional,
        version,
        text: c.st.law,
        earlier: Vec::new(),
    })
}

fn party(raw: RawParty) -> Party {
    match raw {
        RawParty::Offender => Party::Offender,
        RawParty::Holder => Party::Holder,
    }
}

fn role(raw: Option<RawRole>) -> Role {
    match raw {
        None | Some(RawRole::Any) => Role::Any,
        Some(RawRole::Holder) => Role::Holder,
        Some(RawRole::Auxiliary) => Role::Auxiliary,
    }
}

/// What the conversion of one rulebook has built so far; it passes from the
/// service file's converter to the catalog's and back.
#[derive(Default)]
struct State {
    /// Sorted by name: the position is the `ParamId`.
    parameters: Vec<Parameter>,
    units: BTreeMap<String, FiscalUnit>,
    groups: HashMap<String, GroupId>,
    codes: HashMap<String, InfractionId>,
    /// The law's text, in which every citation must find its article.
    law: outorga_core::law_text::LawText,
}

/// The groups, infractions and rules of a rulebook, from its catalog and its
/// own file.
#[derive(Default)]
struct Catalog {
    groups: Vec<Group>,
    infractions: Vec<Infraction>,
    rules: Vec<SanctionRule>,
}

struct Converter<'d, 'a> {
    diag: &'d mut Diagnostics<'a>,
    st: State,
}

impl Converter<'_, '_> {
    fn citation(&mut self, raw: &Spanned<String>) -> Citation {
        let cited = raw.get_ref();
        if let Err(message) = citation::check(cited) {
            self.diag.error(raw.span(), message);
        } else if !self.st.law.is_empty() && self.st.law.article(cited).is_none() {
            self.diag.error(
                raw.span(),
                format!(
                    "\"{cited}\": the law's text has no such article (it has {}): check the number, or the annex",
                    self.st.law.span()
                ),
            );
        }
        cited.clone()
    }

    /// `[stands]`: each rule its article; a notice before a relocation
    /// needs the time to answer it (`stand_relocation_response`), and a
    /// taxi at another's fixed stand is either forbidden (`other_stands`)
    /// or every stand is common to all (`common_use`), never both.
    fn stands(&mut self, spanned: &Spanned<RawStands>, deadlines: &[DeadlineRule]) -> StandRules {
        let s = spanned.get_ref();
        let mut optional = |raw: &Option<Spanned<String>>| raw.as_ref().map(|r| self.citation(r));
        let rules = StandRules {
            relocation_notice: optional(&s.relocation_notice),
            holder_request: optional(&s.holder_request),
            swap_consent: optional(&s.swap_consent),
            lottery: optional(&s.lottery),
            dropoff_anywhere: optional(&s.dropoff_anywhere),
            other_stands: optional(&s.other_stands),
            common_use: optional(&s.common_use),
            free_stands: optional(&s.free_stands),
            event_stands: optional(&s.event_stands),
            other_towns: optional(&s.other_towns),
            citation: self.citation(&s.citation),
            relocation: self.citation(&s.relocation),
            own_stand: self.citation(&s.own_stand),
        };
        if rules.relocation_notice.is_some()
            && !deadlines
                .iter()
                .any(|d| d.kind == DeadlineKind::StandRelocationResponse)
        {
            self.diag.error(
                spanned.span(),
                "[stands] relocation_notice: declare the holder's time to answer the notice as a `stand_relocation_response` deadline",
            );
        }
        if rules.other_stands.is_some() == rules.common_use.is_some() {
            self.diag.error(
                spanned.span(),
                "[stands]: give exactly one of `other_stands` (a taxi may not wait at another's fixed stand) and `common_use` (every stand is common to all)",
            );
        }
        rules
    }

    fn services(&mut self, raw: &[Spanned<String>]) -> Vec<Service> {
        raw.iter()
            .filter_map(|s| {
                let service = Service::parse(s.get_ref());
                if service.is_none() {
                    self.diag.error(
                        s.span(),
                        format!(
                            "unknown service `{}`; known: taxi, taxi_acessivel, mototaxi, motofrete, onibus",
                            s.get_ref()
                        ),
                    );
                }
                service
            })
            .collect()
    }

    /// A quantity; a parameter reference must name a declared parameter.
    fn quantity(&mut self, raw: &RawQuantity, span: Range<usize>) -> Quantity {
        match raw {
            RawQuantity::Fixed(value) => {
                if value.is_sign_negative() {
                    self.diag.error(
                        span,
                        format!("{value} is negative; rulebook numbers are not"),
                    );
                }
                Quantity::Fixed(*value)
            }
            RawQuantity::Param(name) => {
                match self.st.parameters.iter().position(|p| &p.name == name) {
                    Some(index) => Quantity::Param(ParamId(index as u32)),
                    None => {
                        self.diag.error(
                            span,
                            format!("parameter `{name}` is not declared under [parameters]"),
                        );
                        Quantity::Fixed(Decimal::ZERO)
                    }
                }
            }
        }
    }

    fn percent(&mut self, raw: &RawQuantity, span: Range<usize>) -> Quantity {
        if let RawQuantity::Fixed(value) = raw
            && *value > Decimal::ONE_HUNDRED
        {
            self.diag
                .error(span.clone(), format!("{value} % is over 100 %"));
        }
        self.quantity(raw, span)
    }

    fn fixed(&mut self, raw: &RawQuantity, span: Range<usize>, what: &str) -> Decimal {
        match raw {
            RawQuantity::Fixed(value) => {
                if value.is_sign_negative() {
                    self.diag.error(
                        span,
                        format!("{what} {value} is negative; rulebook numbers are not"),
                    );
                }
                *value
            }
            RawQuantity::Param(_) => {
                self.diag
                    .error(span, format!("{what} must be a number, not a parameter"));
                Decimal::ZERO
            }
        }
    }

    fn period(&mut self, raw: &RawPeriod, span: Range<usize>) -> Period {
        match (&raw.days, &raw.months) {
            (Some(days), None) => Period::Days(self.quantity(days, span)),
            (None, Some(months)) => Period::Months(self.quantity(months, span)),
            _ => {
                self.diag.error(
                    span,
                    "a period needs exactly one of `days` or `months`, e.g. { months = 12 }",
                );
                Period::Days(Quantity::Fixed(Decimal::ZERO))
            }
        }
    }

    fn dated(&mut self, raw: &[RawDated], span: Range<usize>) -> Vec<Dated<Decimal>> {
        let mut values: Vec<Dated<Decimal>> = Vec::new();
        for entry in raw {
            if values.iter().any(|v| v.from == entry.from.0) {
                self.diag.error(
                    span.clone(),
                    format!("two values from the same date {}", entry.from.0),
                );
            }
            let value = self.fixed(&entry.value, span.clone(), "a dated value");
            values.push(Dated {
                from: entry.from.0,
                value,
                source: entry.source.clone(),
            });
        }
        values.sort_by_key(|v| v.from);
        values
    }

    fn parameter(&mut self, name: &str, spanned: &Spanned<RawParameter>) {
        let raw = spanned.get_ref();
        let span = spanned.span();
        let mut values = self.dated(&raw.values, span.clone());
        if let Some(value) = &raw.value {
            if !values.is_empty() {
                self.diag.error(
                    span.clone(),
                    format!("parameter `{name}` has both `value` and `values`; keep one"),
                );
            }
            let value = self.fixed(value, span.clone(), "a parameter's value");
            values.push(Dated {
                from: chrono::NaiveDate::MIN,
                value,
                source: None,
            });
        }
        if values.is_empty() {
            self.diag.error(
                span,
                format!("parameter `{name}` has no value; give `value` or dated `values`"),
            );
        }
        let citation = self.citation(&raw.citation);
        let decree_default = self.open_term(&raw.decree_default);
        // `raw.parameters` is a BTreeMap: names arrive sorted, as the model wants.
        self.st.parameters.push(Parameter {
            name: name.to_string(),
            doc: raw.doc.clone(),
            citation,
            decree_default,
            values,
        });
    }

    fn unit(&mut self, code: &str, spanned: &Spanned<RawUnit>) {
        let raw = spanned.get_ref();
        if code == "BRL" {
            self.diag.error(
                spanned.span(),
                "BRL is built in; do not declare it as a unit",
            );
        }
        let values = self.dated(&raw.values, spanned.span());
        let citation = self.citation(&raw.citation);
        let paid_at_value_of = raw.paid_at_value_of.as_ref().map(|c| self.citation(c));
        self.st.units.insert(
            code.to_string(),
            FiscalUnit {
                code: code.to_string(),
                name: raw.name.clone(),
                citation,
                values,
                from_lines: raw.from_lines.as_ref().is_some_and(|f| *f.get_ref()),
                paid_at_value_of,
            },
        );
    }

    fn amount(&mut self, raw: &RawAmount) -> Cited<Amount> {
        let unit = raw.unit.get_ref();
        if unit != "BRL" && !self.st.units.contains_key(unit) {
            self.diag.error(
                raw.unit.span(),
                format!("unit `{unit}` is not declared under [units] (nor BRL)"),
            );
        }
        let quantity = self.fixed(&raw.quantity, raw.unit.span(), "a fine's quantity");
        Cited {
            value: Amount {
                unit: unit.clone(),
                quantity,
            },
            citation: self.citation(&raw.citation),
        }
    }

    fn groups(&mut self, raw: &[Spanned<RawGroup>], into: &mut Catalog) {
        for spanned in raw {
            let g = spanned.get_ref();
            let id = g.id.get_ref();
            if self.st.groups.contains_key(id) {
                self.diag
                    .error(g.id.span(), format!("group `{id}` is declared twice"));
                continue;
            }
            let points = g.points.as_ref().map(|p| Cited {
                value: self.fixed(&p.value, spanned.span(), "group points"),
                citation: self.citation(&p.citation),
            });
            let fine = g.fine.as_ref().map(|f| self.amount(f));
            self.st
                .groups
                .insert(id.clone(), GroupId(into.groups.len() as u32));
            into.groups.push(Group {
                id: id.clone(),
                name: g.name.clone(),
                points,
                fine,
            });
        }
    }

    fn group_ref(&mut self, raw: &Spanned<String>) -> Option<GroupId> {
        let id = self.st.groups.get(raw.get_ref()).copied();
        if id.is_none() {
            self.diag.error(
                raw.span(),
                format!("group `{}` is not declared under [[groups]]", raw.get_ref()),
            );
        }
        id
    }

    fn code_ref(&mut self, raw: &Spanned<String>) -> Option<InfractionId> {
        let id = self.st.codes.get(raw.get_ref()).copied();
        if id.is_none() {
            self.diag.error(
                raw.span(),
                format!(
                    "infraction `{}` is not in the catalog ([[infractions]])",
                    raw.get_ref()
                ),
            );
        }
        id
    }

    /// The infractions of `raw` that exist in `services`, with the rules of
    /// their ladders and measures.
    fn infractions(
        &mut self,
        raw: &[Spanned<RawInfraction>],
        services: &[Service],
        into: &mut Catalog,
    ) {
        for spanned in raw {
            let inf = spanned.get_ref();
            let code = inf.code.get_ref();
            if code.trim().is_empty() || code.contains(char::is_whitespace) {
                self.diag.error(
                    inf.code.span(),
                    format!("infraction code `{code}` must be non-empty, without spaces"),
                );
            }
            if self.st.codes.contains_key(code) {
                self.diag.error(
                    inf.code.span(),
                    format!("infraction code `{code}` is declared twice"),
                );
                continue;
            }
            let own_services = self.services(&inf.services);
            let group = inf.group.as_ref().and_then(|g| self.group_ref(g));
            let committed_by = inf
                .offender
                .as_ref()
                .and_then(|o| match o.get_ref().as_str() {
                    "driver" => Some(Applicant::Driver),
                    "holder" => Some(Applicant::Holder),
                    other => {
                        self.diag.error(
                            o.span(),
                            format!("offender `{other}`: expected driver or holder"),
                        );
                        None
                    }
                });
            let points = inf.points.as_ref().map(|p| Cited {
                value: self.fixed(&p.value, spanned.span(), "infraction points"),
                citation: self.citation(&p.citation),
            });
            let citation = self.citation(&inf.citation);
            let id = InfractionId(into.infractions.len() as u32);
            let has_group_fine = group.is_some_and(|g| into.groups[g.0 as usize].fine.is_some());
            let selector = || Selector {
                groups: Vec::new(),
                codes: vec![id],
            };
            let mut rules = Vec::new();
            for step in &inf.ladder {
                let s = step.get_ref();
                let sanctions = s
                    .sanctions
                    .iter()
                    .filter_map(|x| self.sanction(x, has_group_fine))
                    .collect();
                rules.push(SanctionRule {
                    applies_to: selector(),
                    incidence: self.incidence(&s.offence),
                    count: None,
                    cure: self.cure(s.irregularity.as_ref()),
                    sanctions,
                    citation: s
                        .citation
                        .as_ref()
                        .map_or_else(|| citation.clone(), |c| self.citation(c)),
                });
            }
            if !inf.measures.is_empty() {
                let sanctions = inf
                    .measures
                    .iter()
                    .filter_map(|x| self.sanction(x, has_group_fine))
                    .collect();
                rules.push(SanctionRule {
                    applies_to: selector(),
                    incidence: Incidence::Any,
                    count: None,
                    cure: Cure::Any,
                    sanctions,
                    citation: citation.clone(),
                });
            }
            // Not a service of this rulebook: checked, but not part of it.
            if !own_services.is_empty() && !own_services.iter().any(|s| services.contains(s)) {
                continue;
            }
            self.st.codes.insert(code.clone(), id);
            into.infractions.push(Infraction {
                code: code.clone(),
                description: inf.description.clone(),
                group,
                outside_permit: inf.outside_permit,
                committed_by,
                points,
                citation,
            });
            into.rules.extend(rules);
        }
    }

    fn count(&mut self, spanned: &Spanned<RawCount>) -> CountRule {
        let raw = spanned.get_ref();
        let by = match raw.by.get_ref().as_str() {
            "code" => CountBy::Code,
            "group" => CountBy::Group,
            "codes" => {
                if raw.codes.is_empty() {
                    self.diag.error(
                        raw.by.span(),
                        "count by `codes` needs a non-empty `codes` list",
                    );
                }
                CountBy::Codes(raw.codes.iter().filter_map(|c| self.code_ref(c)).collect())
            }
            other => {
                self.diag.error(
                    raw.by.span(),
                    format!("count `by = \"{other}\"`: expected code, group or codes"),
                );
                CountBy::Code
            }
        };
        if !matches!(by, CountBy::Codes(_)) && !raw.codes.is_empty() {
            self.diag
                .error(raw.by.span(), "`codes` is only read with by = \"codes\"");
        }
        CountRule {
            by,
            window: self.period(&raw.window, spanned.span()),
            citation: self.citation(&raw.citation),
        }
    }

    fn incidence(&mut self, raw: &Spanned<String>) -> Incidence {
        let text = raw.get_ref().trim();
        let parsed = match text {
            "any" => Some(Incidence::Any),
            "first" => Some(Incidence::First),
            "repeat" => Some(Incidence::Repeat),
            _ => {
                if let Some(n) = text.strip_prefix("every ") {
                    n.trim()
                        .parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .map(Incidence::Every)
                } else if let Some(n) = text.strip_suffix('+') {
                    n.parse().ok().filter(|n| *n > 0).map(Incidence::From)
                } else {
                    text.parse().ok().filter(|n| *n > 0).map(Incidence::Nth)
                }
            }
        };
        parsed.unwrap_or_else(|| {
            self.diag.error(
                raw.span(),
                format!(
                    "offence `{text}`: expected any, first, repeat, N (the Nth), N+ (from the Nth on) or every N"
                ),
            );
            Incidence::Any
        })
    }

    fn cure(&mut self, raw: Option<&Spanned<String>>) -> Cure {
        match raw.map(|r| (r, r.get_ref().as_str())) {
            None | Some((_, "any")) => Cure::Any,
            Some((_, "found")) => Cure::Found,
            // `uncured`: the former spelling.
            Some((_, "not_corrected" | "uncured")) => Cure::Uncured,
            Some((r, other)) => {
                self.diag.error(
                    r.span(),
                    format!("irregularity `{other}`: expected any, found or not_corrected"),
                );
                Cure::Any
            }
        }
    }

    /// What a law leaves open and the rulebook takes by default: who fills
    /// it and the article that leaves it to them (which the law's text
    /// must have).
    fn open_term(&mut self, raw: &RawDecreeDefault) -> Option<OpenTerm> {
        let term = raw.0.as_ref()?;
        let basis = self.citation(&term.basis);
        match FilledBy::parse(term.by.get_ref()) {
            Some(by) => Some(OpenTerm { by, basis }),
            None => {
                self.diag.error(
                    term.by.span(),
                    format!(
                        "who fills an open term: `{}` is not one of {}",
                        term.by.get_ref(),
                        FilledBy::known()
                    ),
                );
                None
            }
        }
    }

    fn sanction_kind(&mut self, raw: &Spanned<String>) -> Option<SanctionKind> {
        let kind = SanctionKind::parse(raw.get_ref());
        if kind.is_none() {
            self.diag.error(
                raw.span(),
                format!(
                    "unknown sanction kind `{}`; known: {}",
                    raw.get_ref(),
                    SanctionKind::ALL.map(SanctionKind::name).join(", ")
                ),
            );
        }
        kind
    }

    /// A sanction spec; `group_fines_ok` says whether every infraction it may
    /// apply to has a group fine (for fines without an explicit amount).
    fn sanction(
        &mut self,
        spanned: &Spanned<RawSanction>,
        group_fines_ok: bool,
    ) -> Option<SanctionSpec> {
        let raw = spanned.get_ref();
        let span = spanned.span();
        let kind = self.sanction_kind(&raw.kind)?;
        let q = |this: &mut Self, field: &Option<RawQuantity>| {
            field.as_ref().map(|v| this.quantity(v, span.clone()))
        };
        let days = q(self, &raw.days);
        let min_days = q(self, &raw.min_days);
        let max_days = q(self, &raw.max_days);
        let years = q(self, &raw.years);
        let months = q(self, &raw.months);
        let min_hours = q(self, &raw.min_hours);
        let fine = if kind == SanctionKind::Fine {
            match &raw.amount {
                Some(amount) => Some(FineSpec::Fixed(self.amount(amount))),
                None => {
                    if !group_fines_ok {
                        self.diag.error(
                            span.clone(),
                            "this fine has no `amount` and some infraction it applies to has no group fine",
                        );
                    }
                    Some(FineSpec::OfGroup)
                }
            }
        } else {
            if raw.amount.is_some() {
                self.diag.error(
                    span.clone(),
                    format!("`amount` does not apply to a {}", kind.name()),
                );
            }
            None
        };
        if raw.target.is_some() && !kind.has_target() {
            self.diag.error(
                span.clone(),
                format!("a {} falls on no person; remove `target`", kind.name()),
            );
        }
        let places = raw
            .places
            .iter()
            .filter_map(|p| {
                let place = Place::parse(p.get_ref());
                if place.is_none() {
                    self.diag.error(
                        p.span(),
                        "place: expected before_departure, support_points or en_route",
                    );
                }
                place
            })
            .collect();
        let document = raw.document.as_ref().and_then(|d| {
            let parsed = match d.get_ref().as_str() {
                "traffic_authorization" => Some(DocumentKind::TrafficAuthorization),
                "driver_registration" => Some(DocumentKind::DriverRegistration),
                "other" => Some(DocumentKind::Other),
                _ => None,
            };
            if parsed.is_none() {
                self.diag.error(
                    d.span(),
                    "document: expected traffic_authorization, driver_registration or other",
                );
            }
            parsed
        });
        if (document.is_some()) != (kind == SanctionKind::DocumentSeizure) {
            self.diag.error(
                span.clone(),
                "`document` is required for, and only for, a document_seizure",
            );
        }
        let scale = match &raw.scale {
            None => Scale::None,
            Some(scale) => Scale::Chain {
                window: self.period(&scale.chain, span.clone()),
                factor: self.fixed(&scale.factor, span.clone(), "a scale factor"),
                citation: self.citation(&scale.citation),
            },
        };
        let citation = raw.citation.as_ref().map(|c| self.citation(c));
        let factor = q(self, &raw.factor);
        if factor.is_some() && kind != SanctionKind::Fine {
            self.diag
                .error(span.clone(), "`factor` multiplies a fine; this is not one");
        }
        if raw.business_days && raw.days.is_none() {
            self.diag.error(
                span.clone(),
                "`business_days` says how `days` count: give `days`",
            );
        }
        Some(SanctionSpec {
            business_days: raw.business_days,
            factor,
            kind,
            target: raw.target.map_or(Party::Offender, party),
            when_offender: role(raw.when_offender),
            fine,
            days,
            min_days,
            max_days,
            years,
            months,
            min_hours,
            document,
            places,
            scale,
            citation,
            optional: raw.optional,
        })
    }

    fn sanction_rule(
        &mut self,
        spanned: &Spanned<RawSanctionRule>,
        groups: &[Group],
        infractions: &[Infraction],
    ) -> Option<SanctionRule> {
        let raw = spanned.get_ref();
        if raw.groups.is_empty() && raw.codes.is_empty() {
            self.diag.error(
                spanned.span(),
                "a sanction rule must name the `groups` or `codes` it applies to",
            );
        }
        let selector = Selector {
            groups: raw
                .groups
                .iter()
                .filter_map(|g| self.group_ref(g))
                .collect(),
            codes: raw.codes.iter().filter_map(|c| self.code_ref(c)).collect(),
        };
        let fines_ok =
            |group: Option<GroupId>| group.is_some_and(|g| groups[g.0 as usize].fine.is_some());
        let group_fines_ok = selector.groups.iter().all(|g| fines_ok(Some(*g)))
            && selector
                .codes
                .iter()
                .all(|c| fines_ok(infractions[c.0 as usize].group));
        let incidence = raw
            .offence
            .as_ref()
            .map_or(Incidence::Any, |i| self.incidence(i));
        let count = raw.count.as_ref().map(|c| self.count(c));
        let sanctions = raw
            .sanctions
            .iter()
            .filter_map(|s| self.sanction(s, group_fines_ok))
            .collect();
        Some(SanctionRule {
            applies_to: selector,
            incidence,
            count,
            cure: self.cure(raw.irregularity.as_ref()),
            sanctions,
            citation: self.citation(&raw.citation),
        })
    }

    fn points(&mut self, spanned: &Spanned<RawPoints>) -> PointRule {
        let raw = spanned.get_ref();
        let holder_share = raw.holder_share.as_ref().map(|share| {
            let value = self.fixed(&share.value, spanned.span(), "holder_share");
            if value > Decimal::ONE {
                self.diag.error(
                    spanned.span(),
                    format!("holder_share {value} is more than 1"),
                );
            }
            Cited {
                value,
                citation: self.citation(&share.citation),
            }
        });
        if raw.windows_months.contains(&0) {
            self.diag
                .error(spanned.span(), "a point window of 0 months counts nothing");
        }
        let basis = match raw.basis.as_ref().map(|b| b.get_ref().as_str()) {
            None | Some("group") => PointBasis::Group,
            Some("outcome") => PointBasis::Outcome,
            Some(other) => {
                if let Some(b) = &raw.basis {
                    self.diag.error(
                        b.span(),
                        format!("points basis `{other}`: expected group or outcome"),
                    );
                }
                PointBasis::Group
            }
        };
        let warning = raw.warning.as_ref().map(|w| Cited {
            value: self.fixed(&w.value, spanned.span(), "warning points"),
            citation: self.citation(&w.citation),
        });
        if warning.is_some() && basis != PointBasis::Outcome {
            self.diag.error(
                spanned.span(),
                "`warning` points are read only with basis = \"outcome\"",
            );
        }
        PointRule {
            basis,
            warning,
            holder_share,
            windows_months: raw.windows_months.clone(),
            citation: self.citation(&raw.citation),
        }
    }

    fn threshold(&mut self, spanned: &Spanned<RawThreshold>) -> Threshold {
        let raw = spanned.get_ref();
        if raw.window_months == 0 {
            self.diag.error(
                spanned.span(),
                "a threshold window of 0 months counts nothing",
            );
        }
        let sanctions = raw
            .sanctions
            .iter()
            .filter_map(|s| {
                if s.get_ref().kind.get_ref() == "fine" && s.get_ref().amount.is_none() {
                    self.diag
                        .error(s.span(), "a fine in a threshold needs an explicit `amount`");
                }
                self.sanction(s, true)
            })
            .collect();
        let applies_to = match raw.applies_to.as_ref().map(|a| (a, a.get_ref().as_str())) {
            None | Some((_, "anyone")) => Subject::Anyone,
            Some((_, "auxiliary")) => Subject::Auxiliary,
            Some((_, "holder")) => Subject::Holder,
            Some((_, "company")) => Subject::Company,
            Some((_, "radio_dispatch")) => Subject::RadioDispatch,
            Some((a, other)) => {
                self.diag.error(
                    a.span(),
                    format!(
                        "applies_to `{other}`: expected anyone, auxiliary, holder, company or radio_dispatch"
                    ),
                );
                Subject::Anyone
            }
        };
        Threshold {
            window_months: raw.window_months,
            over: self.quantity(&raw.over, spanned.span()),
            applies_to,
            per_permit: raw.per_permit,
            sanctions,
            citation: self.citation(&raw.citation),
        }
    }

    /// `[procedure]`: each appeal's limit, and the cure of a notice of
    /// irregularity, must be deadlines of the rulebook.
    fn procedure(
        &mut self,
        spanned: &Spanned<RawProcedure>,
        deadlines: &[DeadlineRule],
        rules: &[SanctionRule],
    ) -> Procedure {
        let raw = spanned.get_ref();
        let has = |kind: DeadlineKind| deadlines.iter().any(|d| d.kind == kind);
        if !has(DeadlineKind::Defense) {
            self.diag.error(
                spanned.span(),
                "the procedure needs a `defense` deadline (the right to a defense)",
            );
        }
        let notice = rules.iter().any(|r| {
            r.sanctions
                .iter()
                .any(|s| s.kind == SanctionKind::NoticeOfIrregularity)
        });
        if notice && !has(DeadlineKind::Cure) {
            self.diag.error(
                spanned.span(),
                "a notice of irregularity needs a `cure` deadline (the time to correct it)",
            );
        }
        let mut appeals = Vec::new();
        for appeal in &raw.appeals {
            let a = appeal.get_ref();
            let Some(limit) = self.deadline_kind(&a.limit) else {
                continue;
            };
            if !has(limit) {
                self.diag.error(
                    a.limit.span(),
                    format!("appeal limit `{limit}` is not among the rulebook's deadlines"),
                );
            }
            let hears: Vec<SanctionKind> = a
                .hears
                .iter()
                .filter_map(|k| self.sanction_kind(k))
                .collect();
            if let (true, Some(otherwise)) = (a.hears.is_empty(), &a.otherwise) {
                self.diag.error(
                    otherwise.span(),
                    "`otherwise` names who hears the appeals `hears` leaves out: give `hears` too",
                );
            }
            appeals.push(AppealRule {
                to: a.to.clone(),
                limit,
                citation: self.citation(&a.citation),
                hears,
                otherwise: a.otherwise.as_ref().map(|o| Cited {
                    value: o.get_ref().to.clone(),
                    citation: self.citation(&o.get_ref().citation),
                }),
            });
        }
        let mut at_once = Vec::new();
        for measure in &raw.at_once {
            let Some(kind) = self.sanction_kind(&measure.kind) else {
                continue;
            };
            if !kind.applies_at_once() {
                self.diag.error(
                    measure.kind.span(),
                    format!(
                        "a {} is not applied on the spot: `at_once` is for the seizure or retention of a vehicle or a document",
                        kind.name()
                    ),
                );
            }
            at_once.push(Cited {
                value: kind,
                citation: self.citation(&measure.citation),
            });
        }
        let mut choices = Vec::new();
        for choice in &raw.choices {
            let c = choice.get_ref();
            let instead_of = c
                .instead_of
                .iter()
                .filter_map(|k| self.sanction_kind(k))
                .collect();
            let options = c
                .options
                .iter()
                .map(|o| ChoiceOption {
                    sanctions: o
                        .sanctions
                        .iter()
                        .filter_map(|s| self.sanction(s, false))
                        .collect(),
                    citation: self.citation(&o.citation),
                    record_as: o.record_as.as_ref().and_then(|code| self.code_ref(code)),
                })
                .collect();
            choices.push(Choice {
                instead_of,
                options,
                citation: self.citation(&c.citation),
            });
        }
        let mut reserved: Vec<ReservedDecision> = Vec::new();
        for spanned in &raw.reserved {
            let r = spanned.get_ref();
            if reserved.iter().any(|known| known.key == *r.key.get_ref()) {
                self.diag.error(
                    r.key.span(),
                    format!("authority `{}` listed twice", r.key.get_ref()),
                );
            }
            if r.kinds.is_empty() {
                self.diag.error(
                    spanned.span(),
                    "a reserved decision names the penalties it reserves",
                );
            }
            reserved.push(ReservedDecision {
                key: r.key.get_ref().clone(),
                by: r.by.clone(),
                kinds: r
                    .kinds
                    .iter()
                    .filter_map(|k| self.sanction_kind(k))
                    .collect(),
                citation: self.citation(&r.citation),
            });
        }
        let custody = self.custody(&raw.custody, &at_once);
        Procedure {
            at_once,
            custody,
            choices,
            reserved,
            citation: self.citation(&raw.citation),
            judge: Cited {
                value: raw.judge.by.clone(),
                citation: self.citation(&raw.judge.citation),
            },
            appeals,
            deposit: raw.deposit.as_ref().map(|d| self.citation(d)),
        }
    }

    fn deadline_kind(&mut self, raw: &Spanned<String>) -> Option<DeadlineKind> {
        let kind = DeadlineKind::parse(raw.get_ref());
        if kind.is_none() {
            self.diag.error(
                raw.span(),
                format!(
                    "unknown deadline kind `{}`; known: {}",
                    raw.get_ref(),
                    DeadlineKind::known()
                ),
            );
        }
        kind
    }

    fn deadlines(&mut self, raw: &[Spanned<RawDeadline>]) -> Vec<DeadlineRule> {
        let mut seen = HashSet::new();
        let mut rules = Vec::new();
        for spanned in raw {
            let d = spanned.get_ref();
            let span = spanned.span();
            let Some(kind) = self.deadline_kind(&d.kind) else {
                continue;
            };
            if !seen.insert(kind) {
                self.diag.error(
                    d.kind.span(),
                    format!("deadline `{kind}` is declared twice"),
                );
            }
            let counting = d.counting.as_ref().map(|c| match c.get_ref().as_str() {
                "business_days" => Some(Counting::BusinessDays),
                "business_days_before" => Some(Counting::BusinessDaysBefore),
                "calendar_days" => Some(Counting::CalendarDays),
                "calendar_days_from_next_business_day" => {
                    Some(Counting::CalendarDaysFromNextBusinessDay)
                }
                other => {
                    self.diag.error(
                        c.span(),
                        format!(
                            "counting `{other}`: expected business_days, business_days_before, calendar_days or calendar_days_from_next_business_day"
                        ),
                    );
                    None
                }
            });
            let (length, unit) = match (&d.days, &d.months, &d.years, counting, &d.hours) {
                (None, None, None, None, Some(hours)) => (hours, LimitUnit::Hours),
                (.., Some(_)) => {
                    self.diag.error(
                        span.clone(),
                        format!("deadline `{kind}` in `hours` takes no `days`, `months`, `years` or `counting`"),
                    );
                    continue;
                }
                (Some(days), None, None, Some(Some(counting)), None) => {
                    (days, LimitUnit::Counted(counting))
                }
                (Some(days), None, None, Some(None), None) => {
                    (days, LimitUnit::Counted(Counting::CalendarDays))
                }
                (Some(days), None, None, None, None) => {
                    self.diag.error(
                        span.clone(),
                        format!("deadline `{kind}` in days needs `counting` (business_days or calendar_days)"),
                    );
                    (days, LimitUnit::Counted(Counting::CalendarDays))
                }
                (None, Some(months), None, None, None) => {
                    (months, LimitUnit::Counted(Counting::Months))
                }
                (None, None, Some(years), None, None) => {
                    (years, LimitUnit::Counted(Counting::Years))
                }
                _ => {
                    self.diag.error(
                        span.clone(),
                        format!(
                            "deadline `{kind}` needs exactly one of `days` (with `counting`), `months`, `years` or `hours`"
                        ),
                    );
                    continue;
                }
            };
            let length = self.quantity(length, span.clone());
            if length == Quantity::Fixed(Decimal::ZERO) {
                self.diag
                    .error(span.clone(), format!("deadline `{kind}` has length 0"));
            }
            rules.push(DeadlineRule {
                kind,
                length,
                unit,
                citation: self.citation(&d.citation),
                decree_default: self.open_term(&d.decree_default),
            });
        }
        rules
    }

    fn caps(&mut self, raw: &[Spanned<RawCap>], services: &[Service]) -> Vec<CapRule> {
        let mut caps: Vec<CapRule> = Vec::new();
        for spanned in raw {
            let cap = spanned.get_ref();
            let Some(service) = Service::parse(cap.service.get_ref()) else {
                self.diag.error(
                    cap.service.span(),
                    format!("unknown service `{}`", cap.service.get_ref()),
                );
                continue;
            };
            if !services.contains(&service) {
                self.diag.error(
                    cap.service.span(),
                    format!(
                        "cap for `{}`, which is not among [act] services",
                        service.name()
                    ),
                );
            }
            let mut counted = vec![service];
            for other in &cap.with {
                match Service::parse(other.get_ref()) {
                    Some(s) if services.contains(&s) && !counted.contains(&s) => counted.push(s),
                    _ => self.diag.error(
                        other.span(),
                        format!(
                            "`with`: `{}` is not another of the [act] services",
                            other.get_ref()
                        ),
                    ),
                }
            }
            if let Some(twice) = counted
                .iter()
                .find(|s| caps.iter().any(|c| c.services.contains(s)))
            {
                self.diag.error(
                    cap.service.span(),
                    format!("two caps for `{}`", twice.name()),
                );
            }
            let per = self.quantity(&cap.inhabitants_per_permit, spanned.span());
            if per == Quantity::Fixed(Decimal::ZERO) {
                self.diag
                    .error(spanned.span(), "inhabitants_per_permit must be positive");
            }
            let reserved = cap
                .reserved
                .iter()
                .map(|q| {
                    let raw = q.get_ref();
                    let of = raw.service.as_ref().and_then(|s| {
                        let parsed = Service::parse(s.get_ref()).filter(|p| counted.contains(p));
                        if parsed.is_none() {
                            self.diag.error(
                                s.span(),
                                format!(
                                    "reserved share of `{}`, which this cap does not count",
                                    s.get_ref()
                                ),
                            );
                        }
                        parsed
                    });
                    Quota {
                        key: raw.key.clone(),
                        percent: self.percent(&raw.percent, q.span()),
                        service: of,
                        release: raw.release.as_ref().map(|r| self.citation(r)),
                        citation: self.citation(&raw.citation),
                    }
                })
                .collect();
            caps.push(CapRule {
                services: counted,
                inhabitants_per_permit: per,
                keep_current: cap.keep_current,
                citation: self.citation(&cap.citation),
                reserved,
            });
        }
        caps
    }

    /// `[public_call]`: the procedure, and either the edital's criteria —
    /// every reserved share of the caps offered with what an applicant
    /// proves for it, and the time to appeal declared — or a bid.
    fn public_call(
        &mut self,
        spanned: &Spanned<RawPublicCall>,
        caps: &[CapRule],
        deadlines: &[DeadlineRule],
    ) -> PublicCall {
        let raw = spanned.get_ref();
        let procedure = CallProcedure::parse(raw.procedure.get_ref()).unwrap_or_else(|| {
            self.diag.error(
                raw.procedure.span(),
                format!(
                    "unknown procedure `{}`; known: {}",
                    raw.procedure.get_ref(),
                    CallProcedure::known()
                ),
            );
            CallProcedure::PublicCall
        });
        let judgement = match (&raw.criteria, &raw.bid) {
            (Some(criteria), None) => {
                Judgement::Criteria(self.call_ranking(criteria, caps, deadlines, spanned.span()))
            }
            (None, Some(bid)) => Judgement::Bid(self.citation(bid)),
            _ => {
                self.diag.error(
                    spanned.span(),
                    "[public_call] needs exactly one of `criteria` (the edital's criteria, ranked by points) or `bid` (the article that judges proposals)",
                );
                Judgement::Bid(String::new())
            }
        };
        PublicCall {
            procedure,
            citation: self.citation(&raw.citation),
            see_also: raw.see_also.iter().map(|c| self.citation(c)).collect(),
            judgement,
        }
    }

    fn call_ranking(
        &mut self,
        raw: &RawCallCriteria,
        caps: &[CapRule],
        deadlines: &[DeadlineRule],
        span: Range<usize>,
    ) -> CallRanking {
        if !deadlines.iter().any(|d| d.kind == DeadlineKind::CallAppeal) {
            self.diag.error(
                span.clone(),
                "[public_call] criteria: declare the time to appeal against the provisional result as a `call_appeal` deadline (the edital's, with a decree default, where the law is silent)",
            );
        }
        let quotas: Vec<&Quota> = caps.iter().flat_map(|c| &c.reserved).collect();
        let mut shares: Vec<CallShare> = Vec::new();
        for spanned in &raw.shares {
            let share = spanned.get_ref();
            let key = share.share.get_ref();
            if !quotas.iter().any(|q| &q.key == key) {
                self.diag.error(
                    share.share.span(),
                    format!(
                        "`{key}` is not a reserved share of the [[caps]]; known: {}",
                        quotas
                            .iter()
                            .map(|q| q.key.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
            if shares.iter().any(|s| &s.share == key) {
                self.diag.error(
                    share.share.span(),
                    format!("share `{key}` is offered twice"),
                );
            }
            if share.conditions.is_empty() {
                self.diag.error(
                    spanned.span(),
                    format!("share `{key}`: list the conditions an applicant proves to claim it"),
                );
            }
            let mut conditions: Vec<ShareCondition> = Vec::new();
            for condition in &share.conditions {
                let ckey = condition.key.get_ref();
                if conditions.iter().any(|c| &c.key == ckey) {
                    self.diag.error(
                        condition.key.span(),
                        format!("condition `{ckey}` is listed twice"),
                    );
                }
                conditions.push(ShareCondition {
                    key: ckey.clone(),
                    description: condition.description.clone(),
                    citation: self.citation(&condition.citation),
                });
            }
            shares.push(CallShare {
                share: key.clone(),
                conditions,
            });
        }
        for quota in &quotas {
            if !shares.iter().any(|s| s.share == quota.key) {
                self.diag.error(
                    span.clone(),
                    format!(
                        "the reserved share `{}` of the [[caps]] is not among the call's `shares`: say what an applicant proves to claim it",
                        quota.key
                    ),
                );
            }
        }
        CallRanking {
            citation: self.citation(&raw.citation),
            proof: self.citation(&raw.proof),
            tie_break: TieBreak {
                citation: self.citation(&raw.tie_break.citation),
                decree_default: self.open_term(&raw.tie_break.decree_default),
            },
            shares,
        }
    }

    fn requirements(&mut self, raw: &[Spanned<RawRequirement>]) -> Vec<Requirement> {
        let mut seen = HashSet::new();
        let mut requirements = Vec::new();
        for spanned in raw {
            let r = spanned.get_ref();
            let span = spanned.span();
            if !seen.insert(r.id.get_ref().clone()) {
                self.diag.error(
                    r.id.span(),
                    format!("requirement `{}` is declared twice", r.id.get_ref()),
                );
            }
            if r.applicants.is_empty() {
                self.diag
                    .error(span.clone(), "a requirement needs at least one applicant");
            }
            let check = match &r.check {
                RawCheck::NaturalPerson => Check::NaturalPerson,
                RawCheck::LicenseCategory {
                    any_of,
                    paid_activity_for,
                } => {
                    for category in any_of.iter().chain(paid_activity_for) {
                        if !matches!(category.as_str(), "A" | "B" | "C" | "D" | "E") {
                            self.diag.error(
                                span.clone(),
                                format!("`{category}` is not a CNH category (A, B, C, D, E)"),
                            );
                        }
                    }
                    Check::LicenseCategory {
                        any_of: any_of.clone(),
                        paid_activity_for: paid_activity_for.clone(),
                    }
                }
                RawCheck::LicenseValid => Check::LicenseValid,
                RawCheck::LicenseNotSuspended => Check::LicenseNotSuspended,
                RawCheck::NoSuspensionWithin(period) => {
                    Check::NoSuspensionWithin(self.period(period, span.clone()))
                }
                RawCheck::LicenseYears(q) => Check::LicenseYears(self.quantity(q, span.clone())),
                RawCheck::ResidentYears(q) => Check::ResidentYears(self.quantity(q, span.clone())),
                RawCheck::MinAge(q) => Check::MinAge(self.quantity(q, span.clone())),
                RawCheck::UnderAge(q) => Check::UnderAge(self.quantity(q, span.clone())),
                RawCheck::MinEducation(level) => {
                    match Education::parse(level) {
                        Some(level) => Check::MinEducation(level),
                        None => {
                            self.diag.error(
                            span.clone(),
                            format!("education `{level}`: expected none, fundamental, medio or superior"),
                        );
                            continue;
                        }
                    }
                }
                RawCheck::NotPublicEmployee => Check::NotPublicEmployee,
                RawCheck::NotTransportOperator => Check::NotTransportOperator,
                RawCheck::Document(name) => Check::Document(name.clone()),
                RawCheck::NoInterdependence { percent } => Check::NoInterdependence {
                    percent: self.percent(percent, span.clone()),
                },
                RawCheck::NoFinalConviction => Check::NoFinalConviction,
                RawCheck::NoOtherPermit => Check::NoOtherPermit,
                RawCheck::CompanyPermits(q) => {
                    Check::CompanyPermits(self.quantity(q, span.clone()))
                }
                RawCheck::CompanyShare(q) => Check::CompanyShare(self.percent(q, span.clone())),
                RawCheck::NoOverdueDebts => Check::NoOverdueDebts,
                RawCheck::PrepostoGrounds { vacation_days } => Check::PrepostoGrounds {
                    vacation_days: self.quantity(vacation_days, span.clone()),
                },
                RawCheck::DriversPerPermit {
                    max,
                    companies_only,
                } => Check::DriversPerPermit {
                    max: self.quantity(max, span.clone()),
                    companies_only: *companies_only,
                },
                RawCheck::WaitingPeriod { after, period } => match EndedHow::parse(after) {
                    Some(how) => Check::WaitingPeriod {
                        after: how,
                        period: self.period(period, span.clone()),
                    },
                    None => {
                        self.diag.error(
                            span.clone(),
                            format!(
                                "waiting period after `{after}`: expected renounced, cassated, revoked, caducity or extinct"
                            ),
                        );
                        continue;
                    }
                },
            };
            requirements.push(Requirement {
                id: r.id.get_ref().clone(),
                description: r.description.clone(),
                applicants: r
                    .applicants
                    .iter()
                    .map(|a| match a {
                        RawApplicant::Holder => Applicant::Holder,
                        RawApplicant::Driver => Applicant::Driver,
                    })
                    .collect(),
                check,
                citation: self.citation(&r.citation),
                see_also: r.see_also.iter().map(|c| self.citation(c)).collect(),
            });
        }
        requirements
    }

    fn vehicles(&mut self, raw: &RawVehicles) -> VehicleRules {
        let mut ids = HashSet::new();
        let requirements = raw
            .requirements
            .iter()
            .map(|s| {
                let r = s.get_ref();
                let span = s.span();
                if !ids.insert(r.id.get_ref().clone()) {
                    self.diag.error(
                        r.id.span(),
                        format!("vehicle requirement `{}` is declared twice", r.id.get_ref()),
                    );
                }
                let check = match &r.check {
                    RawVehicleCheck::Doors { min, max } => VehicleCheck::Doors {
                        min: self.quantity(min, span.clone()),
                        max: max.as_ref().map(|max| self.quantity(max, span.clone())),
                    },
                    RawVehicleCheck::MaxCapacity(q) => {
                        VehicleCheck::MaxCapacity(self.quantity(q, span.clone()))
                    }
                    RawVehicleCheck::AirConditioning => VehicleCheck::AirConditioning,
                    RawVehicleCheck::Colour(colour) => VehicleCheck::Colour(colour.to_lowercase()),
                    RawVehicleCheck::MinTrunkLitres(q) => {
                        VehicleCheck::MinTrunkLitres(self.quantity(q, span.clone()))
                    }
                    RawVehicleCheck::Insured => VehicleCheck::Insured,
                    RawVehicleCheck::MinEngineCc(q) => {
                        VehicleCheck::MinEngineCc(self.quantity(q, span.clone()))
                    }
                    RawVehicleCheck::FourStroke => VehicleCheck::FourStroke,
                    RawVehicleCheck::Category(any_of) => VehicleCheck::Category(any_of.clone()),
                    RawVehicleCheck::Document(name) => VehicleCheck::Document(name.clone()),
                    RawVehicleCheck::Equipment { all_of, any_of } => {
                        if all_of.is_empty() && any_of.is_empty() {
                            self.diag.error(
                                span.clone(),
                                "an equipment check needs `all_of` or `any_of`",
                            );
                        }
                        VehicleCheck::Equipment {
                            all_of: all_of.clone(),
                            any_of: any_of.clone(),
                        }
                    }
                };
                VehicleRequirement {
                    id: r.id.get_ref().clone(),
                    description: r.description.clone(),
                    check,
                    citation: self.citation(&r.citation),
                }
            })
            .collect();
        let inclusion = raw.inclusion.as_ref().map(|s| AgeLimit {
            max_age: self.quantity(&s.get_ref().max_age, s.span()),
            citation: self.citation(&s.get_ref().citation),
        });
        let substitution = raw
            .substitution
            .iter()
            .map(|s| {
                let r = s.get_ref();
                let span = s.span();
                if let (Some(RawQuantity::Fixed(min)), Some(RawQuantity::Fixed(max))) =
                    (&r.replaced_min_age, &r.replaced_max_age)
                    && min > max
                {
                    self.diag.error(
                        span.clone(),
                        format!("replaced_min_age {min} is above replaced_max_age {max}"),
                    );
                }
                SubstitutionRule {
                    replaced_min_age: r
                        .replaced_min_age
                        .as_ref()
                        .map(|q| self.quantity(q, span.clone())),
                    replaced_max_age: r
                        .replaced_max_age
                        .as_ref()
                        .map(|q| self.quantity(q, span.clone())),
                    max_age: self.quantity(&r.max_age, span.clone()),
                    decree_default: self.open_term(&r.decree_default),
                    min_years_newer: r
                        .min_years_newer
                        .as_ref()
                        .map(|q| self.quantity(q, span.clone())),
                    citation: self.citation(&r.citation),
                }
            })
            .collect();
        let replacement = raw.replacement.as_ref().map(|s| {
            let r = s.get_ref();
            let by = match r.by.get_ref().as_str() {
                "end_of_year" => ReplaceBy::EndOfYear,
                "last_business_day_of_february_next_year" => {
                    ReplaceBy::LastBusinessDayOfFebruaryNextYear
                }
                other => {
                    self.diag.error(
                        r.by.span(),
                        format!(
                            "replacement by `{other}`: expected end_of_year or last_business_day_of_february_next_year"
                        ),
                    );
                    ReplaceBy::EndOfYear
                }
            };
            ReplacementRule {
                at_age: self.quantity(&r.at_age, s.span()),
                by,
                extension: r.extension.as_ref().map(|e| ReplacementExtension {
                    years: self.quantity(&e.years, s.span()),
                    inspect_every: self.period(&e.inspect_every, s.span()),
                    citation: self.citation(&e.citation),
                }),
                citation: self.citation(&r.citation),
            }
        });
        let transition = raw.transition.as_ref().map(|s| TransitionRule {
            over_age: self.quantity(&s.get_ref().over_age, s.span()),
            within: self.period(&s.get_ref().within, s.span()),
            citation: self.citation(&s.get_ref().citation),
        });
        let inspection = raw.inspection.as_ref().map(|s| InspectionRule {
            every: self.period(&s.get_ref().every, s.span()),
            then: s.get_ref().then.as_ref().map(|t| LaterInspections {
                after: self.period(&t.after, s.span()),
                from_age: t.from_age,
                every: self.period(&t.every, s.span()),
                citation: self.citation(&t.citation),
            }),
            citation: self.citation(&s.get_ref().citation),
            see_also: s
                .get_ref()
                .see_also
                .iter()
                .map(|c| self.citation(c))
                .collect(),
        });
        let mut kinds = Vec::new();
        let inspections = raw
            .inspections
            .iter()
            .map(|s| {
                let r = s.get_ref();
                let kind = r.kind.get_ref().clone();
                if kinds.contains(&kind) {
                    self.diag.error(
                        r.kind.span(),
                        format!(
                            "inspection kind `{kind}` is defined twice: give each its own kind"
                        ),
                    );
                }
                kinds.push(kind.clone());
                PeriodicInspection {
                    kind,
                    description: r.description.clone(),
                    every: self.period(&r.every, s.span()),
                    older_than: r.older_than.as_ref().map(|q| self.quantity(q, s.span())),
                    only_aftermarket_adaptation: r.only_aftermarket_adaptation,
                    citation: self.citation(&r.citation),
                }
            })
            .collect();
        VehicleRules {
            requirements,
            inclusion,
            substitution,
            replacement,
            transition,
            inspection,
            inspections,
            fleet: raw.fleet.as_ref().map(|f| self.citation(&f.citation)),
        }
    }

    fn fees(&mut self, raw: &[Spanned<RawFee>]) -> Vec<Fee> {
        let mut kinds = HashSet::new();
        let mut fees = Vec::new();
        for spanned in raw {
            let f = spanned.get_ref();
            if !kinds.insert(f.kind.get_ref().clone()) {
                self.diag.error(
                    f.kind.span(),
                    format!("fee `{}` is declared twice", f.kind.get_ref()),
                );
            }
            let amount = |c: &mut Self, quantity: &RawQuantity, citation: &Spanned<String>| {
                c.amount(&RawAmount {
                    unit: f.unit.clone(),
                    quantity: quantity.clone(),
                    citation: citation.clone(),
                })
            };
            let base = amount(self, &f.quantity, &f.citation);
            let mut reductions: Vec<FeeReduction> = Vec::new();
            for r in &f.reductions {
                if r.to_months.is_some_and(|to| to < r.from_months) {
                    self.diag.error(
                        spanned.span(),
                        format!(
                            "reduction from {} to {:?} months is empty",
                            r.from_months, r.to_months
                        ),
                    );
                }
                let overlaps = reductions.iter().any(|o| {
                    o.from_months <= r.to_months.unwrap_or(u32::MAX)
                        && r.from_months <= o.to_months.unwrap_or(u32::MAX)
                });
                if overlaps {
                    self.diag.error(
                        spanned.span(),
                        format!("reductions of fee `{}` overlap", f.kind.get_ref()),
                    );
                }
                reductions.push(FeeReduction {
                    from_months: r.from_months,
                    to_months: r.to_months,
                    amount: amount(self, &r.quantity, &r.citation),
                });
            }
            let event = f.event.as_ref().and_then(|raw| {
                let event = FeeEvent::parse(raw.get_ref());
                if event.is_none() {
                    self.diag.error(
                        raw.span(),
                        format!(
                            "unknown fee event `{}`; known: {}",
                            raw.get_ref(),
                            FeeEvent::known()
                        ),
                    );
                }
                event
            });
            fees.push(Fee {
                kind: f.kind.get_ref().clone(),
                description: f.description.clone(),
                amount: base,
                reductions,
                event,
            });
        }
        fees
    }

    fn time(&mut self, raw: &Spanned<String>) -> chrono::NaiveTime {
        chrono::NaiveTime::parse_from_str(raw.get_ref(), "%H:%M").unwrap_or_else(|_| {
            self.diag.error(
                raw.span(),
                format!("`{}` is not a time of day; write HH:MM", raw.get_ref()),
            );
            chrono::NaiveTime::MIN
        })
    }

    fn fare(&mut self, spanned: &Spanned<RawFare>) -> FareRule {
        let raw = spanned.get_ref();
        if !matches!(raw.default_bandeira, 1 | 2) {
            self.diag
                .error(spanned.span(), "default_bandeira must be 1 or 2");
        }
        let windows = raw
            .windows
            .iter()
            .filter_map(|w| {
                let window = w.get_ref();
                let on = match window.on.get_ref().as_str() {
                    "weekday" => DayKind::Weekday,
                    "saturday" => DayKind::Saturday,
                    "sunday" => DayKind::Sunday,
                    "holiday" => DayKind::Holiday,
                    other => {
                        self.diag.error(
                            window.on.span(),
                            format!("`{other}`: expected weekday, saturday, sunday or holiday"),
                        );
                        return None;
                    }
                };
                let from = self.time(&window.from);
                let to = self.time(&window.to);
                if !window.next_day && to <= from {
                    self.diag.error(
                        window.to.span(),
                        "the window ends before it starts; set next_day = true if it ends the next day",
                    );
                }
                Some(FareWindow {
                    on,
                    from,
                    to,
                    next_day: window.next_day,
                    citation: self.citation(&window.citation),
                })
            })
            .collect();
        let bandeira_2_increase = raw.bandeira_2_increase.as_ref().map(|i| Cited {
            value: self.percent(&i.value, spanned.span()),
            citation: self.citation(&i.citation),
        });
        let discounts = raw
            .discounts
            .iter()
            .filter_map(|d| {
                let discount = d.get_ref();
                let who = match (discount.who.get_ref().as_str(), &discount.age) {
                    ("age_at_least", Some(age)) => Beneficiary::AgeAtLeast(self.quantity(age, d.span())),
                    ("student", None) => Beneficiary::Student,
                    ("disabled", None) => Beneficiary::Disabled,
                    (other, _) => {
                        self.diag.error(
                            discount.who.span(),
                            format!(
                                "discount for `{other}`: expected age_at_least (with `age`), student or disabled (without `age`)"
                            ),
                        );
                        return None;
                    }
                };
                Some(FareDiscount {
                    who,
                    percent: self.percent(&discount.percent, d.span()),
                    citation: self.citation(&discount.citation),
                })
            })
            .collect();
        let no_extra_for_aids = raw.no_extra_for_aids.as_ref().map(|c| self.citation(c));
        FareRule {
            no_extra_for_aids,
            default_bandeira: raw.default_bandeira,
            windows,
            bandeira_2_increase,
            discounts,
            citation: self.citation(&raw.citation),
        }
    }

    /// The articles of the services by authorization; their terms are
    /// deadlines the rulebook must have.
    fn charters(&mut self, k: &RawCharters, deadlines: &[Spanned<RawDeadline>]) -> CharterRules {
        for kind in [
            DeadlineKind::ContinuousCharter,
            DeadlineKind::EmergencyAuthorization,
        ] {
            if !deadlines
                .iter()
                .any(|d| d.get_ref().kind.get_ref() == kind.name())
            {
                self.diag.error(
                    k.emergency.span(),
                    format!(
                        "[bus.charters] needs the `{}` deadline (its term)",
                        kind.name()
                    ),
                );
            }
        }
        CharterRules {
            prior: self.citation(&k.prior),
            continuous: self.citation(&k.continuous),
            eventual: self.citation(&k.eventual),
            emergency: self.citation(&k.emergency),
            closed_circuit: self.citation(&k.closed_circuit),
            seats: self.citation(&k.seats),
            copy_on_board: self.citation(&k.copy_on_board),
            registration: k
                .registration
                .as_ref()
                .map(|r| self.carrier_registration(r)),
        }
    }

    /// The register of the carriers authorized: its validity a whole
    /// number of months or days, at least one (a parameter's every value).
    fn carrier_registration(&mut self, r: &RawCarrierRegistration) -> CarrierRegistrationRules {
        let span = r.valid_citation.span();
        let valid = self.period(&r.valid, span.clone());
        let (Period::Months(quantity) | Period::Days(quantity)) = &valid;
        let values: Vec<Decimal> = match quantity {
            Quantity::Fixed(value) => vec![*value],
            Quantity::Param(id) => self
                .st
                .parameters
                .get(id.0 as usize)
                .map(|p| p.values.iter().map(|v| v.value).collect())
                .unwrap_or_default(),
        };
        for value in values {
            if value.fract() != Decimal::ZERO || value < Decimal::ONE {
                self.diag.error(
                    span.clone(),
                    format!(
                        "[bus.charters.registration] valid {value}: a registration lasts a whole number of months or days, at least one"
                    ),
                );
            }
        }
        CarrierRegistrationRules {
            register: self.citation(&r.register),
            on_board: self.citation(&r.on_board),
            valid: Cited {
                value: valid,
                citation: self.citation(&r.valid_citation),
            },
            cancellation: self.citation(&r.cancellation),
        }
    }

    /// What passengers' complaints about a trip are weighed by: each kind
    /// once, its infraction in the catalog.
    fn passengers(&mut self, raw: &RawPassengers, span: Range<usize>) -> PassengerRules {
        let mut claims: Vec<ClaimRule> = Vec::new();
        for claim in &raw.claims {
            let Some(kind) = self.word::<ClaimKind>(
                &claim.kind,
                "complaint kind",
                ClaimKind::parse,
                ClaimKind::NAMES,
            ) else {
                continue;
            };
            if claims.iter().any(|c| c.kind == kind) {
                self.diag.error(
                    claim.kind.span(),
                    format!("the complaint kind `{}` is listed twice", kind.name()),
                );
                continue;
            }
            if claim.citations.is_empty() {
                self.diag.error(
                    claim.kind.span(),
                    format!("the complaint kind `{}` needs the articles of the passenger's right (`citations`)", kind.name()),
                );
            }
            let citations = claim.citations.iter().map(|a| self.citation(a)).collect();
            if let Some(infraction) = self.code_ref(&claim.infraction) {
                claims.push(ClaimRule {
                    kind,
                    infraction,
                    citations,
                });
            }
        }
        PassengerRules {
            claims,
            indemnity_payment_days: Cited {
                value: self.quantity(&raw.indemnity_payment_days.value, span),
                citation: self.citation(&raw.indemnity_payment_days.citation),
            },
        }
    }

    /// A word of a closed vocabulary, or an error naming the known ones.
    fn word<T>(
        &mut self,
        raw: &Spanned<String>,
        what: &str,
        parse: fn(&str) -> Option<T>,
        known: &[&str],
    ) -> Option<T> {
        let word = parse(raw.get_ref());
        if word.is_none() {
            self.diag.error(
                raw.span(),
                format!(
                    "unknown {what} `{}`; known: {}",
                    raw.get_ref(),
                    known.join(", ")
                ),
            );
        }
        word
    }

    /// The custody of the measures applied on the spot: each one of them,
    /// once; its conditions and expenses from their vocabularies.
    fn custody(
        &mut self,
        raw: &[Spanned<RawCustody>],
        at_once: &[Cited<SanctionKind>],
    ) -> Vec<CustodyRule> {
        let mut rules: Vec<CustodyRule> = Vec::new();
        for spanned in raw {
            let custody = spanned.get_ref();
            let Some(kind) = self.sanction_kind(&custody.kind) else {
                continue;
            };
            if !at_once.iter().any(|m| m.value == kind) {
                self.diag.error(
                    custody.kind.span(),
                    format!(
                        "the custody of a {} needs it among the measures applied on the spot (`at_once`)",
                        kind.name()
                    ),
                );
            }
            if rules.iter().any(|r| r.kind == kind) {
                self.diag.error(
                    custody.kind.span(),
                    format!("the custody of a {} is given twice", kind.name()),
                );
                continue;
            }
            let release = custody
                .release
                .iter()
                .filter_map(|c| {
                    Some(Cited {
                        value: self.word(
                            &c.when,
                            "release condition",
                            ReleaseCondition::parse,
                            ReleaseCondition::NAMES,
                        )?,
                        citation: self.citation(&c.citation),
                    })
                })
                .collect();
            let expenses = custody
                .expenses
                .iter()
                .filter_map(|e| {
                    Some(Cited {
                        value: self.word(
                            &e.kind,
                            "custody expense",
                            ExpenseKind::parse,
                            ExpenseKind::NAMES,
                        )?,
                        citation: self.citation(&e.citation),
                    })
                })
                .collect();
            rules.push(CustodyRule {
                kind,
                release,
                expenses,
            });
        }
        rules
    }

    /// The findings of the carriers' data; every infraction in the catalog.
    fn compliance(&mut self, raw: &RawCompliance, span: Range<usize>) -> Option<BusCompliance> {
        let mut finding = |f: &RawFinding| {
            Some(FindingRule {
                infraction: self.code_ref(&f.infraction)?,
                citation: self.citation(&f.citation),
            })
        };
        let (seat, over, fields, minimum, late) = (
            finding(&raw.seat_sold_twice),
            finding(&raw.over_capacity),
            finding(&raw.ticket_fields),
            finding(&raw.below_minimum_frequency),
            finding(&raw.late_statistics),
        );
        let statistics_due_day = Cited {
            value: self.quantity(&raw.statistics_due_day.value, span.clone()),
            citation: self.citation(&raw.statistics_due_day.citation),
        };
        if let Quantity::Fixed(day) = statistics_due_day.value
            && !(Decimal::ONE..=Decimal::from(28)).contains(&day)
        {
            self.diag.error(
                raw.statistics_due_day.citation.span(),
                format!("statistics_due_day {day}: a day from 1 to 28, so every month has it"),
            );
        }
        let late_after_days = Cited {
            value: self.quantity(&raw.late_after_days.value, span),
            citation: self.citation(&raw.late_after_days.citation),
        };
        Some(BusCompliance {
            seat_sold_twice: seat?,
            over_capacity: over?,
            ticket_fields: fields?,
            below_minimum_frequency: minimum?,
            late_statistics: late?,
            statistics_due_day,
            late_after_days,
        })
    }

    fn downtime(&mut self, spanned: &Spanned<RawDowntime>) -> DowntimeRule {
        let raw = spanned.get_ref();
        let mut last = None;
        let bands = raw
            .bands
            .iter()
            .filter_map(|b| {
                if let RawQuantity::Fixed(day) = &b.from_day {
                    if last.is_some_and(|last| *day <= last) {
                        self.diag.error(
                            b.citation.span(),
                            format!("downtime band from day {day}: list the bands by increasing `from_day`"),
                        );
                    }
                    last = Some(*day);
                }
                Some(DowntimeBand {
                    from_day: self.quantity(&b.from_day, spanned.span()),
                    infraction: self.code_ref(&b.infraction)?,
                    loses_stand: b.loses_stand,
                    citation: self.citation(&b.citation),
                })
            })
            .collect();
        let mut keys = HashSet::new();
        let excuses = raw
            .excuses
            .iter()
            .map(|e| {
                if !keys.insert(e.key.get_ref().clone()) {
                    self.diag.error(
                        e.key.span(),
                        format!("downtime excuse `{}` is declared twice", e.key.get_ref()),
                    );
                }
                DowntimeExcuse {
                    key: e.key.get_ref().clone(),
                    description: e.description.clone(),
                    max_days_per_year: e
                        .max_days_per_year
                        .as_ref()
                        .map(|q| self.quantity(q, spanned.span())),
                    citation: self.citation(&e.citation),
                }
            })
            .collect();
        DowntimeRule {
            free_citation: self.citation(&raw.free_citation),
            bands,
            excuses,
            citation: self.citation(&raw.citation),
        }
    }

    /// Reasons with their articles; a key declared twice is an error.
    fn reasons(
        &mut self,
        list: &[RawReason],
        span: Range<usize>,
        what: &str,
    ) -> Vec<SuspensionReason> {
        let mut keys = HashSet::new();
        list.iter()
            .map(|r| {
                if !keys.insert(r.key.clone()) {
                    self.diag.error(
                        span.clone(),
                        format!("{what} `{}` is declared twice", r.key),
                    );
                }
                SuspensionReason {
                    key: r.key.clone(),
                    description: r.description.clone(),
                    citation: self.citation(&r.citation),
                }
            })
            .collect()
    }

    /// `[[transitional]]`: each kind takes its own fields and no other.
    fn transitional(&mut self, spanned: &Spanned<RawTransitional>) -> Transitional {
        let raw = spanned.get_ref();
        let span = spanned.span();
        let given: Vec<(&str, bool)> = vec![
            ("years", raw.years.is_some()),
            ("older_than_years", raw.older_than_years.is_some()),
            ("within_days", raw.within_days.is_some()),
            ("within_months", raw.within_months.is_some()),
            ("replacement_max_years", raw.replacement_max_years.is_some()),
            ("duty", raw.duty.is_some()),
        ];
        let takes: &[&str] = match raw.kind.get_ref().as_str() {
            "permit_validity" => &["years"],
            "permit_term_kept" | "record_kept" => &[],
            "vehicle_replacement" => {
                &["older_than_years", "within_months", "replacement_max_years"]
            }
            "holder_duty" => &["within_days", "within_months", "duty"],
            other => {
                self.diag.error(
                    raw.kind.span(),
                    format!(
                        "unknown transitional kind `{other}` (known: permit_validity, \
                         permit_term_kept, vehicle_replacement, holder_duty, record_kept)"
                    ),
                );
                &[]
            }
        };
        for (field, present) in &given {
            if *present && !takes.contains(field) {
                self.diag.error(
                    span.clone(),
                    format!(
                        "`{field}` is not a field of a `{}` rule",
                        raw.kind.get_ref()
                    ),
                );
            }
        }
        let mut need = |field: &str, value: Option<u32>| -> u32 {
            match value {
                Some(v) if v > 0 => v,
                _ => {
                    self.diag.error(
                        span.clone(),
                        format!(
                            "a `{}` rule needs `{field}`, a number above zero",
                            raw.kind.get_ref()
                        ),
                    );
                    0
                }
            }
        };
        let rule = match raw.kind.get_ref().as_str() {
            "permit_validity" => TransitionalRule::PermitValidity {
                years: need("years", raw.years),
            },
            "vehicle_replacement" => TransitionalRule::VehicleReplacement {
                older_than_years: need("older_than_years", raw.older_than_years),
                within_months: need("within_months", raw.within_months),
                replacement_max_years: need("replacement_max_years", raw.replacement_max_years),
            },
            "holder_duty" => {
                let within = match (raw.within_days, raw.within_months) {
                    (Some(d), None) if d > 0 => Within::Days(d),
                    (None, Some(m)) if m > 0 => Within::Months(m),
                    _ => {
                        self.diag.error(
                            span.clone(),
                            "a `holder_duty` rule needs exactly one of `within_days` or `within_months`, above zero",
                        );
                        Within::Days(0)
                    }
                };
                let duty = raw.duty.clone().unwrap_or_default();
                if duty.trim().is_empty() {
                    self.diag.error(span.clone(), "a `holder_duty` rule needs `duty`, what the holder must do (in Portuguese)");
                }
                TransitionalRule::HolderDuty { within, duty }
            }
            "record_kept" => TransitionalRule::RecordKept,
            _ => TransitionalRule::PermitTermKept,
        };
        Transitional {
            on: raw.on.0,
            rule,
            doc: raw.doc.clone(),
            citation: self.citation(&raw.citation),
        }
    }

    fn change_limit(&mut self, spanned: &Spanned<RawChangeLimit>) -> ChangeLimit {
        let raw = spanned.get_ref();
        const CHANGES: [&str; 2] = ["driver_swap", "vehicle_substitution"];
        if !CHANGES.contains(&raw.change.get_ref().as_str()) {
            self.diag.error(
                raw.change.span(),
                format!(
                    "unknown change `{}` (known: {})",
                    raw.change.get_ref(),
                    CHANGES.join(", ")
                ),
            );
        }
        ChangeLimit {
            change: raw.change.get_ref().clone(),
            max: self.quantity(&raw.max, spanned.span()),
            within: self.period(&raw.within, spanned.span()),
            excuses: self.reasons(&raw.excuses, spanned.span(), "excuse"),
            citation: self.citation(&raw.citation),
            decree_default: self.open_term(&raw.decree_default),
        }
    }

    /// `[permit_life]`: every ground known and declared once, with when it
    /// may be declared; `after = "notice"` needs the `caducity_cure` limit,
    /// `after = "reserve"` the reserve (`[permit_suspension]`), and a term
    /// ground a term.
    fn permit_life(
        &mut self,
        spanned: &Spanned<RawPermitLife>,
        deadlines: &[DeadlineRule],
        has_reserve: bool,
    ) -> PermitLife {
        let raw = spanned.get_ref();
        let has = |kind: DeadlineKind| deadlines.iter().any(|d| d.kind == kind);
        let mut ends: Vec<EndRule> = Vec::new();
        for end in &raw.ends {
            let e = end.get_ref();
            let Some(ground) = EndGround::parse(e.ground.get_ref()) else {
                self.diag.error(
                    e.ground.span(),
                    format!(
                        "unknown ground `{}`; known: {}",
                        e.ground.get_ref(),
                        EndGround::known()
                    ),
                );
                continue;
            };
            if ends.iter().any(|known| known.ground == ground) {
                self.diag
                    .error(e.ground.span(), format!("ground `{ground}` listed twice"));
            }
            let after = match (e.after.as_ref().map(|a| a.get_ref().as_str()), e.age) {
                (None, None) => EndAfter::Any,
                (None, Some(age)) => EndAfter::Age(age),
                (Some("term"), None) => EndAfter::Term,
                (Some("notice"), None) => EndAfter::Notice,
                (Some("reserve"), None) => EndAfter::Reserve,
                (Some(other), _) => {
                    self.diag.error(
                        end.span(),
                        format!(
                            "`after = \"{other}\"` with `age`, or unknown: use term, notice or reserve, or `age` alone"
                        ),
                    );
                    EndAfter::Any
                }
            };
            let term = has(DeadlineKind::PermitTerm) || has(DeadlineKind::DelegationTerm);
            let misfit = match (ground, after) {
                (EndGround::Term, a) if a != EndAfter::Term => {
                    Some("the ground `term` needs `after = \"term\"`")
                }
                (EndGround::AgeLimit, a) if !matches!(a, EndAfter::Age(_)) => {
                    Some("the ground `age_limit` needs `age`")
                }
                (EndGround::Abandonment, a) if a != EndAfter::Reserve => {
                    Some("the ground `abandonment` needs `after = \"reserve\"`")
                }
                (EndGround::Cassation, a) if a != EndAfter::Any => {
                    Some("a cassation follows an auto's final decision: no `after`")
                }
                (_, EndAfter::Term) if !term => {
                    Some("`after = \"term\"` needs a `permit_term` or `delegation_term` deadline")
                }
                (_, EndAfter::Notice) if !has(DeadlineKind::CaducityCure) => Some(
                    "`after = \"notice\"` needs a `caducity_cure` deadline (the time to correct)",
                ),
                (_, EndAfter::Reserve) if !has_reserve => {
                    Some("`after = \"reserve\"` needs the reserve (`[permit_suspension]`)")
                }
                _ => None,
            };
            if let Some(message) = misfit {
                self.diag.error(end.span(), message);
            }
            let holder = match e.holder.as_ref().map(|h| (h, h.get_ref().as_str())) {
                None => None,
                Some((_, "person")) => Some(outorga_core::facts::PersonKind::Person),
                Some((_, "company")) => Some(outorga_core::facts::PersonKind::Company),
                Some((h, other)) => {
                    self.diag.error(
                        h.span(),
                        format!("unknown holder `{other}`: use person or company"),
                    );
                    None
                }
            };
            if !e.direct.is_empty() && after != EndAfter::Notice {
                self.diag.error(
                    end.span(),
                    "`direct` lists the grounds that need no notice: only with `after = \"notice\"`",
                );
            }
            ends.push(EndRule {
                ground,
                after,
                holder,
                direct: e.direct.iter().map(|d| d.get_ref().clone()).collect(),
                vacancy: e.vacancy.as_ref().map(|v| self.citation(v)),
                citation: self.citation(&e.citation),
            });
        }
        let renewal = raw.renewal.as_ref().map(|r| RenewalRule {
            max: r.max,
            citation: self.citation(&r.citation),
        });
        let transfer = match raw.transfer.rule.get_ref().as_str() {
            "forbidden" => Transfer::Forbidden,
            "with_consent" => Transfer::WithConsent,
            other => {
                self.diag.error(
                    raw.transfer.rule.span(),
                    format!("unknown transfer rule `{other}`: use forbidden or with_consent"),
                );
                Transfer::Forbidden
            }
        };
        PermitLife {
            citation: self.citation(&raw.citation),
            earlier_from_act: raw.earlier_from_act.as_ref().map(|c| self.citation(c)),
            ends,
            renewal,
            transfer: Cited {
                value: transfer,
                citation: self.citation(&raw.transfer.citation),
            },
        }
    }

    fn suspension(&mut self, spanned: &Spanned<RawSuspension>) -> SuspensionOnRequest {
        let raw = spanned.get_ref();
        let reasons = self.reasons(&raw.reasons, spanned.span(), "suspension reason");
        SuspensionOnRequest {
            max_days: self.quantity(&raw.max_days, spanned.span()),
            extension_days: self.quantity(&raw.extension_days, spanned.span()),
            extension_citation: raw.extension_citation.as_ref().map(|c| self.citation(c)),
            reasons,
            citation: self.citation(&raw.citation),
        }
    }
}
