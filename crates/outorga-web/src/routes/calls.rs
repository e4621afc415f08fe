//! Public calls for new permits (SMJ art. 2º, 6º, 8º; Canguçu art. 37; TO
//! art. 1º): the edital with its places from the cap, applications in the
//! period, the screening, the tie draw, the provisional result with the
//! appeal period, appeals decided by the board, the final result and the
//! grants in turn. The public routes show each call with names abbreviated
//! and CPFs masked (LGPD), every score by criterion and the draw, so that
//! anyone recomputes the ranking.

use crate::auth::{Board, Clerk, Public, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::limits::PublicLookup;
use crate::page::{Lista, Pagina};
use crate::routes::{
    bound_rulebooks, change, parse_day, rulebook_for_service, rulebook_named, text,
};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_core::model::{Quota, Rulebook};
use outorga_store::words::{masked_document, masked_name};
use outorga_store::{
    ApplicationInput, Call, CallApplication, CallCriterion, CallDocument, CallInput, Missing, Shown,
};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::str::FromStr;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CriterioEntrada {
    pub chave: String,
    pub descricao: String,
    /// Pontos por unidade comprovada (decimal exato, ponto ou vírgula).
    pub pontos_por_unidade: String,
    /// Pontos máximos do critério.
    pub maximo: Option<String>,
    /// O item do edital.
    pub item: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DocumentoEditalEntrada {
    pub nome: String,
    /// O item do edital.
    pub item: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EditalEntrada {
    pub servico: String,
    /// O ato que publica o edital.
    pub ato: String,
    /// Quantas vagas o edital oferece (das que o limite deixa).
    pub vagas: u32,
    /// Início e fim das inscrições (AAAA-MM-DD).
    pub inscricoes_de: String,
    pub inscricoes_ate: String,
    pub criterios: Vec<CriterioEntrada>,
    /// Chaves dos critérios que desempatam, em ordem, antes do sorteio.
    #[serde(default)]
    pub desempate: Vec<String>,
    #[serde(default)]
    pub documentos: Vec<DocumentoEditalEntrada>,
}

/// What an applicant shows.
#[derive(Debug, Default, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Mostrado {
    /// Quantidade comprovada por critério (decimal exato, como texto).
    #[serde(default)]
    pub quantidades: BTreeMap<String, String>,
    /// Documentos do edital apresentados.
    #[serde(default)]
    pub documentos: Vec<String>,
    /// A reserva de vagas pleiteada (ex.: `disabled_drivers`).
    pub reserva: Option<String>,
    /// As condições da reserva comprovadas.
    #[serde(default)]
    pub condicoes: Vec<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InscricaoChamamentoEntrada {
    /// CPF ou CNPJ do interessado (cadastrado).
    pub interessado: String,
    /// O que o interessado comprova.
    #[serde(default)]
    pub mostrado: Mostrado,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DesempateEntrada {
    /// A fonte pública da semente, anunciada antes.
    pub fonte_semente: String,
    /// O dia em que a fonte dá a semente (AAAA-MM-DD).
    pub data_semente: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecursoChamamentoEntrada {
    /// CPF ou CNPJ de quem recorre (um inscrito).
    pub recorrente: String,
    pub fundamentos: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DecisaoChamamentoEntrada {
    pub provido: bool,
    pub decisao: String,
    /// Provido, o que a inscrição passa a mostrar (omita para triar de
    /// novo com o cadastro atual).
    pub correcao: Option<Mostrado>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CriterioSaida {
    pub chave: String,
    pub descricao: String,
    pub pontos_por_unidade: String,
    pub maximo: Option<String>,
    pub item: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DocumentoEditalSaida {
    pub nome: String,
    pub item: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ReservaSaida {
    pub reserva: String,
    pub reserva_nome: String,
    pub vagas: u64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VagasSaida {
    pub ampla: u64,
    pub reservadas: Vec<ReservaSaida>,
    pub artigos: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PendenciaSaida {
    pub chave: String,
    pub descricao: String,
    pub artigos: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PontosSaida {
    pub criterio: String,
    pub quantidade: String,
    pub pontos: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PleitoSaida {
    pub reserva: String,
    pub admitido: bool,
    pub faltam: Vec<PendenciaSaida>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct TriagemSaida {
    pub em: String,
    pub habilitado: bool,
    /// Requisitos da lei não atendidos.
    pub nao_atendidos: Vec<PendenciaSaida>,
    /// Requisitos não comprovados e documentos do edital não apresentados.
    pub nao_comprovados: Vec<PendenciaSaida>,
    pub total: String,
    pub pontos: Vec<PontosSaida>,
    pub reserva: Option<PleitoSaida>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InscricaoSaida {
    pub numero: i64,
    /// O que as listas e o bilhete do sorteio leem.
    pub rotulo: String,
    /// O nome (na consulta pública, abreviado).
    pub nome: String,
    /// CPF ou CNPJ (na consulta pública, mascarado).
    pub documento: String,
    pub inscrito_em: String,
    pub mostrado: Mostrado,
    pub triagem: Option<TriagemSaida>,
    pub classificacao: Option<u32>,
    /// `reserved:CHAVE`, `open` ou `released:CHAVE`.
    pub vaga: Option<String>,
    pub vaga_nome: Option<String>,
    /// A vez da outorga (1 a primeira).
    pub vez: Option<u32>,
    /// `[serviço, número]` da permissão outorgada.
    pub permissao: Option<(String, i64)>,
    pub outorgada_em: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RecursoChamamentoSaida {
    pub numero: i64,
    pub inscricao: i64,
    pub interposto_em: String,
    pub fundamentos: String,
    /// `filed`, `granted` ou `denied`.
    pub situacao: String,
    pub situacao_nome: String,
    pub decidido_em: Option<String>,
    pub decisao: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SobraSaida {
    pub reserva: String,
    pub reserva_nome: String,
    pub vagas: u64,
    pub artigo: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct DesfechoSaida {
    /// Vagas de reserva liberadas à ampla concorrência.
    pub liberadas: Vec<SobraSaida>,
    /// Vagas de reserva que a lei não libera, sem preenchimento.
    pub vagas_reservadas_vagas: Vec<SobraSaida>,
    /// Vagas de ampla concorrência sem habilitado para elas.
    pub vagas_abertas_vagas: u64,
    pub artigos: Vec<String>,
}

/// A public call with its applications, appeals and tie draws.
#[derive(Debug, Serialize, ToSchema)]
pub struct ChamamentoSaida {
    /// `[ano, número]`.
    pub chamamento: (i32, i64),
    pub servico: String,
    pub regulamento: String,
    pub ato: String,
    pub vagas_oferecidas: u32,
    pub vagas: VagasSaida,
    pub inscricoes_de: String,
    pub inscricoes_ate: String,
    pub criterios: Vec<CriterioSaida>,
    pub desempate: Vec<String>,
    pub documentos: Vec<DocumentoEditalSaida>,
    /// `open`, `screened`, `provisional` ou `final`.
    pub situacao: String,
    pub situacao_nome: String,
    pub triado_em: Option<String>,
    pub provisorio_em: Option<String>,
    /// O último dia para recorrer do resultado provisório.
    pub recurso_ate: Option<String>,
    pub final_em: Option<String>,
    pub desfecho: Option<DesfechoSaida>,
    pub artigos: Vec<String>,
    pub inscritos: usize,
    /// Em ordem de inscrição (vazio na lista de chamamentos).
    pub inscricoes: Vec<InscricaoSaida>,
    pub recursos: Vec<RecursoChamamentoSaida>,
    /// Os sorteios de desempate, `[ano, número]`.
    pub sorteios: Vec<(i32, i64)>,
}

fn decimal(text: &str, campo: &str) -> Result<Decimal, ApiError> {
    Decimal::from_str(&text.trim().replace(',', ".")).map_err(|_| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            campo,
            format!("`{text}`: escreva um número decimal, ex.: 2 ou 0,5"),
        )
    })
}

fn number(value: Decimal) -> String {
    value.normalize().to_string()
}

/// What the applicant shows, as the store reads it.
pub fn shown(mostrado: &Mostrado) -> Result<Shown, ApiError> {
    Ok(Shown {
        quantities: mostrado
            .quantidades
            .iter()
            .map(|(k, v)| Ok((k.trim().to_string(), decimal(v, "quantidades")?)))
            .collect::<Result<_, ApiError>>()?,
        documents: mostrado
            .documentos
            .iter()
            .map(|d| d.trim().into())
            .collect(),
        claim: mostrado
            .reserva
            .as_deref()
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(str::to_string),
        proved: mostrado.condicoes.iter().map(|c| c.trim().into()).collect(),
    })
}

fn mostrado(shown: &Shown) -> Mostrado {
    Mostrado {
        quantidades: shown
            .quantities
            .iter()
            .map(|(k, v)| (k.clone(), number(*v)))
            .collect(),
        documentos: shown.documents.clone(),
        reserva: shown.claim.clone(),
        condicoes: shown.proved.clone(),
    }
}

fn pendencias(missing: &[Missing]) -> Vec<PendenciaSaida> {
    missing
        .iter()
        .map(|m| PendenciaSaida {
            chave: m.key.clone(),
            descricao: m.description.clone(),
            artigos: m.articles.clone(),
        })
        .collect()
}

fn inscricao(a: &CallApplication, public: bool) -> InscricaoSaida {
    InscricaoSaida {
        numero: a.seq,
        rotulo: a.label.clone(),
        nome: if public {
            masked_name(&a.name)
        } else {
            a.name.clone()
        },
        documento: if public {
            masked_document(&a.who)
        } else {
            a.who.clone()
        },
        inscrito_em: a.applied_on.to_string(),
        mostrado: mostrado(&a.shown),
        triagem: a.screening.as_ref().map(|s| TriagemSaida {
            em: s.on.to_string(),
            habilitado: s.eligible,
            nao_atendidos: pendencias(&s.unmet),
            nao_comprovados: pendencias(&s.not_shown),
            total: number(s.score),
            pontos: s
                .points
                .iter()
                .map(|p| PontosSaida {
                    criterio: p.criterion.clone(),
                    quantidade: number(p.quantity),
                    pontos: number(p.points),
                })
                .collect(),
            reserva: s.claim.as_ref().map(|c| PleitoSaida {
                reserva: c.share.clone(),
                admitido: c.admitted,
                faltam: pendencias(&c.missing),
            }),
        }),
        classificacao: a.position,
        vaga: a.place.as_ref().map(|p| p.name()),
        vaga_nome: a.place.as_ref().map(|p| p.portuguese()),
        vez: a.place_order,
        permissao: a.permit.clone(),
        outorgada_em: text(a.granted_on),
    }
}

fn sobras(list: &[(String, u64, String)]) -> Vec<SobraSaida> {
    list.iter()
        .map(|(share, places, article)| SobraSaida {
            reserva: share.clone(),
            reserva_nome: Quota::label(share).to_string(),
            vagas: *places,
            artigo: article.clone(),
        })
        .collect()
}

pub(crate) fn wire(call: &Call, public: bool) -> ChamamentoSaida {
    ChamamentoSaida {
        chamamento: (call.year, call.number),
        servico: call.service.clone(),
        regulamento: call.rulebook.clone(),
        ato: call.act.clone(),
        vagas_oferecidas: call.offered,
        vagas: VagasSaida {
            ampla: call.places.open,
            reservadas: call
                .places
                .reserved
                .iter()
                .map(|(share, places)| ReservaSaida {
                    reserva: share.clone(),
                    reserva_nome: Quota::label(share).to_string(),
                    vagas: *places,
                })
                .collect(),
            artigos: call.places.articles.clone(),
        },
        inscricoes_de: call.opens_on.to_string(),
        inscricoes_ate: call.closes_on.to_string(),
        criterios: call
            .criteria
            .iter()
            .map(|c: &CallCriterion| CriterioSaida {
                chave: c.key.clone(),
                descricao: c.description.clone(),
                pontos_por_unidade: number(c.points_per_unit),
                maximo: c.max.map(number),
                item: c.citation.clone(),
            })
            .collect(),
        desempate: call.tie_breaks.clone(),
        documentos: call
            .documents
            .iter()
            .map(|d: &CallDocument| DocumentoEditalSaida {
                nome: d.name.clone(),
                item: d.citation.clone(),
            })
            .collect(),
        situacao: call.status.name().into(),
        situacao_nome: call.status.portuguese().into(),
        triado_em: text(call.screened_on),
        provisorio_em: text(call.provisional_on),
        recurso_ate: text(call.appeal_until),
        final_em: text(call.final_on),
        desfecho: call.outcome.as_ref().map(|o| DesfechoSaida {
            liberadas: sobras(&o.released),
            vagas_reservadas_vagas: sobras(&o.vacant),
            vagas_abertas_vagas: o.open_vacant,
            artigos: o.articles.clone(),
        }),
        artigos: call.articles.clone(),
        inscritos: call.applications.len(),
        inscricoes: call
            .applications
            .iter()
            .map(|a| inscricao(a, public))
            .collect(),
        recursos: call
            .appeals
            .iter()
            .map(|a| RecursoChamamentoSaida {
                numero: a.seq,
                inscricao: a.application,
                interposto_em: a.filed_on.to_string(),
                fundamentos: if public {
                    String::new()
                } else {
                    a.grounds.clone()
                },
                situacao: a.status.name().into(),
                situacao_nome: a.status.portuguese().into(),
                decidido_em: text(a.decided_on),
                decisao: a.decision.clone(),
            })
            .collect(),
        sorteios: call.draws.iter().map(|d| (d.year, d.number)).collect(),
    }
}

/// The rulebook a call was opened under.
pub async fn rulebook_of_call<'a>(
    state: &'a AppState,
    j: &str,
    key: (i32, i64),
) -> Result<&'a Rulebook, ApiError> {
    let call = state.store.call(j, key).await?;
    rulebook_named(state, j, &call.rulebook).await
}

/// The edital as the store reads it.
pub fn edital(input: &EditalEntrada) -> Result<CallInput, ApiError> {
    Ok(CallInput {
        service: input.servico.trim().into(),
        act: input.ato.clone(),
        offered: input.vagas,
        opens_on: parse_day(&input.inscricoes_de, "inscricoes_de")?,
        closes_on: parse_day(&input.inscricoes_ate, "inscricoes_ate")?,
        criteria: input
            .criterios
            .iter()
            .map(|c| {
                Ok(CallCriterion {
                    key: c.chave.trim().into(),
                    description: c.descricao.trim().into(),
                    points_per_unit: decimal(&c.pontos_por_unidade, "criterios")?,
                    max: c
                        .maximo
                        .as_deref()
                        .map(|m| decimal(m, "criterios"))
                        .transpose()?,
                    citation: c.item.trim().into(),
                })
            })
            .collect::<Result<_, ApiError>>()?,
        tie_breaks: input.desempate.iter().map(|t| t.trim().into()).collect(),
        documents: input
            .documentos
            .iter()
            .map(|d| CallDocument {
                name: d.nome.trim().into(),
                citation: d.item.trim().into(),
            })
            .collect(),
    })
}

/// Opens a public call: the edital and the places it offers, computed from
/// the cap today.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = EditalEntrada,
    responses((status = 201, body = ChamamentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn open(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<EditalEntrada>,
) -> Result<(StatusCode, Json<ChamamentoSaida>), ApiError> {
    let rulebook = rulebook_for_service(&state, &j, &input.servico).await?;
    let input = edital(&input)?;
    let change = change!(state, who, "edital de chamamento pela API");
    let call = state.store.open_call(&change, rulebook, &j, &input).await?;
    Ok((StatusCode::CREATED, Json(wire(&call, false))))
}

/// A page of the jurisdiction's calls, newest first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/calls", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"), Pagina),
    responses((status = 200, body = Lista<ChamamentoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<ChamamentoSaida>>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    let asked = page.asked()?;
    let calls = state.store.calls(&j, asked.window()).await?;
    Ok(Json(Lista::with(calls, |c| wire(&c, false))))
}

/// A call with its applications, appeals and tie draws.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    responses((status = 200, body = ChamamentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn read(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<ChamamentoSaida>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    Ok(Json(wire(
        &state.store.call(&j, (ano, numero)).await?,
        false,
    )))
}

/// Records an application within the period.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/applications", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    request_body = InscricaoChamamentoEntrada,
    responses((status = 201, body = ChamamentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn apply(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<InscricaoChamamentoEntrada>,
) -> Result<(StatusCode, Json<ChamamentoSaida>), ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let application = ApplicationInput {
        who: input.interessado,
        shown: shown(&input.mostrado)?,
    };
    let change = change!(state, who, "inscrição em chamamento pela API");
    let call = state
        .store
        .apply_to_call(&change, rulebook, &j, (ano, numero), &application)
        .await?;
    Ok((StatusCode::CREATED, Json(wire(&call, false))))
}

/// Screens every application once the period has ended.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/screening", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    responses((status = 200, body = ChamamentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn screen(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<ChamamentoSaida>, ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "triagem de chamamento pela API");
    let call = state
        .store
        .screen_call(&change, rulebook, &j, (ano, numero))
        .await?;
    Ok(Json(wire(&call, false)))
}

/// Opens the public draw among the tied, its list closed and hashed now.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/tie-draw", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    request_body = DesempateEntrada,
    responses((status = 201, body = ChamamentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn tie_draw(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<DesempateEntrada>,
) -> Result<(StatusCode, Json<ChamamentoSaida>), ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let seed_on = parse_day(&input.data_semente, "data_semente")?;
    let change = change!(state, who, "sorteio de desempate pela API");
    let call = state
        .store
        .open_call_tie_draw(
            &change,
            rulebook,
            &j,
            (ano, numero),
            (&input.fonte_semente, seed_on),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(wire(&call, false))))
}

/// Publishes the provisional result and the last day to appeal.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/provisional-result", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    responses((status = 200, body = ChamamentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn provisional(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<ChamamentoSaida>, ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "resultado provisório pela API");
    let call = state
        .store
        .publish_provisional_result(&change, rulebook, &j, (ano, numero))
        .await?;
    Ok(Json(wire(&call, false)))
}

/// Records an applicant's appeal against the provisional result.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/appeals", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    request_body = RecursoChamamentoEntrada,
    responses((status = 201, body = ChamamentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn appeal(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<RecursoChamamentoEntrada>,
) -> Result<(StatusCode, Json<ChamamentoSaida>), ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "recurso em chamamento pela API");
    let call = state
        .store
        .appeal_call(
            &change,
            rulebook,
            &j,
            (ano, numero),
            (&input.recorrente, &input.fundamentos),
        )
        .await?;
    Ok((StatusCode::CREATED, Json(wire(&call, false))))
}

/// The board's decision on an appeal; granted, the application is screened
/// again with what the decision corrects.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/appeals/{recurso}/decision", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital"),
           ("recurso" = i64, Path, description = "o número do recurso")),
    request_body = DecisaoChamamentoEntrada,
    responses((status = 200, body = ChamamentoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn decide_appeal(
    State(state): State<AppState>,
    who: Board,
    Path((j, ano, numero, recurso)): Path<(String, i32, i64, i64)>,
    Json(input): Json<DecisaoChamamentoEntrada>,
) -> Result<Json<ChamamentoSaida>, ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let amendment = input.correcao.as_ref().map(shown).transpose()?;
    let change = change!(state, who, "decisão de recurso em chamamento pela API");
    let call = state
        .store
        .decide_call_appeal(
            &change,
            rulebook,
            &j,
            ((ano, numero), recurso),
            (input.provido, &input.decisao, amendment.as_ref()),
        )
        .await?;
    Ok(Json(wire(&call, false)))
}

/// Publishes the final result once the appeals are decided; the share's
/// unfilled places are released where the law says so.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/final-result", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    responses((status = 200, body = ChamamentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn final_result(
    State(state): State<AppState>,
    who: Board,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<ChamamentoSaida>, ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "resultado final pela API");
    let call = state
        .store
        .publish_final_result(&change, rulebook, &j, (ano, numero))
        .await?;
    Ok(Json(wire(&call, false)))
}

/// Grants the permit of the application whose turn it is.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/calls/{ano}/{numero}/applications/{inscricao}/grant", tag = "chamamentos",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital"),
           ("inscricao" = i64, Path, description = "o número da inscrição")),
    responses((status = 200, body = ChamamentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn grant(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, ano, numero, inscricao)): Path<(String, i32, i64, i64)>,
) -> Result<Json<ChamamentoSaida>, ApiError> {
    let rulebook = rulebook_of_call(&state, &j, (ano, numero)).await?;
    let change = change!(state, who, "outorga por chamamento pela API");
    let call = state
        .store
        .grant_from_call(&change, rulebook, &j, ((ano, numero), inscricao))
        .await?;
    Ok(Json(wire(&call, false)))
}

/// A call as the public sees it: the edital, the count of applicants, the
/// screening's points by criterion, the ranking and the places — names
/// abbreviated and CPFs masked.
#[utoipa::path(get, path = "/api/public/jurisdictions/{j}/calls/{ano}/{numero}", tag = "consulta pública",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano do edital"),
           ("numero" = i64, Path, description = "o número do edital")),
    responses((status = 200, body = ChamamentoSaida), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn public_read(
    _: PublicLookup,
    State(state): State<AppState>,
    _: Public,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<ChamamentoSaida>, ApiError> {
    bound_rulebooks(&state, &j).await?;
    Ok(Json(wire(
        &state.store.call(&j, (ano, numero)).await?,
        true,
    )))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(open, list))
        .routes(routes!(read))
        .routes(routes!(apply))
        .routes(routes!(screen))
        .routes(routes!(tie_draw))
        .routes(routes!(provisional))
        .routes(routes!(appeal))
        .routes(routes!(decide_appeal))
        .routes(routes!(final_result))
        .routes(routes!(grant))
        .routes(routes!(public_read))
}
