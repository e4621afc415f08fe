//! The static PIX BR Code against the Banco Central's examples and published
//! payloads, and its refusals.

use outorga_guia::{GuiaError, PixPayee, crc16, pix, qr_svg};

/// The example of a static QR code of the Banco Central's "Manual de Padrões
/// para Iniciação do Pix": random key, no amount, no txid.
const BCB_MANUAL: &str = "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D";

fn payee(key: &str, name: &str, city: &str) -> PixPayee {
    PixPayee {
        key: key.to_string(),
        name: name.to_string(),
        city: city.to_string(),
    }
}

#[test]
fn reproduces_the_manual_example_byte_for_byte() {
    let p = payee(
        "123e4567-e12b-12d1-a456-426655440000",
        "Fulano de Tal",
        "BRASILIA",
    );
    assert_eq!(pix(&p, None, "").expect("must succeed"), BCB_MANUAL);
    assert_eq!(pix(&p, None, "***").expect("must succeed"), BCB_MANUAL);
}

#[test]
fn crc16_of_published_payloads() {
    // The CRC16-CCITT-FALSE check value of the catalogue of CRCs.
    assert_eq!(crc16("123456789"), "29B1");
    assert_eq!(crc16(""), "FFFF");
    let published = [
        // The manual's example above.
        BCB_MANUAL,
        // The Banco Central's "Manual do BR Code", its example with two
        // merchant accounts, postal code and unreserved template 80.
        "00020104141234567890123426580014BR.GOV.BCB.PIX0136123e4567-e12b-12d1-a456-42665544000027300012BR.COM.OUTRO011001234567895204000053039865406123.455802BR5917NOME DO RECEBEDOR6008BRASILIA61087007490062190515RP12345678-201980390012BR.COM.OUTRO01190123.ABCD.3456.WXYZ6304AD38",
        // PyPI python-brcode's README: e-mail key, description, R$ 10,00.
        "00020126720014br.gov.bcb.pix0122vpaivatorres@gmail.com0224Biblioteca python-brcode520400005303986540510.005802BR5913Victor Torres6005Natal62070503***6304C1FA",
        // matheusb-comp's gist "Exemplos de formato PIX": phone key, R$ 66,66.
        "00020126360014BR.GOV.BCB.PIX0114+5511943214321520400005303986540566.665802BR5907EMPRESA6008BRASILIA62080503***6304170E",
    ];
    for code in published {
        let (body, crc) = code.split_at(code.len() - 4);
        assert!(body.ends_with("6304"), "{code}");
        assert_eq!(crc16(body), crc, "{code}");
    }
}

#[test]
fn amount_txid_and_plain_letters() {
    let p = payee(
        "financeiro@teofilootoni.mg.gov.br",
        "Prefeitura de Teófilo Otoni",
        "Teófilo Otoni",
    );
    let err = pix(&p, Some(15_000), "DAM2026000123").expect_err("must be refused");
    assert_eq!(
        err.to_string(),
        "o nome do recebedor \"Prefeitura de Teófilo Otoni\" não serve: o BR Code admite \
         até 25 caracteres e este tem 27; abrevie-o (ex.: \"Prefeitura de Teofilo Oto\")"
    );
    let p = payee(
        "Financeiro@TeofiloOtoni.mg.gov.br",
        "Pref. Mun. Teófilo Otoni",
        "Teófilo Otoni",
    );
    let code = pix(&p, Some(15_000), "DAM2026000123").expect("must succeed");
    assert_eq!(
        code,
        format!(
            "00020126550014br.gov.bcb.pix0133financeiro@teofilootoni.mg.gov.br\
             5204000053039865406150.005802BR5924Pref. Mun. Teofilo Otoni\
             6013Teofilo Otoni62170513DAM20260001236304{}",
            &code[code.len() - 4..]
        )
    );
    let (body, crc) = code.split_at(code.len() - 4);
    assert_eq!(crc16(body), crc);

    let cents = |c| pix(&p, Some(c), "").expect("must succeed");
    assert!(cents(1).contains("54040.01"));
    assert!(cents(100).contains("54041.00"));
    assert!(cents(999_999_999_999).contains("54139999999999.99"));
    assert!(matches!(
        pix(&p, Some(0), ""),
        Err(GuiaError::ValorPix(0, _))
    ));
    assert!(matches!(
        pix(&p, Some(1_000_000_000_000), ""),
        Err(GuiaError::ValorPix(..))
    ));
    let city = payee("+5533912345678", "Órgão", "João Pessoa");
    let code = pix(&city, None, "").expect("must succeed");
    assert!(code.contains("5905Orgao6011Joao Pessoa"), "{code}");
}

