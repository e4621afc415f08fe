//! What follows a public call's application period: the engine screens
//! every application (`engine::public_call::screen`); the ties it finds
//! are broken by a public draw (`draws`, purpose `call_tie`) whose list is
//! the tied applicants; the provisional result (ranking, places given, the
//! waiting list) is published with the last day to appeal (`call_appeal`:
//! SMJ art. 8º, Canguçu art. 37, II, TO art. 19); the board decides the
//! appeals — a granted one may correct what the application showed, and
//! it is screened again; the final result follows the period, the places
//! of a share with no eligible claimant released where the law says so
//! (SMJ art. 2º, § 6º); then each place is granted in its turn through the
//! normal grant (`permits::grant`). Every change audited; refused,
//! nothing written.

use crate::audit::Change;
use crate::calls::{
    Call, CallPlace, CallStatus, Outcome, ScreeningResult, Shown, application_row, call_row, read,
    screen, to_json,
};
use crate::draws::AppealStatus;
use crate::permits::GrantRequest;
use crate::text::written;
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::engine::assessment::Finding;
use outorga_core::engine::public_call::{
    self as engine_call, Allocation, ClaimOutcome, Place, Places, Points, Screened, Screening,
    drawn_order,
};
use outorga_core::facts::PersonId;
use outorga_core::model::Rulebook;

/// The findings kept in the record, as the engine reads them.
fn findings(missing: &[crate::calls::Missing]) -> Vec<Finding<'_>> {
    missing
        .iter()
        .map(|m| Finding {
            requirement: &m.key,
            description: &m.description,
            citations: m.articles.iter().map(String::as_str).collect(),
        })
        .collect()
}

/// The screening kept in the record, as the engine reads it (an
/// application not screened is left out).
fn recorded(call: &Call) -> Result<Screening<'_>, StoreError> {
    let applicants = call
        .applications
        .iter()
        .filter_map(|a| a.screening.as_ref().map(|s| (a, s)))
        .map(|(a, s)| Screened {
            name: &a.label,
            person: PersonId(u32::try_from(a.seq).unwrap_or(u32::MAX)),
            eligible: s.eligible,
            unmet: findings(&s.unmet),
            not_shown: findings(&s.not_shown),
            score: s.score,
            points: s
                .points
                .iter()
                .map(|p| Points {
                    criterion: &p.criterion,
                    quantity: p.quantity,
                    points: p.points,
                })
                .collect(),
            claim: s.claim.as_ref().map(|c| ClaimOutcome {
                share: &c.share,
                admitted: c.admitted,
                missing: findings(&c.missing),
            }),
        })
        .collect();
    Ok(Screening {
        service: crate::calls::service_of(call)?,
        applicants,
        tie_breaks: call.tie_breaks.iter().map(String::as_str).collect(),
        citations: Vec::new(),
    })
}

/// The ties of the recorded screening the draws held so far do not break
/// (their members, in the order they applied); or the order to rank with.
fn tie_order<'a>(
    ctx: &Context<'a>,
    call: &'a Call,
    screening: &Screening<'a>,
) -> Result<Result<Vec<&'a str>, Vec<&'a str>>, StoreError> {
    let ties = engine_call::ties(ctx, screening)?;
    let orders: Vec<Vec<&str>> = call
        .draws
        .iter()
        .filter(|d| d.seed.is_some())
        .map(|d| d.in_order().iter().map(|p| p.label.as_str()).collect())
        .collect();
    Ok(drawn_order(&ties, &orders).map_err(|mut uncovered| {
        uncovered.sort_by_key(|label| call.applications.iter().position(|a| a.label == *label));
        uncovered
    }))
}

