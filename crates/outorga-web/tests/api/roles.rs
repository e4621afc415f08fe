//! Who may call which route, and where: one row per operation of the
//! OpenAPI document (the test enumerates the document and fails on an
//! operation without a row, or a row without an operation, so a new route
//! cannot skip the table).
//!
//! Each row gives the roles it admits — `A`dmitted or `F`orbidden for admin,
//! clerk, inspector, board and read-only, or `None` for a public route — and
//! a sample request. No credentials is 401; a forbidden role is 403; an
//! admitted role gets past authorization (whatever the route then answers).
//! For routes under a jurisdiction (`{j}`) the scope columns follow from
//! the path: for every admitted role, a user limited to the sample's
//! jurisdiction gets past authorization, one limited to another gets 403,
//! and an unknown jurisdiction is 404 (for public routes too).

use crate::common::{App, PASSWORD};
use axum::http::{Method, StatusCode};
use outorga_store::{Role, Scope};
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};

/// One row: the operation, a request to it, the roles it admits.
struct Row {
    method: Method,
    /// The path as the OpenAPI document names it.
    template: &'static str,
    /// A request: the template with values; `{me}` is the caller's name.
    path: &'static str,
    body: Option<Value>,
    /// Per role (admin, clerk, inspector, board, read-only); None: public.
    roles: Option<&'static str>,
}

fn row(
    method: Method,
    template: &'static str,
    path: &'static str,
    body: Option<Value>,
    roles: &'static str,
) -> Row {
    Row {
        method,
        template,
        path,
        body,
        roles: Some(roles),
    }
}

fn public(method: Method, template: &'static str, path: &'static str, body: Option<Value>) -> Row {
    Row {
        method,
        template,
        path,
        body,
        roles: None,
    }
}

