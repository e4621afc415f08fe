//! The pictures a printed slip carries: the barcode as Interleaved 2 of 5 and
//! the PIX code as a QR code, both as SVG.

use qrcode::{EcLevel, QrCode, render::svg};

use crate::{GuiaError, barcode::check};

/// Width of a narrow element, in millimetres, when printed at the intended size.
///
/// FEBRABAN's arrecadação layout (versão 07, item 03) asks for "2 de 5
/// intercalado" of 44 digits with start and stop, at least 5 mm of white before
/// the start and after the stop, and does not itself fix the bar widths. The
/// banks' slip specifications do: the Banco do Brasil's "Especificações Técnicas
/// para Confecção de Boleto de Pagamento" (item 2.3.3) sets a barcode of 103 mm
/// by 13 mm for the same 44 digits. With wide elements three times the narrow
/// ones the code is 405 narrow widths long (start 4, 22 pairs of 18, stop 5),
/// so 0.254 mm (1/100 inch) gives 102.87 mm.
pub const NARROW_MM: f64 = 0.254;

/// Height of the bars in millimetres (the same item 2.3.3).
pub const HEIGHT_MM: f64 = 13.0;

/// The quiet zone on each side, in narrow widths: 20 × 0.254 mm = 5.08 mm, just
/// over item 03's 5 mm.
const QUIET: u32 = 20;

/// Wide elements are three narrow ones (Interleaved 2 of 5 allows 2 to 3).
const WIDE: u32 = 3;

/// The five elements of each digit in Interleaved 2 of 5; 1 narrow, 3 wide.
const DIGITS: [[u32; 5]; 10] = [
    [1, 1, WIDE, WIDE, 1],
    [WIDE, 1, 1, 1, WIDE],
    [1, WIDE, 1, 1, WIDE],
    [WIDE, WIDE, 1, 1, 1],
    [1, 1, WIDE, 1, WIDE],
    [WIDE, 1, WIDE, 1, 1],
    [1, WIDE, WIDE, 1, 1],
    [1, 1, 1, WIDE, WIDE],
    [WIDE, 1, 1, WIDE, 1],
    [1, WIDE, 1, WIDE, 1],
];

/// The 44-digit code (checked first) as an Interleaved 2 of 5 barcode in SVG.
///
/// The `viewBox` counts narrow widths; `width` and `height` say the intended
/// print size: 113.03 mm by 13 mm, the 102.87 mm of bars ([`NARROW_MM`]) and
/// 5.08 mm of white on each side. Print it at that size, not scaled to fit.
pub fn barcode_svg(codigo: &str) -> Result<String, GuiaError> {
    check(codigo)?;
    let digits: Vec<usize> = codigo.bytes().map(|b| usize::from(b - b'0')).collect();

    // Widths of the elements from the start, bar and space alternating.
    let mut widths = vec![1, 1, 1, 1];
    for pair in digits.chunks(2) {
        let (bars, spaces) = (DIGITS[pair[0]], DIGITS[pair[1]]);
        for i in 0..5 {
            widths.push(bars[i]);
            widths.push(spaces[i]);
        }
    }
    widths.extend([WIDE, 1, 1]);

    let total: u32 = QUIET + widths.iter().sum::<u32>() + QUIET;
    let height = HEIGHT_MM / NARROW_MM;
    let mut path = String::new();
    let mut x = QUIET;
    for (i, w) in widths.iter().enumerate() {
        if i % 2 == 0 {
            path.push_str(&format!("M{x},0h{w}V{height:.2}h-{w}Z"));
        }
        x += w;
    }
    Ok(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{:.2}mm\" height=\"{HEIGHT_MM}mm\" \
         viewBox=\"0 0 {total} {height:.2}\" shape-rendering=\"crispEdges\" role=\"img\" \
         aria-label=\"Código de barras {codigo}\">\
         <rect width=\"{total}\" height=\"{height:.2}\" fill=\"#fff\"/>\
         <path fill=\"#000\" d=\"{path}\"/></svg>",
        f64::from(total) * NARROW_MM
    ))
}

/// `text` (a PIX BR Code, say) as a QR code in SVG: error correction level M,
/// with the four-module quiet zone, at least 200 × 200 units.
pub fn qr_svg(text: &str) -> Result<String, GuiaError> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M)
        .map_err(|_| GuiaError::QrGrande(text.len()))?;
    Ok(code
        .render::<svg::Color>()
        .quiet_zone(true)
        .min_dimensions(200, 200)
        .build())
}
