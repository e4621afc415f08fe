//! The arrecadação barcode (product 8, 44 digits) and its linha digitável (48
//! digits), as FEBRABAN's "Layout Padrão de Arrecadação/Recebimento com
//! Utilização do Código de Barras", versão 07 (in force from 01.03.2023), sets them:
//!
//! | positions | size | content (item 04) |
//! |---|---|---|
//! | 1 | 1 | product: always `8`, arrecadação |
//! | 2 | 1 | segment (item 05): 1 prefeituras, 2 saneamento, 3 energia elétrica e gás, 4 telecomunicações, 5 órgãos governamentais, 6 empresas identified by CNPJ, 7 multas de trânsito, 9 uso exclusivo do banco |
//! | 3 | 1 | value identifier: 6 or 7 (general check digit by módulo 10), 8 or 9 (módulo 11); 6 and 8 carry the effective value in reais, 7 and 9 a reference (a quantity of a currency or index, or zeros) |
//! | 4 | 1 | general check digit, over the other 43 digits (items 08 and 10) |
//! | 5–15 | 11 | value |
//! | 16–19 | 4 | company/body code given by FEBRABAN (segment 9: the bank's compensation code) |
//! | 20–44 | 25 | free field, returned unchanged |
//! | 16–23, 24–44 | 8, 21 | in segment 6: the first eight digits of the CNPJ, and a free field of 21 |
//!
//! A due date, when the free field carries one, comes first, as AAAAMMDD (items
//! 03 G and 05). The linha digitável (item 03 E) is the 44 digits in four fields
//! of 11, each followed by its own check digit by the same module as position 4.
//!
//! Módulo 10 (item 07): weights 2, 1, 2, 1, … from the right; the digits of the
//! products are summed; the digit is 10 minus the remainder of the sum by 10, and
//! 0 when the remainder is 0. Módulo 11 (item 09): weights 2, 3, …, 9, 2, 3, …
//! from the right; the products are summed; the digit is 11 minus the remainder
//! by 11, except that "quando o resto da divisão for igual a 0 ou 1, atribui-se
//! ao DV o dígito 0, e quando for 10, atribui-se ao DV o dígito 1".

use chrono::{Datelike, NaiveDate};

use crate::GuiaError;

/// The largest value positions 5–15 hold: 11 digits of centavos.
const MAX_CENTS: u64 = 99_999_999_999;

/// The value identifier, position 3: what positions 5–15 mean and which module
/// computes the check digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueId {
    /// `6`: the effective value in reais; check digits by módulo 10.
    EffectiveMod10,
    /// `7`: a reference value (quantity of a currency, a value to be adjusted
    /// by an index, or zeros); módulo 10.
    ReferenceMod10,
    /// `8`: the effective value in reais; módulo 11.
    EffectiveMod11,
    /// `9`: a reference value; módulo 11.
    ReferenceMod11,
}

impl ValueId {
    /// The digit at position 3.
    pub fn digit(self) -> u8 {
        match self {
            ValueId::EffectiveMod10 => 6,
            ValueId::ReferenceMod10 => 7,
            ValueId::EffectiveMod11 => 8,
            ValueId::ReferenceMod11 => 9,
        }
    }

    /// The identifier a digit at position 3 stands for.
    pub fn from_digit(digit: u8) -> Option<ValueId> {
        match digit {
            6 => Some(ValueId::EffectiveMod10),
            7 => Some(ValueId::ReferenceMod10),
            8 => Some(ValueId::EffectiveMod11),
            9 => Some(ValueId::ReferenceMod11),
            _ => None,
        }
    }

    fn module(self) -> u8 {
        match self {
            ValueId::EffectiveMod10 | ValueId::ReferenceMod10 => 10,
            ValueId::EffectiveMod11 | ValueId::ReferenceMod11 => 11,
        }
    }

    fn check_digit(self, digits: &[u8]) -> u8 {
        if self.module() == 10 {
            mod10(digits)
        } else {
            mod11(digits)
        }
    }
}

