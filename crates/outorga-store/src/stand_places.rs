//! Which permit holds a place at which fixed stand, day by day (Canguçu
//! art. 15; 36, III; Santa Maria de Jetibá art. 28; Teófilo Otoni art. 23,
//! 26): the department's designation, the authority's relocation with its
//! grounds — after the holder's notice and the time to answer it where the
//! law requires them (`stand_notices.rs`) —, a move the holder asked for
//! where the law provides one, a swap (`stand_swaps.rs`), a vacancy's draw
//! (`draws.rs`), the loss the downtime rule imposes, the permit's end.
//! Whether a move may be made is the core's (`engine::stands::relocation`).
//! What a law does not provide is refused naming the law (`provided`). Each
//! stretch is dated, so the occupancy of any past day is known; each change
//! is audited.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::day;
use crate::listing::{self, Filter, KeyValue, Kind, List, Page, Window, text};
pub use crate::stand_leave::LeftBy;
pub(crate) use crate::stand_leave::leave;
use crate::stands::{Stand, read_stand};
use crate::text::{TextKind, checked as checked_text};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::engine::downtime::{Excused, downtime};
use outorga_core::engine::stands::{Move, relocation};
use outorga_core::model::{Citation, Rulebook, StandRules};
use sqlx::Row;

worded! {
    /// How a permit came to its stand.
    pub enum CameBy {
        Designation = "designation" => "designação",
        Swap = "swap" => "permuta",
        Relocation = "relocation" => "remanejamento",
        Draw = "draw" => "sorteio de vaga",
    }
}

/// A permit's stretch at a fixed stand: from `from` (included) to `left`
/// (excluded; `None`: still there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandPlace {
    pub service: String,
    pub number: i64,
    pub seq: i64,
    pub holder: String,
    pub stand: String,
    pub from: NaiveDate,
    pub left: Option<(NaiveDate, LeftBy)>,
    pub came_by: CameBy,
    pub act: String,
    pub grounds: String,
    pub articles: Vec<String>,
    pub recorded_by: String,
}

/// A stand on a day: who holds its places, and the places free.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandOccupancy {
    pub stand: Stand,
    pub on: NaiveDate,
    pub occupants: Vec<StandPlace>,
    /// Places free on the day (a free stand has none to fill).
    pub vacancies: Option<u32>,
}

const COLUMNS: &str = "p.service, p.number, p.seq, m.holder, p.stand, p.from_day, p.left_on, \
     p.left_by, p.came_by, p.act, p.grounds, p.citations, p.recorded_by";

const FROM: &str = "stand_places p JOIN permits m ON m.jurisdiction = p.jurisdiction \
     AND m.service = p.service AND m.number = p.number";

/// A permit's stretches by their order (the key of `stand_places`), each
/// with its holder.
const PLACES: List = List {
    name: "stand_places",
    table: "(SELECT p.jurisdiction, p.service, p.number, p.seq, m.holder, p.stand, p.from_day, \
            p.left_on, p.left_by, p.came_by, p.act, p.grounds, p.citations, p.recorded_by \
            FROM stand_places p JOIN permits m ON m.jurisdiction = p.jurisdiction \
            AND m.service = p.service AND m.number = p.number) AS places",
    columns: "service, number, seq, holder, stand, from_day, left_on, left_by, came_by, act, \
              grounds, citations, recorded_by",
    key: &[("seq", Kind::Int)],
    descending: false,
};

fn place_of(row: &sqlx::any::AnyRow) -> Result<StandPlace, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let came = text("came_by")?;
    let left_on: Option<String> = row.try_get("left_on")?;
    let left_by: Option<String> = row.try_get("left_by")?;
    let left = match (left_on, left_by) {
        (Some(on), Some(by)) => Some((
            day(&on)?,
            LeftBy::parse(&by).ok_or_else(|| StoreError::Corrupt(format!("left_by {by}")))?,
        )),
        _ => None,
    };
    Ok(StandPlace {
        service: text("service")?,
        number: row.try_get("number")?,
        seq: row.try_get("seq")?,
        holder: text("holder")?,
        stand: text("stand")?,
        from: day(&text("from_day")?)?,
        left,
        came_by: CameBy::parse(&came)
            .ok_or_else(|| StoreError::Corrupt(format!("came_by {came}")))?,
        act: text("act")?,
        grounds: text("grounds")?,
        articles: serde_json::from_str(&text("citations")?).unwrap_or_default(),
        recorded_by: text("recorded_by")?,
    })
}

