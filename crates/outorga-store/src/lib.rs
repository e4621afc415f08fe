//! The system of record. One code path for both backends through sqlx's `Any`
//! driver: SQLite by default (a file in a data directory, WAL, created and
//! migrated on first open) or PostgreSQL for a `postgres://` URL. Queries use
//! `$N` placeholders and portable SQL; the migrations are embedded.

#[macro_use]
mod worded;

mod agenda;
pub mod applied_law;
mod attachments;
mod audit;
mod audit_list;
mod auto_record;
mod autos;
pub mod brl;
mod call_results;
mod calls;
mod carrier_data;
mod carrier_registrations;
mod charters;
mod checks;
mod citizen_space;
mod citizens;
mod company_ties;
mod complaint_trip;
mod complaints;
mod crew;
mod custody;
mod dates;
mod debts;
mod delegation_bar;
mod demo;
mod documents;
mod draws;
mod fees;
mod fleet;
mod grant_preview;
mod hashing;
mod import;
mod line_operations;
mod lines;
mod listing;
mod maintenance;
mod open_data;
mod panel_stats;
mod papers;
mod parameters;
mod password_policy;
mod people;
mod permit_life;
mod permit_status;
mod permits;
mod petitions;
mod process;
mod process_options;
mod profile;
mod refunds;
mod relocation_notice;
mod reminders;
mod requirements;
mod returns;
mod revenue;
mod search;
mod sign_ins;
mod slips;
mod stand_leave;
mod stand_notices;
mod stand_places;
mod stand_swaps;
mod stands;
mod text;
mod units;
mod users;
mod vehicles;
pub mod words;
mod world;

