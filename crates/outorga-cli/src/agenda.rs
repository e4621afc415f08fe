//! `outorga agenda`: what falls due in a jurisdiction, or is overdue.

use crate::rulebooks::{load, rulebooks_folder};
use crate::users::DatabaseArgs;
use anyhow::bail;
use chrono::NaiveDate;
use outorga_store::{Cursor, Window};
use std::path::PathBuf;

/// Items read from the store at a time.
const PAGE: u32 = 200;
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
        bail!("nenhum regulamento se aplica à jurisdição `{jurisdiction}`");
    }
    let today = date.unwrap_or_else(|| chrono::Local::now().date_naive());
    crate::db::runtime()?.block_on(async {
        let store = database.open().await?;
        println!("agenda de {jurisdiction}: {today} a {days} dias");
        // Read a page at a time and printed as it comes.
        let mut after: Option<Cursor> = None;
        let mut count = 0;
        loop {
            let window = Window {
                limit: PAGE,
                after: after.as_ref(),
            };
            let page = store
                .agenda(jurisdiction, &own, (today, days), window)
                .await?;
            for item in &page.items {
                let late = if item.overdue { "VENCIDO " } else { "" };
                let cited = if item.articles.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", item.articles.join("; "))
                };
                println!(
                    "{} {late}{:<28} {:<32} {}{cited}",
                    item.due,
                    item.kind_name(),
                    item.record_name(),
                    item.description
                );
            }
            count += page.items.len();
            match page.next {
                Some(next) => after = Some(next),
                None => break,
            }
        }
        println!("{count} item(ns)");
        Ok(ExitCode::SUCCESS)
    })
}