#[test]
fn lengths_and_characters_are_refused_with_the_reason() {
    let ok = payee("+5533912345678", "SETRANS", "Canguçu");
    assert!(
        pix(&ok, None, "")
            .expect("must succeed")
            .contains("6007Cangucu")
    );

    let long_city = payee("+5533912345678", "SETRANS", "São Gonçalo do Rio Abaixo");
    assert_eq!(
        pix(&long_city, None, "")
            .expect_err("must be refused")
            .to_string(),
        "a cidade do recebedor \"São Gonçalo do Rio Abaixo\" não serve: o BR Code admite até \
         15 caracteres e este tem 25; abrevie-o (ex.: \"Sao Goncalo do\")"
    );
    let odd = payee("+5533912345678", "Δ Transportes", "Natal");
    assert!(
        pix(&odd, None, "")
            .expect_err("must be refused")
            .to_string()
            .contains("\"Δ\"")
    );
    let empty = payee("+5533912345678", "  ", "Natal");
    assert!(pix(&empty, None, "").is_err());

    assert!(pix(&ok, None, "ABCDEFGHIJKLMNOPQRSTUVWXY").is_ok());
    for txid in [
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "DAM-2026",
        "dam 1",
        "guia_1",
        "açaí",
    ] {
        assert!(
            matches!(pix(&ok, None, txid), Err(GuiaError::TextoPix { .. })),
            "{txid}"
        );
    }
}

#[test]
fn keys_of_each_kind() {
    let with = |key: &str| pix(&payee(key, "SETRANS", "Natal"), None, "");
    let key_of = |key: &str| {
        let code = with(key).expect("must succeed");
        let len: usize = code[30..32].parse().expect("must succeed");
        code[32..32 + len].to_string()
    };
    // CPF and CNPJ without points; the alphanumeric CNPJ in capitals.
    assert_eq!(key_of("529.982.247-25"), "52998224725");
    assert_eq!(key_of("11.222.333/0001-81"), "11222333000181");
    assert_eq!(key_of("12.abc.345/01de-35"), "12ABC34501DE35");
    assert_eq!(key_of("+55 (33) 91234-5678"), "+5533912345678");
    assert_eq!(
        key_of("123E4567-E12B-12D1-A456-426655440000"),
        "123e4567-e12b-12d1-a456-426655440000"
    );
    assert_eq!(key_of("Setrans@Natal.RN.gov.br"), "setrans@natal.rn.gov.br");

    let why = |key: &str| with(key).expect_err("must be refused").to_string();
    assert!(why("52998224724").contains("não é um CPF válido"));
    assert!(why("33912345678").contains("+55"));
    assert!(why("11222333000182").contains("não é um CNPJ válido"));
    assert!(why("+553391234567").contains("+55, o DDD e os 9 algarismos"));
    assert!(why("+5533812345678").contains("começando por 9"));
    assert!(why("+1415555267100").contains("+55"));
    assert!(why("setrans@natal").contains("domínio com ponto"));
    assert!(why("se trans@natal.rn.gov.br").contains("não é um e-mail válido"));
    assert!(why("a@b@natal.gov.br").contains("um só @"));
    assert!(why("").contains("está vazia"));
    assert!(why("123e4567-e12b-12d1-a456-42665544000g").contains("chave aleatória"));
    let long = format!("{}@natal.rn.gov.br", "a".repeat(64));
    assert!(why(&long).contains("até 77"));
}

#[test]
fn qr_svg_holds_the_payload_and_refuses_what_does_not_fit() {
    let svg = qr_svg(BCB_MANUAL).expect("must succeed");
    assert!(svg.contains("<svg"));
    assert!(svg.contains("</svg>"));
    // Deterministic: the same text, the same picture.
    assert_eq!(svg, qr_svg(BCB_MANUAL).expect("must succeed"));
    assert_ne!(
        svg,
        qr_svg(&BCB_MANUAL.replace("Tal", "Tel")).expect("must succeed")
    );
    // Level M holds at most 2331 bytes.
    assert!(qr_svg(&"a".repeat(2331)).is_ok());
    assert_eq!(qr_svg(&"a".repeat(2332)), Err(GuiaError::QrGrande(2332)));
}
