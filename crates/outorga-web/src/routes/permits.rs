//! Permits and what serves under them: the grant (cap, quotas, eligibility),
//! changes of status with their history, drivers, the vehicle in service and
//! its inspections. The rulebook is the jurisdiction's for the service.

use crate::auth::{Board, Clerk, ClerkOrBoard, Examiner, Reader, require};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::documents::DocumentoSaida;
use crate::routes::{change, day_or_today, grounds_of, rulebook_for_service};
use crate::state::AppState;
use crate::vocab::{
    COTAS, EVENTOS, EXCECOES, FUNCOES, FUNDAMENTOS, HIPOTESES_CADUCIDADE, MOTIVOS_RESERVA,
    SITUACOES_PERMISSAO, VISTORIAS,
};
use axum::extract::State;
use axum::http::StatusCode;
use outorga_core::engine::permit_life::{
    CADUCITY_GROUNDS, LifeFields, LifeMisfit, LifeStep, LifeStepKind,
};
use outorga_core::model::{EndGround, Rulebook};
use outorga_store::{
    Change, Driver, DriverAdded, GrantRequest, Granted, HistoryStep, Inspection, PermitChange,
    PermitFilter, PermitRecord, ToCheck, VehicleIncluded, status_pt,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PermissaoEntrada {
    /// taxi, taxi_acessivel, mototaxi, motofrete ou onibus.
    pub servico: String,
    /// CPF ou CNPJ do titular (cadastrado).
    pub titular: String,
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
    /// A reserva de vagas (cota do regulamento), como
    /// `condutores_com_deficiencia`.
    pub cota: Option<String>,
    /// A linha, numa delegação de ônibus.
    pub linha: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PermissaoSaida {
    pub servico: String,
    pub numero: i64,
    pub regulamento: String,
    pub titular: String,
    pub situacao: String,
    /// A situação por extenso.
    pub situacao_nome: String,
    pub cota: Option<String>,
    pub concedida_em: String,
    pub vence_em: Option<String>,
    pub linha: Option<String>,
}

impl From<PermitRecord> for PermissaoSaida {
    fn from(p: PermitRecord) -> PermissaoSaida {
        PermissaoSaida {
            situacao_nome: status_pt(&p.status).into(),
            servico: p.service,
            numero: p.number,
            regulamento: p.rulebook,
            titular: p.holder,
            situacao: SITUACOES_PERMISSAO.wire(&p.status),
            cota: p.quota.as_deref().map(|q| COTAS.wire(q)),
            concedida_em: p.granted_on.to_string(),
            vence_em: p.expires_on.map(|d| d.to_string()),
            linha: p.line,
        }
    }
}

/// A requirement the clerk must still check, with its articles.
#[derive(Debug, Serialize, ToSchema)]
pub struct AVerificar {
    pub requisito: String,
    pub descricao: String,
    pub artigos: Vec<String>,
}

impl From<ToCheck> for AVerificar {
    fn from(t: ToCheck) -> AVerificar {
        AVerificar {
            requisito: t.requirement,
            descricao: t.description,
            artigos: t.articles,
        }
    }
}

/// The law's reason for a change not to count against its limit, as the
/// record keeps it (a blank one is none).
fn excuse(sent: Option<&str>) -> Result<Option<String>, ApiError> {
    sent.filter(|e| !e.trim().is_empty())
        .map(|e| EXCECOES.read("excecao", e))
        .transpose()
}

/// Refuses (422, in Portuguese) a share the rulebook does not reserve.
fn known_quota(rulebook: &Rulebook, quota: &str) -> Result<(), ApiError> {
    let key = COTAS.read("cota", quota)?;
    let keys: Vec<&str> = rulebook
        .caps
        .iter()
        .flat_map(|c| &c.reserved)
        .map(|q| q.key.as_str())
        .collect();
    if keys.contains(&key.as_str()) {
        return Ok(());
    }
    Err(ApiError::field(
        StatusCode::UNPROCESSABLE_ENTITY,
        "cota",
        if keys.is_empty() {
            format!(
                "`{}`: o regulamento {} não reserva vagas",
                quota.trim(),
                rulebook.id
            )
        } else {
            format!("`{}`: use {}", quota.trim(), COTAS.spell(keys))
        },
    ))
}

/// Refuses (422, in Portuguese) an excuse the law does not give for
/// `change` where it limits that change.
fn known_excuse(rulebook: &Rulebook, change: &str, excuse: Option<&str>) -> Result<(), ApiError> {
    let (Some(limit), Some(excuse)) = (
        rulebook.change_limits.iter().find(|l| l.change == change),
        excuse,
    ) else {
        return Ok(());
    };
    if limit.excuses.iter().any(|e| e.key == excuse) {
        return Ok(());
    }
    Err(ApiError::field(
        StatusCode::UNPROCESSABLE_ENTITY,
        "excecao",
        format!(
            "`{}`: a lei só dispensa do limite por {}",
            EXCECOES.wire(excuse),
            EXCECOES.spell(limit.excuses.iter().map(|e| e.key.as_str()))
        ),
    ))
}

fn to_check(list: Vec<ToCheck>) -> Vec<AVerificar> {
    list.into_iter().map(AVerificar::from).collect()
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PermissaoConcedida {
    pub permissao: PermissaoSaida,
    /// Requisitos cujos fatos não estão registrados: confira antes de entregar.
    pub a_verificar: Vec<AVerificar>,
    pub artigos: Vec<String>,
    /// O termo de delegação de uma linha de ônibus.
    pub documento: Option<DocumentoSaida>,
}

impl From<Granted> for PermissaoConcedida {
    fn from(g: Granted) -> PermissaoConcedida {
        PermissaoConcedida {
            permissao: g.permit.into(),
            a_verificar: to_check(g.to_check),
            artigos: g.articles,
            documento: g.document.map(DocumentoSaida::from),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PassoHistorico {
    pub evento: String,
    pub situacao: String,
    pub desde: String,
    pub ate: Option<String>,
    pub motivo: String,
    pub artigos: Vec<String>,
    /// Em que a lei fundou o passo: o motivo da reserva, a hipótese de
    /// caducidade notificada ou o fundamento da extinção.
    pub fundamento: Option<String>,
}

/// A history step's ground in Portuguese, in the vocabulary of its event.
fn ground_wire(event: &str, ground: &str) -> String {
    match event {
        "reserve" => MOTIVOS_RESERVA.wire(ground),
        "caducity_notice" => HIPOTESES_CADUCIDADE.wire(ground),
        _ => FUNDAMENTOS.wire(ground),
    }
}

impl From<HistoryStep> for PassoHistorico {
    fn from(h: HistoryStep) -> PassoHistorico {
        PassoHistorico {
            fundamento: h.ground.as_deref().map(|g| ground_wire(&h.event, g)),
            evento: EVENTOS.wire(&h.event),
            situacao: SITUACOES_PERMISSAO.wire(&h.status),
            desde: h.since.to_string(),
            ate: h.until.map(|d| d.to_string()),
            motivo: h.reason,
            artigos: h.articles,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PermissaoComHistorico {
    pub permissao: PermissaoSaida,
    /// Do mais antigo ao mais recente.
    pub historico: Vec<PassoHistorico>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct MudancaEntrada {
    /// reserva (com motivo e dias), prorrogacao_reserva (com dias), retorno,
    /// renovacao, transferencia (com para e anuencia), notificacao_caducidade
    /// (com fundamento), correcao, extincao (com fundamento), renuncia ou
    /// revogacao.
    pub mudanca: String,
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
    /// O motivo da reserva (suspensão a pedido), um dos que o regulamento
    /// admite (`furto_ou_roubo`, que também se escreve `furto` ou `roubo`…).
    pub motivo: Option<String>,
    pub dias: Option<u32>,
    /// Na extinção: o fundamento (`termo`, `falecimento`…). Na notificação
    /// de caducidade: a hipótese da lei (`descumprimento`, `paralisacao`…).
    pub fundamento: Option<String>,
    /// Na transferência: o CPF ou CNPJ do novo titular, cadastrado.
    pub para: Option<String>,
    /// Na transferência: houve prévia anuência do poder delegante.
    pub anuencia: Option<bool>,
}

/// The steps of a permit's life as the API spells them.
const MUDANCAS: [(&str, LifeStepKind); 8] = [
    ("reserva", LifeStepKind::Reserve),
    ("prorrogacao_reserva", LifeStepKind::ExtendReserve),
    ("retorno", LifeStepKind::Reinstate),
    ("renovacao", LifeStepKind::Renew),
    ("transferencia", LifeStepKind::Transfer),
    ("notificacao_caducidade", LifeStepKind::CaducityNotice),
    ("correcao", LifeStepKind::Cure),
    ("extincao", LifeStepKind::End),
];

fn names<T>(table: &[(&str, T)]) -> String {
    table.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
}

/// A text sent, unless blank.
fn sent(text: &Option<String>) -> Option<&str> {
    text.as_deref().filter(|t| !t.trim().is_empty())
}

/// The rulebook's reasons for a reserve: (key, description).
fn reserve_reasons(rulebook: &Rulebook) -> Vec<(&str, &str)> {
    rulebook
        .permit_suspension
        .iter()
        .flat_map(|r| &r.reasons)
        .map(|r| (r.key.as_str(), r.description.as_str()))
        .collect()
}

impl MudancaEntrada {
    /// Whether the change is the authority's decision (read from the names
    /// alone, before the body is checked).
    fn by_the_authority(&self) -> bool {
        match self.mudanca.trim() {
            "revogacao" | "transferencia" | "notificacao_caducidade" => true,
            "extincao" => {
                self.fundamento.as_deref().and_then(|f| FUNDAMENTOS.code(f))
                    != Some(EndGround::Renunciation.name())
            }
            _ => false,
        }
    }

    /// The ground the change is asked on, as the record keeps it: a
    /// reserve's reason and a caducity notice's ground among the
    /// rulebook's, an extinction's of the law's list; refused in
    /// Portuguese, naming the field, when the law does not know it.
    fn ground(
        &self,
        rulebook: &Rulebook,
        asked: &str,
        (kind, given): (LifeStepKind, Option<EndGround>),
    ) -> Result<Option<String>, ApiError> {
        Ok(match (kind, given, sent(&self.fundamento)) {
            (LifeStepKind::Reserve, _, _) => sent(&self.motivo)
                .map(|m| MOTIVOS_RESERVA.read_among("motivo", m, &reserve_reasons(rulebook)))
                .transpose()?,
            (LifeStepKind::End, Some(g), None) => Some(g.name().to_string()),
            (LifeStepKind::End, Some(_), Some(_)) => {
                return Err(bad("fundamento", format!("`{asked}` já diz o fundamento")));
            }
            (LifeStepKind::End, None, f) => {
                f.map(|f| FUNDAMENTOS.read("fundamento", f)).transpose()?
            }
            (LifeStepKind::CaducityNotice, _, f) => f
                .map(|f| {
                    HIPOTESES_CADUCIDADE.read_among(
                        "fundamento",
                        f,
                        &grounds_of(rulebook, CADUCITY_GROUNDS),
                    )
                })
                .transpose()?,
            (_, _, f) => f.map(str::to_string),
        })
    }

    /// The change asked, as the store takes it: the step of the permit's
    /// life with its ground (read against `rulebook`), days and consent,
    /// and the new holder.
    fn change(&self, rulebook: &Rulebook) -> Result<PermitChange, ApiError> {
        let asked = self.mudanca.trim();
        // `renuncia` and `revogacao` are extinctions on that ground.
        let (kind, given) = match asked {
            "renuncia" => (LifeStepKind::End, Some(EndGround::Renunciation)),
            "revogacao" => (LifeStepKind::End, Some(EndGround::Revocation)),
            other => {
                let kind = MUDANCAS
                    .iter()
                    .find(|(n, _)| *n == other)
                    .map(|(_, k)| *k)
                    .ok_or_else(|| {
                        bad(
                            "mudanca",
                            format!("`{other}`: use {}, renuncia ou revogacao", names(&MUDANCAS)),
                        )
                    })?;
                (kind, None)
            }
        };
        if kind != LifeStepKind::Reserve && self.motivo.is_some() {
            return Err(bad("motivo", "só a reserva tem motivo".into()));
        }
        if kind == LifeStepKind::Reserve && self.fundamento.is_some() {
            return Err(bad(
                "fundamento",
                "a reserva tem motivo, não fundamento".into(),
            ));
        }
        let fields = LifeFields {
            ground: self.ground(rulebook, asked, (kind, given))?,
            days: self.dias,
            until: None,
            consent: self.anuencia,
        };
        let step = LifeStep::build(kind, fields).map_err(|misfit| misplaced(kind, misfit))?;
        Ok(PermitChange {
            step,
            to: self.para.clone(),
        })
    }
}

/// A refused field of a change (422).
fn bad(campo: &str, motivo: String) -> ApiError {
    ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, campo, motivo)
}

/// A field a change of `kind` lacks or does not take, named as the API
/// spells it.
fn misplaced(kind: LifeStepKind, misfit: LifeMisfit) -> ApiError {
    match misfit {
        LifeMisfit::Missing(field) => {
            let campo = match field {
                "ground" if kind == LifeStepKind::Reserve => "motivo",
                "ground" => "fundamento",
                "days" => "dias",
                other => other,
            };
            bad(campo, format!("obrigatório em {}", kind.portuguese()))
        }
        LifeMisfit::NotHere(field) => {
            let campo = match field {
                "ground" => "fundamento",
                "days" => "dias",
                "consent" => "anuencia",
                other => other,
            };
            bad(campo, format!("não cabe em {}", kind.portuguese()))
        }
        LifeMisfit::UnknownGround(g) => bad(
            "fundamento",
            format!(
                "`{}`: use {}",
                FUNDAMENTOS.wire(&g),
                FUNDAMENTOS.spellings()
            ),
        ),
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FiltroPermissoes {
    /// Só as permissões deste serviço.
    pub servico: Option<String>,
    /// Só as permissões nesta situação.
    pub situacao: Option<String>,
    /// CPF ou CNPJ do titular.
    pub titular: Option<String>,
    /// A placa do veículo em serviço na permissão.
    pub placa: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct Data {
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CondutorEntrada {
    /// CPF do condutor (cadastrado, com perfil).
    pub condutor: String,
    pub funcao: String,
    pub data: Option<String>,
    /// Numa troca de condutor: o motivo previsto em lei que a deixa fora do
    /// limite de trocas por período (ex.: `pedido_demissao`), se houver.
    pub excecao: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CondutorSaida {
    pub matricula: String,
    pub servico: String,
    pub numero: i64,
    pub condutor: String,
    pub funcao: String,
    pub desde: String,
    pub valida_ate: Option<String>,
    pub ate: Option<String>,
}

impl From<Driver> for CondutorSaida {
    fn from(d: Driver) -> CondutorSaida {
        CondutorSaida {
            matricula: d.registration,
            servico: d.service,
            numero: d.number,
            condutor: d.driver,
            funcao: FUNCOES.wire(&d.role),
            desde: d.since.to_string(),
            valida_ate: d.valid_until.map(|v| v.to_string()),
            ate: d.until.map(|v| v.to_string()),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CondutorIncluido {
    pub condutor: CondutorSaida,
    /// A matrícula do condutor.
    pub documento: DocumentoSaida,
    pub a_verificar: Vec<AVerificar>,
    pub artigos: Vec<String>,
}

impl From<DriverAdded> for CondutorIncluido {
    fn from(a: DriverAdded) -> CondutorIncluido {
        CondutorIncluido {
            condutor: a.driver.into(),
            documento: a.document.into(),
            a_verificar: to_check(a.to_check),
            artigos: a.articles,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VeiculoEmServicoEntrada {
    /// A placa (cadastrada): a primeira inclusão ou a substituição.
    pub placa: String,
    pub data: Option<String>,
    /// Numa substituição: o motivo previsto em lei que a deixa fora do
    /// limite de substituições por período (ex.: `acidente`), se houver.
    pub excecao: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VeiculoEmServico {
    pub placa: String,
    /// A autorização de tráfego emitida.
    pub autorizacao: DocumentoSaida,
    pub a_verificar: Vec<AVerificar>,
    pub artigos: Vec<String>,
}

impl From<VehicleIncluded> for VeiculoEmServico {
    fn from(v: VehicleIncluded) -> VeiculoEmServico {
        VeiculoEmServico {
            placa: v.plate,
            autorizacao: v.authorization.into(),
            a_verificar: to_check(v.to_check),
            artigos: v.articles,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct VistoriaEntrada {
    /// O serviço cujo regulamento rege a vistoria.
    pub servico: String,
    /// A periódica ou um tipo de vistoria do regulamento.
    pub tipo: String,
    pub data: Option<String>,
    pub aprovada: bool,
    /// Obrigatórias quando reprovada.
    #[serde(default)]
    pub constatacoes: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VistoriaSaida {
    pub ano: i32,
    pub numero: i64,
    pub placa: String,
    pub tipo: String,
    pub data: String,
    pub aprovada: bool,
    pub constatacoes: String,
    pub proxima_ate: Option<String>,
    pub fiscal: String,
    /// O selo, quando aprovada.
    pub selo: Option<DocumentoSaida>,
    pub artigos: Vec<String>,
}

impl From<Inspection> for VistoriaSaida {
    fn from(i: Inspection) -> VistoriaSaida {
        VistoriaSaida {
            ano: i.year,
            numero: i.number,
            placa: i.plate,
            tipo: VISTORIAS.wire(&i.kind),
            data: i.done_on.to_string(),
            aprovada: i.approved,
            constatacoes: i.findings,
            proxima_ate: i.next_due.map(|d| d.to_string()),
            fiscal: i.inspector,
            selo: i.seal.map(DocumentoSaida::from),
            artigos: i.articles,
        }
    }
}

/// Grants a permit if the law allows it; a refusal names the articles.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = PermissaoEntrada,
    responses((status = 201, body = PermissaoConcedida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn grant(
    State(state): State<AppState>,
    who: Clerk,
    Path(j): Path<String>,
    Json(input): Json<PermissaoEntrada>,
) -> Result<(StatusCode, Json<PermissaoConcedida>), ApiError> {
    let rulebook = rulebook_for_service(&state, &j, &input.servico).await?;
    if let Some(quota) = input.cota.as_deref().filter(|q| !q.trim().is_empty()) {
        known_quota(rulebook, quota)?;
    }
    let request = GrantRequest {
        service: input.servico.trim().to_string(),
        holder: input.titular,
        on: day_or_today(&state, &j, input.data.as_deref(), "data")?,
        quota: input
            .cota
            .filter(|q| !q.trim().is_empty())
            .map(|q| COTAS.read("cota", &q))
            .transpose()?,
        line: input.linha.filter(|l| !l.trim().is_empty()),
    };
    let change = change!(state, who, "outorga pela API");
    let granted = state
        .store
        .grant_permit(&change, rulebook, &j, &request)
        .await?;
    Ok((StatusCode::CREATED, Json(granted.into())))
}

/// A page of the permits of the jurisdiction that the filters admit, by
/// service and number.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/permits", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"), FiltroPermissoes, Pagina),
    responses((status = 200, body = Lista<PermissaoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(filter): Query<FiltroPermissoes>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<PermissaoSaida>>, ApiError> {
    let asked = page.asked()?;
    let filter = PermitFilter {
        service: filter.servico,
        status: filter
            .situacao
            .map(|s| SITUACOES_PERMISSAO.read("situacao", &s))
            .transpose()?,
        holder: filter.titular,
        plate: filter.placa,
    };
    let permits = state.store.permits(&j, &filter, asked.window()).await?;
    Ok(Json(Lista::of(permits)))
}

/// A permit with its history.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão")),
    responses((status = 200, body = PermissaoComHistorico), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, servico, numero)): Path<(String, String, i64)>,
) -> Result<Json<PermissaoComHistorico>, ApiError> {
    let (permit, history) = state.store.permit(&j, &servico, numero).await?;
    Ok(Json(PermissaoComHistorico {
        permissao: permit.into(),
        historico: history.into_iter().map(PassoHistorico::from).collect(),
    }))
}

/// Changes a permit's life as the law allows: reserve (suspension on
/// request) and its extension, return, renewal, transfer, notice before
/// caducity and its correction, extinction on a ground of the law.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/status", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão")),
    request_body = MudancaEntrada,
    responses((status = 200, body = PermissaoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn change_status(
    State(state): State<AppState>,
    who: ClerkOrBoard,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Json(input): Json<MudancaEntrada>,
) -> Result<Json<PermissaoSaida>, ApiError> {
    // Ending a permit (but for the holder's renunciation), a notice before
    // caducity and a transfer are the authority's decisions; the rest is a
    // clerk's work. The role is weighed before the rest of the body.
    if input.by_the_authority() {
        require(&who.user, Board::admits, "junta/comissão")?;
    } else {
        require(&who.user, Clerk::admits, "atendente")?;
    }
    let rulebook = rulebook_for_service(&state, &j, &servico).await?;
    let asked = input.change(rulebook)?;
    let on = day_or_today(&state, &j, input.data.as_deref(), "data")?;
    let change = change!(state, who, "mudança de situação pela API");
    let permit = state
        .store
        .change_permit(&change, rulebook, &j, (&servico, numero), &asked, on)
        .await?;
    Ok(Json(permit.into()))
}

/// Links a driver to the permit and issues the registration.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão")),
    request_body = CondutorEntrada,
    responses((status = 201, body = CondutorIncluido), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn add_driver(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Json(input): Json<CondutorEntrada>,
) -> Result<(StatusCode, Json<CondutorIncluido>), ApiError> {
    let change = change!(state, who, "condutor incluído pela API");
    let added = add_driver_to(&state, &change, &j, (&servico, numero), &input).await?;
    Ok((StatusCode::CREATED, Json(added.into())))
}

/// Links a driver to the permit and issues the registration: what `POST
/// …/drivers` and the dossier's page do.
pub async fn add_driver_to(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    (servico, numero): (&str, i64),
    input: &CondutorEntrada,
) -> Result<DriverAdded, ApiError> {
    let role = FUNCOES.read("funcao", &input.funcao)?;
    let excuse = excuse(input.excecao.as_deref())?;
    let rulebook = rulebook_for_service(state, j, servico).await?;
    known_excuse(rulebook, "driver_swap", excuse.as_deref())?;
    let on = day_or_today(state, j, input.data.as_deref(), "data")?;
    Ok(state
        .store
        .add_driver(
            change,
            rulebook,
            j,
            (servico, numero),
            (&input.condutor, &role),
            (on, excuse.as_deref()),
        )
        .await?)
}

/// A page of the drivers of the permit, those who left included, by
/// registration.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão"), Pagina),
    responses((status = 200, body = Lista<CondutorSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn drivers(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<CondutorSaida>>, ApiError> {
    let asked = page.asked()?;
    let list = state
        .store
        .drivers(&j, (&servico, numero), asked.window())
        .await?;
    Ok(Json(Lista::of(list)))
}

/// Refuses (404) a registration that is not of this permit.
async fn serves(
    state: &AppState,
    j: &str,
    (servico, numero): (&str, i64),
    matricula: &str,
) -> Result<(), ApiError> {
    let serving = state.store.driver(j, matricula).await?;
    if serving.is_some_and(|d| d.service == servico && d.number == numero) {
        Ok(())
    } else {
        Err(ApiError::not_found(format!(
            "a permissão {servico} nº {numero} não tem o condutor de matrícula {matricula}"
        )))
    }
}

/// Renews a driver's registration (a year, or as long as the law says) if
/// they still meet the requirements; a new document replaces the old one.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers/{matricula}/renewal", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão"),
           ("matricula" = String, Path, description = "a matrícula"), Data),
    responses((status = 201, body = CondutorIncluido), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn renew_driver(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero, matricula)): Path<(String, String, i64, String)>,
    Query(when): Query<Data>,
) -> Result<(StatusCode, Json<CondutorIncluido>), ApiError> {
    let on = day_or_today(&state, &j, when.data.as_deref(), "data")?;
    let rulebook = rulebook_for_service(&state, &j, &servico).await?;
    serves(&state, &j, (&servico, numero), &matricula).await?;
    let change = change!(state, who, "matrícula renovada pela API");
    let renewed = state
        .store
        .renew_registration(&change, rulebook, &j, &matricula, on)
        .await?;
    Ok((StatusCode::CREATED, Json(renewed.into())))
}

/// Unlinks a driver: the registration ends on the day given.
#[utoipa::path(delete, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers/{matricula}", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão"),
           ("matricula" = String, Path, description = "a matrícula"), Data),
    responses((status = 200, body = CondutorSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn remove_driver(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero, matricula)): Path<(String, String, i64, String)>,
    Query(when): Query<Data>,
) -> Result<Json<CondutorSaida>, ApiError> {
    let change = change!(state, who, "condutor desligado pela API");
    let driver = remove_driver_from(
        &state,
        &change,
        &j,
        (&servico, numero),
        (&matricula, when.data.as_deref()),
    )
    .await?;
    Ok(Json(driver.into()))
}

/// Unlinks the driver of registration `matricula` from the permit on
/// `data` (none: today): what `DELETE …/drivers/{matricula}` and the
/// dossier's page do.
pub async fn remove_driver_from(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    (servico, numero): (&str, i64),
    (matricula, data): (&str, Option<&str>),
) -> Result<Driver, ApiError> {
    let on = day_or_today(state, j, data, "data")?;
    serves(state, j, (servico, numero), matricula).await?;
    Ok(state.store.remove_driver(change, j, matricula, on).await?)
}

/// Puts a vehicle in service under the permit: the first one (inclusion) or
/// a substitute; issues the traffic authorization.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/permits/{servico}/{numero}/vehicle", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("servico" = String, Path, description = "o serviço"),
           ("numero" = i64, Path, description = "o número da permissão")),
    request_body = VeiculoEmServicoEntrada,
    responses((status = 201, body = VeiculoEmServico), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn put_vehicle(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, servico, numero)): Path<(String, String, i64)>,
    Json(input): Json<VeiculoEmServicoEntrada>,
) -> Result<(StatusCode, Json<VeiculoEmServico>), ApiError> {
    let change = change!(state, who, "veículo em serviço pela API");
    let included = put_vehicle_in(&state, &change, &j, (&servico, numero), &input).await?;
    Ok((StatusCode::CREATED, Json(included.into())))
}

/// Puts a vehicle in service under the permit (inclusion or substitution,
/// as the law allows): what `POST …/vehicle` and the dossier's page do.
pub async fn put_vehicle_in(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    (servico, numero): (&str, i64),
    input: &VeiculoEmServicoEntrada,
) -> Result<VehicleIncluded, ApiError> {
    let excuse = excuse(input.excecao.as_deref())?;
    let rulebook = rulebook_for_service(state, j, servico).await?;
    known_excuse(rulebook, "vehicle_substitution", excuse.as_deref())?;
    let on = day_or_today(state, j, input.data.as_deref(), "data")?;
    Ok(state
        .store
        .put_vehicle(
            change,
            rulebook,
            j,
            (servico, numero),
            &input.placa,
            (on, excuse.as_deref()),
        )
        .await?)
}

/// Records an inspection of a vehicle; an approved periodic one issues the
/// seal valid until the next is due.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/vehicles/{placa}/inspections", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("placa" = String, Path, description = "a placa")),
    request_body = VistoriaEntrada,
    responses((status = 201, body = VistoriaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn inspect(
    State(state): State<AppState>,
    who: Examiner,
    Path((j, placa)): Path<(String, String)>,
    Json(input): Json<VistoriaEntrada>,
) -> Result<(StatusCode, Json<VistoriaSaida>), ApiError> {
    let change = change!(state, who, "vistoria pela API");
    let inspection = inspect_vehicle(&state, &change, &j, &placa, &input).await?;
    Ok((StatusCode::CREATED, Json(inspection.into())))
}

/// Records an inspection of the vehicle `placa`: what `POST
/// …/vehicles/{placa}/inspections` and the vehicle's page do.
pub async fn inspect_vehicle(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    placa: &str,
    input: &VistoriaEntrada,
) -> Result<Inspection, ApiError> {
    let kind = VISTORIAS.read("tipo", &input.tipo)?;
    let rulebook = rulebook_for_service(state, j, &input.servico).await?;
    let own = &rulebook.vehicles.inspections;
    if kind != "periodic" && !own.iter().any(|i| i.kind == kind) {
        return Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tipo",
            format!(
                "`{}`: use {}",
                input.tipo.trim(),
                VISTORIAS
                    .spell(std::iter::once("periodic").chain(own.iter().map(|i| i.kind.as_str())))
            ),
        ));
    }
    let on = day_or_today(state, j, input.data.as_deref(), "data")?;
    Ok(state
        .store
        .record_inspection(
            change,
            rulebook,
            j,
            (placa, &kind),
            on,
            (input.aprovada, &input.constatacoes),
        )
        .await?)
}

/// Renews the traffic authorization of a vehicle in service (Santa Maria de
/// Jetibá art. 15–16: every year, on the DIV, the CRLV and the CNH): a new
/// one, for the law's term, replaces the one in force.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/vehicles/{placa}/authorization", tag = "permissões",
    params(("j" = String, Path, description = "a jurisdição"),
           ("placa" = String, Path, description = "a placa"), Data),
    responses((status = 201, body = DocumentoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn renew_authorization(
    State(state): State<AppState>,
    who: Clerk,
    Path((j, placa)): Path<(String, String)>,
    Query(when): Query<Data>,
) -> Result<(StatusCode, Json<DocumentoSaida>), ApiError> {
    let on = day_or_today(&state, &j, when.data.as_deref(), "data")?;
    let service = state.store.serving_service(&j, &placa).await?;
    let rulebook = rulebook_for_service(&state, &j, &service).await?;
    let change = change!(state, who, "autorização de tráfego renovada pela API");
    let renewed = state
        .store
        .renew_authorization(&change, rulebook, &j, &placa, on)
        .await?;
    Ok((StatusCode::CREATED, Json(renewed.into())))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(renew_authorization))
        .routes(routes!(grant, list))
        .routes(routes!(get))
        .routes(routes!(change_status))
        .routes(routes!(add_driver, drivers))
        .routes(routes!(remove_driver))
        .routes(routes!(renew_driver))
        .routes(routes!(put_vehicle))
        .routes(routes!(inspect))
}
