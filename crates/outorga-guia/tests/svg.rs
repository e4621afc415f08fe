//! The barcode's SVG, read back bar by bar: its Interleaved 2 of 5 must decode
//! to the code, at the size the slip specifications ask for.

use outorga_guia::{GuiaError, HEIGHT_MM, NARROW_MM, barcode_svg};

const CODE: &str = "83640000001331201380008128846271108013618155";

/// The bars of the SVG's path, as (x, width) in narrow units.
fn bars(svg: &str) -> Vec<(u32, u32)> {
    let d = svg
        .split(" d=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a path");
    d.split('M')
        .filter(|s| !s.is_empty())
        .map(|bar| {
            let (x, rest) = bar.split_once(",0h").expect("M{x},0h{w}");
            let w = rest.split('V').next().expect("h{w}V");
            (
                x.parse().expect("x in units"),
                w.parse().expect("w in units"),
            )
        })
        .collect()
}

/// Decodes Interleaved 2 of 5 from the widths of its elements, bar and space
/// alternating from the start pattern, as a scanner would.
fn decode(widths: &[u32]) -> String {
    assert_eq!(
        &widths[..4],
        &[1, 1, 1, 1],
        "start: narrow bar, space, bar, space"
    );
    assert_eq!(
        &widths[widths.len() - 3..],
        &[3, 1, 1],
        "stop: wide bar, narrow space, bar"
    );
    let body = &widths[4..widths.len() - 3];
    assert_eq!(body.len() % 10, 0);
    // Weights 1, 2, 4, 7, 0 of the wide elements; 4 + 7 is 0.
    let digit = |five: Vec<u32>| {
        let wide: Vec<usize> = (0..5).filter(|&i| five[i] == 3).collect();
        assert_eq!(wide.len(), 2, "two wide of five: {five:?}");
        let value: u32 = wide.iter().map(|&i| [1, 2, 4, 7, 0][i]).sum();
        char::from_digit(if value == 11 { 0 } else { value }, 10).expect("a digit")
    };
    body.chunks(10)
        .flat_map(|pair| {
            let bars: Vec<u32> = pair.iter().step_by(2).copied().collect();
            let spaces: Vec<u32> = pair.iter().skip(1).step_by(2).copied().collect();
            [digit(bars), digit(spaces)]
        })
        .collect()
}

#[test]
fn the_bars_decode_to_the_code() {
    let svg = barcode_svg(CODE).expect("a valid code");
    let bars = bars(&svg);
    // 2 start bars, 5 bars for each of the 22 pairs, 2 stop bars.
    assert_eq!(bars.len(), 2 + 22 * 5 + 2);
    let mut widths = Vec::new();
    for (i, &(x, w)) in bars.iter().enumerate() {
        if i > 0 {
            let (px, pw) = bars[i - 1];
            widths.push(x - px - pw);
        }
        widths.push(w);
    }
    assert_eq!(decode(&widths), CODE);
    // 20 units of white before the start and after the stop.
    assert_eq!(bars[0].0, 20);
    let (lx, lw) = bars[bars.len() - 1];
    assert_eq!(lx + lw, 20 + 405);
}

#[test]
fn the_printed_size_is_the_slips() {
    let svg = barcode_svg(CODE).expect("a valid code");
    assert!((NARROW_MM - 0.254).abs() < 1e-9);
    assert!((HEIGHT_MM - 13.0).abs() < 1e-9);
    // (20 + 405 + 20) × 0.254 mm; 13 mm / 0.254 mm.
    assert!(svg.contains("width=\"113.03mm\" height=\"13mm\""), "{svg}");
    assert!(svg.contains("viewBox=\"0 0 445 51.18\""), "{svg}");
    assert!(svg.contains(&format!("aria-label=\"Código de barras {CODE}\"")));
}

#[test]
fn only_valid_codes_are_drawn() {
    assert_eq!(
        barcode_svg("83640000001331201380008128846271108013618154"),
        Err(GuiaError::DigitoGeral {
            modulo: 10,
            esperado: 7,
            encontrado: 4
        })
    );
}
