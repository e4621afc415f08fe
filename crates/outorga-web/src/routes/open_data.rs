//! Open data, without a token: each file the store publishes
//! (`outorga_store::DATASETS`) as CSV, and a dictionary of the
//! jurisdiction's files — DCAT (the catalog and its datasets) with each
//! file's columns in CSVW terms (name, datatype, description, required) and
//! its dialect (`;`, UTF-8, a header). Rate-limited as every public check.

use crate::auth::Public;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::limits::PublicLookup;
use crate::routes::public::{authority, place_name};
use crate::state::AppState;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use outorga_store::{ColumnType, DATASETS, Dataset, csv_of};
use serde_json::{Value, json};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The license the files are published under.
pub const LICENSE: &str = "https://creativecommons.org/licenses/by/4.0/";

fn dataset(name: &str) -> Result<&'static Dataset, ApiError> {
    let name = name.trim_end_matches(".csv");
    DATASETS.iter().find(|d| d.nome == name).ok_or_else(|| {
        ApiError::not_found(format!(
            "não há arquivo `{name}`: os arquivos são {}",
            DATASETS
                .iter()
                .map(|d| d.nome)
                .collect::<Vec<_>>()
                .join(", ")
        ))
    })
}

/// One of the jurisdiction's open-data files, as CSV.
#[utoipa::path(get, path = "/api/public/jurisdictions/{j}/open-data/{arquivo}", tag = "dados abertos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("arquivo" = String, Path, description = "permissoes.csv, veiculos.csv, pontos.csv, linhas.csv, secoes.csv ou autos-por-mes.csv")),
    responses((status = 200, content_type = "text/csv", body = String), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn file(
    _: PublicLookup,
    State(state): State<AppState>,
    _: Public,
    Path((j, arquivo)): Path<(String, String)>,
) -> Result<axum::response::Response, ApiError> {
    let (name, body) = open_data_csv(&state, &j, &arquivo).await?;
    Ok(crate::routes::ledger::csv(name, body))
}

/// The file `arquivo` of jurisdiction `j`: its name to download and its text.
pub async fn open_data_csv(
    state: &AppState,
    j: &str,
    arquivo: &str,
) -> Result<(String, String), ApiError> {
    let dataset = dataset(arquivo)?;
    let rulebooks: Vec<_> = state
        .library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == j)
        .collect();
    let rows = state.store.open_data(j, dataset, &rulebooks).await?;
    Ok((format!("{j}-{}.csv", dataset.nome), csv_of(dataset, &rows)))
}

fn datatype(kind: ColumnType) -> &'static str {
    match kind {
        ColumnType::Texto => "string",
        ColumnType::Inteiro => "integer",
        ColumnType::Decimal => "decimal",
        ColumnType::Data => "date",
        ColumnType::Mes => "gYearMonth",
        ColumnType::Booleano => "boolean",
    }
}

/// A column in CSVW terms (a boolean's words as its format: `sim|nao`).
fn column(c: &outorga_store::Column) -> Value {
    let mut described = json!({
        "csvw:name": c.nome,
        "csvw:datatype": datatype(c.tipo),
        "dct:description": c.descricao,
        "csvw:required": !c.opcional,
        "tipo": c.tipo,
    });
    if c.tipo == ColumnType::Booleano {
        described["csvw:format"] = json!("sim|nao");
    }
    described
}

/// The dictionary of jurisdiction `j`'s files: DCAT with CSVW columns.
pub fn dictionary(state: &AppState, j: &str) -> Value {
    let place = place_name(state, j);
    let authority = authority(state, j);
    let base = format!(
        "{}/api/public/jurisdictions/{j}/open-data",
        state.public_url
    );
    let today = crate::routes::today_in(state, j).to_string();
    let datasets: Vec<Value> = DATASETS
        .iter()
        .map(|d| {
            json!({
                "@type": "dcat:Dataset",
                "dct:identifier": format!("{j}/{}", d.nome),
                "dct:title": format!("{} — {place}", d.titulo),
                "dct:description": d.descricao,
                "dct:publisher": { "@type": "foaf:Organization", "foaf:name": authority },
                "dct:license": LICENSE,
                "dct:language": "pt-BR",
                "dct:modified": today,
                "dcat:keyword": ["transporte", "táxi", "mototáxi", "ônibus", "fiscalização"],
                "dcat:distribution": [{
                    "@type": "dcat:Distribution",
                    "dct:title": format!("{}.csv", d.nome),
                    "dcat:downloadURL": format!("{base}/{}.csv", d.nome),
                    "dcat:mediaType": "text/csv",
                    "dct:format": "CSV",
                    "csvw:dialect": { "csvw:delimiter": ";", "csvw:encoding": "utf-8", "csvw:header": true },
                }],
                "csvw:tableSchema": {
                    "csvw:column": d.colunas.iter().map(column).collect::<Vec<_>>(),
                },
            })
        })
        .collect();
    json!({
        "@context": {
            "dcat": "http://www.w3.org/ns/dcat#",
            "dct": "http://purl.org/dc/terms/",
            "foaf": "http://xmlns.com/foaf/0.1/",
            "csvw": "http://www.w3.org/ns/csvw#",
        },
        "@type": "dcat:Catalog",
        "dct:title": format!("Dados abertos do transporte — {place}"),
        "dct:description": "Permissões, veículos licenciados, pontos, linhas e autos de infração por mês: sem dado pessoal (nenhum CPF, endereço, telefone ou nome de pessoa física).",
        "dct:publisher": { "@type": "foaf:Organization", "foaf:name": authority },
        "dct:license": LICENSE,
        "dct:language": "pt-BR",
        "dct:modified": today,
        "dcat:dataset": datasets,
    })
}

/// The dictionary of the jurisdiction's open-data files (DCAT, with each
/// file's columns in CSVW terms).
#[utoipa::path(get, path = "/api/public/jurisdictions/{j}/open-data", tag = "dados abertos",
    params(("j" = String, Path, description = "a jurisdição")),
    responses((status = 200, body = Object), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn catalog(
    _: PublicLookup,
    State(state): State<AppState>,
    _: Public,
    Path(j): Path<String>,
) -> axum::response::Response {
    (
        [(header::CONTENT_TYPE, "application/ld+json; charset=utf-8")],
        dictionary(&state, &j).to_string(),
    )
        .into_response()
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(file))
        .routes(routes!(catalog))
}