fn table() -> Vec<Row> {
    use Method as M;
    let person = json!({ "documento": "255.248.930-33", "nome": "Ana" });
    let vehicle = json!({ "placa": "ABC1D23", "renavam": "00000000019", "ano_fabricacao": 2020 });
    let line = json!({ "codigo": "L1", "nome": "Macapá–Santana", "coeficiente": "0,2175" });
    let stand = json!({ "codigo": "P1", "nome": "Praça" });
    let user = json!({ "nome": "novo", "papel": "clerk", "senha": "girafa-de-oculos-escuros" });
    let password = json!({ "senha": "girafa-de-oculos-escuros" });
    let token = json!({ "rotulo": "script" });
    let permit = json!({ "servico": "taxi", "titular": "25524893033" });
    let auto = json!({ "infracao": "x", "autuado": "25524893033", "regulamento": "cangucu/taxi",
                       "cometida_em": "2026-11-28T10:00", "local": "x", "descricao": "x" });
    let junk = json!({ "lixo": [1, 2, 3] });
    let sign_in = json!({ "nome": "admin", "senha": PASSWORD });
    vec![
        public(M::GET, "/api/health", "/api/health", None),
        row(M::GET, "/api/metrics", "/api/metrics", None, "AFFFF"),
        public(M::GET, "/api/openapi.json", "/api/openapi.json", None),
        public(M::POST, "/api/session", "/api/session", Some(sign_in)),
        row(M::DELETE, "/api/session", "/api/session", None, "AAAAA"),
        row(
            M::GET,
            "/api/sign-ins",
            "/api/sign-ins?falhas=true",
            None,
            "AFFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions",
            "/api/jurisdictions",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/people",
            "/api/jurisdictions/cangucu/people",
            Some(person),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/people/{documento}",
            "/api/jurisdictions/cangucu/people/25524893033",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/vehicles",
            "/api/jurisdictions/cangucu/vehicles",
            Some(vehicle),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/vehicles/{placa}",
            "/api/jurisdictions/cangucu/vehicles/ABC1D23",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/lines",
            "/api/jurisdictions/amapa/lines",
            Some(line),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/lines",
            "/api/jurisdictions/amapa/lines",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/lines/{linha}/operations",
            "/api/jurisdictions/amapa/lines/AP-101/operations",
            Some(
                json!({ "vigencia": "2026-01-01", "nivel": "convencional", "horarios": { "segunda": ["06:00"] },
                         "frequencia_minima": 1, "terminais": ["Macapá", "Porto Grande"],
                         "justificativa": "contrato", "ato": "Portaria 1/2026" }),
            ),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/lines/{linha}/operations",
            "/api/jurisdictions/amapa/lines/AP-101/operations",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/lines/{linha}/operations/{numero}/decision",
            "/api/jurisdictions/amapa/lines/AP-101/operations/1/decision",
            Some(json!({ "aprovar": true, "data": "2026-01-01", "ato": "Portaria 2/2026" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/carriers/{transportadora}/files",
            "/api/jurisdictions/amapa/carriers/36002518000101/files?tipo=tickets_csv&mes=2026-01&nome=a.csv",
            Some(json!("linha;partida;numero")),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/carriers/{transportadora}/files",
            "/api/jurisdictions/amapa/carriers/36002518000101/files",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/carriers/{transportadora}/months/{mes}",
            "/api/jurisdictions/amapa/carriers/36002518000101/months/2026-01",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/carriers/{transportadora}/months/{mes}/findings/{chave}/auto",
            "/api/jurisdictions/amapa/carriers/36002518000101/months/2026-01/findings/late_statistics:2026-01/auto",
            None,
            "AFAFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/charters",
            "/api/jurisdictions/amapa/charters",
            Some(
                json!({ "transportadora": "36002518000101", "tipo": "eventual", "de": "2026-01-01",
                         "ate": "2026-01-02", "origem": "Macapá", "destino": "Oiapoque",
                         "retorno": "Macapá", "placa": "ABC1D23" }),
            ),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/charters/{ano}/{numero}",
            "/api/jurisdictions/amapa/charters/2026/1",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/charters/{ano}/{numero}/files/{arquivo}",
            "/api/jurisdictions/amapa/charters/2026/1/files/1",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/carriers/{transportadora}/registrations",
            "/api/jurisdictions/amapa/carriers/36002518000101/registrations",
            Some(json!({ "documentos": [] })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/carriers/{transportadora}/registrations",
            "/api/jurisdictions/amapa/carriers/36002518000101/registrations",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/carriers/{transportadora}/registrations/{ano}/{numero}",
            "/api/jurisdictions/amapa/carriers/36002518000101/registrations/2026/1",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/carriers/{transportadora}/registrations/{ano}/{numero}/cancellation",
            "/api/jurisdictions/amapa/carriers/36002518000101/registrations/2026/1/cancellation",
            Some(json!({ "motivo": "x" })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/carriers/{transportadora}/registrations/{ano}/{numero}/files/{arquivo}",
            "/api/jurisdictions/amapa/carriers/36002518000101/registrations/2026/1/files/1",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/fleet",
            "/api/jurisdictions/amapa/permits/onibus/1/fleet",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/fleet/{placa}/withdrawal",
            "/api/jurisdictions/amapa/permits/onibus/1/fleet/ABC1D23/withdrawal",
            Some(json!({})),
            "AAFFF",
        ),
        row(
            M::PUT,
            "/api/jurisdictions/{j}/people/{documento}/company-ties",
            "/api/jurisdictions/amapa/people/36002518000101/company-ties",
            Some(json!({ "ato": "Contrato social" })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/people/{documento}/company-ties",
            "/api/jurisdictions/amapa/people/36002518000101/company-ties",
            None,
            "AAAAA",
        ),
        row(
            M::PUT,
            "/api/jurisdictions/{j}/people/{documento}/relatives",
            "/api/jurisdictions/amapa/people/52998224725/relatives",
            Some(json!({ "ato": "Declaração" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/stands",
            "/api/jurisdictions/cangucu/stands",
            Some(stand),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/stands",
            "/api/jurisdictions/cangucu/stands",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/stands/{codigo}",
            "/api/jurisdictions/cangucu/stands/P1?dia=2026-11-30",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/stands/{codigo}/designations",
            "/api/jurisdictions/cangucu/stands/P1/designations",
            Some(json!({ "servico": "taxi", "numero": 1, "ato": "Portaria 1" })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/stands",
            "/api/jurisdictions/cangucu/permits/taxi/1/stands",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-loss",
            "/api/jurisdictions/cangucu/permits/taxi/1/stand-loss",
            Some(json!({ "de": "2026-01-01", "ate": "2026-05-01" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-notices",
            "/api/jurisdictions/cangucu/permits/taxi/1/stand-notices",
            Some(json!({
                "ponto": "P2", "ato": "Notificação 1", "fundamentos": "Obras na praça central",
                "notificado_em": "2026-11-30",
            })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-notices",
            "/api/jurisdictions/cangucu/permits/taxi/1/stand-notices",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/stand-notices/{sequencia}/answer",
            "/api/jurisdictions/cangucu/permits/taxi/1/stand-notices/1/answer",
            Some(json!({ "respondida_em": "2026-12-01", "resposta": "Discordo da mudança" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/stand-swaps",
            "/api/jurisdictions/cangucu/stand-swaps",
            Some(json!({ "servico": "taxi", "permissoes": [1, 2] })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/stand-swaps",
            "/api/jurisdictions/cangucu/stand-swaps",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/stand-swaps/{ano}/{numero}",
            "/api/jurisdictions/cangucu/stand-swaps/2026/1",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/stand-swaps/{ano}/{numero}/decision",
            "/api/jurisdictions/cangucu/stand-swaps/2026/1/decision",
            Some(json!({ "autorizar": true })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/draws",
            "/api/jurisdictions/cangucu/draws",
            Some(
                json!({ "ponto": "P1", "fonte_semente": "Loteria", "data_semente": "2026-12-05" }),
            ),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/draws",
            "/api/jurisdictions/cangucu/draws",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/draws/{ano}/{numero}",
            "/api/jurisdictions/cangucu/draws/2026/1",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/draws/{ano}/{numero}/participants",
            "/api/jurisdictions/cangucu/draws/2026/1/participants",
            Some(json!({ "servico": "taxi", "numero": 1 })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/draws/{ano}/{numero}/close",
            "/api/jurisdictions/cangucu/draws/2026/1/close",
            None,
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/draws/{ano}/{numero}/result",
            "/api/jurisdictions/cangucu/draws/2026/1/result",
            Some(json!({ "semente": "1" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/draws/{ano}/{numero}/appeals",
            "/api/jurisdictions/cangucu/draws/2026/1/appeals",
            Some(json!({ "recorrente": "25524893033", "fundamentos": "x" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/draws/{ano}/{numero}/appeals/{recurso}/decision",
            "/api/jurisdictions/cangucu/draws/2026/1/appeals/1/decision",
            Some(json!({ "provido": false, "decisao": "x" })),
            "AFFAF",
        ),
        public(
            M::GET,
            "/api/public/jurisdictions/{j}/draws/{ano}/{numero}",
            "/api/public/jurisdictions/cangucu/draws/2026/1",
            None,
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls",
            "/api/jurisdictions/cangucu/calls",
            Some(
                json!({ "servico": "taxi", "ato": "Edital", "vagas": 1, "inscricoes_de": "2026-12-01", "inscricoes_ate": "2026-12-31", "criterios": [] }),
            ),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/calls",
            "/api/jurisdictions/cangucu/calls",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}",
            "/api/jurisdictions/cangucu/calls/2026/1",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/applications",
            "/api/jurisdictions/cangucu/calls/2026/1/applications",
            Some(json!({ "interessado": "25524893033" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/screening",
            "/api/jurisdictions/cangucu/calls/2026/1/screening",
            None,
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/tie-draw",
            "/api/jurisdictions/cangucu/calls/2026/1/tie-draw",
            Some(json!({ "fonte_semente": "Loteria", "data_semente": "2026-12-05" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/provisional-result",
            "/api/jurisdictions/cangucu/calls/2026/1/provisional-result",
            None,
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/appeals",
            "/api/jurisdictions/cangucu/calls/2026/1/appeals",
            Some(json!({ "recorrente": "25524893033", "fundamentos": "x" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/appeals/{recurso}/decision",
            "/api/jurisdictions/cangucu/calls/2026/1/appeals/1/decision",
            Some(json!({ "provido": false, "decisao": "x" })),
            "AFFAF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/final-result",
            "/api/jurisdictions/cangucu/calls/2026/1/final-result",
            None,
            "AFFAF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/calls/{ano}/{numero}/applications/{inscricao}/grant",
            "/api/jurisdictions/cangucu/calls/2026/1/applications/1/grant",
            None,
            "AAFFF",
        ),
        public(
            M::GET,
            "/api/public/jurisdictions/{j}/calls/{ano}/{numero}",
            "/api/public/jurisdictions/cangucu/calls/2026/1",
            None,
        ),
        row(M::GET, "/api/audit", "/api/audit", None, "AFFAF"),
        row(
            M::GET,
            "/api/audit/verify",
            "/api/audit/verify",
            None,
            "AFFAF",
        ),
        row(M::POST, "/api/users", "/api/users", Some(user), "AFFFF"),
        row(M::GET, "/api/users", "/api/users", None, "AFFFF"),
        row(
            M::PUT,
            "/api/users/{nome}/password",
            "/api/users/ninguem/password",
            Some(password),
            "AFFFF",
        ),
        row(
            M::DELETE,
            "/api/users/{nome}",
            "/api/users/ninguem",
            None,
            "AFFFF",
        ),
        row(
            M::POST,
            "/api/users/{nome}/tokens",
            "/api/users/{me}/tokens",
            Some(token.clone()),
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/users/{nome}/tokens",
            "/api/users/outro/tokens",
            Some(token),
            "AFFFF",
        ),
        row(
            M::GET,
            "/api/users/{nome}/tokens",
            "/api/users/{me}/tokens",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/users/{nome}/tokens",
            "/api/users/outro/tokens",
            None,
            "AFFFF",
        ),
        row(
            M::DELETE,
            "/api/users/{nome}/tokens/{rotulo}",
            "/api/users/{me}/tokens/script",
            None,
            "AAAAA",
        ),
        row(
            M::DELETE,
            "/api/users/{nome}/tokens/{rotulo}",
            "/api/users/outro/tokens/script",
            None,
            "AFFFF",
        ),
        public(
            M::GET,
            "/api/public/jurisdictions/{j}/vehicles/{placa}",
            "/api/public/jurisdictions/cangucu/vehicles/ABC1D23",
            None,
        ),
        public(
            M::GET,
            "/api/public/jurisdictions/{j}/drivers/{matricula}",
            "/api/public/jurisdictions/cangucu/drivers/2026-00001",
            None,
        ),
        public(
            M::GET,
            "/api/public/documents/{codigo}",
            "/api/public/documents/ABCDE-12345",
            None,
        ),
        public(
            M::POST,
            "/api/public/jurisdictions/{j}/complaints",
            "/api/public/jurisdictions/cangucu/complaints",
            Some(json!({ "tipo": "x" })),
        ),
        public(
            M::GET,
            "/api/public/complaints/{protocolo}",
            "/api/public/complaints/ABCDE-12345",
            None,
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/complaints",
            "/api/jurisdictions/cangucu/complaints",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/complaints/{protocolo}",
            "/api/jurisdictions/cangucu/complaints/ABCDE-12345",
            Some(json!({ "situacao": "in_review" })),
            "AAAFF",
        ),
        public(
            M::GET,
            "/api/public/jurisdictions/{j}/open-data",
            "/api/public/jurisdictions/cangucu/open-data",
            None,
        ),
        public(
            M::GET,
            "/api/public/jurisdictions/{j}/open-data/{arquivo}",
            "/api/public/jurisdictions/cangucu/open-data/pontos.csv",
            None,
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/documents",
            "/api/jurisdictions/cangucu/documents?assunto=vehicle:ABC1D23",
            None,
            "AAAAA",
        ),
        row(
            M::PUT,
            "/api/jurisdictions/{j}/people/{documento}/profile",
            "/api/jurisdictions/cangucu/people/25524893033/profile",
            Some(json!({})),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/people/{documento}/profile",
            "/api/jurisdictions/cangucu/people/25524893033/profile",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/caps/{servico}/reservas/{reserva}/liberacao",
            "/api/jurisdictions/cangucu/caps/taxi/reservas/veiculos_acessiveis/liberacao",
            Some(json!({})),
            "AFFAF",
        ),
        row(
            M::PUT,
            "/api/jurisdictions/{j}/parameters/{nome}",
            "/api/jurisdictions/cangucu/parameters/population",
            Some(json!({ "valor": "10000", "desde": "2024-03-05", "ato": "Decreto de teste" })),
            "AFFFF",
        ),
        row(
            M::PUT,
            "/api/jurisdictions/{j}/units/{unidade}",
            "/api/jurisdictions/amapa/units/CTM",
            Some(json!({ "desde": "2026-01-01", "valor": "4.7", "ato": "Decreto 1/2026" })),
            "AFFFF",
        ),
        row(
            M::PUT,
            "/api/jurisdictions/{j}/payment-settings",
            "/api/jurisdictions/amapa/payment-settings",
            Some(
                json!({ "segmento": 1, "convenio": "1234", "identificador_valor": 6,
                         "chave_pix": "pagamentos@amapa.exemplo.gov.br",
                         "beneficiario": "Amapá", "cidade": "Macapá" }),
            ),
            "AFFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/payment-settings",
            "/api/jurisdictions/amapa/payment-settings",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/guia",
            "/api/jurisdictions/amapa/debts/2026/1/1/guia",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/documents/{codigo}/pdf",
            "/api/jurisdictions/cangucu/documents/ABCDE-12345/pdf",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/papers",
            "/api/jurisdictions/cangucu/autos/2026/1/papers",
            Some(json!({ "tipo": "auto_infracao" })),
            "AAAAF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/guia/documento",
            "/api/jurisdictions/amapa/debts/2026/1/1/guia/documento",
            None,
            "AAAAF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/fees",
            "/api/jurisdictions/amapa/fees",
            Some(json!({ "servico": "onibus", "taxa": "x", "devedor": "52601815906" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/documents/{codigo}/second-copy",
            "/api/jurisdictions/amapa/documents/ABCDE-12345/second-copy",
            Some(json!({})),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/refund",
            "/api/jurisdictions/amapa/debts/2026/1/1/refund",
            Some(json!({ "motivo": "duplicidade" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/refund/paid",
            "/api/jurisdictions/amapa/debts/2026/1/1/refund/paid",
            Some(json!({})),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/bank-returns",
            "/api/jurisdictions/amapa/bank-returns",
            Some(json!({ "arquivo": "" })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/reports/revenue.csv",
            "/api/jurisdictions/amapa/reports/revenue.csv",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/reports/overdue.csv",
            "/api/jurisdictions/amapa/reports/overdue.csv",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/units",
            "/api/jurisdictions/amapa/units",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/lines/{codigo}/coefficients",
            "/api/jurisdictions/amapa/lines/AP-1/coefficients",
            Some(json!({ "desde": "2026-01-01", "coeficiente": "0.2", "ato": "Portaria 1/2026" })),
            "AFFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits",
            "/api/jurisdictions/cangucu/permits",
            Some(permit),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/permits",
            "/api/jurisdictions/cangucu/permits",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}",
            "/api/jurisdictions/cangucu/permits/taxi/1",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/status",
            "/api/jurisdictions/cangucu/permits/taxi/1/status",
            Some(json!({ "mudanca": "reserva" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/status",
            "/api/jurisdictions/cangucu/permits/taxi/1/status",
            Some(json!({ "mudanca": "revogacao" })),
            "AFFAF",
        ),
        // Whatever the body, a role that could never pass gets 403.
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/status",
            "/api/jurisdictions/cangucu/permits/taxi/1/status",
            Some(junk.clone()),
            "AAFAF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers",
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers",
            Some(json!({ "condutor": "25524893033", "funcao": "auxiliar" })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers",
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers",
            None,
            "AAAAA",
        ),
        row(
            M::DELETE,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers/{matricula}",
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers/2026-00001",
            None,
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/drivers/{matricula}/renewal",
            "/api/jurisdictions/cangucu/permits/taxi/1/drivers/2026-00001/renewal",
            None,
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/permits/{servico}/{numero}/vehicle",
            "/api/jurisdictions/cangucu/permits/taxi/1/vehicle",
            Some(json!({ "placa": "ABC1D23" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/vehicles/{placa}/authorization",
            "/api/jurisdictions/cangucu/vehicles/ABC1D23/authorization",
            None,
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/vehicles/{placa}/inspections",
            "/api/jurisdictions/cangucu/vehicles/ABC1D23/inspections",
            Some(json!({ "servico": "taxi", "tipo": "periodica", "aprovada": true })),
            "AAAFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos",
            "/api/jurisdictions/cangucu/autos",
            Some(auto),
            "AFAFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/autos",
            "/api/jurisdictions/cangucu/autos",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}",
            "/api/jurisdictions/cangucu/autos/2026/1",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps",
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(json!({ "passo": "notificar" })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody",
            "/api/jurisdictions/amapa/autos/2026/1/custody",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody",
            "/api/jurisdictions/amapa/autos/2026/1/custody",
            Some(json!({ "desde": "2026-01-01T10:00", "local": "Pátio", "responsavel": "Fulano" })),
            "AAAFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody/expenses",
            "/api/jurisdictions/amapa/autos/2026/1/custody/expenses",
            Some(
                json!({ "tipo": "food_lodging", "descricao": "Jantar", "valor": "10", "data": "2026-01-01" }),
            ),
            "AAAFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody/expenses/{despesa}/payment",
            "/api/jurisdictions/amapa/autos/2026/1/custody/expenses/1/payment",
            Some(json!({ "pago_em": "2026-01-01", "comprovante": "Recibo 1" })),
            "AAAFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/custody/correction",
            "/api/jurisdictions/amapa/autos/2026/1/custody/correction",
            Some(json!({ "quando": "2026-01-01T10:00", "correcao": "Quadro de preços afixado" })),
            "AAAFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps",
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(json!({ "passo": "recorrer", "texto": "x" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps",
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(json!({ "passo": "julgar", "mantido": true })),
            "AFFAF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps",
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(json!({ "passo": "julgar_recurso", "mantido": true })),
            "AFFAF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps",
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            Some(junk),
            "AAFAF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/autos/{ano}/{numero}/steps",
            "/api/jurisdictions/cangucu/autos/2026/1/steps",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/catalog/law",
            "/api/jurisdictions/cangucu/catalog/law",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/catalog/infractions",
            "/api/jurisdictions/cangucu/catalog/infractions",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/catalog/requirements",
            "/api/jurisdictions/cangucu/catalog/requirements?servico=taxi",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/catalog/vehicles",
            "/api/jurisdictions/cangucu/catalog/vehicles",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/catalog/parameters",
            "/api/jurisdictions/cangucu/catalog/parameters",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/debts",
            "/api/jurisdictions/cangucu/debts",
            None,
            "AAAAA",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/due",
            "/api/jurisdictions/cangucu/debts/2026/1/1/due",
            None,
            "AAAAA",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/payments",
            "/api/jurisdictions/cangucu/debts/2026/1/1/payments",
            Some(json!({ "data": "2026-11-30" })),
            "AAFFF",
        ),
        row(
            M::POST,
            "/api/jurisdictions/{j}/debts/{ano}/{numero}/{seq}/installments",
            "/api/jurisdictions/cangucu/debts/2026/1/1/installments",
            Some(json!({ "parcelas": 2 })),
            "AAFFF",
        ),
        row(
            M::GET,
            "/api/jurisdictions/{j}/agenda",
            "/api/jurisdictions/cangucu/agenda",
            None,
            "AAAAA",
        ),
    ]
}

/// The operations of the OpenAPI document: (method, path, public).
fn operations() -> BTreeSet<(String, String, bool)> {
    let document = serde_json::to_value(outorga_web::openapi()).expect("the document");
    let mut found = BTreeSet::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in ["get", "post", "put", "patch", "delete"] {
            if let Some(operation) = item.get(method) {
                let public = operation.get("security").is_none();
                found.insert((method.to_uppercase(), path.clone(), public));
            }
        }
    }
    found
}

/// Whether `path` (without its query) is `template` with values.
fn fills(template: &str, path: &str) -> bool {
    let path = path.split('?').next().unwrap_or_default();
    let (t, p): (Vec<&str>, Vec<&str>) = (template.split('/').collect(), path.split('/').collect());
    t.len() == p.len()
        && t.iter()
            .zip(&p)
            .all(|(t, p)| t == p || (t.starts_with('{') && !p.is_empty()))
}

/// The jurisdiction of a sample path, if it has one.
fn jurisdiction_of(path: &str) -> Option<&str> {
    let mut parts = path.split('/');
    parts.find(|part| *part == "jurisdictions")?;
    parts.next().filter(|j| !j.is_empty())
}

#[test]
fn every_operation_has_a_row_and_every_row_an_operation() {
    let operations = operations();
    let rows = table();
    for (method, path, public) in &operations {
        let mine: Vec<&Row> = rows
            .iter()
            .filter(|r| r.method.as_str() == method && r.template == path)
            .collect();
        assert!(!mine.is_empty(), "{method} {path} has no row in the table");
        for r in mine {
            assert_eq!(r.roles.is_none(), *public, "{method} {path}: public or not");
        }
    }
    for r in &rows {
        assert!(
            operations
                .iter()
                .any(|(m, p, _)| m == r.method.as_str() && p == r.template),
            "{} {} is not in the document",
            r.method,
            r.template
        );
        assert!(
            fills(r.template, r.path),
            "{} does not fill {}",
            r.path,
            r.template
        );
        if let Some(roles) = r.roles {
            assert_eq!(roles.len(), Role::ALL.len(), "{} {}", r.method, r.template);
        }
        assert_eq!(
            r.template.contains("{j}"),
            jurisdiction_of(r.path).is_some(),
            "{}",
            r.path
        );
    }
}

fn passes(answer: &crate::common::Answer) -> bool {
    !matches!(
        answer.status,
        StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN
    )
}

fn unknown_jurisdiction(answer: &crate::common::Answer) -> bool {
    answer.status == StatusCode::NOT_FOUND
        && answer
            .text("erro")
            .contains("a jurisdição `atlantida` não está cadastrada")
}

/// The name of the user of `role` limited to `j`.
fn limited(role: Role, j: &str) -> String {
    format!("{}.{j}", role.code())
}

async fn roles_routes_and_scopes(app: &App) {
    let mut tokens = HashMap::new();
    for role in Role::ALL {
        tokens.insert(
            role.code().to_string(),
            app.with_token(role.code(), role, Scope::All).await,
        );
        for j in ["cangucu", "amapa"] {
            let name = limited(role, j);
            let token = app
                .with_token(&name, role, Scope::Only(vec![j.into()]))
                .await;
            tokens.insert(name, token);
        }
    }
    app.with_token("outro", Role::Clerk, Scope::All).await;
    app.store
        .create_token(&crate::common::setup(), "outro", "script", None)
        .await
        .expect("a token of outro");

    for r in table() {
        let body = r.body.clone();
        let Some(roles) = r.roles else {
            // Public: no credentials needed; an unknown jurisdiction is 404.
            let answer = app.call(r.method.clone(), r.path, None, body.clone()).await;
            assert!(
                passes(&answer),
                "{} {}: {:?}",
                r.method,
                r.path,
                answer.body
            );
            if let Some(j) = jurisdiction_of(r.path) {
                let unknown = r.path.replacen(j, "atlantida", 1);
                let answer = app.call(r.method.clone(), &unknown, None, body).await;
                assert!(
                    unknown_jurisdiction(&answer),
                    "{unknown}: {:?}",
                    answer.body
                );
            }
            continue;
        };
        let nobody = app.call(r.method.clone(), r.path, None, body.clone()).await;
        assert_eq!(
            nobody.status,
            StatusCode::UNAUTHORIZED,
            "{} {}",
            r.method,
            r.path
        );
        assert!(nobody.text("erro").contains("autenticação necessária"));
        for (role, verdict) in Role::ALL.into_iter().zip(roles.chars()) {
            let path = r.path.replace("{me}", role.code());
            let answer = app
                .call(
                    r.method.clone(),
                    &path,
                    Some(&tokens[role.code()]),
                    body.clone(),
                )
                .await;
            let what = format!("{} {path} as {}: {:?}", r.method, role.code(), answer.body);
            if verdict == 'F' {
                assert_eq!(answer.status, StatusCode::FORBIDDEN, "{what}");
                assert!(!answer.text("erro").is_empty(), "{what}");
                continue;
            }
            assert!(passes(&answer), "{what}");
            let Some(j) = jurisdiction_of(r.path) else {
                continue;
            };
            // The scope columns, for every admitted role.
            let other = if j == "cangucu" { "amapa" } else { "cangucu" };
            let inside = limited(role, j);
            let answer = app
                .call(
                    r.method.clone(),
                    &path,
                    Some(&tokens[&inside]),
                    body.clone(),
                )
                .await;
            assert!(
                passes(&answer) && !unknown_jurisdiction(&answer),
                "{} {path} as {inside}: {:?}",
                r.method,
                answer.body
            );
            let outside = limited(role, other);
            let answer = app
                .call(
                    r.method.clone(),
                    &path,
                    Some(&tokens[&outside]),
                    body.clone(),
                )
                .await;
            assert_eq!(
                answer.status,
                StatusCode::FORBIDDEN,
                "{} {path} as {outside}",
                r.method
            );
            assert!(
                answer
                    .text("erro")
                    .contains(&format!("acesso à jurisdição `{j}`")),
                "{:?}",
                answer.body
            );
            let unknown = path.replacen(j, "atlantida", 1);
            let answer = app
                .call(
                    r.method.clone(),
                    &unknown,
                    Some(&tokens[&inside]),
                    body.clone(),
                )
                .await;
            assert!(
                unknown_jurisdiction(&answer),
                "{} {unknown} as {inside}: {:?}",
                r.method,
                answer.body
            );
        }
    }
}

on_both_backends!(roles_routes_and_scopes);
