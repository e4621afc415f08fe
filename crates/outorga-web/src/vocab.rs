//! The API's words. Code, rulebooks and the record keep one English
//! spelling of each closed vocabulary (`auxiliary`, `periodic`, `notify`,
//! `fine`…); users read Portuguese. This module is the one place the API
//! translates: each [`Vocabulary`] pairs the Portuguese wire spelling
//! (snake_case, ASCII, without accents: `auxiliar`, `periodica`,
//! `notificar`, `multa`) with the code's.
//!
//! Answers carry the Portuguese spelling ([`Vocabulary::wire`]); requests
//! are read with [`Vocabulary::read`], which takes the Portuguese spelling
//! written loosely (`Periódica`, `notificar decisão`) and, for the clients
//! written before, the code's own. A closed vocabulary refuses anything
//! else (422, naming the field and listing the spellings); an open one
//! (the rulebooks add their own inspection kinds, equipment, reasons)
//! passes an unknown word on as it came, for the law to judge. The OpenAPI
//! document lists each vocabulary on the fields that carry it
//! ([`DOCUMENTED`], `openapi.rs`).

use crate::error::ApiError;
use axum::http::StatusCode;
use outorga_core::model::Quota;

/// One vocabulary: Portuguese wire spellings and the code's, in pairs.
#[derive(Debug)]
pub(crate) struct Vocabulary {
    /// What it names, for the documentation ("a função do condutor").
    pub what: &'static str,
    /// (Portuguese, code) pairs.
    pub words: &'static [(&'static str, &'static str)],
    /// Other Portuguese spellings read as a word, never answered (the law
    /// names "furto ou roubo" as one reason: `furto` and `roubo` are read
    /// as `furto_ou_roubo`).
    pub also: &'static [(&'static str, &'static str)],
    /// Other words are the rulebooks' own and pass as they came.
    pub open: bool,
}

/// A word as its spelling is compared: lower case, without accents, with
/// spaces and hyphens as underscores.
pub(crate) fn fold(text: &str) -> String {
    text.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            ' ' | '-' => '_',
            other => other,
        })
        .collect()
}

impl Vocabulary {
    /// The Portuguese spelling of the code's `code`; a word the vocabulary
    /// does not know (a rulebook's own) as it is.
    pub fn wire(&self, code: &str) -> String {
        self.words
            .iter()
            .find(|(_, c)| *c == code)
            .map_or(code, |(wire, _)| wire)
            .to_string()
    }

    /// The code's spelling of a word sent: its Portuguese spelling (loosely
    /// written) or the code's own. `None` when the vocabulary does not know
    /// it.
    pub fn code(&self, text: &str) -> Option<&'static str> {
        let folded = fold(text);
        self.words
            .iter()
            .chain(self.also)
            .find(|(wire, code)| *wire == folded || *code == text.trim())
            .map(|(_, code)| *code)
    }

    /// The code's spelling of `text`, sent as `campo`: refused (422) when a
    /// closed vocabulary does not know it; an open one passes it on.
    pub fn read(&self, campo: &str, text: &str) -> Result<String, ApiError> {
        match self.code(text) {
            Some(code) => Ok(code.to_string()),
            None if self.open => Ok(text.trim().to_string()),
            None => Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                campo,
                format!("`{}`: use {}", text.trim(), self.spellings()),
            )),
        }
    }

    /// The code's spelling of `text`, sent as `campo`, when it names one of
    /// the law's `entries` (its keys with their descriptions: a rulebook's
    /// reasons or grounds): refused (422) naming each entry in Portuguese
    /// with its description. A law that lists none leaves the word to its
    /// machine, as [`Vocabulary::read`] does.
    pub fn read_among(
        &self,
        campo: &str,
        text: &str,
        entries: &[(&str, &str)],
    ) -> Result<String, ApiError> {
        let code = self.read(campo, text)?;
        if entries.is_empty() || entries.iter().any(|(key, _)| *key == code) {
            return Ok(code);
        }
        let named: Vec<String> = entries
            .iter()
            .map(|(key, description)| format!("{} ({description})", self.wire(key)))
            .collect();
        Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            campo,
            format!("`{}`: use {}", text.trim(), listed(&named)),
        ))
    }

    /// Every Portuguese spelling: "a, b ou c".
    pub fn spellings(&self) -> String {
        let wires: Vec<String> = self
            .words
            .iter()
            .map(|(wire, _)| wire.to_string())
            .collect();
        listed(&wires)
    }

    /// The words of the law `codes` (a rulebook's own), in Portuguese:
    /// "a, b ou c".
    pub fn spell<'a>(&self, codes: impl IntoIterator<Item = &'a str>) -> String {
        let wires: Vec<String> = codes.into_iter().map(|c| self.wire(c)).collect();
        listed(&wires)
    }
}

