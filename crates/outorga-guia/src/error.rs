//! What can go wrong when making or reading a slip, said in Portuguese: what is
//! wrong and how to fix it, since these messages reach the person at the screen.

/// An error from making or checking a slip, a PIX code or a return file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GuiaError {
    /// The segment (position 2) is not one of the FEBRABAN list.
    #[error(
        "o segmento {0} não existe no padrão FEBRABAN de arrecadação: use 1 (prefeituras), \
         2 (saneamento), 3 (energia elétrica e gás), 4 (telecomunicações), 5 (órgãos \
         governamentais), 6 (empresas identificadas pelo CNPJ), 7 (multas de trânsito) ou \
         9 (uso exclusivo do banco)"
    )]
    Segmento(u8),

    /// The identification of the company or public body (positions 16–19, or
    /// 16–23 in segment 6) is not what the segment asks for.
    #[error("a identificação da empresa/órgão \"{recebido}\" não serve: {explicacao}")]
    Empresa {
        recebido: String,
        explicacao: String,
    },

    /// The value does not fit the 11 positions 5–15.
    #[error(
        "o valor de {0} centavos não cabe nas 11 posições do código de barras (máximo \
         R$ 999.999.999,99): divida a cobrança em mais de uma guia"
    )]
    ValorGrande(u64),

    /// A slip of an effective value (identifier 6 or 8) for nothing.
    #[error(
        "uma guia de valor efetivo (identificador 6 ou 8) não pode ter valor zero: informe \
         o valor a recolher, ou use o identificador de referência (7 ou 9)"
    )]
    ValorZero,

    /// A due date whose year does not fit AAAAMMDD.
    #[error(
        "a data de vencimento {0} não cabe no formato AAAAMMDD do campo livre: use um ano de 1000 a 9999"
    )]
    Vencimento(String),

    /// The own number (nosso número) is unusable.
    #[error("o número da guia (nosso número) \"{numero}\" não serve: {explicacao}")]
    NossoNumero { numero: String, explicacao: String },

    /// A code or line of the wrong length.
    #[error("{o_que} deve ter {esperado} dígitos, tem {tem}")]
    Tamanho {
        o_que: &'static str,
        esperado: usize,
        tem: usize,
    },

    /// A character that is not a digit where only digits go.
    #[error("{o_que} só pode ter algarismos, mas a posição {posicao} tem \"{caractere}\"")]
    NaoNumerico {
        o_que: &'static str,
        posicao: usize,
        caractere: char,
    },

    /// Position 1 of an arrecadação code is always 8.
    #[error(
        "a posição 1 do código de arrecadação é sempre 8 (produto arrecadação), mas este \
         começa com {0}: se tem 47 dígitos na linha, é um boleto de cobrança bancária, \
         que não é lido aqui"
    )]
    Produto(char),

    /// Position 3 is not 6, 7, 8 or 9.
    #[error(
        "a posição 3 (identificador de valor) é {0}, mas só existem 6 e 7 (dígito \
         verificador pelo módulo 10) e 8 e 9 (módulo 11): confira o código"
    )]
    IdentificadorValor(char),

    /// The general check digit (position 4) does not match.
    #[error(
        "o dígito verificador geral (posição 4) é {encontrado}, mas o cálculo pelo módulo \
         {modulo} dá {esperado}: o código foi lido ou digitado errado — confira os 44 dígitos"
    )]
    DigitoGeral {
        modulo: u8,
        esperado: u8,
        encontrado: u8,
    },

    /// A check digit of one of the four blocks of the linha digitável.
    #[error(
        "o dígito do {bloco}º bloco da linha digitável é {encontrado}, mas o cálculo pelo \
         módulo {modulo} dá {esperado}: um dos 11 algarismos desse bloco foi digitado errado"
    )]
    DigitoBloco {
        bloco: usize,
        modulo: u8,
        esperado: u8,
        encontrado: u8,
    },

    /// The PIX key is not one of the DICT's kinds.
    #[error("a chave Pix \"{chave}\" não serve: {explicacao}")]
    ChavePix { chave: String, explicacao: String },

    /// A text field of the BR Code (name, city, txid) is unusable.
    #[error("{campo} \"{valor}\" não serve: {explicacao}")]
    TextoPix {
        campo: &'static str,
        valor: String,
        explicacao: String,
    },

    /// A PIX amount that is zero or too long for field 54.
    #[error("o valor Pix de {0} centavos não serve: {1}")]
    ValorPix(u64, &'static str),

    /// The text does not fit a QR code.
    #[error(
        "o texto de {0} bytes não cabe num QR Code de correção de erro nível M (até 2.331 \
         bytes): encurte-o"
    )]
    QrGrande(usize),

    /// A field of a return file that does not fit its positions.
    #[error("o campo {campo} (posições {posicoes}) não cabe no registro: {explicacao}")]
    Campo {
        campo: &'static str,
        posicoes: &'static str,
        explicacao: String,
    },
}
