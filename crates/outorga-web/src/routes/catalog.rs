//! The law's catalogs, read from the rulebooks the jurisdiction applies, so
//! a client never needs their files: infractions with their group, points
//! and article; the requirements a holder or a driver must meet; what a
//! vehicle must have (its equipment, by the names the register takes) and
//! its inspections; the parameters with their units and the values in force.
//! Each answer holds one entry per rulebook (a jurisdiction may apply one per
//! service), or only the service's when `servico` is given.

use crate::auth::Reader;
use crate::error::{ApiError, ErrorBody};
use crate::extract::{Path, Query};
use crate::json::Json;
use crate::routes::{bound_rulebooks, day_or_today, rulebook_for_service};
use crate::state::AppState;
use crate::vocab::{self, EQUIPAMENTOS, REQUERENTES, VISTORIAS};
use axum::extract::State;
use chrono::NaiveDate;
use outorga_core::Context;
use outorga_core::model::{Applicant, Period, Quantity, Rulebook, VehicleCheck};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DoServico {
    /// Só o regulamento deste serviço (taxi, mototaxi…); todos os da
    /// jurisdição quando omitido.
    pub servico: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DoServicoNaData {
    /// Só o regulamento deste serviço; todos os da jurisdição quando omitido.
    pub servico: Option<String>,
    /// Os valores em vigor neste dia (AAAA-MM-DD); hoje quando omitida.
    pub data: Option<String>,
}

/// The rulebooks asked for: the service's, or all of the jurisdiction's.
async fn asked<'a>(
    state: &'a AppState,
    j: &str,
    service: Option<&str>,
) -> Result<Vec<&'a Rulebook>, ApiError> {
    match service.map(str::trim).filter(|s| !s.is_empty()) {
        Some(service) => Ok(vec![rulebook_for_service(state, j, service).await?]),
        None => bound_rulebooks(state, j).await,
    }
}

fn services(rulebook: &Rulebook) -> Vec<String> {
    rulebook
        .services
        .iter()
        .map(|s| s.name().to_string())
        .collect()
}

fn number(value: Decimal) -> String {
    value.normalize().to_string()
}

/// The context `rulebook` decides in for `j`: its parameters with the
/// values the deployment gave them (`PUT …/parameters/{nome}`), as the
/// store's workflows read them.
pub(crate) async fn law<'r>(
    state: &AppState,
    j: &str,
    rulebook: &'r Rulebook,
) -> Result<Context<'r>, ApiError> {
    Ok(state.store.deployed_law(j, rulebook).await?)
}

// ------------------------------------------------------------ infractions

#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogoInfracoes {
    pub regulamentos: Vec<InfracoesDoRegulamento>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InfracoesDoRegulamento {
    /// `<jurisdição>/<serviço>`, como `cangucu/taxi`.
    pub regulamento: String,
    pub servicos: Vec<String>,
    pub grupos: Vec<GrupoCatalogo>,
    /// Na ordem do regulamento.
    pub infracoes: Vec<InfracaoCatalogo>,
}

