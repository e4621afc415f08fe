//! Public draws (`engine::draw`): one record for every allocation the law
//! leaves to chance — a fixed stand's vacancy (Canguçu art. 15, § 4º), and
//! the ties of a public call. A draw is opened with the public source its
//! seed will come from and that source's day; holders enter while it is
//! open; the list is closed before the seed exists and its SHA-256
//! published; from the seed's day the clerk enters the seed and the order
//! follows from it, published for anyone to recompute; the winners take
//! the places. A draw is never drawn again; appeals against its result are
//! recorded and decided. Every change audited; refused, nothing written.

use crate::audit::images::RowRef;
use crate::audit::{Change, Entry, append, next_number};
use crate::dates::{day, optional_day};
use crate::listing::{self, Filter, Kind as KeyKind, List, Page, Window, text};
use crate::stand_places::{Arrival, CameBy, LeftBy, arrive, fixed_with_room, leave, place_on};
use crate::text::{TextKind, required, written};
use crate::{Store, StoreError, Tx};
use chrono::{Datelike, NaiveDate};
use outorga_core::engine::draw::{self as public_draw, list_hash, may_close, may_draw};
use outorga_core::engine::stands::{self, Stand as EngineStand};
use outorga_core::model::Rulebook;
use sqlx::Row;

worded! {
    /// What a draw allocates.
    pub enum DrawPurpose {
        StandVacancy = "stand_vacancy" => "vaga de ponto fixo",
        CallTie = "call_tie" => "desempate de chamamento público",
    }
}

worded! {
    /// Where a draw stands.
    pub enum DrawStatus {
        Open = "open" => "inscrições abertas",
        Closed = "closed" => "lista fechada, aguardando a semente",
        Drawn = "drawn" => "resultado publicado",
    }
}

worded! {
    /// Where an appeal against a draw stands.
    pub enum AppealStatus {
        Filed = "filed" => "interposto",
        Granted = "granted" => "provido",
        Denied = "denied" => "não provido",
    }
}

/// An appeal may be decided once: refused, naming how it was decided.
pub(crate) fn undecided(status: AppealStatus, seq: i64) -> Result<(), StoreError> {
    if status == AppealStatus::Filed {
        return Ok(());
    }
    Err(StoreError::invalid(
        "recurso",
        format!(
            "o recurso nº {seq} já foi decidido ({})",
            status.portuguese()
        ),
    ))
}

/// A participant as listed: `label` is what the list and the ticket read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Participant {
    pub seq: i64,
    pub label: String,
    pub who: String,
    pub name: String,
    pub permit: Option<(String, i64)>,
    pub ticket: Option<String>,
    /// 1 for the first drawn.
    pub position: Option<u32>,
}

/// An appeal against a draw's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawAppeal {
    pub seq: i64,
    pub appellant: String,
    pub filed_on: NaiveDate,
    pub grounds: String,
    pub status: AppealStatus,
    pub decided_on: Option<NaiveDate>,
    pub decision: Option<String>,
    pub decided_by: Option<String>,
}

/// A draw as recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draw {
    pub jurisdiction: String,
    pub year: i32,
    pub number: i64,
    pub purpose: DrawPurpose,
    /// `stand:CODE`, `call:YEAR:NUMBER`.
    pub subject: String,
    pub places: u32,
    pub seed_source: String,
    pub seed_on: NaiveDate,
    pub status: DrawStatus,
    pub opened_on: NaiveDate,
    pub closed_on: Option<NaiveDate>,
    pub list_hash: Option<String>,
    pub seed: Option<String>,
    pub drawn_on: Option<NaiveDate>,
    pub drawn_by: Option<String>,
    pub articles: Vec<String>,
    pub recorded_by: String,
    pub participants: Vec<Participant>,
    pub appeals: Vec<DrawAppeal>,
}

impl Draw {
    /// Its number as people read it ("2/2026").
    pub fn label(&self) -> String {
        format!("{}/{}", self.number, self.year)
    }

