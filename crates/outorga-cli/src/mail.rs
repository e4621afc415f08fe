//! The e-mail reminders' edge: every round plans each jurisdiction's
//! reminders from its agenda (the store's `plan_reminders`) and sends what
//! waits in the outbox over SMTP (lettre), recording each as sent or
//! failed. Servers sharing a database share the outbox: a reminder is
//! planned once, and claimed by one server at a time.

use anyhow::Context as _;
use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Body, Mailbox};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use outorga_rulebook::Library;
use outorga_store::{Outgoing, Site, Store};
use std::sync::Arc;
use std::time::Duration;

/// How long a server holds the reminders it claimed before another may
/// take them over.
const LEASE_MINUTES: i64 = 10;

/// How many reminders a round sends at most.
const PER_ROUND: i64 = 200;

/// An SMTP relay and the sender's address.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer").field("from", &self.from).finish()
    }
}

impl Mailer {
    /// The relay at `url` (`smtp://host:25` plain, `smtp://host:587?tls=required`
    /// with STARTTLS, `smtps://host:465`; user and password in the URL) and
    /// the sender `from` (`Transporte <transporte@cidade.gov.br>`).
    pub fn new(url: &str, from: &str) -> anyhow::Result<Mailer> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .with_context(|| {
                format!("--smtp-url `{url}` não é um endereço SMTP: use smtp://servidor:25, smtp://servidor:587?tls=required ou smtps://servidor:465")
            })?
            .timeout(Some(Duration::from_secs(30)))
            .build();
        let from: Mailbox = from.parse().with_context(|| {
            format!(
                "--mail-from `{from}` não é um endereço: use Transporte <transporte@cidade.gov.br>"
            )
        })?;
        Ok(Mailer { transport, from })
    }

    async fn send(&self, message: &Outgoing) -> Result<(), String> {
        let to: Mailbox = message
            .recipient
            .parse()
            .map_err(|e| format!("endereço inválido `{}`: {e}", message.recipient))?;
        let email = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(message.title.clone())
            .header(ContentType::TEXT_PLAIN)
            .body(
                // Quoted-printable: the Portuguese text reaches any relay.
                Body::new_with_encoding(
                    message.body.clone(),
                    ContentTransferEncoding::QuotedPrintable,
                )
                .map_err(|_| "o texto não pôde ser codificado".to_string())?,
            )
            .map_err(|e| e.to_string())?;
        self.transport
            .send(email)
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

/// What a round did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Round {
    pub planned: usize,
    pub sent: usize,
    pub failed: usize,
}

/// One round at `now` (UTC): plans every jurisdiction's reminders on its
/// local day (or on `on`, when given), then sends what waits.
pub async fn round(
    store: &Store,
    library: &Library,
    mailer: &Mailer,
    public_url: &str,
    (now, on): (chrono::NaiveDateTime, Option<chrono::NaiveDate>),
) -> anyhow::Result<Round> {
    let mut done = Round::default();
    let rulebooks: Vec<_> = library.rulebooks().collect();
    let mut seen: Vec<&str> = Vec::new();
    for first in &rulebooks {
        let j = first.jurisdiction.id.as_str();
        if seen.contains(&j) {
            continue;
        }
        seen.push(j);
        let theirs: Vec<_> = rulebooks
            .iter()
            .copied()
            .filter(|r| r.jurisdiction.id == j)
            .collect();
        let authority = first
            .jurisdiction
            .authority
            .clone()
            .unwrap_or_else(|| first.jurisdiction.name.clone());
        let site = Site {
            authority: &authority,
            url: public_url,
        };
        let today = on.unwrap_or_else(|| first.jurisdiction.today(now));
        done.planned += store
            .plan_reminders(&theirs, j, (today, now), &site)
            .await
            .with_context(|| format!("os lembretes de {j} não puderam ser planejados"))?;
    }
    let lease = chrono::Duration::minutes(LEASE_MINUTES);
    for message in store.claim_reminders(now, lease, PER_ROUND).await? {
        let outcome = mailer.send(&message).await;
        match &outcome {
            Ok(()) => done.sent += 1,
            Err(error) => {
                done.failed += 1;
                tracing::warn!(key = %message.key, %error, "a reminder could not be sent");
            }
        }
        store
            .reminder_outcome(&message.key, now, outcome.err().as_deref())
            .await?;
    }
    Ok(done)
}

