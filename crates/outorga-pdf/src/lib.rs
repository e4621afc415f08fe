//! The department's papers as PDF, rendered offline by typst (through
//! `typst-as-lib`) with the fonts typst embeds (Libertinus Serif, DejaVu
//! Sans Mono): no system font, no network, the same bytes on every machine.
//!
//! Pure: a [`Paper`] (what the paper says, as the record built it) and its
//! images (SVG: the verification QR code, the slip's barcode and PIX QR code)
//! in, PDF bytes out. One layout for every kind of paper ([`Format::A4`]),
//! and a card for the driver's credential ([`Format::Card`]). Text reaches
//! typst as data (JSON in `sys.inputs`), never as markup: nothing a record
//! holds can change the layout.

pub mod readback;

use serde::Serialize;
use std::sync::LazyLock;
use typst::foundations::{Bytes, Dict, IntoValue, Smart};
use typst_as_lib::TypstEngine;
use typst_as_lib::TypstTemplateMainFile;
use typst_layout::PagedDocument;

/// The layout, in typst: reads `sys.inputs.paper` (JSON) and the images.
const TEMPLATE: &str = include_str!("paper.typ");

/// The page a paper is printed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// An A4 sheet: every paper.
    A4,
    /// An ID-1 card (85.6 × 54 mm): the driver's credential, to carry.
    Card,
}

/// A label and its value, as one line of a paper's table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub label: String,
    pub value: String,
}

impl Row {
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Row {
        Row {
            label: label.into(),
            value: value.into(),
        }
    }
}

/// A part of a paper: a heading, its table, then its paragraphs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default)]
pub struct Section {
    pub heading: String,
    pub rows: Vec<Row>,
    pub paragraphs: Vec<String>,
}

/// What a payment slip section shows beside its barcode and PIX QR code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SlipText {
    /// "R$ 1.234,56".
    pub amount: String,
    /// "dd/mm/aaaa".
    pub due: String,
    pub linha_digitavel: String,
    /// The PIX "copia e cola".
    pub pix: String,
    pub own_number: String,
}

/// What a paper says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Paper {
    pub format: Format,
    /// Who issues it: "Prefeitura Municipal de Santa Maria de Jetibá".
    pub authority: String,
    /// The law it is issued under.
    pub law: String,
    /// "Autorização de tráfego".
    pub title: String,
    pub code: String,
    /// "dd/mm/aaaa".
    pub issued_on: String,
    pub valid_until: Option<String>,
    pub sections: Vec<Section>,
    pub slip: Option<SlipText>,
    /// Where anyone checks it: `<endereço>/verificar`.
    pub verify_at: String,
}

/// A paper's images, as SVG text.
#[derive(Debug, Clone, Default)]
pub struct Images {
    /// The QR code of `<endereço>/verificar/<código>`.
    pub verify_qr: String,
    /// The slip's Interleaved 2 of 5 barcode.
    pub barcode: Option<String>,
    /// The slip's PIX QR code.
    pub pix_qr: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    #[error("o documento não pôde ser composto: {0}")]
    Layout(String),
}

static ENGINE: LazyLock<TypstEngine<TypstTemplateMainFile>> = LazyLock::new(|| {
    TypstEngine::builder()
        .main_file(TEMPLATE)
        .fonts(typst_assets::fonts())
        .build()
});

/// The paper as PDF. The same paper and images give the same bytes (the
/// document's identifier is its code; no clock is read).
pub fn render(paper: &Paper, images: &Images) -> Result<Vec<u8>, PdfError> {
    let json = serde_json::to_string(paper).map_err(|e| PdfError::Layout(e.to_string()))?;
    let mut inputs = Dict::new();
    inputs.insert("paper".into(), json.into_value());
    inputs.insert("verify_qr".into(), svg(&images.verify_qr));
    if let Some(barcode) = &images.barcode {
        inputs.insert("barcode".into(), svg(barcode));
    }
    if let Some(pix) = &images.pix_qr {
        inputs.insert("pix_qr".into(), svg(pix));
    }
    let document: PagedDocument = ENGINE
        .compile_with_input(inputs)
        .output
        .map_err(|e| PdfError::Layout(format!("{e}")))?;
    let options = typst_pdf::PdfOptions {
        ident: Smart::Custom(paper.code.clone()),
        timestamp: None,
        ..Default::default()
    };
    typst_pdf::pdf(&document, &options).map_err(|errors| {
        PdfError::Layout(
            errors
                .iter()
                .map(|e| e.message.to_string())
                .collect::<Vec<_>>()
                .join("; "),
        )
    })
}

fn svg(text: &str) -> typst::foundations::Value {
    Bytes::new(text.as_bytes().to_vec()).into_value()
}
