//! Open data: what the department publishes of its record, as CSV (UTF-8,
//! `;` between fields, one header line) with a dictionary of every column
//! (`DATASETS`, the one place a file's columns are named, typed and
//! described). Never a CPF, an address, a phone or a person's name: a
//! permit names its holder only when a bus carrier (its CNPJ and name are
//! public); a vehicle is its plate, make, model and colour.

use crate::listing::Window;
use crate::{Store, StoreError};
use outorga_core::model::Rulebook;
use sqlx::Row;

/// The type of a column, as the dictionary states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ColumnType {
    /// Free text.
    Texto,
    /// A whole number.
    Inteiro,
    /// A decimal with `.` (`0.2175`, `12.5`).
    Decimal,
    /// `AAAA-MM-DD`.
    Data,
    /// `AAAA-MM`.
    Mes,
    /// `sim` or `nao`.
    Booleano,
}

impl ColumnType {
    /// The type as the open-data page names it.
    pub fn portuguese(self) -> &'static str {
        match self {
            ColumnType::Texto => "texto",
            ColumnType::Inteiro => "número inteiro",
            ColumnType::Decimal => "número decimal (ponto)",
            ColumnType::Data => "data (AAAA-MM-DD)",
            ColumnType::Mes => "mês (AAAA-MM)",
            ColumnType::Booleano => "sim ou nao",
        }
    }
}

/// A column of a published file.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Column {
    pub nome: &'static str,
    pub tipo: ColumnType,
    pub descricao: &'static str,
    /// May be empty.
    pub opcional: bool,
}

/// A published file.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct Dataset {
    /// Its file name without `.csv`.
    pub nome: &'static str,
    pub titulo: &'static str,
    pub descricao: &'static str,
    pub colunas: &'static [Column],
}

const fn col(nome: &'static str, tipo: ColumnType, descricao: &'static str) -> Column {
    Column {
        nome,
        tipo,
        descricao,
        opcional: false,
    }
}

const fn optional(nome: &'static str, tipo: ColumnType, descricao: &'static str) -> Column {
    Column {
        nome,
        tipo,
        descricao,
        opcional: true,
    }
}

use ColumnType::{Booleano, Data, Decimal, Inteiro, Mes, Texto};

/// Every file the department publishes, in the order the page lists them.
pub const DATASETS: [Dataset; 6] = [
    Dataset {
        nome: "permissoes",
        titulo: "Permissões, autorizações e delegações",
        descricao: "Cada permissão (táxi, mototáxi, motofrete) ou delegação (ônibus) outorgada, com a situação de hoje. O titular só é nomeado quando é empresa.",
        colunas: &[
            col(
                "servico",
                Texto,
                "taxi, taxi_acessivel, mototaxi, motofrete ou onibus",
            ),
            col("numero", Inteiro, "o número da permissão no serviço"),
            col(
                "situacao",
                Texto,
                "em vigor, suspensa, reservada, renunciada, revogada ou extinta (como as páginas a dizem)",
            ),
            col("outorgada_em", Data, "o dia da outorga"),
            optional("valida_ate", Data, "o fim do prazo, quando a lei fixa um"),
            optional("linha", Texto, "o código da linha de ônibus delegada"),
            optional(
                "titular_empresa",
                Texto,
                "a razão social da transportadora, nas delegações de ônibus",
            ),
            optional(
                "titular_cnpj",
                Texto,
                "o CNPJ da transportadora, nas delegações de ônibus",
            ),
        ],
    },
    Dataset {
        nome: "veiculos",
        titulo: "Veículos licenciados",
        descricao: "Os veículos em serviço sob uma permissão hoje, com a validade da autorização de tráfego e do selo de vistoria.",
        colunas: &[
            col("placa", Texto, "a placa, sem hífen"),
            col("servico", Texto, "o serviço da permissão"),
            col("permissao", Inteiro, "o número da permissão"),
            optional("marca", Texto, "a marca, como no CRLV"),
            optional("modelo", Texto, "o modelo, como no CRLV"),
            optional("cor", Texto, "a cor"),
            col("ano_fabricacao", Inteiro, "o ano de fabricação"),
            optional(
                "autorizacao_valida_ate",
                Data,
                "a validade da autorização de tráfego em vigor",
            ),
            optional(
                "vistoria_valida_ate",
                Data,
                "a validade do selo da última vistoria aprovada",
            ),
        ],
    },
    Dataset {
        nome: "pontos",
        titulo: "Pontos de estacionamento",
        descricao: "Os pontos de táxi e mototáxi e suas vagas.",
        colunas: &[
            col("codigo", Texto, "o código do ponto"),
            col("nome", Texto, "o local"),
            optional("vagas", Inteiro, "quantos veículos o ponto comporta"),
        ],
    },
    Dataset {
        nome: "linhas",
        titulo: "Linhas de ônibus",
        descricao: "As linhas intermunicipais, com o coeficiente tarifário e o itinerário.",
        colunas: &[
            col("codigo", Texto, "o código da linha"),
            col("nome", Texto, "o nome da linha"),
            col(
                "semiurbana",
                Booleano,
                "sim quando a linha tem características semiurbanas",
            ),
            col(
                "coeficiente",
                Decimal,
                "o coeficiente tarifário, em reais por passageiro-quilômetro",
            ),
            optional(
                "itinerario",
                Texto,
                "as localidades atendidas, em ordem, separadas por \" – \" (vazio quando não registrado)",
            ),
        ],
    },
    Dataset {
        nome: "secoes",
        titulo: "Seções das linhas de ônibus",
        descricao: "Os seccionamentos de cada linha e sua extensão.",
        colunas: &[
            col("linha", Texto, "o código da linha"),
            col("de", Texto, "a localidade de origem"),
            col("para", Texto, "a localidade de destino"),
            col("km", Decimal, "a extensão, em quilômetros"),
        ],
    },
    Dataset {
        nome: "autos-por-mes",
        titulo: "Autos de infração por mês e infração",
        descricao: "Quantos autos de infração houve por mês em que a infração foi cometida, por infração do regulamento; os anulados não contam.",
        colunas: &[
            col("mes", Mes, "o mês em que a infração foi cometida"),
            col("regulamento", Texto, "o regulamento (jurisdição/serviço)"),
            col("infracao", Texto, "o código da infração no regulamento"),
            col("descricao", Texto, "a infração, como a lei a descreve"),
            optional("artigo", Texto, "o artigo que a prevê"),
            col("autos", Inteiro, "quantos autos"),
        ],
    },
];

