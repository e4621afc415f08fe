//! The idle limit of web sessions: the last use, written at most once a
//! minute and kept out of the audit log, decides when a session is idle;
//! it goes with its session; the log and the records still verify.

use crate::common::{by, drop_schema, open, pg_schema};
use chrono::{Duration, NaiveDateTime};
use outorga_store::{Activity, Change, Role, Scope, SignIn, Store};

const PASSWORD: &str = "uma senha bem longa 42";

async fn opened(store: &Store, at: NaiveDateTime) -> String {
    let client = "192.0.2.7".parse().expect("address");
    match store
        .sign_in("ana", PASSWORD, client, at, at + Duration::hours(12))
        .await
        .expect("sign in")
    {
        SignIn::Opened(session) => session.token,
        other => panic!("not opened: {other:?}"),
    }
}

async fn check(url: &str) {
    let store = open(url).await;
    store
        .create_user(&by(), "ana", Role::Clerk, PASSWORD, &Scope::All)
        .await
        .expect("user");
    let t0 = by().at;
    let idle = Duration::minutes(30);
    let at = |seconds: i64| t0 + Duration::seconds(seconds);
    let token = opened(&store, t0).await;
    let activity = |s: i64| store.session_activity(&token, at(s), idle);

    // A use 30 s after the last recorded one is not written: 30 minutes
    // after the sign-in the session is idle.
    assert_eq!(activity(30).await.expect("use"), Activity::Active);
    assert_eq!(activity(30 * 60).await.expect("use"), Activity::Idle);

    // A use more than a minute after the last is written: the limit counts
    // from it.
    let token = opened(&store, t0).await;
    let activity = |s: i64| store.session_activity(&token, at(s), idle);
    assert_eq!(activity(61).await.expect("use"), Activity::Active);
    assert_eq!(
        activity(61 + 30 * 60 - 1).await.expect("use"),
        Activity::Active
    );
    // ... and a use from a server whose clock is behind moves nothing back.
    assert_eq!(activity(120).await.expect("use"), Activity::Active);
    assert_eq!(
        activity(61 + 30 * 60 - 1 + 30 * 60).await.expect("use"),
        Activity::Idle
    );

    // Closed, the session's last use goes with it; the log and every
    // record still verify (the activity is not a record).
    let change = Change {
        by: "ana",
        at: at(4000),
        why: "sessão encerrada por inatividade",
    };
    assert!(store.close_session(&change, &token).await.expect("close"));
    let report = store.verify_audit().await.expect("verify");
    assert!(report.problems.is_empty(), "{:?}", report.problems);
}

#[tokio::test]
async fn session_activity_on_sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    check(&outorga_store::sqlite_url(dir.path()).expect("url")).await;
}

#[tokio::test]
async fn session_activity_on_postgresql() {
    let (schema, url) = pg_schema("activity").await;
    check(&url).await;
    drop_schema(&schema).await;
}
