//! The arrecadação barcode and linha digitável against published codes, their
//! errors, and properties of every slip the crate makes.

use chrono::NaiveDate;
use outorga_guia::{Convenio, GuiaError, Slip, ValueId, barcode, check, check_line};
use proptest::prelude::*;

/// Published lines of real bills, each with the slip they must make.
///
/// - `83640000001-1 …` (energia elétrica, segment 3, identifier 6, módulo 10)
///   and `85890000460-9 …` (órgãos governamentais, segment 5, identifier 8,
///   módulo 11): the examples of the README of Tagliatti/Boleto-Validator
///   ("Exemplo modulo 10" and "Exemplo modulo 11").
/// - `846700000017435900240209024050002435842210108119` (telecomunicações,
///   identifier 6) and `848900000002404201622015806051904292586034111220`
///   (telecomunicações, identifier 8, its fourth block of remainder 1): lines
///   of the test suites of the boleto validators that quote the bills above.
///
/// Each was verified by hand with the formulas of items 07 to 10 of the
/// FEBRABAN layout before being written here.
const PUBLISHED: [(&str, &str, &str, u64); 4] = [
    (
        "83640000001-1 33120138000-2 81288462711-6 08013618155-1",
        "83640000001331201380008128846271108013618155",
        "83640000001-1 33120138000-2 81288462711-6 08013618155-1",
        13312,
    ),
    (
        "85890000460-9 52460179160-5 60759305086-5 83148300001-0",
        "85890000460524601791606075930508683148300001",
        "85890000460-9 52460179160-5 60759305086-5 83148300001-0",
        4605246,
    ),
    (
        "846700000017435900240209024050002435842210108119",
        "84670000001435900240200240500024384221010811",
        "84670000001-7 43590024020-9 02405000243-5 84221010811-9",
        14359,
    ),
    (
        "848900000002404201622015806051904292586034111220",
        "84890000000404201622018060519042958603411122",
        "84890000000-2 40420162201-5 80605190429-2 58603411122-0",
        4042,
    ),
];

#[test]
fn published_lines_give_their_codes_and_back() {
    for (typed, codigo, printed, _) in PUBLISHED {
        assert_eq!(check_line(typed).as_deref(), Ok(codigo), "{typed}");
        assert_eq!(check(codigo), Ok(()), "{codigo}");
        let slip = Slip::from_codigo(codigo).expect(codigo);
        assert_eq!(slip.linha_digitavel, printed);
        assert_eq!(
            slip.linha_digitos(),
            typed.replace(['-', ' '], ""),
            "{typed}"
        );
    }
}

#[test]
fn published_codes_are_made_again_from_their_parts() {
    // Positions 2, 3, 5–15, 16–19 and 20–44 of each code, given back to
    // `barcode`, must give the very code: positions 1 and 4 are computed.
    for (_, codigo, printed, cents) in PUBLISHED {
        let convenio = Convenio {
            segment: codigo[1..2].parse().expect("must succeed"),
            company: codigo[15..19].to_string(),
            value_id: ValueId::from_digit(codigo[2..3].parse().expect("must succeed"))
                .expect("must succeed"),
        };
        let slip = barcode(&convenio, cents, None, &codigo[19..]).expect(codigo);
        assert_eq!(slip.codigo_barras, codigo);
        assert_eq!(slip.linha_digitavel, printed);
    }
}

#[test]
fn a_block_of_remainder_10_passes_but_the_general_digit_then_fails() {
    // Tagliatti/Boleto-Validator's test "Convenio valid module 11 if resto
    // divisao 10" changes the first block of the módulo-11 example to
    // 85890000464-1: that block's digit is right (remainder 10 gives 1), but
    // the 44 digits no longer agree with position 4 (9; módulo 11 gives 8).
    assert_eq!(
        check_line("85890000464-1 52460179160-5 60759305086-5 83148300001-0"),
        Err(GuiaError::DigitoGeral {
            modulo: 11,
            esperado: 8,
            encontrado: 9
        })
    );
}

#[test]
fn a_mistyped_block_is_named() {
    // The same suites' "inválido módulo 11": the third block mistyped.
    assert_eq!(
        check_line("848900000002404201622015809051904292586034111220"),
        Err(GuiaError::DigitoBloco {
            bloco: 3,
            modulo: 11,
            esperado: 7,
            encontrado: 2
        })
    );
}