/// Words as a sentence lists them: "a, b ou c".
pub(crate) fn listed(words: &[String]) -> String {
    match words.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} ou {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The role a driver serves a permit in.
pub(crate) const FUNCOES: Vocabulary = Vocabulary {
    what: "a função do condutor na permissão",
    words: &[
        ("auxiliar", "auxiliary"),
        ("colaborador", "collaborator"),
        ("preposto", "preposto"),
    ],
    also: &[],
    open: false,
};

/// The kind of an inspection: the periodic one, or one of the rulebook's
/// own (`[[vehicles.inspections]]`).
pub(crate) const VISTORIAS: Vocabulary = Vocabulary {
    what: "o tipo da vistoria",
    words: &[
        ("periodica", "periodic"),
        ("adaptacao", "adaptation"),
        ("nbr_14040", "nbr_14040"),
    ],
    also: &[],
    open: true,
};

/// Where a permit stands (`PermitStatus`).
pub(crate) const SITUACOES_PERMISSAO: Vocabulary = Vocabulary {
    what: "a situação da permissão",
    words: &[
        ("em_vigor", "granted"),
        ("suspensa", "suspended"),
        ("em_reserva", "reserved"),
        ("renunciada", "renounced"),
        ("revogada", "revoked"),
        ("extinta", "extinct"),
    ],
    also: &[],
    open: false,
};

/// Where an auto's procedure stands (`process::Status`).
pub(crate) const SITUACOES_AUTO: Vocabulary = Vocabulary {
    what: "a situação do auto",
    words: &[
        ("lavrado", "issued"),
        ("aguardando_saneamento", "awaiting_cure"),
        ("sanado", "cured"),
        ("notificado", "notified"),
        ("julgado", "judged"),
        ("decisao_notificada", "decision_notified"),
        ("em_recurso", "appealed"),
        ("definitivo", "final"),
        ("arquivado", "archived"),
        ("anulado", "annulled"),
    ],
    also: &[],
    open: false,
};

/// The steps of an auto's procedure (`process::StepKind`).
pub(crate) const PASSOS: Vocabulary = Vocabulary {
    what: "o passo do processo do auto",
    words: &[
        ("notificar", "notify"),
        ("defender", "defend"),
        ("julgar", "judge"),
        ("notificar_decisao", "notify_decision"),
        ("recorrer", "appeal"),
        ("julgar_recurso", "decide_appeal"),
        ("tornar_definitivo", "finalize"),
        ("arquivar", "archive"),
        ("sanar", "cure"),
        ("nao_sanada", "not_cured"),
        ("comunicar_vistoria", "schedule_verification"),
        ("liberar", "release"),
    ],
    also: &[],
    open: false,
};

/// Sanctions and measures (`SanctionKind`).
pub(crate) const PENALIDADES: Vocabulary = Vocabulary {
    what: "a penalidade ou medida",
    words: &[
        ("advertencia", "warning"),
        ("notificacao_irregularidade", "notice_of_irregularity"),
        ("multa", "fine"),
        ("suspensao", "suspension"),
        ("suspensao_permissao", "permit_suspension"),
        ("impedimento_veiculo", "vehicle_impediment"),
        ("cassacao_condutor", "driver_cassation"),
        ("cassacao_permissao", "permit_cassation"),
        ("inabilitacao", "ineligibility"),
        ("apreensao_veiculo", "vehicle_seizure"),
        ("retencao_veiculo", "vehicle_retention"),
        ("apreensao_documento", "document_seizure"),
        ("processo_administrativo", "administrative_process"),
        ("inidoneidade", "inidoneidade"),
    ],
    also: &[],
    open: false,
};

/// The documents the department issues.
pub(crate) const DOCUMENTOS: Vocabulary = Vocabulary {
    what: "o tipo do documento",
    words: &[
        ("autorizacao_trafego", "traffic_authorization"),
        ("matricula_condutor", "driver_registration"),
        ("termo_delegacao", "delegation_term"),
        ("selo_vistoria", "inspection_seal"),
        ("auto_infracao", "auto"),
        ("notificacao_autuacao", "auto_notification"),
        ("notificacao_decisao", "decision_notice"),
        ("guia_recolhimento", "payment_slip"),
        ("autorizacao_fretamento", "charter_authorization"),
        ("registro_cadastral", "carrier_registration"),
    ],
    also: &[],
    open: false,
};

/// What a record key (`permissao:taxi:3`) begins with: the kind of record.
pub(crate) const REGISTROS: Vocabulary = Vocabulary {
    what: "o tipo de registro de um assunto",
    words: &[
        ("permissao", "permit"),
        ("condutor", "driver"),
        ("veiculo", "vehicle"),
        ("auto", "auto"),
        ("debito", "debt"),
        ("pessoa", "person"),
        ("documento", "document"),
        ("fretamento", "charter"),
    ],
    also: &[],
    open: true,
};

/// What falls due in the agenda.
pub(crate) const AGENDA: Vocabulary = Vocabulary {
    what: "o tipo do item da agenda",
    words: &[
        ("vencimento_permissao", "permit_expiry"),
        ("vencimento_documento", "document_expiry"),
        ("vistoria", "inspection"),
        ("substituicao_veiculo", "vehicle_replacement"),
        ("notificacao", "notification"),
        ("saneamento", "cure"),
        ("vistoria_verificacao", "verification"),
        ("defesa", "defense"),
        ("notificacao_decisao", "decision_notification"),
        ("recurso", "appeal"),
        ("limite_pontos", "threshold"),
        ("fim_penalidade", "suspension_end"),
        ("fim_reserva", "reserve_end"),
        ("correcao_caducidade", "caducity_cure"),
        ("debito", "debt"),
        ("parcela", "parcel"),
        ("restituicao", "refund"),
        ("fora_de_servico", "out_of_service"),
    ],
    also: &[],
    open: true,
};

/// The events of a permit's history.
pub(crate) const EVENTOS: Vocabulary = Vocabulary {
    what: "o evento do histórico da permissão",
    words: &[
        ("outorga", "grant"),
        ("reserva", "reserve"),
        ("prorrogacao_reserva", "reserve_extension"),
        ("retorno", "reinstatement"),
        ("suspensao", "suspension"),
        ("suspensao_penalidade", "penalty_suspension"),
        ("renovacao", "renewal"),
        ("transferencia", "transfer"),
        ("notificacao_caducidade", "caducity_notice"),
        ("correcao", "cure"),
        ("renuncia", "renunciation"),
        ("cassacao", "cassation"),
        ("revogacao", "revocation"),
        ("caducidade", "caducity"),
        ("extincao", "extinction"),
    ],
    also: &[],
    open: true,
};

/// A person's schooling (`Education`).
pub(crate) const ESCOLARIDADES: Vocabulary = Vocabulary {
    what: "a escolaridade",
    words: &[
        ("nenhuma", "none"),
        ("fundamental", "fundamental"),
        ("medio", "medio"),
        ("superior", "superior"),
    ],
    also: &[],
    open: false,
};

/// The reserved shares of a cap (`[[caps]] reserved`): the core's table,
/// which the cap's refusals name them by.
pub(crate) const COTAS: Vocabulary = Vocabulary {
    what: "a cota (reserva de vagas) do regulamento",
    words: Quota::PORTUGUESE,
    also: &[],
    open: true,
};

/// The reasons the law gives for a change not to count against its limit
/// (`[[change_limits]] excuses`).
pub(crate) const EXCECOES: Vocabulary = Vocabulary {
    what: "o motivo que deixa a troca fora do limite por período",
    words: &[
        ("pedido_demissao", "resignation"),
        ("falecimento", "death"),
        ("forca_maior", "force_majeure"),
        ("acidente", "accident"),
        ("veiculo_mais_novo", "newer_vehicle"),
    ],
    also: &[],
    open: true,
};

/// The grounds on which a defense or an appeal is not admitted
/// (`[[grounds]]` of set `not_admitted`).
pub(crate) const NAO_CONHECIMENTO: Vocabulary = Vocabulary {
    what: "a hipótese de não conhecimento da defesa ou do recurso",
    words: &[
        ("intempestiva", "late"),
        ("ilegitimidade", "standing"),
        ("sem_assinatura", "unsigned"),
        ("sem_pedido", "no_request"),
    ],
    also: &[],
    open: true,
};

/// The reasons the law admits for a reserve, the holder's stop on request
/// (`[permit_suspension] reasons`; SMJ and Teófilo Otoni art. 20).
pub(crate) const MOTIVOS_RESERVA: Vocabulary = Vocabulary {
    what: "o motivo da reserva (suspensão a pedido) da permissão",
    words: &[
        ("furto_ou_roubo", "theft"),
        ("acidente", "accident"),
        ("perda_judicial", "court_loss"),
        ("substituicao", "substitution"),
    ],
    also: &[
        ("furto", "theft"),
        ("roubo", "theft"),
        ("acidente_grave", "accident"),
        ("destruicao_total", "accident"),
        ("perda_total", "accident"),
        ("sentenca_judicial", "court_loss"),
        ("substituicao_veiculo", "substitution"),
    ],
    open: true,
};

/// The grounds of caducity a notice to correct names (`[[grounds]]` of set
/// `caducity`; Amapá art. 18, § 1º, and art. 65, § único).
pub(crate) const HIPOTESES_CADUCIDADE: Vocabulary = Vocabulary {
    what: "a hipótese de caducidade da lei",
    words: &[
        ("descumprimento", "breach"),
        ("paralisacao", "paralysis"),
        ("frequencias_minimas", "frequencies"),
        ("perda_de_condicoes", "lost_conditions"),
        ("penalidades_nao_cumpridas", "penalties_unserved"),
        ("intimacao_nao_atendida", "ignored_summons"),
        ("indice_de_acidentes", "accidents"),
        ("abuso_do_poder_economico", "economic_abuse"),
    ],
    also: &[("inidoneidade", "economic_abuse")],
    open: true,
};

/// The grounds on which the law ends a permit (`EndGround`).
pub(crate) const FUNDAMENTOS: Vocabulary = Vocabulary {
    what: "o fundamento da extinção da permissão",
    words: &[
        ("termo", "term"),
        ("falecimento", "death"),
        ("invalidez", "disability"),
        ("incapacidade", "incapacity"),
        ("renuncia", "renunciation"),
        ("revogacao", "revocation"),
        ("anulacao", "annulment"),
        ("caducidade", "caducity"),
        ("cassacao", "cassation"),
        ("insolvencia", "insolvency"),
        ("falencia", "bankruptcy"),
        ("alteracao_societaria", "corporate_change"),
        ("idade_limite", "age_limit"),
        ("abandono", "abandonment"),
        ("rescisao", "rescission"),
        ("encampacao", "encampment"),
    ],
    also: &[],
    open: false,
};

/// Who a requirement asks (`Applicant`).
pub(crate) const REQUERENTES: Vocabulary = Vocabulary {
    what: "quem o requisito alcança",
    words: &[("titular", "holder"), ("condutor", "driver")],
    also: &[],
    open: false,
};

/// The law's time limits (`DeadlineKind`).
pub(crate) const PRAZOS: Vocabulary = Vocabulary {
    what: "o prazo da lei",
    words: &[
        ("notificacao", "notification"),
        ("defesa", "defense"),
        ("julgamento", "judgement"),
        ("recurso", "appeal"),
        ("segundo_recurso", "second_appeal"),
        ("saneamento", "cure"),
        (
            "aviso_vistoria_verificacao",
            "verification_inspection_notice",
        ),
        ("pagamento", "payment"),
        ("pagamento_taxa", "fee_payment"),
        ("prazo_permissao", "permit_term"),
        ("prazo_autorizacao_trafego", "traffic_authorization_term"),
        ("prazo_delegacao", "delegation_term"),
        ("prorrogacao_delegacao", "delegation_term_extended"),
        ("formalizacao_delegacao", "delegation_formalization"),
        ("correcao_caducidade", "caducity_cure"),
        ("impedimento_apos_caducidade", "caducity_bar"),
        ("resposta_mudanca_ponto", "stand_relocation_response"),
        ("aviso_apreensao_judicial", "court_seizure_notice"),
        ("comunicacao_acidente", "accident_report"),
        ("fretamento_continuo", "continuous_charter"),
        ("autorizacao_emergencial", "emergency_authorization"),
        ("reajuste_tarifa", "fare_readjustment"),
        ("pagamento_indenizacao", "indemnity_payment"),
        ("preco_bilhete_aberto", "open_ticket_price"),
        ("licitacao_linhas_precarias", "precarious_lines_tender"),
        ("reembolso", "refund"),
        ("abertura_vendas", "sales_opening"),
        ("veiculo_temporario", "temporary_vehicle"),
        (
            "prorrogacao_veiculo_temporario",
            "temporary_vehicle_extension",
        ),
        (
            "prorrogacao_veiculo_temporario_perda_total",
            "temporary_vehicle_total_loss_extension",
        ),
        ("edital_licitacao", "tender_notice"),
        ("recurso_resultado_chamamento", "call_appeal"),
    ],
    also: &[],
    open: true,
};

/// The name of each item of equipment the rulebooks ask of a vehicle
/// (`check = { equipment }`), by the rulebooks' spelling.
pub(crate) const NOMES_EQUIPAMENTOS: &[(&str, &str)] = &[
    ("taximetro", "Taxímetro"),
    (
        "caixa_acrilico",
        "Caixa de acrílico no teto, com a identificação padronizada",
    ),
    ("selo_vistoria", "Selo de vistoria fornecido pelo Município"),
    ("mata_cachorro", "Mata-cachorro (protetor de pernas)"),
    ("mirrors", "Retrovisores dos dois lados"),
    ("identification_number", "Número de identificação"),
    ("line_cutter", "Aparador de linha e antena corta-pipas"),
    ("passenger_seat", "Assento do passageiro"),
    ("exhaust_guard", "Protetor do cano de descarga"),
    ("passenger_footrests", "Apoio para os pés do passageiro"),
    ("two_helmets", "Dois capacetes"),
    (
        "reflective_vest",
        "Colete com dispositivos retrorrefletivos",
    ),
    ("passenger_handle", "Alça para o passageiro"),
    ("side_bags", "Bolsas laterais"),
    ("top_box", "Baú traseiro"),
];

/// The equipment vocabulary, as the others.
pub(crate) const EQUIPAMENTOS: Vocabulary = Vocabulary {
    what: "o equipamento do veículo",
    words: &[
        ("taximetro", "taximetro"),
        ("caixa_acrilico", "caixa_acrilico"),
        ("selo_vistoria", "selo_vistoria"),
        ("mata_cachorro", "mata_cachorro"),
        ("retrovisores", "mirrors"),
        ("numero_identificacao", "identification_number"),
        ("aparador_linha", "line_cutter"),
        ("assento_passageiro", "passenger_seat"),
        ("protetor_escapamento", "exhaust_guard"),
        ("apoio_pes_passageiro", "passenger_footrests"),
        ("dois_capacetes", "two_helmets"),
        ("colete_retrorrefletivo", "reflective_vest"),
        ("alca_passageiro", "passenger_handle"),
        ("bolsas_laterais", "side_bags"),
        ("bau_traseiro", "top_box"),
    ],
    also: &[],
    open: true,
};

/// The name of an item of equipment, by the rulebooks' spelling.
pub(crate) fn equipment_name(code: &str) -> Option<&'static str> {
    NOMES_EQUIPAMENTOS
        .iter()
        .find(|(c, _)| *c == code)
        .map(|(_, name)| *name)
}

