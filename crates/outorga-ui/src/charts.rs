//! The panel's charts, drawn on the server as SVG (`grafico.html`): autos
//! per month by the infraction's group, permits by status, the fleet's ages
//! against the law's limit and what falls due per week. Each is a column
//! chart (stacked when it has several series) with its title and a
//! description for screen readers, the value above each column, a pattern
//! per series besides its colour (nothing told by colour alone) and its
//! numbers in a table. The counts are the store's aggregates
//! (`panel_stats.rs`); here they only become geometry.

use crate::format;
use chrono::{Datelike, Months, NaiveDate};
use outorga_core::model::{PermitStatus, Rulebook};
use outorga_store::{FleetAges, MonthCount, WeekCount};

/// The drawing's size (the SVG scales to its box) and the plot's margins.
const WIDTH: u32 = 480;
const HEIGHT: u32 = 230;
const LEFT: u32 = 40;
const RIGHT: u32 = 12;
const TOP: u32 = 28;
const BOTTOM: u32 = 40;

/// The series' colours, each at least 4.5:1 against white, and the
/// pattern each is filled with (`grafico.html` draws them).
const STYLES: [(&str, &str); 6] = [
    ("#1351b4", "cheio"),
    ("#a34400", "listras"),
    ("#0c6b12", "pontos"),
    ("#6a1b9a", "xadrez"),
    ("#333333", "horizontais"),
    ("#8a1538", "verticais"),
];

const MONTHS: [&str; 12] = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
];

#[derive(Debug)]
pub(crate) struct Series {
    pub name: String,
    /// The pattern's element id (unique in the page).
    pub pattern: String,
    pub colour: &'static str,
    pub kind: &'static str,
}

#[derive(Debug)]
pub(crate) struct Rect {
    pub x: u32,
    pub y: u32,
    pub w: u32,
    pub h: u32,
    /// The series' pattern id and colour.
    pub pattern: String,
    pub colour: &'static str,
    pub tip: String,
}

#[derive(Debug)]
pub(crate) struct TableRow {
    pub name: String,
    pub values: Vec<u64>,
    pub total: u64,
}

#[derive(Debug)]
pub(crate) struct Label {
    pub x: u32,
    pub y: u32,
    pub text: String,
}

/// One column chart, laid out.
#[derive(Debug)]
pub(crate) struct Chart {
    pub id: String,
    pub title: String,
    pub desc: String,
    /// The head of the table's first column.
    pub category: &'static str,
    /// Each category: its name in the table, its values per series and
    /// their total.
    pub rows: Vec<TableRow>,
    pub series: Vec<Series>,
    pub note: Option<String>,
    pub width: u32,
    pub height: u32,
    pub rects: Vec<Rect>,
    /// The y axis' gridlines and their values.
    pub ticks: Vec<Label>,
    pub axis: Label,
    pub below: Vec<Label>,
    pub totals: Vec<Label>,
    /// A dashed line (x) with its label, as the fleet's age limit.
    pub marker: Option<Label>,
}

impl Chart {
    pub(crate) fn stacked(&self) -> bool {
        self.series.len() > 1
    }
}

/// A step of the y axis that gives at most about four gridlines.
fn step(max: u64) -> u64 {
    if max <= 4 {
        return 1;
    }
    let raw = max.div_ceil(4);
    let mut magnitude = 1;
    while magnitude * 10 <= raw {
        magnitude *= 10;
    }
    [1, 2, 5, 10]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(raw)
}

