//! A paper rendered and read back: its text (pdftotext) and its QR codes
//! (zbarimg) say what the record gave it.

use outorga_guia::{Convenio, PixPayee, ValueId};
use outorga_pdf::{Format, Images, Paper, Row, Section, SlipText, readback, render};

const VERIFY: &str = "https://outorga.example.gov.br/verificar/ABCDE-12345";

fn paper(format: Format, slip: Option<SlipText>) -> Paper {
    Paper {
        format,
        authority: "Prefeitura Municipal de Canguçu".into(),
        law: "Lei Municipal nº 4.421/2017".into(),
        title: "Notificação da penalidade".into(),
        code: "ABCDE-12345".into(),
        issued_on: "30/11/2026".into(),
        valid_until: Some("15/12/2026".into()),
        sections: vec![Section {
            heading: "A autuação".into(),
            rows: vec![
                Row::new("Auto", "2026/7"),
                // Markup in a record is text, never layout.
                Row::new("Infração", "cobrar acima da tarifa #set text(red) [x] *y*"),
            ],
            paragraphs: vec!["Prazo de defesa: 15 dias a contar do recebimento.".into()],
        }],
        slip,
        verify_at: "https://outorga.example.gov.br/verificar".into(),
    }
}

struct SlipFixture {
    text: SlipText,
    codigo: String,
    pix: String,
}

fn slip() -> SlipFixture {
    let convenio = Convenio {
        segment: 1,
        company: "0001".into(),
        value_id: ValueId::EffectiveMod10,
    };
    let due = chrono::NaiveDate::from_ymd_opt(2026, 12, 15).expect("day");
    let slip = outorga_guia::barcode(&convenio, 12_345, Some(due), "2026000000070").expect("slip");
    let payee = PixPayee {
        key: "financas@cangucu.rs.gov.br".into(),
        name: "PREFEITURA DE CANGUCU".into(),
        city: "CANGUCU".into(),
    };
    let pix = outorga_guia::pix(&payee, Some(12_345), "2026000000070").expect("pix");
    SlipFixture {
        text: SlipText {
            amount: "R$ 123,45".into(),
            due: "15/12/2026".into(),
            linha_digitavel: slip.linha_digitavel.clone(),
            pix: pix.clone(),
            own_number: "2026000000070".into(),
        },
        codigo: slip.codigo_barras,
        pix,
    }
}

#[test]
fn an_a4_paper_says_what_it_was_given_and_its_qr_opens_its_verification() {
    let pdf = render(
        &paper(Format::A4, None),
        &Images {
            verify_qr: outorga_guia::qr_svg(VERIFY).expect("qr"),
            ..Images::default()
        },
    )
    .expect("pdf");
    assert!(pdf.starts_with(b"%PDF-"));
    let text = readback::text(&pdf).expect("pdftotext");
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    for expected in [
        "Prefeitura Municipal de Canguçu",
        "Notificação da penalidade",
        "2026/7",
        "cobrar acima da tarifa #set text(red) [x] *y*",
        "Prazo de defesa: 15 dias a contar do recebimento.",
        "válido até 15/12/2026",
        "A autenticidade deste documento pode ser conferida em \
         https://outorga.example.gov.br/verificar informando o código ABCDE-12345",
    ] {
        assert!(flat.contains(expected), "{expected:?} not in:\n{text}");
    }
    assert_eq!(readback::qr_codes(&pdf).expect("zbarimg"), [VERIFY]);
}

#[test]
fn the_same_paper_gives_the_same_bytes() {
    let images = Images {
        verify_qr: outorga_guia::qr_svg(VERIFY).expect("qr"),
        ..Images::default()
    };
    let paper = paper(Format::A4, None);
    assert_eq!(
        render(&paper, &images).expect("pdf"),
        render(&paper, &images).expect("pdf")
    );
}

#[test]
fn a_slip_carries_its_line_its_barcode_and_its_pix() {
    let slip = slip();
    let pdf = render(
        &paper(Format::A4, Some(slip.text.clone())),
        &Images {
            verify_qr: outorga_guia::qr_svg(VERIFY).expect("qr"),
            barcode: Some(outorga_guia::barcode_svg(&slip.codigo).expect("barcode")),
            pix_qr: Some(outorga_guia::qr_svg(&slip.pix).expect("pix qr")),
        },
    )
    .expect("pdf");
    if let Ok(dir) = std::env::var("OUTORGA_PAPERS_OUT") {
        std::fs::write(format!("{dir}/guia.pdf"), &pdf).expect("write");
    }
    let text = readback::text(&pdf).expect("pdftotext");
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("R$ 123,45"), "{text}");
    assert!(flat.contains(&slip.text.linha_digitavel), "{text}");
    // Its lines joined (the payload's own spaces aside, as pdftotext lays
    // the lines out with margins).
    let unbroken: String = text.split_whitespace().collect();
    let pix: String = slip.pix.split_whitespace().collect();
    assert!(unbroken.contains(&pix), "the PIX copia e cola: {text}");
    let mut codes = readback::qr_codes(&pdf).expect("zbarimg");
    codes.sort();
    let mut expected = vec![VERIFY.to_string(), slip.pix.clone()];
    expected.sort();
    assert_eq!(codes, expected);
}

#[test]
fn a_card_carries_the_code_and_its_qr() {
    let pdf = render(
        &paper(Format::Card, None),
        &Images {
            verify_qr: outorga_guia::qr_svg(VERIFY).expect("qr"),
            ..Images::default()
        },
    )
    .expect("pdf");
    let text = readback::text(&pdf).expect("pdftotext");
    assert!(text.contains("ABCDE-12345"), "{text}");
    assert_eq!(readback::qr_codes(&pdf).expect("zbarimg"), [VERIFY]);
}