/// A record key (`permit:taxi:3`) in Portuguese (`permissao:taxi:3`).
pub(crate) fn subject_wire(subject: &str) -> String {
    match subject.split_once(':') {
        Some((kind, rest)) => format!("{}:{rest}", REGISTROS.wire(kind)),
        None => subject.to_string(),
    }
}

/// A record key sent (in Portuguese or as the record keeps it), as the
/// record keeps it.
pub(crate) fn subject_code(subject: &str) -> String {
    let subject = subject.trim();
    match subject.split_once(':') {
        Some((kind, rest)) => match REGISTROS.code(kind) {
            Some(code) => format!("{code}:{rest}"),
            None => subject.to_string(),
        },
        None => subject.to_string(),
    }
}

/// Which vocabulary each documented field carries: (schema or path,
/// property or query parameter, vocabulary). `openapi.rs` lists the
/// spellings on each, and a closed vocabulary as the field's `enum`.
pub(crate) const DOCUMENTED: &[(&str, &str, &Vocabulary)] = &[
    ("CondutorEntrada", "funcao", &FUNCOES),
    ("CondutorSaida", "funcao", &FUNCOES),
    ("CondutorPublico", "funcao", &FUNCOES),
    ("CondutorEntrada", "excecao", &EXCECOES),
    ("VeiculoEmServicoEntrada", "excecao", &EXCECOES),
    ("VistoriaEntrada", "tipo", &VISTORIAS),
    ("VistoriaSaida", "tipo", &VISTORIAS),
    ("PermissaoSaida", "situacao", &SITUACOES_PERMISSAO),
    ("PassoHistorico", "situacao", &SITUACOES_PERMISSAO),
    ("PassoHistorico", "evento", &EVENTOS),
    ("PassoHistorico", "fundamento", &MOTIVOS_RESERVA),
    ("PassoHistorico", "fundamento", &HIPOTESES_CADUCIDADE),
    ("PassoHistorico", "fundamento", &FUNDAMENTOS),
    ("MudancaEntrada", "motivo", &MOTIVOS_RESERVA),
    ("MudancaEntrada", "fundamento", &FUNDAMENTOS),
    ("MudancaEntrada", "fundamento", &HIPOTESES_CADUCIDADE),
    ("VeiculoPublico", "situacao_permissao", &SITUACOES_PERMISSAO),
    ("PermissaoEntrada", "cota", &COTAS),
    ("PermissaoSaida", "cota", &COTAS),
    ("AutoSaida", "situacao", &SITUACOES_AUTO),
    ("AutoSaida", "penalidades_decididas", &PENALIDADES),
    ("SancaoProposta", "tipo", &PENALIDADES),
    ("PassoEntrada", "passo", &PASSOS),
    ("PassoEntrada", "penalidades", &PENALIDADES),
    ("PassoEntrada", "nao_conhecido", &NAO_CONHECIMENTO),
    ("PassoPossivel", "passo", &PASSOS),
    ("InstanciaRecurso", "contra", &PENALIDADES),
    ("PassosPossiveis", "situacao", &SITUACOES_AUTO),
    ("PrazoAberto", "tipo", &PRAZOS),
    ("DocumentoSaida", "tipo", &DOCUMENTOS),
    ("ItemAgenda", "tipo", &AGENDA),
    ("Perfil", "escolaridade", &ESCOLARIDADES),
    ("VeiculoEntrada", "equipamentos", &EQUIPAMENTOS),
    ("VeiculoSaida", "equipamentos", &EQUIPAMENTOS),
    ("EquipamentoCatalogo", "equipamento", &EQUIPAMENTOS),
    ("RequisitoCatalogo", "requerentes", &REQUERENTES),
    (
        "/api/jurisdictions/{j}/permits",
        "situacao",
        &SITUACOES_PERMISSAO,
    ),
    ("/api/jurisdictions/{j}/autos", "situacao", &SITUACOES_AUTO),
    ("/api/jurisdictions/{j}/documents", "tipo", &DOCUMENTOS),
];