/// Where `permit` is on `on`, if at a fixed stand.
pub(crate) async fn place_on(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
    on: NaiveDate,
) -> Result<Option<StandPlace>, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM {FROM} WHERE p.jurisdiction = $1 AND p.service = $2 \
         AND p.number = $3 AND p.from_day <= $4 AND (p.left_on IS NULL OR p.left_on > $4)"
    )))
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(on.to_string())
    .fetch_optional(&mut **tx)
    .await?;
    row.as_ref().map(place_of).transpose()
}

/// Who holds the places of `stand` on `on`, longest there first.
pub(crate) async fn occupants_on<'e, E>(
    executor: E,
    jurisdiction: &str,
    stand: &str,
    on: NaiveDate,
) -> Result<Vec<StandPlace>, StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM {FROM} WHERE p.jurisdiction = $1 AND p.stand = $2 \
         AND p.from_day <= $3 AND (p.left_on IS NULL OR p.left_on > $3) \
         ORDER BY p.from_day, p.service, p.number"
    )))
    .bind(jurisdiction)
    .bind(stand)
    .bind(on.to_string())
    .fetch_all(executor)
    .await?;
    rows.iter().map(place_of).collect()
}

/// The places of `stand` free on `on` (`None`: a free stand).
pub(crate) fn vacancies(stand: &Stand, occupied: usize) -> Option<u32> {
    stand
        .capacity
        .map(|c| c.saturating_sub(u32::try_from(occupied).unwrap_or(u32::MAX)))
}

/// The rulebook's stand rules, or why the law has none.
pub(crate) fn rules(rulebook: &Rulebook) -> Result<&StandRules, StoreError> {
    rulebook.stands.as_ref().ok_or_else(|| {
        StoreError::Engine(format!(
            "a lei de {} não tem regras de pontos fixos de estacionamento",
            rulebook.jurisdiction.name
        ))
    })
}

/// The article of the stand rule `rule`, or the law's refusal: the law of
/// `rulebook` does not provide `what` (a swap, a vacancy's draw…).
pub(crate) fn provided<'r>(
    rulebook: &'r Rulebook,
    rule: Option<&'r Citation>,
    what: &str,
) -> Result<&'r str, StoreError> {
    match rule {
        Some(article) => Ok(article),
        None => Err(StoreError::Refused {
            reason: format!(
                "a lei de {} ({}) não prevê {what}",
                rulebook.jurisdiction.name, rulebook.act.number
            ),
            articles: rulebook
                .stands
                .as_ref()
                .map(|rules| vec![rules.citation.clone()])
                .unwrap_or_default(),
        }),
    }
}

/// The stand rules a vacancy's draw rests on.
pub(crate) struct DrawRules<'r> {
    /// The article of the public lottery.
    pub lottery: &'r Citation,
}

/// The law's draw of a stand's vacancy, or its refusal naming the law.
pub(crate) fn draw_rules(rulebook: &Rulebook) -> Result<DrawRules<'_>, StoreError> {
    let rules = rules(rulebook)?;
    provided(
        rulebook,
        rules.lottery.as_ref(),
        "o sorteio público das vagas de ponto",
    )?;
    Ok(DrawRules {
        lottery: rules.lottery.as_ref().unwrap_or(&rules.citation),
    })
}

/// A stretch that begins: where, from when, how, on which act and grounds.
pub(crate) struct Arrival<'a> {
    pub stand: &'a str,
    pub on: NaiveDate,
    pub came_by: CameBy,
    pub act: &'a str,
    pub grounds: &'a str,
    pub articles: &'a [&'a str],
}

/// `permit` takes a place at a stand: the row written.
pub(crate) async fn arrive(
    tx: &mut Tx,
    change: &Change<'_>,
    jurisdiction: &str,
    (service, number): (&str, i64),
    arrival: &Arrival<'_>,
) -> Result<RowRef, StoreError> {
    let seq: i64 = sqlx::query_scalar(
        "SELECT COALESCE(MAX(seq), 0) + 1 FROM stand_places WHERE jurisdiction = $1 \
         AND service = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .fetch_one(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO stand_places (jurisdiction, service, number, seq, stand, from_day, left_on, \
         came_by, left_by, act, grounds, citations, recorded_by) \
         VALUES ($1, $2, $3, $4, $5, $6, NULL, $7, NULL, $8, $9, $10, $11)",
    )
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(seq)
    .bind(arrival.stand)
    .bind(arrival.on.to_string())
    .bind(arrival.came_by.name())
    .bind(arrival.act)
    .bind(arrival.grounds)
    .bind(serde_json::json!(arrival.articles).to_string())
    .bind(change.by)
    .execute(&mut **tx)
    .await?;
    Ok(RowRef::new(
        "stand_places",
        [
            jurisdiction.into(),
            service.into(),
            number.into(),
            seq.into(),
        ],
    ))
}

