//! The tickets a carrier sold, read from its file: CSV (one row per ticket,
//! columns named in Portuguese) or BP-e XML (model 63, the Bilhete de
//! Passagem Eletrônico: one `<infBPe>` per ticket, as many as the file
//! holds). Each ticket says which items of the law it shows, so the
//! findings know what it lacks; a row that cannot be placed on a trip (no
//! key, line or departure) is refused with its line and field.

use super::rows::{Refusal, moment_of};
use chrono::NaiveDateTime;
use quick_xml::events::Event;
use rust_decimal::Decimal;
use std::str::FromStr;

/// A ticket as the file gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketRow {
    /// The file's line (the CSV row, or where the BP-e begins).
    pub at: u64,
    /// The BP-e access key, or series and number.
    pub key: String,
    pub line: String,
    pub departs: NaiveDateTime,
    pub origin: String,
    pub destination: String,
    /// `None`: the ticket shows no seat; 0: standing.
    pub seat: Option<u32>,
    pub fare: Decimal,
    pub discount: String,
    /// The carrier's CNPJ as the ticket gives it.
    pub cnpj: Option<String>,
    /// The items of the law's list (`[bus] ticket_fields`) the ticket shows.
    pub shown: Vec<&'static str>,
}

/// The CSV's columns: the first three place the ticket; the others are the
/// items of art. 44 the ticket shows when they are filled.
pub const CSV_COLUMNS: [(&str, &str); 16] = [
    ("linha", "o prefixo da linha (obrigatório)"),
    (
        "partida",
        "data e hora da viagem, AAAA-MM-DD HH:MM (obrigatório)",
    ),
    ("numero", "número do bilhete (obrigatório sem a chave)"),
    ("chave", "chave de acesso do BP-e, quando houver"),
    ("serie", "série ou subsérie"),
    ("cnpj", "CNPJ da transportadora"),
    ("transportadora", "nome e endereço da transportadora"),
    ("emissao", "data de emissão"),
    ("denominacao", "a denominação \"bilhete de passagem\""),
    ("valor", "preço da passagem, em reais"),
    ("desconto", "tipo de desconto ou gratuidade, quando houver"),
    ("origem", "localidade de origem"),
    ("destino", "localidade de destino"),
    ("poltrona", "número da poltrona (0: em pé)"),
    ("passageiro", "nome do passageiro"),
    ("impressora", "nome e CNPJ da empresa impressora do bilhete"),
];

fn refusal(at: u64, field: &str, reason: impl Into<String>) -> Refusal {
    Refusal {
        line: at,
        field: field.to_string(),
        reason: reason.into(),
    }
}

fn seat_of(text: &str) -> Result<Option<u32>, String> {
    if text.is_empty() {
        return Ok(None);
    }
    text.parse::<u32>()
        .map(Some)
        .map_err(|_| format!("`{text}`: escreva o número da poltrona (0 para em pé)"))
}

fn fare_of(text: &str) -> Result<Decimal, String> {
    if text.is_empty() {
        return Ok(Decimal::ZERO);
    }
    Decimal::from_str(&text.replace(',', "."))
        .ok()
        .filter(|v| !v.is_sign_negative())
        .map(|v| v.round_dp(2))
        .ok_or_else(|| format!("`{text}`: escreva o preço em reais, como 45,80"))
}

