//! A department's existing records brought in from its files: holders,
//! drivers, vehicles and permits in force, each row written through the
//! store's own functions in its own transaction (a bad row never half-writes
//! and never stops the others), every write audited as imported from the
//! file and line. The header is checked against the kind before any row is
//! read. A dry run takes every row the same way inside one transaction, each
//! in a savepoint, and rolls it all back: it reports what a real run would,
//! rows that conflict with earlier rows of the same file included.
//!
//! Permits are recorded as they are (the cap and eligibility of a new grant
//! do not apply to what already exists), with the law's transitional rules
//! (`engine::transition`, the rulebook's `[[transitional]]`) applied: the
//! validity they give, the duties and time limits they set, in the permit's
//! history and the row's outcome.

mod enforcement;
pub mod jobs;
pub mod table;

use crate::audit::images::RowRef;
use crate::audit::{Change, next_number};
use crate::permits::{PermitStep, bound, step};
use crate::{Cnh, Profile, Store, StoreError, Tx, Vehicle};
use chrono::NaiveDate;
use outorga_core::engine::transition::{Existing, existing_permit};
use outorga_core::model::{PermitStatus, Rulebook, Service};
use sqlx::Row;
pub use table::Table;
use unicode_normalization::UnicodeNormalization;

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportKind {
    Holders,
    Drivers,
    Vehicles,
    Permits,
    Autos,
    Debts,
}

/// A column of a kind of file: its name as the header writes it (compared
/// without accents or case) and whether every row must fill it.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub required: bool,
}

const fn col(name: &'static str, required: bool) -> Column {
    Column { name, required }
}

const PEOPLE: &[Column] = &[
    col("documento", true),
    col("nome", true),
    col("nascimento", false),
    col("residente_desde", false),
    col("cnh_numero", false),
    col("cnh_categorias", false),
    col("cnh_validade", false),
    col("endereco", false),
    col("telefone", false),
    col("email", false),
    col("cnh_atividade_remunerada", false),
];

const VEHICLES: &[Column] = &[
    col("placa", true),
    col("renavam", true),
    col("ano", true),
    col("cor", false),
    col("portas", false),
    col("lotacao", false),
    col("marca", false),
    col("modelo", false),
];

const PERMITS: &[Column] = &[
    col("servico", true),
    col("numero", true),
    col("titular", true),
    col("situacao", false),
    col("outorgada_em", true),
    col("validade", false),
    col("encerrada_em", false),
    col("placa", false),
    col("condutores", false),
    col("cota", false),
    col("linha", false),
];

const AUTOS: &[Column] = &[
    col("ano", true),
    col("numero", true),
    col("infracao", true),
    col("autuado", true),
    col("servico", false),
    col("permissao", false),
    col("placa", false),
    col("cometida_em", true),
    col("local", true),
    col("descricao", true),
    col("agente", false),
    col("situacao", true),
    col("notificado_em", false),
    col("defesa_em", false),
    col("julgado_em", false),
    col("decisao_notificada_em", false),
    col("recorrido_em", false),
    col("definitivo_em", false),
    col("mantido", false),
    col("multa", false),
];

const DEBTS: &[Column] = &[
    col("ano", true),
    col("numero", true),
    col("valor", false),
    col("unidade", false),
    col("emitido_em", false),
    col("vencimento", false),
    col("parcelas", false),
    col("pagamentos", false),
];

impl ImportKind {
    pub const ALL: [ImportKind; 6] = [
        ImportKind::Holders,
        ImportKind::Drivers,
        ImportKind::Vehicles,
        ImportKind::Permits,
        ImportKind::Autos,
        ImportKind::Debts,
    ];

    /// The name in the CLI and the form (`holders`, …).
    pub fn name(self) -> &'static str {
        match self {
            ImportKind::Holders => "holders",
            ImportKind::Drivers => "drivers",
            ImportKind::Vehicles => "vehicles",
            ImportKind::Permits => "permits",
            ImportKind::Autos => "autos",
            ImportKind::Debts => "debts",
        }
    }

    pub fn parse(text: &str) -> Option<ImportKind> {
        ImportKind::ALL.into_iter().find(|k| k.name() == text)
    }

    /// The kind as clerks read it.
    pub fn portuguese(self) -> &'static str {
        match self {
            ImportKind::Holders => "titulares",
            ImportKind::Drivers => "condutores",
            ImportKind::Vehicles => "veículos",
            ImportKind::Permits => "permissões",
            ImportKind::Autos => "autos de infração",
            ImportKind::Debts => "débitos",
        }
    }

    /// The columns of its header.
    pub fn columns(self) -> &'static [Column] {
        match self {
            ImportKind::Holders | ImportKind::Drivers => PEOPLE,
            ImportKind::Vehicles => VEHICLES,
            ImportKind::Permits => PERMITS,
            ImportKind::Autos => AUTOS,
            ImportKind::Debts => DEBTS,
        }
    }
}

