//! Autos de infração and their process: issued by inspectors with the
//! engine's penalty proposal, numbered without gaps per year; notified,
//! defended, judged, appealed and made final within the law's deadlines.

use crate::auth::{Board, Clerk, ClerkOrBoard, Inspector, Reader, require};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::page::{Lista, Pagina};
use crate::routes::{
    change, day_or_today, parse_moment, rulebook_for_service, rulebook_named, rulebook_of_auto,
};
use crate::routes::{grounds_of, optional_day, text};
use crate::state::AppState;
use crate::vocab::{NAO_CONHECIMENTO, PASSOS, PENALIDADES, SITUACOES_AUTO};
use axum::extract::State;
use axum::http::StatusCode;
use outorga_core::engine::process::{Misfit, NOT_ADMITTED, Step, StepFields, StepKind};
use outorga_core::model::{Rulebook, SanctionKind};
use outorga_store::{
    Auto, AutoFilter, AutoInput, Change, ProcessStep, Proposal, ProposedSanction, User,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PermissaoRef {
    pub servico: String,
    pub numero: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AutoEntrada {
    /// O código da infração no regulamento, como `51-I-a`.
    pub infracao: String,
    /// CPF ou CNPJ do autuado (cadastrado).
    pub autuado: String,
    /// A permissão sob a qual foi cometida; o regulamento é o do seu serviço.
    pub permissao: Option<PermissaoRef>,
    /// Sem permissão: o regulamento, como `teofilo-otoni/mototaxi`.
    pub regulamento: Option<String>,
    pub placa: Option<String>,
    /// AAAA-MM-DDTHH:MM.
    pub cometida_em: String,
    pub local: String,
    pub descricao: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SancaoProposta {
    pub tipo: String,
    pub alvo: Option<String>,
    pub pagador: Option<String>,
    pub unidade: Option<String>,
    /// A multa na sua unidade (decimal exato).
    pub quantidade: Option<String>,
    pub reais: Option<String>,
    pub dias: Option<u32>,
    pub dias_min: Option<u32>,
    pub dias_max: Option<u32>,
    pub anos: Option<u32>,
    pub meses: Option<u32>,
    /// Aplicada no ato (retenção, apreensão): o artigo que o manda.
    pub no_ato: Option<String>,
    /// A autoridade pode aplicá-la ou não.
    pub facultativa: bool,
    pub artigos: Vec<String>,
}

impl From<ProposedSanction> for SancaoProposta {
    fn from(s: ProposedSanction) -> SancaoProposta {
        SancaoProposta {
            tipo: PENALIDADES.wire(&s.kind),
            alvo: s.target,
            pagador: s.payer,
            unidade: s.unit,
            quantidade: s.quantity,
            reais: s.brl,
            dias: s.days,
            dias_min: s.min_days,
            dias_max: s.max_days,
            no_ato: s.at_once,
            facultativa: s.optional,
            anos: s.years,
            meses: s.months,
            artigos: s.articles,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Pontos {
    pub documento: String,
    pub pontos: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Proposta {
    pub sancoes: Vec<SancaoProposta>,
    /// Pontos somados por documento.
    pub pontos: Vec<Pontos>,
    pub artigos: Vec<String>,
    /// A versão da lei em vigor quando a infração foi cometida, que a julgou
    /// (ausente nos autos anteriores à lei ou às versões).
    pub versao_da_lei: Option<VersaoDaLei>,
    /// O que diz cada artigo citado, nessa versão da lei.
    pub textos: Vec<TextoCitado>,
    /// Os valores da implantação com que foi pesada (no lugar dos do
    /// regulamento), com os atos que os fixaram.
    pub atos_aplicados: Vec<AtoAplicado>,
}

/// Um valor fixado por ato da implantação que a decisão usou.
#[derive(Debug, Serialize, ToSchema)]
pub struct AtoAplicado {
    pub parametro: String,
    pub valor: String,
    /// AAAA-MM-DD; ausente num valor registrado antes de se datarem os atos.
    pub desde: Option<String>,
    pub ato: Option<String>,
}

/// Uma versão de uma lei: de quando vigora e o ato que lhe deu o texto.
#[derive(Debug, Serialize, ToSchema)]
pub struct VersaoDaLei {
    /// AAAA-MM-DD.
    pub desde: String,
    pub ato: String,
    /// Como se lê ("Lei 1.234/2020 — texto original, em vigor desde …").
    pub descricao: String,
}

impl From<outorga_store::applied_law::LawVersion> for VersaoDaLei {
    fn from(v: outorga_store::applied_law::LawVersion) -> VersaoDaLei {
        VersaoDaLei {
            desde: v.valid_from.to_string(),
            ato: v.act,
            descricao: v.label,
        }
    }
}

/// O texto de um artigo citado, como a lei o imprime.
#[derive(Debug, Serialize, ToSchema)]
pub struct TextoCitado {
    pub artigo: String,
    pub texto: String,
}

impl From<outorga_store::applied_law::CitedWords> for TextoCitado {
    fn from(w: outorga_store::applied_law::CitedWords) -> TextoCitado {
        TextoCitado {
            artigo: w.citation,
            texto: w.words,
        }
    }
}

impl From<Proposal> for Proposta {
    fn from(p: Proposal) -> Proposta {
        Proposta {
            sancoes: p.sanctions.into_iter().map(SancaoProposta::from).collect(),
            pontos: p
                .points
                .into_iter()
                .map(|(documento, pontos)| Pontos { documento, pontos })
                .collect(),
            artigos: p.articles,
            versao_da_lei: p.law_version.map(VersaoDaLei::from),
            textos: p.law_words.into_iter().map(TextoCitado::from).collect(),
            atos_aplicados: p
                .applied_acts
                .into_iter()
                .map(|a| AtoAplicado {
                    parametro: a.parameter,
                    valor: a.value,
                    desde: a.valid_from.map(|d| d.to_string()),
                    ato: a.act,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct AutoSaida {
    pub ano: i32,
    pub numero: i64,
    pub regulamento: String,
    pub infracao: String,
    pub autuado: String,
    pub permissao: Option<PermissaoRef>,
    pub placa: Option<String>,
    pub cometida_em: String,
    pub local: String,
    pub descricao: String,
    pub fiscal: String,
    pub situacao: String,
    /// A situação por extenso.
    pub situacao_nome: String,
    /// Notificação de irregularidade: o prazo para saná-la.
    pub sanar_ate: Option<String>,
    /// Os dias para sanar que a notificação fixou (sem eles, os do regulamento).
    pub prazo_sanar_dias: Option<u32>,
    /// Quando se realiza a vistoria de verificação, como comunicado ao delegatário.
    pub vistoria_em: Option<String>,
    /// A infração com que a decisão definitiva se anota no prontuário, quando
    /// a opção escolhida traz pontos próprios (Teófilo Otoni art. 85: `85-a`,
    /// 4 pontos; `85-b`, 8; `85-ab`, 12).
    pub anotada_como: Option<String>,
    pub decisao_notificada_em: Option<String>,
    /// Os dias fixados pela decisão, onde a lei dá um intervalo.
    pub dias_decididos: Option<u32>,
    /// As penalidades escolhidas pela decisão, onde a lei deixa escolher.
    pub penalidades_decididas: Option<Vec<String>>,
    pub proposta: Proposta,
    pub notificar_ate: Option<String>,
    pub notificado_em: Option<String>,
    pub defesa_ate: Option<String>,
    pub defesa_em: Option<String>,
    pub julgado_em: Option<String>,
    pub recurso_ate: Option<String>,
    pub recurso_em: Option<String>,
    pub definitivo_em: Option<String>,
}

impl From<Auto> for AutoSaida {
    fn from(a: Auto) -> AutoSaida {
        AutoSaida {
            situacao_nome: outorga_store::auto_status_pt(a.status).into(),
            ano: a.year,
            numero: a.number,
            regulamento: a.rulebook,
            infracao: a.infraction,
            autuado: a.offender,
            permissao: a
                .permit
                .map(|(servico, numero)| PermissaoRef { servico, numero }),
            placa: a.plate,
            cometida_em: a.committed_at.format("%Y-%m-%dT%H:%M:%S").to_string(),
            local: a.place,
            descricao: a.description,
            fiscal: a.inspector,
            situacao: SITUACOES_AUTO.wire(a.status.name()),
            sanar_ate: text(a.cure_by),
            prazo_sanar_dias: a.cure_days,
            anotada_como: a.recorded_as,
            vistoria_em: a
                .verification_at
                .map(|at| at.format("%Y-%m-%dT%H:%M").to_string()),
            decisao_notificada_em: text(a.decision_notified_on),
            dias_decididos: a.decision.as_ref().and_then(|d| d.days),
            penalidades_decididas: a
                .decision
                .as_ref()
                .and_then(|d| d.sanctions.as_ref())
                .map(|k| k.iter().map(|k| PENALIDADES.wire(k.name())).collect()),
            proposta: a.proposal.into(),
            notificar_ate: text(a.notify_by),
            notificado_em: text(a.notified_on),
            defesa_ate: text(a.defense_by),
            defesa_em: text(a.defense_on),
            julgado_em: text(a.judged_on),
            recurso_ate: text(a.appeal_by),
            recurso_em: text(a.appealed_on),
            definitivo_em: text(a.final_on),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PassoEntrada {
    /// Julgar e julgar o recurso cabem à junta/comissão; os demais, ao
    /// atendente. Os passos que o auto admite hoje: GET neste caminho.
    pub passo: String,
    /// AAAA-MM-DD; hoje quando omitida.
    pub data: Option<String>,
    /// O texto da defesa ou do recurso.
    #[serde(default)]
    pub texto: String,
    /// No julgamento e na decisão do recurso: o auto é mantido?
    pub mantido: Option<bool>,
    /// Onde a lei dá um intervalo (suspensão de 5 a 30 dias): os dias fixados.
    pub dias: Option<u32>,
    /// Onde a lei deixa escolher: as penalidades decididas (multa,
    /// suspensao_permissao…); sem elas, as da proposta.
    pub penalidades: Option<Vec<String>>,
    /// No recurso: houve depósito (nunca exigido: Súmula Vinculante 21).
    pub deposito: Option<bool>,
    /// Julgamento ou decisão do recurso: a defesa ou o recurso não é
    /// conhecido, pela hipótese da lei (Canguçu Anexo I art. 24:
    /// `intempestiva`, `ilegitimidade`, `sem_assinatura`, `sem_pedido`); o
    /// auto fica mantido.
    pub nao_conhecido: Option<String>,
    /// Julgamento: a autoridade a quem a lei reserva a decisão, quando o
    /// auto propõe uma penalidade reservada (Santa Maria de Jetibá art. 8º,
    /// § 2º: `prefeito`, a cassação; Teófilo Otoni art. 85: `diretor`).
    pub autoridade: Option<String>,
    #[serde(default)]
    pub fundamentos: String,
    /// Na decisão do recurso: o recorrente foi cientificado de que a
    /// decisão pode agravar a pena e pôde alegar (Lei 9.784/1999, art. 64,
    /// parágrafo único); sem isso, o recurso não agrava a decisão recorrida.
    pub recorrente_cientificado: Option<bool>,
    /// Na notificação de uma notificação de irregularidade: os dias para
    /// sanar que ela fixa (Canguçu Anexo I art. 7º, § 1º); sem eles, os do
    /// regulamento.
    pub prazo_sanar: Option<u32>,
    /// Em `comunicar_vistoria`: quando o delegatário foi comunicado
    /// (AAAA-MM-DDTHH:MM; a `data` do passo é o seu dia)…
    pub comunicado_em: Option<String>,
    /// …e quando se realiza a vistoria de verificação, com a antecedência
    /// mínima da lei (Canguçu Anexo I art. 7º, § 2º: 24 horas).
    pub vistoria_em: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FiltroAutos {
    /// CPF ou CNPJ do autuado.
    pub autuado: Option<String>,
    /// A placa do veículo.
    pub placa: Option<String>,
    /// Só os autos nesta situação.
    pub situacao: Option<String>,
    /// O código da infração, como `51-I-a`.
    pub infracao: Option<String>,
    /// Cometidas a partir deste dia (AAAA-MM-DD).
    pub de: Option<String>,
    /// Cometidas até este dia, inclusive (AAAA-MM-DD).
    pub ate: Option<String>,
}

/// A moment sent, when one was.
fn moment_of(text: Option<&str>, campo: &str) -> Result<Option<chrono::NaiveDateTime>, ApiError> {
    text.map(|t| crate::routes::parse_moment(t, campo))
        .transpose()
}

/// The step asked for, and whether the board (not a clerk) takes it.
fn process_step(input: &PassoEntrada) -> Result<(ProcessStep, bool), ApiError> {
    let bad = |field: &'static str, reason: String| {
        ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, field, reason)
    };
    let kind = StepKind::parse(&PASSOS.read("passo", &input.passo)?).ok_or_else(|| {
        bad(
            "passo",
            format!("`{}`: use {}", input.passo.trim(), PASSOS.spellings()),
        )
    })?;
    let named = PASSOS.wire(kind.name());
    // Kinds are read only where a step decides; elsewhere their presence is
    // what the step refuses.
    let sanctions = input
        .penalidades
        .as_ref()
        .map(|list| {
            list.iter()
                .filter(|_| kind.decides())
                .map(|k| {
                    PENALIDADES
                        .code(k)
                        .and_then(SanctionKind::parse)
                        .ok_or_else(|| {
                            bad(
                                "penalidades",
                                format!(
                                    "`{}` não é uma penalidade; use {}",
                                    k.trim(),
                                    PENALIDADES.spellings()
                                ),
                            )
                        })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?;
    let fields = StepFields {
        upheld: input.mantido,
        days: input.dias,
        sanctions,
        deposit: input.deposito,
        not_admitted: input
            .nao_conhecido
            .as_deref()
            .map(|n| NAO_CONHECIMENTO.read("nao_conhecido", n))
            .transpose()?,
        cure_days: input.prazo_sanar,
        heard: input.recorrente_cientificado,
        told: moment_of(input.comunicado_em.as_deref(), "comunicado_em")?,
        inspection: moment_of(input.vistoria_em.as_deref(), "vistoria_em")?,
    };
    let step = Step::build(kind, fields).map_err(|misfit| match misfit {
        Misfit::DecisionOutsideDecision => bad(
            "mantido",
            format!(
                "`mantido`, `dias` e `penalidades` são do julgamento e da decisão do recurso, não de `{named}`"
            ),
        ),
        Misfit::DepositOutsideAppeal => bad(
            "deposito",
            format!("`deposito` é do recurso, não de `{named}`"),
        ),
        Misfit::UpheldMissing => bad(
            "mantido",
            "diga se o auto é mantido (true) ou não (false)".into(),
        ),
        Misfit::NotAdmittedAnnulled => bad(
            "nao_conhecido",
            "a defesa ou o recurso não conhecido não anula o auto: omita `mantido` ou use true"
                .into(),
        ),
        Misfit::CureDaysOutsideNotify => bad(
            "prazo_sanar",
            format!("`prazo_sanar` é da notificação da irregularidade, não de `{named}`"),
        ),
        Misfit::NoCureDays => bad(
            "prazo_sanar",
            "a notificação fixa ao menos 1 dia para sanar".into(),
        ),
        Misfit::VerificationOutsideSchedule => bad(
            "vistoria_em",
            format!("`comunicado_em` e `vistoria_em` são de `comunicar_vistoria`, não de `{named}`"),
        ),
        Misfit::HeardOutsideAppeal => bad(
            "recorrente_cientificado",
            format!("`recorrente_cientificado` é da decisão do recurso, não de `{named}`"),
        ),
        Misfit::VerificationMissing => bad(
            if input.comunicado_em.is_none() {
                "comunicado_em"
            } else {
                "vistoria_em"
            },
            "diga quando o delegatário foi comunicado (`comunicado_em`) e quando se realiza a vistoria (`vistoria_em`), AAAA-MM-DDTHH:MM".into(),
        ),
    })?
    .decided_by(input.autoridade.as_deref().map(str::trim).map(str::to_string))
    .ok_or_else(|| {
        bad(
            "autoridade",
            format!("`autoridade` é do julgamento, não de `{named}`"),
        )
    })?;
    let text = if kind.decides() {
        &input.fundamentos
    } else {
        &input.texto
    };
    Ok((ProcessStep::with_text(step, text.clone()), kind.decides()))
}

/// Refuses (422, in Portuguese) a ground of non-admission the rulebook does
/// not list, naming those it does (none listed: the law's machine says so).
fn admissible(rulebook: &Rulebook, ground: &str) -> Result<(), ApiError> {
    let listed = grounds_of(rulebook, NOT_ADMITTED);
    NAO_CONHECIMENTO
        .read_among("nao_conhecido", ground, &listed)
        .map(drop)
}

/// Issues an auto de infração with the engine's penalty proposal; the
/// inspector is the signed-in user.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/autos", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = AutoEntrada,
    responses((status = 201, body = AutoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn issue(
    State(state): State<AppState>,
    who: Inspector,
    Path(j): Path<String>,
    Json(input): Json<AutoEntrada>,
) -> Result<(StatusCode, Json<AutoSaida>), ApiError> {
    let change = change!(state, who, "auto lavrado pela API");
    let issued = issue_auto(&state, &change, &j, input).await?;
    Ok((StatusCode::CREATED, Json(issued.into())))
}

/// The rulebook an auto is issued under (its permit's service's, or the
/// one named when there is no permit) and the auto as the store takes it.
async fn auto_input<'a>(
    state: &'a AppState,
    j: &str,
    input: AutoEntrada,
) -> Result<(&'a Rulebook, AutoInput), ApiError> {
    let rulebook = match (&input.permissao, &input.regulamento) {
        (Some(permit), _) => rulebook_for_service(state, j, &permit.servico).await?,
        (None, Some(id)) => rulebook_named(state, j, id).await?,
        (None, None) => {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "regulamento",
                "sem permissão, diga o regulamento, como `teofilo-otoni/mototaxi`",
            ));
        }
    };
    let auto = AutoInput {
        infraction: input.infracao,
        offender: input.autuado,
        permit: input
            .permissao
            .map(|p| (p.servico.trim().to_string(), p.numero)),
        plate: input.placa,
        committed_at: parse_moment(&input.cometida_em, "cometida_em")?,
        place: input.local,
        description: input.descricao,
    };
    Ok((rulebook, auto))
}

/// Issues an auto: what `POST …/autos` and the inspector's page do. The
/// inspector is `change.by`.
pub async fn issue_auto(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    input: AutoEntrada,
) -> Result<Auto, ApiError> {
    let (rulebook, auto) = auto_input(state, j, input).await?;
    Ok(state.store.issue_auto(change, rulebook, j, &auto).await?)
}

/// The engine's proposal for the auto as it would be issued now, writing
/// nothing: what the inspector's page shows before saving.
pub async fn propose_auto(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    input: AutoEntrada,
) -> Result<Proposal, ApiError> {
    let (rulebook, auto) = auto_input(state, j, input).await?;
    Ok(state
        .store
        .auto_proposal(change, rulebook, j, &auto)
        .await?)
}

/// A page of the autos of the jurisdiction that the filters admit, the
/// latest infraction first.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/autos", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"), FiltroAutos, Pagina),
    responses((status = 200, body = Lista<AutoSaida>), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn list(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(filter): Query<FiltroAutos>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<AutoSaida>>, ApiError> {
    let asked = page.asked()?;
    let filter = AutoFilter {
        offender: filter.autuado,
        plate: filter.placa,
        status: filter
            .situacao
            .map(|s| SITUACOES_AUTO.read("situacao", &s))
            .transpose()?,
        infraction: filter.infracao,
        from: optional_day(filter.de.as_deref(), "de")?,
        to: optional_day(filter.ate.as_deref(), "ate")?,
        permit: None,
    };
    let autos = state.store.autos(&j, &filter, asked.window()).await?;
    Ok(Json(Lista::of(autos)))
}

/// An auto by year and number.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano"),
           ("numero" = i64, Path, description = "o número no ano")),
    responses((status = 200, body = AutoSaida), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)),
    security(("bearer" = [])))]
async fn get(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<AutoSaida>, ApiError> {
    Ok(Json(
        crate::routes::priced_auto(&state, &j, (ano, numero))
            .await?
            .into(),
    ))
}

/// Takes one step of the auto's process within the law's deadline:
/// notificar, defender, notificar_decisao, recorrer, tornar_definitivo,
/// arquivar, sanar, nao_sanada, liberar (clerks); julgar, julgar_recurso
/// (the board).
#[utoipa::path(post, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano"),
           ("numero" = i64, Path, description = "o número no ano")),
    request_body = PassoEntrada,
    responses((status = 200, body = AutoSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn step(
    State(state): State<AppState>,
    who: ClerkOrBoard,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
    Json(input): Json<PassoEntrada>,
) -> Result<Json<AutoSaida>, ApiError> {
    let change = change!(state, who, "processo do auto pela API");
    let auto = take_step(&state, (&who.user, &change), &j, (ano, numero), &input).await?;
    Ok(Json(auto.into()))
}

/// Takes a step of an auto's process as `user` (clerks take the steps,
/// the board judges): what `POST …/steps` and the auto's page do.
pub async fn take_step(
    state: &AppState,
    (user, change): (&User, &Change<'_>),
    j: &str,
    (ano, numero): (i32, i64),
    input: &PassoEntrada,
) -> Result<Auto, ApiError> {
    let (process, by_board) = process_step(input)?;
    if by_board {
        require(user, Board::admits, "junta/comissão")?;
    } else {
        require(user, Clerk::admits, "atendente")?;
    }
    // The verification is communicated on the day it was told.
    let told = match &process.step {
        Step::ScheduleVerification { told, .. } if input.data.is_none() => Some(told.date()),
        _ => None,
    };
    let on = match told {
        Some(day) => day,
        None => day_or_today(state, j, input.data.as_deref(), "data")?,
    };
    let rulebook = rulebook_of_auto(state, j, (ano, numero)).await?;
    if let Some(ground) = input.nao_conhecido.as_deref() {
        admissible(rulebook, ground)?;
    }
    Ok(state
        .store
        .process_auto(change, rulebook, j, (ano, numero), &process, on)
        .await?)
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(issue, list))
        .routes(routes!(get))
        .routes(routes!(step))
}
