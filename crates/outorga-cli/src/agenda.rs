//! `outorga agenda`: what falls due in a jurisdiction, or is overdue.

use crate::rulebooks::{load, rulebooks_folder};
use crate::users::DatabaseArgs;
use anyhow::bail;
use chrono::NaiveDate;
use std::path::PathBuf;
use std::process::ExitCode;

/// Prints the agenda of `jurisdiction` from `date` (default today) to
/// `days` later: one line per item, overdue ones marked.
pub fn agenda(
    database: &DatabaseArgs,
    rulebooks: Option<PathBuf>,
    jurisdiction: &str,
    (date, days): (Option<NaiveDate>, u32),
) -> anyhow::Result<ExitCode> {
    let library = match load(&rulebooks_folder(rulebooks)?) {
        Ok(library) => library,
        Err(code) => return Ok(code),
    };
    let own: Vec<_> = library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == jurisdiction)
        .collect();
    if own.is_empty() {
        bail!("no rulebook is bound to the jurisdiction `{jurisdiction}`");
    }
    let today = date.unwrap_or_else(|| chrono::Local::now().date_naive());
    crate::db::runtime()?.block_on(async {
        let store = database.open().await?;
        let items = store.agenda(jurisdiction, &own, today, days).await?;
        println!(
            "agenda de {jurisdiction}: {today} a {days} dias — {} item(ns)",
            items.len()
        );
        for item in &items {
            let late = if item.overdue { "VENCIDO " } else { "" };
            let cited = if item.articles.is_empty() {
                String::new()
            } else {
                format!(" [{}]", item.articles.join("; "))
            };
            println!(
                "{} {late}{:<20} {:<24} {}{cited}",
                item.due, item.kind, item.subject, item.description
            );
        }
        Ok(ExitCode::SUCCESS)
    })
}