#[cfg(test)]
mod tests {
    use super::*;
    use outorga_core::engine::process::{Status, StepKind};
    use outorga_core::model::{DeadlineKind, EndGround, PermitStatus, SanctionKind};

    /// Every word of `codes` has a Portuguese spelling, and the vocabulary
    /// names no code beyond them.
    fn covers(vocabulary: &Vocabulary, codes: &[&str]) {
        for code in codes {
            assert!(
                vocabulary.words.iter().any(|(_, c)| c == code),
                "{}: no Portuguese for `{code}`",
                vocabulary.what
            );
        }
        for (wire, code) in vocabulary.words {
            assert!(
                codes.contains(code),
                "{}: `{code}` unknown",
                vocabulary.what
            );
            assert!(
                wire.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "`{wire}`: snake_case ASCII"
            );
        }
    }

    #[test]
    fn the_closed_vocabularies_of_the_code_are_all_in_portuguese() {
        covers(&SITUACOES_PERMISSAO, PermitStatus::NAMES);
        covers(&SITUACOES_AUTO, Status::NAMES);
        covers(&PASSOS, StepKind::NAMES);
        covers(&FUNDAMENTOS, EndGround::NAMES);
        covers(&PRAZOS, DeadlineKind::NAMES);
        let kinds: Vec<&str> = SanctionKind::ALL.iter().map(|k| k.name()).collect();
        covers(&PENALIDADES, &kinds);
    }