/// The result of the call on `on` from the recorded screening and draws:
/// refused while a tie has no draw.
fn result<'a>(
    ctx: &Context<'a>,
    call: &'a Call,
    screening: &Screening<'a>,
    on: NaiveDate,
) -> Result<Allocation<'a>, StoreError> {
    let drawn = match tie_order(ctx, call, screening)? {
        Ok(drawn) => drawn,
        Err(tied) => {
            return Err(StoreError::invalid(
                "sorteio",
                format!(
                    "há empate sem sorteio entre {}: abra o sorteio público de desempate e \
                     realize-o antes de publicar o resultado",
                    tied.join(", ")
                ),
            ));
        }
    };
    let ranking = engine_call::rank(ctx, screening, &drawn)?;
    let places = Places {
        open: call.places.open,
        reserved: call
            .places
            .reserved
            .iter()
            .map(|(k, n)| (k.as_str(), *n))
            .collect(),
        citations: call.places.articles.iter().map(String::as_str).collect(),
    };
    Ok(engine_call::allocate(
        ctx, screening, &ranking, &places, on,
    )?)
}

/// Writes a result's ranking, places and turns on the applications, and
/// what it left unfilled on the call: the rows written.
async fn write_result(
    tx: &mut Tx,
    call: &Call,
    allocation: &Allocation<'_>,
) -> Result<(Outcome, Vec<crate::audit::images::RowRef>), StoreError> {
    let key = (call.year, call.number);
    let jurisdiction = call.jurisdiction.as_str();
    sqlx::query(
        "UPDATE call_applications SET position = NULL, place = NULL, place_order = NULL \
         WHERE jurisdiction = $1 AND year = $2 AND number = $3",
    )
    .bind(jurisdiction)
    .bind(i64::from(key.0))
    .bind(key.1)
    .execute(&mut **tx)
    .await?;
    let mut rows = Vec::new();
    let ranked = allocation
        .grants
        .iter()
        .map(|g| (g.position, g.name))
        .chain(allocation.waiting.iter().map(|w| (w.position, w.name)));
    for (position, label) in ranked {
        let grant = allocation.grants.iter().position(|g| g.name == label);
        let place = grant.map(|i| match allocation.grants[i].place {
            Place::Reserved(share) => CallPlace::Reserved(share.into()),
            Place::Open => CallPlace::Open,
            Place::Released(share) => CallPlace::Released(share.into()),
        });
        let application = call
            .applications
            .iter()
            .find(|a| a.label == label)
            .ok_or_else(|| StoreError::Corrupt(format!("call application {label}")))?;
        sqlx::query(
            "UPDATE call_applications SET position = $5, place = $6, place_order = $7 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(application.seq)
        .bind(i64::try_from(position).unwrap_or(i64::MAX))
        .bind(place.map(|p| p.name()))
        .bind(grant.map(|i| i64::try_from(i + 1).unwrap_or(i64::MAX)))
        .execute(&mut **tx)
        .await?;
        rows.push(application_row(jurisdiction, key, application.seq));
    }
    let unfilled = |list: &[engine_call::Unfilled<'_>]| -> Vec<(String, u64, String)> {
        list.iter()
            .map(|u| (u.share.to_string(), u.places, u.citation.to_string()))
            .collect()
    };
    let outcome = Outcome {
        released: unfilled(&allocation.released),
        vacant: unfilled(&allocation.vacant),
        open_vacant: allocation.open_vacant,
        articles: crate::articles(&allocation.citations),
    };
    Ok((outcome, rows))
}

impl Store {
    /// Screens every application to the call of `key` once its period has
    /// ended, on the facts recorded today: eligible or not with the
    /// requirements unmet and not shown named, the points, the claim to a
    /// share; the ties found are broken by a public draw before the result.
    pub async fn screen_call(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
    ) -> Result<Call, StoreError> {
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        if call.status != CallStatus::Open {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "o chamamento nº {} já foi triado ({})",
                    call.label(),
                    call.status.portuguese()
                ),
            ));
        }
        if today <= call.closes_on {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "as inscrições do chamamento nº {} vão até {}: a triagem é depois do período",
                    call.label(),
                    crate::words::day(call.closes_on)
                ),
            ));
        }
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let applications: Vec<(&str, &str, &Shown)> = call
            .applications
            .iter()
            .map(|a| (a.label.as_str(), a.who.as_str(), &a.shown))
            .collect();
        let results = screen(&mut tx, &ctx, &call, &applications, today).await?;
        let mut rows = vec![call_row(jurisdiction, key)];
        for (application, result) in call.applications.iter().zip(&results) {
            write_screening(&mut tx, &call, application.seq, None, result).await?;
            rows.push(application_row(jurisdiction, key, application.seq));
        }
        sqlx::query(
            "UPDATE calls SET status = 'screened', screened_on = $4 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(today.to_string())
        .execute(&mut *tx)
        .await?;
        let eligible = results.iter().filter(|r| r.eligible).count();
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.screen",
                serde_json::json!({
                    "applications": results.len(), "eligible": eligible, "on": today,
                }),
                rows,
            ),
        )
        .await
    }

    /// Opens the public draw among the applicants tied on the call's
    /// criteria that no draw has yet ordered — its list closed now with
    /// its SHA-256, the seed's public source and day announced (the
    /// product's reading of SMJ art. 6º, § 2º; Canguçu art. 37): the draw
    /// is then held as every draw is (`run_draw`).
    pub async fn open_call_tie_draw(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        (seed_source, seed_on): (&str, NaiveDate),
    ) -> Result<Call, StoreError> {
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        if !matches!(call.status, CallStatus::Screened | CallStatus::Provisional) {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "o chamamento nº {} está com {}: o sorteio de desempate é entre a triagem e o \
                     resultado final",
                    call.label(),
                    call.status.portuguese()
                ),
            ));
        }
        if let Some(pending) = call.draws.iter().find(|d| d.seed.is_none()) {
            return Err(StoreError::invalid(
                "sorteio",
                format!(
                    "o sorteio nº {} deste chamamento ainda não foi realizado",
                    pending.label()
                ),
            ));
        }
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let screening = recorded(&call)?;
        let tied = match tie_order(&ctx, &call, &screening)? {
            Ok(_) => {
                return Err(StoreError::invalid(
                    "sorteio",
                    "não há empate a sortear: a classificação segue os pontos e os critérios de \
                     desempate do edital",
                ));
            }
            Err(tied) => tied,
        };
        let participants: Vec<(String, String)> = tied
            .iter()
            .filter_map(|label| call.applications.iter().find(|a| a.label == *label))
            .map(|a| (a.label.clone(), a.who.clone()))
            .collect();
        let article = engine_call::ties(&ctx, &screening)?
            .citations
            .first()
            .map_or(String::new(), |c| (*c).to_string());
        let (draw, mut rows) = crate::draws::open_tie_draw(
            &mut tx,
            change,
            jurisdiction,
            (&call.subject(), &participants),
            (seed_source, seed_on, today),
            &article,
        )
        .await?;
        rows.push(call_row(jurisdiction, key));
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.tie_draw",
                serde_json::json!({
                    "draw": format!("{}/{}", draw.1, draw.0), "participants": tied,
                    "seed_source": seed_source, "seed_on": seed_on, "articles": [article],
                }),
                rows,
            ),
        )
        .await
    }

    /// The applicants of `call` tied on its criteria that no public draw
    /// has yet ordered (in the order they applied): those the next tie
    /// draw lists; empty when the result may be published.
    pub async fn undrawn_ties(
        &self,
        rulebook: &Rulebook,
        call: &Call,
    ) -> Result<Vec<String>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let ctx = crate::parameters::law(&mut tx, &call.jurisdiction, rulebook).await?;
        tx.commit().await?;
        let screening = recorded(call)?;
        Ok(match tie_order(&ctx, call, &screening)? {
            Ok(_) => Vec::new(),
            Err(tied) => tied.into_iter().map(str::to_string).collect(),
        })
    }

    /// Publishes the provisional result of the screened call of `key`:
    /// the ranking, the places given (the reserved shares first), the
    /// waiting list, and the last day to appeal (`call_appeal`). Refused
    /// while a tie has no draw.
    pub async fn publish_provisional_result(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
    ) -> Result<Call, StoreError> {
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        if call.status != CallStatus::Screened {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "o resultado provisório se publica depois da triagem, uma vez (o chamamento nº \
                     {} está com {})",
                    call.label(),
                    call.status.portuguese()
                ),
            ));
        }
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let screening = recorded(&call)?;
        let allocation = result(&ctx, &call, &screening, today)?;
        let (outcome, mut rows) = write_result(&mut tx, &call, &allocation).await?;
        let mut articles = outcome.articles.clone();
        articles.extend(allocation.appeal.citations.iter().map(|c| (*c).to_string()));
        sqlx::query(
            "UPDATE calls SET status = 'provisional', provisional_on = $4, appeal_until = $5, \
             outcome = $6 WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(today.to_string())
        .bind(allocation.appeal.due.to_string())
        .bind(to_json(&outcome, "call outcome")?)
        .execute(&mut *tx)
        .await?;
        rows.push(call_row(jurisdiction, key));
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.provisional",
                serde_json::json!({
                    "grants": allocation.grants.iter().map(|g| g.name).collect::<Vec<_>>(),
                    "waiting": allocation.waiting.iter().map(|w| w.name).collect::<Vec<_>>(),
                    "appeal_until": allocation.appeal.due, "outcome": outcome,
                    "articles": articles,
                }),
                rows,
            ),
        )
        .await
    }

    /// Records an applicant's appeal against the provisional result of the
    /// call of `key`, until the last day to appeal.
    pub async fn appeal_call(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        (appellant, grounds): (&str, &str),
    ) -> Result<Call, StoreError> {
        let (appellant, _) = crate::parse_document(appellant)?;
        let grounds = written("fundamentos", grounds, "as razões do recurso")?;
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        let Some(until) = call
            .appeal_until
            .filter(|_| call.status == CallStatus::Provisional)
        else {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "o chamamento nº {} está com {}: recorre-se do resultado provisório publicado",
                    call.label(),
                    call.status.portuguese()
                ),
            ));
        };
        if today > until {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "o prazo de recurso terminou em {} ({})",
                    crate::words::day(until),
                    call.articles.join("; ")
                ),
            ));
        }
        let application = call
            .applications
            .iter()
            .find(|a| a.who == appellant)
            .ok_or_else(|| {
                StoreError::invalid(
                    "recorrente",
                    format!(
                        "{} não se inscreveu no chamamento nº {}: recorre quem se inscreveu",
                        crate::words::document(&appellant),
                        call.label()
                    ),
                )
            })?;
        let seq = i64::try_from(call.appeals.len()).unwrap_or(i64::MAX) + 1;
        sqlx::query(
            "INSERT INTO call_appeals (jurisdiction, year, number, seq, application, filed_on, \
             grounds, status, decided_on, decision, decided_by, amendment, recorded_by) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'filed', NULL, NULL, NULL, NULL, $8)",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(seq)
        .bind(application.seq)
        .bind(today.to_string())
        .bind(&grounds)
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.appeal",
                serde_json::json!({ "application": application.label, "grounds": grounds }),
                vec![appeal_row(jurisdiction, key, seq)],
            ),
        )
        .await
    }

    /// The board's decision on the appeal `seq` against the call of `key`:
    /// granted, the application is screened again today with what the
    /// decision corrects (`amendment`: what it showed, as corrected), and
    /// the final result weighs it.
    pub async fn decide_call_appeal(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (key, seq): ((i32, i64), i64),
        (granted, decision, amendment): (bool, &str, Option<&Shown>),
    ) -> Result<Call, StoreError> {
        let decision = written("decisao", decision, "a decisão e seus fundamentos")?;
        if amendment.is_some() && !granted {
            return Err(StoreError::invalid(
                "correcao",
                "só o recurso provido corrige a inscrição",
            ));
        }
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        let appeal = call.appeals.iter().find(|a| a.seq == seq).ok_or_else(|| {
            StoreError::NotFound(format!(
                "não há recurso nº {seq} contra o chamamento nº {}",
                call.label()
            ))
        })?;
        crate::draws::undecided(appeal.status, seq)?;
        let application = call
            .applications
            .iter()
            .find(|a| a.seq == appeal.application)
            .ok_or_else(|| StoreError::Corrupt(format!("call appeal {seq} application")))?;
        let mut rows = vec![appeal_row(jurisdiction, key, seq)];
        if granted {
            let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
            let shown = amendment.unwrap_or(&application.shown);
            let result = screen(
                &mut tx,
                &ctx,
                &call,
                &[(&application.label, &application.who, shown)],
                today,
            )
            .await
            .map_err(|e| match e {
                StoreError::Invalid { reason, .. } => StoreError::invalid("correcao", reason),
                other => other,
            })?;
            let result = result
                .first()
                .ok_or_else(|| StoreError::Corrupt("call appeal screening".into()))?;
            write_screening(&mut tx, &call, application.seq, amendment, result).await?;
            rows.push(application_row(jurisdiction, key, application.seq));
        }
        let status = if granted {
            AppealStatus::Granted
        } else {
            AppealStatus::Denied
        };
        let amendment_json = amendment.map(|a| to_json(a, "amendment")).transpose()?;
        sqlx::query(
            "UPDATE call_appeals SET status = $5, decided_on = $6, decision = $7, decided_by = $8, \
             amendment = $9 WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(seq)
        .bind(status.name())
        .bind(today.to_string())
        .bind(&decision)
        .bind(change.by)
        .bind(amendment_json)
        .execute(&mut *tx)
        .await?;
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.appeal_decision",
                serde_json::json!({
                    "appeal": seq, "status": status.name(), "decision": decision,
                    "amendment": amendment,
                }),
                rows,
            ),
        )
        .await
    }

    /// Publishes the final result of the call of `key` once the period to
    /// appeal has ended and every appeal is decided: the ranking and places
    /// from the screening as the appeals left it; the places of a share no
    /// eligible claimant filled released to open competition where the law
    /// says so (SMJ art. 2º, § 6º, recorded as the cap's release).
    pub async fn publish_final_result(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
    ) -> Result<Call, StoreError> {
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        let Some(until) = call
            .appeal_until
            .filter(|_| call.status == CallStatus::Provisional)
        else {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "o resultado final segue o provisório, uma vez (o chamamento nº {} está com {})",
                    call.label(),
                    call.status.portuguese()
                ),
            ));
        };
        if today <= until {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "o prazo de recurso vai até {}: o resultado final é depois dele",
                    crate::words::day(until)
                ),
            ));
        }
        if let Some(open) = call
            .appeals
            .iter()
            .find(|a| a.status == AppealStatus::Filed)
        {
            return Err(StoreError::invalid(
                "recurso",
                format!(
                    "o recurso nº {} ainda não foi decidido: a comissão decide todos antes do \
                     resultado final",
                    open.seq
                ),
            ));
        }
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let screening = recorded(&call)?;
        let allocation = result(&ctx, &call, &screening, today)?;
        let (outcome, mut rows) = write_result(&mut tx, &call, &allocation).await?;
        for (share, places, _) in &outcome.released {
            crate::permits::release(
                &mut tx,
                (&self.audit, change),
                rulebook,
                jurisdiction,
                (&call.service, share, Some(*places)),
                today,
            )
            .await?;
        }
        sqlx::query(
            "UPDATE calls SET status = 'final', final_on = $4, outcome = $5 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(today.to_string())
        .bind(to_json(&outcome, "call outcome")?)
        .execute(&mut *tx)
        .await?;
        rows.push(call_row(jurisdiction, key));
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.final",
                serde_json::json!({
                    "grants": allocation.grants.iter().map(|g| g.name).collect::<Vec<_>>(),
                    "waiting": allocation.waiting.iter().map(|w| w.name).collect::<Vec<_>>(),
                    "outcome": outcome,
                }),
                rows,
            ),
        )
        .await
    }

    /// Grants the permit of the application `seq` of the call of `key`,
    /// whose turn it is among the final result's places (the reserved
    /// shares first, then in ranking order), through the normal grant: the
    /// law's requirements and the cap weighed again today, the grant's fee
    /// charged. Refused out of turn, naming whose turn it is.
    pub async fn grant_from_call(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (key, seq): ((i32, i64), i64),
    ) -> Result<Call, StoreError> {
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let call = read(&mut tx, jurisdiction, key).await?;
        if call.status != CallStatus::Final {
            return Err(StoreError::invalid(
                "chamamento",
                format!(
                    "as outorgas do chamamento nº {} seguem o resultado final (está com {})",
                    call.label(),
                    call.status.portuguese()
                ),
            ));
        }
        let grants = call.grants();
        let Some(next) = grants.iter().find(|a| a.permit.is_none()) else {
            return Err(StoreError::invalid(
                "inscricao",
                "todas as vagas do resultado final já foram outorgadas",
            ));
        };
        let application = call
            .applications
            .iter()
            .find(|a| a.seq == seq)
            .ok_or_else(|| {
                StoreError::NotFound(format!(
                    "não há inscrição nº {seq} no chamamento nº {}",
                    call.label()
                ))
            })?;
        if application.seq != next.seq {
            return Err(StoreError::invalid(
                "inscricao",
                match &application.permit {
                    Some((service, number)) => format!(
                        "a inscrição {} já recebeu a permissão {service} nº {number}",
                        application.label
                    ),
                    None if application.place.is_none() => format!(
                        "a inscrição {} não tem vaga no resultado final",
                        application.label
                    ),
                    None => format!(
                        "é a vez da inscrição {} ({}º lugar): as outorgas seguem a ordem do \
                         resultado, as reservas primeiro",
                        next.label,
                        next.position.unwrap_or_default()
                    ),
                },
            ));
        }
        let place = application
            .place
            .as_ref()
            .ok_or_else(|| StoreError::Corrupt(format!("call application {seq} place")))?;
        let request = GrantRequest {
            service: call.service.clone(),
            holder: application.who.clone(),
            on: today,
            quota: place.quota().map(str::to_string),
            line: None,
        };
        let granted = crate::permits::grant(
            &mut tx,
            &self.audit,
            change,
            rulebook,
            jurisdiction,
            &request,
        )
        .await?;
        sqlx::query(
            "UPDATE call_applications SET permit_service = $5, permit_number = $6, granted_on = $7 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(seq)
        .bind(&call.service)
        .bind(granted.permit.number)
        .bind(today.to_string())
        .execute(&mut *tx)
        .await?;
        self.finish_call(
            tx,
            change,
            (jurisdiction, key),
            (
                "call.grant",
                serde_json::json!({
                    "application": application.label, "place": place.name(),
                    "permit": granted.permit.number, "articles": granted.articles,
                }),
                vec![application_row(jurisdiction, key, seq)],
            ),
        )
        .await
    }
}