/// A header's text as it is compared: lower case, no accents, words joined
/// by `_`.
fn folded(text: &str) -> String {
    let plain: String = text
        .nfd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect();
    plain
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// Where each of a kind's columns is in a file.
#[derive(Debug, Clone)]
pub struct Header {
    kind: ImportKind,
    places: Vec<Option<usize>>,
    /// How many cells the header has.
    kind_width: usize,
}

/// The header of `table` read as a file of `kind`: refused at once, naming
/// the columns expected, the ones missing and the ones unknown, when it is
/// not one.
pub fn check_header(kind: ImportKind, header: &[String]) -> Result<Header, StoreError> {
    let columns = kind.columns();
    let names: Vec<String> = header.iter().map(|h| folded(h)).collect();
    let unknown: Vec<&str> = header
        .iter()
        .zip(&names)
        .filter(|(_, n)| !n.is_empty() && !columns.iter().any(|c| c.name == n.as_str()))
        .map(|(h, _)| h.as_str())
        .collect();
    let missing: Vec<&str> = columns
        .iter()
        .filter(|c| c.required && !names.iter().any(|n| n == c.name))
        .map(|c| c.name)
        .collect();
    let repeated: Vec<&str> = columns
        .iter()
        .filter(|c| names.iter().filter(|n| *n == c.name).count() > 1)
        .map(|c| c.name)
        .collect();
    if !unknown.is_empty() || !missing.is_empty() || !repeated.is_empty() {
        let mut problems = Vec::new();
        if !missing.is_empty() {
            problems.push(format!("faltam as colunas {}", missing.join(", ")));
        }
        if !unknown.is_empty() {
            problems.push(format!("colunas desconhecidas: {}", unknown.join(", ")));
        }
        if !repeated.is_empty() {
            problems.push(format!("colunas repetidas: {}", repeated.join(", ")));
        }
        return Err(StoreError::Invalid {
            field: "cabeçalho",
            reason: format!(
                "a primeira linha não é o cabeçalho de um arquivo de {} ({}). Colunas esperadas: \
                 {} (obrigatórias: {}); confira o tipo de arquivo escolhido ou corrija o cabeçalho",
                kind.portuguese(),
                problems.join("; "),
                columns.iter().map(|c| c.name).collect::<Vec<_>>().join(";"),
                columns
                    .iter()
                    .filter(|c| c.required)
                    .map(|c| c.name)
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
        });
    }
    Ok(Header {
        kind,
        kind_width: header.len(),
        places: columns
            .iter()
            .map(|c| names.iter().position(|n| n == c.name))
            .collect(),
    })
}

/// One row's cells by column name.
struct Cells<'a> {
    header: &'a Header,
    row: &'a [String],
}

impl Cells<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        let i = self
            .header
            .kind
            .columns()
            .iter()
            .position(|c| c.name == name)?;
        let place = self.header.places.get(i).copied().flatten()?;
        self.row
            .get(place)
            .map(|c| c.trim())
            .filter(|c| !c.is_empty())
    }

    fn required(&self, name: &'static str) -> Result<&str, StoreError> {
        self.get(name).ok_or_else(|| StoreError::Invalid {
            field: name,
            reason: "em branco: preencha esta coluna".into(),
        })
    }
}

/// A date as `31/12/2025`, `2025-12-31` or a spreadsheet's day number.
pub fn date(field: &'static str, text: Option<&str>) -> Result<Option<NaiveDate>, StoreError> {
    let Some(t) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if let Ok(day) = NaiveDate::parse_from_str(t, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(t, "%d/%m/%Y"))
    {
        return Ok(Some(day));
    }
    // A date cell the spreadsheet kept as its day number (1900 system).
    if let Ok(serial) = t.parse::<u32>()
        && (3_000..=2_958_465).contains(&serial)
        && let Some(day) = NaiveDate::from_ymd_opt(1899, 12, 30)
            .and_then(|d| d.checked_add_days(chrono::Days::new(u64::from(serial))))
    {
        return Ok(Some(day));
    }
    Err(StoreError::Invalid {
        field,
        reason: format!("`{t}`: escreva a data como 31/12/2025 ou 2025-12-31"),
    })
}

/// A yes/no column: `sim`/`não` (or true/false, s/n); blank is no.
fn yes(field: &'static str, text: Option<&str>) -> Result<bool, StoreError> {
    match text.map(folded).as_deref() {
        None | Some("") => Ok(false),
        Some("sim" | "s" | "true" | "1" | "x") => Ok(true),
        Some("nao" | "n" | "false" | "0") => Ok(false),
        Some(_) => Err(StoreError::Invalid {
            field,
            reason: format!("`{}`: escreva sim ou não", text.unwrap_or("")),
        }),
    }
}

