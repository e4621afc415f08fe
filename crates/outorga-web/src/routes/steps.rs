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
    let auto = state.store.auto(&j, (ano, numero)).await?;
    let rulebook = rulebook_named(&state, &j, &auto.rulebook).await?;
    let today = today_in(&state, &j);
    let options = state
        .store
        .process_options(rulebook, &j, (ano, numero), today)
        .await?;
    let passos = options
        .steps
        .into_iter()
        .map(|step| PassoPossivel {
            passo: PASSOS.wire(step.kind.name()),
            nome: step.kind.portuguese().to_string(),
            papel: if step.kind.decides() {
                Role::Board.label()
            } else {
                Role::Clerk.label()
            }
            .to_string(),
            permitido: step.refusal.is_none(),
            autoridade: step.authority.as_ref().map(|(key, _)| key.clone()),
            autoridade_nome: step.authority.map(|(_, by)| by),
            motivo: step.refusal.as_ref().map(|(why, _)| why.clone()),
            artigos: step
                .refusal
                .map(|(_, articles)| articles)
                .unwrap_or_default(),
        })
        .collect();
    let prazos = options
        .limits
        .into_iter()
        .map(|limit| PrazoAberto {
            tipo: PRAZOS.wire(limit.kind.name()),
            vence_em: limit.due.to_string(),
            artigo: limit.article,
        })
        .collect();
    let recurso_para = options
        .appeal_to
        .into_iter()
        .map(|to| InstanciaRecurso {
            orgao: to.body,
            contra: to
                .against
                .iter()
                .map(|k| PENALIDADES.wire(k.name()))
                .collect(),
            artigo: to.article,
        })
        .collect();
    Ok(Json(PassosPossiveis {
        data: today.to_string(),
        situacao: SITUACOES_AUTO.wire(options.auto.status.name()),
        situacao_nome: options.auto.status.portuguese().to_string(),
        passos,
        prazos,
        recurso_para,
    }))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(allowed))
}