/// The tickets of a CSV file, and every row refused.
pub fn from_csv(
    name: &str,
    bytes: &[u8],
) -> Result<(Vec<TicketRow>, Vec<Refusal>), crate::StoreError> {
    let table = crate::import::table::read(name, bytes)?;
    let column = |wanted: &str| table.header.iter().position(|h| h.to_lowercase() == wanted);
    if let Some(unknown) = table
        .header
        .iter()
        .find(|h| !h.is_empty() && !CSV_COLUMNS.iter().any(|(c, _)| *c == h.to_lowercase()))
    {
        return Err(crate::StoreError::Invalid {
            field: "arquivo",
            reason: format!(
                "{name}:1: coluna `{unknown}` desconhecida; as colunas são: {}",
                CSV_COLUMNS.map(|(c, _)| c).join(", ")
            ),
        });
    }
    for needed in ["linha", "partida"] {
        if column(needed).is_none() {
            return Err(crate::StoreError::Invalid {
                field: "arquivo",
                reason: format!("{name}:1: falta a coluna `{needed}`"),
            });
        }
    }
    if column("numero").is_none() && column("chave").is_none() {
        return Err(crate::StoreError::Invalid {
            field: "arquivo",
            reason: format!("{name}:1: falta a coluna `numero` (ou `chave`)"),
        });
    }
    let index: Vec<Option<usize>> = CSV_COLUMNS.iter().map(|(c, _)| column(c)).collect();
    let mut tickets = Vec::with_capacity(table.rows.len());
    let mut refused = Vec::new();
    for (at, cells) in &table.rows {
        let cell = |n: usize| {
            index[n]
                .and_then(|i| cells.get(i))
                .map_or("", String::as_str)
        };
        let [
            line,
            departs,
            number,
            key,
            series,
            cnpj,
            carrier,
            issued,
            name_item,
            fare,
            discount,
            origin,
            destination,
            seat,
            passenger,
            printer,
        ] = std::array::from_fn(cell);
        let key = if key.is_empty() {
            format!("{series}-{number}")
        } else {
            key.to_string()
        };
        if number.is_empty() && key.starts_with('-') {
            refused.push(refusal(*at, "numero", "o bilhete não tem número nem chave"));
            continue;
        }
        if line.is_empty() {
            refused.push(refusal(*at, "linha", "o bilhete não diz a linha"));
            continue;
        }
        let departs = match moment_of(departs) {
            Ok(d) => d,
            Err(reason) => {
                refused.push(refusal(*at, "partida", reason));
                continue;
            }
        };
        let seat = match seat_of(seat) {
            Ok(s) => s,
            Err(reason) => {
                refused.push(refusal(*at, "poltrona", reason));
                continue;
            }
        };
        let fare_value = match fare_of(fare) {
            Ok(v) => v,
            Err(reason) => {
                refused.push(refusal(*at, "valor", reason));
                continue;
            }
        };
        let shown = [
            ("transportadora", !cnpj.is_empty() && !carrier.is_empty()),
            ("data_emissao", !issued.is_empty()),
            ("denominacao", !name_item.is_empty()),
            ("preco", !fare.is_empty()),
            ("numero_serie", !number.is_empty() || !key.is_empty()),
            (
                "origem_destino",
                !origin.is_empty() && !destination.is_empty(),
            ),
            ("linha", true),
            ("data_horario", true),
            ("poltrona", seat.is_some()),
            ("passageiro", !passenger.is_empty()),
            ("impressora", !printer.is_empty()),
        ]
        .into_iter()
        .filter_map(|(item, shows)| shows.then_some(item))
        .collect();
        tickets.push(TicketRow {
            at: *at,
            key,
            line: line.to_uppercase(),
            departs,
            origin: origin.to_string(),
            destination: destination.to_string(),
            seat,
            fare: fare_value,
            discount: discount.to_string(),
            cnpj: (!cnpj.is_empty()).then(|| cnpj.to_string()),
            shown,
        });
    }
    Ok((tickets, refused))
}

/// What one `<infBPe>` holds, as read.
#[derive(Debug, Default)]
struct Bpe {
    at: u64,
    id: String,
    cnpj: String,
    carrier: String,
    issued: String,
    series: String,
    number: String,
    origin: String,
    destination: String,
    passenger: String,
    departs: String,
    line: String,
    seat: String,
    fare: String,
    discount: String,
}

impl Bpe {
    /// Where the text of the element at the end of `path` goes.
    fn slot(&mut self, path: &[String]) -> Option<&mut String> {
        let name = path.last()?.as_str();
        let parent = path
            .len()
            .checked_sub(2)
            .and_then(|i| path.get(i))?
            .as_str();
        Some(match (parent, name) {
            ("emit", "CNPJ") => &mut self.cnpj,
            ("emit", "xNome") => &mut self.carrier,
            ("ide", "dhEmi") => &mut self.issued,
            ("ide", "serie") => &mut self.series,
            ("ide", "nBP") => &mut self.number,
            ("infPassagem", "xLocOrig") => &mut self.origin,
            ("infPassagem", "xLocDest") => &mut self.destination,
            ("infPassageiro", "xNome") => &mut self.passenger,
            ("infViagem", "dhViagem") => &mut self.departs,
            ("infViagem", "prefixo") => &mut self.line,
            ("infViagem", "poltrona") => &mut self.seat,
            ("infValorBPe", "vBP") => &mut self.fare,
            ("infValorBPe", "tpDesconto") => &mut self.discount,
            _ => return None,
        })
    }

