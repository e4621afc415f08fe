//! The bank's return file of payments made with the barcode (arquivo retorno de
//! arrecadação), as FEBRABAN's "Layout Padrão de Arrecadação/Recebimento com
//! Utilização do Código de Barras", versão 07, item 06 sets it: records of 150
//! positions; numeric fields (9) right-aligned with zeros, alphanumeric ones (X)
//! left-aligned with blanks.
//!
//! Register A, header (first line):
//!
//! | field | positions | picture | content |
//! |---|---|---|---|
//! | A.01 | 1 | X(01) | `A` |
//! | A.02 | 2 | 9(01) | código de remessa: `2`, retorno (bank to body) |
//! | A.03 | 3–22 | X(20) | código do convênio, given by the bank |
//! | A.04 | 23–42 | X(20) | nome da empresa/órgão |
//! | A.05 | 43–45 | 9(03) | código do banco na câmara de compensação |
//! | A.06 | 46–65 | X(20) | nome do banco |
//! | A.07 | 66–73 | 9(08) | data de geração do arquivo, AAAAMMDD |
//! | A.08 | 74–79 | 9(06) | número sequencial do arquivo (NSA), one more for each file |
//! | A.09 | 80–81 | 9(02) | versão do layout (`07` from 01.03.2023) |
//! | A.10 | 82–98 | X(17) | `CODIGO DE BARRAS` |
//! | A.11 | 99–150 | X(52) | reserved |
//!
//! Register G, one per payment:
//!
//! | field | positions | picture | content |
//! |---|---|---|---|
//! | G.01 | 1 | X(01) | `G` |
//! | G.02 | 2–21 | X(20) | agência/conta/dígito credited |
//! | G.03 | 22–29 | X(08) | data de pagamento, AAAAMMDD |
//! | G.04 | 30–37 | X(08) | data de crédito, AAAAMMDD |
//! | G.05 | 38–81 | X(44) | the barcode |
//! | G.06 | 82–93 | 9(10)V99 | valor recebido |
//! | G.07 | 94–100 | 9(05)V99 | valor da tarifa |
//! | G.08 | 101–108 | 9(08) | NSR, número sequencial do registro |
//! | G.09 | 109–116 | X(08) | código da agência arrecadadora |
//! | G.10 | 117 | X(01) | forma de arrecadação/captura: `1`–`9`, `a`–`i`, `l` (guichê, eletrônica, internet, …, PIX; with or without the printed slip) |
//! | G.11 | 118–140 | X(23) | número de autenticação caixa ou código de transação |
//! | G.12 | 141 | 9(01) | forma de pagamento: 1 dinheiro, 2 cheque, 3 não identificado, 4 cartão de crédito, 5 cartão/multibanco, 6 débito em conta |
//! | G.13 | 142–150 | X(09) | reserved |
//!
//! Register Z, trailer (last line):
//!
//! | field | positions | picture | content |
//! |---|---|---|---|
//! | Z.01 | 1 | X(01) | `Z` |
//! | Z.02 | 2–7 | 9(06) | total de registros, header and trailer included |
//! | Z.03 | 8–24 | 9(17) | valor total recebido, in centavos |
//! | Z.04 | 25–150 | X(126) | reserved |

use std::fmt;

use chrono::NaiveDate;

use crate::{GuiaError, barcode::check};

/// Every record's length.
const RECORD: usize = 150;

/// A return file as read: what could be read, and each thing wrong with it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReturnFile {
    pub header: Option<Header>,
    /// The G records all of whose fields are valid, in the file's order.
    pub payments: Vec<Paid>,
    pub trailer: Option<Trailer>,
    /// Empty when the file is sound.
    pub problems: Vec<LineProblem>,
}

/// Register A.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// A.03, blanks at the right dropped.
    pub convenio: String,
    /// A.04.
    pub company: String,
    /// A.05.
    pub bank_code: u16,
    /// A.06.
    pub bank_name: String,
    /// A.07.
    pub file_date: NaiveDate,
    /// A.08.
    pub nsa: u32,
    /// A.09.
    pub layout_version: u8,
}

/// Register G: one payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paid {
    /// The line of the file (from 1); not written by [`write_return`].
    pub line: usize,
    /// G.02, blanks at the right dropped.
    pub account: String,
    /// G.03.
    pub paid_on: NaiveDate,
    /// G.04.
    pub credited_on: NaiveDate,
    /// G.05, its check digit verified.
    pub codigo_barras: String,
    /// G.06.
    pub cents: u64,
    /// G.07.
    pub tariff_cents: u64,
    /// G.08.
    pub nsr: u32,
    /// G.09, blanks at the right dropped.
    pub agency: String,
    /// G.10, as written (see the table above for its codes).
    pub capture: char,
    /// G.11, blanks at the right dropped.
    pub authentication: String,
    /// G.12.
    pub payment_form: u8,
}