/// A fixed stand that exists on `on`, with a place free for one more.
pub(crate) async fn fixed_with_room(
    tx: &mut Tx,
    jurisdiction: &str,
    code: &str,
    on: NaiveDate,
) -> Result<(Stand, Vec<StandPlace>), StoreError> {
    let stand = read_stand(&mut **tx, jurisdiction, code).await?;
    if stand.capacity.is_none() {
        return Err(StoreError::Invalid {
            field: "ponto",
            reason: format!(
                "{} é ponto livre: não tem vagas a designar; qualquer táxi o usa",
                stand.name
            ),
        });
    }
    let occupants = occupants_on(&mut **tx, jurisdiction, &stand.code, on).await?;
    if vacancies(&stand, occupants.len()) == Some(0) {
        return Err(StoreError::Invalid {
            field: "ponto",
            reason: format!(
                "as {} vagas do ponto {} estão ocupadas",
                stand.capacity.unwrap_or(0),
                stand.name
            ),
        });
    }
    Ok((stand, occupants))
}

/// A permit in force that may hold a fixed stand.
pub(crate) async fn permit_in_force(
    tx: &mut Tx,
    store: &Store,
    jurisdiction: &str,
    (service, number): (&str, i64),
) -> Result<crate::permits::PermitRecord, StoreError> {
    let permit =
        crate::permits::lock_permit(tx, &store.audit, jurisdiction, (service, number)).await?;
    if !matches!(permit.status.as_str(), "granted" | "suspended" | "reserved") {
        return Err(StoreError::Invalid {
            field: "permissao",
            reason: format!(
                "a permissão {service} nº {number} está {}: só uma permissão em vigor ocupa ponto",
                crate::permits::status_pt(&permit.status)
            ),
        });
    }
    Ok(permit)
}

/// A permit's place designated or moved by the department.
#[derive(Debug, Clone)]
pub struct Designation {
    pub service: String,
    pub number: i64,
    pub stand: String,
    /// The act (portaria, despacho) that designates or relocates.
    pub act: String,
    /// The grounds: required when the authority moves the permit from
    /// another stand (Canguçu art. 15, § 3º, III; SMJ art. 28, § 1º; TO
    /// art. 26).
    pub grounds: String,
    /// The holder asked for the move, where the law provides it (TO art.
    /// 26, parágrafo único); none: the authority's own.
    pub request: Option<HolderRequest>,
}

/// A holder's request to move to another stand.
#[derive(Debug, Clone, Default)]
pub struct HolderRequest {
    /// The request's protocol number.
    pub protocol: String,
    /// The authority's feasibility study that found the move viable.
    pub study: String,
}