    /// What it allocates, as people read it: a stand's vacancies, or a
    /// public call's tie.
    pub fn what(&self) -> String {
        let parts: Vec<&str> = self.subject.split(':').collect();
        match (self.purpose, parts.as_slice()) {
            (DrawPurpose::StandVacancy, [_, code]) => {
                format!("Vaga do ponto {code}: {} vaga(s)", self.places)
            }
            (DrawPurpose::CallTie, [_, year, number]) => format!(
                "Desempate do chamamento público nº {number}/{year}, entre {} empatados",
                self.places
            ),
            _ => self.subject.clone(),
        }
    }

    /// The participants in the order drawn (once drawn).
    pub fn in_order(&self) -> Vec<&Participant> {
        let mut drawn: Vec<&Participant> = self
            .participants
            .iter()
            .filter(|p| p.position.is_some())
            .collect();
        drawn.sort_by_key(|p| p.position);
        drawn
    }
}

const COLUMNS: &str = "jurisdiction, year, number, purpose, subject, places, seed_source, seed_on, \
     status, opened_on, closed_on, list_hash, seed, drawn_on, drawn_by, citations, recorded_by";

const LISTED: List = List {
    name: "draws",
    table: "draws",
    columns: COLUMNS,
    key: &[("year", KeyKind::Int), ("number", KeyKind::Int)],
    descending: true,
};

fn draw_of(row: &sqlx::any::AnyRow) -> Result<Draw, StoreError> {
    let text = |name: &str| -> Result<String, StoreError> { Ok(row.try_get(name)?) };
    let year: i64 = row.try_get("year")?;
    let places: i64 = row.try_get("places")?;
    let purpose = text("purpose")?;
    let status = text("status")?;
    Ok(Draw {
        jurisdiction: text("jurisdiction")?,
        year: i32::try_from(year).map_err(|_| StoreError::Corrupt(format!("draw year {year}")))?,
        number: row.try_get("number")?,
        purpose: DrawPurpose::parse(&purpose)
            .ok_or_else(|| StoreError::Corrupt(format!("draw purpose {purpose}")))?,
        subject: text("subject")?,
        places: u32::try_from(places).unwrap_or(0),
        seed_source: text("seed_source")?,
        seed_on: day(&text("seed_on")?)?,
        status: DrawStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("draw status {status}")))?,
        opened_on: day(&text("opened_on")?)?,
        closed_on: optional_day(row, "closed_on")?,
        list_hash: row.try_get("list_hash")?,
        seed: row.try_get("seed")?,
        drawn_on: optional_day(row, "drawn_on")?,
        drawn_by: row.try_get("drawn_by")?,
        articles: serde_json::from_str(&text("citations")?).unwrap_or_default(),
        recorded_by: text("recorded_by")?,
        participants: Vec::new(),
        appeals: Vec::new(),
    })
}

async fn participants_of<'e, E>(
    executor: E,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Vec<Participant>, StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(
        "SELECT d.seq, d.label, d.who, p.name, d.service, d.permit, d.ticket, d.position \
         FROM draw_participants d JOIN people p ON p.jurisdiction = d.jurisdiction \
         AND p.document = d.who WHERE d.jurisdiction = $1 AND d.year = $2 AND d.number = $3 \
         ORDER BY d.seq",
    )
    .bind(jurisdiction)
    .bind(i64::from(year))
    .bind(number)
    .fetch_all(executor)
    .await?;
    rows.iter()
        .map(|row| {
            let service: Option<String> = row.try_get("service")?;
            let permit: Option<i64> = row.try_get("permit")?;
            let position: Option<i64> = row.try_get("position")?;
            Ok(Participant {
                seq: row.try_get("seq")?,
                label: row.try_get("label")?,
                who: row.try_get("who")?,
                name: row.try_get("name")?,
                permit: service.zip(permit),
                ticket: row.try_get("ticket")?,
                position: position.and_then(|p| u32::try_from(p).ok()),
            })
        })
        .collect()
}