/// Register Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trailer {
    /// Z.02.
    pub records: u32,
    /// Z.03.
    pub total_cents: u64,
}

/// One thing wrong with a line: which positions, what is wrong, how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    /// From 1.
    pub line: usize,
    pub message: String,
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "linha {}: {}", self.line, self.message)
    }
}

/// Reads a return file. Lines end in LF or CRLF; an empty last line is fine.
/// Nothing in the text makes this fail: what cannot be read becomes a problem.
pub fn read_return(text: &str) -> ReturnFile {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    let mut file = ReturnFile::default();
    if lines.is_empty() {
        file.problems.push(LineProblem {
            line: 1,
            message: "o arquivo está vazio: peça ao banco o arquivo retorno do dia".to_string(),
        });
        return file;
    }

    let mut header_at = None;
    let mut trailer_at = None;
    let mut g_total: u64 = 0;
    for (i, raw) in lines.iter().enumerate() {
        let mut rec = Record {
            line: i + 1,
            chars: raw.chars().collect(),
            problems: &mut file.problems,
        };
        if rec.chars.is_empty() {
            rec.problem(
                "a linha está vazia; apague-a (só a última linha do arquivo pode ser vazia)",
            );
            continue;
        }
        if rec.chars.len() != RECORD {
            let n = rec.chars.len();
            rec.problem(&format!(
                "a linha tem {n} caracteres, e todo registro do arquivo retorno tem {RECORD} \
                 posições (os brancos do fim contam): o arquivo foi editado ou teve espaços \
                 cortados; peça ao banco que o reenvie"
            ));
            continue;
        }
        if let Some(z) = trailer_at {
            rec.problem(&format!(
                "vem depois do registro Z (trailer) da linha {z}, que deve ser o último: \
                 o arquivo foi juntado com outro; separe-os"
            ));
            continue;
        }
        match rec.chars[0] {
            'A' => {
                if rec.line != 1 {
                    rec.problem(
                        "o registro A (header) deve ser só a primeira linha: o arquivo foi \
                         juntado com outro; separe-os",
                    );
                } else {
                    header_at = Some(rec.line);
                    file.header = rec.header();
                }
            }
            'G' => {
                let cents = rec.number(82, 93, "G.06, valor recebido");
                g_total = g_total.saturating_add(cents.unwrap_or(0));
                if let Some(paid) = rec.paid(cents) {
                    file.payments.push(paid);
                }
            }
            'Z' => {
                trailer_at = Some(rec.line);
                file.trailer = rec.trailer();
            }
            c => rec.problem(&format!(
                "posição 1: o tipo de registro \"{c}\" não existe; o retorno de arrecadação só \
                 tem A (header), G (pagamento) e Z (trailer)"
            )),
        }
    }

    if header_at.is_none() {
        file.problems.push(LineProblem {
            line: 1,
            message: "o arquivo não começa pelo registro A (header), que diz o convênio, o \
                      banco e a data: confira se é um retorno de arrecadação com código de \
                      barras"
                .to_string(),
        });
    }
    match (trailer_at, file.trailer) {
        (None, _) => file.problems.push(LineProblem {
            line: lines.len(),
            message: "o arquivo termina sem o registro Z (trailer): pode ter sido cortado na \
                      transmissão; peça ao banco que o reenvie"
                .to_string(),
        }),
        (Some(line), Some(trailer)) => {
            if trailer.records as usize != lines.len() {
                file.problems.push(LineProblem {
                    line,
                    message: format!(
                        "posições 2–7 (Z.02, total de registros): o trailer diz {} \
                         registros, mas o arquivo tem {} linhas (contando header e \
                         trailer): linhas se perderam ou sobraram; peça ao banco que o \
                         reenvie",
                        trailer.records,
                        lines.len()
                    ),
                });
            }
            if trailer.total_cents != g_total {
                file.problems.push(LineProblem {
                    line,
                    message: format!(
                        "posições 8–24 (Z.03, valor total recebido): o trailer soma {}, mas \
                         os registros G somam {}: algum valor foi alterado; peça ao banco \
                         que reenvie o arquivo",
                        brl(trailer.total_cents),
                        brl(g_total)
                    ),
                });
            }
        }
        (Some(_), None) => {}
    }
    file
}