fn number<T: std::str::FromStr>(
    field: &'static str,
    text: Option<&str>,
) -> Result<Option<T>, StoreError> {
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(None),
        Some(t) => t.parse().map(Some).map_err(|_| StoreError::Invalid {
            field,
            reason: format!("`{t}` não é um número inteiro"),
        }),
    }
}

/// CNH categories as the card prints them — `AB`, `A/B`, `A B`, `ACC`,
/// `ACC B` — in the store's list (ACC, A, B, …); the profile's check
/// refuses any letter that is not a category.
pub fn cnh_categories(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text
        .to_uppercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        let mut rest = word;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("ACC") {
                out.push("ACC".to_string());
                rest = after;
            } else {
                let mut chars = rest.chars();
                if let Some(c) = chars.next() {
                    out.push(c.to_string());
                }
                rest = chars.as_str();
            }
        }
    }
    out.dedup();
    out
}

/// What became of one row.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RowOutcome {
    pub line: u64,
    /// What the row names: a document, a plate, a permit.
    pub subject: String,
    pub outcome: Outcome,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Written (or, in a dry run, would be), with what the law's
    /// transitional rules said of it.
    Imported { notes: Vec<String> },
    /// Refused: the column and the reason, which says how to fix it.
    Refused { field: String, reason: String },
}

/// Every row's outcome, in the file's order.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportReport {
    pub dry_run: bool,
    pub rows: Vec<RowOutcome>,
}

impl ImportReport {
    pub fn imported(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| matches!(r.outcome, Outcome::Imported { .. }))
            .count()
    }

    pub fn refused(&self) -> usize {
        self.rows.len() - self.imported()
    }
}

/// What to import.
#[derive(Debug, Clone, Copy)]
pub struct ImportRequest<'a> {
    pub jurisdiction: &'a str,
    pub kind: ImportKind,
    /// The file's name, for the audit log and the messages.
    pub file: &'a str,
    pub table: &'a Table,
    /// The rulebooks the jurisdiction is bound to (permits read theirs).
    pub rulebooks: &'a [&'a Rulebook],
    pub dry_run: bool,
}

/// A row's error that belongs to the row (bad data, a conflict, the law's
/// refusal) rather than to the database.
fn row_problem(error: &StoreError) -> Option<(String, String)> {
    match error {
        StoreError::Invalid { field, reason } | StoreError::Taken { field, reason } => {
            Some((field.to_string(), reason.clone()))
        }
        StoreError::Refused { reason, articles } => Some((
            "lei".into(),
            if articles.is_empty() {
                reason.clone()
            } else {
                format!("{reason} ({})", articles.join("; "))
            },
        )),
        StoreError::NotFound(reason) | StoreError::Engine(reason) => {
            Some(("registro".into(), reason.clone()))
        }
        _ => None,
    }
}

fn subject_of(kind: ImportKind, cells: &Cells<'_>) -> String {
    match kind {
        ImportKind::Holders | ImportKind::Drivers => cells.get("documento"),
        ImportKind::Vehicles => cells.get("placa"),
        ImportKind::Permits => cells.get("numero"),
        ImportKind::Autos | ImportKind::Debts => {
            return format!(
                "{}/{}",
                cells.get("numero").unwrap_or(""),
                cells.get("ano").unwrap_or("")
            );
        }
    }
    .unwrap_or("")
    .to_string()
}

impl Store {
    /// Imports `request.table`: the header first (refused at once when it
    /// is not the kind's), then each row through the store's functions, in
    /// its own transaction — or, for a dry run, all in one that is rolled
    /// back, each row in a savepoint. `progress(done, total)` is called
    /// after each row.
    pub async fn import(
        &self,
        change: &Change<'_>,
        request: ImportRequest<'_>,
        progress: &mut (dyn FnMut(usize, usize) + Send),
    ) -> Result<ImportReport, StoreError> {
        self.import_rows(change, request, &mut |_, done, total| progress(done, total))
            .await
    }

