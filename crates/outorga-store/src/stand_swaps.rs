//! Two holders' swap of their fixed stands (Canguçu art. 15, § 3º, I–II;
//! § 6º): requested in writing by both, with the class entity's consent,
//! and decided by the department's coordinator. Approved, each holder
//! takes the other's place that day and pays the law's fee (the `[[fees]]`
//! of event `stand_swap`: a debt each, in the money module). Whether it may
//! go ahead is the core's (`engine::stands::swap`). A law without swaps
//! (Santa Maria de Jetibá, Teófilo Otoni) refuses them, named.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, next_number};
use crate::dates::day;
use crate::listing::{self, Filter, Kind, List, Page, Window, text};
use crate::stand_places::{Arrival, CameBy, LeftBy, arrive, leave, place_on, provided, rules};
use crate::text::{TextKind, checked as checked_text};
use crate::{Store, StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use outorga_core::engine::stands::{self, Stand as EngineStand};
use outorga_core::model::{FeeEvent, Rulebook};
use sqlx::Row;

/// What a law without swaps refuses.
const SWAP: &str = "a permuta de pontos fixos entre titulares";

worded! {
    /// Where a swap stands.
    pub enum SwapStatus {
        Requested = "requested" => "pedida",
        Approved = "approved" => "autorizada",
        Refused = "refused" => "indeferida",
    }
}

/// A swap as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandSwap {
    pub year: i32,
    pub number: i64,
    pub service: String,
    /// The two permits and the stands each held when they asked.
    pub a: (i64, String),
    pub b: (i64, String),
    pub requested_on: NaiveDate,
    /// The class entity that consented, and the day.
    pub consent: Option<(String, NaiveDate)>,
    pub status: SwapStatus,
    pub decided: Option<(NaiveDate, String, String)>,
    pub articles: Vec<String>,
    /// The two fees' debts ("ano/número/parcela", as the API names a
    /// debt), once approved.
    pub debts: Vec<String>,
    pub recorded_by: String,
}

impl StandSwap {
    /// Its number as people read it ("3/2026").
    pub fn label(&self) -> String {
        format!("{}/{}", self.number, self.year)
    }
}

/// Two holders' written request.
#[derive(Debug, Clone)]
pub struct SwapRequest {
    pub service: String,
    pub a: i64,
    pub b: i64,
    /// The class entity that consented and the day, when it did.
    pub consent: Option<(String, NaiveDate)>,
}

const COLUMNS: &str = "year, number, service, permit_a, permit_b, stand_a, stand_b, requested_on, \
     consent_by, consent_on, status, decided_on, decided_by, decision, citations, debts, recorded_by";

const PENDING: List = List {
    name: "stand_swaps",
    table: "stand_swaps",
    columns: COLUMNS,
    key: &[("year", Kind::Int), ("number", Kind::Int)],
    descending: false,
};

fn swap_of(row: &sqlx::any::AnyRow) -> Result<StandSwap, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let year: i64 = row.try_get("year")?;
    let status = text("status")?;
    let consent_by: Option<String> = row.try_get("consent_by")?;
    let consent_on: Option<String> = row.try_get("consent_on")?;
    let decided_on: Option<String> = row.try_get("decided_on")?;
    let decided = match decided_on {
        Some(on) => Some((
            day(&on)?,
            row.try_get::<Option<String>, _>("decided_by")?
                .unwrap_or_default(),
            row.try_get::<Option<String>, _>("decision")?
                .unwrap_or_default(),
        )),
        None => None,
    };
    let debts: Option<String> = row.try_get("debts")?;
    Ok(StandSwap {
        year: i32::try_from(year).map_err(|_| StoreError::Corrupt(format!("swap year {year}")))?,
        number: row.try_get("number")?,
        service: text("service")?,
        a: (row.try_get("permit_a")?, text("stand_a")?),
        b: (row.try_get("permit_b")?, text("stand_b")?),
        requested_on: day(&text("requested_on")?)?,
        consent: match (consent_by, consent_on) {
            (Some(by), Some(on)) => Some((by, day(&on)?)),
            _ => None,
        },
        status: SwapStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("swap status {status}")))?,
        decided,
        articles: serde_json::from_str(&text("citations")?).unwrap_or_default(),
        debts: debts
            .as_deref()
            .map(|d| serde_json::from_str(d).unwrap_or_default())
            .unwrap_or_default(),
        recorded_by: text("recorded_by")?,
    })
}