#[test]
fn errors_say_what_is_wrong_in_portuguese() {
    let msg = |r: Result<(), GuiaError>| r.expect_err("must be refused").to_string();
    assert_eq!(
        msg(check("8364000000133120138000812884627110801361815")),
        "o código de barras deve ter 44 dígitos, tem 43"
    );
    assert_eq!(
        msg(check("83640000001331201380008128846271108013618x55")),
        "o código de barras só pode ter algarismos, mas a posição 42 tem \"x\""
    );
    assert!(msg(check("23793381286000782713695000063305975520000370")).contains("sempre 8"));
    assert!(
        msg(check("88640000001331201380008128846271108013618155"))
            .contains("o segmento 8 não existe")
    );
    assert!(
        msg(check("83540000001331201380008128846271108013618155"))
            .contains("identificador de valor")
    );
    assert_eq!(
        msg(check("83650000001331201380008128846271108013618155")),
        "o dígito verificador geral (posição 4) é 5, mas o cálculo pelo módulo 10 dá 4: \
         o código foi lido ou digitado errado — confira os 44 dígitos"
    );
    assert_eq!(
        check_line("83640000001-1 33120138000-2 81288462711-6 0801361815-1")
            .expect_err("must be refused")
            .to_string(),
        "a linha digitável deve ter 48 dígitos, tem 47"
    );
}

fn prefeitura(value_id: ValueId) -> Convenio {
    Convenio {
        segment: 1,
        company: "0299".to_string(),
        value_id,
    }
}

#[test]
fn due_date_comes_first_in_the_free_field() {
    let due = NaiveDate::from_ymd_opt(2026, 3, 31).expect("must succeed");
    let slip = barcode(
        &prefeitura(ValueId::EffectiveMod10),
        12_345,
        Some(due),
        "4711",
    )
    .expect("must succeed");
    assert_eq!(&slip.codigo_barras[0..3], "816");
    assert_eq!(&slip.codigo_barras[4..15], "00000012345");
    assert_eq!(&slip.codigo_barras[15..19], "0299");
    assert_eq!(&slip.codigo_barras[19..27], "20260331");
    assert_eq!(&slip.codigo_barras[27..], "00000000000004711");
    assert_eq!(check(&slip.codigo_barras), Ok(()));
}

#[test]
fn segment_6_takes_the_first_eight_digits_of_the_cnpj() {
    let convenio = Convenio {
        segment: 6,
        company: "11.222.333/0001-81".to_string(),
        value_id: ValueId::EffectiveMod11,
    };
    let slip = barcode(&convenio, 100, None, "9").expect("must succeed");
    assert_eq!(&slip.codigo_barras[15..23], "11222333");
    assert_eq!(&slip.codigo_barras[23..], "000000000000000000009");
    assert_eq!(check(&slip.codigo_barras), Ok(()));

    let eight = Convenio {
        company: "11222333".to_string(),
        ..convenio.clone()
    };
    assert_eq!(barcode(&eight, 100, None, "9"), Ok(slip));

    let wrong = Convenio {
        company: "11.222.333/0001-82".to_string(),
        ..convenio
    };
    assert!(matches!(
        barcode(&wrong, 100, None, "9"),
        Err(GuiaError::Empresa { .. })
    ));
}

#[test]
fn what_does_not_fit_is_refused_with_the_reason() {
    let c = prefeitura(ValueId::EffectiveMod10);
    let due = NaiveDate::from_ymd_opt(2026, 3, 31);
    assert_eq!(
        barcode(&c, 100_000_000_000, None, "1"),
        Err(GuiaError::ValorGrande(100_000_000_000))
    );
    assert!(barcode(&c, 99_999_999_999, None, "1").is_ok());
    assert_eq!(barcode(&c, 0, None, "1"), Err(GuiaError::ValorZero));
    assert!(barcode(&prefeitura(ValueId::ReferenceMod11), 0, None, "1").is_ok());

    let err = barcode(&c, 1, due, "123456789012345678").expect_err("must be refused");
    assert_eq!(
        err.to_string(),
        "o número da guia (nosso número) \"123456789012345678\" não serve: tem 18 algarismos \
         significativos, e só cabem 17 (das 25 posições do campo livre, 17 sobram depois da \
         data de vencimento (AAAAMMDD)): use um número menor ou emita a guia sem o \
         vencimento no código"
    );
    // Without the date the same number fits; leading zeros are padding.
    assert!(barcode(&c, 1, None, "123456789012345678").is_ok());
    assert!(barcode(&c, 1, due, "0000000123456789012345678").is_err());
    assert!(barcode(&c, 1, due, "00000000012345678901234567").is_ok());

    assert!(
        barcode(&c, 1, None, "2026/17")
            .expect_err("must be refused")
            .to_string()
            .contains("tem \"/\"")
    );
    assert!(barcode(&c, 1, None, "").is_err());
    for segment in [0, 8, 10] {
        let c = Convenio {
            segment,
            ..c.clone()
        };
        assert_eq!(barcode(&c, 1, None, "1"), Err(GuiaError::Segmento(segment)));
    }
    let five = Convenio {
        company: "02990".to_string(),
        ..c.clone()
    };
    assert!(
        barcode(&five, 1, None, "1")
            .expect_err("must be refused")
            .to_string()
            .contains("4 algarismos")
    );
    let early = NaiveDate::from_ymd_opt(999, 12, 31);
    assert!(matches!(
        barcode(&c, 1, early, "1"),
        Err(GuiaError::Vencimento(_))
    ));
}