/// A field as CSV writes it: quoted when it holds `;`, a quote or a line
/// break.
pub fn csv_field(text: &str) -> String {
    if text.contains([';', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The rows as the dataset's CSV: its header, then one line per row.
pub fn csv_of(dataset: &Dataset, rows: &[Vec<String>]) -> String {
    let mut out = dataset
        .colunas
        .iter()
        .map(|c| c.nome)
        .collect::<Vec<_>>()
        .join(";");
    out.push('\n');
    for row in rows {
        out.push_str(
            &row.iter()
                .map(|f| csv_field(f))
                .collect::<Vec<_>>()
                .join(";"),
        );
        out.push('\n');
    }
    out
}

fn opt(value: Option<String>) -> String {
    value.unwrap_or_default()
}

impl Store {
    /// The rows of `dataset` for `jurisdiction`, in its columns' order;
    /// `rulebooks` describe the infractions.
    pub async fn open_data(
        &self,
        jurisdiction: &str,
        dataset: &Dataset,
        rulebooks: &[&Rulebook],
    ) -> Result<Vec<Vec<String>>, StoreError> {
        match dataset.nome {
            "permissoes" => self.open_permits(jurisdiction).await,
            "veiculos" => self.open_vehicles(jurisdiction).await,
            "pontos" => {
                let mut rows = Vec::new();
                let mut page = self.stands(jurisdiction, Window::first(500)).await?;
                loop {
                    rows.extend(page.items.into_iter().map(|s| {
                        vec![
                            s.code,
                            s.name,
                            s.capacity.map(|c| c.to_string()).unwrap_or_default(),
                        ]
                    }));
                    let Some(next) = page.next else { break };
                    page = self
                        .stands(
                            jurisdiction,
                            Window {
                                limit: 500,
                                after: Some(&next),
                            },
                        )
                        .await?;
                }
                Ok(rows)
            }
            "linhas" | "secoes" => {
                let mut lines = Vec::new();
                let mut page = self.lines(jurisdiction, Window::first(500)).await?;
                loop {
                    lines.extend(page.items);
                    let Some(next) = page.next else { break };
                    page = self
                        .lines(
                            jurisdiction,
                            Window {
                                limit: 500,
                                after: Some(&next),
                            },
                        )
                        .await?;
                }
                Ok(if dataset.nome == "linhas" {
                    lines
                        .into_iter()
                        .map(|l| {
                            vec![
                                l.code,
                                l.name,
                                if l.semi_urban { "sim" } else { "nao" }.to_string(),
                                l.coefficient.normalize().to_string(),
                                l.itinerary.join(" – "),
                            ]
                        })
                        .collect()
                } else {
                    lines
                        .into_iter()
                        .flat_map(|l| {
                            let code = l.code;
                            l.sections.into_iter().map(move |s| {
                                vec![code.clone(), s.from, s.to, s.km.normalize().to_string()]
                            })
                        })
                        .collect()
                })
            }
            "autos-por-mes" => self.open_autos(jurisdiction, rulebooks).await,
            other => Err(StoreError::NotFound(format!(
                "não há arquivo de dados abertos `{other}`"
            ))),
        }
    }

    async fn open_permits(&self, jurisdiction: &str) -> Result<Vec<Vec<String>>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.service, p.number, p.status, p.granted_on, p.expires_on, p.line, p.holder, \
             h.kind, h.name FROM permits p JOIN people h \
             ON h.jurisdiction = p.jurisdiction AND h.document = p.holder \
             WHERE p.jurisdiction = $1 ORDER BY p.service, p.number",
        )
        .bind(jurisdiction)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                // A carrier's name is public; a sole trader's company name
                // often is the owner's own: only bus delegations name it.
                let service: String = row.try_get("service")?;
                let company = row.try_get::<String, _>("kind")? == "company" && service == "onibus";
                let status: String = row.try_get("status")?;
                let number: i64 = row.try_get("number")?;
                Ok(vec![
                    service,
                    number.to_string(),
                    crate::permits::status_pt(&status).to_string(),
                    row.try_get("granted_on")?,
                    opt(row.try_get("expires_on")?),
                    opt(row.try_get("line")?),
                    if company {
                        row.try_get("name")?
                    } else {
                        String::new()
                    },
                    if company {
                        crate::words::document(&row.try_get::<String, _>("holder")?)
                    } else {
                        String::new()
                    },
                ])
            })
            .collect()
    }

    async fn open_vehicles(&self, jurisdiction: &str) -> Result<Vec<Vec<String>>, StoreError> {
        let rows = sqlx::query(
            "SELECT v.plate, pv.service, pv.number, v.make, v.model, v.colour, v.manufactured, \
             (SELECT MAX(d.valid_until) FROM documents d WHERE d.jurisdiction = pv.jurisdiction \
              AND d.subject = 'vehicle:' || v.plate AND d.kind = 'traffic_authorization' \
              AND d.cancelled_on IS NULL) AS authorization, \
             (SELECT MAX(d.valid_until) FROM documents d WHERE d.jurisdiction = pv.jurisdiction \
              AND d.subject = 'vehicle:' || v.plate AND d.kind = 'inspection_seal' \
              AND d.cancelled_on IS NULL) AS seal \
             FROM permit_vehicles pv JOIN vehicles v \
             ON v.jurisdiction = pv.jurisdiction AND v.plate = pv.plate \
             WHERE pv.jurisdiction = $1 AND pv.until IS NULL ORDER BY v.plate",
        )
        .bind(jurisdiction)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let number: i64 = row.try_get("number")?;
                let year: i64 = row.try_get("manufactured")?;
                Ok(vec![
                    row.try_get("plate")?,
                    row.try_get("service")?,
                    number.to_string(),
                    opt(row.try_get("make")?),
                    opt(row.try_get("model")?),
                    row.try_get("colour")?,
                    year.to_string(),
                    opt(row.try_get("authorization")?),
                    opt(row.try_get("seal")?),
                ])
            })
            .collect()
    }

    async fn open_autos(
        &self,
        jurisdiction: &str,
        rulebooks: &[&Rulebook],
    ) -> Result<Vec<Vec<String>>, StoreError> {
        let rows = sqlx::query(
            "SELECT substr(committed_at, 1, 7) AS month, rulebook, infraction, COUNT(*) AS autos \
             FROM autos WHERE jurisdiction = $1 AND status <> 'annulled' \
             GROUP BY substr(committed_at, 1, 7), rulebook, infraction \
             ORDER BY month, rulebook, infraction",
        )
        .bind(jurisdiction)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let rulebook: String = row.try_get("rulebook")?;
                let code: String = row.try_get("infraction")?;
                let infraction = rulebooks
                    .iter()
                    .find(|r| r.id == rulebook)
                    .and_then(|r| r.infraction_by_code(&code).map(|i| r.infraction(i)));
                let count: i64 = row.try_get("autos")?;
                Ok(vec![
                    row.try_get("month")?,
                    rulebook.clone(),
                    code.clone(),
                    infraction.map_or_else(String::new, |i| i.description.clone()),
                    infraction.map_or_else(String::new, |i| i.citation.to_string()),
                    count.to_string(),
                ])
            })
            .collect()
    }
}
