//! The notice to a holder before the authority moves the holder's fixed
//! stand, where the law requires one (Santa Maria de Jetibá art. 28, § 1º):
//! the stand held and the one it would move to, the act and its grounds of
//! public interest, the day the holder was notified and the last day of the
//! answer — the core's deadline engine counts the rulebook's
//! `stand_relocation_response` limit, in business days with the
//! jurisdiction's holidays —, the holder's answer when given, and the day
//! the relocation it preceded was made. The relocation itself
//! (`stand_places::designate_stand`) asks `engine::stands::relocation` with
//! the notice it finds in `relocation_notice` (a leaf, so the two modules
//! do not depend on each other). A law that requires no notice refuses one,
//! named.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append};
use crate::dates::day;
use crate::listing::{self, Filter, KeyValue, Kind, List, Page, Window, text};
use crate::stand_places::{place_on, provided, rules};
use crate::stands::read_stand;
use crate::text::{TextKind, checked as checked_text, required};
use crate::{Store, StoreError, Tx};
use chrono::NaiveDate;
use outorga_core::engine::deadline::deadline;
use outorga_core::model::{DeadlineKind, Rulebook};
use sqlx::Row;

/// A notice as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandNotice {
    pub service: String,
    pub number: i64,
    pub seq: i64,
    /// The stand the permit held when notified.
    pub stand: String,
    /// The stand it would move to.
    pub destination: String,
    pub act: String,
    pub grounds: String,
    pub notified_on: NaiveDate,
    /// The last day of the holder's answer.
    pub answer_until: NaiveDate,
    /// The holder's answer and its day, when given.
    pub answer: Option<(NaiveDate, String)>,
    /// The day the relocation was made, once made.
    pub relocated_on: Option<NaiveDate>,
    pub articles: Vec<String>,
    pub recorded_by: String,
}

/// The department's notice of a move to come.
#[derive(Debug, Clone)]
pub struct NoticeInput {
    pub service: String,
    pub number: i64,
    /// The stand the permit would move to.
    pub destination: String,
    /// The act that announces the move (ofício, notificação nº …).
    pub act: String,
    /// The grounds of public interest.
    pub grounds: String,
    /// The day the holder was notified (received the notice).
    pub notified_on: NaiveDate,
}

const COLUMNS: &str = "service, number, seq, stand, destination, act, grounds, notified_on, \
     answer_until, answered_on, answer, relocated_on, citations, recorded_by";

/// A permit's notices by their order.
const NOTICES: List = List {
    name: "stand_notices",
    table: "stand_notices",
    columns: COLUMNS,
    key: &[("seq", Kind::Int)],
    descending: false,
};

fn notice_of(row: &sqlx::any::AnyRow) -> Result<StandNotice, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let optional = |name: &str| -> Result<Option<NaiveDate>, StoreError> {
        let value: Option<String> = row.try_get(name)?;
        value.as_deref().map(day).transpose()
    };
    let answer: Option<String> = row.try_get("answer")?;
    Ok(StandNotice {
        service: text("service")?,
        number: row.try_get("number")?,
        seq: row.try_get("seq")?,
        stand: text("stand")?,
        destination: text("destination")?,
        act: text("act")?,
        grounds: text("grounds")?,
        notified_on: day(&text("notified_on")?)?,
        answer_until: day(&text("answer_until")?)?,
        answer: optional("answered_on")?.zip(answer),
        relocated_on: optional("relocated_on")?,
        articles: serde_json::from_str(&text("citations")?).unwrap_or_default(),
        recorded_by: text("recorded_by")?,
    })
}

fn notice_row(jurisdiction: &str, (service, number): (&str, i64), seq: i64) -> RowRef {
    RowRef::new(
        "stand_notices",
        [
            jurisdiction.into(),
            service.into(),
            number.into(),
            seq.into(),
        ],
    )
}

async fn read(
    tx: &mut Tx,
    jurisdiction: &str,
    (service, number): (&str, i64),
    seq: i64,
) -> Result<StandNotice, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM stand_notices WHERE jurisdiction = $1 AND service = $2 \
         AND number = $3 AND seq = $4"
    )))
    .bind(jurisdiction)
    .bind(service)
    .bind(number)
    .bind(seq)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| {
        StoreError::NotFound(format!(
            "não há notificação nº {seq} de mudança de ponto da permissão {service} nº {number}"
        ))
    })?;
    notice_of(&row)
}

