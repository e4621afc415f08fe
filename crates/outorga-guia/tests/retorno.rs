//! The return file: read field by field as FEBRABAN's layout (versão 07, item
//! 06) places them, written and read back, and each problem named by line and
//! positions.

use chrono::NaiveDate;
use outorga_guia::{Header, Paid, ReturnFile, Trailer, read_return, write_return};

const ENERGIA: &str = "83640000001331201380008128846271108013618155";
const TELECOM: &str = "84670000001435900240200240500024384221010811";

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).expect("must succeed")
}

/// Pads an alphanumeric field with blanks on the right.
fn x(value: &str, width: usize) -> String {
    format!("{value:<width$}")
}

/// A file typed field by field from the layout's tables, not by `write_return`.
fn by_hand() -> Vec<String> {
    let a = [
        "A",
        "2",
        &x("0000855470019", 20),
        &x("PREF MUN TESTE", 20),
        "341",
        &x("BANCO ITAU S.A.", 20),
        "20260405",
        "000104",
        "07",
        &x("CODIGO DE BARRAS", 17),
        &x("", 52),
    ]
    .concat();
    let g1 = [
        "G",
        &x("34199990000000999999", 20),
        "20260404",
        "20260406",
        ENERGIA,
        "000000013312",
        "0000140",
        "00000001",
        &x("09332", 8),
        "3",
        &x("001 093300001040417C", 23),
        "1",
        &x("", 9),
    ]
    .concat();
    let g2 = [
        "G",
        &x("34199990000000999999", 20),
        "20260404",
        "20260406",
        TELECOM,
        "000000014359",
        "0000000",
        "00000002",
        &x("0001", 8),
        "i",
        &x("E2E0001", 23),
        "6",
        &x("", 9),
    ]
    .concat();
    let z = ["Z", "000004", "00000000000027671", &x("", 126)].concat();
    vec![a, g1, g2, z]
}

fn header() -> Header {
    Header {
        convenio: "0000855470019".to_string(),
        company: "PREF MUN TESTE".to_string(),
        bank_code: 341,
        bank_name: "BANCO ITAU S.A.".to_string(),
        file_date: day(2026, 4, 5),
        nsa: 104,
        layout_version: 7,
    }
}

fn payments() -> Vec<Paid> {
    vec![
        Paid {
            line: 2,
            account: "34199990000000999999".to_string(),
            paid_on: day(2026, 4, 4),
            credited_on: day(2026, 4, 6),
            codigo_barras: ENERGIA.to_string(),
            cents: 13_312,
            tariff_cents: 140,
            nsr: 1,
            agency: "09332".to_string(),
            capture: '3',
            authentication: "001 093300001040417C".to_string(),
            payment_form: 1,
        },
        Paid {
            line: 3,
            account: "34199990000000999999".to_string(),
            paid_on: day(2026, 4, 4),
            credited_on: day(2026, 4, 6),
            codigo_barras: TELECOM.to_string(),
            cents: 14_359,
            tariff_cents: 0,
            nsr: 2,
            agency: "0001".to_string(),
            capture: 'i',
            authentication: "E2E0001".to_string(),
            payment_form: 6,
        },
    ]
}

fn messages(file: &ReturnFile) -> Vec<String> {
    file.problems.iter().map(ToString::to_string).collect()
}

#[test]
fn reads_each_field_from_its_positions() {
    let lines = by_hand();
    assert!(lines.iter().all(|l| l.len() == 150));
    let file = read_return(&(lines.join("\r\n") + "\r\n"));
    assert_eq!(messages(&file), Vec::<String>::new());
    assert_eq!(file.header, Some(header()));
    assert_eq!(file.payments, payments());
    assert_eq!(
        file.trailer,
        Some(Trailer {
            records: 4,
            total_cents: 27_671
        })
    );
}

#[test]
fn lf_crlf_and_a_trailing_empty_line_read_alike() {
    let lines = by_hand();
    let crlf = read_return(&lines.join("\r\n"));
    for text in [
        lines.join("\n"),
        lines.join("\n") + "\n",
        lines.join("\r\n") + "\r\n",
        format!("\u{feff}{}", lines.join("\r\n")),
    ] {
        assert_eq!(read_return(&text), crlf);
    }
    assert!(crlf.problems.is_empty());
}

#[test]
fn what_is_written_reads_back() {
    let text = write_return(&header(), &payments()).expect("must succeed");
    assert_eq!(text, by_hand().join("\r\n") + "\r\n");
    let file = read_return(&text);
    assert!(file.problems.is_empty(), "{:?}", file.problems);
    assert_eq!(file.header, Some(header()));
    assert_eq!(file.payments, payments());

    let empty = read_return(&write_return(&header(), &[]).expect("must succeed"));
    assert!(empty.problems.is_empty());
    assert_eq!(
        empty.trailer,
        Some(Trailer {
            records: 2,
            total_cents: 0
        })
    );
}

#[test]
fn write_refuses_what_does_not_fit() {
    let mut h = header();
    h.bank_name = "BANCO COOPERATIVO DO BRASIL".to_string();
    assert_eq!(
        write_return(&h, &[])
            .expect_err("must be refused")
            .to_string(),
        "o campo A.06 (posições 46–65) não cabe no registro: \"BANCO COOPERATIVO DO BRASIL\" \
         tem 27 caracteres e o campo 20"
    );
    let mut p = payments();
    p[0].cents = 1_000_000_000_000;
    assert!(
        write_return(&header(), &p)
            .expect_err("must be refused")
            .to_string()
            .contains("G.06 (posições 82–93)")
    );
    p[0].cents = 1;
    p[0].authentication = "autenticação".to_string();
    assert!(
        write_return(&header(), &p)
            .expect_err("must be refused")
            .to_string()
            .contains("sem acentos")
    );
}