pub use agenda::{AgendaItem, record_name};
pub use attachments::{Attachment, StoredFile, content_type as attachment_type};
pub use audit::checkpoint::{Checkpoint, CheckpointCheck, CheckpointError};
use audit::images::RowRef;
pub use audit::key::{AuditKey, AuditKeys};
pub use audit::seal::SealReport;
pub use audit::verify::{AuditProblem, AuditReport};
pub use audit::{AuditEntry, Change};
pub use audit_list::{AuditFilter, LoggedChange};
pub use auto_record::{Auto, Proposal, ProposedSanction};
pub use autos::{AutoFilter, AutoInput};
pub use calls::{
    ApplicationInput, Call, CallAppeal, CallApplication, CallCriterion, CallDocument, CallInput,
    CallPlace, CallPlaces, CallStatus, ClaimResult, CriterionPoints, Missing, Outcome,
    ScreeningResult, Shown,
};
pub use carrier_data::statistics::CSV_COLUMNS as STATISTICS_COLUMNS;
pub use carrier_data::tickets::CSV_COLUMNS as TICKET_COLUMNS;
pub use carrier_data::{
    CarrierFile, CarrierFileKind, FindingRow, LineMonth, MAX_FILE_BYTES as MAX_CARRIER_FILE_BYTES,
    MonthView, Refusal,
};
pub use carrier_registrations::{
    CarrierRegistration, MAX_BYTES as REGISTRATION_MAX_BYTES, MAX_FILES as REGISTRATION_MAX_FILES,
    RegistrationDocument, RegistrationFile, RegistrationFileKind, RegistrationStatus,
};
pub use charters::{
    Charter, CharterDocument, CharterFile, CharterFileKind, CharterInput,
    MAX_BYTES as CHARTER_MAX_BYTES, MAX_FILES as CHARTER_MAX_FILES, MAX_PASSENGERS, Passenger,
};
pub use checks::{Held, PlateCheck};
pub use citizen_space::{PointLimit, PointsStanding};
pub use citizens::{
    AccessCode, CODE_DAYS, CitizenSession, FirstAccess, actor as citizen_actor, cpf as parse_cpf,
};
pub use company_ties::{CompanyTies, Member, parse_share};
pub use complaint_trip::{ClaimVerdict, TripAnswer, TripComplaint, TripFacts};
pub use complaints::{Complaint, ComplaintInput, ComplaintKind, ComplaintStatus, Handling};
pub use crew::{Driver, DriverAdded, role_pt as driver_role_pt};
pub use custody::{Custody, CustodyExpense, CustodyInput, CustodyView, ExpenseInput, ReleaseCheck};
pub use dates::parse_month;
pub use debts::{Debt, DebtFilter, Due, Means, Origin, Payment, PaymentInput};
pub use demo::bus::{
    CARRIER as DEMO_CARRIER, LINE as DEMO_LINE, last_month, ticket_file as demo_ticket_file,
};
pub use demo::{DemoReport, demo_holder};
pub use documents::{Document, DocumentFilter, kind_name as document_kind_name};
pub use draws::{AppealStatus, Draw, DrawAppeal, DrawInput, DrawPurpose, DrawStatus, Participant};
pub use fees::FeeCharge;
pub use fleet::{Inspection, InspectionRow, VehicleIncluded};
pub use grant_preview::{
    Applicant, CapState, CapView, CheckState, ChecklistItem, GrantPreview, ShareView,
    VehiclePreview,
};
pub use hashing::{HashingLimits, HashingPeak};
pub use import::jobs::{BEAT_TIMEOUT_SECONDS, ImportJob, JobState as ImportJobState};
pub use import::table::read as read_import_file;
pub use import::{
    Column as ImportColumn, ImportKind, ImportReport, ImportRequest, Outcome as ImportOutcome,
    RowOutcome, Table as ImportTable, check_header as check_import_header, cnh_categories,
};
pub use line_operations::{
    Operation, OperationDecision, OperationInput, OperationSource, OperationStatus, ServiceLevel,
    WEEKDAYS,
};
pub use lines::{Line, Section, parse_coefficient};
pub use listing::{Cursor, KeyValue, Page, Window};
pub use open_data::{Column, ColumnType, DATASETS, Dataset, csv_of};
pub use panel_stats::{FleetAges, MonthCount, WeekCount};
pub use papers::{KeptFile, PaperFormat, PaperOf, sha256_hex};
pub use parameters::{ParameterAct, settable as settable_parameter, tariff_parameters};
pub use password_policy::{MAX_PASSWORD_CHARS, MIN_PASSWORD_CHARS, check_password};
pub use people::{Kind, Registered, parse_document};
pub use permit_life::PermitChange;
pub use permit_status::event_pt;
pub use permits::{GrantRequest, Granted, HistoryStep, PermitFilter, PermitRecord, status_pt};
pub use petitions::{
    MAX_BYTES as PETITION_MAX_BYTES, MAX_FILES as PETITION_MAX_FILES, Petition, PetitionFile,
    PetitionInput, PetitionKind, PetitionStatus,
};
pub use process::{ProcessStep, status_pt as auto_status_pt};
pub use process_options::{AppealTo, ProcessOptions, RunningLimit, StepOption, TakenStep};
pub use profile::{Cnh, Profile, check_profile, parse_cnh_number};
pub use refunds::{Refund, RefundGround};
pub use reminders::{LEADS as REMINDER_LEADS, Message, Outgoing, Site};
pub use requirements::ToCheck;
pub use returns::ReturnReport;
pub use revenue::{MonthRevenue, Overdue, overdue_csv, revenue_csv};
pub use search::{Found, words as search_words};
pub use sign_ins::{
    Attempt, AttemptFilter, FAILURES_PER_CLIENT, FAILURES_PER_NAME, FAILURES_PER_NAME_EVERYWHERE,
    SignIn, WINDOW_SECONDS,
};
pub use slips::{PaymentSettings, Slip};
use sqlx::any::{AnyPoolOptions, install_default_drivers};
use sqlx::{AnyPool, Row};
pub use stand_notices::{NoticeInput, StandNotice};
pub use stand_places::{CameBy, Designation, HolderRequest, LeftBy, StandOccupancy, StandPlace};
pub use stand_swaps::{StandSwap, SwapRequest, SwapStatus};
pub use stands::Stand;
use std::path::Path;
pub use text::{TextKind, hidden_character, hidden_reason};
pub use units::{Correction, NewValue, UnitEntry, UnitHistory, UnitValue};
pub use users::{
    ACTIVITY_STEP_SECONDS, Activity, MAX_LABEL_CHARS, MAX_TOKEN_DAYS, MAX_USER_NAME_CHARS, Role,
    Scope, Session, TokenInfo, User,
};
pub use vehicles::{Vehicle, parse_plate, parse_renavam};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// A transaction on either backend.
pub(crate) type Tx = sqlx::Transaction<'static, sqlx::Any>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open the database `{url}`: {source}")]
    Open { url: String, source: sqlx::Error },
    #[error("cannot create the data directory `{path}`: {source}")]
    DataDir {
        path: String,
        source: std::io::Error,
    },
    #[error("the database schema could not be brought up to date: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("`{0}` is not a database URL: use sqlite://<file> or postgres://<host>/<db>")]
    Url(String),
    /// What was asked for is not recorded.
    #[error("{0}")]
    NotFound(String),
    /// The engine could not answer (a rulebook that lacks what was asked).
    #[error("{0}")]
    Engine(String),
    /// A record that does not read back (edited outside the store).
    #[error("corrupt record: {0}")]
    Corrupt(String),
    /// The law refuses the request: why, and the articles it rests on.
    #[error("{reason} ({})", articles.join("; "))]
    Refused {
        reason: String,
        articles: Vec<String>,
    },
    /// Bad input: the field and the reason, in Portuguese (shown to clerks).
    #[error("{field}: {reason}")]
    Invalid { field: &'static str, reason: String },
    /// A row is not what the audit log last recorded of it (edited outside
    /// outorga): the write was refused.
    #[error("{0}")]
    Tampered(String),
    /// The record is already there (a unique key): the field and the reason.
    #[error("{field}: {reason}")]
    Taken { field: &'static str, reason: String },
    /// Too many passwords are being checked at once: try again in a moment.
    #[error("too many passwords being checked at once")]
    Busy,
}

impl StoreError {
    /// Bad input in `field`, and why.
    pub(crate) fn invalid(field: &'static str, reason: impl Into<String>) -> StoreError {
        StoreError::Invalid {
            field,
            reason: reason.into(),
        }
    }

    /// The field and the reason of bad input (invalid or already taken).
    pub fn bad_input(&self) -> Option<(&'static str, &str)> {
        match self {
            StoreError::Invalid { field, reason } | StoreError::Taken { field, reason } => {
                Some((field, reason))
            }
            _ => None,
        }
    }
}

/// The engine could not answer (a rulebook that lacks what was asked).
impl From<outorga_core::EngineError> for StoreError {
    fn from(e: outorga_core::EngineError) -> StoreError {
        StoreError::Engine(e.to_string())
    }
}

/// The law refuses: its reason and the articles it rests on.
impl From<outorga_core::engine::process::Refusal> for StoreError {
    fn from(refusal: outorga_core::engine::process::Refusal) -> StoreError {
        StoreError::Refused {
            reason: refusal.reason,
            articles: refusal.citations,
        }
    }
}

/// The articles an answer rests on, each once, in the order first cited.
pub(crate) fn articles(list: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for a in list {
        if !out.iter().any(|known| known == a) {
            out.push(a.to_string());
        }
    }
    out
}

/// Which database a store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A jurisdiction and the rulebooks it is bound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Jurisdiction {
    pub id: String,
    pub name: String,
    pub state: String,
    pub rulebooks: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    backend: Backend,
    /// The audit keys and the audited tables.
    audit: std::sync::Arc<audit::Audit>,
    /// SQLite has one writer at a time; writers of this process queue here
    /// (woken in turn) instead of polling SQLite's lock with sleeps.
    writer: std::sync::Arc<tokio::sync::Mutex<()>>,
    /// The bounded queue every password hash goes through.
    hashing: std::sync::Arc<hashing::Hashing>,
}

