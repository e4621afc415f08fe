//! The taxi and mototaxi stands of a jurisdiction: the decree's stands and
//! an event's provisional ones, who holds their places on any day, a
//! permit's places, the department's designation and relocation — at the
//! holder's request where the law provides it (Teófilo Otoni art. 26,
//! parágrafo único) —, the notice before a relocation and the holder's
//! answer where the law requires them (Santa Maria de Jetibá art. 28, §
//! 1º), a swap between two holders and its decision, the stand lost for
//! days off the road (Canguçu art. 15, 16, 36, III). The store applies
//! them; the core decides.

use crate::auth::{Clerk, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::{bound_rulebooks, change, day_or_today, optional_day, parse_day, text};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_core::engine::downtime::Excused;
use outorga_core::model::Rulebook;
use outorga_store::{
    Designation, HolderRequest, NoticeInput, Stand, StandNotice, StandPlace, StandSwap, SwapRequest,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The rulebook of `j` whose law has fixed stands.
pub async fn stand_rulebook<'a>(state: &'a AppState, j: &str) -> Result<&'a Rulebook, ApiError> {
    bound_rulebooks(state, j)
        .await?
        .into_iter()
        .find(|r| r.stands.is_some())
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("a lei de {j} não tem regras de pontos fixos de estacionamento"),
            )
        })
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PontoEntrada {
    pub codigo: String,
    pub nome: String,
    /// Vagas de um ponto fixo; omita para um ponto livre (eventos).
    pub vagas: Option<u32>,
    /// O decreto ou ato que o criou.
    pub ato: Option<String>,
    /// Ponto provisório de evento: o primeiro dia (AAAA-MM-DD).
    pub de: Option<String>,
    /// Ponto provisório de evento: o último dia (AAAA-MM-DD).
    pub ate: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PontoSaida {
    pub codigo: String,
    pub nome: String,
    pub vagas: Option<u32>,
    pub ato: Option<String>,
    /// Ponto provisório: o primeiro e o último dia do evento.
    pub de: Option<String>,
    pub ate: Option<String>,
}

impl From<Stand> for PontoSaida {
    fn from(stand: Stand) -> PontoSaida {
        PontoSaida {
            codigo: stand.code,
            nome: stand.name,
            vagas: stand.capacity,
            ato: stand.act,
            de: text(stand.opens_on),
            ate: text(stand.closes_on),
        }
    }
}

/// A permit's stretch at a fixed stand.
#[derive(Debug, Serialize, ToSchema)]
pub struct LugarSaida {
    pub servico: String,
    pub numero: i64,
    /// CPF do titular.
    pub titular: String,
    pub ponto: String,
    pub desde: String,
    /// O dia em que deixou o ponto (não estava mais nele), se deixou.
    pub saiu_em: Option<String>,
    /// `swap`, `relocation`, `draw`, `downtime` ou `permit_ended`.
    pub saida: Option<String>,
    pub saida_nome: Option<String>,
    /// `designation`, `swap`, `relocation` ou `draw`.
    pub como: String,
    pub como_nome: String,
    pub ato: String,
    pub fundamentos: String,
    pub artigos: Vec<String>,
}

impl From<StandPlace> for LugarSaida {
    fn from(p: StandPlace) -> LugarSaida {
        LugarSaida {
            servico: p.service,
            numero: p.number,
            titular: p.holder,
            ponto: p.stand,
            desde: p.from.to_string(),
            saiu_em: p.left.map(|(on, _)| on.to_string()),
            saida: p.left.map(|(_, by)| by.name().into()),
            saida_nome: p.left.map(|(_, by)| by.portuguese().into()),
            como: p.came_by.name().into(),
            como_nome: p.came_by.portuguese().into(),
            ato: p.act,
            fundamentos: p.grounds,
            artigos: p.articles,
        }
    }
}

/// A stand on a day.
#[derive(Debug, Serialize, ToSchema)]
pub struct OcupacaoSaida {
    pub ponto: PontoSaida,
    pub dia: String,
    /// Vagas livres no dia (`null`: ponto livre).
    pub vagas_livres: Option<u32>,
    pub ocupantes: Vec<LugarSaida>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DiaConsulta {
    /// O dia (AAAA-MM-DD); hoje, se omitido.
    pub dia: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DesignacaoEntrada {
    pub servico: String,
    pub numero: i64,
    /// O ato que designa ou remaneja (portaria, despacho).
    pub ato: String,
    /// Os fundamentos: exigidos quando a permissão sai de outro ponto
    /// (remanejamento de ofício justificado).
    #[serde(default)]
    pub fundamentos: String,
    /// O pedido do titular, onde a lei o admite (Teófilo Otoni art. 26,
    /// parágrafo único); omita no remanejamento de ofício.
    pub pedido: Option<PedidoEntrada>,
}

/// O pedido de remanejamento feito pelo titular.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PedidoEntrada {
    /// O número do protocolo do pedido.
    pub protocolo: String,
    /// O estudo de viabilidade que autoriza o remanejamento.
    pub estudo: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotificacaoEntrada {
    /// O ponto para onde a permissão seria remanejada.
    pub ponto: String,
    /// O ato que notifica (ofício, notificação nº …).
    pub ato: String,
    /// As razões de interesse público que motivam a mudança.
    pub fundamentos: String,
    /// O dia em que o titular foi notificado (AAAA-MM-DD).
    pub notificado_em: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RespostaEntrada {
    /// O dia da resposta do titular (AAAA-MM-DD).
    pub respondida_em: String,
    /// A resposta ou justificativa do titular.
    pub resposta: String,
}

/// A notice to the holder before the stand is moved.
#[derive(Debug, Serialize, ToSchema)]
pub struct NotificacaoSaida {
    pub servico: String,
    pub numero: i64,
    /// O número da notificação, entre as da permissão.
    pub sequencia: i64,
    /// O ponto que a permissão tinha ao ser notificada.
    pub ponto: String,
    /// O ponto para onde seria remanejada.
    pub destino: String,
    pub ato: String,
    pub fundamentos: String,
    pub notificado_em: String,
    /// O último dia do prazo de resposta do titular.
    pub responder_ate: String,
    pub respondida_em: Option<String>,
    pub resposta: Option<String>,
    /// O dia em que o remanejamento foi feito, se foi.
    pub remanejada_em: Option<String>,
    pub artigos: Vec<String>,
}

impl From<StandNotice> for NotificacaoSaida {
    fn from(n: StandNotice) -> NotificacaoSaida {
        NotificacaoSaida {
            servico: n.service,
            numero: n.number,
            sequencia: n.seq,
            ponto: n.stand,
            destino: n.destination,
            ato: n.act,
            fundamentos: n.grounds,
            notificado_em: n.notified_on.to_string(),
            responder_ate: n.answer_until.to_string(),
            respondida_em: n.answer.as_ref().map(|(on, _)| on.to_string()),
            resposta: n.answer.map(|(_, text)| text),
            remanejada_em: n.relocated_on.map(|d| d.to_string()),
            artigos: n.articles,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JustificativaEntrada {
    /// A justificativa como a lei a admite (`health`, `dealer_delay`…).
    pub motivo: String,
    pub de: String,
    pub ate: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PerdaPontoEntrada {
    /// O primeiro dia parado (AAAA-MM-DD).
    pub de: String,
    /// O último dia parado.
    pub ate: String,
    #[serde(default)]
    pub justificativas: Vec<JustificativaEntrada>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AnuenciaEntrada {
    /// A entidade de classe que anuiu.
    pub entidade: String,
    /// O dia da anuência (AAAA-MM-DD).
    pub data: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PermutaEntrada {
    pub servico: String,
    /// As duas permissões que pedem a permuta.
    pub permissoes: [i64; 2],
    /// A anuência da entidade de classe, quando dada.
    pub anuencia: Option<AnuenciaEntrada>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisaoPermutaEntrada {
    pub autorizar: bool,
    /// Os fundamentos (exigidos ao indeferir).
    #[serde(default)]
    pub decisao: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PermutaSaida {
    /// `[ano, número]`.
    pub pedido: (i32, i64),
    pub servico: String,
    /// Cada permissão com o ponto em que estava ao pedir.
    pub permissoes: Vec<(i64, String)>,
    pub pedida_em: String,
    pub anuencia: Option<(String, String)>,
    /// `requested`, `approved` ou `refused`.
    pub situacao: String,
    pub situacao_nome: String,
    pub decidida_em: Option<String>,
    pub decidida_por: Option<String>,
    pub decisao: Option<String>,
    pub artigos: Vec<String>,
    /// Os débitos da taxa de permuta: `ano/número/parcela`.
    pub debitos: Vec<String>,
}

impl From<StandSwap> for PermutaSaida {
    fn from(s: StandSwap) -> PermutaSaida {
        PermutaSaida {
            pedido: (s.year, s.number),
            servico: s.service,
            permissoes: vec![s.a, s.b],
            pedida_em: s.requested_on.to_string(),
            anuencia: s.consent.map(|(by, on)| (by, on.to_string())),
            situacao: s.status.name().into(),
            situacao_nome: s.status.portuguese().into(),
            decidida_em: s.decided.as_ref().map(|d| d.0.to_string()),
            decidida_por: s.decided.as_ref().map(|d| d.1.clone()),
            decisao: s.decided.map(|d| d.2),
            artigos: s.articles,
            debitos: s.debts,
        }
    }
}

/// Registers a stand.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/stands", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = PontoEntrada,
    responses((status = 201, body = PontoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn register(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<PontoEntrada>,
) -> Result<(StatusCode, Json<PontoSaida>), ApiError> {
    let mut stand = Stand::new(
        &input.codigo.trim().to_uppercase(),
        input.nome.trim(),
        input.vagas,
    );
    stand.act = input.ato.filter(|a| !a.trim().is_empty());
    stand.opens_on = optional_day(input.de.as_deref(), "de")?;
    stand.closes_on = optional_day(input.ate.as_deref(), "ate")?;
    let change = change!(state, who, "cadastro pela API");
    state.store.register_stand(&change, &j, &stand).await?;
    Ok((StatusCode::CREATED, Json(stand.into())))
}

/// A page of the stands of the jurisdiction, by code.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/stands", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"), Pagina),
    responses((status = 200, body = Lista<PontoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<PontoSaida>>, ApiError> {
    let asked = page.asked()?;
    let stands = state.store.stands(&j, asked.window()).await?;
    Ok(Json(Lista::of(stands)))
}

/// Who holds the places of a stand on a day, and the places free.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/stands/{codigo}", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("codigo" = String, Path, description = "o ponto"), DiaConsulta),
    responses((status = 200, body = OcupacaoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn occupancy(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, codigo)): Path<(String, String)>,
    Query(asked): Query<DiaConsulta>,
) -> Result<Json<OcupacaoSaida>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    let on = day_or_today(&state, &j, asked.dia.as_deref(), "dia")?;
    let found = state.store.stand_occupancy(&j, &codigo, on).await?;
    Ok(Json(OcupacaoSaida {
        ponto: found.stand.into(),
        dia: found.on.to_string(),
        vagas_livres: found.vacancies,
        ocupantes: found.occupants.into_iter().map(LugarSaida::from).collect(),
    }))
}

/// Designates the stand to a permit (its first), or relocates it there
/// from the one it holds: by the authority with grounds (Canguçu art. 15, §
/// 3º, III; TO art. 26) after the holder's notice and the time to answer it
/// where the law requires them (SMJ art. 28, § 1º), or at the holder's
/// request where the law provides it (TO art. 26, parágrafo único).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/stands/{codigo}/designations", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("codigo" = String, Path, description = "o ponto")),
    request_body = DesignacaoEntrada,
    responses((status = 201, body = LugarSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn designate(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, codigo)): Path<(String, String)>,
    Json(input): Json<DesignacaoEntrada>,
) -> Result<(StatusCode, Json<LugarSaida>), ApiError> {
    let rulebook = stand_rulebook(&state, &j).await?;
    let change = change!(state, who, "designação de ponto pela API");
    let placed = state
        .store
        .designate_stand(
            &change,
            rulebook,
            &j,
            &Designation {
                service: input.servico.trim().to_string(),
                number: input.numero,
                stand: codigo,
                act: input.ato,
                grounds: input.fundamentos,
                request: input.pedido.map(|p| HolderRequest {
                    protocol: p.protocolo,
                    study: p.estudo,
                }),
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(placed.into())))
}

/// The fixed stands a permit has held, oldest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/stands", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão"), Pagina),
    responses((status = 200, body = Lista<LugarSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn permit_places(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<LugarSaida>>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    let asked = page.asked()?;
    let places = state
        .store
        .permit_stands(&j, (&servico, numero), asked.window())
        .await?;
    Ok(Json(Lista::of(places)))
}

/// Records the notice to the holder that the permit's fixed stand will be
/// moved, with the answer's last day (Santa Maria de Jetibá art. 28, § 1º).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-notices", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão")),
    request_body = NotificacaoEntrada,
    responses((status = 201, body = NotificacaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn notify(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Json(input): Json<NotificacaoEntrada>,
) -> Result<(StatusCode, Json<NotificacaoSaida>), ApiError> {
    let rulebook = stand_rulebook(&state, &j).await?;
    let notified_on = parse_day(&input.notificado_em, "notificado_em")?;
    let change = change!(state, who, "notificação de mudança de ponto pela API");
    let notice = state
        .store
        .notify_stand_relocation(
            &change,
            rulebook,
            &j,
            &NoticeInput {
                service: servico,
                number: numero,
                destination: input.ponto,
                act: input.ato,
                grounds: input.fundamentos,
                notified_on,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(notice.into())))
}

/// The notices of moving a permit's stand, oldest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-notices", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão"), Pagina),
    responses((status = 200, body = Lista<NotificacaoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn notices(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<NotificacaoSaida>>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    let asked = page.asked()?;
    let found = state
        .store
        .stand_notices(&j, (&servico, numero), asked.window())
        .await?;
    Ok(Json(Lista::of(found)))
}

/// Records the holder's answer to a notice, within its time.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-notices/{sequencia}/answer", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão"),
           ("sequencia" = i64, Path, description = "o número da notificação")),
    request_body = RespostaEntrada,
    responses((status = 200, body = NotificacaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn answer(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero, sequencia)): Path<(String, String, i64, i64)>,
    Json(input): Json<RespostaEntrada>,
) -> Result<Json<NotificacaoSaida>, ApiError> {
    let rulebook = stand_rulebook(&state, &j).await?;
    let on = parse_day(&input.respondida_em, "respondida_em")?;
    let change = change!(
        state,
        who,
        "resposta à notificação de mudança de ponto pela API"
    );
    let notice = state
        .store
        .answer_stand_notice(
            &change,
            rulebook,
            &j,
            ((&servico, numero), sequencia),
            (on, &input.resposta),
        )
        .await?;
    Ok(Json(notice.into()))
}

/// The permit loses its fixed stand for the days its vehicle was off the
/// road, when the law says so (Canguçu art. 36, III).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-loss", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão")),
    request_body = PerdaPontoEntrada,
    responses((status = 200, body = LugarSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn lose(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Json(input): Json<PerdaPontoEntrada>,
) -> Result<Json<LugarSaida>, ApiError> {
    let rulebook = stand_rulebook(&state, &j).await?;
    let from = parse_day(&input.de, "de")?;
    let to = parse_day(&input.ate, "ate")?;
    let excused = input
        .justificativas
        .iter()
        .map(|e| {
            Ok(Excused {
                reason: e.motivo.trim().to_string(),
                from: parse_day(&e.de, "justificativas.de")?,
                to: parse_day(&e.ate, "justificativas.ate")?,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let change = change!(state, who, "perda do ponto fixo pela API");
    let lost = state
        .store
        .lose_stand_for_downtime(
            &change,
            rulebook,
            &j,
            (&servico, numero),
            (from, to),
            &excused,
        )
        .await?;
    Ok(Json(lost.into()))
}

/// Two holders' written request to swap their fixed stands (Canguçu art.
/// 15, § 6º), with the class entity's consent when given.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/stand-swaps", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = PermutaEntrada,
    responses((status = 201, body = PermutaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn request_swap(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<PermutaEntrada>,
) -> Result<(StatusCode, Json<PermutaSaida>), ApiError> {
    let rulebook = stand_rulebook(&state, &j).await?;
    let consent = input
        .anuencia
        .map(|a| Ok::<_, ApiError>((a.entidade, parse_day(&a.data, "anuencia.data")?)))
        .transpose()?;
    let change = change!(state, who, "pedido de permuta de pontos pela API");
    let swap = state
        .store
        .request_stand_swap(
            &change,
            rulebook,
            &j,
            &SwapRequest {
                service: input.servico.trim().to_string(),
                a: input.permissoes[0],
                b: input.permissoes[1],
                consent,
            },
        )
        .await?;
    Ok((StatusCode::CREATED, Json(swap.into())))
}

/// The swaps still to decide, oldest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/stand-swaps", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"), Pagina),
    responses((status = 200, body = Lista<PermutaSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn pending_swaps(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<PermutaSaida>>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    let asked = page.asked()?;
    let swaps = state.store.pending_stand_swaps(&j, asked.window()).await?;
    Ok(Json(Lista::of(swaps)))
}

/// A swap request.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/stand-swaps/{ano}/{numero}", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do pedido"),
           ("numero" = i64, Path, description = "o número do pedido")),
    responses((status = 200, body = PermutaSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn swap(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<PermutaSaida>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    Ok(Json(
        state.store.stand_swap(&j, (ano, numero)).await?.into(),
    ))
}

/// The department's decision on a swap: authorized, both holders move and
/// each pays the fee (Canguçu art. 15, § 3º, II); or refused, with grounds.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/stand-swaps/{ano}/{numero}/decision", tag = "pontos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do pedido"),
           ("numero" = i64, Path, description = "o número do pedido")),
    request_body = DecisaoPermutaEntrada,
    responses((status = 200, body = PermutaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn decide_swap(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<DecisaoPermutaEntrada>,
) -> Result<Json<PermutaSaida>, ApiError> {
    let rulebook = stand_rulebook(&state, &j).await?;
    let change = change!(state, who, "decisão de permuta de pontos pela API");
    let swap = state
        .store
        .decide_stand_swap(
            &change,
            rulebook,
            &j,
            (ano, numero),
            (input.autorizar, &input.decisao),
        )
        .await?;
    Ok(Json(swap.into()))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register, list))
        .routes(routes!(occupancy))
        .routes(routes!(designate))
        .routes(routes!(permit_places))
        .routes(routes!(lose))
        .routes(routes!(notify, notices))
        .routes(routes!(answer))
        .routes(routes!(request_swap, pending_swaps))
        .routes(routes!(swap))
        .routes(routes!(decide_swap))
}
