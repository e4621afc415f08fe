//! The documents the department issued about a record.

use crate::auth::{Issuer, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::papers::{AutoPaper, document_pdf, issue_auto_paper, issue_slip_paper};
use crate::routes::change;
use crate::routes::debts::NaData;
use crate::routes::optional_day;
use crate::state::AppState;
use crate::vocab::{DOCUMENTOS, subject_code, subject_wire};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use outorga_store::{Document, DocumentFilter, KeptFile, PaperFormat};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentoSaida {
    /// O código de verificação, como ABCDE-12345.
    pub codigo: String,
    pub jurisdicao: String,
    pub tipo: String,
    /// Do que trata: `permissao:<serviço>:<n>`, `condutor:<matrícula>`,
    /// `veiculo:<placa>`.
    pub assunto: String,
    /// CPF ou CNPJ do titular (omitido na consulta pública).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub titular: Option<String>,
    pub emitido_em: String,
    pub valido_ate: Option<String>,
    pub cancelado_em: Option<String>,
}

impl DocumentoSaida {
    /// Without the holder: what the public check shows.
    pub fn public(doc: Document) -> DocumentoSaida {
        DocumentoSaida {
            titular: None,
            ..doc.into()
        }
    }
}

impl From<Document> for DocumentoSaida {
    fn from(d: Document) -> DocumentoSaida {
        DocumentoSaida {
            codigo: d.code,
            jurisdicao: d.jurisdiction,
            tipo: DOCUMENTOS.wire(&d.kind),
            assunto: subject_wire(&d.subject),
            titular: Some(d.holder),
            emitido_em: d.issued_on.to_string(),
            valido_ate: d.valid_until.map(|v| v.to_string()),
            cancelado_em: d.cancelled_on.map(|v| v.to_string()),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Filtro {
    /// O registro: `permissao:taxi:1`, `condutor:2026-00001`,
    /// `veiculo:ABC1D23`.
    pub assunto: Option<String>,
    /// CPF ou CNPJ do titular.
    pub titular: Option<String>,
    /// Só os documentos deste tipo.
    pub tipo: Option<String>,
    /// Emitidos a partir deste dia (AAAA-MM-DD).
    pub de: Option<String>,
    /// Emitidos até este dia, inclusive (AAAA-MM-DD).
    pub ate: Option<String>,
}

/// A page of the documents the department issued that the filters admit
/// (about a record, to a holder, of a kind), the latest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/documents", tag = "documentos",
    params(("j" = String, Path, description = "a jurisdição"), Filtro, Pagina),
    responses((status = 200, body = Lista<DocumentoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(filter): Query<Filtro>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<DocumentoSaida>>, ApiError> {
    let asked = page.asked()?;
    let filter = DocumentFilter {
        subject: filter.assunto.as_deref().map(subject_code),
        holder: filter.titular,
        kind: filter
            .tipo
            .map(|t| DOCUMENTOS.read("tipo", &t))
            .transpose()?,
        from: optional_day(filter.de.as_deref(), "de")?,
        to: optional_day(filter.ate.as_deref(), "ate")?,
    };
    let documents = state.store.documents(&j, &filter, asked.window()).await?;
    Ok(Json(Lista::of(documents)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Formato {
    /// `a4` (o padrão) ou `cartao` (a credencial do condutor, no tamanho
    /// de um cartão).
    pub formato: Option<String>,
}

/// A format as the API writes it.
pub fn format_wire(format: PaperFormat) -> &'static str {
    match format {
        PaperFormat::A4 => "a4",
        PaperFormat::Card => "cartao",
    }
}

/// The format asked for, as the record keeps it.
pub fn paper_format(formato: Option<&str>) -> Result<PaperFormat, ApiError> {
    match formato.map(str::trim) {
        None | Some("" | "a4" | "A4") => Ok(PaperFormat::A4),
        Some("cartao" | "cartão") => Ok(PaperFormat::Card),
        Some(other) => Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "formato",
            format!("`{other}` não é formato: use a4 ou cartao"),
        )),
    }
}

/// The document as a PDF: the file kept since it was first printed (made
/// and kept now, if never printed), with its verification code and QR code.
/// Its SHA-256 goes in the `ETag`, as the verification page shows it.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/documents/{codigo}/pdf", tag = "documentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("codigo" = String, Path, description = "o código de verificação, como ABCDE-12345"),
           Formato),
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn pdf(
    State(state): State<AppState>,
    who: Reader,
    Path((j, codigo)): Path<(String, String)>,
    Query(formato): Query<Formato>,
) -> Result<axum::response::Response, ApiError> {
    let format = paper_format(formato.formato.as_deref())?;
    let change = change!(state, who, "impressão pela API");
    let (document, kept) = document_pdf(&state, &j, &codigo, format, &change).await?;
    Ok(pdf_file(&document, format, kept))
}

/// A document's PDF to download: its name says what it is.
pub fn pdf_file(
    document: &Document,
    format: PaperFormat,
    kept: KeptFile,
) -> axum::response::Response {
    let name = format!(
        "{}-{}{}.pdf",
        DOCUMENTOS.wire(&document.kind),
        document.code,
        if format == PaperFormat::Card {
            "-cartao"
        } else {
            ""
        }
    );
    (
        [
            (header::CONTENT_TYPE, "application/pdf".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("inline; filename=\"{name}\""),
            ),
            (header::ETAG, format!("\"{}\"", kept.sha256)),
        ],
        kept.pdf,
    )
        .into_response()
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PapelEntrada {
    /// `auto_infracao`, `notificacao_autuacao` ou `notificacao_decisao`.
    pub tipo: String,
}

/// Issues the paper of an auto (the auto de infração, its notification, or
/// the notice of the decision and the penalty, with the slip of its fine),
/// or finds the one already issued that still says the same: print it at
/// `GET …/documents/{codigo}/pdf`.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/papers", tag = "documentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto"),
           ("numero" = i64, Path, description = "o número do auto")),
    request_body = PapelEntrada,
    responses((status = 201, body = DocumentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn auto_paper(
    State(state): State<AppState>,
    who: Issuer,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<PapelEntrada>,
) -> Result<(StatusCode, Json<DocumentoSaida>), ApiError> {
    let kind = DOCUMENTOS.read("tipo", &input.tipo)?;
    let which = AutoPaper::of_kind(&kind).ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tipo",
            "um auto tem auto_infracao, notificacao_autuacao ou notificacao_decisao",
        )
    })?;
    let change = change!(state, who, "emissão pela API");
    let document = issue_auto_paper(&state, &j, (ano, numero), which, &change).await?;
    Ok((StatusCode::CREATED, Json(document.into())))
}

/// Issues the payment slip of a debt (or of its next parcel) due on `data`
/// (none: today), or finds the one already issued for that day: print it at
/// `GET …/documents/{codigo}/pdf`.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/guia/documento", tag = "documentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do auto ou da taxa"),
           ("numero" = i64, Path, description = "o número do auto ou da taxa"),
           ("seq" = i64, Path, description = "a multa no auto (0: a taxa)"), NaData),
    responses((status = 201, body = DocumentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn slip_paper(
    State(state): State<AppState>,
    who: Issuer,
    Path((j, ano, numero, seq)): Path<(String, i32, i64, i64)>,
    Query(when): Query<NaData>,
) -> Result<(StatusCode, Json<DocumentoSaida>), ApiError> {
    let change = change!(state, who, "emissão pela API");
    let document = issue_slip_paper(
        &state,
        &j,
        (ano, numero, seq),
        when.data.as_deref(),
        &change,
    )
    .await?;
    Ok((StatusCode::CREATED, Json(document.into())))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(pdf))
        .routes(routes!(auto_paper))
        .routes(routes!(slip_paper))
}