/// Any convenio, value, due date and own number that fits.
fn any_slip() -> impl Strategy<Value = (Convenio, u64, Option<NaiveDate>, String)> {
    let segment = prop::sample::select(vec![1u8, 2, 3, 4, 5, 6, 7, 9]);
    let value_id = prop::sample::select(vec![
        ValueId::EffectiveMod10,
        ValueId::ReferenceMod10,
        ValueId::EffectiveMod11,
        ValueId::ReferenceMod11,
    ]);
    let due = prop::option::of((1990i32..2100, 1u32..=12, 1u32..=28));
    (
        segment,
        value_id,
        1u64..=99_999_999_999,
        due,
        "[0-9]{4}",
        "[0-9]{8}",
    )
        .prop_flat_map(|(segment, value_id, cents, due, four, eight)| {
            let company = if segment == 6 { eight } else { four };
            let room = if segment == 6 { 21 } else { 25 } - if due.is_some() { 8 } else { 0 };
            let due = due.and_then(|(y, m, d)| NaiveDate::from_ymd_opt(y, m, d));
            let convenio = Convenio {
                segment,
                company,
                value_id,
            };
            (
                Just(convenio),
                Just(cents),
                Just(due),
                proptest::string::string_regex(&format!("[0-9]{{1,{room}}}"))
                    .expect("must succeed"),
            )
        })
}

proptest! {
    #[test]
    fn every_slip_passes_check_and_its_line_rejoins_to_the_code(
        (convenio, cents, due, own) in any_slip()
    ) {
        let slip = barcode(&convenio, cents, due, &own).expect("must succeed");
        prop_assert_eq!(check(&slip.codigo_barras), Ok(()));
        prop_assert_eq!(check_line(&slip.linha_digitavel), Ok(slip.codigo_barras.clone()));
        prop_assert_eq!(check_line(&slip.linha_digitos()), Ok(slip.codigo_barras.clone()));

        // The four blocks, each without its digit, are the 44 digits in order.
        let blocks: Vec<&str> = slip.linha_digitavel.split(' ').collect();
        prop_assert_eq!(blocks.len(), 4);
        let mut rejoined = String::new();
        for block in blocks {
            let (digits, dv) = block.split_once('-').expect("must succeed");
            prop_assert_eq!(digits.len(), 11);
            prop_assert_eq!(dv.len(), 1);
            rejoined.push_str(digits);
        }
        prop_assert_eq!(&rejoined, &slip.codigo_barras);
        prop_assert_eq!(slip.linha_digitos().len(), 48);
        let value = format!("{cents:011}");
        prop_assert_eq!(&slip.codigo_barras[4..15], value.as_str());
        if let Some(day) = due {
            let free = if convenio.segment == 6 { 23 } else { 19 };
            let date = day.format("%Y%m%d").to_string();
            prop_assert_eq!(&slip.codigo_barras[free..free + 8], date.as_str());
        }
    }

    /// Changing one digit breaks the check. The one exception is the spec's
    /// own: módulo 11 gives 0 for the remainders 0 and 1 alike, so a change that
    /// moves the remainder between them keeps the digit 0 (item 09). And at
    /// position 3 only changes that keep the module are tried, since 6 ↔ 8
    /// changes the formula itself.
    #[test]
    fn changing_any_one_digit_breaks_the_check(
        (convenio, cents, due, own) in any_slip(),
        position in 0usize..44,
        bump in 1u8..10,
    ) {
        let slip = barcode(&convenio, cents, due, &own).expect("must succeed");
        let mut digits: Vec<u8> = slip.codigo_barras.bytes().map(|b| b - b'0').collect();
        digits[position] = if position == 2 {
            // 6 ↔ 7 and 8 ↔ 9.
            digits[2] ^ 1
        } else {
            (digits[position] + bump) % 10
        };
        let changed: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        let modulo_11_collapse = convenio.value_id.digit() >= 8
            && position != 3
            && &slip.codigo_barras[3..4] == "0";
        if check(&changed).is_ok() {
            prop_assert!(modulo_11_collapse, "{} → {} passed", slip.codigo_barras, changed);
        }
    }

    /// Changing one digit of the typed line is caught: by its block's digit,
    /// or else by position 4. Módulo 11's collapse of the remainders 0 and 1
    /// applies to the blocks' digits as to position 4, so under módulo 11 a
    /// change may pass both; under módulo 10 none does. Position 3 changes keep
    /// the module, as above.
    #[test]
    fn changing_any_one_digit_of_the_line_is_caught(
        (convenio, cents, due, own) in any_slip(),
        position in 0usize..48,
        bump in 1u8..10,
    ) {
        let slip = barcode(&convenio, cents, due, &own).expect("must succeed");
        let mut digits: Vec<u8> = slip.linha_digitos().bytes().map(|b| b - b'0').collect();
        digits[position] = if position == 2 {
            digits[2] ^ 1
        } else {
            (digits[position] + bump) % 10
        };
        let changed: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        if check_line(&changed).is_ok() {
            prop_assert!(convenio.value_id.digit() >= 8,
                "{} → {} passed", slip.linha_digitos(), changed);
        }
    }
}