/// This process's turn to write (SQLite), held until the transaction ends.
#[derive(Debug)]
pub(crate) struct WriterTurn {
    _turn: Option<tokio::sync::OwnedMutexGuard<()>>,
}

/// The SQLite database in `dir`. A missing folder is created readable by
/// its owner only (0700), and a missing database file too (0600, empty:
/// SQLite makes a database of it); SQLite gives its `-wal` and `-shm` files
/// the database file's mode.
pub fn sqlite_url(dir: &Path) -> Result<String, StoreError> {
    let data_dir = |source| StoreError::DataDir {
        path: dir.display().to_string(),
        source,
    };
    let mut folder = std::fs::DirBuilder::new();
    folder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut folder, 0o700);
    folder.create(dir).map_err(data_dir)?;
    let file = dir.join("outorga.db");
    match private_file(&file) {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(data_dir(e)),
    }
    Ok(format!("sqlite://{}?mode=rwc", file.display()))
}

/// Creates `path`, empty and readable by its owner only (0600); fails if
/// it exists.
pub fn private_file(path: &Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    options.open(path)
}

impl Store {
    /// Opens (creating and migrating if needed) the database at `url`,
    /// sealing its audit log with `keys`; a database sealed with another key
    /// is refused. Call [`Store::seal`] next (the CLI does) to seal a log
    /// written before the key and describe tables the log does not.
    pub async fn open(url: &str, keys: AuditKeys) -> Result<Store, StoreError> {
        let limits = HashingLimits::from_env()?;
        install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::Url(url.to_string()));
        };
        let mut options = AnyPoolOptions::new().max_connections(8);
        if backend == Backend::Postgres {
            options = options.max_lifetime(maintenance::PLANS_LIFETIME);
        }
        let pool = options
            .after_connect(move |conn, _| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        sqlx::query("PRAGMA foreign_keys = ON")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA busy_timeout = 5000")
                            .execute(&mut *conn)
                            .await?;
                        sqlx::query("PRAGMA synchronous = NORMAL")
                            .execute(&mut *conn)
                            .await?;
                    }
                    Ok(())
                })
            })
            .connect(url)
            .await
            .map_err(|source| StoreError::Open {
                url: url.to_string(),
                source,
            })?;
        if backend == Backend::Sqlite {
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await?;
        }
        let before = maintenance::applied(&pool, &MIGRATOR.table_name).await?;
        MIGRATOR.run(&pool).await?;
        if maintenance::applied(&pool, &MIGRATOR.table_name).await? > before {
            search::index_people(&pool).await?;
            maintenance::analyze(&pool, backend).await?;
        }
        let key_id: String = sqlx::query("SELECT key_id FROM audit_head WHERE id = 1")
            .fetch_one(&pool)
            .await?
            .try_get("key_id")?;
        if !key_id.is_empty() && key_id != keys.current().id() {
            return Err(audit::seal::wrong_key(&key_id, &keys.current().id()));
        }
        let schema = audit::schema::Schema::read(&pool, backend).await?;
        Ok(Store {
            pool,
            backend,
            audit: std::sync::Arc::new(audit::Audit { keys, schema }),
            writer: std::sync::Arc::new(tokio::sync::Mutex::new(())),
            hashing: hashing::Hashing::new(limits),
        })
    }

    /// The same store with another password queue.
    pub fn with_hashing(self, limits: HashingLimits) -> Store {
        Store {
            hashing: hashing::Hashing::new(limits),
            ..self
        }
    }

    /// The most password hashes that ran, and that were admitted, at once.
    pub fn hashing_peak(&self) -> HashingPeak {
        self.hashing.peak()
    }

    /// Whether the jurisdiction `id` is recorded.
    pub async fn has_jurisdiction(&self, id: &str) -> Result<bool, StoreError> {
        let known = sqlx::query("SELECT 1 AS one FROM jurisdictions WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(known.is_some())
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A transaction that will write: on SQLite it takes the write lock at
    /// the start (`BEGIN IMMEDIATE`), so a transaction that reads before it
    /// writes waits its turn instead of failing when another one wrote first.
    async fn write_transaction(&self) -> Result<(Tx, WriterTurn), StoreError> {
        Ok(match self.backend {
            Backend::Sqlite => {
                let turn = self.writer.clone().lock_owned().await;
                let tx = self.pool.begin_with("BEGIN IMMEDIATE").await?;
                (tx, WriterTurn { _turn: Some(turn) })
            }
            Backend::Postgres => (self.pool.begin().await?, WriterTurn { _turn: None }),
        })
    }

    /// Refuses a write to a jurisdiction the database does not know.
    async fn known_jurisdiction(&self, tx: &mut Tx, jurisdiction: &str) -> Result<(), StoreError> {
        let known = sqlx::query("SELECT 1 AS one FROM jurisdictions WHERE id = $1")
            .bind(jurisdiction)
            .fetch_optional(&mut **tx)
            .await?;
        if known.is_none() {
            return Err(StoreError::Invalid {
                field: "jurisdição",
                reason: format!("`{jurisdiction}` não está cadastrada (outorga db init)"),
            });
        }
        Ok(())
    }

    /// Records the jurisdictions and their rulebooks, replacing what was
    /// recorded for each (one transaction: all or nothing). A jurisdiction
    /// recorded as it is now is left alone (no audit entry).
    pub async fn sync_jurisdictions(
        &self,
        change: &Change<'_>,
        list: &[Jurisdiction],
    ) -> Result<(), StoreError> {
        let recorded = self.jurisdictions().await?;
        let (mut tx, _writer) = self.write_transaction().await?;
        for j in list {
            let before = recorded.iter().find(|known| known.id == j.id);
            if before == Some(j) {
                continue;
            }
            audit::guard::unchanged(
                &mut tx,
                &self.audit.schema,
                &[RowRef::new("jurisdictions", [(&j.id).into()])],
            )
            .await?;
            audit::guard::unchanged_where(
                &mut tx,
                &self.audit.schema,
                "jurisdiction_rulebooks",
                "jurisdiction = $1",
                &[(&j.id).into()],
            )
            .await?;
            sqlx::query("DELETE FROM jurisdiction_rulebooks WHERE jurisdiction = $1")
                .bind(&j.id)
                .execute(&mut *tx)
                .await?;
            sqlx::query(
                "INSERT INTO jurisdictions (id, name, state) VALUES ($1, $2, $3) \
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name, state = excluded.state",
            )
            .bind(&j.id)
            .bind(&j.name)
            .bind(&j.state)
            .execute(&mut *tx)
            .await?;
            for rulebook in &j.rulebooks {
                sqlx::query(
                    "INSERT INTO jurisdiction_rulebooks (jurisdiction, rulebook) VALUES ($1, $2)",
                )
                .bind(&j.id)
                .bind(rulebook)
                .execute(&mut *tx)
                .await?;
            }
            let bound = before
                .map(|b| b.rulebooks.iter())
                .into_iter()
                .flatten()
                .chain(&j.rulebooks)
                .map(|r| RowRef::new("jurisdiction_rulebooks", [(&j.id).into(), r.into()]));
            audit::append(
                &mut tx,
                &self.audit,
                change,
                audit::Entry {
                    action: "jurisdiction.sync",
                    jurisdiction: Some(&j.id),
                    subject: &format!("jurisdiction:{}", j.id),
                    detail: serde_json::json!({ "name": j.name, "state": j.state, "rulebooks": j.rulebooks }),
                    rows: std::iter::once(RowRef::new("jurisdictions", [(&j.id).into()]))
                        .chain(bound)
                        .collect(),
                },
            )
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Every jurisdiction with its rulebooks, by id.
    pub async fn jurisdictions(&self) -> Result<Vec<Jurisdiction>, StoreError> {
        let rows = sqlx::query(
            "SELECT j.id, j.name, j.state, r.rulebook FROM jurisdictions j \
             LEFT JOIN jurisdiction_rulebooks r ON r.jurisdiction = j.id \
             ORDER BY j.id, r.rulebook",
        )
        .fetch_all(&self.pool)
        .await?;
        let mut out: Vec<Jurisdiction> = Vec::new();
        for row in rows {
            let id: String = row.try_get("id")?;
            let rulebook: Option<String> = row.try_get("rulebook")?;
            if out.last().is_none_or(|j| j.id != id) {
                out.push(Jurisdiction {
                    id,
                    name: row.try_get("name")?,
                    state: row.try_get("state")?,
                    rulebooks: Vec::new(),
                });
            }
            if let (Some(rulebook), Some(last)) = (rulebook, out.last_mut()) {
                last.rulebooks.push(rulebook);
            }
        }
        Ok(out)
    }
}

/// The jurisdictions by id (the primary key).
const JURISDICTIONS: listing::List = listing::List {
    name: "jurisdictions",
    table: "jurisdictions",
    columns: "id, name, state",
    key: &[("id", listing::Kind::Text)],
    descending: false,
};

impl Store {
    /// A page of the jurisdictions a user with `scope` may act in, by id,
    /// each with its rulebooks.
    pub async fn jurisdiction_page(
        &self,
        scope: &Scope,
        window: Window<'_>,
    ) -> Result<Page<Jurisdiction>, StoreError> {
        let rows = match scope {
            Scope::All => listing::Filter::default(),
            Scope::Only(own) => listing::Filter::default().any_of(
                "id = $?",
                own.iter().map(|j| listing::text(j.as_str())).collect(),
            ),
        };
        let mut tx = self.pool.begin().await?;
        let mut page = listing::page(&mut *tx, &JURISDICTIONS, &rows, window, |row| {
            Ok(Jurisdiction {
                id: row.try_get("id")?,
                name: row.try_get("name")?,
                state: row.try_get("state")?,
                rulebooks: Vec::new(),
            })
        })
        .await?;
        for j in &mut page.items {
            j.rulebooks = sqlx::query(
                "SELECT rulebook FROM jurisdiction_rulebooks WHERE jurisdiction = $1 ORDER BY rulebook",
            )
            .bind(&j.id)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| row.try_get("rulebook"))
            .collect::<Result<_, _>>()?;
        }
        tx.commit().await?;
        Ok(page)
    }
}

/// A write that lost on a unique key (someone registered it first) is bad
/// input with `field` and `reason`; any other error stays a database error.
pub(crate) fn refused_if_taken(
    error: sqlx::Error,
    field: &'static str,
    reason: String,
) -> StoreError {
    match error.as_database_error() {
        Some(db) if db.is_unique_violation() => StoreError::Taken { field, reason },
        _ => StoreError::Sql(error),
    }
}

/// A day on which something was done: not after `today` and not before 1950.
pub(crate) fn done_on(
    field: &'static str,
    on: chrono::NaiveDate,
    today: chrono::NaiveDate,
) -> Result<(), StoreError> {
    if on > today {
        return Err(StoreError::Invalid {
            field,
            reason: format!("{on} é depois de hoje ({today}): registre o que já aconteceu"),
        });
    }
    if chrono::Datelike::year(&on) < 1950 {
        return Err(StoreError::Invalid {
            field,
            reason: format!("{on} é anterior a 1950: confira a data"),
        });
    }
    Ok(())
}

/// A record's code (upper case) and name, both required text.
fn code_and_name(code: &str, name: &str) -> Result<(String, String), StoreError> {
    let code = text::required("código", code, TextKind::Code)?.to_uppercase();
    let name = text::required("nome", name, TextKind::Name)?.to_string();
    Ok((code, name))
}

/// A day on which something was done under `rulebook`: as [`done_on`], and
/// not before the law came into force (a case is judged by the law of its
/// day). The version of the law in force that day, which judges it.
pub(crate) fn under_law<'r>(
    field: &'static str,
    on: chrono::NaiveDate,
    change: &Change<'_>,
    rulebook: &'r outorga_core::model::Rulebook,
) -> Result<&'r outorga_core::model::Rulebook, StoreError> {
    let version = rulebook.in_force_on(on).map_err(|e| StoreError::Invalid {
        field,
        reason: e.to_string(),
    })?;
    done_on(field, on, rulebook.jurisdiction.today(change.at))?;
    Ok(version)
}

impl Store {
    /// Writes a consistent copy of a SQLite database to `path` (`VACUUM
    /// INTO`: readers and writers go on meanwhile), a file readable by its
    /// owner only (0600). PostgreSQL is backed up with its own tool
    /// (`pg_dump`), which the CLI runs.
    pub async fn backup_sqlite(&self, path: &Path) -> Result<(), StoreError> {
        if self.backend != Backend::Sqlite {
            return Err(StoreError::Invalid {
                field: "banco",
                reason: "a cópia de PostgreSQL é feita com pg_dump".into(),
            });
        }
        // VACUUM INTO writes into an empty file, keeping its mode.
        private_file(path).map_err(|e| StoreError::Invalid {
            field: "destino",
            reason: if e.kind() == std::io::ErrorKind::AlreadyExists {
                format!("{} já existe: escolha outro arquivo", path.display())
            } else {
                format!("não foi possível criar {}: {e}", path.display())
            },
        })?;
        let copied = sqlx::query("VACUUM INTO $1")
            .bind(path.display().to_string())
            .execute(&self.pool)
            .await;
        if let Err(e) = copied {
            // No half-written copy is left behind.
            let _ = std::fs::remove_file(path);
            return Err(e.into());
        }
        Ok(())
    }
}
