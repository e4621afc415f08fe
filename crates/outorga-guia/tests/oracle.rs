//! Hundreds of generated slips, PIX codes, barcode SVGs and a return file,
//! checked by an independent implementation: tests/oracle/check_slips.py, on
//! the PyPI packages of tests/oracle/requirements.txt.
//!
//! The Python interpreter is the one `OUTORGA_PY_ORACLE` names (a virtual
//! environment's `python`, with the requirements installed); without it the
//! test says it was skipped and passes.

use std::process::Command;

use chrono::NaiveDate;
use outorga_guia::{
    Convenio, Header, Paid, PixPayee, ValueId, barcode, barcode_svg, pix, read_return, write_return,
};
use serde_json::{Value, json};

/// A small deterministic generator (xorshift64*), so that a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    fn digits(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| char::from(b'0' + self.below(10) as u8))
            .collect()
    }

    /// From 1 to `max` digits, their count drawn too.
    fn some_digits(&mut self, max: usize) -> String {
        let len = 1 + self.below(max as u64) as usize;
        self.digits(len)
    }

    /// A value of 1 to `max_digits` digits, small and large values alike.
    fn value(&mut self, max_digits: u32) -> u64 {
        let digits = 1 + self.below(u64::from(max_digits)) as u32;
        1 + self.below(10u64.pow(digits) - 1)
    }

    fn alnum(&mut self, len: usize) -> String {
        const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..len).map(|_| char::from(*self.pick(ALNUM))).collect()
    }
}

const SLIPS: usize = 300;
const PIX: usize = 300;

fn slips(rng: &mut Rng, records: &mut Vec<Value>) -> Vec<String> {
    let mut codes = Vec::new();
    for i in 0..SLIPS {
        let segment = *rng.pick(&[1u8, 2, 3, 4, 5, 6, 7, 9]);
        let value_id = *rng.pick(&[
            ValueId::EffectiveMod10,
            ValueId::ReferenceMod10,
            ValueId::EffectiveMod11,
            ValueId::ReferenceMod11,
        ]);
        let company = rng.digits(if segment == 6 { 8 } else { 4 });
        let cents = rng.value(11);
        let due = (rng.below(2) == 0).then(|| {
            NaiveDate::from_ymd_opt(
                1997 + rng.below(100) as i32,
                1 + rng.below(12) as u32,
                1 + rng.below(28) as u32,
            )
            .expect("a real day")
        });
        let room = if segment == 6 { 21 } else { 25 } - if due.is_some() { 8 } else { 0 };
        let own = rng.some_digits(room);
        let convenio = Convenio {
            segment,
            company: company.clone(),
            value_id,
        };
        let slip = barcode(&convenio, cents, due, &own).expect("a slip that fits");
        records.push(json!({
            "kind": "slip",
            "codigo": slip.codigo_barras,
            "linha": slip.linha_digitavel,
            "segment": segment,
            "value_id": value_id.digit(),
            "company": company,
            "cents": cents,
            "due": due.map(|d| d.to_string()),
            "own": own,
        }));
        if i % 10 == 0 {
            records.push(json!({
                "kind": "svg",
                "codigo": slip.codigo_barras,
                "svg": barcode_svg(&slip.codigo_barras).expect("a valid code"),
            }));
        }
        codes.push(slip.codigo_barras);
    }
    codes
}

fn pix_codes(rng: &mut Rng, records: &mut Vec<Value>) {
    // Keys as the DICT writes them, so the oracle compares them as they are.
    let keys = [
        "52998224725",
        "11144477735",
        "11222333000181",
        "12ABC34501DE35",
        "financeiro@teofilootoni.mg.gov.br",
        "setrans@natal.rn.gov.br",
        "+5533912345678",
        "+5561987654321",
        "123e4567-e12b-12d1-a456-426655440000",
        "7f6844d0-de89-47e5-9ef7-e0a35a681615",
    ];
    let names = [
        "Fulano de Tal",
        "Prefeitura de Canguçu",
        "Secretaria de Trânsito",
        "Órgão Gestor do Município",
        "Autarquia Teófilo Otoni",
        "SETRANS/Natal",
        "Conceição & Filhos Ltda.",
        "Superintendência Macapá",
    ];
    let cities = [
        "BRASILIA",
        "Teófilo Otoni",
        "Canguçu",
        "São Luís",
        "Brasília",
        "Macapá",
        "Porto Alegre",
        "Belém",
        "Natal",
    ];
    for _ in 0..PIX {
        let payee = PixPayee {
            key: rng.pick(&keys).to_string(),
            name: rng.pick(&names).to_string(),
            city: rng.pick(&cities).to_string(),
        };
        let amount = (rng.below(3) != 0).then(|| rng.value(12));
        let txid = match rng.below(3) {
            0 => String::new(),
            _ => {
                let len = 1 + rng.below(25) as usize;
                rng.alnum(len)
            }
        };
        let payload = pix(&payee, amount, &txid).expect("a valid payee");
        records.push(json!({
            "kind": "pix",
            "payload": payload,
            "key": payee.key,
            "name": payee.name,
            "city": payee.city,
            "amount_cents": amount,
            "txid": txid,
        }));
    }
}