    /// `import`, telling `on_row` each row's outcome as it is known, with
    /// the rows done and the total (a job writes its progress from it).
    pub(crate) async fn import_rows(
        &self,
        change: &Change<'_>,
        request: ImportRequest<'_>,
        on_row: &mut (dyn FnMut(&RowOutcome, usize, usize) + Send),
    ) -> Result<ImportReport, StoreError> {
        let header = check_header(request.kind, &request.table.header)?;
        if !self.has_jurisdiction(request.jurisdiction).await? {
            return Err(StoreError::Invalid {
                field: "jurisdição",
                reason: format!(
                    "`{}` não está cadastrada (outorga db init)",
                    request.jurisdiction
                ),
            });
        }
        let total = request.table.rows.len();
        let mut rows = Vec::with_capacity(total);
        let mut dry = if request.dry_run {
            Some(self.write_transaction().await?)
        } else {
            None
        };
        for (done, (line, row)) in request.table.rows.iter().enumerate() {
            let cells = Cells {
                header: &header,
                row,
            };
            let why = format!(
                "{}: {}, linha {line}",
                if change.why.trim().is_empty() {
                    "importação dos registros existentes"
                } else {
                    change.why
                },
                request.file
            );
            let result = match dry.as_mut() {
                Some((tx, _)) => {
                    sqlx::query("SAVEPOINT import_row")
                        .execute(&mut **tx)
                        .await?;
                    let result = self.import_row(tx, change, &why, request, &cells).await;
                    if result.is_err() {
                        sqlx::query("ROLLBACK TO SAVEPOINT import_row")
                            .execute(&mut **tx)
                            .await?;
                    }
                    sqlx::query("RELEASE SAVEPOINT import_row")
                        .execute(&mut **tx)
                        .await?;
                    result
                }
                None => {
                    let (mut tx, _writer) = self.write_transaction().await?;
                    let result = self
                        .import_row(&mut tx, change, &why, request, &cells)
                        .await;
                    if result.is_ok() {
                        tx.commit().await?;
                    } else {
                        tx.rollback().await?;
                    }
                    result
                }
            };
            let outcome = match result {
                Ok(notes) => Outcome::Imported { notes },
                Err(e) => match row_problem(&e) {
                    Some((field, reason)) => Outcome::Refused { field, reason },
                    None => return Err(e),
                },
            };
            let row = RowOutcome {
                line: *line,
                subject: subject_of(request.kind, &cells),
                outcome,
            };
            on_row(&row, done + 1, total);
            rows.push(row);
        }
        if let Some((tx, _)) = dry {
            tx.rollback().await?;
        }
        Ok(ImportReport {
            dry_run: request.dry_run,
            rows,
        })
    }

    async fn import_row(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        why: &str,
        request: ImportRequest<'_>,
        cells: &Cells<'_>,
    ) -> Result<Vec<String>, StoreError> {
        let change = Change { why, ..*change };
        let width = cells.header.kind_width;
        if let Some(extra) = cells
            .row
            .iter()
            .skip(width)
            .position(|c| !c.trim().is_empty())
        {
            return Err(StoreError::Invalid {
                field: "linha",
                reason: format!(
                    "tem um valor na coluna {}, além das {width} do cabeçalho: confira os \
                     separadores (um ; ou , a mais) ou ponha o valor entre aspas",
                    width + extra + 1
                ),
            });
        }
        match request.kind {
            ImportKind::Holders | ImportKind::Drivers => {
                self.import_person(tx, &change, request.jurisdiction, cells)
                    .await
            }
            ImportKind::Vehicles => {
                self.import_vehicle(tx, &change, request.jurisdiction, cells)
                    .await
            }
            ImportKind::Permits => {
                self.import_permit(tx, &change, request.jurisdiction, request.rulebooks, cells)
                    .await
            }
            ImportKind::Autos => {
                self.import_auto(
                    tx,
                    &change,
                    (request.jurisdiction, request.rulebooks),
                    cells,
                )
                .await
            }
            ImportKind::Debts => {
                self.import_debt(
                    tx,
                    &change,
                    (request.jurisdiction, request.rulebooks),
                    cells,
                )
                .await
            }
        }
    }

    async fn import_person(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        jurisdiction: &str,
        cells: &Cells<'_>,
    ) -> Result<Vec<String>, StoreError> {
        let document = cells.required("documento")?;
        let name = cells.required("nome")?;
        let cnh = match (
            cells.get("cnh_numero"),
            date("cnh_validade", cells.get("cnh_validade"))?,
        ) {
            (Some(number), Some(expires)) => Some(Cnh {
                number: number.to_string(),
                categories: cnh_categories(cells.get("cnh_categorias").unwrap_or("")),
                paid_activity: yes(
                    "cnh_atividade_remunerada",
                    cells.get("cnh_atividade_remunerada"),
                )?,
                first_issued: None,
                expires,
                suspended_until: None,
            }),
            (None, None) => None,
            (Some(_), None) => {
                return Err(StoreError::Invalid {
                    field: "cnh_validade",
                    reason: "informe a validade da CNH, ou deixe também o número em branco".into(),
                });
            }
            (None, Some(_)) => {
                return Err(StoreError::Invalid {
                    field: "cnh_numero",
                    reason: "informe o número da CNH, ou deixe também a validade em branco".into(),
                });
            }
        };
        let profile = Profile {
            birth_date: date("nascimento", cells.get("nascimento"))?,
            resident_since: date("residente_desde", cells.get("residente_desde"))?,
            cnh,
            street: cells.get("endereco").unwrap_or("").to_string(),
            phone: cells.get("telefone").unwrap_or("").to_string(),
            email: cells.get("email").unwrap_or("").to_string(),
            ..Profile::default()
        };
        self.register_in(tx, change, jurisdiction, document, name)
            .await?;
        self.update_profile_in(tx, change, jurisdiction, document, &profile)
            .await?;
        Ok(Vec::new())
    }

