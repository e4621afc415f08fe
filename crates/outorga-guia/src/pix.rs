//! The static PIX BR Code ("Pix Copia e Cola"), as the Banco Central's "Manual
//! de Padrões para Iniciação do Pix" (Regulamento Pix, anexo II) and its "Manual
//! do BR Code" set it: EMV® QRCPS Merchant-Presented Mode, each field an ID of
//! two digits, a length of two digits and the value.
//!
//! | ID | content |
//! |---|---|
//! | 00 | payload format indicator, `01` |
//! | 26 | merchant account information: 00 GUI `br.gov.bcb.pix`, 01 the key |
//! | 52 | merchant category code, `0000` |
//! | 53 | currency, `986` (real) |
//! | 54 | amount, with a point and two decimals, when fixed (up to 13 characters) |
//! | 58 | country, `BR` |
//! | 59 | merchant name, up to 25 characters |
//! | 60 | merchant city, up to 15 characters |
//! | 62 | additional data: 05 the txid (up to 25 letters and digits; `***` when none) |
//! | 63 | CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) of the whole payload up to and including `6304`, four uppercase hexadecimal digits |
//!
//! Names and cities keep their case, as the manual's own example does ("Fulano
//! de Tal", "BRASILIA"); accents and ç are written as the plain letter, since
//! the payload is ASCII.

use crate::GuiaError;

/// Who receives: the key registered in the DICT and the name and city a payer's
/// app shows before paying.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PixPayee {
    /// CPF (11 digits) or CNPJ (14; the alphanumeric CNPJ too), points and
    /// hyphens allowed and dropped; e-mail; mobile phone as `+55` with area code
    /// and nine digits; or the random key (EVP), a UUID.
    pub key: String,
    /// Up to 25 characters once accents are dropped.
    pub name: String,
    /// Up to 15 characters once accents are dropped.
    pub city: String,
}

/// The static BR Code of `payee`, for `amount_cents` when the amount is fixed
/// (`None` lets the payer type it) and with `txid` to tell the payment apart
/// (empty for none, which the code writes as `***`).
pub fn pix(payee: &PixPayee, amount_cents: Option<u64>, txid: &str) -> Result<String, GuiaError> {
    let key = key(&payee.key)?;
    let name = plain("o nome do recebedor", &payee.name, 25)?;
    let city = plain("a cidade do recebedor", &payee.city, 15)?;
    let txid = match txid {
        "" | "***" => "***",
        t if t.len() <= 25 && t.bytes().all(|b| b.is_ascii_alphanumeric()) => t,
        t => {
            return Err(GuiaError::TextoPix {
                campo: "o identificador da transação (txid)",
                valor: t.to_string(),
                explicacao: format!(
                    "num QR estático ele tem até 25 letras (sem acento) e algarismos, sem \
                     espaços nem sinais; este tem {} caracteres",
                    t.chars().count()
                ),
            });
        }
    };

    let mut payload = tlv("00", "01");
    payload += &tlv("26", &(tlv("00", "br.gov.bcb.pix") + &tlv("01", &key)));
    payload += &tlv("52", "0000");
    payload += &tlv("53", "986");
    if let Some(cents) = amount_cents {
        if cents == 0 {
            return Err(GuiaError::ValorPix(
                cents,
                "um QR com valor zero não se paga; para deixar o valor livre, não informe valor",
            ));
        }
        if cents > 999_999_999_999 {
            return Err(GuiaError::ValorPix(
                cents,
                "o campo 54 tem até 13 caracteres (até 9.999.999.999,99); divida a cobrança",
            ));
        }
        payload += &tlv("54", &format!("{}.{:02}", cents / 100, cents % 100));
    }
    payload += &tlv("58", "BR");
    payload += &tlv("59", &name);
    payload += &tlv("60", &city);
    payload += &tlv("62", &tlv("05", txid));
    payload += "6304";
    let crc = crc16(&payload);
    Ok(payload + &crc)
}

/// CRC16-CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF, no reflection,
/// no final XOR) of the bytes of `payload`, as four uppercase hexadecimal digits.
pub fn crc16(payload: &str) -> String {
    let mut crc: u16 = 0xFFFF;
    for &byte in payload.as_bytes() {
        crc ^= u16::from(byte) << 8;
        for _ in 0..8 {
            crc = if crc & 0x8000 != 0 {
                (crc << 1) ^ 0x1021
            } else {
                crc << 1
            };
        }
    }
    format!("{crc:04X}")
}

fn tlv(id: &str, value: &str) -> String {
    format!("{id}{:02}{value}", value.len())
}