/// Who collects: the agreement between the municipality or department and the
/// banks, as it goes into positions 2, 3 and 16–19 (16–23).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Convenio {
    /// 1 prefeituras, 2 saneamento, 3 energia elétrica e gás, 4
    /// telecomunicações, 5 órgãos governamentais, 6 empresas identified by CNPJ,
    /// 7 multas de trânsito, 9 uso exclusivo do banco. FEBRABAN defines no
    /// segment 0 or 8; both are refused.
    pub segment: u8,
    /// The four-digit code FEBRABAN gave the company or body (in segment 9, the
    /// bank's four-digit compensation code); in segment 6 the CNPJ, as its first
    /// eight digits or whole (formatted or not: its first eight digits are used).
    pub company: String,
    /// Position 3.
    pub value_id: ValueId,
}

/// A slip's barcode and the line a person types when the barcode cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slip {
    /// The 44 digits the Interleaved 2 of 5 barcode carries.
    pub codigo_barras: String,
    /// The 48 digits as banks print them:
    /// `XXXXXXXXXXX-X XXXXXXXXXXX-X XXXXXXXXXXX-X XXXXXXXXXXX-X`.
    pub linha_digitavel: String,
}

impl Slip {
    /// The slip of a 44-digit code, once [`check`] accepts it.
    pub fn from_codigo(codigo: &str) -> Result<Slip, GuiaError> {
        let (digits, value_id) = checked(codigo)?;
        let blocks: Vec<String> = digits
            .chunks(11)
            .map(|block| format!("{}-{}", text(block), value_id.check_digit(block)))
            .collect();
        Ok(Slip {
            codigo_barras: text(&digits),
            linha_digitavel: blocks.join(" "),
        })
    }

    /// The 48 digits of the linha digitável without separators.
    pub fn linha_digitos(&self) -> String {
        self.linha_digitavel
            .chars()
            .filter(char::is_ascii_digit)
            .collect()
    }
}

/// Makes the slip of `cents` for `convenio`: positions 1–19 as the table above,
/// then the free field with the due date (AAAAMMDD) first when there is one and
/// the own number (nosso número: digits only) right-aligned with zeros after it.
/// The own number's leading zeros are padding and give way when the field is
/// short; any other digit that does not fit is refused.
pub fn barcode(
    convenio: &Convenio,
    cents: u64,
    due: Option<NaiveDate>,
    own_number: &str,
) -> Result<Slip, GuiaError> {
    segment_name(convenio.segment).ok_or(GuiaError::Segmento(convenio.segment))?;
    let company = company_digits(convenio)?;
    if cents > MAX_CENTS {
        return Err(GuiaError::ValorGrande(cents));
    }
    if cents == 0
        && matches!(
            convenio.value_id,
            ValueId::EffectiveMod10 | ValueId::EffectiveMod11
        )
    {
        return Err(GuiaError::ValorZero);
    }
    let date = match due {
        Some(day) if (1000..=9999).contains(&day.year()) => day.format("%Y%m%d").to_string(),
        Some(day) => return Err(GuiaError::Vencimento(day.to_string())),
        None => String::new(),
    };
    let free_len = 44 - 19 - (company.len() - 4);
    let room = free_len - date.len();
    let own = own_digits(own_number, room, &date)?;

    let body = format!(
        "8{}{}{cents:011}{company}{date}{own:0>room$}",
        convenio.segment,
        convenio.value_id.digit()
    );
    let mut digits = digits_of(&body);
    let dv = convenio.value_id.check_digit(&digits);
    digits.insert(3, dv);
    Slip::from_codigo(&text(&digits))
}

/// Checks a 44-digit code: only digits, product 8, a known segment and value
/// identifier, and the general check digit at position 4.
pub fn check(codigo: &str) -> Result<(), GuiaError> {
    checked(codigo).map(|_| ())
}

/// Checks a typed linha digitável (48 digits; spaces, hyphens and dots between
/// them are ignored): each block's check digit, then the code they make. Gives
/// back the 44-digit code.
pub fn check_line(linha: &str) -> Result<String, GuiaError> {
    const O_QUE: &str = "a linha digitável";
    let mut digits = Vec::with_capacity(48);
    for (i, c) in linha.chars().enumerate() {
        match c {
            '0'..='9' => digits.push(c as u8 - b'0'),
            ' ' | '-' | '.' => {}
            _ => {
                return Err(GuiaError::NaoNumerico {
                    o_que: O_QUE,
                    posicao: i + 1,
                    caractere: c,
                });
            }
        }
    }
    if digits.len() != 48 {
        return Err(GuiaError::Tamanho {
            o_que: O_QUE,
            esperado: 48,
            tem: digits.len(),
        });
    }
    if digits[0] != 8 {
        return Err(GuiaError::Produto(char::from(b'0' + digits[0])));
    }
    let value_id = ValueId::from_digit(digits[2])
        .ok_or(GuiaError::IdentificadorValor(char::from(b'0' + digits[2])))?;
    let mut codigo = Vec::with_capacity(44);
    for (i, block) in digits.chunks(12).enumerate() {
        let expected = value_id.check_digit(&block[..11]);
        if block[11] != expected {
            return Err(GuiaError::DigitoBloco {
                bloco: i + 1,
                modulo: value_id.module(),
                esperado: expected,
                encontrado: block[11],
            });
        }
        codigo.extend_from_slice(&block[..11]);
    }
    let codigo = text(&codigo);
    check(&codigo)?;
    Ok(codigo)
}