/// Writes a return file (CRLF line endings): `header`, one G record for each of
/// `payments` (their `line` is ignored), and the trailer with the count and the
/// total. For tests and demonstrations; a bank writes the real ones.
pub fn write_return(header: &Header, payments: &[Paid]) -> Result<String, GuiaError> {
    let mut out = String::new();

    let mut a = String::from("A2");
    alpha(&mut a, "A.03", "3–22", &header.convenio, 20)?;
    alpha(&mut a, "A.04", "23–42", &header.company, 20)?;
    number(&mut a, "A.05", "43–45", header.bank_code.into(), 3)?;
    alpha(&mut a, "A.06", "46–65", &header.bank_name, 20)?;
    date(&mut a, "A.07", "66–73", header.file_date)?;
    number(&mut a, "A.08", "74–79", header.nsa.into(), 6)?;
    number(&mut a, "A.09", "80–81", header.layout_version.into(), 2)?;
    alpha(&mut a, "A.10", "82–98", "CODIGO DE BARRAS", 17)?;
    end(&mut out, a);

    for p in payments {
        let mut g = String::from("G");
        alpha(&mut g, "G.02", "2–21", &p.account, 20)?;
        date(&mut g, "G.03", "22–29", p.paid_on)?;
        date(&mut g, "G.04", "30–37", p.credited_on)?;
        alpha(&mut g, "G.05", "38–81", &p.codigo_barras, 44)?;
        number(&mut g, "G.06", "82–93", p.cents, 12)?;
        number(&mut g, "G.07", "94–100", p.tariff_cents, 7)?;
        number(&mut g, "G.08", "101–108", p.nsr.into(), 8)?;
        alpha(&mut g, "G.09", "109–116", &p.agency, 8)?;
        alpha(&mut g, "G.10", "117", &p.capture.to_string(), 1)?;
        alpha(&mut g, "G.11", "118–140", &p.authentication, 23)?;
        number(&mut g, "G.12", "141", p.payment_form.into(), 1)?;
        end(&mut out, g);
    }

    let mut z = String::from("Z");
    number(&mut z, "Z.02", "2–7", payments.len() as u64 + 2, 6)?;
    let total = payments.iter().map(|p| p.cents).sum();
    number(&mut z, "Z.03", "8–24", total, 17)?;
    end(&mut out, z);
    Ok(out)
}

/// One line being read, and where its problems go.
struct Record<'a> {
    line: usize,
    chars: Vec<char>,
    problems: &'a mut Vec<LineProblem>,
}