async fn appeals_of<'e, E>(
    executor: E,
    jurisdiction: &str,
    (year, number): (i32, i64),
) -> Result<Vec<DrawAppeal>, StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows = sqlx::query(
        "SELECT seq, appellant, filed_on, grounds, status, decided_on, decision, decided_by \
         FROM draw_appeals WHERE jurisdiction = $1 AND year = $2 AND number = $3 ORDER BY seq",
    )
    .bind(jurisdiction)
    .bind(i64::from(year))
    .bind(number)
    .fetch_all(executor)
    .await?;
    rows.iter()
        .map(|row| {
            let status: String = row.try_get("status")?;
            Ok(DrawAppeal {
                seq: row.try_get("seq")?,
                appellant: row.try_get("appellant")?,
                filed_on: day(&row.try_get::<String, _>("filed_on")?)?,
                grounds: row.try_get("grounds")?,
                status: AppealStatus::parse(&status)
                    .ok_or_else(|| StoreError::Corrupt(format!("appeal status {status}")))?,
                decided_on: optional_day(row, "decided_on")?,
                decision: row.try_get("decision")?,
                decided_by: row.try_get("decided_by")?,
            })
        })
        .collect()
}

/// The draw of `key` with its participants and appeals.
async fn read(tx: &mut Tx, jurisdiction: &str, key: (i32, i64)) -> Result<Draw, StoreError> {
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM draws WHERE jurisdiction = $1 AND year = $2 AND number = $3"
    )))
    .bind(jurisdiction)
    .bind(i64::from(key.0))
    .bind(key.1)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| {
        StoreError::NotFound(format!(
            "não há sorteio nº {}/{} em {jurisdiction}",
            key.1, key.0
        ))
    })?;
    let mut draw = draw_of(&row)?;
    draw.participants = participants_of(&mut **tx, jurisdiction, key).await?;
    draw.appeals = appeals_of(&mut **tx, jurisdiction, key).await?;
    Ok(draw)
}

fn draw_row(jurisdiction: &str, (year, number): (i32, i64)) -> RowRef {
    RowRef::new("draws", [jurisdiction.into(), year.into(), number.into()])
}

/// The stand a vacancy draw fills.
fn stand_of_subject(draw: &Draw) -> Result<&str, StoreError> {
    draw.subject
        .strip_prefix("stand:")
        .ok_or_else(|| StoreError::Corrupt(format!("draw subject {}", draw.subject)))
}

/// A vacancy draw's order by the stand lottery (`engine::stands::lottery`),
/// and the winners placed in the stand's places free on `today`, each
/// leaving the stand it held: the order, the audit's detail and rows.
async fn fill_vacancies(
    tx: &mut Tx,
    change: &Change<'_>,
    rulebook: &Rulebook,
    (draw, labels): (&Draw, &[&str]),
    seed: &str,
    today: NaiveDate,
) -> Result<(Vec<(String, String)>, serde_json::Value, Vec<RowRef>), StoreError> {
    let rules = crate::stand_places::draw_rules(rulebook)?;
    let jurisdiction = draw.jurisdiction.as_str();
    let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
    let code = stand_of_subject(draw)?;
    let stand = crate::stands::read_stand(&mut **tx, jurisdiction, code).await?;
    let occupants =
        crate::stand_places::occupants_on(&mut **tx, jurisdiction, &stand.code, today).await?;
    let result = stands::lottery(
        &ctx,
        EngineStand {
            name: &stand.name,
            capacity: stand.capacity.unwrap_or(0),
            free: stand.capacity.is_none(),
        },
        u32::try_from(occupants.len()).unwrap_or(u32::MAX),
        seed,
        labels,
    )?;
    let act = format!("sorteio nº {}", draw.label());
    let articles = [rules.lottery.as_str()];
    let mut rows = Vec::new();
    let mut placed = Vec::new();
    for winner in &result.winners {
        let Some((service, number)) = draw
            .participants
            .iter()
            .find(|p| p.label == *winner)
            .and_then(|p| p.permit.clone())
        else {
            continue;
        };
        rows.extend(
            leave(
                tx,
                jurisdiction,
                (service.as_str(), number),
                today,
                LeftBy::Draw,
            )
            .await?,
        );
        let arrival = Arrival {
            stand: &stand.code,
            on: today,
            came_by: CameBy::Draw,
            act: &act,
            grounds: "vaga preenchida por sorteio público entre os interessados",
            articles: &articles,
        };
        rows.push(arrive(tx, change, jurisdiction, (&service, number), &arrival).await?);
        placed.push(*winner);
    }
    let order: Vec<(String, String)> = result
        .order
        .iter()
        .map(|(label, ticket)| ((*label).to_string(), ticket.clone()))
        .collect();
    let detail = serde_json::json!({
        "order": order, "vacancies": result.vacancies, "placed": placed, "articles": articles,
    });
    Ok((order, detail, rows))
}