fn appeal_row(
    jurisdiction: &str,
    (year, number): (i32, i64),
    seq: i64,
) -> crate::audit::images::RowRef {
    crate::audit::images::RowRef::new(
        "call_appeals",
        [jurisdiction.into(), year.into(), number.into(), seq.into()],
    )
}

/// Writes an application's screening (and, when an appeal corrected it,
/// what it now shows).
async fn write_screening(
    tx: &mut Tx,
    call: &Call,
    seq: i64,
    shown: Option<&Shown>,
    result: &ScreeningResult,
) -> Result<(), StoreError> {
    let screening = to_json(result, "screening")?;
    match shown {
        None => {
            sqlx::query(
                "UPDATE call_applications SET screening = $5 WHERE jurisdiction = $1 \
                 AND year = $2 AND number = $3 AND seq = $4",
            )
            .bind(&call.jurisdiction)
            .bind(i64::from(call.year))
            .bind(call.number)
            .bind(seq)
            .bind(screening)
            .execute(&mut **tx)
            .await?;
        }
        Some(shown) => {
            sqlx::query(
                "UPDATE call_applications SET screening = $5, quantities = $6, documents = $7, \
                 claim = $8, proved = $9 WHERE jurisdiction = $1 AND year = $2 AND number = $3 \
                 AND seq = $4",
            )
            .bind(&call.jurisdiction)
            .bind(i64::from(call.year))
            .bind(call.number)
            .bind(seq)
            .bind(screening)
            .bind(to_json(&shown.quantities, "application")?)
            .bind(to_json(&shown.documents, "application")?)
            .bind(shown.claim.clone())
            .bind(to_json(&shown.proved, "application")?)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}