impl Store {
    /// Records the notice to the holder of `input`'s permit that the
    /// authority means to move it from the fixed stand it holds today to
    /// `input.destination`, with the act and its grounds of public
    /// interest: the answer's last day counted from the day notified (SMJ
    /// art. 28, § 1º). Refused, naming the law, where the law requires no
    /// notice.
    pub async fn notify_stand_relocation(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        input: &NoticeInput,
    ) -> Result<StandNotice, StoreError> {
        let rules = rules(rulebook)?;
        let notice = provided(
            rulebook,
            rules.relocation_notice.as_ref(),
            "a notificação prévia do titular antes de mudar o seu ponto",
        )?;
        let act = required("ato", &input.act, TextKind::Name)?.to_string();
        let grounds = checked_text("fundamentos", &input.grounds, TextKind::Long)?
            .trim()
            .to_string();
        if grounds.chars().count() < 10 {
            return Err(StoreError::invalid(
                "fundamentos",
                format!(
                    "a mudança de ponto é expressamente motivada em razões de interesse público \
                     ({notice}): escreva os fundamentos (ao menos 10 letras)"
                ),
            ));
        }
        let rulebook = crate::under_law("notificado_em", input.notified_on, change, rulebook)?;
        let today = rulebook.jurisdiction.today(change.at);
        let permit = (input.service.as_str(), input.number);
        let (mut tx, _writer) = self.write_transaction().await?;
        crate::stand_places::permit_in_force(&mut tx, self, jurisdiction, permit).await?;
        let place = place_on(&mut tx, jurisdiction, permit, today)
            .await?
            .ok_or_else(|| {
                StoreError::invalid(
                    "permissao",
                    format!(
                        "a permissão {} nº {} não tem ponto fixo hoje: não há ponto a mudar",
                        permit.0, permit.1
                    ),
                )
            })?;
        let destination = read_stand(&mut *tx, jurisdiction, &input.destination).await?;
        if destination.capacity.is_none() {
            return Err(StoreError::invalid(
                "ponto",
                format!(
                    "{} é ponto livre: não tem vagas a designar",
                    destination.name
                ),
            ));
        }
        if destination.code == place.stand {
            return Err(StoreError::invalid(
                "ponto",
                format!("a permissão já está no ponto {}", destination.name),
            ));
        }
        if input.notified_on < place.from {
            return Err(StoreError::invalid(
                "notificado_em",
                format!(
                    "a permissão está no ponto {} desde {}: a notificação de {} é anterior",
                    place.stand,
                    crate::words::day(place.from),
                    crate::words::day(input.notified_on)
                ),
            ));
        }
        let ctx = crate::parameters::law(&mut tx, jurisdiction, rulebook).await?;
        let limit = deadline(
            &ctx,
            DeadlineKind::StandRelocationResponse,
            input.notified_on,
        )?;
        let articles = crate::articles(&limit.citations);
        let seq: i64 = sqlx::query_scalar(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM stand_notices WHERE jurisdiction = $1 \
             AND service = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(permit.0)
        .bind(permit.1)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO stand_notices (jurisdiction, service, number, seq, stand, destination, \
             act, grounds, notified_on, answer_until, answered_on, answer, relocated_on, \
             citations, recorded_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, \
             NULL, NULL, $11, $12)",
        )
        .bind(jurisdiction)
        .bind(permit.0)
        .bind(permit.1)
        .bind(seq)
        .bind(&place.stand)
        .bind(&destination.code)
        .bind(&act)
        .bind(&grounds)
        .bind(input.notified_on.to_string())
        .bind(limit.due.to_string())
        .bind(serde_json::json!(articles).to_string())
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "stand.notice",
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{}:{}", permit.0, permit.1),
                detail: serde_json::json!({
                    "stand": place.stand, "destination": destination.code, "act": act,
                    "grounds": grounds, "notified_on": input.notified_on,
                    "answer_until": limit.due, "articles": articles,
                }),
                rows: vec![notice_row(jurisdiction, permit, seq)],
            },
        )
        .await?;
        let recorded = read(&mut tx, jurisdiction, permit, seq).await?;
        tx.commit().await?;
        Ok(recorded)
    }

    /// Records the holder's answer to the notice `seq` of `permit`, given
    /// on `on`: within the time to answer it.
    pub async fn answer_stand_notice(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        ((service, number), seq): ((&str, i64), i64),
        (on, answer): (NaiveDate, &str),
    ) -> Result<StandNotice, StoreError> {
        let answer = checked_text("resposta", answer, TextKind::Long)?
            .trim()
            .to_string();
        if answer.chars().count() < 10 {
            return Err(StoreError::invalid(
                "resposta",
                "escreva a resposta ou justificativa do titular (ao menos 10 letras)",
            ));
        }
        crate::under_law("respondida_em", on, change, rulebook)?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let notice = read(&mut tx, jurisdiction, (service, number), seq).await?;
        let article = notice.articles.join("; ");
        if let Some((answered, _)) = notice.answer {
            return Err(StoreError::invalid(
                "resposta",
                format!(
                    "a resposta a esta notificação já foi registrada ({})",
                    crate::words::day(answered)
                ),
            ));
        }
        if on < notice.notified_on {
            return Err(StoreError::invalid(
                "respondida_em",
                format!(
                    "a resposta não pode ser anterior à notificação ({})",
                    crate::words::day(notice.notified_on)
                ),
            ));
        }
        if on > notice.answer_until {
            return Err(StoreError::invalid(
                "respondida_em",
                format!(
                    "o prazo de resposta terminou em {} ({article}): a resposta de {} é \
                     intempestiva",
                    crate::words::day(notice.answer_until),
                    crate::words::day(on)
                ),
            ));
        }
        sqlx::query(
            "UPDATE stand_notices SET answered_on = $5, answer = $6 WHERE jurisdiction = $1 \
             AND service = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(service)
        .bind(number)
        .bind(seq)
        .bind(on.to_string())
        .bind(&answer)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "stand.notice_answer",
                jurisdiction: Some(jurisdiction),
                subject: &format!("permit:{service}:{number}"),
                detail: serde_json::json!({ "notice": seq, "on": on, "answer": answer }),
                rows: vec![notice_row(jurisdiction, (service, number), seq)],
            },
        )
        .await?;
        let recorded = read(&mut tx, jurisdiction, (service, number), seq).await?;
        tx.commit().await?;
        Ok(recorded)
    }

    /// A page of the notices of moving a permit's stand, oldest first.
    pub async fn stand_notices(
        &self,
        jurisdiction: &str,
        (service, number): (&str, i64),
        window: Window<'_>,
    ) -> Result<Page<StandNotice>, StoreError> {
        let rows = Filter::default()
            .always("jurisdiction = $?", text(jurisdiction))
            .always("service = $?", text(service))
            .always("number = $?", KeyValue::Int(number));
        listing::page(&self.pool, &NOTICES, &rows, window, notice_of).await
    }
}