async fn read(tx: &mut Tx, jurisdiction: &str, key: (i32, i64)) -> Result<StandSwap, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM stand_swaps WHERE jurisdiction = $1 AND year = $2 AND number = $3"
    )))
    .bind(jurisdiction)
    .bind(i64::from(key.0))
    .bind(key.1)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| {
        StoreError::NotFound(format!(
            "não há pedido de permuta nº {}/{} em {jurisdiction}",
            key.1, key.0
        ))
    })?;
    swap_of(&row)
}

fn swap_row(jurisdiction: &str, (year, number): (i32, i64)) -> RowRef {
    RowRef::new(
        "stand_swaps",
        [jurisdiction.into(), year.into(), number.into()],
    )
}

/// The stand `permit` holds on `on`, or why it cannot swap.
async fn stand_held(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
    on: NaiveDate,
) -> Result<String, StoreError> {
    place_on(tx, jurisdiction, (service, number), on)
        .await?
        .map(|p| p.stand)
        .ok_or_else(|| {
            StoreError::invalid(
                "permissoes",
                format!(
                    "a permissão {service} nº {number} não tem ponto fixo: a permuta é entre \
                     delegatários de pontos fixos"
                ),
            )
        })
}

impl Store {
    /// Records two holders' written request to swap their fixed stands
    /// (art. 15, § 6º), with the class entity's consent when given.
    pub async fn request_stand_swap(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        request: &SwapRequest,
    ) -> Result<StandSwap, StoreError> {
        let rules = rules(rulebook)?;
        let consent_article = provided(rulebook, rules.swap_consent.as_ref(), SWAP)?;
        if request.a == request.b {
            return Err(StoreError::invalid(
                "permissoes",
                "a permuta é entre duas permissões diferentes",
            ));
        }
        let consent = match &request.consent {
            Some((by, on)) => {
                let by = crate::text::required("anuencia", by, TextKind::Name)?.to_string();
                crate::under_law("anuencia_em", *on, change, rulebook)?;
                Some((by, *on))
            }
            None => None,
        };
        let today = rulebook.jurisdiction.today(change.at);
        let service = request.service.as_str();
        let (mut tx, _writer) = self.write_transaction().await?;
        for number in [request.a, request.b] {
            crate::permits::lock_permit(&mut tx, &self.audit, jurisdiction, (service, number))
                .await?;
        }
        let stand_a = stand_held(&mut tx, jurisdiction, (service, request.a), today).await?;
        let stand_b = stand_held(&mut tx, jurisdiction, (service, request.b), today).await?;
        if stand_a == stand_b {
            return Err(StoreError::invalid(
                "permissoes",
                format!("as duas permissões estão no mesmo ponto ({stand_a}): nada a permutar"),
            ));
        }
        let year = today.year();
        let number = next_number(&mut tx, jurisdiction, "stand_swap", year).await?;
        let articles = [rules.citation.as_str(), consent_article];
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO stand_swaps (jurisdiction, {COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, \
             $7, $8, $9, $10, $11, 'requested', NULL, NULL, NULL, $12, NULL, $13)"
        )))
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(service)
        .bind(request.a)
        .bind(request.b)
        .bind(&stand_a)
        .bind(&stand_b)
        .bind(today.to_string())
        .bind(consent.as_ref().map(|c| c.0.clone()))
        .bind(consent.as_ref().map(|c| c.1.to_string()))
        .bind(serde_json::json!(articles).to_string())
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "stand_swap.request",
                jurisdiction: Some(jurisdiction),
                subject: &format!("stand_swap:{year}:{number}"),
                detail: serde_json::json!({
                    "service": service, "a": [request.a, stand_a], "b": [request.b, stand_b],
                    "consent": consent.as_ref().map(|c| (&c.0, c.1)),
                }),
                rows: vec![swap_row(jurisdiction, (year, number))],
            },
        )
        .await?;
        let swap = read(&mut tx, jurisdiction, (year, number)).await?;
        tx.commit().await?;
        Ok(swap)
    }

    /// The coordinator's decision on the swap of `key` (art. 15, § 3º, I;
    /// § 6º). Authorized — when the law allows it, both holders still at
    /// the stands they asked from and the class entity's consent recorded —
    /// each takes the other's place that day and pays the fee (§ 3º, II).
    pub async fn decide_stand_swap(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        (approve, decision): (bool, &str),
    ) -> Result<StandSwap, StoreError> {
        provided(rulebook, rules(rulebook)?.swap_consent.as_ref(), SWAP)?;
        let decision = checked_text("decisao", decision, TextKind::Long)?
            .trim()
            .to_string();
        if !approve && decision.chars().count() < 10 {
            return Err(StoreError::invalid(
                "decisao",
                "escreva os fundamentos do indeferimento (ao menos 10 letras)",
            ));
        }
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let swap = read(&mut tx, jurisdiction, key).await?;
        if swap.status != SwapStatus::Requested {
            return Err(StoreError::invalid(
                "permuta",
                format!(
                    "o pedido de permuta nº {} já foi decidido ({})",
                    swap.label(),
                    swap.status.portuguese()
                ),
            ));
        }
        let service = swap.service.as_str();
        let mut rows = vec![swap_row(jurisdiction, key)];
        let mut articles = swap.articles.clone();
        let mut debts = Vec::new();
        if approve {
            let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
            let mut holders = Vec::new();
            for (number, asked) in [&swap.a, &swap.b] {
                let permit = crate::permits::lock_permit(
                    &mut tx,
                    &self.audit,
                    jurisdiction,
                    (service, *number),
                )
                .await?;
                let now = stand_held(&mut tx, jurisdiction, (service, *number), today).await?;
                if &now != asked {
                    return Err(StoreError::invalid(
                        "permuta",
                        format!(
                            "a permissão nº {number} pediu a permuta do ponto {asked}, mas está \
                             hoje no ponto {now}: indefira e peçam de novo"
                        ),
                    ));
                }
                holders.push(permit.holder);
            }
            fn stand(code: &str) -> EngineStand<'_> {
                EngineStand {
                    name: code,
                    capacity: 1,
                    free: false,
                }
            }
            let answer = stands::swap(
                &ctx,
                Some(stand(&swap.a.1)),
                Some(stand(&swap.b.1)),
                Some(swap.consent.is_some()),
            )?;
            if !answer.allowed {
                return Err(StoreError::Refused {
                    reason: format!(
                        "a permuta não pode ser autorizada: {}",
                        if swap.consent.is_none() {
                            "a anuência da entidade de classe não está registrada".to_string()
                        } else {
                            answer.reasons.join("; ")
                        }
                    ),
                    articles: crate::articles(&answer.citations),
                });
            }
            articles = crate::articles(&answer.citations);
            let act = format!("permuta nº {}", swap.label());
            for ((number, _), (_, to)) in [(&swap.a, &swap.b), (&swap.b, &swap.a)] {
                rows.extend(
                    leave(
                        &mut tx,
                        jurisdiction,
                        (service, *number),
                        today,
                        LeftBy::Swap,
                    )
                    .await?,
                );
                let cited: Vec<&str> = articles.iter().map(String::as_str).collect();
                let arrival = Arrival {
                    stand: to,
                    on: today,
                    came_by: CameBy::Swap,
                    act: &act,
                    grounds: "permuta pedida pelos dois delegatários, com anuência da entidade de classe",
                    articles: &cited,
                };
                rows.push(
                    arrive(&mut tx, change, jurisdiction, (service, *number), &arrival).await?,
                );
            }
            for (holder, number) in holders.iter().zip([swap.a.0, swap.b.0]) {
                for charged in crate::fees::charge_event(
                    &mut tx,
                    (&self.audit, &ctx),
                    change,
                    jurisdiction,
                    (FeeEvent::StandSwap, holder, Some(number), today),
                )
                .await?
                {
                    debts.push(format!("{}/{}/{}", charged.0, charged.1, charged.2));
                }
            }
        }
        let status = if approve {
            SwapStatus::Approved
        } else {
            SwapStatus::Refused
        };
        sqlx::query(
            "UPDATE stand_swaps SET status = $4, decided_on = $5, decided_by = $6, decision = $7, \
             citations = $8, debts = $9 WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(status.name())
        .bind(today.to_string())
        .bind(change.by)
        .bind(&decision)
        .bind(serde_json::json!(articles).to_string())
        .bind(approve.then(|| serde_json::json!(debts).to_string()))
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: if approve {
                    "stand_swap.approve"
                } else {
                    "stand_swap.refuse"
                },
                jurisdiction: Some(jurisdiction),
                subject: &format!("stand_swap:{}:{}", key.0, key.1),
                detail: serde_json::json!({
                    "decision": decision, "debts": debts, "articles": articles,
                }),
                rows,
            },
        )
        .await?;
        let swap = read(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(swap)
    }

    /// The swap of `key`.
    pub async fn stand_swap(
        &self,
        jurisdiction: &str,
        key: (i32, i64),
    ) -> Result<StandSwap, StoreError> {
        let mut tx = self.pool.begin().await?;
        let swap = read(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(swap)
    }

    /// A page of the swaps of `jurisdiction` still to decide, oldest first
    /// (the index `stand_swaps_by_status`).
    pub async fn pending_stand_swaps(
        &self,
        jurisdiction: &str,
        window: Window<'_>,
    ) -> Result<Page<StandSwap>, StoreError> {
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .always("status = $?", text("requested"));
        listing::page(&self.pool, &PENDING, &rows, window, swap_of).await
    }
}