/// A public call's tie draw (`subject` "call:YEAR:NUMBER"), opened with
/// its list already closed — the applicants the screening found tied, in
/// the order they applied (`(label, who)`) — and its SHA-256 published,
/// before the seed's day: its key and the audit rows.
pub(crate) async fn open_tie_draw(
    tx: &mut Tx,
    change: &Change<'_>,
    jurisdiction: &str,
    (subject, participants): (&str, &[(String, String)]),
    (seed_source, seed_on, today): (&str, NaiveDate, NaiveDate),
    article: &str,
) -> Result<((i32, i64), Vec<RowRef>), StoreError> {
    let source = required("fonte_semente", seed_source, TextKind::Long)?.to_string();
    may_close(today, seed_on).map_err(|r| StoreError::invalid("data_semente", r))?;
    let labels: Vec<&str> = participants.iter().map(|(l, _)| l.as_str()).collect();
    let hash = list_hash(&labels);
    let year = today.year();
    let number = next_number(tx, jurisdiction, "draw", year).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "INSERT INTO draws ({COLUMNS}) VALUES ($1, $2, $3, 'call_tie', $4, $5, $6, $7, \
         'closed', $8, $8, $9, NULL, NULL, NULL, $10, $11)"
    )))
    .bind(jurisdiction)
    .bind(year)
    .bind(number)
    .bind(subject)
    .bind(i64::try_from(labels.len()).unwrap_or(i64::MAX))
    .bind(&source)
    .bind(seed_on.to_string())
    .bind(today.to_string())
    .bind(&hash)
    .bind(serde_json::json!([article]).to_string())
    .bind(change.by)
    .execute(&mut **tx)
    .await?;
    let mut rows = vec![draw_row(jurisdiction, (year, number))];
    for (seq, (label, who)) in (1_i64..).zip(participants) {
        sqlx::query(
            "INSERT INTO draw_participants (jurisdiction, year, number, seq, label, who, service, \
             permit, ticket, position) VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, NULL, NULL)",
        )
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(seq)
        .bind(label)
        .bind(who)
        .execute(&mut **tx)
        .await?;
        rows.push(RowRef::new(
            "draw_participants",
            [jurisdiction.into(), year.into(), number.into(), seq.into()],
        ));
    }
    Ok(((year, number), rows))
}

/// The draws of `subject`, oldest first, with their participants.
pub(crate) async fn subject_draws(
    tx: &mut Tx,
    jurisdiction: &str,
    subject: &str,
) -> Result<Vec<Draw>, StoreError> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM draws WHERE jurisdiction = $1 AND subject = $2 \
         ORDER BY year, number"
    )))
    .bind(jurisdiction)
    .bind(subject)
    .fetch_all(&mut **tx)
    .await?;
    let mut draws = Vec::with_capacity(rows.len());
    for row in &rows {
        let mut draw = draw_of(row)?;
        draw.participants =
            participants_of(&mut **tx, jurisdiction, (draw.year, draw.number)).await?;
        draws.push(draw);
    }
    Ok(draws)
}

