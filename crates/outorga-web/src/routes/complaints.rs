//! Passengers' complaints (denúncias): anyone files one without a token
//! and follows it by its protocol (its kind, when it was received and where
//! it stands — never the text, the contact or who handled it); the staff
//! read the queue and the inspectors (or clerks) work each one: under
//! review, turned into an auto, or closed with the reason.

use crate::auth::{Examiner, Public, Reader};
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::limits::PublicLookup;
use crate::page::{Lista, Pagina};
use crate::routes::units::decimal;
use crate::routes::{change, parse_day, parse_moment};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use outorga_store::{
    Change, Complaint, ComplaintInput, ComplaintKind, ComplaintStatus, Handling, TripComplaint,
    TripFacts,
};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DenunciaEntrada {
    /// `overcharge`, `refusal`, `vehicle_condition`, `dangerous_driving`,
    /// `conduct`, `unlicensed` ou `other`; sobre uma viagem de ônibus
    /// intermunicipal: `trip_delay`, `refund_refused`, `baggage_damaged`,
    /// `baggage_lost`, `excess_baggage` ou `seat_sold_twice` (com `viagem`).
    pub tipo: String,
    /// O que aconteceu.
    pub descricao: String,
    /// Quando: AAAA-MM-DDTHH:MM.
    pub quando: String,
    /// Onde: rua, bairro, ponto ou trecho da linha.
    pub local: String,
    pub placa: Option<String>,
    pub linha: Option<String>,
    /// Um telefone ou e-mail para o órgão pedir detalhes (nunca publicado).
    pub contato: Option<String>,
    /// Uma reclamação sobre viagem de ônibus: o que o bilhete e o
    /// passageiro contam dela.
    pub viagem: Option<ViagemEntrada>,
}

/// A viagem de ônibus de que o passageiro reclama.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ViagemEntrada {
    /// A partida da viagem: AAAA-MM-DDTHH:MM.
    pub partida: Option<String>,
    /// O número do bilhete ou a chave do BP-e.
    pub bilhete: Option<String>,
    pub poltrona: Option<u32>,
    /// Devolução recusada: quando o passageiro pediu (AAAA-MM-DDTHH:MM).
    pub pedido_em: Option<String>,
    /// Bagagem: o dia em que foi reclamada à transportadora, e o dia em que
    /// a indenização foi paga, se foi (AAAA-MM-DD).
    pub reclamada_em: Option<String>,
    pub paga_em: Option<String>,
    /// Excesso de bagagem: a tarifa do serviço convencional, os quilos no
    /// bagageiro e no porta-embrulhos, e o valor cobrado (reais).
    pub tarifa: Option<String>,
    pub kg_bagageiro: Option<String>,
    pub kg_mao: Option<String>,
    pub cobrado: Option<String>,
}

impl ViagemEntrada {
    /// The facts, each field parsed or refused by its name.
    pub fn facts(&self) -> Result<TripFacts, ApiError> {
        let text = |v: &Option<String>| {
            v.as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_string)
        };
        let moment =
            |v: &Option<String>, campo: &str| text(v).map(|t| parse_moment(&t, campo)).transpose();
        let day =
            |v: &Option<String>, campo: &str| text(v).map(|t| parse_day(&t, campo)).transpose();
        let number =
            |v: &Option<String>, campo: &str| text(v).map(|t| decimal(&t, campo)).transpose();
        Ok(TripFacts {
            departs: moment(&self.partida, "partida")?,
            ticket: text(&self.bilhete),
            seat: self.poltrona,
            requested_at: moment(&self.pedido_em, "pedido_em")?,
            claimed_on: day(&self.reclamada_em, "reclamada_em")?,
            paid_on: day(&self.paga_em, "paga_em")?,
            fare: number(&self.tarifa, "tarifa")?,
            hold_kg: number(&self.kg_bagageiro, "kg_bagageiro")?,
            hand_kg: number(&self.kg_mao, "kg_mao")?,
            charged: number(&self.cobrado, "cobrado")?,
        })
    }
}

/// A trip complaint's facts and the law's answer, as the staff read them.
#[derive(Debug, Serialize, ToSchema)]
pub struct ViagemSaida {
    pub partida: Option<String>,
    pub bilhete: Option<String>,
    pub poltrona: Option<u32>,
    pub pedido_em: Option<String>,
    pub reclamada_em: Option<String>,
    pub paga_em: Option<String>,
    pub tarifa: Option<String>,
    pub kg_bagageiro: Option<String>,
    pub kg_mao: Option<String>,
    pub cobrado: Option<String>,
    /// O que a lei diz do caso, frase a frase.
    pub constatacoes: Vec<String>,
    /// O máximo devido ou cobrável, em reais (limite da indenização, o
    /// máximo pelo excesso de bagagem).
    pub limite: Option<String>,
    /// O dia até o qual a transportadora deve pagar.
    pub prazo: Option<String>,
    /// `breach`, `no_breach` ou `to_verify`.
    pub veredito: String,
    pub veredito_nome: String,
    /// A infração que o descumprimento é: código e descrição.
    pub infracao: String,
    pub infracao_nome: String,
    pub artigos: Vec<String>,
}