    async fn import_vehicle(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        jurisdiction: &str,
        cells: &Cells<'_>,
    ) -> Result<Vec<String>, StoreError> {
        let manufactured = number::<i32>("ano", Some(cells.required("ano")?))?.unwrap_or(0);
        let vehicle = Vehicle {
            plate: cells.required("placa")?.to_string(),
            renavam: cells.required("renavam")?.to_string(),
            manufactured,
            colour: cells.get("cor").unwrap_or("").to_string(),
            doors: number("portas", cells.get("portas"))?,
            capacity: number("lotacao", cells.get("lotacao"))?,
            make: cells.get("marca").map(str::to_string),
            model: cells.get("modelo").map(str::to_string),
            ..Vehicle::default()
        };
        let year = chrono::Datelike::year(&change.at.date());
        self.register_vehicle_in(tx, change, jurisdiction, &vehicle, year)
            .await?;
        Ok(Vec::new())
    }

    async fn import_permit(
        &self,
        tx: &mut Tx,
        change: &Change<'_>,
        jurisdiction: &str,
        rulebooks: &[&Rulebook],
        cells: &Cells<'_>,
    ) -> Result<Vec<String>, StoreError> {
        let service_text = folded(cells.required("servico")?);
        let Some(service) = Service::ALL
            .into_iter()
            .find(|s| s.name() == service_text || folded(s.portuguese()) == service_text)
        else {
            return Err(StoreError::Invalid {
                field: "servico",
                reason: format!(
                    "`{}`: escreva {}",
                    cells.get("servico").unwrap_or(""),
                    Service::ALL
                        .iter()
                        .map(|s| s.portuguese())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        };
        let Some(rulebook) = rulebooks
            .iter()
            .copied()
            .find(|r| r.services.contains(&service))
        else {
            return Err(StoreError::Invalid {
                field: "servico",
                reason: format!(
                    "{jurisdiction} não tem regulamento de {}: confira a jurisdição",
                    service.portuguese()
                ),
            });
        };
        let service_name = service.name();
        bound(tx, jurisdiction, rulebook, service_name).await?;
        let ctx = crate::parameters::law(tx, jurisdiction, rulebook).await?;
        let today = rulebook.jurisdiction.today(change.at);
        let number = number::<i64>("numero", Some(cells.required("numero")?))?
            .filter(|n| *n > 0)
            .ok_or_else(|| StoreError::Invalid {
                field: "numero",
                reason: "o número da permissão é um inteiro maior que zero".into(),
            })?;
        let (holder, _) =
            crate::parse_document(cells.required("titular")?).map_err(|e| renamed("titular", e))?;
        let status_text = folded(cells.get("situacao").unwrap_or("em vigor"));
        let status = PermitStatus::ALL
            .iter()
            .copied()
            .find(|s| {
                s.name() == status_text
                    || folded(s.portuguese()) == status_text
                    || folded(s.portuguese())
                        .split("_ou_")
                        .any(|p| p == status_text)
            })
            .ok_or_else(|| StoreError::Invalid {
                field: "situacao",
                reason: format!(
                    "`{}`: escreva em vigor, renunciada, cassada, revogada ou extinta",
                    cells.get("situacao").unwrap_or("")
                ),
            })?;
        if matches!(status, PermitStatus::Suspended | PermitStatus::Reserved) {
            return Err(StoreError::Invalid {
                field: "situacao",
                reason: format!(
                    "uma permissão {} tem prazo e fundamento próprios: importe-a em vigor e \
                     registre a suspensão ou a reserva na permissão",
                    status.portuguese()
                ),
            });
        }
        let granted_on =
            date("outorgada_em", Some(cells.required("outorgada_em")?))?.unwrap_or(today);
        crate::done_on("outorgada_em", granted_on, today)?;
        let file_expires = date("validade", cells.get("validade"))?;
        if let Some(end) = file_expires
            && end < granted_on
        {
            return Err(StoreError::Invalid {
                field: "validade",
                reason: format!(
                    "{} é anterior à outorga ({}): confira as datas",
                    end.format("%d/%m/%Y"),
                    granted_on.format("%d/%m/%Y")
                ),
            });
        }
        let ended_on = date("encerrada_em", cells.get("encerrada_em"))?;
        let in_force = status == PermitStatus::Granted;
        match (in_force, ended_on) {
            (true, Some(_)) => {
                return Err(StoreError::Invalid {
                    field: "encerrada_em",
                    reason:
                        "uma permissão em vigor não tem data de encerramento: deixe em branco ou \
                             informe a situação"
                            .into(),
                });
            }
            (false, None) => {
                return Err(StoreError::Invalid {
                    field: "encerrada_em",
                    reason: format!("informe quando a permissão foi {}", status.portuguese()),
                });
            }
            (false, Some(end)) => {
                crate::done_on("encerrada_em", end, today)?;
                if end < granted_on {
                    return Err(StoreError::Invalid {
                        field: "encerrada_em",
                        reason: "é anterior à outorga: confira as datas".into(),
                    });
                }
            }
            (true, None) => {}
        }
        let exists = sqlx::query(
            "SELECT holder FROM permits WHERE jurisdiction = $1 AND service = $2 AND number = $3",
        )
        .bind(jurisdiction)
        .bind(service_name)
        .bind(number)
        .fetch_optional(&mut **tx)
        .await?;
        if exists.is_some() {
            return Err(StoreError::Taken {
                field: "numero",
                reason: format!(
                    "a permissão de {} nº {number} já está cadastrada em {jurisdiction}",
                    service.portuguese()
                ),
            });
        }
        registered(tx, jurisdiction, &holder, "titular", "titulares").await?;
        let plate = cells
            .get("placa")
            .map(|p| crate::parse_plate(p).map_err(|e| renamed("placa", e)))
            .transpose()?
            .filter(|_| in_force);
        let manufactured = match &plate {
            Some(plate) => Some(serving_vehicle(tx, jurisdiction, plate).await?),
            None => None,
        };
        let mut drivers = Vec::new();
        if in_force {
            for text in cells
                .get("condutores")
                .unwrap_or("")
                .split(|c: char| c == '|' || c == ',' || c.is_whitespace())
                .filter(|t| !t.is_empty())
            {
                let (driver, _) =
                    crate::parse_document(text).map_err(|e| renamed("condutores", e))?;
                registered(tx, jurisdiction, &driver, "condutores", "condutores").await?;
                let serving = sqlx::query(
                    "SELECT service, number FROM permit_drivers WHERE jurisdiction = $1 \
                     AND driver = $2 AND until IS NULL",
                )
                .bind(jurisdiction)
                .bind(&driver)
                .fetch_optional(&mut **tx)
                .await?;
                if let Some(row) = serving {
                    let other: i64 = row.try_get("number")?;
                    return Err(StoreError::Taken {
                        field: "condutores",
                        reason: format!(
                            "{driver} já serve a permissão nº {other}: um condutor serve uma \
                             permissão de cada vez"
                        ),
                    });
                }
                if !drivers.contains(&driver) {
                    drivers.push(driver);
                }
            }
        }
        // The law's transitional rules, then its term from the grant.
        let reading = existing_permit(
            rulebook,
            &Existing {
                granted_on,
                expires_on: file_expires,
                in_force,
                vehicle_manufactured: manufactured,
            },
        )?;
        let mut cited: Vec<String> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        let expires_on = match (&reading.expires_on, file_expires) {
            (Some((end, article)), file) => {
                cited.push(article.clone());
                notes.push(format!(
                    "{article}: em vigor na publicação da lei, válida até {}{}",
                    end.format("%d/%m/%Y"),
                    match file {
                        Some(f) if f != *end =>
                            format!(" (o arquivo dizia {})", f.format("%d/%m/%Y")),
                        _ => String::new(),
                    }
                ));
                Some(*end)
            }
            (None, Some(end)) => Some(end),
            (None, None) => match crate::permits::term_end(&ctx, granted_on)? {
                Some((end, article)) => {
                    notes.push(format!(
                        "{article}: validade contada da outorga, até {}",
                        end.format("%d/%m/%Y")
                    ));
                    cited.push(article);
                    Some(end)
                }
                None => None,
            },
        };
        for note in &reading.notes {
            cited.push(note.citation.clone());
            notes.push(format!("{}: {}", note.citation, note.text));
        }
        let quota = cells.get("cota");
        if let Some(q) = quota
            && !rulebook
                .caps
                .iter()
                .any(|c| c.reserved.iter().any(|share| share.key == q))
        {
            return Err(StoreError::Invalid {
                field: "cota",
                reason: format!("`{q}` não é uma cota reservada de {}", rulebook.id),
            });
        }
        let line = cells.get("linha");
        if service == Service::Onibus {
            let Some(line) = line else {
                return Err(StoreError::Invalid {
                    field: "linha",
                    reason: "a delegação de ônibus nomeia a linha".into(),
                });
            };
            let known =
                sqlx::query("SELECT 1 AS one FROM lines WHERE jurisdiction = $1 AND code = $2")
                    .bind(jurisdiction)
                    .bind(line)
                    .fetch_optional(&mut **tx)
                    .await?;
            if known.is_none() {
                return Err(StoreError::Invalid {
                    field: "linha",
                    reason: format!(
                        "a linha {line} não está cadastrada em {jurisdiction}: cadastre-a antes"
                    ),
                });
            }
        }
        sqlx::query(
            "INSERT INTO permits (jurisdiction, service, number, rulebook, holder, status, quota, granted_on, expires_on, line) \
             VALUES ($1, $2, $3, $4, $5, 'granted', $6, $7, $8, $9)",
        )
        .bind(jurisdiction)
        .bind(service_name)
        .bind(number)
        .bind(&rulebook.id)
        .bind(&holder)
        .bind(quota)
        .bind(granted_on.to_string())
        .bind(expires_on.map(|e| e.to_string()))
        .bind(line.filter(|_| service == Service::Onibus))
        .execute(&mut **tx)
        .await
        .map_err(|e| {
            crate::refused_if_taken(e, "numero", format!("a permissão nº {number} já existe"))
        })?;
        // A grant later numbers after the imported permits.
        sqlx::query(
            "INSERT INTO counters (jurisdiction, series, year, last) VALUES ($1, $2, 0, $3) \
             ON CONFLICT (jurisdiction, series, year) DO UPDATE SET last = \
             CASE WHEN counters.last < excluded.last THEN excluded.last ELSE counters.last END",
        )
        .bind(jurisdiction)
        .bind(format!("permit:{service_name}"))
        .bind(number)
        .execute(&mut **tx)
        .await?;
        let mut links = Vec::new();
        let mut registrations = Vec::new();
        for driver in &drivers {
            let year = chrono::Datelike::year(&today);
            let n = next_number(tx, jurisdiction, "registration", year).await?;
            let registration = format!("{year}-{n:05}");
            sqlx::query(
                "INSERT INTO permit_drivers (jurisdiction, registration, service, number, driver, role, since, valid_until) \
                 VALUES ($1, $2, $3, $4, $5, 'auxiliary', $6, $7)",
            )
            .bind(jurisdiction)
            .bind(&registration)
            .bind(service_name)
            .bind(number)
            .bind(driver)
            .bind(today.to_string())
            .bind(expires_on.map(|e| e.to_string()))
            .execute(&mut **tx)
            .await
            .map_err(|e| {
                crate::refused_if_taken(e, "condutores", format!("{driver} já serve outra permissão"))
            })?;
            links.push(RowRef::new(
                "permit_drivers",
                [jurisdiction.into(), (&registration).into()],
            ));
            registrations.push((driver.clone(), registration));
        }
        if let Some(plate) = &plate {
            sqlx::query(
                "INSERT INTO permit_vehicles (jurisdiction, service, number, plate, how, since) \
                 VALUES ($1, $2, $3, $4, 'inclusion', $5)",
            )
            .bind(jurisdiction)
            .bind(service_name)
            .bind(number)
            .bind(plate)
            .bind(today.to_string())
            .execute(&mut **tx)
            .await
            .map_err(|e| {
                crate::refused_if_taken(e, "placa", format!("{plate} já serve outra permissão"))
            })?;
            links.push(RowRef::new(
                "permit_vehicles",
                [
                    jurisdiction.into(),
                    service_name.into(),
                    number.into(),
                    plate.into(),
                    today.to_string().into(),
                ],
            ));
        }
        let why = if notes.is_empty() {
            change.why.to_string()
        } else {
            format!("{}; {}", change.why, notes.join("; "))
        };
        let noted = Change {
            why: &why,
            ..*change
        };
        let cited = crate::articles(&cited.iter().map(String::as_str).collect::<Vec<_>>());
        step(
            tx,
            &self.audit,
            &noted,
            jurisdiction,
            (service_name, number),
            PermitStep {
                event: "import",
                status: "granted",
                since: granted_on,
                until: None,
                ground: None,
                cited: &cited,
                also: links,
            },
        )
        .await?;
        if let (false, Some(end)) = (in_force, ended_on) {
            let event = match status {
                PermitStatus::Renounced => "renunciation",
                PermitStatus::Extinct => "extinction",
                _ => "revocation",
            };
            step(
                tx,
                &self.audit,
                change,
                jurisdiction,
                (service_name, number),
                PermitStep {
                    event,
                    status: status.name(),
                    since: end,
                    until: None,
                    ground: None,
                    cited: &[],
                    also: Vec::new(),
                },
            )
            .await?;
        }
        // The documents the record shows in service: the vehicle's traffic
        // authorization and each driver's registration, issued today.
        if let Some(plate) = &plate {
            crate::documents::issue(
                tx,
                &self.audit,
                change,
                jurisdiction,
                (
                    "traffic_authorization",
                    &format!("vehicle:{plate}"),
                    &holder,
                ),
                today,
                crate::parameters::authorization_until(&ctx, today, expires_on)?,
            )
            .await?;
        }
        for (driver, registration) in &registrations {
            crate::documents::issue(
                tx,
                &self.audit,
                change,
                jurisdiction,
                (
                    "driver_registration",
                    &format!("driver:{registration}"),
                    driver,
                ),
                today,
                expires_on,
            )
            .await?;
        }
        if service == Service::Onibus
            && let Some(end) = expires_on
        {
            crate::documents::issue(
                tx,
                &self.audit,
                change,
                jurisdiction,
                (
                    "delegation_term",
                    &format!("permit:{service_name}:{number}"),
                    &holder,
                ),
                granted_on,
                Some(end),
            )
            .await?;
        }
        Ok(notes)
    }
}

/// Bad input reported under the file's column name.
fn renamed(field: &'static str, error: StoreError) -> StoreError {
    match error {
        StoreError::Invalid { reason, .. } => StoreError::Invalid { field, reason },
        other => other,
    }
}

/// `document` must be in the register (imported before, from the file of
/// `kind`).
async fn registered(
    tx: &mut Tx,
    jurisdiction: &str,
    document: &str,
    field: &'static str,
    kind: &str,
) -> Result<(), StoreError> {
    let known =
        sqlx::query("SELECT 1 AS one FROM people WHERE jurisdiction = $1 AND document = $2")
            .bind(jurisdiction)
            .bind(document)
            .fetch_optional(&mut **tx)
            .await?;
    if known.is_none() {
        return Err(StoreError::Invalid {
            field,
            reason: format!(
                "{document} não está cadastrado em {jurisdiction}: importe antes o arquivo de {kind}"
            ),
        });
    }
    Ok(())
}

/// The vehicle `plate` must be registered and serve no other permit: its
/// year of manufacture.
async fn serving_vehicle(tx: &mut Tx, jurisdiction: &str, plate: &str) -> Result<i32, StoreError> {
    let row =
        sqlx::query("SELECT manufactured FROM vehicles WHERE jurisdiction = $1 AND plate = $2")
            .bind(jurisdiction)
            .bind(plate)
            .fetch_optional(&mut **tx)
            .await?;
    let Some(row) = row else {
        return Err(StoreError::Invalid {
            field: "placa",
            reason: format!(
                "{plate} não está cadastrado em {jurisdiction}: importe antes o arquivo de veículos"
            ),
        });
    };
    let serving = sqlx::query(
        "SELECT number FROM permit_vehicles WHERE jurisdiction = $1 AND plate = $2 AND until IS NULL",
    )
    .bind(jurisdiction)
    .bind(plate)
    .fetch_optional(&mut **tx)
    .await?;
    if let Some(other) = serving {
        let other: i64 = other.try_get("number")?;
        return Err(StoreError::Taken {
            field: "placa",
            reason: format!(
                "{plate} já serve a permissão nº {other}: um veículo serve uma de cada vez"
            ),
        });
    }
    let year: i64 = row.try_get("manufactured")?;
    Ok(i32::try_from(year).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_as_printed() {
        assert_eq!(cnh_categories("AB"), ["A", "B"]);
        assert_eq!(cnh_categories("a/b"), ["A", "B"]);
        assert_eq!(cnh_categories("A B"), ["A", "B"]);
        assert_eq!(cnh_categories("ACC"), ["ACC"]);
        assert_eq!(cnh_categories("ACCB"), ["ACC", "B"]);
        assert_eq!(cnh_categories("AD"), ["A", "D"]);
    }

    #[test]
    fn header_without_accents_or_case() {
        let header: Vec<String> = ["Placa", "RENAVAM", "Ano", "Lotação"]
            .map(String::from)
            .into();
        assert!(check_header(ImportKind::Vehicles, &header).is_ok());
        let wrong: Vec<String> = ["documento", "nome"].map(String::from).into();
        let Err(StoreError::Invalid { field, reason }) = check_header(ImportKind::Vehicles, &wrong)
        else {
            panic!("a header of people read as vehicles");
        };
        assert_eq!(field, "cabeçalho");
        assert!(
            reason.contains("faltam as colunas placa, renavam, ano"),
            "{reason}"
        );
        assert!(
            reason.contains("desconhecidas: documento, nome"),
            "{reason}"
        );
    }

    #[test]
    fn dates() {
        assert_eq!(
            date("d", Some("31/12/2025")).expect("a date"),
            NaiveDate::from_ymd_opt(2025, 12, 31)
        );
        assert_eq!(
            date("d", Some("45658")).expect("a date"),
            NaiveDate::from_ymd_opt(2025, 1, 1)
        );
        assert!(date("d", Some("2025-13-01")).is_err());
    }
}