/// What a change writes to the log: its action, detail and rows.
type Written = (&'static str, serde_json::Value, Vec<RowRef>);

impl Store {
    /// Appends a change's audit entry, commits, and returns the draw as it
    /// now is.
    async fn finish(
        &self,
        mut tx: Tx,
        change: &Change<'_>,
        (jurisdiction, key): (&str, (i32, i64)),
        (action, detail, rows): Written,
    ) -> Result<Draw, StoreError> {
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action,
                jurisdiction: Some(jurisdiction),
                subject: &format!("draw:{}:{}", key.0, key.1),
                detail,
                rows,
            },
        )
        .await?;
        let draw = read(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(draw)
    }
}

/// A stand's vacancy draw to open: the seed's public source and its day.
#[derive(Debug, Clone)]
pub struct DrawInput {
    pub stand: String,
    /// The public source of the seed, named before the draw (the numbers
    /// of the Loteria Federal's draw nº …).
    pub seed_source: String,
    pub seed_on: NaiveDate,
}

impl Store {
    /// Opens the public draw of the vacancies stand `input.stand` has today
    /// (Canguçu art. 15, § 4º), the seed's public source and day announced
    /// now: one draw at a time per stand.
    pub async fn open_stand_draw(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        input: &DrawInput,
    ) -> Result<Draw, StoreError> {
        let rules = crate::stand_places::draw_rules(rulebook)?;
        let source = required("fonte_semente", &input.seed_source, TextKind::Long)?.to_string();
        let today = rulebook.jurisdiction.today(change.at);
        may_close(today, input.seed_on).map_err(|r| StoreError::invalid("data_semente", r))?;
        let (mut tx, _writer) = self.write_transaction().await?;
        let (stand, occupants) =
            fixed_with_room(&mut tx, jurisdiction, &input.stand, today).await?;
        if let Some(draw) =
            crate::stand_leave::pending_draw(&mut tx, jurisdiction, &stand.code).await?
        {
            return Err(StoreError::invalid(
                "ponto",
                format!(
                    "o sorteio nº {draw} já está em andamento para o ponto {}",
                    stand.name
                ),
            ));
        }
        let places = crate::stand_places::vacancies(&stand, occupants.len()).unwrap_or(0);
        let year = today.year();
        let number = next_number(&mut tx, jurisdiction, "draw", year).await?;
        let articles = [rules.lottery.as_str()];
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO draws ({COLUMNS}) VALUES ($1, $2, $3, 'stand_vacancy', $4, $5, $6, $7, \
             'open', $8, NULL, NULL, NULL, NULL, NULL, $9, $10)"
        )))
        .bind(jurisdiction)
        .bind(year)
        .bind(number)
        .bind(format!("stand:{}", stand.code))
        .bind(i64::from(places))
        .bind(&source)
        .bind(input.seed_on.to_string())
        .bind(today.to_string())
        .bind(serde_json::json!(articles).to_string())
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        append(
            &mut tx,
            &self.audit,
            change,
            Entry {
                action: "draw.open",
                jurisdiction: Some(jurisdiction),
                subject: &format!("draw:{year}:{number}"),
                detail: serde_json::json!({
                    "stand": stand.code, "places": places, "seed_source": source,
                    "seed_on": input.seed_on, "articles": articles,
                }),
                rows: vec![draw_row(jurisdiction, (year, number))],
            },
        )
        .await?;
        let draw = read(&mut tx, jurisdiction, (year, number)).await?;
        tx.commit().await?;
        Ok(draw)
    }

    /// Enters the permit `(service, number)` in the open draw of `key`: a
    /// holder interested in moving to the stand (art. 15, § 4º), listed by
    /// the permit's number.
    pub async fn enter_draw(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        (service, number): (&str, i64),
    ) -> Result<Draw, StoreError> {
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let draw = read(&mut tx, jurisdiction, key).await?;
        if draw.status != DrawStatus::Open {
            return Err(StoreError::invalid(
                "sorteio",
                format!(
                    "a lista do sorteio nº {} já foi fechada em {}: não entra mais ninguém",
                    draw.label(),
                    draw.closed_on.map_or(String::new(), crate::words::day)
                ),
            ));
        }
        if draw.purpose != DrawPurpose::StandVacancy {
            return Err(StoreError::invalid(
                "sorteio",
                format!(
                    "o sorteio nº {} desempata um chamamento: sua lista são os empatados da \
                     triagem, ninguém se inscreve nele",
                    draw.label()
                ),
            ));
        }
        let stand = stand_of_subject(&draw)?.to_string();
        let permit =
            crate::permits::lock_permit(&mut tx, &self.audit, jurisdiction, (service, number))
                .await?;
        if permit.rulebook != rulebook.id {
            return Err(StoreError::invalid(
                "permissao",
                format!(
                    "a permissão {service} nº {number} não é do serviço dos pontos fixos ({})",
                    rulebook.id
                ),
            ));
        }
        if !matches!(permit.status.as_str(), "granted" | "suspended" | "reserved") {
            return Err(StoreError::invalid(
                "permissao",
                format!(
                    "a permissão {service} nº {number} está {}: só delegatários em atividade \
                     concorrem à vaga",
                    crate::permits::status_pt(&permit.status)
                ),
            ));
        }
        if place_on(&mut tx, jurisdiction, (service, number), today)
            .await?
            .is_some_and(|p| p.stand == stand)
        {
            return Err(StoreError::invalid(
                "permissao",
                format!("a permissão {service} nº {number} já está neste ponto"),
            ));
        }
        let label = format!("{service}-{number}");
        let seq = i64::try_from(draw.participants.len()).unwrap_or(i64::MAX) + 1;
        sqlx::query(
            "INSERT INTO draw_participants (jurisdiction, year, number, seq, label, who, service, \
             permit, ticket, position) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL)",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(seq)
        .bind(&label)
        .bind(&permit.holder)
        .bind(service)
        .bind(number)
        .execute(&mut *tx)
        .await
        .map_err(|e| {
            crate::refused_if_taken(
                e,
                "permissao",
                format!("a permissão {label} já está na lista deste sorteio"),
            )
        })?;
        self.finish(
            tx,
            change,
            (jurisdiction, key),
            (
                "draw.enter",
                serde_json::json!({ "label": label, "who": permit.holder }),
                vec![RowRef::new(
                    "draw_participants",
                    [jurisdiction.into(), key.0.into(), key.1.into(), seq.into()],
                )],
            ),
        )
        .await
    }

    /// Closes the list of the draw of `key` and publishes its SHA-256:
    /// before the seed's day, at least one participant.
    pub async fn close_draw(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
    ) -> Result<Draw, StoreError> {
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let draw = read(&mut tx, jurisdiction, key).await?;
        if draw.status != DrawStatus::Open {
            return Err(StoreError::invalid(
                "sorteio",
                format!("a lista do sorteio nº {} já está fechada", draw.label()),
            ));
        }
        if draw.participants.is_empty() {
            return Err(StoreError::invalid(
                "sorteio",
                "ninguém se inscreveu: inscreva ao menos um interessado antes de fechar a lista",
            ));
        }
        may_close(today, draw.seed_on).map_err(|r| StoreError::invalid("data_semente", r))?;
        let labels: Vec<&str> = draw.participants.iter().map(|p| p.label.as_str()).collect();
        let hash = list_hash(&labels);
        sqlx::query(
            "UPDATE draws SET status = 'closed', closed_on = $4, list_hash = $5 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(today.to_string())
        .bind(&hash)
        .execute(&mut *tx)
        .await?;
        self.finish(
            tx,
            change,
            (jurisdiction, key),
            (
                "draw.close",
                serde_json::json!({ "participants": labels, "list_hash": hash }),
                vec![draw_row(jurisdiction, key)],
            ),
        )
        .await
    }

    /// Draws `key` with `seed`, the numbers its public source gave: each
    /// participant's ticket and position, published; the winners take the
    /// stand's places free today, in the order drawn, each leaving the
    /// stand it held. A draw already drawn is never drawn again.
    pub async fn run_draw(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        seed: &str,
    ) -> Result<Draw, StoreError> {
        let seed = required("semente", seed, TextKind::Name)?.to_string();
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let draw = read(&mut tx, jurisdiction, key).await?;
        match draw.status {
            DrawStatus::Drawn => {
                return Err(StoreError::invalid(
                    "sorteio",
                    format!(
                        "o sorteio nº {} foi realizado em {} com a semente «{}» e seu resultado \
                         publicado: um sorteio não se refaz (recorra do resultado, se for o caso)",
                        draw.label(),
                        draw.drawn_on.map_or(String::new(), crate::words::day),
                        draw.seed.as_deref().unwrap_or_default()
                    ),
                ));
            }
            DrawStatus::Open => {
                return Err(StoreError::invalid(
                    "sorteio",
                    "feche e publique a lista de participantes antes de sortear",
                ));
            }
            DrawStatus::Closed => {}
        }
        may_draw(today, draw.seed_on).map_err(|r| StoreError::invalid("semente", r))?;
        let labels: Vec<&str> = draw.participants.iter().map(|p| p.label.as_str()).collect();
        let (order, mut detail, mut rows) = match draw.purpose {
            DrawPurpose::StandVacancy => {
                fill_vacancies(&mut tx, change, rulebook, (&draw, &labels), &seed, today).await?
            }
            DrawPurpose::CallTie => {
                let order = public_draw::order(&seed, &labels)?;
                let order: Vec<(String, String)> = order
                    .into_iter()
                    .map(|(label, ticket)| (label.to_string(), ticket))
                    .collect();
                let detail = serde_json::json!({ "order": order, "articles": draw.articles });
                (order, detail, Vec::new())
            }
        };
        detail["seed"] = serde_json::json!(seed);
        detail["algorithm"] = serde_json::json!(public_draw::ALGORITHM);
        rows.push(draw_row(jurisdiction, key));
        for (position, (label, ticket)) in order.iter().enumerate() {
            let participant = draw
                .participants
                .iter()
                .find(|p| p.label == *label)
                .ok_or_else(|| StoreError::Corrupt(format!("draw participant {label}")))?;
            sqlx::query(
                "UPDATE draw_participants SET ticket = $5, position = $6 WHERE jurisdiction = $1 \
                 AND year = $2 AND number = $3 AND seq = $4",
            )
            .bind(jurisdiction)
            .bind(i64::from(key.0))
            .bind(key.1)
            .bind(participant.seq)
            .bind(ticket)
            .bind(i64::try_from(position + 1).unwrap_or(i64::MAX))
            .execute(&mut *tx)
            .await?;
            rows.push(RowRef::new(
                "draw_participants",
                [
                    jurisdiction.into(),
                    key.0.into(),
                    key.1.into(),
                    participant.seq.into(),
                ],
            ));
        }
        sqlx::query(
            "UPDATE draws SET status = 'drawn', seed = $4, drawn_on = $5, drawn_by = $6 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(&seed)
        .bind(today.to_string())
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        self.finish(tx, change, (jurisdiction, key), ("draw.run", detail, rows))
            .await
    }

    /// Records `appellant`'s appeal against the result of the draw of
    /// `key` (a participant), with its grounds.
    pub async fn appeal_draw(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        key: (i32, i64),
        (appellant, grounds): (&str, &str),
    ) -> Result<Draw, StoreError> {
        let (appellant, _) = crate::parse_document(appellant)?;
        let grounds = written("fundamentos", grounds, "as razões do recurso")?;
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let draw = read(&mut tx, jurisdiction, key).await?;
        if draw.status != DrawStatus::Drawn {
            return Err(StoreError::invalid(
                "sorteio",
                format!(
                    "o sorteio nº {} ainda não tem resultado: recorre-se do resultado publicado",
                    draw.label()
                ),
            ));
        }
        if !draw.participants.iter().any(|p| p.who == appellant) {
            return Err(StoreError::invalid(
                "recorrente",
                format!(
                    "{} não participou do sorteio nº {}: recorre quem dele participou",
                    crate::words::document(&appellant),
                    draw.label()
                ),
            ));
        }
        let seq = i64::try_from(draw.appeals.len()).unwrap_or(i64::MAX) + 1;
        sqlx::query(
            "INSERT INTO draw_appeals (jurisdiction, year, number, seq, appellant, filed_on, \
             grounds, status, decided_on, decision, decided_by, recorded_by) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'filed', NULL, NULL, NULL, $8)",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(seq)
        .bind(&appellant)
        .bind(today.to_string())
        .bind(&grounds)
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        self.finish(
            tx,
            change,
            (jurisdiction, key),
            (
                "draw.appeal",
                serde_json::json!({ "appellant": appellant, "grounds": grounds }),
                vec![RowRef::new(
                    "draw_appeals",
                    [jurisdiction.into(), key.0.into(), key.1.into(), seq.into()],
                )],
            ),
        )
        .await
    }

    /// Decides the appeal `seq` against the draw of `key`: granted or not,
    /// with the decision's words. The draw itself is not drawn again; what
    /// a granted appeal orders (a new draw, a place) is done by its own act.
    pub async fn decide_draw_appeal(
        &self,
        change: &Change<'_>,
        rulebook: &Rulebook,
        jurisdiction: &str,
        (key, seq): ((i32, i64), i64),
        (granted, decision): (bool, &str),
    ) -> Result<Draw, StoreError> {
        let decision = written("decisao", decision, "a decisão e seus fundamentos")?;
        let today = rulebook.jurisdiction.today(change.at);
        let (mut tx, _writer) = self.write_transaction().await?;
        let draw = read(&mut tx, jurisdiction, key).await?;
        let appeal = draw.appeals.iter().find(|a| a.seq == seq).ok_or_else(|| {
            StoreError::NotFound(format!(
                "não há recurso nº {seq} contra o sorteio nº {}",
                draw.label()
            ))
        })?;
        undecided(appeal.status, seq)?;
        let status = if granted {
            AppealStatus::Granted
        } else {
            AppealStatus::Denied
        };
        sqlx::query(
            "UPDATE draw_appeals SET status = $5, decided_on = $6, decision = $7, decided_by = $8 \
             WHERE jurisdiction = $1 AND year = $2 AND number = $3 AND seq = $4",
        )
        .bind(jurisdiction)
        .bind(i64::from(key.0))
        .bind(key.1)
        .bind(seq)
        .bind(status.name())
        .bind(today.to_string())
        .bind(&decision)
        .bind(change.by)
        .execute(&mut *tx)
        .await?;
        self.finish(
            tx,
            change,
            (jurisdiction, key),
            (
                "draw.appeal_decision",
                serde_json::json!({ "appeal": seq, "status": status.name(), "decision": decision }),
                vec![RowRef::new(
                    "draw_appeals",
                    [jurisdiction.into(), key.0.into(), key.1.into(), seq.into()],
                )],
            ),
        )
        .await
    }

    /// The draw of `key`, with its participants and appeals.
    pub async fn draw(&self, jurisdiction: &str, key: (i32, i64)) -> Result<Draw, StoreError> {
        let mut tx = self.pool.begin().await?;
        let draw = read(&mut tx, jurisdiction, key).await?;
        tx.commit().await?;
        Ok(draw)
    }

    /// A page of the draws of `jurisdiction`, newest first (without their
    /// participants).
    pub async fn draws(
        &self,
        jurisdiction: &str,
        window: Window<'_>,
    ) -> Result<Page<Draw>, StoreError> {
        let rows = Filter::default().always("jurisdiction = $?", text(jurisdiction));
        listing::page(&self.pool, &LISTED, &rows, window, draw_of).await
    }
}