    #[test]
    fn every_spelling_is_one_word_each_way() {
        let all = [
            &FUNCOES,
            &VISTORIAS,
            &SITUACOES_PERMISSAO,
            &SITUACOES_AUTO,
            &PASSOS,
            &PENALIDADES,
            &DOCUMENTOS,
            &REGISTROS,
            &AGENDA,
            &EVENTOS,
            &ESCOLARIDADES,
            &COTAS,
            &EXCECOES,
            &NAO_CONHECIMENTO,
            &MOTIVOS_RESERVA,
            &HIPOTESES_CADUCIDADE,
            &FUNDAMENTOS,
            &REQUERENTES,
            &PRAZOS,
            &EQUIPAMENTOS,
        ];
        for vocabulary in all {
            for (other, code) in vocabulary.also {
                assert_eq!(fold(other), *other, "`{other}` is its own folding");
                assert!(
                    vocabulary.words.iter().all(|(wire, _)| wire != other),
                    "`{other}` is a spelling answered"
                );
                assert!(
                    vocabulary.words.iter().any(|(_, c)| c == code),
                    "{}: `{other}` reads `{code}`, not a word of it",
                    vocabulary.what
                );
                assert_eq!(vocabulary.code(other), Some(*code));
            }
            for (i, (wire, code)) in vocabulary.words.iter().enumerate() {
                for (other_wire, other_code) in &vocabulary.words[i + 1..] {
                    assert_ne!(wire, other_wire, "{}", vocabulary.what);
                    assert_ne!(code, other_code, "{}", vocabulary.what);
                }
                assert_eq!(fold(wire), *wire, "`{wire}` is its own folding");
                assert_eq!(vocabulary.code(wire), Some(*code));
                assert_eq!(vocabulary.wire(code), *wire);
            }
        }
        let named: Vec<&str> = NOMES_EQUIPAMENTOS.iter().map(|(code, _)| *code).collect();
        let spelled: Vec<&str> = EQUIPAMENTOS.words.iter().map(|(_, code)| *code).collect();
        assert_eq!(named, spelled);
    }