/// Reads `lines` with line `n` (from 1) changed at position `at` (from 1).
fn with_change(n: usize, at: usize, text: &str) -> ReturnFile {
    let mut lines = by_hand();
    let line = &mut lines[n - 1];
    line.replace_range(at - 1..at - 1 + text.len(), text);
    read_return(&lines.join("\n"))
}

#[test]
fn each_problem_names_the_line_and_positions() {
    let bad_date = with_change(2, 22, "20260431");
    assert_eq!(
        messages(&bad_date),
        vec![
            "linha 2: posições 22–29 (G.03, data de pagamento): \"20260431\" não é uma data \
             AAAAMMDD (ano, mês, dia) que exista; o banco deve escrevê-la assim, ex.: 20260131"
        ]
    );
    assert_eq!(bad_date.payments.len(), 1);
    assert_eq!(bad_date.payments[0].line, 3);

    let letters = with_change(3, 94, "00001O0");
    assert_eq!(
        messages(&letters),
        vec![
            "linha 3: posições 94–100 (G.07, valor da tarifa): \"00001O0\" tem caracteres que \
             não são algarismos; campo numérico leva só algarismos, com zeros à esquerda"
        ]
    );

    // One digit of the code changed: its general digit no longer agrees.
    let code = with_change(2, 45, "9");
    assert_eq!(
        messages(&code),
        vec![
            "linha 2: posições 38–81 (G.05, código de barras): o dígito verificador geral \
             (posição 4) é 4, mas o cálculo pelo módulo 10 dá 5: o código foi lido ou \
             digitado errado — confira os 44 dígitos"
        ]
    );
    assert_eq!(code.payments.len(), 1);

    let kind = with_change(3, 1, "H");
    assert_eq!(
        messages(&kind),
        vec![
            "linha 3: posição 1: o tipo de registro \"H\" não existe; o retorno de \
             arrecadação só tem A (header), G (pagamento) e Z (trailer)",
            "linha 4: posições 8–24 (Z.03, valor total recebido): o trailer soma R$ 276,71, \
             mas os registros G somam R$ 133,12: algum valor foi alterado; peça ao banco que \
             reenvie o arquivo",
        ]
    );

    let remessa = with_change(1, 2, "1");
    assert_eq!(remessa.header, None);
    assert!(messages(&remessa)[0].starts_with(
        "linha 1: posição 2 (A.02, código de remessa): o código é 1, de um arquivo de remessa"
    ));

    let form = with_change(2, 141, "x");
    assert!(messages(&form)[0].starts_with("linha 2: posição 141 (G.12, forma de pagamento)"));
}

#[test]
fn the_trailer_must_agree_with_the_details() {
    let count = with_change(4, 2, "000005");
    assert_eq!(
        messages(&count),
        vec![
            "linha 4: posições 2–7 (Z.02, total de registros): o trailer diz 5 registros, mas \
             o arquivo tem 4 linhas (contando header e trailer): linhas se perderam ou \
             sobraram; peça ao banco que o reenvie"
        ]
    );
    let total = with_change(4, 8, "00000000000027672");
    assert_eq!(
        messages(&total),
        vec![
            "linha 4: posições 8–24 (Z.03, valor total recebido): o trailer soma R$ 276,72, \
             mas os registros G somam R$ 276,71: algum valor foi alterado; peça ao banco que \
             reenvie o arquivo"
        ]
    );
    // A detail whose date is wrong still counts in the total: only the date
    // is reported.
    assert_eq!(messages(&with_change(2, 30, "2026XX06")).len(), 1);
}

#[test]
fn structure_problems() {
    let lines = by_hand();

    let short = {
        let mut l = lines.clone();
        l[1] = l[1].trim_end().to_string();
        read_return(&l.join("\n"))
    };
    assert_eq!(
        messages(&short)[0],
        "linha 2: a linha tem 141 caracteres, e todo registro do arquivo retorno tem 150 \
         posições (os brancos do fim contam): o arquivo foi editado ou teve espaços cortados; \
         peça ao banco que o reenvie"
    );

    let no_trailer = read_return(&lines[..3].join("\n"));
    assert_eq!(
        messages(&no_trailer),
        vec![
            "linha 3: o arquivo termina sem o registro Z (trailer): pode ter sido cortado na \
             transmissão; peça ao banco que o reenvie"
        ]
    );
    assert_eq!(no_trailer.payments.len(), 2);

    let no_header = read_return(&lines[1..].join("\n"));
    let m = messages(&no_header);
    assert!(m[0].starts_with("linha 1: o arquivo não começa pelo registro A (header)"));
    assert!(m[1].contains("o trailer diz 4 registros, mas o arquivo tem 3 linhas"));

    let twice = read_return(&[lines.join("\n"), lines.join("\n")].join("\n"));
    let m = messages(&twice);
    assert!(m[0].starts_with("linha 5: vem depois do registro Z (trailer) da linha 4"));
    // Lines 5 to 8, and the count of the first trailer.
    assert_eq!(m.len(), 5);

    let blank = read_return(
        &[&lines[..2], &[String::new()], &lines[2..]]
            .concat()
            .join("\n"),
    );
    assert!(messages(&blank)[0].starts_with("linha 3: a linha está vazia"));

    assert_eq!(
        messages(&read_return("")),
        vec!["linha 1: o arquivo está vazio: peça ao banco o arquivo retorno do dia"]
    );
    // Anything at all: problems, never a panic.
    for junk in ["\n\n\n", "Z", "ÁÉÍ\r\n", &"ç".repeat(150), &"G".repeat(150)] {
        let file = read_return(junk);
        assert!(!file.problems.is_empty(), "{junk:?}");
    }
}
