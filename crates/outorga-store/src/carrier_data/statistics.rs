//! A carrier's monthly statistics as CSV: one row per trip made and section,
//! with the vehicle and the passengers carried on it (Amapá art. 25: the
//! agency's free access to the operational data; art. 44, parágrafo único:
//! the statistics semi-urban lines must still allow). The rows of one trip
//! (line and departure) make one trip.

use super::rows::{Refusal, moment_of};
use chrono::NaiveDateTime;
use std::collections::BTreeMap;

/// A trip made, as the statistics give it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TripRow {
    /// The file's line where the trip first appears.
    pub at: u64,
    pub line: String,
    pub departs: NaiveDateTime,
    pub plate: String,
    pub sections: Vec<SectionCount>,
}

/// Passengers carried between two places of a trip.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SectionCount {
    pub from: String,
    pub to: String,
    pub passengers: u32,
}

impl TripRow {
    pub fn passengers(&self) -> u32 {
        self.sections.iter().map(|s| s.passengers).sum()
    }
}

/// The columns, all required.
pub const CSV_COLUMNS: [(&str, &str); 6] = [
    ("linha", "o prefixo da linha"),
    ("partida", "data e hora da viagem, AAAA-MM-DD HH:MM"),
    ("placa", "a placa do ônibus que fez a viagem"),
    ("origem", "onde os passageiros embarcaram"),
    ("destino", "onde desembarcaram"),
    ("passageiros", "quantos passageiros, nesse trecho"),
];

/// The trips of a statistics file, and every row refused.
pub fn from_csv(
    name: &str,
    bytes: &[u8],
) -> Result<(Vec<TripRow>, Vec<Refusal>), crate::StoreError> {
    let table = crate::import::table::read(name, bytes)?;
    let mut index = [0usize; 6];
    for (slot, (wanted, _)) in index.iter_mut().zip(CSV_COLUMNS) {
        *slot = table
            .header
            .iter()
            .position(|h| h.to_lowercase() == wanted)
            .ok_or_else(|| crate::StoreError::Invalid {
                field: "arquivo",
                reason: format!(
                    "{name}:1: falta a coluna `{wanted}`; as colunas são: {}",
                    CSV_COLUMNS.map(|(c, _)| c).join(", ")
                ),
            })?;
    }
    let mut trips: BTreeMap<(String, NaiveDateTime), TripRow> = BTreeMap::new();
    let mut refused = Vec::new();
    let refuse = |at: u64, field: &str, reason: String| Refusal {
        line: at,
        field: field.to_string(),
        reason,
    };
    for (at, cells) in &table.rows {
        let cell = |n: usize| cells.get(index[n]).map_or("", String::as_str);
        let line = cell(0).to_uppercase();
        if line.is_empty() {
            refused.push(refuse(*at, "linha", "a viagem não diz a linha".into()));
            continue;
        }
        let departs = match moment_of(cell(1)) {
            Ok(d) => d,
            Err(reason) => {
                refused.push(refuse(*at, "partida", reason));
                continue;
            }
        };
        let plate = match crate::parse_plate(cell(2)) {
            Ok(p) => p,
            Err(e) => {
                refused.push(refuse(
                    *at,
                    "placa",
                    e.bad_input().map_or(e.to_string(), |b| b.1.to_string()),
                ));
                continue;
            }
        };
        let (from, to) = (cell(3).to_string(), cell(4).to_string());
        if from.is_empty() || to.is_empty() {
            refused.push(refuse(
                *at,
                "origem",
                "diga onde embarcaram e onde desembarcaram".into(),
            ));
            continue;
        }
        let Ok(passengers) = cell(5).parse::<u32>() else {
            refused.push(refuse(
                *at,
                "passageiros",
                format!(
                    "`{}`: escreva quantos passageiros, um número inteiro",
                    cell(5)
                ),
            ));
            continue;
        };
        let trip = trips
            .entry((line.clone(), departs))
            .or_insert_with(|| TripRow {
                at: *at,
                line,
                departs,
                plate: plate.clone(),
                sections: Vec::new(),
            });
        if trip.plate != plate {
            refused.push(refuse(
                *at,
                "placa",
                format!(
                    "a viagem de {} já foi informada com o ônibus {} (linha {})",
                    departs.format("%d/%m/%Y %H:%M"),
                    trip.plate,
                    trip.at
                ),
            ));
            continue;
        }
        trip.sections.push(SectionCount {
            from,
            to,
            passengers,
        });
    }
    Ok((trips.into_values().collect(), refused))
}