fn retorno(rng: &mut Rng, codes: &[String], records: &mut Vec<Value>) {
    let header = Header {
        convenio: "0000855470019".to_string(),
        company: "PREF MUN TESTE".to_string(),
        bank_code: 341,
        bank_name: "BANCO ITAU S.A.".to_string(),
        file_date: NaiveDate::from_ymd_opt(2026, 4, 5).expect("a real day"),
        nsa: 104,
        layout_version: 7,
    };
    // The capture codes febraban-barcode's registro_G knows (versão 05's list).
    let captures = [
        '1', '2', '3', '4', '5', '6', '7', 'a', 'b', 'c', 'd', 'e', 'f', 'g',
    ];
    let payments: Vec<Paid> = codes
        .iter()
        .take(50)
        .enumerate()
        .map(|(i, code)| {
            let paid_on =
                NaiveDate::from_ymd_opt(2026, 4, 1 + rng.below(4) as u32).expect("a real day");
            Paid {
                line: i + 2,
                account: rng.digits(20),
                paid_on,
                credited_on: paid_on + chrono::Days::new(1),
                codigo_barras: code.clone(),
                cents: rng.below(10_000_000_000),
                tariff_cents: rng.below(10_000),
                nsr: i as u32 + 1,
                agency: rng.some_digits(8),
                capture: *rng.pick(&captures),
                authentication: {
                    let len = rng.below(24) as usize;
                    rng.alnum(len)
                },
                payment_form: 1 + rng.below(3) as u8,
            }
        })
        .collect();
    let text = write_return(&header, &payments).expect("fields that fit");

    // Read back here first.
    let read = read_return(&text);
    assert!(read.problems.is_empty(), "{:?}", read.problems);
    assert_eq!(read.header.as_ref(), Some(&header));
    assert_eq!(read.payments, payments);

    let payment = |p: &Paid| {
        json!({
            "account": p.account,
            "paid_on": p.paid_on.to_string(),
            "credited_on": p.credited_on.to_string(),
            "codigo_barras": p.codigo_barras,
            "cents": p.cents,
            "tariff_cents": p.tariff_cents,
            "nsr": p.nsr,
            "agency": p.agency,
            "capture": p.capture.to_string(),
            "authentication": p.authentication,
            "payment_form": p.payment_form,
        })
    };
    records.push(json!({
        "kind": "retorno",
        "text": text,
        "header": {
            "convenio": header.convenio,
            "company": header.company,
            "bank_code": header.bank_code,
            "bank_name": header.bank_name,
            "file_date": header.file_date.to_string(),
            "nsa": header.nsa,
            "layout_version": header.layout_version,
        },
        "payments": payments.iter().map(payment).collect::<Vec<_>>(),
    }));
}

#[test]
fn an_independent_implementation_agrees() {
    let mut rng = Rng(20_260_405);
    let mut records = Vec::new();
    let codes = slips(&mut rng, &mut records);
    pix_codes(&mut rng, &mut records);
    retorno(&mut rng, &codes, &mut records);
    assert_eq!(records.len(), SLIPS + SLIPS / 10 + PIX + 1);

    let Some(python) = std::env::var_os("OUTORGA_PY_ORACLE") else {
        println!(
            "skipped: OUTORGA_PY_ORACLE is not set (a Python with \
             crates/outorga-guia/tests/oracle/requirements.txt installed); the {} records \
             were made but not checked",
            records.len()
        );
        return;
    };
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    let text: String = records.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(file.path(), text).expect("written");
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/oracle/check_slips.py");
    let out = Command::new(&python)
        .arg(script)
        .arg(file.path())
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", python.to_string_lossy()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    assert!(
        out.status.success(),
        "the oracle disagrees ({}):\n{stdout}\n{stderr}",
        out.status
    );
    assert!(
        stdout.contains(&format!("{} passed, 0 failed", records.len())),
        "{stdout}"
    );
}
