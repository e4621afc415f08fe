//! Past autos de infração and the debts their fines left, from the
//! department's files.
//!
//! An auto keeps the year and number the department gave it (the
//! jurisdiction's counter moves past them: the next auto issued numbers
//! after), the rulebook's infraction code, and the state of its process as
//! the file says it, with the dates that state implies; the engine's
//! proposal is computed for it as `issue_auto` computes one, with the
//! offender's record as it stood on the day of the infraction (the autos
//! imported before it in the file included). A final auto's fine becomes a
//! debt as `process::finalize` makes it, for the amount the file states
//! when it states one (what was imposed is a fact; the outcome says what the
//! law would have given). The auto's history starts with an `import` step
//! naming the file and line.
//!
//! An auto committed before the rulebook's law was in force is imported
//! only where the law keeps such records (Teófilo Otoni art. 110, the
//! rulebook's `record_kept`): as a final record — the penalties "impostas"
//! before the regulation — that counts for recidivism and points, with no
//! proposal of a law that did not govern it. Elsewhere it is refused.
//!
//! A debts file carries, per final auto, what became of its fine: the
//! amount, issued and due days, the parcels agreed and the payments made.

use super::{Cells, date, folded, number, renamed, yes};
use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::auto_record::{Auto, Proposal, ProposedSanction, auto_step, decision_text, read_auto};
use crate::autos::{AutoInput, Proposed, propose_in};
use crate::{Store, StoreError, TextKind, Tx};
use chrono::{Datelike, NaiveDate, NaiveDateTime};
use outorga_core::engine::process::{Decision, Machine, State, Status};
use outorga_core::engine::transition::record_kept;
use outorga_core::model::{DeadlineKind, Rulebook, SanctionKind, Service};
use rust_decimal::Decimal;
use sqlx::Row;
use std::str::FromStr;

/// A day and time as `31/12/2025 14:30`, `2025-12-31 14:30` (or `T`), or a
/// day alone (then at midnight).
fn moment(field: &'static str, text: &str) -> Result<NaiveDateTime, StoreError> {
    let t = text.trim();
    for format in [
        "%d/%m/%Y %H:%M",
        "%d/%m/%Y %H:%M:%S",
        "%Y-%m-%d %H:%M",
        "%Y-%m-%d %H:%M:%S",
        "%Y-%m-%dT%H:%M",
        "%Y-%m-%dT%H:%M:%S",
    ] {
        if let Ok(at) = NaiveDateTime::parse_from_str(t, format) {
            return Ok(at);
        }
    }
    match date(field, Some(t)) {
        Ok(Some(day)) => Ok(day.and_time(chrono::NaiveTime::MIN)),
        _ => Err(StoreError::Invalid {
            field,
            reason: format!("`{t}`: escreva a data e a hora como 31/12/2025 14:30"),
        }),
    }
}

/// An amount in a unit: `150`, `150,5`, `1.234,56` or `150.5`.
fn amount(field: &'static str, text: &str) -> Result<Decimal, StoreError> {
    let t = text.trim();
    let plain = if t.contains(',') {
        t.replace('.', "").replace(',', ".")
    } else {
        t.to_string()
    };
    Decimal::from_str(&plain)
        .ok()
        .filter(|d| *d > Decimal::ZERO)
        .map(|d| d.normalize())
        .ok_or_else(|| StoreError::Invalid {
            field,
            reason: format!("`{t}` não é um valor maior que zero (escreva 150,00)"),
        })
}

/// A service as the files write it (`táxi`, `mototaxi`, `taxi`).
fn service_named(text: &str) -> Option<Service> {
    let wanted = folded(text);
    Service::ALL
        .into_iter()
        .find(|s| s.name() == wanted || folded(s.portuguese()) == wanted)
}

/// The situation as the department's files write it.
fn situation(text: &str) -> Option<Status> {
    Some(match folded(text).as_str() {
        "lavrado" | "emitido" | "issued" => Status::Issued,
        "notificado" | "em_defesa" | "notified" => Status::Notified,
        "julgado" | "judged" => Status::Judged,
        "decisao_notificada" | "decision_notified" => Status::DecisionNotified,
        "recorrido" | "em_recurso" | "appealed" => Status::Appealed,
        "definitivo" | "transitado_em_julgado" | "final" => Status::Final,
        "arquivado" | "archived" => Status::Archived,
        "anulado" | "cancelado" | "annulled" => Status::Annulled,
        _ => return None,
    })
}