/// The key as the DICT writes it, or why it is none of the five kinds.
fn key(given: &str) -> Result<String, GuiaError> {
    let refuse = |explicacao: &str| GuiaError::ChavePix {
        chave: given.to_string(),
        explicacao: explicacao.to_string(),
    };
    let k = given.trim();
    if k.is_empty() {
        return Err(refuse(
            "está vazia; informe o CPF, o CNPJ, o e-mail, o celular (+55…) ou a chave \
             aleatória cadastrada no banco",
        ));
    }
    if k.contains('@') {
        let k = k.to_lowercase();
        let well_formed = k.len() <= 77
            && k.split_once('@').is_some_and(|(local, domain)| {
                !local.is_empty()
                    && local
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || ".!#$&'*+/=?^_`{|}~-".contains(c))
                    && domain.contains('.')
                    && domain.split('.').all(|part| {
                        !part.is_empty()
                            && !part.starts_with('-')
                            && !part.ends_with('-')
                            && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                    })
            });
        return if well_formed {
            Ok(k)
        } else {
            Err(refuse(
                "não é um e-mail válido como chave: um só @, sem espaços nem acentos, um \
                 domínio com ponto (ex.: financeiro@prefeitura.mg.gov.br), até 77 caracteres",
            ))
        };
    }
    if k.starts_with('+') {
        let phone: String = k
            .chars()
            .filter(|c| !matches!(c, ' ' | '(' | ')' | '-'))
            .collect();
        let digits = &phone[1..];
        let mobile = digits.len() == 13
            && digits.bytes().all(|b| b.is_ascii_digit())
            && digits.starts_with("55")
            && !digits[2..4].contains('0')
            && digits.as_bytes()[4] == b'9';
        return if mobile {
            Ok(phone)
        } else {
            Err(refuse(
                "um celular como chave se escreve +55, o DDD e os 9 algarismos do número, \
                 começando por 9 (ex.: +5533912345678)",
            ))
        };
    }
    if is_evp(k) {
        return Ok(k.to_ascii_lowercase());
    }
    let bare: String = k
        .chars()
        .filter(|c| !matches!(c, '.' | '-' | '/' | ' '))
        .collect::<String>()
        .to_ascii_uppercase();
    match bare.len() {
        11 if bare.bytes().all(|b| b.is_ascii_digit()) => {
            if cpf_cnpj::cpf::validate(&bare) {
                Ok(bare)
            } else {
                Err(refuse(
                    "tem 11 algarismos mas não é um CPF válido (os dígitos verificadores não \
                     conferem); se é um celular, escreva-o com +55 (ex.: +5533912345678)",
                ))
            }
        }
        14 if cpf_cnpj::cnpj::validate(&bare) => Ok(bare),
        14 => Err(refuse(
            "tem 14 posições mas não é um CNPJ válido (os dígitos verificadores não conferem)",
        )),
        _ => Err(refuse(
            "não é CPF (11 algarismos), CNPJ (14), e-mail, celular (+55 DDD 9XXXXXXXX) nem \
             chave aleatória (ex.: 123e4567-e12b-12d1-a456-426655440000)",
        )),
    }
}

/// A random key (EVP): a UUID, 8-4-4-4-12 hexadecimal digits.
fn is_evp(k: &str) -> bool {
    k.len() == 36
        && k.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// `value` in printable ASCII, accents dropped, of 1 to `max` characters.
fn plain(campo: &'static str, value: &str, max: usize) -> Result<String, GuiaError> {
    let refuse = |explicacao: String| GuiaError::TextoPix {
        campo,
        valor: value.to_string(),
        explicacao,
    };
    let trimmed = value.trim();
    let mut out = String::with_capacity(trimmed.len());
    for c in trimmed.chars() {
        match ascii(c) {
            Some(s) => out.push_str(s),
            None if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            None => {
                return Err(refuse(format!(
                    "o caractere \"{c}\" não tem equivalente sem acento no BR Code, que só \
                     leva ASCII; troque-o por letras simples"
                )));
            }
        }
    }
    match out.len() {
        0 => Err(refuse("está vazio; informe-o".to_string())),
        n if n > max => Err(refuse(format!(
            "o BR Code admite até {max} caracteres e este tem {n}; abrevie-o (ex.: \
             \"{}\")",
            out.chars().take(max).collect::<String>().trim_end()
        ))),
        _ => Ok(out),
    }
}

/// The plain letters for the accented letters of Portuguese (and the few other
/// Latin ones a name may bring), and the typographic quotes and dashes.
fn ascii(c: char) -> Option<&'static str> {
    Some(match c {
        'á' | 'à' | 'â' | 'ã' | 'ä' | 'å' | 'ª' => "a",
        'Á' | 'À' | 'Â' | 'Ã' | 'Ä' | 'Å' => "A",
        'é' | 'è' | 'ê' | 'ë' => "e",
        'É' | 'È' | 'Ê' | 'Ë' => "E",
        'í' | 'ì' | 'î' | 'ï' => "i",
        'Í' | 'Ì' | 'Î' | 'Ï' => "I",
        'ó' | 'ò' | 'ô' | 'õ' | 'ö' | 'º' => "o",
        'Ó' | 'Ò' | 'Ô' | 'Õ' | 'Ö' => "O",
        'ú' | 'ù' | 'û' | 'ü' => "u",
        'Ú' | 'Ù' | 'Û' | 'Ü' => "U",
        'ç' => "c",
        'Ç' => "C",
        'ñ' => "n",
        'Ñ' => "N",
        'ý' | 'ÿ' => "y",
        'Ý' => "Y",
        '‘' | '’' | '´' => "'",
        '“' | '”' => "\"",
        '–' | '—' => "-",
        '\u{a0}' => " ",
        _ => return None,
    })
}
