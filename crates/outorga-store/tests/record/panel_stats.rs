//! The panel's aggregates on the demo's records, on both backends: autos
//! per month and infraction, permits by status and the fleet's ages agree
//! with counting the rows one by one; what falls due per week agrees with
//! the agenda's own items over the same days.

use crate::common::{admin, by, drop_schema, library, pg_schema, with_demo};
use chrono::{Datelike, Days};
use outorga_store::{Window, sqlite_url};
use sqlx::Row;

const J: &str = "santa-maria-de-jetiba";

async fn one_number(url: &str, sql: &str) -> u64 {
    let rows = admin(url, sql.to_string()).await;
    let n: i64 = rows[0].try_get(0).expect("a count");
    u64::try_from(n).expect("not negative")
}

async fn aggregates_agree(url: &str) {
    let library = library();
    let store = with_demo(url, &library).await;
    let today = by().at.date();
    let rulebooks: Vec<_> = library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == J)
        .collect();

    // Autos per month and infraction: every auto since the day, each once.
    let from = today.with_day(1).expect("day") - chrono::Months::new(11);
    let months = store.autos_per_month(J, from).await.expect("autos");
    let total: u64 = months.iter().map(|m| m.count).sum();
    let counted = one_number(
        url,
        &format!(
            "SELECT COUNT(*) FROM autos WHERE jurisdiction = '{J}' AND committed_at >= '{from}'"
        ),
    )
    .await;
    assert!(total > 0, "the demo has autos in the last months");
    assert_eq!(total, counted);
    assert!(months.iter().all(|m| m.month.len() == 7
        && *m.month >= from.to_string()[..7]
        && m.rulebook == "santa-maria-de-jetiba/taxi"
        && rulebooks[0].infraction_index.contains_key(&m.infraction)));

    // Permits by status.
    let statuses = store.permits_per_status(J).await.expect("permits");
    for (status, n) in &statuses {
        let counted = one_number(
            url,
            &format!(
                "SELECT COUNT(*) FROM permits WHERE jurisdiction = '{J}' AND status = '{status}'"
            ),
        )
        .await;
        assert_eq!(*n, counted, "{status}");
    }
    assert!(statuses.iter().any(|(s, n)| s == "granted" && *n > 0));

    // The fleet serving, by age, with the law's age limit (art. 19: 10
    // years — the rulebook's replacement rule).
    let fleets = store.fleet_ages(J, &rulebooks, today).await.expect("fleet");
    assert_eq!(fleets.len(), 1);
    let fleet = &fleets[0];
    let serving = one_number(
        url,
        &format!(
            "SELECT COUNT(*) FROM permit_vehicles pv JOIN permits p ON p.jurisdiction = \
             pv.jurisdiction AND p.service = pv.service AND p.number = pv.number WHERE \
             pv.jurisdiction = '{J}' AND pv.until IS NULL AND p.status IN ('granted', \
             'suspended', 'reserved')"
        ),
    )
    .await;
    assert!(serving > 0);
    assert_eq!(fleet.ages.iter().map(|(_, n)| n).sum::<u64>(), serving);
    let rule = rulebooks[0]
        .vehicles
        .replacement
        .as_ref()
        .expect("the taxi law sets an age");
    let (limit, citation) = fleet.limit.as_ref().expect("a limit");
    assert_eq!(citation, &rule.citation);
    assert!(*limit > 0);

    // What falls due per week: the agenda's items over the same days
    // (what is out of service and the thresholds aside).
    let weeks = store
        .due_per_week(J, &rulebooks, today, 8)
        .await
        .expect("weeks");
    assert_eq!(weeks.len(), 8);
    assert_eq!(weeks[0].monday.weekday(), chrono::Weekday::Mon);
    assert!(weeks[0].monday <= today && today < weeks[1].monday);
    let until = weeks[7].monday + Days::new(6);
    let horizon = u32::try_from((until - today).num_days()).expect("days");
    let mut listed = 0u64;
    let mut cursor = None;
    loop {
        let page = store
            .agenda(
                J,
                &rulebooks,
                (today, horizon),
                Window {
                    limit: 200,
                    after: cursor.as_ref(),
                },
            )
            .await
            .expect("agenda");
        listed += page
            .items
            .iter()
            .filter(|i| !i.overdue && i.kind != "out_of_service" && i.kind != "threshold")
            .count() as u64;
        match page.next {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let total: u64 = weeks.iter().map(|w| w.count).sum();
    assert_eq!(total, listed);
}

#[tokio::test]
async fn panel_aggregates_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = sqlite_url(dir.path()).expect("url");
    aggregates_agree(&url).await;
}

#[tokio::test]
async fn panel_aggregates_postgres() {
    let (schema, url) = pg_schema("panel").await;
    aggregates_agree(&url).await;
    drop_schema(&schema).await;
}