impl From<TripComplaint> for ViagemSaida {
    fn from(t: TripComplaint) -> ViagemSaida {
        let f = t.facts;
        let a = t.answer;
        let moment =
            |m: Option<chrono::NaiveDateTime>| m.map(|m| m.format("%Y-%m-%dT%H:%M").to_string());
        ViagemSaida {
            partida: moment(f.departs),
            bilhete: f.ticket,
            poltrona: f.seat,
            pedido_em: moment(f.requested_at),
            reclamada_em: f.claimed_on.map(|d| d.to_string()),
            paga_em: f.paid_on.map(|d| d.to_string()),
            tarifa: f.fare.map(|v| v.to_string()),
            kg_bagageiro: f.hold_kg.map(|v| v.to_string()),
            kg_mao: f.hand_kg.map(|v| v.to_string()),
            cobrado: f.charged.map(|v| v.to_string()),
            veredito_nome: a.verdict().map_or("", |v| v.portuguese()).into(),
            veredito: a.verdict,
            constatacoes: a.findings,
            limite: a.limit.map(|v| v.to_string()),
            prazo: a.due.map(|d| d.to_string()),
            infracao: a.infraction,
            infracao_nome: a.infraction_text,
            artigos: a.citations,
        }
    }
}

/// What the public reads of a complaint: never its text or contact.
#[derive(Debug, Serialize, ToSchema)]
pub struct DenunciaPublica {
    pub protocolo: String,
    pub tipo: String,
    pub tipo_nome: String,
    pub recebida_em: String,
    pub situacao: String,
    pub situacao_nome: String,
}

impl From<Complaint> for DenunciaPublica {
    fn from(c: Complaint) -> DenunciaPublica {
        DenunciaPublica {
            protocolo: c.protocol,
            tipo: c.kind.name().into(),
            tipo_nome: c.kind.portuguese().into(),
            recebida_em: c.received_at.format("%Y-%m-%dT%H:%M").to_string(),
            situacao: c.status.name().into(),
            situacao_nome: c.status.portuguese().into(),
        }
    }
}

/// A complaint as the staff read it.
#[derive(Debug, Serialize, ToSchema)]
pub struct DenunciaSaida {
    #[serde(flatten)]
    pub publica: DenunciaPublica,
    pub descricao: String,
    pub quando: String,
    pub local: String,
    pub placa: Option<String>,
    pub linha: Option<String>,
    pub contato: Option<String>,
    pub nota: Option<String>,
    /// O auto em que a denúncia virou: `[ano, número]`.
    pub auto: Option<(i32, i64)>,
    pub tratada_por: Option<String>,
    /// Sobre uma viagem de ônibus: os fatos e a resposta da lei.
    pub viagem: Option<ViagemSaida>,
}

impl From<Complaint> for DenunciaSaida {
    fn from(c: Complaint) -> DenunciaSaida {
        DenunciaSaida {
            descricao: c.description.clone(),
            quando: c.occurred_at.format("%Y-%m-%dT%H:%M").to_string(),
            local: c.place.clone(),
            placa: c.plate.clone(),
            linha: c.line.clone(),
            contato: c.contact.clone(),
            nota: c.note.clone(),
            auto: c.auto,
            tratada_por: c.handled_by.clone(),
            viagem: c.trip.clone().map(ViagemSaida::from),
            publica: c.into(),
        }
    }
}

fn kind(word: &str) -> Result<ComplaintKind, ApiError> {
    ComplaintKind::parse(word.trim()).ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "tipo",
            format!(
                "`{word}`: use {}",
                ComplaintKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })
}

/// Records a complaint in `j`: what `POST …/complaints` and the public
/// form do.
pub async fn file_complaint(
    state: &AppState,
    j: &str,
    input: &DenunciaEntrada,
) -> Result<Complaint, ApiError> {
    let complaint = ComplaintInput {
        kind: kind(&input.tipo)?,
        description: input.descricao.clone(),
        occurred_at: parse_moment(&input.quando, "quando")?,
        place: input.local.clone(),
        plate: input.placa.clone(),
        line: input.linha.clone(),
        contact: input.contato.clone(),
        trip: input
            .viagem
            .as_ref()
            .map(ViagemEntrada::facts)
            .transpose()?,
    };
    let utc = state.clock.now();
    // Received in the jurisdiction's local time, as the passenger tells
    // when it happened.
    let local = state
        .library
        .rulebooks()
        .find(|r| r.jurisdiction.id == j)
        .map_or(utc, |r| r.jurisdiction.local(utc));
    // A trip is weighed by the jurisdiction's bus law, when it has one.
    let buses = state
        .library
        .rulebooks()
        .find(|r| r.jurisdiction.id == j && r.bus.is_some());
    let change = Change {
        by: "público",
        at: utc,
        why: "denúncia de passageiro",
    };
    Ok(state
        .store
        .file_complaint(&change, j, &complaint, (local, buses))
        .await?)
}