/// Runs a round every `every`, the first at once, until the process ends.
pub async fn run(
    store: Store,
    library: Arc<Library>,
    mailer: Mailer,
    public_url: String,
    every: Duration,
) {
    let mut ticks = tokio::time::interval(every);
    loop {
        ticks.tick().await;
        let now = chrono::Utc::now().naive_utc();
        match round(&store, &library, &mailer, &public_url, (now, None)).await {
            Ok(done) if done != Round::default() => {
                tracing::info!(
                    planned = done.planned,
                    sent = done.sent,
                    failed = done.failed,
                    "reminders"
                );
            }
            Ok(_) => {}
            Err(error) => {
                tracing::error!(error = %format!("{error:#}"), "a round of reminders failed")
            }
        }
    }
}

/// `outorga reminders …`.
#[derive(Debug, clap::Subcommand)]
pub enum RemindersCommand {
    /// Plan the reminders due and send what waits, once (for a cron job, or
    /// with `--on` to plan as of another day).
    Send {
        #[arg(long, env = "OUTORGA_SMTP_URL")]
        smtp_url: String,
        #[arg(long, env = "OUTORGA_MAIL_FROM")]
        mail_from: String,
        /// Where the reminders send their readers (the deployment's address).
        #[arg(long, env = "OUTORGA_PUBLIC_URL")]
        public_url: String,
        /// Plan as of this day (YYYY-MM-DD) instead of each jurisdiction's today.
        #[arg(long)]
        on: Option<chrono::NaiveDate>,
        #[arg(long, env = "OUTORGA_RULEBOOKS")]
        rulebooks: Option<std::path::PathBuf>,
        #[command(flatten)]
        database: crate::users::DatabaseArgs,
    },
    /// The latest reminders of a jurisdiction: when planned, to whom, about
    /// what, and when sent (or why not).
    List {
        jurisdiction: String,
        #[arg(long, default_value_t = 50)]
        limit: i64,
        #[command(flatten)]
        database: crate::users::DatabaseArgs,
    },
}

/// Runs `outorga reminders …`.
pub fn command(command: RemindersCommand) -> anyhow::Result<std::process::ExitCode> {
    match command {
        RemindersCommand::Send {
            smtp_url,
            mail_from,
            public_url,
            on,
            rulebooks,
            database,
        } => {
            let library =
                match crate::rulebooks::load(&crate::rulebooks::rulebooks_folder(rulebooks)?) {
                    Ok(library) => library,
                    Err(code) => return Ok(code),
                };
            let mailer = Mailer::new(&smtp_url, &mail_from)?;
            crate::db::runtime()?.block_on(async {
                let store = database.open().await?;
                let now = chrono::Utc::now().naive_utc();
                let done = round(&store, &library, &mailer, &public_url, (now, on)).await?;
                println!(
                    "lembretes: {} planejados, {} enviados, {} com falha",
                    done.planned, done.sent, done.failed
                );
                Ok(if done.failed == 0 {
                    std::process::ExitCode::SUCCESS
                } else {
                    std::process::ExitCode::from(1)
                })
            })
        }
        RemindersCommand::List {
            jurisdiction,
            limit,
            database,
        } => crate::db::runtime()?.block_on(async {
            let store = database.open().await?;
            for m in store.reminders(&jurisdiction, limit).await? {
                let state = match (&m.sent_at, &m.last_error) {
                    (Some(at), _) => format!("enviado {at}"),
                    (None, Some(error)) => format!("falhou ({} tentativas): {error}", m.attempts),
                    (None, None) => "aguardando".to_string(),
                };
                println!(
                    "{} {} {} {} — {} — {state}",
                    m.planned_at, m.due_on, m.recipient, m.record, m.title
                );
            }
            Ok(std::process::ExitCode::SUCCESS)
        }),
    }
}
