//! The steps an auto's procedure admits today: for each step, whether the
//! law's machine (`outorga_core::engine::process::Machine`) would take it
//! now, or why not with the articles; and the time limits that run. The
//! same question the store asks when a step is posted, asked without
//! writing, so a client offers only what the law allows.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::extract::Path;
use crate::json::Json;
use crate::routes::{rulebook_named, today_in};
use crate::state::AppState;
use crate::vocab::{PASSOS, PENALIDADES, PRAZOS, SITUACOES_AUTO};
use axum::extract::State;
use axum::http::StatusCode;
use chrono::NaiveDate;
use outorga_core::engine::process::{Machine, Step, StepFields, StepKind};
use outorga_store::Role;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Serialize, ToSchema)]
pub struct PassosPossiveis {
    /// O dia da resposta: hoje, na hora da jurisdição.
    pub data: String,
    pub situacao: String,
    /// A situação por extenso.
    pub situacao_nome: String,
    /// Cada passo do processo: se cabe hoje e, se não, por quê.
    pub passos: Vec<PassoPossivel>,
    /// Os prazos que correm hoje na situação do auto.
    pub prazos: Vec<PrazoAberto>,
    /// Quem julga o recurso que cabe agora, e contra quais penalidades
    /// (Amapá art. 71: a CTC as multas, a hierarquia as demais); vazio
    /// quando não cabe recurso.
    pub recurso_para: Vec<InstanciaRecurso>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InstanciaRecurso {
    pub orgao: String,
    /// As penalidades de que conhece.
    pub contra: Vec<String>,
    pub artigo: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PassoPossivel {
    /// O `passo` a enviar (POST neste caminho).
    pub passo: String,
    pub nome: String,
    /// Quem o registra: atendente ou junta/comissão.
    pub papel: String,
    /// Num julgamento que a lei reserva a outra autoridade (a cassação,
    /// Santa Maria de Jetibá art. 8º, § 2º): como a decisão a nomeia
    /// (`autoridade` do passo) e seu nome na lei.
    pub autoridade: Option<String>,
    pub autoridade_nome: Option<String>,
    /// A lei admite o passo hoje. Num julgamento, o que se decide (manter,
    /// fixar dias, escolher penalidades) é conferido ao registrá-lo.
    pub permitido: bool,
    /// Por que não cabe hoje.
    pub motivo: Option<String>,
    /// Os artigos que o recusam.
    pub artigos: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PrazoAberto {
    pub tipo: String,
    /// O último dia (AAAA-MM-DD).
    pub vence_em: String,
    pub artigo: String,
}

/// The step of `kind` as the machine is asked it: a decision asked as an
/// annulment, which any judgement may be (what else it decides is weighed
/// when it is posted).
/// A verification is asked as told now for the earliest day the law would
/// allow (two days on, past any notice counted in hours of a day).
fn probe(kind: StepKind, today: NaiveDate) -> Option<Step> {
    let told = today.and_hms_opt(0, 0, 0);
    let verification = kind == StepKind::ScheduleVerification;
    let fields = StepFields {
        upheld: kind.decides().then_some(false),
        told: told.filter(|_| verification),
        inspection: told
            .and_then(|t| t.checked_add_days(chrono::Days::new(2)))
            .filter(|_| verification),
        ..StepFields::default()
    };
    Step::build(kind, fields).ok()
}

/// The steps of the auto's procedure the law admits today, each with who
/// takes it, or why not and the articles; and the limits that run today.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("ano" = i32, Path, description = "o ano"),
           ("numero" = i64, Path, description = "o número no ano")),
    responses((status = 200, body = PassosPossiveis), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn allowed(
    State(state): State<AppState>,
    _who: Reader,
    Path((j, ano, numero)): Path<(String, i32, i64)>,
) -> Result<Json<PassosPossiveis>, ApiError> {
    let (auto, now) = state.store.auto_state(&j, (ano, numero)).await?;
    let rulebook = rulebook_named(&state, &j, &auto.rulebook).await?;
    let ctx = crate::routes::catalog::law(&state, &j, rulebook).await?;
    let engine = |e: outorga_core::EngineError| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("o regulamento não responde a este pedido: {e}"),
        )
    };
    let machine = Machine::of(&ctx).map_err(engine)?;
    let today = today_in(&state, &j);
    let stakes = auto.proposal.stakes()?;
    let mut passos = Vec::new();
    for kind in StepKind::ALL {
        let Some(step) = probe(*kind, today) else {
            continue;
        };
        let mut outcome = machine.take(&stakes, &now, &step, today).map_err(engine)?;
        let mut authority = None;
        // A judgement the law reserves to another authority is theirs.
        if outcome.is_err() && kind.decides() {
            for reserved in &machine.procedure.reserved {
                let Some(theirs) = step.clone().decided_by(Some(reserved.key.clone())) else {
                    continue;
                };
                let tried = machine
                    .take(&stakes, &now, &theirs, today)
                    .map_err(engine)?;
                if tried.is_ok() {
                    outcome = tried;
                    authority = Some(reserved);
                    break;
                }
            }
        }
        let (motivo, artigos) = match outcome {
            Ok(_) => (None, Vec::new()),
            Err(refusal) => (Some(refusal.reason), refusal.citations),
        };
        passos.push(PassoPossivel {
            passo: PASSOS.wire(kind.name()),
            nome: kind.portuguese().to_string(),
            papel: if kind.decides() {
                Role::Board.label()
            } else {
                Role::Clerk.label()
            }
            .to_string(),
            autoridade: authority.map(|r| r.key.clone()),
            autoridade_nome: authority.map(|r| r.by.clone()),
            permitido: motivo.is_none(),
            motivo,
            artigos,
        });
    }
    let prazos = machine
        .open(&stakes, &now, today)
        .map_err(engine)?
        .into_iter()
        .map(|limit| PrazoAberto {
            tipo: PRAZOS.wire(limit.kind.name()),
            vence_em: limit.due.to_string(),
            artigo: limit.citation.to_string(),
        })
        .collect();
    let recurso_para = machine
        .appeal_bodies(&stakes, &now)
        .into_iter()
        .map(|body| InstanciaRecurso {
            orgao: body.to.to_string(),
            contra: body
                .kinds
                .iter()
                .map(|k| PENALIDADES.wire(k.name()))
                .collect(),
            artigo: body.citation.to_string(),
        })
        .collect();
    Ok(Json(PassosPossiveis {
        data: today.to_string(),
        situacao: SITUACOES_AUTO.wire(auto.status.name()),
        situacao_nome: auto.status.portuguese().to_string(),
        passos,
        prazos,
        recurso_para,
    }))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(allowed))
}
