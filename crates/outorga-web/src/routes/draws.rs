//! Public draws (Canguçu art. 15, § 4º; a public call's ties): opened with the seed's public
//! source and day, participants entered, the list closed and its SHA-256
//! published, the seed entered from its day and the order published,
//! appeals recorded and decided. The public route shows what anyone needs
//! to recompute the order, the names masked (LGPD).

use crate::auth::{Board, Clerk, Public, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::limits::PublicLookup;
use crate::page::{Lista, Pagina};
use crate::routes::calls::rulebook_of_call;
use crate::routes::stands::stand_rulebook;
use crate::routes::{bound_rulebooks, change, parse_day, text};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_core::engine::draw::{ALGORITHM, LIST_ALGORITHM};
use outorga_core::model::Rulebook;
use outorga_store::words::{masked_document, masked_name};
use outorga_store::{Draw, DrawInput};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SorteioEntrada {
    /// O ponto fixo cujas vagas se sorteiam.
    pub ponto: String,
    /// A fonte pública da semente, anunciada antes (a extração da Loteria
    /// Federal de tal dia, os cinco prêmios).
    pub fonte_semente: String,
    /// O dia em que a fonte dá a semente (AAAA-MM-DD): a lista fecha até ele.
    pub data_semente: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InscricaoEntrada {
    pub servico: String,
    pub numero: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SementeEntrada {
    /// A semente como a fonte a deu (os números da extração).
    pub semente: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecursoSorteioEntrada {
    /// CPF ou CNPJ de quem recorre (um participante).
    pub recorrente: String,
    pub fundamentos: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisaoRecursoEntrada {
    pub provido: bool,
    pub decisao: String,
}

/// A participant: `rotulo` is what the list and the ticket read.
#[derive(Debug, Serialize, ToSchema)]
pub struct ParticipanteSaida {
    pub rotulo: String,
    /// O nome (na consulta pública, abreviado).
    pub nome: String,
    /// CPF (na consulta pública, mascarado).
    pub documento: String,
    pub bilhete: Option<String>,
    pub posicao: Option<u32>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RecursoSorteioSaida {
    pub numero: i64,
    pub recorrente: String,
    pub interposto_em: String,
    pub fundamentos: String,
    /// `filed`, `granted` ou `denied`.
    pub situacao: String,
    pub situacao_nome: String,
    pub decidido_em: Option<String>,
    pub decisao: Option<String>,
}

/// A draw, with what recomputes it.
#[derive(Debug, Serialize, ToSchema)]
pub struct SorteioSaida {
    /// `[ano, número]`.
    pub sorteio: (i32, i64),
    /// `stand_vacancy` ou `call_tie`.
    pub finalidade: String,
    pub finalidade_nome: String,
    /// `stand:CODIGO`.
    pub objeto: String,
    pub vagas: u32,
    pub fonte_semente: String,
    pub data_semente: String,
    /// `open`, `closed` ou `drawn`.
    pub situacao: String,
    pub situacao_nome: String,
    pub aberto_em: String,
    pub fechado_em: Option<String>,
    /// SHA-256 da lista fechada (um rótulo por linha).
    pub hash_lista: Option<String>,
    pub semente: Option<String>,
    pub sorteado_em: Option<String>,
    pub artigos: Vec<String>,
    /// Na ordem da lista publicada.
    pub participantes: Vec<ParticipanteSaida>,
    /// Os rótulos na ordem sorteada.
    pub ordem: Vec<String>,
    pub recursos: Vec<RecursoSorteioSaida>,
    /// Como a lista e a ordem se recalculam.
    pub algoritmo_lista: String,
    pub algoritmo: String,
}

fn wire(draw: Draw, public: bool) -> SorteioSaida {
    let ordem = draw.in_order().iter().map(|p| p.label.clone()).collect();
    SorteioSaida {
        sorteio: (draw.year, draw.number),
        finalidade: draw.purpose.name().into(),
        finalidade_nome: draw.purpose.portuguese().into(),
        objeto: draw.subject,
        vagas: draw.places,
        fonte_semente: draw.seed_source,
        data_semente: draw.seed_on.to_string(),
        situacao: draw.status.name().into(),
        situacao_nome: draw.status.portuguese().into(),
        aberto_em: draw.opened_on.to_string(),
        fechado_em: text(draw.closed_on),
        hash_lista: draw.list_hash,
        semente: draw.seed,
        sorteado_em: text(draw.drawn_on),
        artigos: draw.articles,
        participantes: draw
            .participants
            .into_iter()
            .map(|p| ParticipanteSaida {
                rotulo: p.label,
                nome: if public { masked_name(&p.name) } else { p.name },
                documento: if public {
                    masked_document(&p.who)
                } else {
                    p.who
                },
                bilhete: p.ticket,
                posicao: p.position,
            })
            .collect(),
        ordem,
        recursos: draw
            .appeals
            .into_iter()
            .map(|a| RecursoSorteioSaida {
                numero: a.seq,
                recorrente: if public {
                    masked_document(&a.appellant)
                } else {
                    a.appellant
                },
                interposto_em: a.filed_on.to_string(),
                fundamentos: a.grounds,
                situacao: a.status.name().into(),
                situacao_nome: a.status.portuguese().into(),
                decidido_em: text(a.decided_on),
                decisao: a.decision,
            })
            .collect(),
        algoritmo_lista: LIST_ALGORITHM.into(),
        algoritmo: ALGORITHM.into(),
    }
}

/// The rulebook a draw follows: its call's, for a call's tie; the stands'
/// law, for a stand's vacancy.
async fn draw_rulebook<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64),
) -> Result<&'a Rulebook, ApiError> {
    let draw = state.store.draw(j, key).await?;
    let call = draw
        .subject
        .strip_prefix("call:")
        .and_then(|k| k.split_once(':'))
        .and_then(|(y, n)| Some((y.parse::<i32>().ok()?, n.parse::<i64>().ok()?)));
    match call {
        Some(call) => rulebook_of_call(state, j, call).await,
        None => stand_rulebook(state, j).await,
    }
}

/// Opens the public draw of a stand's vacancies, the seed's source and day
/// announced now.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/draws", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = SorteioEntrada,
    responses((status = 201, body = SorteioSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn open(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<SorteioEntrada>,
) -> Result<(StatusCode, Json<SorteioSaida>), ApiError> {
    let rulebook = stand_rulebook(&state, &j).await?;
    let seed_on = parse_day(&input.data_semente, "data_semente")?;
    let change = change!(state, who, "sorteio de vaga pela API");
    let draw = state
        .store
        .open_stand_draw(
            &change,
            rulebook,
            &j,
            &DrawInput {
                stand: input.ponto,
                seed_source: input.fonte_semente,
                seed_on,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(wire(draw, false))))
}

/// A page of the jurisdiction's draws, newest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/draws", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"), Pagina),
    responses((status = 200, body = Lista<SorteioSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<SorteioSaida>>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    let asked = page.asked()?;
    let draws = state.store.draws(&j, asked.window()).await?;
    Ok(Json(Lista::with(draws, |d| wire(d, false))))
}

/// A draw, with its participants, tickets, order and appeals.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/draws/{ano}/{numero}", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do sorteio"),
           ("numero" = i64, Path, description = "o número do sorteio")),
    responses((status = 200, body = SorteioSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn read(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<SorteioSaida>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    Ok(Json(wire(
        state.store.draw(&j, (ano, numero)).await?,
        false,
    )))
}

/// Enters a holder interested in the stand (by the permit) in the open draw.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/draws/{ano}/{numero}/participants", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do sorteio"),
           ("numero" = i64, Path, description = "o número do sorteio")),
    request_body = InscricaoEntrada,
    responses((status = 200, body = SorteioSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn enter(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<InscricaoEntrada>,
) -> Result<Json<SorteioSaida>, ApiError> {
    let rulebook = draw_rulebook(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "inscrição em sorteio pela API");
    let draw = state
        .store
        .enter_draw(
            &change,
            rulebook,
            &j,
            (ano, numero),
            (input.servico.trim(), input.numero),
        )
        .await?;
    Ok(Json(wire(draw, false)))
}

/// Closes the list and publishes its SHA-256 (before the seed's day).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/draws/{ano}/{numero}/close", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do sorteio"),
           ("numero" = i64, Path, description = "o número do sorteio")),
    responses((status = 200, body = SorteioSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn close(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<SorteioSaida>, ApiError> {
    let rulebook = draw_rulebook(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "lista do sorteio fechada pela API");
    let draw = state
        .store
        .close_draw(&change, rulebook, &j, (ano, numero))
        .await?;
    Ok(Json(wire(draw, false)))
}

/// Draws with the seed its public source gave; once only.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/draws/{ano}/{numero}/result", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do sorteio"),
           ("numero" = i64, Path, description = "o número do sorteio")),
    request_body = SementeEntrada,
    responses((status = 200, body = SorteioSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn run(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<SementeEntrada>,
) -> Result<Json<SorteioSaida>, ApiError> {
    let rulebook = draw_rulebook(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "sorteio realizado pela API");
    let draw = state
        .store
        .run_draw(&change, rulebook, &j, (ano, numero), &input.semente)
        .await?;
    Ok(Json(wire(draw, false)))
}

/// A participant's appeal against the result.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/draws/{ano}/{numero}/appeals", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do sorteio"),
           ("numero" = i64, Path, description = "o número do sorteio")),
    request_body = RecursoSorteioEntrada,
    responses((status = 201, body = SorteioSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn appeal(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<RecursoSorteioEntrada>,
) -> Result<(StatusCode, Json<SorteioSaida>), ApiError> {
    let rulebook = draw_rulebook(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "recurso contra sorteio pela API");
    let draw = state
        .store
        .appeal_draw(
            &change,
            rulebook,
            &j,
            (ano, numero),
            (&input.recorrente, &input.fundamentos),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(wire(draw, false))))
}

/// The board's decision on an appeal against a draw.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/draws/{ano}/{numero}/appeals/{recurso}/decision", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do sorteio"),
           ("numero" = i64, Path, description = "o número do sorteio"),
           ("recurso" = i64, Path, description = "o número do recurso")),
    request_body = DecisaoRecursoEntrada,
    responses((status = 200, body = SorteioSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn decide_appeal(
    State(state): State<AppState>,
    who: Board,
    Path((j, ano, numero, recurso)): Path<(String, i32, i64, i64)>,
    Json(input): Json<DecisaoRecursoEntrada>,
) -> Result<Json<SorteioSaida>, ApiError> {
    let rulebook = draw_rulebook(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "decisão de recurso contra sorteio pela API");
    let draw = state
        .store
        .decide_draw_appeal(
            &change,
            rulebook,
            &j,
            ((ano, numero), recurso),
            (input.provido, &input.decisao),
        )
        .await?;
    Ok(Json(wire(draw, false)))
}

/// A draw as the public sees it: the list and its hash, the seed's source,
/// the seed, each ticket and the order — names abbreviated and CPFs masked.
#[utoipa::path(get, path = "/api/public/jurisdictions/{j}/draws/{ano}/{numero}", tag = "consulta pública",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do sorteio"),
           ("numero" = i64, Path, description = "o número do sorteio")),
    responses((status = 200, body = SorteioSaida), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn public_read(
    _: PublicLookup,
    State(state): State<AppState>,
    _: Public,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<SorteioSaida>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    Ok(Json(wire(state.store.draw(&j, (ano, numero)).await?, true)))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open, list))
        .routes(routes!(read))
        .routes(routes!(enter))
        .routes(routes!(close))
        .routes(routes!(run))
        .routes(routes!(appeal))
        .routes(routes!(decide_appeal))
        .routes(routes!(public_read))
}
