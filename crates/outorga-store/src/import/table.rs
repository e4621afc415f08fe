//! A department's file as a table of text: CSV as Excel saves it in Brazil
//! (`;`-separated, Latin-1/Windows-1252 or UTF-8 with a BOM) or with commas,
//! and `.xlsx` (its first sheet). Cells come out trimmed; a date cell of a
//! spreadsheet as `AAAA-MM-DD`, a whole number without decimals.

use crate::StoreError;
use chrono::NaiveDate;

/// The header's cells and every other non-blank row with its line (the
/// file's line, or the spreadsheet's row number).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<(u64, Vec<String>)>,
}

fn unreadable(reason: String) -> StoreError {
    StoreError::Invalid {
        field: "arquivo",
        reason,
    }
}

/// Reads `bytes`, a file named `name`: a spreadsheet when it is one (by its
/// content, a zip, or its name), otherwise text.
pub fn read(name: &str, bytes: &[u8]) -> Result<Table, StoreError> {
    let table = if bytes.starts_with(b"PK\x03\x04") || name.to_lowercase().ends_with(".xlsx") {
        xlsx(bytes)?
    } else {
        csv_text(&text(bytes))?
    };
    if table.header.iter().all(String::is_empty) {
        return Err(unreadable(
            "o arquivo está vazio: a primeira linha deve ser o cabeçalho com os nomes das colunas"
                .into(),
        ));
    }
    Ok(table)
}

/// The text of a CSV file: UTF-8 (its BOM dropped) when it is valid UTF-8,
/// otherwise Windows-1252 (Latin-1 as Excel writes it).
pub fn text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => encoding_rs::WINDOWS_1252.decode(bytes).0.into_owned(),
    }
}

fn csv_text(text: &str) -> Result<Table, StoreError> {
    let first = text.lines().next().unwrap_or("");
    let delimiter =
        if first.matches(';').count() >= first.matches(',').count() && first.contains(';') {
            b';'
        } else {
            b','
        };
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .delimiter(delimiter)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut header = None;
    let mut rows = Vec::new();
    // Newlines counted so far, up to `counted` (records come in order: each
    // line is counted once, not again from the start for every record).
    let (mut counted, mut newlines) = (0usize, 0u64);
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            unreadable(format!(
                "linha {line}: não é CSV ({e}); salve a planilha como \"CSV (separado por ponto e \
                 vírgula)\""
            ))
        })?;
        // The line the record starts on, blank lines counted.
        let line = record.position().map_or(0, |p| {
            let mut start = usize::try_from(p.byte())
                .unwrap_or(usize::MAX)
                .min(text.len());
            // The position may be that of blank lines the reader skipped.
            while matches!(text.as_bytes().get(start), Some(b'\n' | b'\r')) {
                start += 1;
            }
            if start >= counted {
                newlines += text.as_bytes()[counted..start]
                    .iter()
                    .filter(|b| **b == b'\n')
                    .count() as u64;
                counted = start;
            }
            newlines + 1
        });
        let cells: Vec<String> = record.iter().map(|c| c.trim().to_string()).collect();
        if header.is_none() {
            header = Some(cells);
        } else if cells.iter().any(|c| !c.is_empty()) {
            rows.push((line, cells));
        }
    }
    Ok(Table {
        header: header.unwrap_or_default(),
        rows,
    })
}

/// Excel's day 0 for serial dates (the 1900 system, with its leap-year bug).
fn excel_day(serial: f64) -> Option<NaiveDate> {
    let days = serial.floor();
    if !(1.0..=2_958_465.0).contains(&days) {
        return None;
    }
    NaiveDate::from_ymd_opt(1899, 12, 30)?.checked_add_days(chrono::Days::new(days as u64))
}

fn cell_text(cell: &calamine::Data) -> String {
    use calamine::Data;
    match cell {
        Data::Empty => String::new(),
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => s.trim().to_string(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", *f as i64),
        Data::Float(f) => f.to_string(),
        Data::Bool(b) => if *b { "sim" } else { "não" }.to_string(),
        // A date cell; with a time of day when it has one (an auto's moment).
        Data::DateTime(d) => excel_day(d.as_f64())
            .map(|day| {
                let minutes = (d.as_f64().fract() * 1440.0).round() as u32;
                if minutes == 0 || minutes >= 1440 {
                    day.to_string()
                } else {
                    format!("{day} {:02}:{:02}", minutes / 60, minutes % 60)
                }
            })
            .unwrap_or_else(|| d.as_f64().to_string()),
        Data::Error(e) => format!("#{e:?}"),
    }
}

fn xlsx(bytes: &[u8]) -> Result<Table, StoreError> {
    use calamine::Reader as _;
    let mut book: calamine::Xlsx<_> = calamine::open_workbook_from_rs(std::io::Cursor::new(bytes))
        .map_err(|e| {
            unreadable(format!(
                "não é uma planilha .xlsx legível ({e}); salve-a de novo no Excel como .xlsx ou \
                 como CSV"
            ))
        })?;
    let range = match book.worksheet_range_at(0) {
        Some(Ok(range)) => range,
        Some(Err(e)) => {
            return Err(unreadable(format!(
                "a primeira planilha não pode ser lida: {e}"
            )));
        }
        None => return Err(unreadable("a planilha não tem nenhuma aba".into())),
    };
    let first_row = range.start().map_or(0, |(row, _)| row);
    let first_col = range.start().map_or(0, |(_, col)| col) as usize;
    let mut header = None;
    let mut rows = Vec::new();
    for (i, row) in range.rows().enumerate() {
        // Cells left of the used range are blank: keep the columns' places.
        let cells: Vec<String> = std::iter::repeat_n(String::new(), first_col)
            .chain(row.iter().map(cell_text))
            .collect();
        let line = u64::from(first_row) + i as u64 + 1;
        if header.is_none() {
            if cells.iter().any(|c| !c.is_empty()) {
                header = Some(cells);
            }
        } else if cells.iter().any(|c| !c.is_empty()) {
            rows.push((line, cells));
        }
    }
    Ok(Table {
        header: header.unwrap_or_default(),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin1_semicolons() {
        let bytes = b"documento;nome\n529.982.247-25;Jo\xE3o Concei\xE7\xE3o\n";
        let t = read("a.csv", bytes).expect("reads");
        assert_eq!(t.header, ["documento", "nome"]);
        assert_eq!(
            t.rows,
            [(2, vec!["529.982.247-25".into(), "João Conceição".into()])]
        );
    }

    #[test]
    fn bom_and_commas() {
        let t = read("a.csv", "\u{FEFF}placa,ano\n\nABC1D23,2020\n".as_bytes()).expect("reads");
        assert_eq!(t.header, ["placa", "ano"]);
        assert_eq!(t.rows, [(3, vec!["ABC1D23".into(), "2020".into()])]);
    }

    #[test]
    fn excel_serials() {
        assert_eq!(excel_day(45658.0), NaiveDate::from_ymd_opt(2025, 1, 1));
        assert_eq!(excel_day(-3.0), None);
    }
}