/// The digits of a valid code and its value identifier.
fn checked(codigo: &str) -> Result<(Vec<u8>, ValueId), GuiaError> {
    const O_QUE: &str = "o código de barras";
    if let Some((i, c)) = codigo
        .chars()
        .enumerate()
        .find(|(_, c)| !c.is_ascii_digit())
    {
        return Err(GuiaError::NaoNumerico {
            o_que: O_QUE,
            posicao: i + 1,
            caractere: c,
        });
    }
    if codigo.len() != 44 {
        return Err(GuiaError::Tamanho {
            o_que: O_QUE,
            esperado: 44,
            tem: codigo.len(),
        });
    }
    let mut digits = digits_of(codigo);
    if digits[0] != 8 {
        return Err(GuiaError::Produto(char::from(b'0' + digits[0])));
    }
    segment_name(digits[1]).ok_or(GuiaError::Segmento(digits[1]))?;
    let value_id = ValueId::from_digit(digits[2])
        .ok_or(GuiaError::IdentificadorValor(char::from(b'0' + digits[2])))?;
    let found = digits.remove(3);
    let expected = value_id.check_digit(&digits);
    if found != expected {
        return Err(GuiaError::DigitoGeral {
            modulo: value_id.module(),
            esperado: expected,
            encontrado: found,
        });
    }
    digits.insert(3, found);
    Ok((digits, value_id))
}

/// The segments of item 05, by digit.
fn segment_name(segment: u8) -> Option<&'static str> {
    match segment {
        1 => Some("prefeituras"),
        2 => Some("saneamento"),
        3 => Some("energia elétrica e gás"),
        4 => Some("telecomunicações"),
        5 => Some("órgãos governamentais"),
        6 => Some("empresas/órgãos identificados pelo CNPJ"),
        7 => Some("multas de trânsito"),
        9 => Some("uso exclusivo do banco"),
        _ => None,
    }
}