impl Record<'_> {
    fn problem(&mut self, message: &str) {
        self.problems.push(LineProblem {
            line: self.line,
            message: message.to_string(),
        });
    }

    /// Positions `from` to `to` (from 1, inclusive).
    fn field(&self, from: usize, to: usize) -> String {
        self.chars[from - 1..to].iter().collect()
    }

    fn alpha(&self, from: usize, to: usize) -> String {
        self.field(from, to).trim_end().to_string()
    }

    fn at(from: usize, to: usize, what: &str) -> String {
        if from == to {
            format!("posição {from} ({what})")
        } else {
            format!("posições {from}–{to} ({what})")
        }
    }

    fn number(&mut self, from: usize, to: usize, what: &str) -> Option<u64> {
        let s = self.field(from, to);
        if s.bytes().all(|b| b.is_ascii_digit()) {
            s.parse().ok()
        } else {
            let at = Self::at(from, to, what);
            self.problem(&format!(
                "{at}: \"{s}\" tem caracteres que não são algarismos; campo numérico leva só \
                 algarismos, com zeros à esquerda"
            ));
            None
        }
    }

    fn date(&mut self, from: usize, to: usize, what: &str) -> Option<NaiveDate> {
        let s = self.field(from, to);
        let day = if s.bytes().all(|b| b.is_ascii_digit()) {
            NaiveDate::parse_from_str(&s, "%Y%m%d").ok()
        } else {
            None
        };
        if day.is_none() {
            let at = Self::at(from, to, what);
            self.problem(&format!(
                "{at}: \"{s}\" não é uma data AAAAMMDD (ano, mês, dia) que exista; o banco \
                 deve escrevê-la assim, ex.: 20260131"
            ));
        }
        day
    }

    fn header(&mut self) -> Option<Header> {
        let kind = self.chars[1];
        if kind != '2' {
            let why = if kind == '1' {
                "1, de um arquivo de remessa (da empresa para o banco); aqui se lê o retorno \
                 do banco, código 2"
                    .to_string()
            } else {
                format!("\"{kind}\", e o retorno do banco tem código 2")
            };
            self.problem(&format!(
                "posição 2 (A.02, código de remessa): o código é {why}"
            ));
        }
        let bank_code = self.number(43, 45, "A.05, código do banco");
        let file_date = self.date(66, 73, "A.07, data de geração do arquivo");
        let nsa = self.number(74, 79, "A.08, número sequencial do arquivo");
        let version = self.number(80, 81, "A.09, versão do layout");
        Some(Header {
            convenio: self.alpha(3, 22),
            company: self.alpha(23, 42),
            bank_code: u16::try_from(bank_code?).ok()?,
            bank_name: self.alpha(46, 65),
            file_date: file_date?,
            nsa: u32::try_from(nsa?).ok()?,
            layout_version: u8::try_from(version?).ok()?,
        })
        .filter(|_| kind == '2')
    }

    /// The payment, when every field is valid; `cents` is G.06, read already.
    fn paid(&mut self, cents: Option<u64>) -> Option<Paid> {
        let paid_on = self.date(22, 29, "G.03, data de pagamento");
        let credited_on = self.date(30, 37, "G.04, data de crédito");
        let codigo = self.field(38, 81);
        let code_ok = match check(&codigo) {
            Ok(()) => true,
            Err(e) => {
                let at = Self::at(38, 81, "G.05, código de barras");
                self.problem(&format!("{at}: {e}"));
                false
            }
        };
        let tariff = self.number(94, 100, "G.07, valor da tarifa");
        let nsr = self.number(101, 108, "G.08, número sequencial do registro");
        let form = self.number(141, 141, "G.12, forma de pagamento");
        Some(Paid {
            line: self.line,
            account: self.alpha(2, 21),
            paid_on: paid_on?,
            credited_on: credited_on?,
            codigo_barras: codigo,
            cents: cents?,
            tariff_cents: tariff?,
            nsr: u32::try_from(nsr?).ok()?,
            agency: self.alpha(109, 116),
            capture: self.chars[116],
            authentication: self.alpha(118, 140),
            payment_form: u8::try_from(form?).ok()?,
        })
        .filter(|_| code_ok)
    }

    fn trailer(&mut self) -> Option<Trailer> {
        let records = self.number(2, 7, "Z.02, total de registros");
        let total = self.number(8, 24, "Z.03, valor total recebido");
        Some(Trailer {
            records: u32::try_from(records?).ok()?,
            total_cents: total?,
        })
    }
}

fn end(out: &mut String, mut record: String) {
    let fill = RECORD - record.chars().count();
    record.extend(std::iter::repeat_n(' ', fill));
    out.push_str(&record);
    out.push_str("\r\n");
}

fn alpha(
    buf: &mut String,
    campo: &'static str,
    posicoes: &'static str,
    value: &str,
    width: usize,
) -> Result<(), GuiaError> {
    let explicacao = if !value.chars().all(|c| c.is_ascii() && !c.is_ascii_control()) {
        "só leva ASCII visível, sem acentos".to_string()
    } else if value.len() > width {
        format!("tem {} caracteres e o campo {width}", value.len())
    } else {
        buf.push_str(&format!("{value:<width$}"));
        return Ok(());
    };
    Err(GuiaError::Campo {
        campo,
        posicoes,
        explicacao: format!("\"{value}\" {explicacao}"),
    })
}

fn number(
    buf: &mut String,
    campo: &'static str,
    posicoes: &'static str,
    value: u64,
    width: usize,
) -> Result<(), GuiaError> {
    let digits = value.to_string();
    if digits.len() > width {
        return Err(GuiaError::Campo {
            campo,
            posicoes,
            explicacao: format!("{value} tem {} algarismos e o campo {width}", digits.len()),
        });
    }
    buf.push_str(&format!("{digits:0>width$}"));
    Ok(())
}

fn date(
    buf: &mut String,
    campo: &'static str,
    posicoes: &'static str,
    day: NaiveDate,
) -> Result<(), GuiaError> {
    let text = day.format("%Y%m%d").to_string();
    if text.len() != 8 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GuiaError::Campo {
            campo,
            posicoes,
            explicacao: format!("a data {day} não cabe em AAAAMMDD"),
        });
    }
    buf.push_str(&text);
    Ok(())
}

/// "R$ 1.234,56".
fn brl(cents: u64) -> String {
    let reais = (cents / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in reais.chars().enumerate() {
        if i > 0 && (reais.len() - i).is_multiple_of(3) {
            grouped.push('.');
        }
        grouped.push(c);
    }
    format!("R$ {grouped},{:02}", cents % 100)
}