    fn ticket(self) -> Result<TicketRow, Refusal> {
        let at = self.at;
        let key = self.id.trim().trim_start_matches("BPe").to_string();
        if key.len() != 44 || !key.bytes().all(|b| b.is_ascii_digit()) {
            return Err(refusal(
                at,
                "infBPe/@Id",
                format!("`{}`: a chave de acesso do BP-e tem 44 dígitos", self.id),
            ));
        }
        if self.line.trim().is_empty() {
            return Err(refusal(
                at,
                "infViagem/prefixo",
                "o BP-e não diz o prefixo da linha",
            ));
        }
        let departs = moment_of(self.departs.trim())
            .map_err(|reason| refusal(at, "infViagem/dhViagem", reason))?;
        let seat = seat_of(self.seat.trim()).map_err(|r| refusal(at, "infViagem/poltrona", r))?;
        let fare = fare_of(self.fare.trim()).map_err(|r| refusal(at, "infValorBPe/vBP", r))?;
        let has = |s: &str| !s.trim().is_empty();
        // An electronic ticket is issued and printed by the carrier itself:
        // its name is the "denominação" (BP-e) and it has no other printer.
        let shown = [
            ("transportadora", has(&self.cnpj) && has(&self.carrier)),
            ("data_emissao", has(&self.issued)),
            ("denominacao", true),
            ("preco", has(&self.fare)),
            ("numero_serie", has(&self.number)),
            (
                "origem_destino",
                has(&self.origin) && has(&self.destination),
            ),
            ("linha", true),
            ("data_horario", true),
            ("poltrona", seat.is_some()),
            ("passageiro", has(&self.passenger)),
            ("impressora", true),
        ]
        .into_iter()
        .filter_map(|(item, shows)| shows.then_some(item))
        .collect();
        Ok(TicketRow {
            at,
            key,
            line: self.line.trim().to_uppercase(),
            departs,
            origin: self.origin.trim().to_string(),
            destination: self.destination.trim().to_string(),
            seat,
            fare,
            discount: discount_name(self.discount.trim()).to_string(),
            cnpj: has(&self.cnpj).then(|| self.cnpj.trim().to_string()),
            shown,
        })
    }
}

/// The BP-e's discount codes (`tpDesconto`) as people read them.
fn discount_name(code: &str) -> &str {
    match code {
        "01" => "tarifa promocional",
        "02" => "idoso",
        "03" => "criança",
        "04" => "pessoa com deficiência",
        "05" => "estudante",
        "06" => "animal doméstico",
        "07" => "acordo coletivo",
        "08" => "profissional em deslocamento",
        "09" => "profissional da empresa",
        "10" => "jovem",
        "99" => "outro",
        other => other,
    }
}

/// The tickets of a BP-e XML file (any number of `<BPe>`, wrapped in any
/// root), and every ticket refused.
pub fn from_bpe(
    name: &str,
    bytes: &[u8],
) -> Result<(Vec<TicketRow>, Vec<Refusal>), crate::StoreError> {
    let text =
        std::str::from_utf8(bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)).map_err(|e| {
            crate::StoreError::Invalid {
                field: "arquivo",
                reason: format!(
                    "{name}: o XML do BP-e está em UTF-8; o byte {} não é",
                    e.valid_up_to()
                ),
            }
        })?;
    let mut reader = quick_xml::Reader::from_str(text);
    let mut path: Vec<String> = Vec::new();
    let mut current: Option<Bpe> = None;
    let (mut tickets, mut refused) = (Vec::new(), Vec::new());
    // Lines counted up to `counted` bytes, so each byte is counted once.
    let (mut counted, mut line) = (0usize, 1u64);
    let mut line_at = |pos: usize| {
        let end = pos.min(text.len());
        if end > counted {
            line += text.as_bytes()[counted..end]
                .iter()
                .filter(|b| **b == b'\n')
                .count() as u64;
            counted = end;
        }
        line
    };
    loop {
        let before = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        let event = reader.read_event().map_err(|e| {
            let at = line_at(usize::try_from(reader.error_position()).unwrap_or(usize::MAX));
            crate::StoreError::Invalid {
                field: "arquivo",
                reason: format!("{name}:{at}: não é XML bem formado ({e})"),
            }
        })?;
        match event {
            Event::Start(e) => {
                let local = e.local_name().as_ref().to_string();
                if local == "infBPe" {
                    let id = e
                        .try_get_attribute("Id")
                        .ok()
                        .flatten()
                        .map(|a| a.value.trim().to_string())
                        .unwrap_or_default();
                    current = Some(Bpe {
                        at: line_at(before),
                        id,
                        ..Bpe::default()
                    });
                }
                path.push(local);
            }
            Event::End(_) => {
                if path.pop().as_deref() == Some("infBPe")
                    && let Some(bpe) = current.take()
                {
                    match bpe.ticket() {
                        Ok(t) => tickets.push(t),
                        Err(r) => refused.push(r),
                    }
                }
            }
            Event::Text(t) => {
                if let Some(slot) = current.as_mut().and_then(|b| b.slot(&path)) {
                    slot.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(r) => {
                if let Some(slot) = current.as_mut().and_then(|b| b.slot(&path)) {
                    match r.resolve_char_ref() {
                        Ok(Some(c)) => slot.push(c),
                        _ => slot.push_str(
                            quick_xml::escape::resolve_predefined_entity(&r).unwrap_or(""),
                        ),
                    }
                }
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if tickets.is_empty() && refused.is_empty() {
        return Err(crate::StoreError::Invalid {
            field: "arquivo",
            reason: format!("{name}: nenhum <infBPe> no arquivo; envie o XML dos BP-e (modelo 63)"),
        });
    }
    Ok((tickets, refused))
}