/// Positions 16–19 (or 16–23 in segment 6), as digits.
fn company_digits(convenio: &Convenio) -> Result<String, GuiaError> {
    let given = convenio.company.trim();
    let refuse = |explicacao: String| GuiaError::Empresa {
        recebido: convenio.company.clone(),
        explicacao,
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if convenio.segment != 6 {
        let segment = segment_name(convenio.segment).unwrap_or_default();
        return if given.len() == 4 && all_digits(given) {
            Ok(given.to_string())
        } else if convenio.segment == 9 {
            Err(refuse(
                "no segmento 9 as posições 16 a 19 levam o código de compensação do banco, \
                 com 4 algarismos (ex.: 0001)"
                    .to_string(),
            ))
        } else {
            Err(refuse(format!(
                "no segmento {} ({segment}) as posições 16 a 19 levam o código de 4 \
                 algarismos que a FEBRABAN atribuiu ao órgão (ex.: 0179); só o segmento 6 \
                 usa o CNPJ",
                convenio.segment
            )))
        };
    }
    if given.len() == 8 && all_digits(given) {
        return Ok(given.to_string());
    }
    let bare: String = given
        .chars()
        .filter(|c| !matches!(c, '.' | '/' | '-' | ' '))
        .collect::<String>()
        .to_ascii_uppercase();
    if bare.len() != 14 || !cpf_cnpj::cnpj::validate(&bare) {
        return Err(refuse(
            "no segmento 6 as posições 16 a 23 levam as 8 primeiras posições do CNPJ: \
             informe-as (ex.: 12345678) ou o CNPJ inteiro, válido (ex.: 12.345.678/0001-95)"
                .to_string(),
        ));
    }
    let root = &bare[..8];
    if all_digits(root) {
        Ok(root.to_string())
    } else {
        Err(refuse(format!(
            "a raiz {root} deste CNPJ alfanumérico tem letras, e o código de barras só tem \
             algarismos: peça à FEBRABAN um código de 4 algarismos e use o segmento do órgão"
        )))
    }
}

/// The own number as digits, its leading zeros dropped when they do not fit.
fn own_digits(own_number: &str, room: usize, date: &str) -> Result<String, GuiaError> {
    let refuse = |explicacao: String| GuiaError::NossoNumero {
        numero: own_number.to_string(),
        explicacao,
    };
    if own_number.is_empty() {
        return Err(refuse(
            "está vazio; informe o número que identifica esta guia, que o banco devolve \
             no arquivo retorno"
                .to_string(),
        ));
    }
    if let Some(c) = own_number.chars().find(|c| !c.is_ascii_digit()) {
        return Err(refuse(format!(
            "tem \"{c}\", e o campo livre só leva algarismos: tire pontos, barras, \
             letras e espaços"
        )));
    }
    let significant = own_number.trim_start_matches('0');
    if significant.len() > room {
        let why = if date.is_empty() {
            format!("das {room} posições do campo livre")
        } else {
            format!(
                "das {} posições do campo livre, {room} sobram depois da data de \
                 vencimento (AAAAMMDD)",
                room + 8
            )
        };
        return Err(refuse(format!(
            "tem {} algarismos significativos, e só cabem {room} ({why}): use um número \
             menor{}",
            significant.len(),
            if date.is_empty() {
                ""
            } else {
                " ou emita a guia sem o vencimento no código"
            }
        )));
    }
    Ok(significant.to_string())
}

fn digits_of(s: &str) -> Vec<u8> {
    s.bytes().map(|b| b - b'0').collect()
}

fn text(digits: &[u8]) -> String {
    digits.iter().map(|d| char::from(b'0' + d)).collect()
}

/// Módulo 10 of item 07.
fn mod10(digits: &[u8]) -> u8 {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            let product = u32::from(d) * if i % 2 == 0 { 2 } else { 1 };
            product / 10 + product % 10
        })
        .sum();
    match sum % 10 {
        0 => 0,
        r => (10 - r) as u8,
    }
}

/// Módulo 11 of item 09, with its rule for the remainders 0, 1 and 10.
fn mod11(digits: &[u8]) -> u8 {
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| u32::from(d) * (2 + (i as u32 % 8)))
        .sum();
    match sum % 11 {
        0 | 1 => 0,
        10 => 1,
        r => (11 - r) as u8,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The worked examples of the FEBRABAN layout, versão 07, items 07 to 10.

    #[test]
    fn module_10_of_item_07() {
        // "01230067896": the digits of the products sum to 37, remainder 7, DAC 3.
        assert_eq!(mod10(&digits_of("01230067896")), 3);
    }

    #[test]
    fn module_11_of_item_09() {
        // "01230067896": the products sum to 176, remainder 0, DAC 0.
        assert_eq!(mod11(&digits_of("01230067896")), 0);
    }

    // Items 08 and 10 compute the general digit of the same 43 positions: "822"
    // (the example predates the identifiers 6 to 9) and 40 more digits. Item 08
    // sums 139 (remainder 9, DAC 1); item 10 sums 705 (remainder 1, DAC 0).
    const ITEM_08_AND_10: &str = "8220000215048200974123220154098290108605940";

    #[test]
    fn general_digit_module_10_of_item_08() {
        assert_eq!(mod10(&digits_of(ITEM_08_AND_10)), 1);
    }

    #[test]
    fn general_digit_module_11_of_item_10_remainder_1_gives_0() {
        let sum: u32 = digits_of(ITEM_08_AND_10)
            .iter()
            .rev()
            .enumerate()
            .map(|(i, &d)| u32::from(d) * (2 + (i as u32 % 8)))
            .sum();
        assert_eq!(sum, 705);
        assert_eq!(mod11(&digits_of(ITEM_08_AND_10)), 0);
    }

    #[test]
    fn module_11_remainder_10_gives_1() {
        // Block 1 of a published line, "85890000464" (see tests/barcode.rs):
        // products sum to 186, remainder 10.
        assert_eq!(mod11(&digits_of("85890000464")), 1);
    }
}