impl Store {
    /// Designates `d.stand` to the permit on the day of `change`: its first
    /// fixed stand, or a move from the one it holds — by the authority with
    /// its grounds, after the holder's notice and the time to answer it
    /// where the law requires them (SMJ art. 28, § 1º), or at the holder's
    /// request by protocol after a feasibility study where the law provides
    /// it (TO art. 26, parágrafo único). The stand must have a place free
    /// and no draw under way for its vacancies (Canguçu art. 15, § 4º).
    pub async fn designate_stand(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        d: &Designation,
    ) -> Result<StandPlace, StoreError> {
        let rules = rules(rulebook)?;
        let act = crate::text::required("ato", &d.act, TextKind::Name)?.to_string();
        let grounds = checked_text("fundamentos", &d.grounds, TextKind::Long)?
            .trim()
            .to_string();
        let today = rulebook.jurisdiction.today(change.at);
        let permit = (d.service.as_str(), d.number);
        let (mut tx, _writer) = self.write_transaction().await?;
        permit_in_force(&mut tx, self, jurisdiction, permit).await?;
        let (stand, _) = fixed_with_room(&mut tx, jurisdiction, &d.stand, today).await?;
        if let Some(draw) =
            crate::stand_leave::pending_draw(&mut tx, jurisdiction, &stand.code).await?
        {
            return Err(StoreError::Invalid {
                field: "ponto",
                reason: format!(
                    "a vaga do ponto {} será preenchida pelo sorteio nº {draw} ({}): \
                     aguarde o resultado",
                    stand.name,
                    rules.lottery.as_deref().unwrap_or(&rules.citation)
                ),
            });
        }
        let current = crate::stand_places::place_on(&mut tx, jurisdiction, permit, today).await?;
        let mut rows = Vec::new();
        let (came_by, articles) = match &current {
            Some(place) if place.stand == stand.code => {
                return Err(StoreError::Invalid {
                    field: "ponto",
                    reason: format!("a permissão já está no ponto {}", stand.name),
                });
            }
            Some(place) => {
                let (articles, notice) = self
                    .may_relocate(
                        &mut tx,
                        rulebook,
                        jurisdiction,
                        d,
                        (place, &stand.code, today),
                    )
                    .await?;
                if let Some(seq) = notice {
                    rows.push(
                        crate::relocation_notice::used(&mut tx, jurisdiction, permit, seq, today)
                            .await?,
                    );
                }
                rows.extend(leave(&mut tx, jurisdiction, permit, today, LeftBy::Relocation).await?);
                (CameBy::Relocation, articles)
            }
            None if d.request.is_some() => {
                return Err(StoreError::invalid(
                    "protocolo",
                    "a permissão não tem ponto fixo: não há o que remanejar a pedido; designe o \
                     ponto sem pedido",
                ));
            }
            None => (CameBy::Designation, vec![rules.citation.clone()]),
        };
        let grounds = match &d.request {
            Some(request) if grounds.is_empty() => format!(
                "a pedido do titular, protocolo {}; estudo de viabilidade {}",
                request.protocol.trim(),
                request.study.trim()
            ),
            _ => grounds,
        };
        let articles: Vec<&str> = articles.iter().map(String::as_str).collect();
        let arrival = Arrival {
            stand: &stand.code,
            on: today,
            came_by,
            act: &act,
            grounds: &grounds,
            articles: &articles,
        };
        rows.push(arrive(&mut tx, change, jurisdiction, permit, &arrival).await?);
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: if came_by == CameBy::Relocation {
                    "stand.relocate"
                } else {
                    "stand.designate"
                },
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{}:{}", d.service, d.number),
                detail: serde_json::json!({
                    "stand": stand.code, "from": current.map(|p| p.stand),
                    "act": act, "grounds": grounds, "articles": articles,
                    "request": d.request.as_ref().map(|r| (&r.protocol, &r.study)),
                }),
                rows,
            },
        )
        .await?;
        let placed = place_on(&mut tx, jurisdiction, permit, today)
            .await?
            .ok_or_else(|| StoreError::Corrupt("stand place just written".into()))?;
        tx.commit().await?;
        Ok(placed)
    }

    /// Whether the permit at `place` may move to `to` today as `d` says —
    /// by the authority with its grounds and, where the law requires it,
    /// the holder's notice whose time to answer has ended, or at the
    /// holder's request where the law provides it —: the articles of the
    /// move and the notice it uses; refused naming the article and, for a
    /// notice, the day its time ends.
    async fn may_relocate(
        &self,
        tx: &mut Tx,
        rulebook: &Rulebook,
        jurisdiction: &str,
        d: &Designation,
        (place, to, today): (&StandPlace, &str, NaiveDate),
    ) -> Result<(Vec<String>, Option<i64>), StoreError> {
        let rules = rules(rulebook)?;
        let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
        let mut notice = None;
        let how = match &d.request {
            Some(request) => {
                let article = provided(
                    rulebook,
                    rules.holder_request.as_ref(),
                    "o remanejamento de ponto a pedido do titular",
                )?;
                for (field, value, what) in [
                    (
                        "protocolo",
                        &request.protocol,
                        "o número do protocolo do pedido",
                    ),
                    (
                        "estudo",
                        &request.study,
                        "o estudo de viabilidade que o autoriza",
                    ),
                ] {
                    if value.trim().is_empty() {
                        return Err(StoreError::invalid(
                            field,
                            format!(
                                "o remanejamento pedido pelo titular ({article}): informe {what}"
                            ),
                        ));
                    }
                }
                Move::AskedByHolder {
                    protocol: true,
                    feasibility_study: true,
                }
            }
            None => {
                if d.grounds.trim().chars().count() < 10 {
                    return Err(StoreError::invalid(
                        "fundamentos",
                        format!(
                            "o remanejamento de ofício é justificado ({}): escreva os \
                             fundamentos (ao menos 10 letras)",
                            rules.relocation
                        ),
                    ));
                }
                if rules.relocation_notice.is_some() {
                    let permit = (d.service.as_str(), d.number);
                    notice = crate::relocation_notice::pending(
                        tx,
                        jurisdiction,
                        permit,
                        (&place.stand, to),
                    )
                    .await?;
                }
                Move::ByAuthority {
                    grounded: true,
                    notified: notice.map(|(_, notified)| notified),
                }
            }
        };
        let answer = relocation(&ctx, how, today)?;
        if !answer.allowed {
            return Err(StoreError::Refused {
                reason: format!(
                    "a permissão {} nº {} não pode ser remanejada do ponto {} para o ponto {to} \
                     hoje: {}",
                    d.service,
                    d.number,
                    place.stand,
                    answer.reasons.join("; ")
                ),
                articles: crate::articles(&answer.citations),
            });
        }
        Ok((
            crate::articles(&answer.citations),
            notice.map(|(seq, _)| seq),
        ))
    }

    /// The permit loses its fixed stand for the days its vehicle was off
    /// the road from `from` to `to` (both included, the excused days not
    /// counted), when the downtime rule says so (Canguçu art. 36, III): the
    /// stretch ended. The department then designates another (art. 36, III).
    pub async fn lose_stand_for_downtime(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (service, number): (&str, i64),
        (from, to): (NaiveDate, NaiveDate),
        excused: &[Excused],
    ) -> Result<StandPlace, StoreError> {
        rules(rulebook)?;
        let loses = rulebook
            .downtime
            .as_ref()
            .and_then(|d| d.bands.iter().find(|b| b.loses_stand));
        provided(
            rulebook,
            loses.map(|band| &band.citation),
            "a perda do ponto fixo pelos dias de veículo parado",
        )?;
        let today = rulebook.jurisdiction.today(change.at);
        let rulebook = crate::under_law("ate", to, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let answer = downtime(&ctx, from, to, excused)?;
        if !answer.loses_stand {
            return Err(StoreError::Refused {
                reason: format!(
                    "{} dias parados contam: a lei não tira o ponto fixo por eles",
                    answer.days
                ),
                articles: crate::articles(&answer.citations),
            });
        }
        permit_in_force(&mut tx, self, jurisdiction, (service, number)).await?;
        let place = place_on(&mut tx, jurisdiction, (service, number), today)
            .await?
            .ok_or_else(|| StoreError::Invalid {
                field: "permissao",
                reason: format!("a permissão {service} nº {number} não tem ponto fixo hoje"),
            })?;
        let rows: Vec<RowRef> = leave(
            &mut tx,
            jurisdiction,
            (service, number),
            today,
            LeftBy::Downtime,
        )
        .await?
        .into_iter()
        .collect();
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "stand.lose",
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{service}:{number}"),
                detail: serde_json::json!({
                    "stand": place.stand, "from": from, "to": to, "days": answer.days,
                    "infraction": answer.infraction, "articles": answer.citations,
                }),
                rows,
            },
        )
        .await?;
        let mut ended = place;
        ended.left = Some((today, LeftBy::Downtime));
        tx.commit().await?;
        Ok(ended)
    }

    /// Who holds the places of stand `code` on `on`, and the places free.
    pub async fn stand_occupancy(
        &self,
        jurisdiction: &str,
        code: &str,
        on: NaiveDate,
    ) -> Result<StandOccupancy, StoreError> {
        let stand = read_stand(&self.pool, jurisdiction, code).await?;
        let occupants = occupants_on(&self.pool, jurisdiction, &stand.code, on).await?;
        Ok(StandOccupancy {
            vacancies: vacancies(&stand, occupants.len()),
            stand,
            on,
            occupants,
        })
    }

    /// A page of the stands a permit has held, oldest first.
    pub async fn permit_stands(
        &self,
        jurisdiction: &str,
        (service, number): (&str, i64),
        window: Window<'_>,
    ) -> Result<Page<StandPlace>, StoreError> {
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .always("service = $?", text(service))
            .always("number = $?", KeyValue::Int(number));
        listing::page(&self.pool, &PLACES, &rows, window, place_of).await
    }
}