    #[test]
    fn a_word_is_read_loosely_in_portuguese_and_as_the_code_spells_it() {
        assert_eq!(VISTORIAS.code("Periódica"), Some("periodic"));
        assert_eq!(VISTORIAS.code("periodic"), Some("periodic"));
        assert_eq!(PASSOS.code(" notificar decisão "), Some("notify_decision"));
        assert_eq!(EQUIPAMENTOS.code("Taxímetro"), Some("taximetro"));
        assert_eq!(EQUIPAMENTOS.code("Mata-cachorro"), Some("mata_cachorro"));
        assert_eq!(
            EQUIPAMENTOS
                .read("equipamentos", "luminoso")
                .ok()
                .as_deref(),
            Some("luminoso")
        );
        let refused = FUNCOES.read("funcao", "motorista").err().map(|e| e.body);
        assert_eq!(
            refused.and_then(|b| b.motivo).as_deref(),
            Some("`motorista`: use auxiliar, colaborador ou preposto")
        );
        assert_eq!(
            subject_wire("permit:taxi:3"),
            "permissao:taxi:3".to_string()
        );
        assert_eq!(subject_code("veiculo:ABC1D23"), "vehicle:ABC1D23");
        assert_eq!(subject_code("vehicle:ABC1D23"), "vehicle:ABC1D23");
        assert_eq!(subject_wire("x"), "x");
        assert_eq!(MOTIVOS_RESERVA.code("Roubo"), Some("theft"));
        assert_eq!(MOTIVOS_RESERVA.code("furto"), Some("theft"));
        assert_eq!(MOTIVOS_RESERVA.wire("theft"), "furto_ou_roubo");
        assert_eq!(FUNDAMENTOS.code("Idade-limite"), Some("age_limit"));
    }

    #[test]
    fn a_word_of_the_law_is_read_among_the_rulebooks_entries() {
        let entries = [
            ("theft", "Furto ou roubo do veículo"),
            ("substitution", "Substituição do veículo"),
        ];
        let read = |text: &str| MOTIVOS_RESERVA.read_among("motivo", text, &entries);
        assert_eq!(read("roubo").ok().as_deref(), Some("theft"));
        assert_eq!(read("substitution").ok().as_deref(), Some("substitution"));
        let refused = read("acidente").err().and_then(|e| e.body.motivo);
        assert_eq!(
            refused.as_deref(),
            Some(
                "`acidente`: use furto_ou_roubo (Furto ou roubo do veículo) ou \
                 substituicao (Substituição do veículo)"
            )
        );
        let anything = MOTIVOS_RESERVA.read_among("motivo", "greve", &[]);
        assert_eq!(anything.ok().as_deref(), Some("greve"));
    }
}