/// Files a complaint (no token): the answer carries its protocol.
#[utoipa::path(post, path = "/api/public/jurisdictions/{j}/complaints", tag = "consulta pública",
    params(("j" = String, Path, description = "a jurisdição")),
    request_body = DenunciaEntrada,
    responses((status = 201, body = DenunciaPublica), (status = 400, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn file(
    _: PublicLookup,
    _: crate::limits::PublicFiling,
    State(state): State<AppState>,
    _: Public,
    Path(j): Path<String>,
    Json(input): Json<DenunciaEntrada>,
) -> Result<(StatusCode, Json<DenunciaPublica>), ApiError> {
    let complaint = file_complaint(&state, &j, &input).await?;
    Ok((StatusCode::CREATED, Json(complaint.into())))
}

/// A complaint by its protocol (no token): where it stands.
#[utoipa::path(get, path = "/api/public/complaints/{protocolo}", tag = "consulta pública",
    params(("protocolo" = String, Path, description = "o protocolo, como ABCDE-12345")),
    responses((status = 200, body = DenunciaPublica), (status = 404, body = ErrorBody),
              (status = 429, body = ErrorBody)))]
async fn follow(
    _: PublicLookup,
    State(state): State<AppState>,
    Path(protocolo): Path<String>,
) -> Result<Json<DenunciaPublica>, ApiError> {
    Ok(Json(
        complaint_by_protocol(&state, &protocolo).await?.into(),
    ))
}

/// The complaint with this protocol, or 404 saying what to check.
pub async fn complaint_by_protocol(
    state: &AppState,
    protocolo: &str,
) -> Result<Complaint, ApiError> {
    state.store.complaint(protocolo).await?.ok_or_else(|| {
        ApiError::not_found(format!(
            "não há denúncia com o protocolo {protocolo}: confira as letras e os números"
        ))
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct FiltroDenuncias {
    /// `received`, `in_review`, `auto` ou `closed`; todas quando omitida.
    pub situacao: Option<String>,
}

/// The status asked for, if any.
pub fn complaint_status(word: Option<&str>) -> Result<Option<ComplaintStatus>, ApiError> {
    match word.map(str::trim).filter(|w| !w.is_empty()) {
        None => Ok(None),
        Some(word) => ComplaintStatus::parse(word).map(Some).ok_or_else(|| {
            ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "situacao",
                format!("`{word}`: use received, in_review, auto ou closed"),
            )
        }),
    }
}

/// The jurisdiction's complaints, the oldest first: the inspectors' queue.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/complaints", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"), FiltroDenuncias, Pagina),
    responses((status = 200, body = Lista<DenunciaSaida>), (status = 401, body = ErrorBody),
              (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn queue(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(filter): Query<FiltroDenuncias>,
    Query(page): Query<Pagina>,
) -> Result<Json<Lista<DenunciaSaida>>, ApiError> {
    let asked = page.asked()?;
    let status = complaint_status(filter.situacao.as_deref())?;
    let list = state.store.complaints(&j, status, asked.window()).await?;
    Ok(Json(Lista::of(list)))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TratamentoEntrada {
    /// `in_review`, `auto` ou `closed`.
    pub situacao: String,
    /// Por que foi arquivada, ou o que se apurou.
    pub nota: Option<String>,
    /// O auto lavrado: `[ano, número]` (com `auto`).
    pub auto: Option<(i32, i64)>,
}

/// Records how a complaint is handled: what `POST …/complaints/{protocolo}`
/// and the complaint's page do.
pub async fn handle_complaint(
    state: &AppState,
    change: &Change<'_>,
    j: &str,
    protocolo: &str,
    input: &TratamentoEntrada,
) -> Result<Complaint, ApiError> {
    let status = complaint_status(Some(&input.situacao))?.ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "situacao",
            "escolha em apuração, virou auto ou arquivada",
        )
    })?;
    let handling = Handling {
        status,
        note: input.nota.clone(),
        auto: input.auto,
    };
    Ok(state
        .store
        .handle_complaint(change, j, protocolo, &handling)
        .await?)
}

/// Records how a complaint is handled: under review, turned into an auto
/// (its number), or closed with the reason.
#[utoipa::path(post, path = "/api/jurisdictions/{j}/complaints/{protocolo}", tag = "fiscalização",
    params(("j" = String, Path, description = "a jurisdição"),
           ("protocolo" = String, Path, description = "o protocolo")),
    request_body = TratamentoEntrada,
    responses((status = 200, body = DenunciaSaida), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn handle(
    State(state): State<AppState>,
    who: Examiner,
    Path((j, protocolo)): Path<(String, String)>,
    Json(input): Json<TratamentoEntrada>,
) -> Result<Json<DenunciaSaida>, ApiError> {
    let change = change!(state, who, "denúncia tratada pela API");
    let complaint = handle_complaint(&state, &change, &j, &protocolo, &input).await?;
    Ok(Json(complaint.into()))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(file))
        .routes(routes!(follow))
        .routes(routes!(queue))
        .routes(routes!(handle))
}