/// The rulebook an auto's infraction code belongs to: the service's when
/// the file names it, or the one rulebook of the jurisdiction that has the
/// code.
fn rulebook_of<'r>(
    jurisdiction: &str,
    rulebooks: &[&'r Rulebook],
    service: Option<&str>,
    code: &str,
) -> Result<&'r Rulebook, StoreError> {
    let how = |books: &[&Rulebook]| {
        let example = books
            .iter()
            .find_map(|r| r.infractions.first().map(|i| i.code.to_string()))
            .unwrap_or_default();
        format!(
            "escreva o código da infração como o regulamento o numera (por exemplo `{example}`): \
             os códigos estão no catálogo de infrações ({}) e na busca do auto de infração",
            books
                .iter()
                .map(|r| r.id.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let candidates: Vec<&Rulebook> = match service {
        Some(text) => {
            let Some(service) = service_named(text) else {
                return Err(StoreError::Invalid {
                    field: "servico",
                    reason: format!(
                        "`{text}`: escreva {}",
                        Service::ALL
                            .iter()
                            .map(|s| s.portuguese())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                });
            };
            let books: Vec<&Rulebook> = rulebooks
                .iter()
                .copied()
                .filter(|r| r.services.contains(&service))
                .collect();
            if books.is_empty() {
                return Err(StoreError::Invalid {
                    field: "servico",
                    reason: format!(
                        "{jurisdiction} não tem regulamento de {}: confira a jurisdição",
                        service.portuguese()
                    ),
                });
            }
            books
        }
        None => rulebooks.to_vec(),
    };
    let with_code: Vec<&Rulebook> = candidates
        .iter()
        .copied()
        .filter(|r| r.infraction_by_code(code).is_some())
        .collect();
    match with_code.as_slice() {
        [one] => Ok(one),
        [] => Err(StoreError::Invalid {
            field: "infracao",
            reason: format!(
                "`{code}` não é infração do regulamento de {jurisdiction}: {}",
                how(&candidates)
            ),
        }),
        _ => Err(StoreError::Invalid {
            field: "servico",
            reason: format!(
                "o código `{code}` existe em mais de um regulamento ({}): informe o serviço",
                with_code
                    .iter()
                    .map(|r| r.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
    }
}

/// The dates of an auto's process as the file gives them, in their order.
struct Dates {
    notified: Option<NaiveDate>,
    defended: Option<NaiveDate>,
    judged: Option<NaiveDate>,
    decision_notified: Option<NaiveDate>,
    appealed: Option<NaiveDate>,
    closed: Option<NaiveDate>,
}

impl Dates {
    fn read(cells: &Cells<'_>) -> Result<Dates, StoreError> {
        Ok(Dates {
            notified: date("notificado_em", cells.get("notificado_em"))?,
            defended: date("defesa_em", cells.get("defesa_em"))?,
            judged: date("julgado_em", cells.get("julgado_em"))?,
            decision_notified: date("decisao_notificada_em", cells.get("decisao_notificada_em"))?,
            appealed: date("recorrido_em", cells.get("recorrido_em"))?,
            closed: date("definitivo_em", cells.get("definitivo_em"))?,
        })
    }

    /// Each date the state needs is there, none is later than the next
    /// one, none before the infraction nor after today.
    fn check(
        &self,
        status: Status,
        committed: NaiveDate,
        today: NaiveDate,
    ) -> Result<(), StoreError> {
        let need = |field: &'static str, day: Option<NaiveDate>| match day {
            Some(_) => Ok(()),
            None => Err(StoreError::Invalid {
                field,
                reason: format!("um auto {} tem esta data: preencha-a", status.portuguese()),
            }),
        };
        match status {
            Status::Notified => need("notificado_em", self.notified)?,
            Status::Judged => need("julgado_em", self.judged)?,
            Status::DecisionNotified => {
                need("julgado_em", self.judged)?;
                need("decisao_notificada_em", self.decision_notified)?;
            }
            Status::Appealed => {
                need("julgado_em", self.judged)?;
                need("recorrido_em", self.appealed)?;
            }
            Status::Final => need("definitivo_em", self.closed)?,
            _ => {}
        }
        // Dates a state has not reached are not in the file.
        let reached = |field: &'static str, day: Option<NaiveDate>, yes: bool| {
            if day.is_some() && !yes {
                Err(StoreError::Invalid {
                    field,
                    reason: format!(
                        "um auto {} ainda não tem esta data: deixe-a em branco ou corrija a situação",
                        status.portuguese()
                    ),
                })
            } else {
                Ok(())
            }
        };
        use Status::*;
        reached("notificado_em", self.notified, status != Issued)?;
        reached("defesa_em", self.defended, status != Issued)?;
        reached(
            "julgado_em",
            self.judged,
            !matches!(status, Issued | Notified),
        )?;
        reached(
            "decisao_notificada_em",
            self.decision_notified,
            !matches!(status, Issued | Notified | Judged),
        )?;
        reached(
            "recorrido_em",
            self.appealed,
            matches!(status, Appealed | Final | Annulled),
        )?;
        reached("definitivo_em", self.closed, status.is_closed())?;
        let mut last = ("cometida_em", committed);
        for (field, day) in [
            ("notificado_em", self.notified),
            ("defesa_em", self.defended),
            ("julgado_em", self.judged),
            ("decisao_notificada_em", self.decision_notified),
            ("recorrido_em", self.appealed),
            ("definitivo_em", self.closed),
        ] {
            let Some(day) = day else { continue };
            crate::done_on(field, day, today)?;
            if day < last.1 {
                return Err(StoreError::Invalid {
                    field,
                    reason: format!(
                        "{} é anterior a {} ({}): confira as datas",
                        day.format("%d/%m/%Y"),
                        last.0,
                        last.1.format("%d/%m/%Y")
                    ),
                });
            }
            last = (field, day);
        }
        Ok(())
    }

    fn last(&self, committed: NaiveDate) -> NaiveDate {
        [
            self.notified,
            self.defended,
            self.judged,
            self.decision_notified,
            self.appealed,
            self.closed,
        ]
        .into_iter()
        .flatten()
        .max()
        .unwrap_or(committed)
    }
}

fn day_text(day: Option<NaiveDate>) -> Option<String> {
    day.map(|d| d.to_string())
}

fn br(day: NaiveDate) -> String {
    day.format("%d/%m/%Y").to_string()
}

impl Store {
    pub(super) async fn import_auto(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        (jurisdiction, rulebooks): (&str, &[&Rulebook]),
        cells: &Cells<'_>,
    ) -> Result<Vec<String>, StoreError> {
        let code = cells.required("infracao")?.to_string();
        let rulebook = rulebook_of(jurisdiction, rulebooks, cells.get("servico"), &code)?;
        let today = rulebook.jurisdiction.today(change.at);
        let year = number::<i32>("ano", Some(cells.required("ano")?))?
            .filter(|y| (1950..=today.year()).contains(y))
            .ok_or_else(|| StoreError::Invalid {
                field: "ano",
                reason: format!("o ano do auto vai de 1950 a {}", today.year()),
            })?;
        let number = number::<i64>("numero", Some(cells.required("numero")?))?
            .filter(|n| *n > 0)
            .ok_or_else(|| StoreError::Invalid {
                field: "numero",
                reason: "o número do auto é um inteiro maior que zero".into(),
            })?;
        let committed_at = moment("cometida_em", cells.required("cometida_em")?)?;
        let committed = committed_at.date();
        crate::done_on("cometida_em", committed, today)?;
        if committed.year() > year {
            return Err(StoreError::Invalid {
                field: "ano",
                reason: format!(
                    "o auto de {year} não pode ser de uma infração de {}: confira o ano",
                    committed.year()
                ),
            });
        }
        let status_text = cells.required("situacao")?;
        let status = situation(status_text).ok_or_else(|| StoreError::Invalid {
            field: "situacao",
            reason: format!(
                "`{status_text}`: escreva lavrado, notificado, julgado, recorrido, definitivo, \
                 arquivado ou anulado"
            ),
        })?;
        let dates = Dates::read(cells)?;
        // `julgado` with the decision notified is the state that follows.
        let status = match status {
            Status::Judged if dates.decision_notified.is_some() => Status::DecisionNotified,
            s => s,
        };
        dates.check(status, committed, today)?;
        let upheld = match cells.get("mantido") {
            Some(text) => Some(yes("mantido", Some(text))?),
            None => None,
        };
        let decided = matches!(
            status,
            Status::Judged | Status::DecisionNotified | Status::Appealed | Status::Final
        );
        if decided && upheld == Some(false) {
            return Err(StoreError::Invalid {
                field: "mantido",
                reason: "um auto não mantido na decisão é anulado: escreva anulado na situação"
                    .into(),
            });
        }
        let decision = if decided {
            Some(true)
        } else if status == Status::Annulled {
            Some(false)
        } else {
            None
        }
        .map(|upheld| Decision {
            upheld,
            days: None,
            sanctions: None,
            not_admitted: None,
            by: None,
            heard: false,
        });
        let place = crate::text::checked("local", cells.required("local")?, TextKind::Line)?;
        let description =
            crate::text::checked("descricao", cells.required("descricao")?, TextKind::Long)?;
        let inspector = match cells.get("agente") {
            Some(name) => crate::text::checked("agente", name, TextKind::Line)?.to_string(),
            None => change.by.to_string(),
        };
        let permit = match (cells.get("permissao"), cells.get("servico")) {
            (None, _) => None,
            (Some(_), None) => {
                return Err(StoreError::Invalid {
                    field: "servico",
                    reason: "informe o serviço da permissão".into(),
                });
            }
            (Some(n), Some(text)) => {
                let n = super::number::<i64>("permissao", Some(n))?.unwrap_or(0);
                let service = service_named(text).map(Service::name).unwrap_or_default();
                Some((service.to_string(), n))
            }
        };
        let exists = sqlx::query(
            "SELECT 1 AS one FROM autos WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .fetch_optional(&mut **tx)
        .await?;
        if exists.is_some() {
            return Err(StoreError::Taken {
                field: "numero",
                reason: format!("o auto nº {number}/{year} já está cadastrado em {jurisdiction}"),
            });
        }
        let fine_in_file = cells.get("multa").map(|t| amount("multa", t)).transpose()?;
        let input = AutoInput {
            infraction: code.clone(),
            offender: cells.required("autuado")?.to_string(),
            permit,
            plate: cells.get("placa").map(str::to_string),
            committed_at,
            place: place.to_string(),
            description: description.to_string(),
        };
        let mut notes = Vec::new();
        let mut cited: Vec<String> = Vec::new();
        // Before the law: kept where the law keeps it, as a final record.
        let (proposal, offender, plate, holder, ctx) = if committed < rulebook.act.in_force {
            let Some(article) = record_kept(rulebook) else {
                return Err(StoreError::Invalid {
                    field: "cometida_em",
                    reason: format!(
                        "{} é anterior à entrada em vigor da lei de {} ({}), e a lei não tem \
                         disposição transitória que mantenha nos registros o que foi imposto antes",
                        br(committed),
                        rulebook.jurisdiction.name,
                        br(rulebook.act.in_force)
                    ),
                });
            };
            if status != Status::Final {
                return Err(StoreError::Refused {
                    reason: format!(
                        "o auto é anterior ao Regulamento (em vigor desde {}): ficam nos \
                         prontuários só as penalidades já impostas; importe-o quando a decisão \
                         for definitiva, com a situação definitivo",
                        br(rulebook.act.in_force)
                    ),
                    articles: vec![article.to_string()],
                });
            }
            let (offender, _) =
                crate::parse_document(&input.offender).map_err(|e| renamed("autuado", e))?;
            let plate = input
                .plate
                .as_deref()
                .map(|p| crate::parse_plate(p).map_err(|e| renamed("placa", e)))
                .transpose()?;
            super::registered(
                tx,
                jurisdiction,
                &offender,
                "autuado",
                "titulares ou condutores",
            )
            .await?;
            let holder = match &input.permit {
                Some((service, n)) => Some(
                    crate::permits::read_permit(tx, jurisdiction, service, *n)
                        .await
                        .map_err(|e| match e {
                            StoreError::NotFound(reason) => StoreError::Invalid {
                                field: "permissao",
                                reason: format!("{reason}: importe antes o arquivo de permissões"),
                            },
                            other => other,
                        })?
                        .holder,
                ),
                None => None,
            };
            notes.push(format!(
                "{article}: anterior ao Regulamento (em vigor desde {}), mantido no prontuário \
                 como penalidade imposta: conta para reincidência e pontuação pelo código {code}",
                br(rulebook.act.in_force)
            ));
            if fine_in_file.is_some() {
                notes.push(
                    "a multa de antes do Regulamento não vira débito pelo arquivo de autos: \
                     importe-a no arquivo de débitos, com a unidade"
                        .into(),
                );
            }
            cited.push(article.to_string());
            let proposal = Proposal {
                sanctions: Vec::new(),
                points: Vec::new(),
                articles: vec![article.to_string()],
                uncured: Vec::new(),
                options: Vec::new(),
                law_version: None,
                law_words: Vec::new(),
                applied_acts: Vec::new(),
            };
            let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
            (proposal, offender, plate, holder, ctx)
        } else {
            // What the auto names must be recorded: said here under its column.
            if let Some(plate) = &input.plate {
                crate::parse_plate(plate).map_err(|e| renamed("placa", e))?;
            }
            let (document, _) =
                crate::parse_document(&input.offender).map_err(|e| renamed("autuado", e))?;
            super::registered(
                tx,
                jurisdiction,
                &document,
                "autuado",
                "titulares ou condutores",
            )
            .await?;
            if let Some((service, n)) = &input.permit {
                crate::permits::read_permit(tx, jurisdiction, service, *n)
                    .await
                    .map_err(|e| match e {
                        StoreError::NotFound(reason) => StoreError::Invalid {
                            field: "permissao",
                            reason: format!("{reason}: importe antes o arquivo de permissões"),
                        },
                        other => other,
                    })?;
            }
            let Proposed {
                ctx,
                offender,
                plate,
                holder,
                proposal,
                ..
            } = propose_in(
                tx,
                rulebook
                    .in_force_on(committed)
                    .map_err(outorga_core::EngineError::from)?,
                jurisdiction,
                &input,
                committed,
            )
            .await?;
            cited.extend(proposal.articles.iter().cloned());
            (proposal, offender, plate, holder, ctx)
        };
        let machine = Machine::of(&ctx)?;
        let stakes = proposal.stakes()?;
        let state = State {
            status,
            issued: committed,
            last: dates.last(committed),
            notified: dates.notified,
            defended: dates.defended,
            decision_notified: dates.decision_notified,
            appealed: dates.appealed,
            instance: 0,
            decision: decision.clone(),
            closed: if status.is_closed() {
                Some(dates.closed.unwrap_or(dates.last(committed)))
            } else {
                None
            },
            uncured: false,
            released: None,
            cure_days: None,
            verification: None,
        };
        let limits = if committed < rulebook.act.in_force {
            Vec::new()
        } else {
            machine.limits(&stakes, &state)?
        };
        let limit = |kinds: &[DeadlineKind]| {
            limits
                .iter()
                .find(|l| kinds.contains(&l.kind))
                .map(|l| l.due)
        };
        let points_of = |doc: &str| {
            proposal
                .points
                .iter()
                .find(|(d, _)| d == doc)
                .map_or("0".to_string(), |(_, n)| n.clone())
        };
        let (service, permit_number) = input.permit.clone().unzip();
        sqlx::query(
            "INSERT INTO autos (jurisdiction, year, number, rulebook, infraction, offender, service, permit_number, \
             plate, committed_at, place, description, inspector, status, proposal, notify_by, points_offender, \
             points_holder, holder, issued_on, notified_on, defense_by, defense_on, judged_on, \
             decision_notified_on, appeal_by, appealed_on, final_on, decision, uncured, instance) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, \
             $21, $22, $23, $24, $25, $26, $27, $28, $29, 0, 0)",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(&rulebook.id)
        .bind(&code)
        .bind(&offender)
        .bind(service)
        .bind(permit_number)
        .bind(plate)
        .bind(crate::dates::moment_text(committed_at))
        .bind(place)
        .bind(description)
        .bind(&inspector)
        .bind(status.name())
        .bind(serde_json::to_string(&proposal).map_err(|e| StoreError::Corrupt(e.to_string()))?)
        .bind(day_text(limit(&[DeadlineKind::Notification])))
        .bind(points_of(&offender))
        .bind(holder.as_deref().map_or("0".to_string(), points_of))
        .bind(holder.clone())
        .bind(committed.to_string())
        .bind(day_text(dates.notified))
        .bind(day_text(limit(&[DeadlineKind::Defense])))
        .bind(day_text(dates.defended))
        .bind(day_text(dates.judged))
        .bind(day_text(dates.decision_notified))
        .bind(day_text(limit(&[
            DeadlineKind::Appeal,
            DeadlineKind::SecondAppeal,
        ])))
        .bind(day_text(dates.appealed))
        .bind(day_text(state.closed))
        .bind(decision.as_ref().map(decision_text))
        .execute(&mut **tx)
        .await?;
        // An auto issued later numbers after the imported ones of its year.
        sqlx::query(
            "INSERT INTO counters (jurisdiction, series, year, last) VALUES ($1, 'auto', $2, $3) \
             ON CONFLICT (jurisdiction, series, year) DO UPDATE SET last = \
             CASE WHEN counters.last < excluded.last THEN excluded.last ELSE counters.last END",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .execute(&mut **tx)
        .await?;
        notes.insert(0, format!("situação: {}", status.portuguese()));
        let auto = read_auto(tx, jurisdiction, (year, number)).await?;
        // What was imposed: the fine the file states, or the law's.
        let fine: Option<ProposedSanction> = proposal
            .sanctions
            .iter()
            .find(|s| s.kind == SanctionKind::Fine.name())
            .cloned();
        let fine = match (fine, fine_in_file) {
            (Some(mut law), Some(file)) => {
                let unit = law.unit.clone().unwrap_or_default();
                let law_quantity = law.quantity.clone().unwrap_or_default();
                if Decimal::from_str(&law_quantity).ok() != Some(file) {
                    notes.push(format!(
                        "multa conforme o arquivo: {file} {unit} (a lei daria {law_quantity} {unit}, {})",
                        law.articles.join("; ")
                    ));
                    law.quantity = Some(file.to_string());
                }
                Some(law)
            }
            (Some(law), None) => Some(law),
            (None, Some(file)) if committed >= rulebook.act.in_force => {
                notes.push(format!(
                    "o regulamento não dá multa a esta infração neste caso: os {file} do arquivo \
                     não viram débito (importe-o no arquivo de débitos, se devido)"
                ));
                None
            }
            (None, _) => None,
        };
        if status == Status::Final {
            let closed = state.closed.unwrap_or(committed);
            if let Some(fine) = &fine {
                let due = limit(&[DeadlineKind::Payment]).unwrap_or(closed);
                self.imported_fine((tx, &ctx), change, jurisdiction, &auto, fine, (closed, due))
                    .await?;
                notes.push(format!(
                    "multa de {} {} em débito desde {}, vencimento {}",
                    fine.quantity.as_deref().unwrap_or("0"),
                    fine.unit.as_deref().unwrap_or("BRL"),
                    br(closed),
                    br(due)
                ));
            }
            let others: Vec<&str> = proposal
                .sanctions
                .iter()
                .filter(|s| s.kind != SanctionKind::Fine.name())
                .flat_map(|s| s.articles.iter().map(String::as_str))
                .collect();
            if !others.is_empty() {
                notes.push(format!(
                    "as demais penalidades da proposta ({}) ficam no auto e contam no \
                     prontuário, mas não são reaplicadas: as que ainda durem, registre-as na \
                     permissão ou no condutor",
                    others.join("; ")
                ));
            }
        }
        let detail = format!("{}; {}", change.why, notes.join("; "));
        auto_step(
            tx,
            &self.audit,
            change,
            jurisdiction,
            (year, number),
            ("import", committed),
            (&detail, &cited),
        )
        .await?;
        Ok(notes)
    }

    async fn imported_fine(
        &self,
        (tx, ctx): (&mut Tx, &outorga_core::Context<'_>),
        change: &Change<'_>,
        jurisdiction: &str,
        auto: &Auto,
        fine: &ProposedSanction,
        (on, due): (NaiveDate, NaiveDate),
    ) -> Result<i64, StoreError> {
        crate::process::fine_debt(
            tx,
            (&self.audit, ctx),
            change,
            jurisdiction,
            auto,
            fine,
            (on, due),
        )
        .await
    }

    pub(super) async fn import_debt(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        (jurisdiction, rulebooks): (&str, &[&Rulebook]),
        cells: &Cells<'_>,
    ) -> Result<Vec<String>, StoreError> {
        let year = number::<i32>("ano", Some(cells.required("ano")?))?.unwrap_or(0);
        let number = number::<i64>("numero", Some(cells.required("numero")?))?.unwrap_or(0);
        let auto = read_auto(tx, jurisdiction, (year, number))
            .await
            .map_err(|e| match e {
                StoreError::NotFound(_) => StoreError::Invalid {
                    field: "numero",
                    reason: format!(
                        "o auto nº {number}/{year} não está cadastrado em {jurisdiction}: importe \
                         antes o arquivo de autos"
                    ),
                },
                other => other,
            })?;
        if auto.status != Status::Final {
            return Err(StoreError::Invalid {
                field: "numero",
                reason: format!(
                    "o auto nº {number}/{year} está {}: só a multa de decisão definitiva é débito",
                    auto.status.portuguese()
                ),
            });
        }
        let Some(rulebook) = rulebooks.iter().copied().find(|r| r.id == auto.rulebook) else {
            return Err(StoreError::Invalid {
                field: "numero",
                reason: format!("o auto foi lavrado sob {}", auto.rulebook),
            });
        };
        let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
        let today = rulebook.jurisdiction.today(change.at);
        let final_on = auto.final_on.unwrap_or(auto.committed_at.date());
        let quantity = cells.get("valor").map(|t| amount("valor", t)).transpose()?;
        let issued = date("emitido_em", cells.get("emitido_em"))?;
        let due = date("vencimento", cells.get("vencimento"))?;
        let parcels = super::number::<u32>("parcelas", cells.get("parcelas"))?;
        if parcels == Some(0) {
            return Err(StoreError::Invalid {
                field: "parcelas",
                reason: "escreva 1 ou mais, ou deixe em branco (pago de uma vez)".into(),
            });
        }
        let existing = sqlx::query(
            "SELECT seq, unit, quantity, issued_on, due_on FROM debts \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq > 0 ORDER BY seq",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .fetch_all(&mut **tx)
        .await?;
        let mut notes = Vec::new();
        let (seq, unit, issued_on) = match existing.as_slice() {
            [row] => {
                let seq: i64 = row.try_get("seq")?;
                let unit: String = row.try_get("unit")?;
                let recorded: String = row.try_get("quantity")?;
                let issued_on = crate::dates::day(&row.try_get::<String, _>("issued_on")?)?;
                let due_on = crate::dates::day(&row.try_get::<String, _>("due_on")?)?;
                let paid = sqlx::query(
                    "SELECT 1 AS one FROM payments WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq > 0",
                )
                .bind(jurisdiction)
                .bind(year)
                .bind(number)
                .fetch_optional(&mut **tx)
                .await?;
                if paid.is_some() {
                    return Err(StoreError::Taken {
                        field: "numero",
                        reason: format!(
                            "o débito do auto nº {number}/{year} já tem pagamentos registrados"
                        ),
                    });
                }
                for (field, given, recorded) in [
                    (
                        "valor",
                        quantity.map(|q| q.to_string()),
                        Decimal::from_str(&recorded)
                            .map(|d| d.normalize().to_string())
                            .unwrap_or(recorded.clone()),
                    ),
                    ("emitido_em", issued.map(br), br(issued_on)),
                    ("vencimento", due.map(br), br(due_on)),
                ] {
                    if let Some(given) = given
                        && given != recorded
                    {
                        return Err(StoreError::Invalid {
                            field,
                            reason: format!(
                                "o débito do auto nº {number}/{year}, criado com o auto, tem \
                                 {recorded}: deixe em branco, ou corrija o arquivo de autos \
                                 (coluna multa, definitivo_em) e importe-o de novo"
                            ),
                        });
                    }
                }
                (seq, unit, issued_on)
            }
            [] => {
                let Some(quantity) = quantity else {
                    return Err(StoreError::Invalid {
                        field: "valor",
                        reason: format!(
                            "o auto nº {number}/{year} não tem multa em débito: informe o valor"
                        ),
                    });
                };
                let unit = match cells.get("unidade") {
                    Some(u) => u.trim().to_uppercase(),
                    None => auto
                        .proposal
                        .sanctions
                        .iter()
                        .find_map(|s| s.unit.clone())
                        .ok_or_else(|| StoreError::Invalid {
                            field: "unidade",
                            reason: "informe a unidade do valor (por exemplo UPFTO, VRTM ou BRL)"
                                .into(),
                        })?,
                };
                let issued_on = issued.unwrap_or(final_on);
                crate::done_on("emitido_em", issued_on, today)?;
                if ctx.unit_value(&unit, issued_on).is_none() {
                    return Err(StoreError::Invalid {
                        field: "unidade",
                        reason: format!(
                            "`{unit}` não é unidade de {} em {}: escreva BRL ou a unidade da lei",
                            rulebook.id,
                            br(issued_on)
                        ),
                    });
                }
                let fine = ProposedSanction {
                    kind: SanctionKind::Fine.name().to_string(),
                    target: None,
                    payer: None,
                    unit: Some(unit.clone()),
                    quantity: Some(quantity.to_string()),
                    brl: None,
                    days: None,
                    min_days: None,
                    max_days: None,
                    years: None,
                    months: None,
                    min_hours: None,
                    business_days: false,
                    at_once: None,
                    optional: false,
                    articles: auto.proposal.articles.clone(),
                };
                let due_on = due.unwrap_or(issued_on);
                if due_on < issued_on {
                    return Err(StoreError::Invalid {
                        field: "vencimento",
                        reason: "é anterior à emissão: confira as datas".into(),
                    });
                }
                let seq = self
                    .imported_fine(
                        (tx, &ctx),
                        change,
                        jurisdiction,
                        &auto,
                        &fine,
                        (issued_on, due_on),
                    )
                    .await?;
                notes.push(format!(
                    "débito de {quantity} {unit} criado, vencimento {}",
                    br(due_on)
                ));
                (seq, unit, issued_on)
            }
            _ => {
                return Err(StoreError::Invalid {
                    field: "numero",
                    reason: format!(
                        "o auto nº {number}/{year} tem mais de um débito: registre os pagamentos \
                         na tela do débito"
                    ),
                });
            }
        };
        let key = [jurisdiction.into(), year.into(), number.into(), seq.into()];
        if let Some(parcels) = parcels.filter(|p| *p > 1) {
            sqlx::query(
                "UPDATE debts SET installments = $5 WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
            )
            .bind(jurisdiction)
            .bind(year)
            .bind(number)
            .bind(seq)
            .bind(i64::from(parcels))
            .execute(&mut **tx)
            .await?;
            append(
                tx,
                &self.audit,
                change,
                Entry {
                    action: "debt.split",
                    jurisdiction: Some(jurisdiction),
                    subject: &format!("debt:{year}:{number}:{seq}"),
                    detail: serde_json::json!({ "parcels": parcels, "imported": change.why }),
                    rows: vec![RowRef::new("debts", key.clone())],
                },
            )
            .await?;
            notes.push(format!("parcelado em {parcels} vezes, como o arquivo diz"));
        }
        let payments = payments(cells.get("pagamentos").unwrap_or(""))?;
        let allowed = parcels.unwrap_or(1);
        if payments.len() > allowed as usize {
            return Err(StoreError::Invalid {
                field: "pagamentos",
                reason: format!(
                    "{} pagamentos para {allowed} parcela(s): confira a coluna parcelas",
                    payments.len()
                ),
            });
        }
        let mut last = issued_on;
        for (i, (paid_on, paid)) in payments.iter().enumerate() {
            crate::done_on("pagamentos", *paid_on, today)?;
            if *paid_on < last {
                return Err(StoreError::Invalid {
                    field: "pagamentos",
                    reason: format!(
                        "o pagamento de {} é anterior a {}: escreva-os em ordem, depois da emissão",
                        br(*paid_on),
                        br(last)
                    ),
                });
            }
            last = *paid_on;
            let parcel = i as i64 + 1;
            let brl = ctx
                .unit_value(&unit, *paid_on)
                .and_then(|v| v.checked_mul(*paid))
                .map(|v| outorga_core::context::round_brl(v).to_string());
            sqlx::query(
                "INSERT INTO payments (jurisdiction, year, number, seq, parcel, paid_on, quantity, brl) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(jurisdiction)
            .bind(year)
            .bind(number)
            .bind(seq)
            .bind(parcel)
            .bind(paid_on.to_string())
            .bind(paid.to_string())
            .bind(brl.clone())
            .execute(&mut **tx)
            .await?;
            append(
                tx,
                &self.audit,
                change,
                Entry {
                    action: "debt.payment",
                    jurisdiction: Some(jurisdiction),
                    subject: &format!("debt:{year}:{number}:{seq}"),
                    detail: serde_json::json!({ "parcel": parcel, "paid_on": paid_on, "unit": unit,
                        "quantity": paid.to_string(), "brl": brl, "imported": change.why }),
                    rows: vec![RowRef::new(
                        "payments",
                        [
                            jurisdiction.into(),
                            year.into(),
                            number.into(),
                            seq.into(),
                            parcel.into(),
                        ],
                    )],
                },
            )
            .await?;
        }
        notes.push(if payments.len() as u32 >= allowed {
            format!("quitado ({} pagamento(s))", payments.len())
        } else {
            format!(
                "em aberto: {} de {allowed} parcela(s) paga(s)",
                payments.len()
            )
        });
        Ok(notes)
    }
}

/// Payments as `10/03/2024 150,00`, separated by `|` or `;`.
fn payments(text: &str) -> Result<Vec<(NaiveDate, Decimal)>, StoreError> {
    text.split(['|', ';'])
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|one| {
            let mut parts = one.split_whitespace();
            let (Some(day), Some(value), None) = (parts.next(), parts.next(), parts.next()) else {
                return Err(StoreError::Invalid {
                    field: "pagamentos",
                    reason: format!(
                        "`{one}`: escreva a data e o valor de cada pagamento, como \
                         10/03/2024 150,00 | 10/04/2024 150,00"
                    ),
                });
            };
            Ok((
                date("pagamentos", Some(day))?.unwrap_or_default(),
                amount("pagamentos", value)?,
            ))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_and_amounts() {
        assert_eq!(
            moment("m", "31/12/2025 14:30").expect("moment").to_string(),
            "2025-12-31 14:30:00"
        );
        assert_eq!(
            moment("m", "2025-12-31").expect("day").to_string(),
            "2025-12-31 00:00:00"
        );
        assert!(moment("m", "31/12/2025 25:00").is_err());
        assert_eq!(
            amount("v", "1.234,50").expect("amount").to_string(),
            "1234.5"
        );
        assert_eq!(amount("v", "150").expect("amount").to_string(), "150");
        assert!(amount("v", "0").is_err());
        assert_eq!(
            payments("10/03/2024 150,00 | 2024-04-10 150")
                .expect("payments")
                .len(),
            2
        );
        assert!(payments("10/03/2024").is_err());
        assert_eq!(situation("Definitivo"), Some(Status::Final));
        assert_eq!(situation("recorrido"), Some(Status::Appealed));
    }
}