/// Lays out `rows` (each with an axis label) as columns; `marker` draws
/// a line after the category of that index, with its text.
fn chart(
    (id, title, category): (String, String, &'static str),
    series: &[String],
    rows: Vec<(String, String, Vec<u64>)>,
    marker: Option<(usize, String)>,
) -> Chart {
    let totals: Vec<u64> = rows.iter().map(|(_, _, v)| v.iter().sum()).collect();
    let max = totals.iter().copied().max().unwrap_or(0);
    let step = step(max);
    let top = step * max.div_ceil(step).max(1);
    let plot = HEIGHT - TOP - BOTTOM;
    let y_of = |v: u64| TOP + plot - u32::try_from(v * u64::from(plot) / top).unwrap_or(plot);
    let slot = (WIDTH - LEFT - RIGHT) / u32::try_from(rows.len().max(1)).unwrap_or(1);
    let bar = (slot * 7 / 10).max(2);
    // A label wider than its column (about 7 px a character) alternates
    // with its neighbours between two lines.
    let crowded = slot < 60
        || rows.iter().any(|(short, _, _)| {
            u32::try_from(short.chars().count()).unwrap_or(u32::MAX) * 7 > slot
        });
    let mut rects = Vec::new();
    let mut below = Vec::new();
    let mut on_top = Vec::new();
    for (i, (short, full, values)) in rows.iter().enumerate() {
        let x = LEFT + slot * u32::try_from(i).unwrap_or(0);
        let mut base = 0;
        for (s, v) in values.iter().enumerate() {
            if *v == 0 {
                continue;
            }
            let (y0, y1) = (y_of(base), y_of(base + v));
            rects.push(Rect {
                x: x + (slot - bar) / 2,
                y: y1,
                w: bar,
                h: (y0 - y1).max(1),
                pattern: format!("{id}-p{s}"),
                colour: STYLES[s % STYLES.len()].0,
                tip: format!("{full}: {} — {v}", series[s]),
            });
            base += v;
        }
        let stagger = if crowded && i % 2 == 1 { 14 } else { 0 };
        below.push(Label {
            x: x + slot / 2,
            y: HEIGHT - BOTTOM + 16 + stagger,
            text: short.clone(),
        });
        on_top.push(Label {
            x: x + slot / 2,
            y: y_of(totals[i]).saturating_sub(4),
            text: totals[i].to_string(),
        });
    }
    let ticks = (0..=top / step)
        .map(|k| Label {
            x: LEFT - 6,
            y: y_of(k * step),
            text: (k * step).to_string(),
        })
        .collect();
    let total: u64 = totals.iter().sum();
    let largest = rows
        .iter()
        .zip(&totals)
        .filter(|(_, t)| **t == max && max > 0)
        .map(|((_, full, _), _)| full.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let desc = if total == 0 {
        format!("{title}: nenhum no período. Os números estão na tabela a seguir.")
    } else {
        format!(
            "{title}: {total} no total; o maior valor, {max}, em {largest}. Os números estão na \
             tabela a seguir."
        )
    };
    Chart {
        series: series
            .iter()
            .enumerate()
            .map(|(s, name)| {
                let (colour, kind) = STYLES[s % STYLES.len()];
                Series {
                    name: name.clone(),
                    pattern: format!("{id}-p{s}"),
                    colour,
                    kind,
                }
            })
            .collect(),
        marker: marker.map(|(after, text)| Label {
            x: LEFT + slot * u32::try_from(after + 1).unwrap_or(0),
            y: TOP - 12,
            text,
        }),
        axis: Label {
            x: LEFT,
            y: TOP + plot,
            text: String::new(),
        },
        id,
        title,
        desc,
        category,
        rows: rows
            .into_iter()
            .zip(&totals)
            .map(|((_, name, values), total)| TableRow {
                name,
                values,
                total: *total,
            })
            .collect(),
        note: None,
        width: WIDTH,
        height: HEIGHT,
        rects,
        ticks,
        below,
        totals: on_top,
    }
}

/// The name of a month (`YYYY-MM`) and its axis label (`nov/26`).
fn month_names(first: NaiveDate, k: u32) -> Option<(String, String, String)> {
    let month = first.checked_add_months(Months::new(k))?;
    let name = MONTHS[month.month0() as usize];
    Some((
        format!("{:04}-{:02}", month.year(), month.month()),
        format!("{}/{:02}", &name[..3], month.year() % 100),
        format!("{name} de {}", month.year()),
    ))
}

/// The first day of the month eleven months before `today`'s: the first
/// of the twelve months the autos chart shows.
pub(crate) fn twelve_months_from(today: NaiveDate) -> NaiveDate {
    today
        .with_day(1)
        .and_then(|d| d.checked_sub_months(Months::new(11)))
        .unwrap_or(today)
}

/// Autos per month of the last twelve, stacked by the infraction's group
/// (its rulebook's name for it; "sem grupo" when the law gives none).
pub(crate) fn autos(
    id: String,
    rulebooks: &[&Rulebook],
    today: NaiveDate,
    counts: &[MonthCount],
) -> Chart {
    let first = twelve_months_from(today);
    let group_of = |c: &MonthCount| {
        rulebooks
            .iter()
            .find(|r| r.id == c.rulebook)
            .and_then(|r| {
                let infraction = r.infraction_index.get(&c.infraction)?;
                let group = r.infractions[infraction.0 as usize].group?;
                Some(r.group(group).name.clone())
            })
            .unwrap_or_else(|| "sem grupo".to_string())
    };
    let mut groups: Vec<String> = Vec::new();
    for c in counts {
        let g = group_of(c);
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    groups.sort();
    if groups.is_empty() {
        groups.push("autos".to_string());
    }
    let rows = (0..12)
        .filter_map(|k| month_names(first, k))
        .map(|(key, short, full)| {
            let mut values = vec![0; groups.len()];
            for c in counts.iter().filter(|c| c.month == key) {
                if let Some(g) = groups.iter().position(|g| *g == group_of(c)) {
                    values[g] += c.count;
                }
            }
            (short, full, values)
        })
        .collect();
    chart(
        (
            id,
            "Autos de infração por mês, por grupo da infração".into(),
            "Mês",
        ),
        &groups,
        rows,
        None,
    )
}

/// Permits by their recorded status, every status of the law shown.
pub(crate) fn permits(id: String, counts: &[(String, u64)]) -> Chart {
    let rows = PermitStatus::ALL
        .iter()
        .map(|status| {
            let n = counts
                .iter()
                .filter(|(s, _)| s == status.name())
                .map(|(_, n)| n)
                .sum();
            let name = status.portuguese().to_string();
            (name.clone(), name, vec![n])
        })
        .collect();
    chart(
        (id, "Permissões por situação".into(), "Situação"),
        &["permissões".to_string()],
        rows,
        None,
    )
}

/// The fleet serving one rulebook's permits by age, against the age its
/// replacement rule sets: within it, reaching it this year, past it.
pub(crate) fn fleet(id: String, rulebook: &Rulebook, ages: &FleetAges) -> Option<Chart> {
    if ages.ages.is_empty() && ages.limit.is_none() {
        return None;
    }
    let limit = ages
        .limit
        .as_ref()
        .map(|(age, _)| i32::try_from(*age).unwrap_or(i32::MAX));
    let oldest = ages.ages.iter().map(|(a, _)| *a).max().unwrap_or(0);
    let youngest = ages.ages.iter().map(|(a, _)| *a).min().unwrap_or(0).min(0);
    let last = oldest.max(limit.map_or(0, |l| l + 1)).min(youngest + 40);
    let rows = (youngest..=last)
        .map(|age| {
            let n: u64 = ages
                .ages
                .iter()
                .filter(|(a, _)| *a == age)
                .map(|(_, n)| n)
                .sum();
            let mut values = vec![0; if limit.is_some() { 3 } else { 1 }];
            let at = match limit {
                Some(l) if age > l => 2,
                Some(l) if age == l => 1,
                _ => 0,
            };
            values[at] = n;
            let full = if age == 1 {
                "1 ano".to_string()
            } else {
                format!("{age} anos")
            };
            (age.to_string(), full, values)
        })
        .collect();
    let service = rulebook
        .services
        .iter()
        .map(|s| s.portuguese())
        .collect::<Vec<_>>()
        .join(", ");
    let (series, marker, note) = match &ages.limit {
        Some((age, citation)) => (
            vec![
                "abaixo do limite".to_string(),
                "atinge o limite este ano".to_string(),
                "acima do limite".to_string(),
            ],
            usize::try_from(i32::try_from(*age).unwrap_or(0) - youngest)
                .ok()
                .map(|at| (at, format!("limite: {age} anos"))),
            Some(format!(
                "A lei manda substituir o veículo ao atingir {age} anos de fabricação ({citation})."
            )),
        ),
        None => (
            vec!["veículos".to_string()],
            None,
            Some("O regulamento não fixa idade máxima para o veículo em serviço.".to_string()),
        ),
    };
    let mut drawn = chart(
        (
            id,
            format!("Idade da frota em serviço — {service}"),
            "Idade (anos de fabricação)",
        ),
        &series,
        rows,
        marker,
    );
    drawn.note = note;
    Some(drawn)
}

/// What falls due per week from today's on.
pub(crate) fn due(id: String, weeks: &[WeekCount]) -> Chart {
    let rows = weeks
        .iter()
        .map(|w| {
            let sunday = w.monday + chrono::Days::new(6);
            (
                w.monday.format("%d/%m").to_string(),
                format!("{} a {}", format::day(w.monday), format::day(sunday)),
                vec![w.count],
            )
        })
        .collect();
    let mut drawn = chart(
        (
            id,
            format!(
                "O que vence por semana, nas próximas {} semanas",
                weeks.len()
            ),
            "Semana",
        ),
        &["vencimentos".to_string()],
        rows,
        None,
    );
    drawn.note = Some(
        "Conta os prazos e vencimentos da agenda de hoje em diante (os já vencidos e o que está \
         fora de serviço hoje estão na agenda abaixo)."
            .to_string(),
    );
    drawn
}

/// Weeks the chart of what falls due shows.
const WEEKS: u32 = 8;

/// The charts of one jurisdiction's panel (`prefix` keeps their ids
/// unique in the page): four aggregate reads of the store.
pub(crate) async fn of_jurisdiction(
    store: &outorga_store::Store,
    (j, prefix): (&str, &str),
    rulebooks: &[&Rulebook],
    today: NaiveDate,
) -> Result<Vec<Chart>, outorga_store::StoreError> {
    let autos_counted = store.autos_per_month(j, twelve_months_from(today)).await?;
    let permits_counted = store.permits_per_status(j).await?;
    let fleets = store.fleet_ages(j, rulebooks, today).await?;
    let weeks = store.due_per_week(j, rulebooks, today, WEEKS).await?;
    let mut out = vec![
        autos(format!("{prefix}-autos"), rulebooks, today, &autos_counted),
        permits(format!("{prefix}-permissoes"), &permits_counted),
    ];
    for (k, (rulebook, ages)) in rulebooks.iter().zip(&fleets).enumerate() {
        out.extend(fleet(format!("{prefix}-frota{k}"), rulebook, ages));
    }
    out.push(due(format!("{prefix}-vencimentos"), &weeks));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round() {
        assert_eq!(step(3), 1);
        assert_eq!(step(10), 5);
        assert_eq!(step(37), 10);
        assert_eq!(step(180), 50);
        assert_eq!(step(10_000), 5_000);
    }

    #[test]
    fn months_in_portuguese() {
        let first = twelve_months_from(NaiveDate::from_ymd_opt(2026, 11, 30).expect("day"));
        assert_eq!(first, NaiveDate::from_ymd_opt(2025, 12, 1).expect("day"));
        let (key, short, full) = month_names(first, 3).expect("month");
        assert_eq!(
            (key.as_str(), short.as_str(), full.as_str()),
            ("2026-03", "mar/26", "março de 2026")
        );
    }
}