/// Um grupo (natureza) de infrações: leve, média, grave…
#[derive(Debug, Serialize, ToSchema)]
pub struct GrupoCatalogo {
    pub id: String,
    pub nome: String,
    /// Os pontos de cada infração do grupo (decimal exato), com o artigo.
    pub pontos: Option<String>,
    pub pontos_artigo: Option<String>,
    /// A multa do grupo.
    pub multa: Option<MultaCatalogo>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MultaCatalogo {
    /// VRTM, UPFTO, CTM ou BRL.
    pub unidade: String,
    /// Decimal exato.
    pub quantidade: String,
    pub artigo: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct InfracaoCatalogo {
    /// O código que o auto de infração leva, como `51-I-a`.
    pub codigo: String,
    pub descricao: String,
    /// O grupo (`id` de `grupos`), quando a lei agrupa.
    pub grupo: Option<String>,
    pub grupo_nome: Option<String>,
    pub artigo: String,
    /// Os pontos que a lei atribui: os da própria infração ou os do seu
    /// grupo (decimal exato), com o artigo.
    pub pontos: Option<String>,
    pub pontos_artigo: Option<String>,
    /// Cometida fora de qualquer permissão (transporte clandestino).
    pub sem_permissao: bool,
    /// Quem a lei diz que a comete (titular ou condutor), quando diz.
    pub cometida_por: Option<String>,
}

fn applicant(who: Applicant) -> String {
    REQUERENTES.wire(match who {
        Applicant::Holder => "holder",
        Applicant::Driver => "driver",
    })
}

fn infractions_of(rulebook: &Rulebook) -> InfracoesDoRegulamento {
    let grupos = rulebook
        .groups
        .iter()
        .map(|g| GrupoCatalogo {
            id: g.id.clone(),
            nome: g.name.clone(),
            pontos: g.points.as_ref().map(|p| number(p.value)),
            pontos_artigo: g.points.as_ref().map(|p| p.citation.to_string()),
            multa: g.fine.as_ref().map(|f| MultaCatalogo {
                unidade: f.value.unit.clone(),
                quantidade: number(f.value.quantity),
                artigo: f.citation.to_string(),
            }),
        })
        .collect();
    let infracoes = rulebook
        .infractions
        .iter()
        .map(|i| {
            let group = i.group.map(|g| rulebook.group(g));
            let points = i.points.as_ref().or(group.and_then(|g| g.points.as_ref()));
            InfracaoCatalogo {
                codigo: i.code.clone(),
                descricao: i.description.clone(),
                grupo: group.map(|g| g.id.clone()),
                grupo_nome: group.map(|g| g.name.clone()),
                artigo: i.citation.to_string(),
                pontos: points.map(|p| number(p.value)),
                pontos_artigo: points.map(|p| p.citation.to_string()),
                sem_permissao: i.outside_permit,
                cometida_por: i.committed_by.map(applicant),
            }
        })
        .collect();
    InfracoesDoRegulamento {
        regulamento: rulebook.id.clone(),
        servicos: services(rulebook),
        grupos,
        infracoes,
    }
}

/// The infractions of the jurisdiction's law (or of one service's), with
/// their group, points and article: the codes an auto takes.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/catalog/infractions", tag = "catálogos",
    params(("j" = String, Path, description = "a jurisdição"), DoServico),
    responses((status = 200, body = CatalogoInfracoes), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn infractions(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(asked_for): Query<DoServico>,
) -> Result<Json<CatalogoInfracoes>, ApiError> {
    let rulebooks = asked(&state, &j, asked_for.servico.as_deref()).await?;
    Ok(Json(CatalogoInfracoes {
        regulamentos: rulebooks.into_iter().map(infractions_of).collect(),
    }))
}

// ------------------------------------------------------------ requirements

#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogoRequisitos {
    pub regulamentos: Vec<RequisitosDoRegulamento>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RequisitosDoRegulamento {
    pub regulamento: String,
    pub servicos: Vec<String>,
    /// Os requisitos de quem pede a permissão ou a matrícula de condutor.
    pub requisitos: Vec<RequisitoCatalogo>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RequisitoCatalogo {
    /// O requisito, como a outorga e a inclusão de condutor o citam em
    /// `a_verificar`.
    pub id: String,
    pub descricao: String,
    pub requerentes: Vec<String>,
    pub artigo: String,
    /// Outros artigos que dizem o mesmo.
    pub ver_tambem: Vec<String>,
}

/// The requirements a holder or a driver must meet under the jurisdiction's
/// law (or one service's), with who they apply to and their articles.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/catalog/requirements", tag = "catálogos",
    params(("j" = String, Path, description = "a jurisdição"), DoServico),
    responses((status = 200, body = CatalogoRequisitos), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn requirements(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(asked_for): Query<DoServico>,
) -> Result<Json<CatalogoRequisitos>, ApiError> {
    let rulebooks = asked(&state, &j, asked_for.servico.as_deref()).await?;
    Ok(Json(CatalogoRequisitos {
        regulamentos: rulebooks
            .into_iter()
            .map(|r| RequisitosDoRegulamento {
                regulamento: r.id.clone(),
                servicos: services(r),
                requisitos: r
                    .requirements
                    .iter()
                    .map(|q| RequisitoCatalogo {
                        id: q.id.clone(),
                        descricao: q.description.clone(),
                        requerentes: q.applicants.iter().copied().map(applicant).collect(),
                        artigo: q.citation.to_string(),
                        ver_tambem: q.see_also.iter().map(ToString::to_string).collect(),
                    })
                    .collect(),
            })
            .collect(),
    }))
}

// ------------------------------------------------------------ vehicles

#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogoVeiculos {
    pub regulamentos: Vec<VeiculosDoRegulamento>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VeiculosDoRegulamento {
    pub regulamento: String,
    pub servicos: Vec<String>,
    /// O que o veículo deve ter para servir (na inclusão e na substituição).
    pub requisitos: Vec<RequisitoVeiculo>,
    /// Os equipamentos que esses requisitos pedem, pelos nomes que o
    /// cadastro de veículos (`equipamentos`) recebe.
    pub equipamentos: Vec<EquipamentoCatalogo>,
    /// As vistorias do serviço: a periódica e as de tipo próprio.
    pub vistorias: Vec<VistoriaCatalogo>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RequisitoVeiculo {
    pub id: String,
    pub descricao: String,
    pub artigo: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct EquipamentoCatalogo {
    /// O nome a enviar em `equipamentos` no cadastro do veículo.
    pub equipamento: String,
    pub nome: String,
    /// O requisito que o pede (`id` de `requisitos`) e seu artigo.
    pub requisito: String,
    pub artigo: String,
    /// Basta um dos equipamentos deste requisito marcados assim (bolsas
    /// laterais ou baú); os demais são todos exigidos.
    pub alternativo: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VistoriaCatalogo {
    /// O `tipo` a enviar ao registrar a vistoria.
    pub tipo: String,
    pub descricao: String,
    /// De quanto em quanto tempo: meses ou dias.
    pub a_cada_meses: Option<String>,
    pub a_cada_dias: Option<String>,
    pub artigo: String,
}

fn interval(ctx: &Context<'_>, period: &Period, on: NaiveDate) -> (Option<String>, Option<String>) {
    let value = |q: &Quantity| ctx.quantity(q, on).ok().map(number);
    match period {
        Period::Months(q) => (value(q), None),
        Period::Days(q) => (None, value(q)),
    }
}

fn vehicles_of(ctx: &Context<'_>, on: NaiveDate) -> VeiculosDoRegulamento {
    let rulebook = ctx.rulebook;
    let rules = &rulebook.vehicles;
    let mut equipamentos = Vec::new();
    for requirement in &rules.requirements {
        if let VehicleCheck::Equipment { all_of, any_of } = &requirement.check {
            let listed = all_of
                .iter()
                .map(|code| (code, false))
                .chain(any_of.iter().map(|code| (code, true)));
            for (code, alternativo) in listed {
                equipamentos.push(EquipamentoCatalogo {
                    equipamento: EQUIPAMENTOS.wire(code),
                    nome: vocab::equipment_name(code)
                        .map_or_else(|| requirement.description.clone(), str::to_string),
                    requisito: requirement.id.clone(),
                    artigo: requirement.citation.to_string(),
                    alternativo,
                });
            }
        }
    }
    let mut vistorias = Vec::new();
    if let Some(periodic) = &rules.inspection {
        let (a_cada_meses, a_cada_dias) = interval(ctx, &periodic.every, on);
        vistorias.push(VistoriaCatalogo {
            tipo: VISTORIAS.wire("periodic"),
            descricao: "Vistoria periódica do veículo".into(),
            a_cada_meses,
            a_cada_dias,
            artigo: periodic.citation.to_string(),
        });
    }
    for own in &rules.inspections {
        let (a_cada_meses, a_cada_dias) = interval(ctx, &own.every, on);
        vistorias.push(VistoriaCatalogo {
            tipo: VISTORIAS.wire(&own.kind),
            descricao: own.description.clone(),
            a_cada_meses,
            a_cada_dias,
            artigo: own.citation.to_string(),
        });
    }
    VeiculosDoRegulamento {
        regulamento: rulebook.id.clone(),
        servicos: services(rulebook),
        requisitos: rules
            .requirements
            .iter()
            .map(|r| RequisitoVeiculo {
                id: r.id.clone(),
                descricao: r.description.clone(),
                artigo: r.citation.to_string(),
            })
            .collect(),
        equipamentos,
        vistorias,
    }
}

/// What a vehicle must have under the jurisdiction's law (or one
/// service's): its requirements, the equipment they ask for by the names the
/// vehicle register takes, and the kinds of inspection with their interval.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/catalog/vehicles", tag = "catálogos",
    params(("j" = String, Path, description = "a jurisdição"), DoServico),
    responses((status = 200, body = CatalogoVeiculos), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn vehicles(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(asked_for): Query<DoServico>,
) -> Result<Json<CatalogoVeiculos>, ApiError> {
    let on = crate::routes::today_in(&state, &j);
    let mut regulamentos = Vec::new();
    for rulebook in asked(&state, &j, asked_for.servico.as_deref()).await? {
        let ctx = law(&state, &j, rulebook).await?;
        regulamentos.push(vehicles_of(&ctx, on));
    }
    Ok(Json(CatalogoVeiculos { regulamentos }))
}

// ------------------------------------------------------------ parameters

#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogoParametros {
    /// O dia dos valores (AAAA-MM-DD).
    pub data: String,
    pub regulamentos: Vec<ParametrosDoRegulamento>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ParametrosDoRegulamento {
    pub regulamento: String,
    pub servicos: Vec<String>,
    pub parametros: Vec<ParametroCatalogo>,
    /// As unidades fiscais em que as multas se expressam, com o valor em
    /// reais na data.
    pub unidades: Vec<UnidadeCatalogo>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ParametroCatalogo {
    /// O nome com que se altera o parâmetro (PUT …/parameters/{nome}).
    pub nome: String,
    pub descricao: String,
    /// Em que se mede: habitantes, dias, meses, anos, pontos ou percentual.
    pub unidade: String,
    pub artigo: Option<String>,
    /// O valor que as decisões usam na data (decimal exato); `null` quando
    /// não há (a implantação deve informá-lo).
    pub valor: Option<String>,
    /// O valor do regulamento na data, e a fonte (um censo, um decreto).
    pub valor_da_lei: Option<String>,
    pub fonte: Option<String>,
    /// O valor foi dado pela implantação (PUT …/parameters/{nome}).
    pub definido_na_implantacao: bool,
    /// O dia desde o qual vale o valor da implantação (ausente num valor
    /// registrado antes de se datarem os atos).
    pub desde: Option<String>,
    /// O ato da implantação que fixou o valor.
    pub ato: Option<String>,
    /// O valor do regulamento é o padrão do produto para o que a lei deixa
    /// a um decreto, não palavra da lei.
    pub padrao_de_decreto: bool,
    /// Quem preenche o que a lei deixou em aberto: `decreto`, `portaria`
    /// ou `edital`.
    pub preenchido_por: Option<String>,
    /// O artigo da lei que o deixa em aberto.
    pub fundamento_do_padrao: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct UnidadeCatalogo {
    /// VRTM, UPFTO, CTM…
    pub codigo: String,
    pub nome: String,
    pub artigo: String,
    /// Reais por unidade na data (decimal exato); `null` quando o
    /// regulamento não tem valor (a implantação o registra).
    pub reais: Option<String>,
    pub desde: Option<String>,
    pub fonte: Option<String>,
}

/// What each parameter the rulebooks declare means, and what it is measured
/// in (a rulebook's `doc` is written for its authors, in English).
const PARAMETROS: &[(&str, &str, &str)] = &[
    (
        "tariff.bandeirada",
        "Bandeirada: o valor inicial de cada corrida, fixado por decreto",
        "reais",
    ),
    (
        "tariff.km_bandeira_1",
        "Quilômetro rodado na bandeira 1, fixado por decreto",
        "reais",
    ),
    (
        "tariff.km_bandeira_2",
        "Quilômetro rodado na bandeira 2, fixado por decreto",
        "reais",
    ),
    (
        "tariff.hora_parada",
        "Hora parada (espera a pedido do passageiro), fixada por decreto",
        "reais",
    ),
    (
        "population",
        "População do município segundo o IBGE, base do limite de permissões",
        "habitantes",
    ),
    (
        "inhabitants_per_permit",
        "Uma permissão para cada tantos habitantes",
        "habitantes",
    ),
    (
        "repeat_window_months",
        "Período em que uma infração anterior torna a nova uma reincidência",
        "meses",
    ),
    (
        "repeat_window_days",
        "Período em que as infrações do mesmo código contam antes da nova",
        "dias",
    ),
    (
        "clandestine_repeat_months",
        "Período em que a repetição do transporte clandestino dobra a última multa e a apreensão",
        "meses",
    ),
    (
        "vehicle_impediment_max_days",
        "Prazo máximo do impedimento do veículo",
        "dias",
    ),
    (
        "cassation_points_12_months",
        "Pontos nos últimos 12 meses acima dos quais a credencial é cassada",
        "pontos",
    ),
    (
        "cassation_points_36_months",
        "Pontos nos últimos 36 meses acima dos quais a credencial é cassada",
        "pontos",
    ),
    (
        "ineligibility_years",
        "Anos em que o titular com credencial cassada não pode receber outra",
        "anos",
    ),
    (
        "disabled_drivers_percent",
        "Parte das permissões reservada a condutores com deficiência, arredondada para cima",
        "percentual",
    ),
    (
        "cure_days",
        "Prazo para sanar a irregularidade, quando a notificação não fixa outro",
        "dias",
    ),
    (
        "auxiliary_cassation_points",
        "Pontos acima dos quais a matrícula do condutor auxiliar é cassada",
        "pontos",
    ),
    (
        "holder_cassation_points",
        "Pontos acima dos quais a permissão e a matrícula do titular são cassadas",
        "pontos",
    ),
    (
        "company_cassation_points_per_permit",
        "Pontos, vezes o número de permissões da empresa, acima dos quais as permissões da empresa são cassadas",
        "pontos",
    ),
    (
        "carrier_registration_months",
        "Validade do registro cadastral de uma transportadora autorizada a fretamentos",
        "meses",
    ),
    (
        "statistics_due_day",
        "Dia do mês seguinte em que vencem as estatísticas mensais das transportadoras",
        "dia do mês",
    ),
];

/// A parameter's meaning and unit, by its name.
fn meaning(name: &str) -> Option<(&'static str, &'static str)> {
    PARAMETROS
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, what, unit)| (*what, *unit))
}

fn parameters_of(ctx: &Context<'_>, on: NaiveDate) -> ParametrosDoRegulamento {
    let rulebook = ctx.rulebook;
    // A parameter the deployment may set, as the catalog shows it on `on`.
    let row =
        |name: &str, article: Option<String>, law: Option<&outorga_core::model::Parameter>| {
            let (descricao, unidade) =
                meaning(name).unwrap_or((law.map_or("", |p| p.doc.as_str()), ""));
            let dated = law.and_then(|p| outorga_core::model::dated_on(&p.values, on));
            let given = ctx.overrides.in_force(name, on);
            let term = law.and_then(|p| p.decree_default.as_ref());
            ParametroCatalogo {
                nome: name.to_string(),
                descricao: descricao.to_string(),
                unidade: unidade.to_string(),
                artigo: article,
                valor: given
                    .map(|d| d.value)
                    .or_else(|| law.and_then(|p| ctx.parameter(&p.name, on).ok()))
                    .map(number),
                valor_da_lei: dated.map(|d| number(d.value)),
                fonte: dated.and_then(|d| d.source.clone()),
                definido_na_implantacao: given.is_some(),
                desde: given
                    .filter(|d| d.from != NaiveDate::MIN)
                    .map(|d| d.from.to_string()),
                ato: given.and_then(|d| d.source.clone()),
                padrao_de_decreto: term.is_some(),
                preenchido_por: term.map(|t| t.by.name().to_string()),
                fundamento_do_padrao: term.map(|t| t.basis.clone()),
            }
        };
    let mut parametros: Vec<ParametroCatalogo> = rulebook
        .parameters
        .iter()
        .map(|p| row(&p.name, Some(p.citation.to_string()), Some(p)))
        .collect();
    // A cap whose law leaves the population to the deployment (Canguçu
    // art. 3º, § 2º) reads it all the same.
    if outorga_store::settable_parameter(rulebook, "population")
        && rulebook.parameter_id("population").is_none()
    {
        let article = rulebook.caps.first().map(|c| c.citation.to_string());
        parametros.push(row("population", article, None));
    }
    // The fare's values, which a decree sets (the taximeter's law names
    // how the fare is made, not its values).
    for name in outorga_store::tariff_parameters(rulebook) {
        let article = rulebook.fare.as_ref().map(|f| f.citation.to_string());
        parametros.push(row(name, article, None));
    }
    let unidades = rulebook
        .units
        .values()
        .map(|u| {
            // The value in force: the deployment's record (its act) or the law's.
            let dated = ctx.unit_in_force(&u.code, on);
            UnidadeCatalogo {
                codigo: u.code.clone(),
                nome: u.name.clone(),
                artigo: u.citation.to_string(),
                reais: dated.map(|d| number(d.value)),
                desde: dated
                    .filter(|d| d.from != chrono::NaiveDate::MIN)
                    .map(|d| d.from.to_string()),
                fonte: dated.and_then(|d| d.source.clone()),
            }
        })
        .collect();
    ParametrosDoRegulamento {
        regulamento: rulebook.id.clone(),
        servicos: services(rulebook),
        parametros,
        unidades,
    }
}

/// The parameters of the jurisdiction's law (or one service's), each with
/// its meaning, unit, article and the value in force on a day (the law's,
/// or the one the deployment set); and the fiscal units with their value in
/// reais.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/catalog/parameters", tag = "catálogos",
    params(("j" = String, Path, description = "a jurisdição"), DoServicoNaData),
    responses((status = 200, body = CatalogoParametros), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn parameters(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(asked_for): Query<DoServicoNaData>,
) -> Result<Json<CatalogoParametros>, ApiError> {
    Ok(Json(
        parameter_catalog(
            &state,
            &j,
            asked_for.servico.as_deref(),
            asked_for.data.as_deref(),
        )
        .await?,
    ))
}

/// The parameters of `j`'s law (or of one service's) with the values in
/// force on `data` (none: today), and the fiscal units its rulebooks name:
/// what `GET …/catalog/parameters` and the parameters' page show.
pub async fn parameter_catalog(
    state: &AppState,
    j: &str,
    servico: Option<&str>,
    data: Option<&str>,
) -> Result<CatalogoParametros, ApiError> {
    let on = day_or_today(state, j, data, "data")?;
    let mut regulamentos = Vec::new();
    for rulebook in asked(state, j, servico).await? {
        // The version of the law in force that day.
        let rulebook = rulebook.in_force_on(on).map_err(|e| {
            ApiError::field(
                axum::http::StatusCode::UNPROCESSABLE_ENTITY,
                "data",
                e.to_string(),
            )
        })?;
        let ctx = law(state, j, rulebook).await?;
        regulamentos.push(parameters_of(&ctx, on));
    }
    Ok(CatalogoParametros {
        data: on.to_string(),
        regulamentos,
    })
}

// ------------------------------------------------------------ the law's text

#[derive(Debug, Serialize, ToSchema)]
pub struct CatalogoLei {
    /// O dia cuja versão se mostra (AAAA-MM-DD).
    pub data: String,
    pub regulamentos: Vec<LeiDoRegulamento>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LeiDoRegulamento {
    pub regulamento: String,
    /// A lei: nome e número.
    pub lei: String,
    pub numero: String,
    /// As versões da lei, da primeira à última.
    pub versoes: Vec<VersaoCatalogo>,
    /// Os artigos da versão em vigor na data, como a lei os imprime.
    pub artigos: Vec<ArtigoCatalogo>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VersaoCatalogo {
    pub desde: String,
    /// O ato que deu à lei este texto (a própria lei na primeira versão).
    pub ato: String,
    pub descricao: String,
    /// O que o ato alterou, como sua ementa diz.
    pub alteracao: Option<String>,
    /// A versão em vigor na data pedida.
    pub em_vigor: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ArtigoCatalogo {
    pub artigo: String,
    pub texto: String,
}

/// The law of `rulebook` as in force on `on`: its versions and the
/// articles of the one in force, or why the day is before the law.
pub fn law_of(rulebook: &Rulebook, on: NaiveDate) -> Result<LeiDoRegulamento, ApiError> {
    let in_force = rulebook.in_force_on(on).map_err(|e| {
        ApiError::field(
            axum::http::StatusCode::UNPROCESSABLE_ENTITY,
            "data",
            e.to_string(),
        )
    })?;
    Ok(LeiDoRegulamento {
        regulamento: rulebook.id.clone(),
        lei: rulebook.act.name.clone(),
        numero: rulebook.act.number.clone(),
        versoes: rulebook
            .versions()
            .map(|v| VersaoCatalogo {
                desde: v.version.valid_from.to_string(),
                ato: v.version.act_number(&v.act).to_string(),
                descricao: v.version.label(&v.act),
                alteracao: v.version.amendment.as_ref().map(|a| a.summary.clone()),
                em_vigor: std::ptr::eq(v, in_force),
            })
            .collect(),
        artigos: in_force
            .text
            .articles()
            .map(|(artigo, texto)| ArtigoCatalogo {
                artigo: artigo.to_string(),
                texto: texto.to_string(),
            })
            .collect(),
    })
}

/// The law of the jurisdiction's rulebooks (or one service's) as in force
/// on `data` (none: today): its versions, each with the act that made it,
/// and the text of every article of the version in force.
#[utoipa::path(get, path = "/api/jurisdictions/{j}/catalog/law", tag = "catálogos",
    params(("j" = String, Path, description = "a jurisdição"), DoServicoNaData),
    responses((status = 200, body = CatalogoLei), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)),
    security(("bearer" = [])))]
async fn law_text(
    State(state): State<AppState>,
    _who: Reader,
    Path(j): Path<String>,
    Query(asked_for): Query<DoServicoNaData>,
) -> Result<Json<CatalogoLei>, ApiError> {
    let on = day_or_today(&state, &j, asked_for.data.as_deref(), "data")?;
    let regulamentos = asked(&state, &j, asked_for.servico.as_deref())
        .await?
        .into_iter()
        .map(|rulebook| law_of(rulebook, on))
        .collect::<Result<_, _>>()?;
    Ok(Json(CatalogoLei {
        data: on.to_string(),
        regulamentos,
    }))
}

pub(crate) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(law_text))
        .routes(routes!(infractions))
        .routes(routes!(requirements))
        .routes(routes!(vehicles))
        .routes(routes!(parameters))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::routes::grounds_of;
    use outorga_core::engine::permit_life::CADUCITY_GROUNDS;
    use outorga_core::engine::process::NOT_ADMITTED;
    use std::path::PathBuf;

    fn library() -> outorga_rulebook::Library {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks");
        outorga_rulebook::load(&root).expect("the rulebooks load")
    }

    /// Whatever a rulebook names, the catalogs say in Portuguese: every
    /// parameter has its meaning and unit, every item of equipment, kind of
    /// inspection, reserved share, excuse, ground and reason for a reserve
    /// its Portuguese spelling.
    #[test]
    fn every_parameter_equipment_and_inspection_of_the_rulebooks_is_in_portuguese() {
        for rulebook in library().rulebooks() {
            for p in &rulebook.parameters {
                assert!(meaning(&p.name).is_some(), "{}: `{}`", rulebook.id, p.name);
            }
            for r in &rulebook.vehicles.requirements {
                if let VehicleCheck::Equipment { all_of, any_of } = &r.check {
                    for code in all_of.iter().chain(any_of) {
                        assert!(
                            vocab::equipment_name(code).is_some(),
                            "{}: `{code}`",
                            rulebook.id
                        );
                    }
                }
            }
            for own in &rulebook.vehicles.inspections {
                assert!(
                    VISTORIAS.words.iter().any(|(_, c)| *c == own.kind),
                    "{}: inspection `{}`",
                    rulebook.id,
                    own.kind
                );
            }
            for quota in rulebook.caps.iter().flat_map(|c| &c.reserved) {
                assert!(
                    vocab::COTAS.words.iter().any(|(_, c)| *c == quota.key),
                    "{}: quota `{}`",
                    rulebook.id,
                    quota.key
                );
            }
            for excuse in rulebook.change_limits.iter().flat_map(|l| &l.excuses) {
                assert!(
                    vocab::EXCECOES.words.iter().any(|(_, c)| *c == excuse.key),
                    "{}: excuse `{}`",
                    rulebook.id,
                    excuse.key
                );
            }
            let spelled = |vocabulary: &vocab::Vocabulary, key: &str| {
                assert!(
                    vocabulary.words.iter().any(|(_, c)| *c == key),
                    "{}: {} `{key}`",
                    rulebook.id,
                    vocabulary.what
                );
            };
            for (key, _) in grounds_of(rulebook, NOT_ADMITTED) {
                spelled(&vocab::NAO_CONHECIMENTO, key);
            }
            for (key, _) in grounds_of(rulebook, CADUCITY_GROUNDS) {
                spelled(&vocab::HIPOTESES_CADUCIDADE, key);
            }
            for reason in rulebook.permit_suspension.iter().flat_map(|r| &r.reasons) {
                spelled(&vocab::MOTIVOS_RESERVA, &reason.key);
            }
        }
    }
}
