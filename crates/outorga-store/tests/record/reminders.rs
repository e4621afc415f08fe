//! The e-mail reminders' outbox on the demo's records: a deadline the
//! agenda knows is planned a week before it (and again the day before),
//! for the person who acts on it, once however often (or on however many
//! servers) it is planned; a claim is one server's until its lease ends;
//! what was sent is recorded.

use crate::common::{drop_schema, library, pg_schema, with_demo};
use chrono::{Days, Duration};
use outorga_store::{Site, sqlite_url};

const J: &str = "cangucu";

async fn outbox(url: &str) {
    let library = library();
    let store = with_demo(url, &library).await;
    let rulebooks: Vec<_> = library
        .rulebooks()
        .filter(|r| r.jurisdiction.id == J)
        .collect();
    let site = Site {
        authority: "Prefeitura de Canguçu",
        url: "https://transporte.example.org",
    };
    let start = crate::common::by().at;
    // The first day something of the demo falls due within a week.
    let mut found = None;
    for ahead in 0..40 {
        let today = start.date() + Days::new(ahead);
        let now = today.and_hms_opt(8, 0, 0).expect("time");
        let planned = store
            .plan_reminders(&rulebooks, J, (today, now), &site)
            .await
            .expect("plan");
        if planned > 0 {
            found = Some((today, now, planned));
            break;
        }
    }
    let (today, now, planned) = found.expect("a deadline within 40 days");
    let listed = store.reminders(J, 100).await.expect("list");
    assert_eq!(listed.len(), planned);
    for m in &listed {
        // A week ahead at most, the nearest lead (no late seven-day one).
        let left = (m.due_on - today).num_days();
        assert!((0..=7).contains(&left), "{m:?}");
        assert!(m.recipient.ends_with("@example.org"), "{m:?}");
        assert!(m.title.starts_with("Lembrete: "), "{m:?}");
        assert!(m.sent_at.is_none() && m.attempts == 0);
    }
    // Planned again (another server, the next round): nothing new.
    let again = store
        .plan_reminders(&rulebooks, J, (today, now), &site)
        .await
        .expect("plan again");
    assert_eq!(again, 0);

    // One server claims them; another at once finds none.
    let lease = Duration::minutes(10);
    let first = store
        .claim_reminders(now, lease, 1000)
        .await
        .expect("claim");
    assert_eq!(first.len(), planned);
    let body = &first[0].body;
    for expected in [
        "Olá, ",
        "Prefeitura de Canguçu lembra: ",
        "https://transporte.example.org/titular",
    ] {
        assert!(body.contains(expected), "{expected}: {body}");
    }
    let other = store
        .claim_reminders(now + Duration::minutes(1), lease, 1000)
        .await
        .expect("claim");
    assert!(other.is_empty(), "{other:?}");
    // The first is sent; the rest failed. When the lease ends, another
    // server takes over what was not sent, never what was.
    store
        .reminder_outcome(&first[0].key, now, None)
        .await
        .expect("sent");
    for m in &first[1..] {
        store
            .reminder_outcome(&m.key, now, Some("550 caixa cheia"))
            .await
            .expect("failed");
    }
    let later = store
        .claim_reminders(now + lease, lease, 1000)
        .await
        .expect("claim after the lease");
    assert_eq!(later.len(), planned - 1);
    assert!(later.iter().all(|m| m.key != first[0].key));
    let recorded = store.reminders(J, 100).await.expect("list");
    let sent = recorded
        .iter()
        .find(|m| m.key == first[0].key)
        .expect("the sent one");
    assert_eq!(sent.sent_at, Some(now));
    if let Some(failed) = recorded.iter().find(|m| m.key != first[0].key) {
        assert_eq!(failed.last_error.as_deref(), Some("550 caixa cheia"));
        assert_eq!(failed.attempts, 2);
    }
    // Tried five times at most (MAX_ATTEMPTS), then given up: its last
    // error stays recorded.
    let mut at = now + lease;
    for attempt in 3..=5 {
        at += lease;
        let again = store
            .claim_reminders(at, lease, 1000)
            .await
            .expect("claim again");
        assert_eq!(again.len(), planned - 1, "attempt {attempt}");
    }
    let given_up = store
        .claim_reminders(at + lease, lease, 1000)
        .await
        .expect("claim after the last attempt");
    assert!(given_up.is_empty(), "{given_up:?}");

    // The day after a deadline, nothing more is planned for it.
    let due = listed[0].due_on;
    let after = due + Days::new(1);
    store
        .plan_reminders(
            &rulebooks,
            J,
            (after, after.and_hms_opt(8, 0, 0).expect("time")),
            &site,
        )
        .await
        .expect("plan after");
    let keys: Vec<_> = store
        .reminders(J, 1000)
        .await
        .expect("list")
        .into_iter()
        .filter(|m| m.record == listed[0].record && m.due_on == due)
        .collect();
    assert!(keys.len() <= 2, "one per lead at most: {keys:?}");
}

#[tokio::test]
async fn outbox_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    outbox(&sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn outbox_on_postgresql() {
    let (schema, url) = pg_schema("reminders").await;
    outbox(&url).await;
    drop_schema(&schema).await;
}
