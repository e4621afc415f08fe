//! `outorga reminders send` against a local SMTP sink started by the test:
//! the demo's deadlines reach the holders who gave an e-mail, in
//! Portuguese, with where to act; a second round (as a second server
//! would) sends nothing again; `outorga reminders list` shows each sent.

use std::io::{BufRead as _, BufReader, Write as _};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

/// A message the sink received.
#[derive(Debug, Clone)]
struct Mail {
    from: String,
    to: Vec<String>,
    data: String,
}

type Inbox = Arc<Mutex<Vec<Mail>>>;

/// An SMTP server that accepts every message and keeps it.
fn sink() -> (u16, Inbox) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().expect("address").port();
    let inbox: Inbox = Arc::new(Mutex::new(Vec::new()));
    let kept = inbox.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().map_while(Result::ok) {
            let kept = kept.clone();
            std::thread::spawn(move || converse(stream, &kept));
        }
    });
    (port, inbox)
}

fn converse(stream: TcpStream, inbox: &Inbox) {
    let Ok(mut out) = stream.try_clone() else {
        return;
    };
    let mut lines = BufReader::new(stream);
    let mut say = |text: &str| out.write_all(text.as_bytes()).is_ok();
    if !say("220 sink ESMTP\r\n") {
        return;
    }
    let (mut from, mut to) = (String::new(), Vec::new());
    loop {
        let mut line = String::new();
        if lines.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let upper = line.to_ascii_uppercase();
        let answer = if upper.starts_with("EHLO") {
            "250-sink\r\n250 8BITMIME\r\n".to_string()
        } else if upper.starts_with("MAIL FROM:") {
            from = line[10..].trim().to_string();
            "250 ok\r\n".into()
        } else if upper.starts_with("RCPT TO:") {
            to.push(line[8..].trim().to_string());
            "250 ok\r\n".into()
        } else if upper.starts_with("DATA") {
            if !say("354 go on\r\n") {
                return;
            }
            let mut data = String::new();
            loop {
                let mut part = String::new();
                if lines.read_line(&mut part).unwrap_or(0) == 0 {
                    return;
                }
                if part == ".\r\n" {
                    break;
                }
                data.push_str(&part);
            }
            inbox.lock().expect("inbox").push(Mail {
                from: std::mem::take(&mut from),
                to: std::mem::take(&mut to),
                data,
            });
            "250 kept\r\n".into()
        } else if upper.starts_with("QUIT") {
            say("221 bye\r\n");
            return;
        } else {
            "250 ok\r\n".into()
        };
        if !say(&answer) {
            return;
        }
    }
}

/// A quoted-printable text decoded.
fn quoted_printable(text: &str) -> String {
    let joined = text.replace("=\r\n", "");
    let bytes = joined.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'='
            && i + 2 < bytes.len()
            && let Ok(byte) = u8::from_str_radix(&joined[i + 1..i + 3], 16)
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn rulebooks() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../rulebooks")
}

/// `outorga reminders …` on the data folder: exit code and output.
fn reminders(data: &Path, args: &[&str]) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_outorga"))
        .arg("reminders")
        .args(args)
        .arg("--data")
        .arg(data)
        .env("OUTORGA_RULEBOOKS", rulebooks())
        .env_remove("OUTORGA_DATABASE_URL")
        .env_remove("OUTORGA_AUDIT_KEY")
        .output()
        .expect("the binary runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), said)
}

#[test]
fn the_demos_deadlines_reach_the_holders_by_email_once() {
    let data = tempfile::tempdir().expect("temp dir");
    // The demo's records, made by the server once.
    drop(crate::browser::serve(data.path()));
    let (port, inbox) = sink();
    let smtp = format!("smtp://127.0.0.1:{port}");
    let send = |on: &str| {
        reminders(
            data.path(),
            &[
                "send",
                "--smtp-url",
                &smtp,
                "--mail-from",
                "Transporte <transporte@example.org>",
                "--public-url",
                "https://transporte.exemplo.gov.br",
                "--on",
                on,
            ],
        )
    };
    // The first day, from today on, that something falls due within a week.
    let today = chrono::Utc::now().date_naive();
    let mut day = None;
    for ahead in 0..30 {
        let on = (today + chrono::Days::new(ahead)).to_string();
        let (code, said) = send(&on);
        assert_eq!(code, 0, "{said}");
        if !said.contains(" 0 enviados") {
            day = Some((on, said));
            break;
        }
    }
    let (on, said) = day.expect("something of the demo falls due within a month");
    let sent: usize = said
        .split(" planejados, ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("how many were sent");
    let mails = inbox.lock().expect("inbox").clone();
    assert_eq!(mails.len(), sent, "{said}");
    for mail in &mails {
        assert_eq!(mail.from, "<transporte@example.org>", "{mail:?}");
        assert!(
            mail.to.len() == 1 && mail.to[0].ends_with("@example.org>"),
            "{mail:?}"
        );
        let text = quoted_printable(&mail.data);
        for expected in [
            "Subject: ",
            "Olá, ",
            " lembra: ",
            "https://transporte.exemplo.gov.br/titular",
            "Se já resolveu, desconsidere",
        ] {
            assert!(text.contains(expected), "{expected}: {text}");
        }
    }
    // Again on the same day, as a second server would: nothing new.
    let (code, again) = send(&on);
    assert_eq!(code, 0, "{again}");
    assert!(again.contains("0 planejados, 0 enviados"), "{again}");
    assert_eq!(inbox.lock().expect("inbox").len(), sent);
    // Each is recorded as sent.
    let mut listed = 0;
    for j in ["cangucu", "santa-maria-de-jetiba", "teofilo-otoni", "amapa"] {
        let (code, list) = reminders(data.path(), &["list", j]);
        assert_eq!(code, 0, "{list}");
        listed += list.lines().filter(|l| l.contains("— enviado ")).count();
    }
    assert_eq!(listed, sent);
}
